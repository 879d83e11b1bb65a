"""Games with hidden information on the page (issue 34), in real headless Chromium through a
real gateway and real kibitz servers: the page referees, draws your view alone while you play
(your card, your blind marks; "?" in the move list for what you did not see), asks the engine
about its own view, never shows the engine's score, and shows the full game at the end.

Waits are on page conditions (the page marks its state in data- attributes), never sleeps."""

from __future__ import annotations

import re

from test_multiplayer_page import play_first_legal_moves
from test_page import moves, pick

X_MARKS = "#board [aria-label*='of player 1']"


def gauges(page) -> list[str]:
    return page.locator("#board .gauge text.label").all_text_contents()


def test_kuhn_poker_shows_your_card_alone_till_the_showdown(page):
    pick(page, "kuhn-poker", "panel")
    page.select_option("#engine", "cfr")
    page.click("#modes [data-mode='play']")
    views: list[str] = []

    def your_turn(page) -> None:
        views.append(page.input_value("#position-text"))
        assert re.fullmatch(r"[JQK]:[cr]*", views[-1]), views[-1]  # your card, the betting
        assert moves(page)[:2][1] == "?"  # the engine's card
        assert [label for label in gauges(page) if label.startswith("player 2")] == ["player 2: ?"]

    play_first_legal_moves(page, your_turn)
    assert views, "you never had a turn"
    full = page.input_value("#position-text")
    assert re.fullmatch(r"[JQK]{2}:[crf]+", full) and full[0] == views[0][0]
    assert "?" not in moves(page)  # the whole game, shown
    assert page.inner_text("#status").startswith("game over: ")
    last = page.inner_text("#play-last")
    assert not last or re.fullmatch(r"engine \(player 2\) played (check|bet|call|fold)", last)


def test_phantom_tictactoe_hides_the_engines_marks_while_you_play(page):
    pick(page, "phantom-tictactoe", "grid")
    page.select_option("#engine", "ismcts")
    page.click("#modes [data-mode='play']")
    page.select_option("#play-side", "1")
    page.fill("#play-movetime", "0.1")
    first: list[list[str]] = []

    def your_turn(page) -> None:
        if not first:
            first.append(moves(page))
            assert page.locator(X_MARKS).count() == 0  # x's mark: unseen
            assert page.inner_text("#play-last") == "engine (x) moved, unseen"
            assert page.input_value("#position-text") == "o:"

    play_first_legal_moves(page, your_turn)
    assert first == [["?"]]
    assert "?" not in moves(page)
    assert page.locator(X_MARKS).count() >= 3  # the full board, shown
