"""``serve --web``: the pages of every hosted match over HTTP, read-only. An index of matches, then each match's
folder; GET and HEAD answered, every other method refused; a path out of a match's folder (``..``, encoded, a
symbolic link out, a hidden file) refused; every answer with its type and the page's script policy."""

from __future__ import annotations

import http.client
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_gm.running.page import PageIndex, PageNames
from sheets_gm.web.server import AddressError, HostedPage, parse_address, resolve_file, start_page_server
from tests.matchfiles import local_config


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    """A server of two matches' pages on a free port of this machine: ``friday`` (with a page) and ``<b>x</b>``.
    One for the module (its tests only ask it, and one that could write checks nothing was): a server's
    ``shutdown`` waits up to half a second for its loop to look."""
    tmp_path = tmp_path_factory.mktemp("served")
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<p>friday now</p>", encoding="utf-8")
    (site / "w1.html").write_text("<p>turn 1</p>", encoding="utf-8")
    (site / ".hidden").write_text("no", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("the seed", encoding="utf-8")
    (site / "out.html").symlink_to(tmp_path / "secret.txt")
    (site / "inside.html").symlink_to(site / "w1.html")
    pages = {"friday": HostedPage("Friday <b>match</b>", site), "other": HostedPage("Other", tmp_path / "missing")}
    server = start_page_server(("127.0.0.1", 0), lambda: pages)
    try:
        yield server.server_address[1], site
    finally:
        server.shutdown()
        server.server_close()


def _ask(port: int, method: str, path: str) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path)
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def test_the_index_lists_the_matches_and_each_match_serves_its_folder(served: tuple[int, Path]) -> None:
    port, _ = served
    status, headers, body = _ask(port, "GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b'href="friday/"' in body and b"Friday &lt;b&gt;match&lt;/b&gt;" in body
    assert _ask(port, "GET", "/friday/")[2] == b"<p>friday now</p>"
    assert _ask(port, "GET", "/friday/w1.html")[2] == b"<p>turn 1</p>"
    assert _ask(port, "GET", "/friday/inside.html")[2] == b"<p>turn 1</p>"  # a link within the folder
    status, headers, _ = _ask(port, "GET", "/friday")
    assert status == 301 and headers["location"] == "/friday/"
    status, headers, body = _ask(port, "HEAD", "/friday/w1.html")
    assert status == 200 and body == b"" and headers["content-length"] == "13"
    assert "script-src 'self'" in headers["content-security-policy"] and headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", ["/friday/../secret.txt", "/friday/%2e%2e/secret.txt", "/friday/..%2fsecret.txt",
                                  "/friday/%2e%2e%2fsecret.txt", "/friday/out.html", "/friday/.hidden",
                                  "/friday/..%5csecret.txt", "/friday//../secret.txt", "/nobody/", "/other/",
                                  "/friday/w1.html%00.png", "/friday/missing.html"])
def test_a_path_out_of_a_matchs_folder_is_refused(served: tuple[int, Path], path: str) -> None:
    status, _, body = _ask(served[0], "GET", path)
    assert status == 404 and b"seed" not in body


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"])
def test_every_method_but_get_and_head_is_refused(served: tuple[int, Path], method: str) -> None:
    port, site = served
    status, headers, _ = _ask(port, method, "/friday/w1.html")
    assert status == 405 and headers["allow"] == "GET, HEAD"
    assert (site / "w1.html").read_text(encoding="utf-8") == "<p>turn 1</p>"


def test_an_address_is_a_port_or_a_host_and_a_port() -> None:
    assert parse_address("127.0.0.1:8080") == ("127.0.0.1", 8080)
    for wrong in ("", "host", "80800", "localhost:http"):
        with pytest.raises(AddressError, match="give a port"):
            parse_address(wrong)


def hosted_pages(configs: list[Path], names: PageNames | None = None) -> dict[str, HostedPage]:
    """The pages a host serving ``configs`` (and keeping ``names``) serves at its first request."""
    return dict(PageIndex(lambda: configs, names)())


def test_the_hosted_pages_are_every_config_with_a_page_named_by_its_file(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = local_config(tmp_path / "a")
    second = local_config(tmp_path / "b")
    off = local_config(tmp_path, 'web = ""\n')
    pages = hosted_pages([first, second, off])
    assert list(pages) == ["match", "match-2"]
    assert pages["match"] == HostedPage("Test match", tmp_path / "a" / "web")


def test_a_match_keeps_its_address_and_an_address_is_never_given_to_another(tmp_path: Path) -> None:
    configs = {}
    for name in ("b", "c", "a"):
        (tmp_path / name / "web").mkdir(parents=True)
        configs[name] = local_config(tmp_path / name)
    names = PageNames()
    assert list(hosted_pages([configs["b"]], names)) == ["match"]
    later = hosted_pages([configs["a"], configs["b"]], names)  # a folder that sorts first, come since
    assert later["match"].folder == tmp_path / "b" / "web" and later["match-2"].folder == tmp_path / "a" / "web"
    gone = hosted_pages([configs["a"], configs["c"]], names)  # b's match gone: its address is given to nobody
    assert "match" not in gone and gone["match-2"].folder == tmp_path / "a" / "web"
    assert gone["match-3"].folder == tmp_path / "c" / "web"
    again = hosted_pages([configs["a"], configs["b"], configs["c"]])  # a host started again: each keeps its own
    assert {n: p.folder.parent.name for n, p in again.items()} == {"match-2": "a", "match": "b", "match-3": "c"}


def _match(root: Path, folder: str, *, built: bool = True) -> None:
    """A match in ``root/folder`` whose page (when ``built``) says which match it is, on its page of now and of
    its first resolution."""
    (root / folder).mkdir(parents=True)
    local_config(root / folder)
    if built:
        _build(root / folder)


def _links(port: int, root: Path) -> dict[str, str]:
    """Each link the served index lists, and the match its page (and its deep link ``w1.html``) is of."""
    import re

    found = {}
    for name in re.findall(r'href="([^"/]+)/"', _ask(port, "GET", "/")[2].decode()):
        status, _, body = _ask(port, "GET", f"/{name}/w1.html")
        found[name] = body.decode().split()[0].removeprefix("<p>") if status == 200 else ""
        if status == 200:
            assert _ask(port, "GET", f"/{name}/")[2].decode().split()[0] == f"<p>{found[name]}"
    return found


def test_every_link_the_host_gave_lands_on_its_match_through_additions_and_restarts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The property: every address ``serve --web`` ever listed serves the same match ever after (its page of now and
    a deep link) — through matches added while it runs (one whose first build comes after the host named it), added
    while it is down (sorting before the others: every config is ``match.toml``), and restarts."""
    from sheets_gm.commands.serve import _pages_served
    from sheets_gm.host.discovery import find_configs

    ever: dict[str, str] = {}

    def host_runs(*steps: Callable[[], None]) -> None:
        with _pages_served("127.0.0.1:0", lambda: find_configs([tmp_path])):
            port = int(capsys.readouterr().out.split("http://127.0.0.1:")[1].split("/")[0])
            for step in (lambda: None, *steps):
                step()
                for name, match in _links(port, tmp_path).items():
                    if match:  # (a match with no page yet has nothing to land on: checked from its first build)
                        assert ever.setdefault(name, match) == match, f"/{name}/ moved from {ever[name]} to {match}"

    for folder in ("m3", "m5"):
        _match(tmp_path, folder)
    host_runs(lambda: _match(tmp_path, "m4"), lambda: _match(tmp_path, "m6", built=False),  # added while it runs
              lambda: _build(tmp_path / "m6"))  # its first build, after the host named it
    _match(tmp_path, "m1")  # added while the host was down, sorting first
    host_runs(lambda: _match(tmp_path, "m2"))
    host_runs()  # a plain restart
    assert set(ever.values()) == {"m1", "m2", "m3", "m4", "m5", "m6"}
    assert ever["match"] == "m3" and ever["match-2"] == "m5"


def _build(folder: Path) -> None:
    (folder / "web").mkdir(exist_ok=True)
    for page in ("index.html", "w1.html"):
        (folder / "web" / page).write_text(f"<p>{folder.name} {page}</p>", encoding="utf-8")


def test_slow_clients_hold_no_thread_and_real_requests_are_answered() -> None:
    """Connections sending their request a line at a time (a slow client, or one meaning harm) hold a socket each,
    never a thread, no more than the limit; each is closed once its request is not whole ``header`` seconds after
    it opened, and a real request is answered meanwhile or right after."""
    import socket
    import threading

    server = start_page_server(("127.0.0.1", 0), lambda: {}, connections=16, idle=60, header=0.3)
    port = server.server_address[1]
    threads = threading.active_count()
    sockets = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(12)]
    try:
        for held in sockets:
            held.sendall(b"GET / HTTP/1.1\r\nX-Slow: 1\r\n")  # a header begun, never ended
        assert _ask(port, "GET", "/")[0] == 200  # answered while they are held
        assert threading.active_count() == threads  # not a thread more for them
        for held in sockets:  # then closed: their request never came whole
            assert held.recv(1) == b""
    finally:
        for held in sockets:
            held.close()
        server.shutdown()
        server.server_close()


def test_an_answer_is_gzipped_when_accepted_and_304_when_its_etag_is_named(served: tuple[int, Path]) -> None:
    import gzip

    port, site = served
    (site / "big.html").write_text("<p>the war</p>\n" * 500, encoding="utf-8")
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", "/friday/big.html", headers={"Accept-Encoding": "gzip, deflate"})
        answer = connection.getresponse()
        body = answer.read()
        assert answer.getheader("Content-Encoding") == "gzip" and len(body) < 500
        assert gzip.decompress(body) == (site / "big.html").read_bytes()
        tag = answer.getheader("ETag")
        connection.request("GET", "/friday/big.html", headers={"If-None-Match": str(tag)})
        again = connection.getresponse()
        assert again.status == 304 and again.read() == b""
    finally:
        connection.close()
    assert _ask(port, "GET", "/friday/big.html")[1].get("content-encoding") is None  # a client that asks for none
    status, _, body = _ask(port, "GET", "/favicon.ico")
    assert status == 204 and body == b""


def test_a_silent_connection_is_closed() -> None:
    import socket

    server = start_page_server(("127.0.0.1", 0), lambda: {}, idle=0.2)
    try:
        with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=10) as held:
            assert held.recv(1) == b""  # closed by the server, not by the ten seconds this side waits
        assert _ask(server.server_address[1], "GET", "/")[0] == 200
    finally:
        server.shutdown()
        server.server_close()


def test_serve_web_serves_the_pages_of_the_matches_under_its_folders(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from sheets_gm.commands.base import UsageError
    from sheets_gm.commands.serve import _pages_served
    from sheets_gm.host.discovery import find_configs

    local_config(tmp_path)
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "index.html").write_text("<p>the match</p>", encoding="utf-8")
    with _pages_served("127.0.0.1:0", lambda: find_configs([tmp_path])):
        port = int(capsys.readouterr().out.split("http://127.0.0.1:")[1].split("/")[0])
        assert _ask(port, "GET", "/match/")[2] == b"<p>the match</p>"
    with pytest.raises(UsageError, match=r"--web nowhere: .*give a port"), _pages_served("nowhere", list):
        pass


PIECES = ["..", ".", "%2e%2e", "%2E", "%2f", "%5c", "\\", "/", "//", "w1.html", "out.html", "inside.html", ".hidden",
          "site", "secret.txt", "%00", "index.html", "%252e%252e"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=6))
def test_no_path_leaves_the_folder(tmp_path_factory: pytest.TempPathFactory, pieces: list[str]) -> None:
    """The class behind the cases above, as a property: whatever a path is made of, the file it names (if any) is a
    regular file inside the match's folder, never the secret beside it."""
    root = tmp_path_factory.getbasetemp() / "property"
    site = root / "site"
    if not site.exists():
        site.mkdir(parents=True)
        (site / "w1.html").write_text("turn 1", encoding="utf-8")
        (site / "index.html").write_text("now", encoding="utf-8")
        (root / "secret.txt").write_text("the seed", encoding="utf-8")
        (site / "out.html").symlink_to(root / "secret.txt")
        (site / "inside.html").symlink_to(site / "w1.html")
    found = resolve_file(site, "/".join(pieces))
    assert found is None or (found.is_relative_to(site.resolve()) and found.is_file())
