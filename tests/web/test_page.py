"""The page in real headless Chromium (Playwright), through a real gateway and real kibitz
servers: boards played by clicking, analysis with its live root-move table, games against
the engine to the end, engine against engine across two servers, errors, a phone's screen.

Waits are on page conditions (the page marks its state in data- attributes), never sleeps.
Some tests take the screenshots the README shows, into the `screenshots` folder (a temporary
one; `KIBITZ_SCREENSHOTS=docs/images` refreshes docs/images, see docs/web.md)."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from gateways import RunningGateway
from playwright.sync_api import Page
from servers import KIBITZ

from kibitz.match.record import Record
from kibitz.server.config import ServerConfig
from kibitz.server.embedded import BackgroundServer

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"  # Ra8#


def pick(page, game: str, kind: str | None = "grid") -> None:
    """Pick `game` and wait for its board, drawn as a diagram of `kind` (None: whatever
    the game draws, once the page says it is ready)."""
    version = int(page.get_attribute("#main", "data-version"))
    page.select_option("#game", game)
    page.wait_for_function(
        "version => Number(document.getElementById('main').dataset.version) > version",
        arg=version,
    )
    if kind is None:
        page.wait_for_selector(f"body[data-game='{game}'] #main[data-ready='yes']")
    else:
        page.wait_for_selector(f"body[data-game='{game}'] #board[data-kind='{kind}']")


def moves(page) -> list[str]:
    return page.locator("#moves li .move").all_inner_texts()


def wait_for_plies(page, count: int) -> None:
    page.wait_for_selector(f"#moves[data-count='{count}']")


def click_columns(page, columns: str) -> None:
    """Play Connect Four's `columns` by clicks from the start, each shown before the next
    (the page ignores clicks while a move of yours is on its way)."""
    for ply, column in enumerate(columns, start=1):
        page.click(f"#board [data-move='{column}']")
        wait_for_plies(page, ply)


def load(page, position: str) -> None:
    """Paste `position` and load it; waits until the board shows it."""
    version = int(page.get_attribute("#main", "data-version"))
    page.fill("#position-text", position)
    page.click("#load-position")
    page.wait_for_function(
        "version => Number(document.getElementById('main').dataset.version) > version",
        arg=version,
    )
    wait_for_plies(page, 0)


def analyse(page, kind: str, value: float | None = None) -> None:
    page.select_option("#limit-kind", kind)
    if value is not None:
        page.fill("#limit-value", str(value))
    page.click("#analyse-start")


def root_rows(page) -> int:
    return page.locator("#root-moves tbody tr").count()


def watch_scores(page) -> None:
    """Record every text the score shows (window.scores), to see it change."""
    page.evaluate(
        """() => {
            const score = document.getElementById("stat-score");
            window.scores = new Set();
            new MutationObserver(() => window.scores.add(score.textContent))
                .observe(score, { childList: true, characterData: true, subtree: true });
        }"""
    )


def wait_for_live_table(page, rows: int) -> None:
    """The root-move table has `rows` rows and the score changed while searching."""
    page.wait_for_function(
        """rows => window.scores.size >= 2
            && document.querySelectorAll("#root-moves tbody tr").length === rows""",
        arg=rows,
    )


def stop(page) -> str:
    """Stop the analysis (it may have ended by itself); the state line."""
    if page.is_enabled("#analyse-stop"):
        page.click("#analyse-stop")
    page.wait_for_selector("#analysis-panel[data-state='done']")
    return page.inner_text("#analysis-state")


def play_to_the_end(
    page,
    click_selector: str,
    side: str = "0",
    clock: bool = False,
    each_turn: Callable[[Page], None] | None = None,
) -> None:
    """A new game against the engine from the board's position, playing the first legal
    spot each turn (`side` "0": you first, "1": second; a time per move, or a clock), until
    it is over; `each_turn(page)` looks at the page before each of your moves."""
    page.click("#modes [data-mode='play']")
    if clock:
        page.select_option("#play-limit", "clock")
        page.fill("#play-minutes", "0.5")
        page.fill("#play-increment", "0.1")
    else:
        page.fill("#play-movetime", "0.05")
    page.select_option("#play-side", side)
    page.click("#play-start")
    for _ in range(50):
        page.wait_for_selector("#play-panel[data-state='human'], #play-panel[data-state='over']")
        if page.get_attribute("#play-panel", "data-state") == "over":
            return
        if each_turn is not None:
            each_turn(page)
        count = int(page.get_attribute("#moves", "data-count"))
        page.locator(click_selector).first.click()
        page.wait_for_function(
            """count => {
                const plies = Number(document.getElementById("moves").dataset.count);
                const state = document.getElementById("play-panel").dataset.state;
                return state === "over" || (state === "human" && plies >= count + 2);
            }""",
            arg=count,
        )
    raise AssertionError("the game did not end")


def download(page, button: str) -> str:
    with page.expect_download() as info:
        page.click(button)
    return Path(info.value.path()).read_text()


# ---------------------------------------------------------------------------- Connect Four


def test_connect_four_click_undo_analyse_stop_and_play_to_the_end(page, screenshots):
    pick(page, "connect4")
    click_columns(page, "443")
    assert moves(page) == ["4", "4", "3"]
    page.click("#undo")
    wait_for_plies(page, 2)
    assert page.locator("#moves li.future .move").all_inner_texts() == ["3"]
    page.click("#redo")
    wait_for_plies(page, 3)
    assert page.input_value("#position-text").endswith("/...o.../..xx...")

    watch_scores(page)
    analyse(page, "infinite")
    page.wait_for_selector("#analysis-panel[data-state='running']")
    wait_for_live_table(page, 7)
    assert "(stopped)" in stop(page)
    assert root_rows(page) == 7
    assert page.get_attribute("#graph", "data-points") == "1"
    page.screenshot(path=str(screenshots / "web-analysis.png"))

    load(page, "121212")  # pasted: x wins at once in column 1
    assert page.inner_text("#status") == "x to move"
    analyse(page, "depth", 4)
    page.wait_for_selector("#analysis-panel[data-state='done']")
    assert page.get_attribute("#analysis-panel", "data-best") == "1"
    first = page.locator("#root-moves tbody tr").first
    assert first.locator(".move").inner_text() == "1"
    assert first.locator(".score.proven").inner_text() == "win in 1"
    assert page.inner_text("#stat-score") == "win in 1"

    page.click("#reset-position")
    wait_for_plies(page, 0)
    play_to_the_end(page, "#board .place.legal")
    assert page.inner_text("#status").startswith("game over: ")
    assert "game over" in page.inner_text("#play-status")
    record = json.loads(download(page, "#play-download"))
    assert record["game"] == "connect4"
    assert record["moves"] == moves(page)
    assert sorted(record["result"]["returns"]) in ([-1.0, 1.0], [0.0, 0.0])
    assert record["players"][0] == "you"


# ---------------------------------------------------------------------------- chess


def test_chess_click_moves_analyse_and_mate_the_engine(page, screenshots):
    pick(page, "chess")
    page.click("#board [data-place='e2']")
    page.click("#board [data-place='e4']")
    wait_for_plies(page, 1)
    assert moves(page) == ["e4"]
    assert page.inner_text("#status") == "Black to move"
    legal = page.locator("#legal option").all_inner_texts()
    assert "Nf6" in legal and "g8f6" not in legal  # the labels, as the move list reads
    watch_scores(page)
    analyse(page, "infinite")
    wait_for_live_table(page, 10)  # the best 10 of Black's 20 replies
    stop(page)
    assert root_rows(page) == 10
    assert page.inner_text("#root-more") == "show all 20"
    page.click("#root-more")
    assert root_rows(page) == 20 and page.is_hidden("#root-more")
    page.screenshot(path=str(screenshots / "web-chess.png"))

    load(page, "8/4P3/8/8/8/8/k7/7K w - - 0 1")  # a promotion: the page asks for the piece
    page.click("#board [data-place='e7']")
    page.click("#board [data-place='e8']")
    choices = page.locator("#board .choices button").all_inner_texts()
    assert sorted(choices) == ["cancel", "e8=B", "e8=N", "e8=Q", "e8=R"]
    page.click("#board .choices button:text('e8=N')")
    wait_for_plies(page, 1)
    assert moves(page) == ["e8=N"]

    load(page, MATE_IN_ONE)
    analyse(page, "depth", 2)
    page.wait_for_selector("#analysis-panel[data-state='done']")
    assert page.get_attribute("#analysis-panel", "data-best") == "a1a8"
    first = page.locator("#root-moves tbody tr").first
    assert first.locator(".move").inner_text() == "Ra8#"
    assert first.locator(".score").inner_text() == "mate in 1"

    page.click("#modes [data-mode='play']")
    page.click("#play-start")
    page.wait_for_selector("#play-panel[data-state='human']")
    page.click("#board [data-place='a1']")
    page.click("#board [data-place='a8']")
    page.wait_for_selector("#play-panel[data-state='over']")
    assert page.inner_text("#status") == "game over: checkmate, White wins"
    assert page.inner_text("#play-status") == "game over: you won (checkmate, White wins)"
    pgn = download(page, "#play-download")
    assert "1. Ra8# 1-0" in pgn
    assert '[Result "1-0"]' in pgn and '[White "you"]' in pgn


# ---------------------------------------------------------------------------- Hex


def test_hex_click_analyse_with_visits_and_play_to_the_end(page, screenshots):
    pick(page, "hex", "hex")
    load(page, "5")
    assert page.locator("#board .place").count() == 25
    page.click("#board [data-move='c3']")
    wait_for_plies(page, 1)
    assert moves(page) == ["c3"]
    watch_scores(page)
    analyse(page, "infinite")
    wait_for_live_table(page, 10)  # the best 10 of 24
    headers = page.locator("#root-moves thead th").all_inner_texts()
    assert headers[:5] == ["move", "score", "visits", "win", "loss"]  # Hex has no draws
    assert any(word in stop(page) for word in ("(stopped)", "(solved)"))
    assert root_rows(page) == 10
    page.click("#root-more")
    assert root_rows(page) == 24

    load(page, "3")
    play_to_the_end(page, "#board .place.legal")
    status = page.inner_text("#status")  # "game over: White wins (White (w) joins ...)"
    assert re.fullmatch(r"game over: (Black|White) wins \(\1 \(.\) joins .+\)", status), status
    play_status = page.inner_text("#play-status")
    assert re.fullmatch(r"game over: you (won|lost) \(.+ joins .+\)", play_status), play_status
    page.screenshot(path=str(screenshots / "web-hex-play.png"))
    record = json.loads(download(page, "#play-download"))
    assert record["game"] == "hex" and record["start"] == "3/3/3 b"
    assert record["moves"] == moves(page)
    assert sorted(record["result"]["returns"]) == [-1.0, 1.0]


# ---------------------------------------------------------------------------- more


def test_tictactoe_against_the_engine_on_a_clock_playing_second(page):
    pick(page, "tictactoe")
    play_to_the_end(page, "#board .place.legal", side="1", clock=True)
    played = moves(page)
    assert len(played) >= 5 and len(played) % 2 == 1  # the engine moved first and last
    assert page.inner_text("#clock-0").startswith("x 0:")
    assert page.inner_text("#clock-1").startswith("o 0:")
    assert page.inner_text("#play-status").startswith("game over: ")
    said = page.inner_text("#play-last")  # the engine is x: its score is from x's side
    assert re.fullmatch(r"engine \(x\) played \S+, .+ for x", said), said


def test_engine_against_engine_on_two_servers(page, kibitz_servers):
    pick(page, "tictactoe")
    page.click("#modes [data-mode='watch']")
    assert page.input_value("#watch-server-1") == "1"
    # Time enough to solve each position on a loaded machine (at 0.02 s one search fell
    # short and lost): a solved search ends at once, so the game takes well under it.
    page.fill("#watch-movetime", "2")
    page.click("#watch-start")
    page.wait_for_selector("#watch-panel[data-state='over']")
    assert len(moves(page)) == 9  # perfect play: a draw on a full board
    assert page.inner_text("#watch-status") == "game over: draw: the board is full"
    said = page.inner_text("#watch-info")  # the last move was x's (the ninth)
    assert re.fullmatch(r".+ \(x\) played \S+, .+ for x", said), said
    record = json.loads(download(page, "#watch-download"))
    first, second = record["players"]
    assert kibitz_servers[0].address in first and kibitz_servers[1].address in second
    assert record["result"]["returns"] == [0.0, 0.0]


def test_nim_and_backgammon_boards_are_played_by_clicking(page):
    pick(page, "nim", "heaps")
    page.click("#board [data-move='3:5']")  # the fifth stick from the end of heap 3
    wait_for_plies(page, 1)
    assert page.input_value("#position-text").startswith("3,4,0")
    pick(page, "backgammon", "points")
    assert page.inner_text("#status") == "chance: roll the dice"
    page.click("#roll")
    wait_for_plies(page, 1)
    assert moves(page)[0].endswith(":")  # a roll, e.g. "31:"
    # the plays: checker by checker on the board (tests/web/test_page_backgammon.py), or
    # from the list of legal moves
    chosen = page.locator("#legal option").first.inner_text()
    page.click("#play-legal")
    wait_for_plies(page, 2)
    assert moves(page)[1] == chosen
    assert page.inner_text("#status") == "chance: roll the dice"


def test_a_plugin_game_is_drawn_from_its_diagram_and_played_by_a_click(page):
    pick(page, "race21")  # examples/plugin: nothing outside its module draws it
    assert page.locator("#board .place").count() == 22  # the track 0 to 21
    assert page.locator("#board .place.legal").count() == 3  # the next three cells
    page.click("#board [data-place='3']")  # adds 3
    wait_for_plies(page, 1)
    assert moves(page) == ["3"]
    assert page.input_value("#position-text") == "3 2"
    assert "highlight" in page.get_attribute("#board [data-place='3']", "class").split()
    page.click("#board [data-place='5']")
    wait_for_plies(page, 2)
    assert page.input_value("#position-text") == "5 1"


def test_errors_are_readable_messages(page):
    pick(page, "connect4")
    page.fill("#position-text", "123456789")
    page.click("#load-position")
    page.wait_for_selector("#error:not([hidden])")
    assert "move 8 ('8'): '8' is not a column" in page.inner_text("#error-text")
    assert moves(page) == []
    page.click("#error-close")
    page.fill("#move-input", "8")
    page.click("#play-typed")
    page.wait_for_selector("#error:not([hidden])")
    assert "8" in page.inner_text("#error-text")
    assert page.inner_text("#status") == "x to move"


def test_no_server_is_an_error_message_not_a_blank_page(browser):
    dead = RunningGateway(["127.0.0.1:1"])
    try:
        page = browser.new_page()
        page.goto(dead.url)
        page.wait_for_selector("#main[data-ready='error']")
        said = "cannot reach the server at 127.0.0.1:1 — is kibitz serve running?"
        assert page.inner_text("#error-text") == said  # no gRPC text
        assert page.inner_text("#status") == said
        assert page.is_visible("#board-panel") and page.is_visible("#error-retry")
        page.close()
    finally:
        dead.stop()


def test_retry_reaches_a_server_that_started_after_the_page(browser):
    with socket.socket() as probe:  # a free port, no server on it yet
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    late = RunningGateway([f"127.0.0.1:{port}"])
    server = None
    try:
        page = browser.new_page()
        page.goto(late.url)
        page.wait_for_selector("#main[data-ready='error']")
        assert "cannot reach the server at 127.0.0.1:" in page.inner_text("#error-text")
        server = BackgroundServer(
            ServerConfig(host="127.0.0.1", port=port, max_sessions=8, idle_timeout=0)
        )
        # the gateway's channel answers UNAVAILABLE at once until its reconnect backoff (1 s,
        # growing 1.6 times an attempt) ends: retry, each time a whole round trip, until then
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            page.click("#error-retry")
            page.wait_for_selector("#main[data-ready='yes'], #main[data-ready='error']")
            if page.get_attribute("#main", "data-ready") == "yes":
                break
        assert page.get_attribute("#main", "data-ready") == "yes"
        assert page.is_hidden("#error")
        assert "cannot reach" not in page.inner_text("#status")
        page.wait_for_selector("#board svg")
        page.close()
    finally:
        if server is not None:
            server.stop()
        late.stop()


def test_one_server_shows_no_server_picker(browser, kibitz_servers):
    single = RunningGateway([kibitz_servers[0].address])
    try:
        page = browser.new_page()
        page.goto(single.url)
        page.wait_for_selector("#main[data-ready='yes']")
        assert page.is_hidden("#server-box")
        page.click("#modes [data-mode='watch']")
        assert page.is_visible("#watch-engine-0")
        assert page.is_hidden("#watch-server-0") and page.is_hidden("#watch-server-1")
        page.close()
    finally:
        single.stop()


def test_chess_moves_are_numbered_from_the_fen(page):
    pick(page, "chess")
    load(page, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12")
    type_move(page, "e5")
    type_move(page, "Nf3")
    numbers = page.locator("#moves li .number").all_inner_texts()
    assert numbers == ["12...", "13."]


def test_a_won_game_says_who_won(page):
    pick(page, "connect4")
    load(page, "121212")
    page.click("#board [data-move='1']")
    wait_for_plies(page, 1)
    assert page.inner_text("#status") == "game over: x wins (x has four in a row)"


def test_a_phone_sized_screen(page, screenshots):
    page.set_viewport_size({"width": 390, "height": 844})
    pick(page, "connect4")
    page.click("#board [data-move='4']")
    wait_for_plies(page, 1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    board = page.locator("#board svg").bounding_box()
    assert board["width"] > 300
    page.screenshot(path=str(screenshots / "web-phone.png"))


def test_a_match_is_watched_game_by_game_and_move_by_move(browser, kibitz_servers, tmp_path):
    address = kibitz_servers[0].address
    argv = [*KIBITZ, "match", "--game", "tictactoe", "--games", "2", "--out", str(tmp_path)]
    argv += ["--engine", f"name=a,server={address},depth=9"]
    argv += ["--engine", f"name=b,server={address},depth=9"]
    subprocess.run(argv, check=True, capture_output=True, timeout=120)  # two draws
    finished = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    # a third game being played, written as the runner writes it (Record.playing)
    header = {"type": "match", "match": finished[0]["match"]}
    record = Record(tmp_path, header, resume=True)
    task = {key: finished[1][key] for key in ("id", "opening")} | {"id": 2}
    record.playing(task, ["a", "b"], ["b2", "a1"])
    watcher = RunningGateway([address], match_dir=str(tmp_path))
    try:
        page = browser.new_page()
        page.set_default_timeout(20_000)
        page.goto(watcher.url)
        page.wait_for_selector("#main[data-ready='yes']")
        page.click("#modes button[data-mode='watch']")
        page.wait_for_selector("#match-games li >> nth=2")
        assert "2 of 2 games played" in page.inner_text("#match-status")
        page.click("#match-games li[data-id='0'] button")
        wait_for_plies(page, len(finished[1]["moves"]))
        assert moves(page) == [move["move"] for move in finished[1]["moves"]]
        page.click("#match-games li[data-id='2'] button")  # the running game
        wait_for_plies(page, 2)
        record.playing(task, ["a", "b"], ["b2", "a1", "c3"])  # its next move: the page follows
        wait_for_plies(page, 3)
        assert moves(page) == ["b2", "a1", "c3"]
        page.close()
    finally:
        watcher.stop()


# ---------------------------------------------------------------------------- a daily tool
# (issue 29) the page driven by keys as a person types them, pasting through the clipboard.


def focused(page) -> str:
    """What has the keyboard's focus: an element's id, or a board place's `place:ID`."""
    return page.evaluate(
        """() => {
            const element = document.activeElement;
            return element.dataset && element.dataset.place
                ? `place:${element.dataset.place}` : element.id || element.tagName;
        }"""
    )


def type_move(page, move: str) -> None:
    """Type `move` in the move box, key by key, and press Enter; waits until it is played."""
    count = int(page.get_attribute("#moves", "data-count"))
    page.click("#move-input")
    page.keyboard.type(move)
    page.keyboard.press("Enter")
    wait_for_plies(page, count + 1)
    page.wait_for_function("() => document.getElementById('move-input').value === ''")


def analysis_matches_board(page) -> list[str]:
    """The root-move table's moves, checked to belong to the board's position: they are
    legal there, and the analysis panel says it shows the board's version (or is empty)."""
    table = page.evaluate(
        """() => ({
            rows: [...document.querySelectorAll("#root-moves tbody tr")]
                .map((row) => row.dataset.move),
            pv: document.getElementById("pv").textContent,
            legal: [...document.querySelectorAll("#legal option")].map((option) => option.value),
            shown: document.getElementById("analysis-panel").dataset.version,
            board: document.getElementById("main").dataset.version,
        })"""
    )
    if table["rows"] or table["pv"]:
        assert table["shown"] == table["board"], table
    assert set(table["rows"]) <= set(table["legal"]), table
    return table["rows"]


def test_the_boxes_take_typing_backspace_tab_and_a_pasted_position(page):
    pick(page, "chess")
    page.click("#move-input")
    page.keyboard.type("e4x")
    page.keyboard.press("Backspace")
    assert page.input_value("#move-input") == "e4"
    page.keyboard.press("Tab")  # Tab leaves the box
    assert focused(page) == "play-typed"
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "move-input"
    page.keyboard.press("Enter")
    wait_for_plies(page, 1)
    assert moves(page) == ["e4"]
    type_move(page, "e5")
    assert moves(page) == ["e4", "e5"]

    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.evaluate("text => navigator.clipboard.writeText(text)", MATE_IN_ONE)
    page.click("#position-text")
    page.keyboard.press("Control+A")
    page.keyboard.press("Control+V")
    assert page.input_value("#position-text") == MATE_IN_ONE
    page.keyboard.press("Enter")
    wait_for_plies(page, 0)
    assert moves(page) == []
    assert page.input_value("#position-text") == MATE_IN_ONE
    assert page.inner_text("#status") == "White to move"
    type_move(page, "Ra8#")
    assert "checkmate" in page.inner_text("#status")


def test_a_rejected_position_leaves_the_line_and_the_board_as_they_were(page):
    pick(page, "chess")
    for move in ("e4", "e5", "Nf3"):
        type_move(page, move)
    before = page.input_value("#position-text")
    page.click("#position-text")
    page.keyboard.press("Control+A")
    page.keyboard.type("not a position")
    page.keyboard.press("Enter")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error-text")
    assert moves(page) == ["e4", "e5", "Nf3"]
    assert page.get_attribute("#moves", "data-count") == "3"
    assert page.inner_text("#status") == "Black to move"
    page.click("#error-close")

    type_move(page, "Nc6")  # the line goes on from where it was
    assert moves(page) == ["e4", "e5", "Nf3", "Nc6"]
    page.click("#moves li[data-ply='3']")  # and its moves are still there to go to
    wait_for_plies(page, 3)
    assert page.input_value("#position-text") == before
    page.click("#first")
    wait_for_plies(page, 0)
    assert page.is_hidden("#error")


def test_the_analysis_on_screen_belongs_to_the_board(page):
    pick(page, "chess")
    type_move(page, "e4")
    watch_scores(page)
    analyse(page, "infinite")
    wait_for_live_table(page, 10)  # the best 10 of Black's replies
    stop(page)
    assert len(analysis_matches_board(page)) == 10

    page.click("#analysis-panel h2")  # the focus off the move box: the keys walk the line
    page.keyboard.press("Home")  # a jump after a stop: Black's replies leave the screen
    wait_for_plies(page, 0)
    assert analysis_matches_board(page) == []
    assert page.inner_text("#pv") == "" and page.inner_text("#stat-score") == "-"
    analyse(page, "depth", 1)
    page.wait_for_selector("#analysis-panel[data-state='done']")
    page.click("#root-more")
    assert len(analysis_matches_board(page)) == 20  # White's first moves

    load(page, "8/4P3/8/8/8/8/k7/7K w - - 0 1")  # a loaded position
    assert analysis_matches_board(page) == []
    watch_scores(page)
    analyse(page, "infinite")
    wait_for_live_table(page, 7)  # four promotions, three king moves
    page.click("#board [data-place='e7']")  # a promotion while it searches: it follows
    page.click("#board [data-place='e8']")
    page.click("#board .choices button:text('e8=Q')")
    wait_for_plies(page, 1)
    analysis_matches_board(page)
    page.wait_for_function(
        """() => document.getElementById("analysis-panel").dataset.version
            === document.getElementById("main").dataset.version
            && document.querySelectorAll("#root-moves tbody tr").length > 0"""
    )
    assert "a2b3" in analysis_matches_board(page)  # Black's king
    stop(page)  # the table stays, still the promoted position's (its order may have moved)
    assert "a2b3" in analysis_matches_board(page)

    page.click("#undo")  # stopped, then back: the table leaves with its position
    wait_for_plies(page, 0)
    assert analysis_matches_board(page) == []


def test_a_failed_start_says_so_and_can_be_started_again(browser):
    """A server with room for one session: the page's analysis finds it taken, then the
    server gone; each time the panel says why, stop is off and start is on again."""
    config = ServerConfig(host="127.0.0.1", port=0, max_sessions=1, max_sessions_per_client=1)
    server = BackgroundServer(config)
    servers = [server]  # the one still to stop
    gateway = RunningGateway([server.address])
    try:
        page = browser.new_page()
        page.set_default_timeout(20_000)
        page.goto(gateway.url)
        page.wait_for_selector("#main[data-ready='yes']")
        pick(page, "tictactoe")
        other = page.evaluate(
            """async () => {
                const engine = document.getElementById("engine").value;
                const body = { server: 0, game: "tictactoe", engine };
                const response = await fetch("/api/sessions", {
                    method: "POST",
                    headers: { "Content-Type": "application/json" },
                    body: JSON.stringify(body),
                });
                return (await response.json()).id;
            }"""
        )  # the quota's one session, taken by another page
        analyse(page, "depth", 3)
        page.wait_for_selector("#analysis-panel[data-state='failed']")
        assert page.inner_text("#analysis-state").startswith("not analysed: ")
        assert page.is_visible("#error")
        assert page.is_disabled("#analyse-stop") and page.is_enabled("#analyse-start")

        page.evaluate("id => fetch(`/api/sessions/${id}`, { method: 'DELETE' })", other)
        page.click("#error-close")
        page.click("#analyse-start")  # room again: it analyses
        page.wait_for_selector("#analysis-panel[data-state='done']")
        assert len(analysis_matches_board(page)) == 9

        servers.pop().stop()  # no server at all
        page.click("#analyse-start")
        page.wait_for_selector("#analysis-panel[data-state='failed']")
        assert page.inner_text("#analysis-state").startswith("not analysed: ")
        assert page.is_disabled("#analyse-stop") and page.is_enabled("#analyse-start")
        page.close()
    finally:
        gateway.stop()
        for running in servers:
            running.stop()


def test_the_keys_walk_the_line_and_the_board_takes_the_focus(page):
    page.focus("#game")
    page.select_option("#game", "connect4")  # picked from the list: the focus leaves it
    page.wait_for_selector("body[data-game='connect4'] #board[data-kind='grid']")
    assert focused(page) == "moves"
    click_columns(page, "4433")
    page.keyboard.press("ArrowLeft")
    wait_for_plies(page, 3)
    page.keyboard.press("ArrowUp")
    wait_for_plies(page, 2)
    page.keyboard.press("Home")
    wait_for_plies(page, 0)
    page.keyboard.press("ArrowRight")
    wait_for_plies(page, 1)
    page.keyboard.press("ArrowDown")
    wait_for_plies(page, 2)
    page.keyboard.press("End")
    wait_for_plies(page, 4)
    assert page.get_attribute("body", "data-game") == "connect4"
    assert moves(page) == ["4", "4", "3", "3"]

    page.click("#undo")  # the move list is in the Tab order after the buttons, its focus drawn
    wait_for_plies(page, 3)
    for expected in ("redo", "last", "moves"):
        page.keyboard.press("Tab")
        assert focused(page) == expected
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    page.keyboard.press("ArrowLeft")
    wait_for_plies(page, 2)

    pick(page, "chess")  # the board's squares: focused, named, clicked by Enter and Space
    stops = "#board [data-place][tabindex='0']"  # the board is one tab stop, a place to play
    assert page.locator(stops).evaluate_all("places => places.map(p => p.dataset.place)") == ["a2"]
    assert page.get_attribute("#board [data-place='e4']", "tabindex") == "-1"
    assert page.get_attribute("#board [data-place='e4']", "aria-label") == "e4, empty"
    page.locator("#board [data-place='e2']").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#board [data-place='e2'].selected")
    assert focused(page) == "place:e2"
    label = page.get_attribute("#board [data-place='e2']", "aria-label")
    assert label == "e2, ♟ of player 1, selected"
    assert page.locator(stops).evaluate_all("places => places.map(p => p.dataset.place)") == ["e2"]
    page.keyboard.press("Tab")  # one tab stop: Tab leaves the board (the arrows walk it)
    assert not focused(page).startswith("place:")
    page.locator("#board [data-place='e4']").focus()
    stroke = "getComputedStyle(document.activeElement.querySelector('.cell')).stroke"
    assert page.evaluate(stroke) == "rgb(47, 111, 159)"
    page.keyboard.press("Space")
    wait_for_plies(page, 1)
    assert moves(page) == ["e4"]
    assert page.get_attribute("#board [data-place='e4']", "aria-label") == "e4, ♟ of player 1"
    page.keyboard.press("ArrowLeft")  # the focus on the board: the arrows walk its squares
    assert focused(page) == "place:d4"
    page.keyboard.press("Home")  # and Home and End the line
    wait_for_plies(page, 0)


# ---------------------------------------------------------------------------- issue 29, small items


def box(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def test_tictactoe_shows_its_coordinates(page):
    pick(page, "tictactoe")
    labels = page.locator("#board svg text.label").all_text_contents()
    assert sorted(labels) == ["1", "2", "3", "a", "b", "c"]
    a1, c3 = box(page, "#board [data-place='a1']"), box(page, "#board [data-place='c3']")
    assert a1["x"] < c3["x"] and a1["y"] > c3["y"]  # a1 at the bottom left


def test_playing_second_flips_the_board_and_clicks_still_play_their_moves(page):
    pick(page, "chess")
    a1, h8 = box(page, "#board [data-place='a1']"), box(page, "#board [data-place='h8']")
    assert a1["x"] < h8["x"] and a1["y"] > h8["y"]  # White's side at the bottom
    page.click("#modes [data-mode='play']")
    page.fill("#play-movetime", "0.05")
    page.select_option("#play-side", "1")
    page.click("#play-start")
    page.wait_for_selector("#play-panel[data-state='human']")
    a1, h8 = box(page, "#board [data-place='a1']"), box(page, "#board [data-place='h8']")
    assert a1["x"] > h8["x"] and a1["y"] < h8["y"]  # a1 drawn at the top right
    labels = page.locator("#board svg > g > text.label")
    first_row = labels.filter(has_text=re.compile(r"^1$")).bounding_box()
    eighth_row = labels.filter(has_text=re.compile(r"^8$")).bounding_box()
    assert first_row["y"] < eighth_row["y"]  # the labels turn with the board
    page.click("#board [data-place='e7']")
    page.click("#board [data-place='e5']")
    page.wait_for_function("() => Number(document.getElementById('moves').dataset.count) >= 2")
    assert moves(page)[1] == "e5"
    page.click("#play-resign")
    page.wait_for_selector("#play-panel[data-state='over']")
    page.locator("#moves").focus()
    page.keyboard.press("f")  # the f key turns it back
    page.wait_for_function(
        """() => {
            const a1 = document.querySelector("#board [data-place='a1']").getBoundingClientRect();
            const h8 = document.querySelector("#board [data-place='h8']").getBoundingClientRect();
            return a1.x < h8.x && a1.y > h8.y;
        }"""
    )


def test_pig_gauges_are_readable(page):
    pick(page, "pig", "panel")
    gauges = page.locator("#board .gauge")
    assert gauges.count() >= 1
    for size in ({"width": 1280, "height": 900}, {"width": 375, "height": 700}):
        page.set_viewport_size(size)
        for index in range(gauges.count()):
            assert gauges.nth(index).bounding_box()["height"] >= 8, size
            assert page.locator("#board .gauge .track").nth(0).bounding_box()["height"] >= 8


def test_a_roll_and_the_play_after_it_share_a_move_number(page):
    pick(page, "backgammon", "points")
    analyse(page, "depth", 1)
    page.wait_for_selector("#analysis-panel[data-state='done']")
    said = page.inner_text("#analysis-state")
    assert said.startswith("most likely roll ") and "best move" not in said, said
    page.click("#roll")
    wait_for_plies(page, 1)
    page.click("#play-legal")  # the first legal play
    wait_for_plies(page, 2)
    page.click("#roll")
    wait_for_plies(page, 3)
    numbers = page.locator("#moves li").evaluate_all(
        "items => items.map(item => item.querySelector('.number')?.textContent || '')"
    )
    assert numbers == ["1.", "", "2."]
