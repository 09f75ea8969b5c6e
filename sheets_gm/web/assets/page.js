/* The match page: hover or tap a square for what stands there (Space keeps it), click a unit for its makeup,
   step through the windows, and read the deadline in the viewer's own time zone. Text goes in as text only. */
(function () {
  "use strict";
  // Each plane's places: name, ground, who, makeup, column, row. What never changes while its ground does (a place's
  // name, column and row) comes from the ground's names file (ground-<hash>.js); the page gives the rest, for the
  // places that are more than bare ground.
  var grounds = window.SHEETS_GM_GROUNDS || {};
  var places = JSON.parse(document.getElementById("places").textContent).map(function (plane) {
    var all = (grounds[plane[0]] || []).map(function (fixed) { return [fixed[0], "", "", "", fixed[1], fixed[2]]; });
    plane[1].forEach(function (more) {
      var place = all[more[0]];
      if (place) { place[1] = more[1]; place[2] = more[2]; place[3] = more[3]; }
    });
    return all;
  });
  window.SHEETS_GM_PLACES = places;
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
  // Each plane's places by column and row: a place its ground's picture draws is found under the pointer by them
  var grids = places.map(function (plane) {
    var grid = {};
    plane.forEach(function (place, i) { grid[place[4] + "," + place[5]] = i; });
    return grid;
  });
  function centre(svg, col, row) {  // a place's centre, as the page's maps draw it (svg.py)
    var side = Number(svg.getAttribute("data-side")), margin = Number(svg.getAttribute("data-margin"));
    if (svg.getAttribute("data-shape") !== "hex") { return [margin + (col + 0.5) * side, margin + (row + 0.5) * side]; }
    var h = Math.sqrt(3) * side;
    return [margin + side + col * 1.5 * side, margin + h / 2 + row * h + (col % 2) * h / 2];
  }
  function under(svg, event) {  // the index of the place under the pointer on a map, or -1
    var matrix = svg.getScreenCTM ? svg.getScreenCTM() : null;
    if (!matrix) { return -1; }
    var point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    var side = Number(svg.getAttribute("data-side")), margin = Number(svg.getAttribute("data-margin"));
    var grid = grids[Number(svg.getAttribute("data-plane"))] || {};
    if (svg.getAttribute("data-shape") !== "hex") {
      var found = grid[Math.floor((point.x - margin) / side) + "," + Math.floor((point.y - margin) / side)];
      return found === undefined ? -1 : found;
    }
    var best = -1, nearest = side * side, first = Math.round((point.x - margin - side) / (1.5 * side));
    for (var col = Math.max(first - 1, 0); col <= first + 1; col++) {
      var middle = Math.round((point.y - margin - Math.sqrt(3) * side * (0.5 + (col % 2) / 2)) / (Math.sqrt(3) * side));
      for (var row = Math.max(middle - 1, 0); row <= middle + 1; row++) {
        var i = grid[col + "," + row];
        if (i === undefined) { continue; }
        var at = centre(svg, col, row), d = Math.pow(point.x - at[0], 2) + Math.pow(point.y - at[1], 2);
        if (d < nearest) { nearest = d; best = i; }
      }
    }
    return best;
  }
  function spot(event) {  // the map and the index of the place an event is on: its own drawing, else its ground's
    var svg = event.target.closest ? event.target.closest("svg.map") : null;
    if (!svg) { return null; }
    var g = event.target.closest(".p");
    var i = g ? Number(g.getAttribute("data-i")) : event.clientX === undefined ? -1 : under(svg, event);
    return i >= 0 ? {svg: svg, i: i} : null;
  }
  function placeOf(event) {
    var at = spot(event);
    return at ? places[Number(at.svg.getAttribute("data-plane"))][at.i] : null;
  }
  function point(event) {  // the outline round the place of the ground under the pointer (none over a drawn one)
    var at = spot(event), cursor;
    document.querySelectorAll("svg.map use.cur").forEach(function (c) { c.setAttribute("visibility", "hidden"); });
    if (!at || event.target.closest(".p") || !(cursor = at.svg.querySelector("use.cur"))) { return; }
    var place = places[Number(at.svg.getAttribute("data-plane"))][at.i];
    var xy = centre(at.svg, place[4], place[5]), side = Number(at.svg.getAttribute("data-side"));
    var hex = at.svg.getAttribute("data-shape") === "hex";
    cursor.setAttribute("x", hex ? xy[0].toFixed(1) : String(xy[0] - side / 2));
    cursor.setAttribute("y", hex ? xy[1].toFixed(1) : String(xy[1] - side / 2));
    cursor.setAttribute("visibility", "visible");
  }
  // The Log lines this page shows (the window's, or the latest results'), for what a click on a place opens
  var logLines = Array.prototype.map.call(
    document.querySelectorAll("section.latest tbody tr td:last-child, section.log tbody tr td:last-child"),
    function (td) { return td.textContent; });
  function named(place) {
    var names = place[2].split(/\n|\s{2,}/).map(function (line) {
      return line.replace(/^[^\p{L}\p{N}]+/u, "").replace(/\s*\(\d+ · \d+\)\s*$/, "")
        .replace(/[^\p{L}\p{N}]+$/u, "").split(" (")[0];
    }).reduce(function (all, name) {  // and its id, up to its first number (Bo-R4 of "Bo-R4 Footpad 30/30 HP")
      var id = /^[^\d]*\d+/.exec(name);
      return all.concat(id && id[0] !== name ? [name, id[0]] : [name]);
    }, []).filter(function (name) { return name.length > 1; });
    var words = names.map(function (name) {
      return new RegExp("(^|[^\\p{L}\\p{N}])" + name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") +
                        "($|[^\\p{L}\\p{N}])", "u");
    });
    var found = [];
    logLines.forEach(function (line) {
      if (found.length < 12 && words.some(function (word) { return word.test(line); })) { found.push(line); }
    });
    return found;
  }
  function open(place) {
    if (!place || !(place[3] || place[2])) { return; }
    var lines = named(place);
    dialog.querySelector(".name").textContent = place[0];
    dialog.querySelector(".text").textContent = (place[3] || place[2]) +
      (lines.length ? "\n\nIn this page's Log:\n" + lines.join("\n") : "");
    trailButtons(place);
    if (dialog.showModal) { dialog.showModal(); } else { dialog.setAttribute("open", ""); }
  }
  document.querySelectorAll("svg.map").forEach(function (svg) {
    svg.addEventListener("mousemove", function (e) {
      if (kept) { return; }
      var p = placeOf(e);
      if (p) { say(p); }
      point(e);
    });
    svg.addEventListener("mouseleave", function () {
      svg.querySelectorAll("use.cur").forEach(function (c) { c.setAttribute("visibility", "hidden"); });
    });
    svg.addEventListener("click", function (e) { var p = placeOf(e); if (p) { say(p); open(p); } });
    svg.addEventListener("keydown", function (e) {
      if (e.key === "Enter") { var p = placeOf(e); if (p) { say(p); open(p); } }
    });
  });

  // One army's trail over the turns: each resolution's steps, kept beside its page (w3.trail.js: trail.py), loaded
  // the first time a player asks for a trail; the resolutions up to this page's, drawn on its map and listed
  var history = window.SHEETS_GM_WINDOWS || [];
  var upTo = history.findIndex(function (w) { return w.file === document.body.getAttribute("data-file"); });
  var stepped = history.slice(0, upTo < 0 ? history.length : upTo + 1).filter(function (w) { return w.trail; });
  var TRAIL_ID = /^[A-Z][\p{L}\p{N}_]*-(?:[A-Z]?\d+|[A-Z])$/u;
  function trailKey(name) {  // as trail.trail_key: a unit's id, else its name without the signs after it
    var first = name.split(" ")[0];
    return TRAIL_ID.test(first) ? first : name.replace(/[^\p{L}\p{N}_)]+$/u, "");
  }
  var waiting = null;
  function withTrails(then) {
    var store = window.SHEETS_GM_TRAILS = window.SHEETS_GM_TRAILS || {};
    if (waiting) { waiting.push(then); return; }
    var wanted = stepped.filter(function (w) { return !store[w.file]; });
    if (!wanted.length) { then(); return; }
    waiting = [then];
    var left = wanted.length;
    var done = function () {
      if (--left > 0) { return; }
      var all = waiting;
      waiting = null;
      all.forEach(function (f) { f(); });
    };
    wanted.forEach(function (w) {
      var script = document.createElement("script");
      script.src = w.trail;
      script.onload = done;
      script.onerror = done;
      document.body.appendChild(script);
    });
  }
  var byName = places.map(function (plane) {
    var index = {};
    plane.forEach(function (place, i) { index[place[0]] = i; });
    return index;
  });
  function planeTitle(k) {
    var svg = document.querySelector('svg.map[data-plane="' + k + '"]');
    var title = svg ? (svg.getAttribute("aria-label") || "") : "";
    return places.length > 1 && title !== "The map" ? title.split(" (")[0] + " " : "";
  }
  function spoken(at) { return at ? planeTitle(at[0]) + at[1] : "off the map"; }
  var SVG = "http://www.w3.org/2000/svg";
  function drawTrail(steps) {
    document.querySelectorAll("svg.map g.trail").forEach(function (g) { g.parentNode.removeChild(g); });
    var runs = [];  // each plane's run of places in order: [plane, [[x, y], ...]], and each step's end numbered
    var ends = [];
    steps.forEach(function (step) {
      [step.from].concat(step.way, [step.to]).forEach(function (at) {
        var svg = at && document.querySelector('svg.map[data-plane="' + at[0] + '"]');
        var i = at && byName[at[0]] ? byName[at[0]][at[1]] : undefined;
        if (!svg || i === undefined) { return; }
        var xy = centre(svg, places[at[0]][i][4], places[at[0]][i][5]);
        var run = runs[runs.length - 1];
        if (!run || run.svg !== svg) { runs.push(run = {svg: svg, points: []}); }
        var last = run.points[run.points.length - 1];
        if (!last || last[0] !== xy[0] || last[1] !== xy[1]) { run.points.push(xy); }
      });
      var run = runs[runs.length - 1], end = run && run.points[run.points.length - 1];
      var before = ends[ends.length - 1];  // (a step that stays is numbered by the one that came there)
      if (step.to && end && !(before && before.svg === run.svg && before.xy === end)) {
        ends.push({svg: run.svg, xy: end, n: step.n});
      }
    });
    var groups = new Map();
    function group(svg) {
      if (!groups.has(svg)) {
        var g = document.createElementNS(SVG, "g");
        g.setAttribute("class", "trail");
        svg.appendChild(g);
        groups.set(svg, g);
      }
      return groups.get(svg);
    }
    runs.forEach(function (run) {
      var line = document.createElementNS(SVG, "polyline");
      line.setAttribute("points", run.points.map(function (xy) { return xy[0].toFixed(1) + "," + xy[1].toFixed(1); })
        .join(" "));
      group(run.svg).appendChild(line);
    });
    var last = null;
    ends.forEach(function (end) {
      var dot = document.createElementNS(SVG, "circle"), text = document.createElementNS(SVG, "text");
      dot.setAttribute("cx", end.xy[0].toFixed(1));
      dot.setAttribute("cy", end.xy[1].toFixed(1));
      dot.setAttribute("r", "7");
      text.setAttribute("x", end.xy[0].toFixed(1));
      text.setAttribute("y", (end.xy[1] + 3.5).toFixed(1));
      text.setAttribute("text-anchor", "middle");
      text.textContent = end.n;
      group(end.svg).appendChild(dot);
      group(end.svg).appendChild(text);
      last = dot;
    });
    return last;
  }
  var trailBox = document.getElementById("trail");
  function cell(row, text) {
    var td = document.createElement("td");
    if (typeof text === "string") { td.textContent = text; } else { td.appendChild(text); }
    row.appendChild(td);
  }
  function battles(lines) {
    if (!lines.length) { return ""; }
    var fold = document.createElement("details"), summary = document.createElement("summary");
    summary.textContent = lines.length + " line" + (lines.length === 1 ? "" : "s") + " of battle";
    fold.appendChild(summary);
    lines.forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line[2];
      fold.appendChild(p);
    });
    return fold;
  }
  function showTrail(key) {
    withTrails(function () {
      var store = window.SHEETS_GM_TRAILS || {};
      var keys = [], was = key;  // its key in each resolution, from the last back: a unit revealed was a token
      stepped.slice().reverse().forEach(function (w) {
        var data = store[w.file];
        keys.unshift(was);
        if (data && data.revealed && data.revealed[was]) { was = data.revealed[was]; }
      });
      var steps = [], at = null;  // a resolution that lists no step of it: it stayed where it stood (trail.py)
      stepped.forEach(function (w, i) {
        var data = store[w.file] || {armies: {}, lines: []}, step = data.armies[keys[i]];
        if (!step && !at) { return; }
        step = step || [at, at, [], [], ""];
        steps.push({n: w.label.split(".")[0], label: w.label, from: step[0], to: step[1], way: step[2],
                    lines: step[3].map(function (l) { return data.lines[l]; }), result: step[4]});
        at = step[1];
      });
      var last = drawTrail(steps);
      if (!trailBox) { return; }
      trailBox.hidden = false;
      trailBox.querySelector("h2").textContent = "The trail of " + key + " over the turns";
      trailBox.querySelector(".count").textContent = steps.length ? steps.length + " resolution" +
        (steps.length === 1 ? "" : "s") + " from the public Log and maps; its path is drawn on the map, each " +
        "resolution's end numbered." : "No resolution of this page's history shows it.";
      var body = trailBox.querySelector("tbody");
      body.textContent = "";
      steps.forEach(function (step) {
        var row = document.createElement("tr");
        var moved = step.way.length || !step.from || !step.to || step.from[0] !== step.to[0] || step.from[1] !== step.to[1];
        cell(row, step.label);
        cell(row, moved ? spoken(step.from) + " → " + step.way.map(spoken).concat([spoken(step.to)]).join(" → ")
          : "stays on " + spoken(step.to));
        cell(row, battles(step.lines));
        cell(row, step.result);
        body.appendChild(row);
      });
      (last || trailBox).scrollIntoView({block: "center", inline: "center"});
    });
  }
  var trailList = dialog.querySelector(".trails");
  function trailButtons(place) {
    if (!trailList) { return; }
    trailList.textContent = "";
    if (!stepped.length) { return; }
    place[2].split(/\n|\s{2,}/).forEach(function (line) {
      if (!line.trim() || line.indexOf("⚔ ") === 0) { return; }
      var name = line.replace(/^[^\p{L}\p{N}]+/u, "").replace(/\s*\(\d+ · \d+\)\s*$/, "");
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = "Its trail over the turns: " + trailKey(name);
      button.addEventListener("click", function () { dialog.close(); showTrail(trailKey(name)); });
      trailList.appendChild(button);
    });
  }
  if (trailBox) {
    trailBox.querySelector("button.hide").addEventListener("click", function () {
      trailBox.hidden = true;
      document.querySelectorAll("svg.map g.trail").forEach(function (g) { g.parentNode.removeChild(g); });
    });
  }

  // Space keeps the information area, except where the key does something of its own: a space typed in the finder,
  // a fold opened, a list or a button used
  var OWN_SPACE = /^(INPUT|SELECT|BUTTON|SUMMARY)$/;
  document.addEventListener("keydown", function (e) {
    if (e.code === "Space" && !dialog.open && !OWN_SPACE.test(e.target.tagName)) {
      e.preventDefault();
      kept = !kept;
      info.classList.toggle("kept", kept);
    }
  });

  // Everyone on the map, a line each: its side's sign, its name, where it stands, its rank and units when its
  // line gives them ("◆ Keldon Horde (5 · 10000)"); the finder and the list read these.
  var SIDE_SIGNS = "◆●○▼▲■□";
  var everyone = [];
  places.forEach(function (plane, k) {
    var svg = document.querySelector('svg.map[data-plane="' + k + '"]');
    var title = svg ? (svg.getAttribute("aria-label") || "") : "";
    plane.forEach(function (place, i) {
      if (!place[2]) { return; }
      // a line may hold several, two spaces apart (a battle's armies); a battle's own line ("⚔ battle") is none
      place[2].split(/\n|\s{2,}/).forEach(function (line) {
        if (!line.trim() || line.indexOf("⚔ ") === 0) { return; }
        var side = "";
        for (var c = 0; c < line.length; c++) { if (SIDE_SIGNS.indexOf(line[c]) >= 0) { side = line[c]; break; } }
        var figures = /\((\d+) · (\d+)\)\s*$/.exec(line);
        var name = line.replace(/^[^\p{L}\p{N}]+/u, "").replace(/\s*\(\d+ · \d+\)\s*$/, "");
        everyone.push({side: side, name: name || line, line: line, square: place[0], player: playerOf(place[3], name),
                       where: (places.length > 1 && title !== "The map" ? title + " " : "") + place[0],
                       rank: figures ? Number(figures[1]) : null, units: figures ? Number(figures[2]) : null,
                       plane: k, i: i});
      });
    });
  });
  function playerOf(makeup, name) {  // an army's player, where its makeup names one (the war's: "player Sam")
    var at = name ? makeup.indexOf("\n" + name + ":") : -1;
    var found = at < 0 ? null : /(?:^|· |\n\s+)player ([^·\n]+)/.exec(makeup.slice(at + 1).split(/\n(?=\S)/)[0]);
    return found ? found[1].trim() : "";
  }
  function show(who) {
    var svg = document.querySelector('svg.map[data-plane="' + who.plane + '"]');
    var g = svg ? svg.querySelector('g.p[data-i="' + who.i + '"]') : null;
    if (!g) { return; }
    document.querySelectorAll("g.p.found").forEach(function (old) { old.classList.remove("found"); });
    g.classList.add("found");
    g.scrollIntoView({block: "center", inline: "center"});
    var place = places[who.plane][who.i];
    say(place);
    open(place);
  }
  function item(who) {
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = who.line + " — " + who.where + (who.player ? " · player " + who.player : "");
    button.addEventListener("click", function () { show(who); });
    return button;
  }
  // a line of the latest results names its square: a click shows it on the map
  document.querySelectorAll("a[data-at]").forEach(function (a) {
    a.addEventListener("click", function (e) {
      var at = a.getAttribute("data-at").split(":");
      e.preventDefault();
      show({plane: Number(at[0]), i: Number(at[1])});
    });
  });
  // the page's Log lines (and who is out), which the finder reads after the map: a killed army is in no square
  var logged = [];
  document.querySelectorAll("section.log tbody tr, .latest details.log tbody tr, .standings li").forEach(function (row) {
    var cells = row.tagName === "TR" ? Array.prototype.map.call(row.children, function (c) { return c.textContent; })
      : [row.textContent];
    logged.push({line: cells.join(" · ").replace(/\s+/g, " ").trim(), row: row});
  });
  function inLog(hit) {
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = "In the Log: " + hit.line;
    button.addEventListener("click", function () {
      for (var up = hit.row.parentNode; up; up = up.parentNode) { if (up.tagName === "DETAILS") { up.open = true; } }
      document.querySelectorAll(".found-row").forEach(function (old) { old.classList.remove("found-row"); });
      hit.row.classList.add("found-row");
      hit.row.scrollIntoView({block: "center"});
    });
    return button;
  }
  // who left the map in the resolutions up to this page (killed, or off it), and is not on it now: the finder
  // lists them, marked, each with its trail
  var onMap = {};
  everyone.forEach(function (who) { onMap[trailKey(who.name)] = true; });
  var departed = [];
  stepped.forEach(function (w) {
    (w.gone || []).forEach(function (gone) {
      departed = departed.filter(function (d) { return d.key !== gone[0]; });
      if (!onMap[gone[0]]) { departed.push({key: gone[0], result: gone[1], at: [gone[2], gone[3]], label: w.label}); }
    });
  });
  var find = document.getElementById("find");
  var found = document.getElementById("found");
  if (find && found) {
    find.addEventListener("input", function () {
      var words = find.value.trim().toLowerCase();
      found.textContent = "";
      if (words.length < 2) { return; }
      var hits = everyone.filter(function (who) {
        return who.line.toLowerCase().indexOf(words) >= 0 || who.where.toLowerCase() === words ||
          who.player.toLowerCase().indexOf(words) >= 0;
      });
      var gone = departed.filter(function (d) { return d.key.toLowerCase().indexOf(words) >= 0; }).slice(0, 25);
      var lines = logged.filter(function (hit) { return hit.line.toLowerCase().indexOf(words) >= 0; });
      hits.slice(0, 25).forEach(function (who) {
        var li = document.createElement("li");
        li.appendChild(item(who));
        found.appendChild(li);
      });
      gone.forEach(function (d) {
        var li = document.createElement("li"), button = document.createElement("button");
        button.type = "button";
        button.className = "gone";
        button.textContent = (d.result === "killed" ? "✝ " : "") + d.key + " — " + d.result + " in " + d.label + ", last on " + spoken(d.at) +
          ": its trail";
        button.addEventListener("click", function () { showTrail(d.key); });
        li.appendChild(button);
        found.appendChild(li);
      });
      lines.slice(0, hits.length >= 25 ? 0 : 25 - hits.length).forEach(function (hit) {
        var li = document.createElement("li");
        li.appendChild(inLog(hit));
        found.appendChild(li);
      });
      var shown = Math.min(25, hits.length + lines.length);
      var more = document.createElement("li");
      more.className = "more";
      more.textContent = hits.length + lines.length + gone.length === 0 ? "Nobody on the map or in this page's Log matches." :
        hits.length + lines.length > shown ? (hits.length + lines.length - shown) + " more: type more letters." : "";
      if (more.textContent) { found.appendChild(more); }
    });
  }
  var roster = document.getElementById("roster");
  if (roster) {
    roster.querySelector(".count").textContent = String(everyone.length);
    var body = roster.querySelector("tbody");
    var order = {key: "", up: true};
    var draw = function () {
      body.textContent = "";
      everyone.forEach(function (who) {
        var tr = document.createElement("tr");
        [who.side, null, who.where, who.rank, who.units].forEach(function (value) {
          var td = document.createElement("td");
          if (value === null) { td.appendChild(item(who)); td.firstChild.textContent = who.name; }
          else { td.textContent = value === undefined ? "" : String(value); }
          tr.appendChild(td);
        });
        body.appendChild(tr);
      });
    };
    roster.querySelectorAll("th button").forEach(function (button) {
      button.addEventListener("click", function () {
        var key = button.getAttribute("data-key");
        order = {key: key, up: order.key === key ? !order.up : true};
        everyone.sort(function (a, b) {
          var x = a[key], y = b[key];
          var cmp = typeof x === "number" && typeof y === "number" ? x - y :
            String(x === null ? "" : x).localeCompare(String(y === null ? "" : y), undefined, {numeric: true});
          return order.up ? cmp : -cmp;
        });
        roster.querySelectorAll("th").forEach(function (th) { th.removeAttribute("aria-sort"); });
        button.parentNode.setAttribute("aria-sort", order.up ? "ascending" : "descending");
        draw();
      });
    });
    roster.addEventListener("toggle", function () { if (roster.open && !body.firstChild) { draw(); } });
  }

  // my side: the map dims the squares where none of a side's stand, the latest results keep the lines naming one of
  // its own; the choice is kept for the other windows' pages (this browser's storage)
  var whose = document.getElementById("whose");
  var signs = {};
  everyone.forEach(function (who) { if (who.side) { signs[who.side] = true; } });
  if (whose && Object.keys(signs).length > 1) {
    var legend = Array.prototype.map.call(document.querySelectorAll(".legend p"), function (p) {
      return p.textContent; }).join(" · ");
    Object.keys(signs).forEach(function (sign) {
      var named = new RegExp(sign + " ([^·(\\n:]+)").exec(legend);
      var option = document.createElement("option");
      option.value = sign;
      option.textContent = sign + " " + (named ? named[1].trim() : "");
      whose.appendChild(option);
    });
    whose.parentNode.hidden = false;
    var filter = function () {
      var sign = whose.value;
      var names = everyone.filter(function (who) { return who.side === sign; }).map(function (who) { return who.name; });
      places.forEach(function (plane, k) {
        var svg = document.querySelector('svg.map[data-plane="' + k + '"]');
        plane.forEach(function (place, i) {
          var g = svg && place[2] ? svg.querySelector('g.p[data-i="' + i + '"]') : null;
          if (g) { g.classList.toggle("dim", !!sign && place[2].indexOf(sign) < 0); }
        });
      });
      document.querySelectorAll(".latest li").forEach(function (li) {
        var text = li.textContent;
        li.hidden = !!sign && !names.some(function (name) { return text.indexOf(name) >= 0; });
      });
      try { window.localStorage.setItem("sheets-gm-whose", sign); } catch (e) { /* a page from disk may keep none */ }
    };
    try { whose.value = window.localStorage.getItem("sheets-gm-whose") || ""; } catch (e) { whose.value = ""; }
    if (whose.selectedIndex < 0) { whose.value = ""; }
    whose.addEventListener("change", filter);
    filter();
  }

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
