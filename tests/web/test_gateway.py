"""The HTTP gateway of `kibitz web` over real HTTP (httpx), against real kibitz servers on
loopback: JSON answers, searches as server-sent events, and the server's errors as JSON with
the right HTTP status."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import socket
import subprocess
from collections.abc import Iterator

import httpx
import pytest
from credentials import TOKENS, token_file
from gateways import RunningGateway
from servers import KIBITZ

from kibitz.cli import build_parser
from kibitz.clients import SyncClient
from kibitz.match.cli import build
from kibitz.web.gateway import bind

NODELAY = (socket.IPPROTO_TCP, socket.TCP_NODELAY)


@pytest.fixture
def http(gateway) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=gateway.url, timeout=30) as client:
        yield client


def events(response: httpx.Response) -> Iterator[tuple[str, dict]]:
    """The (event, data) pairs of a server-sent event stream."""
    name = "message"
    for line in response.iter_lines():
        if line.startswith("event: "):
            name = line.removeprefix("event: ")
        elif line.startswith("data: "):
            yield name, json.loads(line.removeprefix("data: "))


def open_session(http: httpx.Client, **choice) -> str:
    answer = http.post("/api/sessions", json=choice)
    assert answer.status_code == 200, answer.text
    return answer.json()["id"]


def test_the_page_and_its_modules_are_served_and_preloaded(http):
    page = http.get("/")
    assert page.status_code == 200
    assert '<script type="module" src="/static/app.js">' in page.text
    imported, waiting = set(), ["app.js"]
    while waiting:  # every module app.js imports, near or far
        source = http.get(f"/static/{waiting.pop()}")
        assert source.status_code == 200, source.url
        for module in re.findall(r'from "\./(\w+\.js)"', source.text):
            if module not in imported | {"app.js"}:
                imported.add(module)
                waiting.append(module)
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/static/(\w+\.js)">', page.text))
    assert preloaded == imported


def test_the_gateways_connections_send_without_waiting_for_acks():
    """Nagle's algorithm off on every connection the listening socket accepts: with it on, a
    response written as headers then body waited 40 ms for the browser's delayed ACK."""

    async def accepted_nodelay() -> int:
        accepted: asyncio.Future = asyncio.get_running_loop().create_future()

        async def serve(reader, writer) -> None:
            accepted.set_result(writer.get_extra_info("socket").getsockopt(*NODELAY))
            writer.close()

        server = await asyncio.start_server(serve, sock=bind("127.0.0.1", 0))
        port = server.sockets[0].getsockname()[1]
        async with server:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            value = await accepted
            writer.close()
        return value

    assert asyncio.run(accepted_nodelay()) == 1


def test_servers_games_and_engines(http, kibitz_servers):
    servers = http.get("/api/servers").json()["servers"]
    assert [server["address"] for server in servers] == [s.address for s in kibitz_servers]
    titles = {game["name"]: game["title"] for game in http.get("/api/games").json()["games"]}
    assert titles["connect4"] == "Connect Four"
    assert titles["race21"]  # the example plugin's game: listed like the built-in ones
    engines = {
        engine["name"]: engine for engine in http.get("/api/engines?server=1").json()["engines"]
    }
    assert "connect4" in engines["alphabeta"]["games"]
    assert "Hash" in {option["name"] for option in engines["alphabeta"]["options"]}


def pieces(diagram: dict) -> dict[str, tuple[str, int, int]]:
    """Each place that holds a piece: (piece, owner, count)."""
    return {
        place["id"]: (place["piece"], place["owner"], place["count"])
        for place in diagram["places"]
        if place["piece"]
    }


def test_describe_passes_on_the_servers_diagram_and_labels(http):
    answer = http.post("/api/describe", json={"game": "connect4", "moves": ["4", "4", "3"]}).json()
    diagram = answer["diagram"]
    assert (diagram["kind"], diagram["rows"], diagram["columns"]) == ("GRID", 6, 7)
    assert pieces(diagram) == {"4.6": ("disc", 0, 0), "4.5": ("disc", 1, 0), "3.6": ("disc", 0, 0)}
    assert diagram["highlights"] == ["3.6"]  # the last disc dropped
    assert answer["legalMoves"] == list("1234567")
    assert answer["playedLabels"] == ["4", "4", "3"]
    chess = http.post("/api/describe", json={"game": "chess", "moves": ["g1f3", "d7d5"]}).json()
    assert chess["playedLabels"] == ["Nf3", "d5"]
    assert pieces(chess["diagram"])["f3"] == ("♞", 0, 0)
    assert "Nc3" in chess["legalMoveLabels"]
    assert chess["moveNumber"] == 2  # the next move is White's second
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12"
    later = http.post("/api/describe", json={"game": "chess", "position": fen, "moves": ["e7e5"]})
    assert later.json()["moveNumber"] == 13  # the FEN's fullmove number, on after Black's move
    assert answer["moveNumber"] == 0  # Connect Four numbers no moves
    backgammon = http.post("/api/describe", json={"game": "backgammon"}).json()["diagram"]
    checkers = pieces(backgammon)  # the first player's 24, 13, 8 and 6 points; the second's
    assert [checkers[f"p{n}"] for n in (24, 13, 8, 6)] == [("checker", 0, c) for c in (2, 5, 3, 5)]
    assert [checkers[f"p{n}"] for n in (1, 12, 17, 19)] == [("checker", 1, c) for c in (2, 5, 3, 5)]
    pips = [gauge["value"] for gauge in backgammon["gauges"] if gauge["label"] == "pips"]
    assert pips == ["167", "167"] and backgammon["dice"] == []
    plugin = http.post("/api/describe", json={"game": "race21", "position": "13 2"}).json()
    assert plugin["diagram"]["kind"] == "GRID" and len(plugin["diagram"]["places"]) == 22
    assert [(t["move"], t["toPlaces"]) for t in plugin["diagram"]["targets"]] == [
        ("1", ["14"]),
        ("2", ["15"]),
        ("3", ["16"]),
    ]


def test_describe_passes_on_a_players_view(http):
    body = {"game": "kuhn-poker", "moves": ["K", "Q", "c"], "viewOf": 1}
    answer = http.post("/api/describe", json=body).json()
    assert (answer["position"], answer["playedLabels"]) == ("Q:c", ["?", "Q", "check"])
    assert answer["legalMoves"] == ["c", "r"] and answer["toMove"] == 1
    games = {game["name"]: game for game in http.get("/api/games").json()["games"]}
    assert games["kuhn-poker"]["hiddenInformation"] and not games["chess"]["hiddenInformation"]


@pytest.mark.parametrize(
    ("path", "body", "status", "code", "words"),
    [
        ("/api/describe", {"game": "connect4", "moves": ["9"]}, 400, "INVALID_ARGUMENT", "'9'"),
        ("/api/describe", {"game": "go"}, 404, "NOT_FOUND", "go"),
        ("/api/describe", {"game": "connect4", "moves": "44"}, 400, "BAD_REQUEST", "moves"),
        ("/api/describe", {"position": ""}, 400, "BAD_REQUEST", "game"),
        ("/api/describe", {"game": "kuhn-poker", "viewOf": "1"}, 400, "BAD_REQUEST", "viewOf"),
        ("/api/describe", {"game": "kuhn-poker", "viewOf": True}, 400, "BAD_REQUEST", "viewOf"),
        ("/api/describe", {"game": "chess", "viewOf": 0}, 400, "INVALID_ARGUMENT", "hides"),
        ("/api/describe", {"game": "connect4", "server": 7}, 404, "NOT_FOUND", "server"),
        ("/api/describe", [1, 2], 400, "BAD_REQUEST", "object"),
        ("/api/sessions", {"game": "connect4", "engine": "nope"}, 404, "NOT_FOUND", "nope"),
        (
            "/api/sessions",
            {"game": "pig", "engine": "alphabeta"},
            400,
            "INVALID_ARGUMENT",
            "chance",
        ),
        (
            "/api/sessions",
            {"game": "connect4", "options": {"Hash": "-3"}},
            400,
            "INVALID_ARGUMENT",
            "Hash",
        ),
        ("/api/sessions/nosuch/search", {}, 404, "NOT_FOUND", "nosuch"),
    ],
)
def test_bad_requests_get_json_errors_with_the_right_status(http, path, body, status, code, words):
    answer = http.post(path, json=body)
    assert answer.status_code == status, answer.text
    assert answer.json()["code"] == code
    assert words in answer.json()["error"]


def test_unknown_endpoints_and_methods_answer_json(http):
    missing = http.get("/api/nothing")
    assert missing.status_code == 404
    assert missing.json()["code"] == "NOT_FOUND"
    wrong = http.get("/api/describe")
    assert wrong.status_code == 405
    assert wrong.json()["code"] == "METHOD_NOT_ALLOWED"


def test_a_body_that_is_not_json_is_refused(http):
    answer = http.post(
        "/api/describe", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400
    assert answer.json() == {"error": "the request body is not JSON", "code": "BAD_REQUEST"}


def test_bad_limits_are_refused_before_the_search(http):
    session = open_session(http, game="connect4")
    answer = http.post(f"/api/sessions/{session}/search", json={"limits": {"depht": 3}})
    assert answer.status_code == 400
    assert "depht" in answer.json()["error"]
    answer = http.post(f"/api/sessions/{session}/search", json={"limits": [3]})
    assert answer.status_code == 400
    assert "limits must be an object" in answer.json()["error"]


def test_a_search_streams_infos_with_root_moves_then_the_result(http):
    session = open_session(http, game="connect4")
    request = {"moves": ["121212"], "limits": {"depth": 3, "reportRootMoves": True}}
    with http.stream("POST", f"/api/sessions/{session}/search", json=request) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        received = list(events(response))
    names = [name for name, _ in received]
    assert names[-1] == "result" and set(names[:-1]) == {"info"}
    info = received[0][1]
    assert len(info["rootMoves"]) == 7
    result = received[-1][1]
    assert result["bestMove"] == "1"
    assert result["score"] | {"text": "win in 1", "proven": True} == result["score"]
    assert result["score"]["firstPlayerValue"] == 1000
    assert result["rootMoves"][0]["moveLabel"] == "1"


def test_chess_lines_and_mates_are_written_as_players_read_them(http):
    session = open_session(http, game="chess")
    request = {"position": "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "limits": {"depth": 2}}
    with http.stream("POST", f"/api/sessions/{session}/search", json=request) as response:
        result = list(events(response))[-1][1]
    assert (result["bestMove"], result["bestMoveLabel"]) == ("a1a8", "Ra8#")
    assert result["pvLabels"] == ["Ra8#"]
    assert result["score"]["text"] == "mate in 1"


def test_stop_ends_an_infinite_search_and_a_second_search_is_busy(http, gateway):
    session = open_session(http, game="connect4")
    search = f"/api/sessions/{session}/search"
    with http.stream("POST", search, json={"limits": {"infinite": True}}) as response:
        stream = events(response)
        assert next(stream)[0] == "info"
        with httpx.Client(base_url=gateway.url, timeout=30) as other:
            busy = other.post(search, json={"limits": {"depth": 2}})
            assert busy.status_code == 409
            assert busy.json()["code"] == "FAILED_PRECONDITION"
            assert other.post(f"/api/sessions/{session}/stop").json() == {"wasSearching": True}
        name, result = [event for event in stream if event[0] != "info"][-1]
    assert name == "result"
    assert result["stoppedBy"] == "STOPPED" and result["bestMove"]
    assert http.delete(f"/api/sessions/{session}").status_code == 200
    assert http.post(f"/api/sessions/{session}/stop").status_code == 404


def test_a_session_the_server_closed_opens_again_for_the_next_search(http, kibitz_servers):
    opened = http.post("/api/sessions", json={"game": "tictactoe"}).json()
    search = f"/api/sessions/{opened['id']}/search"
    with SyncClient(kibitz_servers[0].address) as other:  # as the idle timeout would
        other.session(opened["session"]["id"]).close()
        before = {session.id for session in other.sessions()}
        request = {"position": "xx./oo./... x", "limits": {"depth": 1}}
        with http.stream("POST", search, json=request) as response:
            assert response.status_code == 200
            name, result = list(events(response))[-1]
        assert (name, result["bestMove"]) == ("result", "c3")
        (session,) = [s for s in other.sessions() if s.id not in before]
        assert session.game == "tictactoe"
    too_high = http.post(search, json={"priority": 2**31})
    assert too_high.status_code == 400 and "priority must be" in too_high.json()["error"]


def test_export_is_the_games_record_as_the_server_writes_it(http):
    moves = ["f2f3", "e7e5", "g2g4", "d8h4"]
    body = {"game": "chess", "moves": moves, "players": ["you", "alphabeta"]}
    pgn = http.post("/api/export", json=body)
    assert pgn.headers["content-type"].startswith("application/x-chess-pgn")
    assert "1. f3 e5 2. g4 Qh4# 0-1" in pgn.text
    assert '[White "you"]' in pgn.text and '[Result "0-1"]' in pgn.text
    assert (
        '[Site "kibitz"]' in pgn.text and "kibitz-chess.pgn" in pgn.headers["content-disposition"]
    )
    record = http.post("/api/export", json={"game": "connect4", "moves": list("1212121")})
    assert "kibitz-connect4.json" in record.headers["content-disposition"]
    data = record.json()
    assert data["moves"] == list("1212121")
    assert data["result"]["returns"] == [1.0, -1.0]
    assert data["server"] and data["evaluations"] == []  # added by the gateway
    bad = http.post("/api/export", json={"game": "connect4", "moves": ["9"]})
    assert bad.status_code == 400 and "'9'" in bad.json()["error"]


def test_server_errors_are_readable(tmp_path, make_server):
    secured = make_server(auth_tokens=str(token_file(tmp_path)))
    without = RunningGateway([secured.address, "127.0.0.1:1"])
    wrong = RunningGateway([secured.address], token="not-a-token")
    right = RunningGateway([secured.address], token=TOKENS[next(iter(TOKENS))])
    try:
        with httpx.Client(base_url=without.url, timeout=30) as http:
            answer = http.get("/api/games")
            assert answer.status_code == 401
            assert "requires a valid token" in answer.json()["error"]
            answer = http.get("/api/games?server=1")
            assert answer.status_code == 503
            assert answer.json()["error"] == (
                "cannot reach the server at 127.0.0.1:1 — is kibitz serve running?"
            )
            assert answer.json()["detail"]  # the gRPC text, kept out of the message
        with httpx.Client(base_url=wrong.url, timeout=30) as http:
            assert http.get("/api/games").status_code == 401
        with httpx.Client(base_url=right.url, timeout=30) as http:
            assert http.get("/api/games").status_code == 200
    finally:
        for running in (without, wrong, right):
            running.stop()


def test_kibitz_web_serves_the_page_until_sigterm(kibitz_servers):
    address = kibitz_servers[0].address
    command = [*KIBITZ, "web", "--server", address, "--port", "0"]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        banner = process.stderr.readline()
        url = re.search(r"open (http://\S+/)", banner)
        assert url, banner
        assert address in banner
        assert "kibitz" in httpx.get(url.group(1), timeout=30).text
        assert httpx.get(url.group(1) + "api/games", timeout=30).status_code == 200
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0


def test_a_running_match_is_watched_through_its_record(kibitz_servers, tmp_path):
    address = kibitz_servers[0].address
    argv = ["match", "--game", "connect4", "--games", "2", "--out", str(tmp_path)]
    for name, depth in (("deep", 4), ("shallow", 1)):
        argv += ["--engine", f"name={name},server={address},depth={depth}"]
    match, _ = build(build_parser().parse_args(argv))
    watcher = RunningGateway([address], match_dir=str(tmp_path))
    seen: list[dict] = []

    def look(task, moves: list[str]) -> None:  # what the page gets after each move
        seen.append(httpx.get(f"{watcher.url}/api/match", timeout=30).json())

    match.move_listener = look
    try:
        asyncio.run(match.run())
        final = httpx.get(f"{watcher.url}/api/match", timeout=30).json()
    finally:
        watcher.stop()
    first = seen[0]
    assert (first["game"], first["engines"], first["planned"], first["played"]) == (
        "connect4",
        ["deep", "shallow"],
        2,
        0,
    )
    (playing,) = first["running"]
    assert playing["id"] == 0 and len(playing["moves"]) == 1 and first["summary"] is None
    assert [len(answer["running"][0]["moves"]) for answer in seen[:3]] == [1, 2, 3]
    assert final["running"] == [] and final["played"] == 2 and final["summary"]["games"] == 2
    assert [game["id"] for game in final["finished"]] == [0, 1]
    records = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert final["finished"][0]["moves"] == [move["move"] for move in records[1]["moves"]]


def test_without_a_match_the_match_endpoint_says_so(http):
    assert http.get("/api/servers").json()["match"] is False
    answer = http.get("/api/match")
    assert answer.status_code == 404 and "--match DIR" in answer.json()["error"]
