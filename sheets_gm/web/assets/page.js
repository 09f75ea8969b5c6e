/* The match page: hover or tap a square for what stands there (Space keeps it), click a unit for its makeup,
   step through the windows, and read the deadline in the viewer's own time zone. Text goes in as text only. */
(function () {
  "use strict";
  var places = JSON.parse(document.getElementById("places").textContent);
  var info = document.getElementById("info");
  var dialog = document.getElementById("makeup");
  var kept = false;
  var LOCAL_TIME = {weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
                    timeZoneName: "short"};

  function say(place) {
    var lines = [place[0] + (place[1] ? " · " + place[1] : "")];
    lines.push(place[2] ? place[2] : "nobody here");
    info.textContent = lines.join("\n");
  }
  function placeOf(event) {
    var g = event.target.closest ? event.target.closest(".p") : null;
    var svg = g ? g.closest("svg.map") : null;
    return g && svg ? places[Number(svg.getAttribute("data-plane"))][Number(g.getAttribute("data-i"))] : null;
  }
  function open(place) {
    if (!place || !place[3]) { return; }
    dialog.querySelector(".name").textContent = place[0];
    dialog.querySelector(".text").textContent = place[3];
    if (dialog.showModal) { dialog.showModal(); } else { dialog.setAttribute("open", ""); }
  }
  document.querySelectorAll("svg.map").forEach(function (svg) {
    svg.addEventListener("mouseover", function (e) { var p = placeOf(e); if (p && !kept) { say(p); } });
    svg.addEventListener("click", function (e) { var p = placeOf(e); if (p) { say(p); open(p); } });
    svg.addEventListener("keydown", function (e) {
      if (e.key === "Enter") { var p = placeOf(e); if (p) { say(p); open(p); } }
    });
  });
  document.addEventListener("keydown", function (e) {
    if (e.code === "Space" && !dialog.open && e.target.tagName !== "SELECT" && e.target.tagName !== "BUTTON") {
      e.preventDefault();
      kept = !kept;
      info.classList.toggle("kept", kept);
    }
  });

  var windows = window.SHEETS_GM_WINDOWS || [];
  var here = document.body.getAttribute("data-file");
  var at = windows.findIndex(function (w) { return w.file === here; });
  var select = document.getElementById("windows");
  windows.forEach(function (w, i) {
    var option = document.createElement("option");
    option.value = w.file;
    option.textContent = w.label;
    option.selected = i === at;
    select.appendChild(option);
  });
  function go(i) { if (i >= 0 && i < windows.length) { window.location.href = windows[i].file; } }
  document.getElementById("prev").disabled = at <= 0;
  document.getElementById("next").disabled = at < 0 || at >= windows.length - 1;
  document.getElementById("prev").addEventListener("click", function () { go(at - 1); });
  document.getElementById("next").addEventListener("click", function () { go(at + 1); });
  select.addEventListener("change", function () { go(select.selectedIndex); });

  document.querySelectorAll("time[data-local]").forEach(function (t) {
    var moment = new Date(t.getAttribute("datetime"));
    if (!isNaN(moment.getTime())) {
      t.textContent = new Intl.DateTimeFormat(undefined, LOCAL_TIME).format(moment);
    }
  });
})();
