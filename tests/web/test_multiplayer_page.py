"""Games of three players and more on the page (issue 33), in real headless Chromium through
a real gateway and real kibitz servers: you take one seat or several and the engine every
other one, the status names whose turn it is, the ending ranks every player with their
return; the analysis shows each player's value; engines in every seat, live or in an
N-seat match of `kibitz match`.

Waits are on page conditions (the page marks its state in data- attributes), never sleeps."""

from __future__ import annotations

import json
import re
import subprocess

import pytest
from gateways import RunningGateway
from servers import KIBITZ
from test_page import analyse, download, load, moves, pick, wait_for_plies

from kibitz.clients.values import Score
from kibitz.web.gateway import first_player_plies, score_value

NEAR_WIN = (  # player 2 to move; player 1 (north) is one step (m8-n4) from filling the south
    "./../.../..../............./............/.........../........../........./"
    "3........2/33.......22/333......222/3333...1.2222/111./111/11/1 2 31"
)


def ranking(returns: list[float], you: set[int]) -> list[list[str]]:
    """The results table the page should show: place (1 + the players with a greater
    return), name ("(you)" for your seats), return, best first."""
    rows = []
    for player, value in enumerate(returns):
        place = 1 + sum(other > value for other in returns)
        name = f"player {player + 1}" + (" (you)" if player in you else "")
        rows.append((place, player, [str(place), name, f"{value:+g}" if value else "0"]))
    return [row for _, _, row in sorted(rows)]


def results(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#results tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )


def take_seats(page, seats: set[int]) -> None:
    """Tick the boxes of `seats` (player indices), untick the others."""
    boxes = page.locator("#play-seats input[type='checkbox']")
    for index in range(boxes.count()):
        boxes.nth(index).set_checked(index in seats)


def play_first_legal_moves(page, each_turn=None) -> None:
    """Start the game and play the first legal move at each of your turns till it ends;
    `each_turn(page)` looks at the page before each of your moves."""
    page.click("#play-start")
    for _ in range(40):
        page.wait_for_selector("#play-panel[data-state='human'], #play-panel[data-state='over']")
        if page.get_attribute("#play-panel", "data-state") == "over":
            return
        if each_turn is not None:
            each_turn(page)
        count = int(page.get_attribute("#moves", "data-count"))
        page.click("#play-legal")
        page.wait_for_function(
            """count => {
                const plies = Number(document.getElementById("moves").dataset.count);
                const state = document.getElementById("play-panel").dataset.state;
                return state === "over" || (state === "human" && plies > count);
            }""",
            arg=count,
        )
    raise AssertionError("the game did not end")


def turn_is_named(seats: set[int]):
    """At your turn: the board's status names the player to move, one of your `seats`, and
    the play panel says it is your move as that player."""

    def check(page) -> None:
        status = page.inner_text("#status")
        named = re.fullmatch(r"player (\d) \(you\) to move", status)
        assert named and int(named[1]) - 1 in seats, status
        assert page.inner_text("#play-status") == f"your move (player {named[1]})"

    return check


# ---------------------------------------------------------------------------- play


def test_nim3_you_take_two_seats_on_a_clock_and_the_engine_the_third(page, kibitz_servers):
    pick(page, "nim3", "heaps")
    page.select_option("#engine", "maxn")
    load(page, "2,2")
    page.click("#modes [data-mode='play']")
    assert page.is_hidden("#play-side-box") and page.is_visible("#play-seats")
    labels = page.locator("#play-seats label").all_inner_texts()
    assert [label.strip() for label in labels] == ["player 1", "player 2", "player 3"]
    take_seats(page, {0, 2})
    page.select_option("#play-limit", "clock")
    page.fill("#play-minutes", "0.5")
    page.fill("#play-increment", "0.1")
    play_first_legal_moves(page, turn_is_named({0, 2}))
    clocks = [page.inner_text(f"#clock-{player}") for player in range(3)]
    assert [clock.split(" 0:")[0] for clock in clocks] == ["player 1", "player 2", "player 3"]
    assert page.inner_text("#play-last").startswith("engine (player 2) played ")
    record = json.loads(download(page, "#play-download"))
    engine = f"maxn ({kibitz_servers[0].address})"
    assert record["players"] == ["you", engine, "you"]
    returns = record["result"]["returns"]
    assert sorted(returns) == [-1.0, 0.0, 1.0]
    assert record["moves"] == moves(page)
    winner = returns.index(1.0)
    won = f"player {winner + 1}" + (" (you)" if winner in (0, 2) else "")
    reason = record["result"]["reason"]
    assert page.inner_text("#play-status") == f"game over: {won} wins ({reason})"
    assert page.inner_text("#status") == f"game over: {won} wins ({reason})"
    assert results(page) == ranking(returns, {0, 2})


def test_chinese_checkers_engines_play_two_seats_and_win_for_player_one(page, screenshots):
    pick(page, "chinese-checkers", "hex")
    page.select_option("#engine", "maxn")
    load(page, NEAR_WIN)
    page.click("#modes [data-mode='play']")
    take_seats(page, {1})
    page.fill("#play-movetime", "0.2")
    play_first_legal_moves(page, turn_is_named({1}))
    assert page.get_attribute("#board", "data-flipped") == "no"  # no side to turn it to
    # you (player 2) played the first legal move, the engine player 3's and player 1's win
    assert moves(page)[0] == "j10-i9" and moves(page)[2] == "m8-n4" and len(moves(page)) == 3
    over = "game over: player 1 wins (player 1 fills the opposite triangle and wins)"
    assert page.inner_text("#status") == over
    assert page.inner_text("#play-status") == over
    assert results(page) == [
        ["1", "player 1", "+2"],
        ["2", "player 2 (you)", "-1"],
        ["2", "player 3", "-1"],
    ]
    assert page.inner_text("#play-last").startswith("engine (player 1) played m8-n4")
    page.screenshot(path=str(screenshots / "web-chinese-checkers.png"))


def test_the_seats_follow_the_positions_players_four_on_a_clock(page):
    """Chinese checkers' "4" has four players (the game's default is three): four seats,
    four clocks, and the engines play the first three before your turn as player 4."""
    pick(page, "chinese-checkers", "hex")
    page.select_option("#engine", "maxn")
    load(page, "4")
    page.click("#modes [data-mode='play']")
    labels = page.locator("#play-seats label").all_inner_texts()
    assert [label.strip() for label in labels] == [f"player {n}" for n in range(1, 5)]
    take_seats(page, {3})
    page.select_option("#play-limit", "clock")
    page.fill("#play-minutes", "0.2")  # 12 s each: the engines move at once, you have time
    page.click("#play-start")
    page.wait_for_selector("#play-panel[data-state='human']")
    assert page.get_attribute("#clock-3", "class") == "clock running"  # first: it runs out
    assert len(moves(page)) == 3
    turn_is_named({3})(page)
    clocks = [page.inner_text(f"#clock-{player}") for player in range(4)]
    assert [clock.split(" 0:")[0] for clock in clocks] == [f"player {n}" for n in range(1, 5)]
    page.click("#play-resign")
    page.wait_for_selector("#play-panel[data-state='over']")
    page.click("#modes [data-mode='watch']")
    assert page.locator("#watch-sides .side-pick").count() == 4


def test_no_seat_ticked_is_an_error_message(page):
    pick(page, "nim3", "heaps")
    page.click("#modes [data-mode='play']")
    take_seats(page, set())
    page.click("#play-start")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error-text") == "pick your seats: tick at least one player"
    assert page.get_attribute("#play-panel", "data-state") == "idle"


# ---------------------------------------------------------------------------- analysis


def test_maxn_analysis_shows_every_players_value_and_no_evaluation_bar(page):
    pick(page, "nim3", "heaps")
    page.select_option("#engine", "maxn")
    load(page, "1,2")
    analyse(page, "depth", 6)
    page.wait_for_selector("#analysis-panel[data-state='done']")
    headers = page.locator("#root-moves thead th").all_inner_texts()
    assert headers == ["move", "score", "P1", "P2", "P3", "line"]
    titles = page.eval_on_selector_all(
        "#root-moves thead th[title]", "ths => ths.map(t => t.title)"
    )
    assert titles == ["player 1", "player 2", "player 3"]
    rows = page.eval_on_selector_all(
        "#root-moves tbody tr",
        "rows => rows.map(r => [r.dataset.move, ...[...r.querySelectorAll('.player-value')]"
        ".map(c => c.textContent)])",
    )
    # solved: 1:1 and 2:2 leave player 2 the last object; 2:1 leaves it to player 3
    assert sorted(rows) == [
        ["1:1", "0.00", "1.00", "-1.00"],
        ["2:1", "-1.00", "0.00", "1.00"],
        ["2:2", "0.00", "1.00", "-1.00"],
    ]
    assert page.inner_text("#stat-score") == "+0.00 (P1 0.00, P2 1.00, P3 -1.00)"
    assert page.is_hidden("#eval-bar")  # no one side's share of a bar with three players
    page.click("#root-moves tr[data-move='2:1'] button")  # player 2 to move: 1,1
    wait_for_plies(page, 1)
    analyse(page, "depth", 6)
    page.wait_for_selector("#analysis-panel[data-state='done']")
    assert page.inner_text("#stat-score") == "+0.00 (P1 -1.00, P2 0.00, P3 1.00)"
    assert page.is_hidden("#eval-bar")
    # the graph follows the first player's own value, whoever moves: -1 after 2:1
    titles = page.eval_on_selector_all("#graph circle title", "ts => ts.map(t => t.textContent)")
    assert titles == ["ply 0: 0.00", "ply 1: -1.00"]


def test_the_graph_value_of_an_n_player_score_is_the_first_players_own():
    """Player 2's +0.50 with values (-1, 0.5, 0.5): the first player's -1, not -0.50 (the
    two-player view, which turns the mover's score round)."""
    score = Score(centi=50, player=1, player_values=(-1.0, 0.5, 0.5))
    assert score_value(score) == -1.0
    assert first_player_plies(score) is None
    assert score_value(Score(centi=50, player=1)) == -0.5  # two players: as before


# ---------------------------------------------------------------------------- engines only


def test_three_engines_play_nim3_live_across_two_servers(page, kibitz_servers):
    pick(page, "nim3", "heaps")
    load(page, "2,3")
    page.click("#modes [data-mode='watch']")
    labels = page.eval_on_selector_all(
        "#watch-sides select[id^='watch-engine']", "selects => selects.map(s => s.ariaLabel)"
    )
    assert labels == ["first player's engine", "second player's engine", "third player's engine"]
    picked = [page.input_value(f"#watch-server-{side}") for side in range(3)]
    assert picked == ["0", "1", "0"]  # each seat on the next server, round them
    for side, engine in enumerate(["maxn", "paranoid", "brs"]):
        page.select_option(f"#watch-engine-{side}", engine)
    page.fill("#watch-movetime", "0.05")
    page.click("#watch-start")
    page.wait_for_selector("#watch-panel[data-state='over']")
    record = json.loads(download(page, "#watch-download"))
    servers = [kibitz_servers[index].address for index in (0, 1, 0)]
    names = ["maxn", "paranoid", "brs"]
    engines = [f"{name} ({server})" for name, server in zip(names, servers, strict=True)]
    assert record["players"] == engines
    returns = record["result"]["returns"]
    assert sorted(returns) == [-1.0, 0.0, 1.0]
    winner = f"player {returns.index(1.0) + 1}"
    reason = record["result"]["reason"]
    assert page.inner_text("#watch-status") == f"game over: {winner} wins ({reason})"
    assert results(page) == ranking(returns, set())
    mover = (len(record["moves"]) - 1) % 3  # the last move's player
    said = page.inner_text("#watch-info")
    assert said.startswith(f"{engines[mover]} (player {mover + 1}) played "), said


def test_an_n_seat_match_names_every_seat(browser, kibitz_servers, tmp_path):
    address = kibitz_servers[0].address
    argv = [*KIBITZ, "match", "--game", "nim3", "--depth", "6", "--out", str(tmp_path)]
    for engine in ("maxn", "paranoid", "brs"):
        argv += ["--engine", f"name={engine},engine={engine},server={address}"]
    subprocess.run(argv, check=True, capture_output=True, timeout=120)  # 3 rotations
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    games = [json.loads(line) for line in lines[1:]]
    summary = json.loads((tmp_path / "summary.json").read_text())
    watcher = RunningGateway([address], match_dir=str(tmp_path))
    try:
        page = browser.new_page()
        page.set_default_timeout(20_000)
        page.goto(watcher.url)
        page.wait_for_selector("#main[data-ready='yes']")
        page.click("#modes button[data-mode='watch']")
        page.wait_for_selector("#match-games li >> nth=2")
        ending = ", ".join(f"{row['name']} {row['score']:.2f}" for row in summary["table"])
        assert page.inner_text("#match-status") == (
            f"nim3: maxn vs paranoid vs brs, 3 of 3 games played (ended: {ending})"
        )
        for game in games:
            item = page.inner_text(f"#match-games li[data-id='{game['id']}']")
            places = sorted(
                (1 + sum(other > value for other in game["returns"]), seat)
                for seat, value in enumerate(game["returns"])
            )
            ranked = ", ".join(
                f"{place}. {game['engines'][seat]} {game['returns'][seat]:+g}".replace("+0", "0")
                for place, seat in places
            )
            seats = " - ".join(game["engines"])
            assert item == f"game {game['id'] + 1} {seats}: {ranked} ({game['reason']})"
        page.click("#match-games li[data-id='1'] button")
        wait_for_plies(page, len(games[1]["moves"]))
        assert moves(page) == [move["move"] for move in games[1]["moves"]]
        assert re.fullmatch(r"game over: player \d wins \(.+\)", page.inner_text("#status"))
        assert results(page) == ranking(games[1]["returns"], set())
        page.close()
    finally:
        watcher.stop()


def test_axe_finds_nothing_on_the_seats_and_the_ranking(page):
    pytest.importorskip("axe_playwright_python", reason="pip install axe-playwright-python (dev)")
    from test_page_accessibility import assert_accessible

    pick(page, "nim3", "heaps")
    load(page, "1,1")
    page.click("#modes [data-mode='play']")
    page.fill("#play-movetime", "0.05")
    assert_accessible(page, "nim3 seats")
    play_first_legal_moves(page)  # 1:1, then the engine (player 2) takes the last
    assert results(page) == [
        ["1", "player 2", "+1"],
        ["2", "player 1 (you)", "0"],
        ["3", "player 3", "-1"],
    ]
    assert_accessible(page, "nim3 ranked")
