"""The gateway as a trust boundary (docs/web.md, "Who may use the page"): other sites' pages
cannot open sessions or start searches through it, it answers for its own host names only,
and the page shows what servers and files say as text, never as markup. Real gateways, real
kibitz servers, real Chromium; the other site is a second HTTP server on another port."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from gateways import RunningGateway
from servers import KIBITZ

from kibitz.clients import SyncClient
from kibitz.match.record import Record
from kibitz.server.config import ServerConfig
from kibitz.server.embedded import BackgroundServer
from kibitz.web.gateway import exposure_warning

OTHER_SITE = "http://evil.example"
OPEN = '{"game": "connect4"}'
INJECTED = "<img src=x onerror=window.pwned=1>"  # what a hostile name or choice holds


def server_sessions(address: str) -> set[str]:
    """The ids of the sessions open on the server at `address` (the tests' host's)."""
    with SyncClient(address) as client:
        return {session.id for session in client.run(lambda c: c.sessions())}


@pytest.fixture
def http(gateway) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=gateway.url, timeout=30) as client:
        yield client


# ---------------------------------------------------------------------------- HTTP


@pytest.mark.parametrize(
    ("headers", "code"),
    [
        ({"Origin": OTHER_SITE, "Content-Type": "text/plain"}, "CROSS_SITE"),
        ({"Origin": OTHER_SITE, "Content-Type": "application/json"}, "CROSS_SITE"),
        ({"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}, "CROSS_SITE"),
        ({"Origin": "null", "Content-Type": "application/json"}, "CROSS_SITE"),
        ({"Content-Type": "text/plain"}, "NOT_JSON"),
        ({"Content-Type": "application/x-www-form-urlencoded"}, "NOT_JSON"),
    ],
)
def test_requests_from_other_sites_open_no_session(http, gateway, kibitz_servers, headers, code):
    before = server_sessions(kibitz_servers[0].address)
    answer = http.post("/api/sessions", content=OPEN, headers=headers)
    assert answer.status_code == 403, answer.text
    assert answer.json()["code"] == code
    assert answer.json()["error"].startswith("refused POST /api/sessions")
    assert server_sessions(kibitz_servers[0].address) == before
    assert gateway.app.state.gateway.sessions == {}


def test_another_port_of_the_same_host_is_another_site(http, gateway):
    other_port = f"http://127.0.0.1:{gateway.port + 1}"
    headers = {"Origin": other_port, "Sec-Fetch-Site": "same-site"}
    answer = http.post("/api/sessions", json={"game": "connect4"}, headers=headers)
    assert answer.status_code == 403 and answer.json()["code"] == "CROSS_SITE"
    answer = http.post("/api/sessions", json={"game": "connect4"}, headers={"Origin": other_port})
    assert answer.status_code == 403 and other_port in answer.json()["error"]


def test_a_known_session_cannot_be_searched_stopped_or_closed_from_elsewhere(http, gateway):
    session = http.post("/api/sessions", json={"game": "connect4"}).json()["id"]
    foreign = {"Origin": OTHER_SITE}
    search = http.post(
        f"/api/sessions/{session}/search",
        content='{"limits": {"infinite": true}}',
        headers={**foreign, "Content-Type": "text/plain"},
    )
    assert search.status_code == 403
    assert gateway.app.state.gateway.sessions[session].searching is None
    assert http.post(f"/api/sessions/{session}/stop", headers=foreign).status_code == 403
    assert http.delete(f"/api/sessions/{session}", headers=foreign).status_code == 403
    assert session in gateway.app.state.gateway.sessions
    assert http.delete(f"/api/sessions/{session}").status_code == 200


def test_the_own_page_and_tools_without_an_origin_are_served(http, gateway, kibitz_servers):
    before = server_sessions(kibitz_servers[0].address)
    own = {"Origin": gateway.url, "Sec-Fetch-Site": "same-origin"}
    for headers in ({}, own, {"Content-Type": "application/json; charset=utf-8"}):
        headers = {"Content-Type": "application/json", **headers}
        answer = http.post("/api/sessions", content=OPEN, headers=headers)
        assert answer.status_code == 200, answer.text
    assert len(server_sessions(kibitz_servers[0].address) - before) == 3
    assert http.post("/api/describe", json={"game": "nim"}, headers=own).status_code == 200
    assert http.get("/api/games", headers={"Origin": OTHER_SITE}).status_code == 200  # reads


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "127.0.0.1:1", ""]
)
def test_a_foreign_host_is_not_answered(http, gateway, host):
    for method, path in (("GET", "/"), ("GET", "/api/games"), ("POST", "/api/sessions")):
        answer = http.request(method, path, json={"game": "connect4"}, headers={"Host": host})
        assert answer.status_code == 400, (method, path, answer.text)
        assert answer.json()["code"] == "UNKNOWN_HOST"
        assert "--allow-host" in answer.json()["error"]
    assert gateway.app.state.gateway.sessions == {}


def test_loopback_names_are_answered(http, gateway):
    for host in (f"localhost:{gateway.port}", "localhost", f"127.0.0.1:{gateway.port}"):
        assert http.get("/api/servers", headers={"Host": host}).status_code == 200, host


def test_allow_host_admits_the_named_host(kibitz_servers):
    running = RunningGateway([kibitz_servers[0].address], allowed_hosts=["kibitz.example"])
    named = f"kibitz.example:{running.port}"
    try:
        with httpx.Client(base_url=running.url, timeout=30) as http:
            assert http.get("/", headers={"Host": named}).status_code == 200
            headers = {"Host": named, "Origin": f"http://{named}"}
            answer = http.post("/api/sessions", json={"game": "connect4"}, headers=headers)
            assert answer.status_code == 200, answer.text
            headers = {"Host": "other.example", "Origin": "http://other.example"}
            assert http.get("/api/games", headers=headers).status_code == 400
    finally:
        running.stop()


def test_off_loopback_the_gateway_warns_and_a_bad_allow_host_is_refused(kibitz_servers):
    assert exposure_warning("127.0.0.1") == exposure_warning("localhost") == ""
    assert "no access control of its own" in exposure_warning("0.0.0.0")
    address = kibitz_servers[0].address
    bad = [*KIBITZ, "web", "--server", address, "--port", "0", "--allow-host", "a b"]
    refused = subprocess.run(bad, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and "--allow-host 'a b'" in refused.stderr
    command = [*KIBITZ, "web", "--server", address, "--host", "0.0.0.0", "--port", "0"]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        banner, warning = process.stderr.readline(), process.stderr.readline()
        assert "open http://0.0.0.0:" in banner
        assert warning.startswith("kibitz web: warning: serving the page on 0.0.0.0")
        port = re.search(r":(\d+)/", banner).group(1)
        assert httpx.get(f"http://127.0.0.1:{port}/api/servers", timeout=30).status_code == 200
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0


# ---------------------------------------------------------------------------- the browser


class OtherSite:
    """A page of another site (another port of this host) served by a second HTTP server."""

    def __init__(self, html: str) -> None:
        class Page(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = html.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


ATTACK = """<!doctype html><meta charset="utf-8"><body>
<form id="open" method="post" enctype="text/plain" action="GATEWAY/api/sessions">
<input name='{"game": "connect4", "x": "' value='"}'></form>
<form id="search" method="post" enctype="text/plain" action="GATEWAY/api/sessions/ID/search">
<input name='{"limits": {"infinite": true}, "x": "' value='"}'></form>
<script>
const body = JSON.stringify({ game: "connect4" });
const attempt = (options) =>
  fetch("GATEWAY/api/sessions", { method: "POST", body, ...options })
    .then((answer) => `answered ${answer.status}`, (error) => `failed: ${error}`);
window.attack = () => Promise.all([
  attempt({ headers: { "Content-Type": "text/plain" } }),
  attempt({ mode: "no-cors", headers: { "Content-Type": "text/plain" } }),
  attempt({ headers: { "Content-Type": "application/json" } }),
]);
</script>"""


def test_another_sites_page_in_chromium_opens_nothing(browser, gateway, kibitz_servers):
    with httpx.Client(base_url=gateway.url, timeout=30) as http:
        known = http.post("/api/sessions", json={"game": "connect4"}).json()["id"]
    before = server_sessions(kibitz_servers[0].address)
    site = OtherSite(ATTACK.replace("GATEWAY", gateway.url).replace("ID", known))
    page = browser.new_page()
    try:
        page.set_default_timeout(20_000)
        page.goto(site.url)
        outcomes = page.evaluate("attack()")
        assert not any(outcome == "answered 200" for outcome in outcomes), outcomes
        forms = (("#open", "/api/sessions"), ("#search", f"/api/sessions/{known}/search"))
        for form, path in forms:
            with page.expect_response(gateway.url + path) as answer:
                page.evaluate("form => document.querySelector(form).submit()", form)
            page.wait_for_url(gateway.url + path)  # the gateway's answer is shown
            assert answer.value.status == 403, answer.value.text()
            assert "CROSS_SITE" in page.content()
            page.goto(site.url)
        assert server_sessions(kibitz_servers[0].address) == before
        assert list(gateway.app.state.gateway.sessions) == [known]
        assert gateway.app.state.gateway.sessions[known].searching is None
    finally:
        page.close()
        site.close()


FAKE_UCI = r'''
"""A UCI engine whose name, option name and combo choices are markup."""
import sys

INJECTED = sys.argv[1]
for line in sys.stdin:
    word = (line.split() or [""])[0]
    if word == "uci":
        print(f"id name {INJECTED}")
        print(f"option name {INJECTED} type combo default <b id=bold>x</b>"
              f" var <b id=bold>x</b> var {INJECTED}")
        print("uciok")
    elif word == "isready":
        print("readyok")
    elif word == "go":
        print("bestmove e2e4")
    elif word == "quit":
        break
    sys.stdout.flush()
'''


@pytest.fixture
def hostile_server(tmp_path) -> Iterator[BackgroundServer]:
    """A kibitz server hosting the UCI engine `hostile` for chess."""
    script = tmp_path / "hostile.py"
    script.write_text(FAKE_UCI)
    config = tmp_path / "engines.toml"
    config.write_text(
        f'[engines.hostile]\ncommand = "{sys.executable}"\n'
        f'args = ["{script}", "{INJECTED}"]\ngame = "chess"\n'
    )
    server = BackgroundServer(
        ServerConfig(host="127.0.0.1", port=0, idle_timeout=0, engine_config=str(config))
    )
    yield server
    server.stop()


NOTHING_INJECTED = "() => window.pwned === undefined && !document.querySelector('img, #bold')"


def test_names_and_choices_from_an_engine_are_shown_as_text(browser, hostile_server, tmp_path):
    header = {"type": "match", "match": {"game": "tictactoe", "games": 1}}
    header["match"]["engines"] = [{"name": INJECTED}, {"name": "b"}]
    record = Record(tmp_path / "match", header, resume=False)
    opening = {"position": "", "moves": []}
    record.playing({"id": 0, "opening": opening}, [INJECTED, "b"], ["b2"])
    running = RunningGateway([hostile_server.address], match_dir=str(tmp_path / "match"))
    page = browser.new_page()
    try:
        page.set_default_timeout(20_000)
        page.goto(running.url)
        page.wait_for_selector("#main[data-ready='yes']")
        page.select_option("#game", "chess")
        page.wait_for_selector("body[data-game='chess']")
        page.select_option("#engine", "hostile")
        page.click("#options-box summary")
        page.wait_for_selector("#options select")
        engine = page.locator("#engine option[value='hostile']")
        assert engine.get_attribute("title").startswith(INJECTED)
        choices = page.locator("#options select option").all_inner_texts()
        assert choices == ["<b id=bold>x</b>", INJECTED]
        assert page.inner_text("#options label").startswith(INJECTED)
        assert page.evaluate(NOTHING_INJECTED)

        page.fill("#position-text", INJECTED)  # the server's error repeats the position
        page.click("#load-position")
        page.wait_for_selector("#error:not([hidden])")
        assert page.evaluate(NOTHING_INJECTED)

        page.click("#modes button[data-mode='watch']")
        page.wait_for_selector("#match-games li[data-id='0']")
        assert INJECTED in page.inner_text("#match-games li[data-id='0']")
        assert INJECTED in page.inner_text("#match-status")
        assert page.evaluate(NOTHING_INJECTED)
    finally:
        page.close()
        running.stop()
