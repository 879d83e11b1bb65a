"""Backgammon on the page as GNU Backgammon's board has it (issue 29), in real headless
Chromium: a play entered checker by checker with clicks (the larger die, shift-click or
right-click the smaller, a drag, Escape and Backspace to take a step back), a double entered
in four clicks instead of 42 buttons, the win/gammon/backgammon chances in the root-move
table, the equity a worse play lost in the move list, and a line loaded whole numbered as
when played.

Waits are on page conditions (the page marks its state in data- attributes), never sleeps."""

from __future__ import annotations

import pytest
from test_page import analyse, load, moves, pick, wait_for_plies

from kibitz.clients import SyncClient

START = "4HPwATDgc/ABMA"
"""The start, player 1 on roll; its points are the places p1..p24 (player 1 counts them)."""


def at_start(page, roll: str) -> None:
    pick(page, "backgammon", "points")
    load(page, f"{START}:{roll}")


def partial(page) -> str:
    """The steps entered so far, as the page writes them under the board ("" for none)."""
    steps = page.locator("#board .partial-play .steps")
    return steps.inner_text() if steps.count() else ""


def click_point(page, point: int, **options) -> None:
    page.click(f"#board [data-place='p{point}']", **options)


def test_a_roll_is_played_die_by_die_with_clicks_undone_and_sent_whole(page):
    at_start(page, "31")
    assert page.locator("#board .partial-play .hint").count() == 1
    click_point(page, 8)  # the larger die: 8/5
    page.wait_for_function("() => document.querySelector('#board .partial-play .steps')")
    assert partial(page) == "8/5"
    assert moves(page) == []  # nothing sent yet
    assert page.locator("#board .dice .die").count() == 1  # the 3 is used
    assert page.get_attribute("#board [data-place='p8']", "aria-label") == (
        "p8, checker \u00d72 of player 1"
    )
    assert page.get_attribute("#board [data-place='p5']", "aria-label") == "p5, checker of player 1"
    page.keyboard.press("Escape")  # a step back
    page.wait_for_selector("#board .partial-play .hint")
    click_point(page, 24, modifiers=["Shift"])  # the smaller die: 24/23
    page.wait_for_function("() => document.querySelector('#board .partial-play .steps')")
    assert partial(page) == "24/23"
    page.keyboard.press("Backspace")
    page.wait_for_selector("#board .partial-play .hint")
    click_point(page, 13, modifiers=["Shift"])  # the 1 is blocked (13/12): the 3, 13/10
    page.wait_for_function("() => document.querySelector('#board .partial-play .steps')")
    assert partial(page) == "13/10"
    page.keyboard.press("Backspace")
    page.wait_for_selector("#board .partial-play .hint")
    click_point(page, 6, button="right")  # right-click: the smaller die, 6/5
    page.wait_for_function("() => document.querySelector('#board .partial-play .steps')")
    assert partial(page) == "6/5"
    click_point(page, 8)  # the 3 left: 8/5, and the play is whole
    wait_for_plies(page, 1)
    assert moves(page) == ["8/5 6/5"]
    assert page.inner_text("#status") == "chance: roll the dice"


def test_a_checker_is_dragged_and_a_free_point_clicked(page):
    at_start(page, "64")
    drag = page.locator("#board [data-place='p24']")
    drag.drag_to(page.locator("#board [data-place='p18']"))  # 24/18 with the 6
    page.wait_for_function("() => document.querySelector('#board .partial-play .steps')")
    assert partial(page) == "24/18"
    # the 4 left: a click on the free point 9 moves the checker that reaches it (13/9)
    assert "step-to" in page.get_attribute("#board [data-place='p9']", "class")
    click_point(page, 9)
    wait_for_plies(page, 1)
    assert moves(page) == ["24/18 13/9"]


def test_a_double_is_entered_in_four_clicks_not_from_42_buttons(page):
    at_start(page, "11")
    assert len(page.locator("#legal option").all()) == 42  # every play is still listed
    assert page.locator("#board .move-button").count() == 0  # but not as 42 buttons
    for point, entered in ((8, "8/7"), (8, "8/7 8/7"), (6, "8/7 8/7 6/5")):
        click_point(page, point)
        page.wait_for_function(
            "text => document.querySelector('#board .partial-play .steps')?.textContent === text",
            arg=entered,
        )
    assert page.locator("#board .dice .die").count() == 1
    click_point(page, 6)
    wait_for_plies(page, 1)
    assert moves(page) == ["8/7(2) 6/5(2)"]


def analysed_at_start(page, roll: str) -> None:
    at_start(page, roll)
    analyse(page, "depth", 1)
    page.wait_for_selector("#analysis-panel[data-state='done']")


def test_the_root_moves_show_win_gammon_and_backgammon_chances(page):
    analysed_at_start(page, "31")
    heads = page.locator("#root-moves thead th").all_inner_texts()
    assert heads[-7:] == ["W", "W(g)", "W(bg)", "L", "L(g)", "L(bg)", "line"]
    rows = page.locator("#root-moves tbody tr").evaluate_all(
        """rows => rows.map(row => [...row.querySelectorAll('.chance-cell')]
            .map(cell => Number(cell.textContent)))"""
    )
    assert len(rows) == 10
    for win, gammon, backgammon, loss, lost_gammon, lost_backgammon in rows:
        assert win + loss == pytest.approx(1.0, abs=0.0011)
        assert 0 < backgammon <= gammon <= win and 0 < lost_backgammon <= lost_gammon <= loss
    # the best plays, as the analysis ranks them, are the board's buttons
    best = page.locator("#root-moves tbody tr .move").all_inner_texts()[:5]
    assert page.locator("#board .move-button").all_inner_texts() == best


def test_a_worse_play_shows_the_equity_it_lost_against_the_best(page, kibitz_servers):
    analysed_at_start(page, "31")
    with SyncClient(kibitz_servers[0].address) as client:
        result = client.analyze("backgammon", f"{START}:31", depth=1).wait()
    best, worst = result.root_moves[0], result.root_moves[-1]
    error = best.score.expected_value - worst.score.expected_value
    assert error > 0.05
    page.fill("#move-input", worst.move_label)
    page.press("#move-input", "Enter")
    wait_for_plies(page, 1)
    note = page.inner_text("#moves .error-note")
    assert note == f"\u2212{error:.3f} (best was {best.move_label})"


def test_the_best_play_shows_no_error_and_entered_die_by_die_is_the_same_move(page):
    analysed_at_start(page, "31")
    assert page.get_attribute("#analysis-panel", "data-best") == "8/5 6/5"
    click_point(page, 8)
    page.wait_for_function("() => document.querySelector('#board .partial-play .steps')")
    click_point(page, 6)
    wait_for_plies(page, 1)
    assert moves(page) == ["8/5 6/5"]
    assert page.locator("#moves .error-note").count() == 0


def test_a_line_loaded_whole_numbers_a_roll_and_its_play_as_one_move(page):
    pick(page, "backgammon", "points")
    line = ["31:", "8/5 6/5", "64:", "24/18 13/9", "21:"]
    page.evaluate(
        "async line => (await import('/static/app.js')).showLine('', line)",
        line,
    )
    wait_for_plies(page, 5)
    numbers = page.locator("#moves li").evaluate_all(
        "items => items.map(item => item.querySelector('.number')?.textContent || '')"
    )
    assert numbers == ["1.", "", "2.", "", "3."]


def test_the_entry_the_chances_and_the_error_pass_axe(page):
    accessibility = pytest.importorskip(
        "test_page_accessibility", reason="pip install axe-playwright-python (dev)"
    )
    analysed_at_start(page, "31")
    click_point(page, 24)
    page.wait_for_function("() => document.querySelector('#board .partial-play .steps')")
    accessibility.assert_accessible(page, "backgammon: a step entered, the chances shown")
    click_point(page, 24)  # 24/21 24/23: a poor play
    wait_for_plies(page, 1)
    page.wait_for_selector("#moves .error-note")
    accessibility.assert_accessible(page, "backgammon: the error of the play shown")


def test_against_the_engine_a_random_roll_is_entered_die_by_die(page):
    """Whatever the page rolls for you, clicking checkers the board offers enters a legal
    play step by step (or, where no checker can move, the one play offered, `pass`); the
    engine answers, and you play again."""
    pick(page, "backgammon", "points")
    page.click("#modes [data-mode='play']")
    page.fill("#play-movetime", "0.05")
    page.click("#play-start")
    for _ in range(2):
        page.wait_for_function(  # your turn, rolled: the board takes the play die by die
            """() => document.getElementById("play-panel").dataset.state === "human"
                && document.querySelector("#board .partial-play")"""
        )
        count = int(page.get_attribute("#moves", "data-count"))
        for _ in range(4):  # a step a click: four at most (a double)
            before = partial(page)
            step = page.locator("#board .place.legal, #board .move-button[data-move='pass']")
            step.first.click()  # a checker; or, with no checker able to move, the pass
            page.wait_for_function(
                """([count, before]) => {
                    const plies = Number(document.getElementById("moves").dataset.count);
                    const steps = document.querySelector("#board .partial-play .steps");
                    return plies > count || (steps ? steps.textContent : "") !== before;
                }""",
                arg=[count, before],
            )
            if int(page.get_attribute("#moves", "data-count")) > count:
                break
        assert int(page.get_attribute("#moves", "data-count")) > count
        assert not moves(page)[count].endswith(":")  # your play, after your roll
    assert len(moves(page)) >= 4  # rolls and plays of both sides
