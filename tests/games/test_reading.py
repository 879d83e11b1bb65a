"""Reading text from outside (kibitz/games/base.py): `quoted` keeps bad input short,
`capped_int` never converts thousands of digits, and `reading` (behind `read_position`,
`read_move`, `read_moves` and `play_line`) lets a game's reader fail only with its notation
errors, with short messages; over a real server: tests/server/test_notation_errors.py."""

from __future__ import annotations

import logging

import pytest

from kibitz.games import GAMES, IllegalMoveError, NotationError, quoted
from kibitz.games.base import MESSAGE_LIMIT, QUOTE_LIMIT, capped_int, reading


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("e2e4", "'e2e4'"),
        ("x" * QUOTE_LIMIT, repr("x" * QUOTE_LIMIT)),
        ("x" * 5000, repr("x" * QUOTE_LIMIT) + "… (5000 characters)"),
        ("\x00" * 100, repr("\x00" * 10) + "… (100 characters)"),  # escapes count
        ("\x00\x01\n", r"'\x00\x01\n'"),
    ],
)
def test_quoted_shows_at_most_a_short_prefix(text, shown):
    assert quoted(text) == shown
    assert len(quoted(text)) <= QUOTE_LIMIT + 2 + len("… (5000 characters)")


def test_capped_int_stops_past_the_cap_without_converting():
    assert capped_int("0007", 10) == 7
    assert capped_int("10", 10) == 10
    assert capped_int("11", 10) == 11
    assert capped_int("9" * 100_000, 10) == 11  # int() would refuse more than 4300 digits
    assert capped_int("0" * 5000 + "3", 10) == 3


class Failure(Exception):
    """Not a ValueError: what a buggy reader might raise."""


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (RecursionError("maximum recursion depth exceeded"), "it is nested too deeply"),
        (OverflowError("Python int too large to convert to C int"), "a number in it is too large"),
        (
            ValueError("Exceeds the limit (4300 digits) for integer string conversion"),
            "a number in it is too large",
        ),
        (IndexError("list index out of range"), "the reader failed (IndexError)"),
        (ValueError("invalid literal for int(): 'xxxx'"), "the reader failed (ValueError)"),
        (Failure("x" * 5000), "the reader failed (Failure)"),
    ],
)
def test_reading_turns_any_failure_into_a_short_notation_error(error, reason):
    with pytest.raises(NotationError) as caught, reading("chess", "move", "x" * 5000):
        raise error
    assert str(caught.value) == f"cannot read it as a chess move: {reason}"
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_reading_passes_notation_errors_on_and_cuts_long_ones():
    with pytest.raises(IllegalMoveError, match=r"^e2e5 is not legal$"), reading("g", "move", ""):
        raise IllegalMoveError("e2e5 is not legal")
    with pytest.raises(IllegalMoveError) as caught, reading("g", "move", ""):
        raise IllegalMoveError("y" * 5000)
    assert len(str(caught.value)) == MESSAGE_LIMIT and str(caught.value).endswith("…")


def test_a_readers_failure_is_logged_in_one_line_as_a_warning_once(caplog):
    caplog.set_level(logging.DEBUG, logger="kibitz.games")
    for _ in range(3):
        with pytest.raises(NotationError), reading("logged-game", "position", "z" * 5000):
            [][0]  # an IndexError, as a buggy reader raises it
    records = [r for r in caplog.records if r.name == "kibitz.games"]
    assert [r.levelname for r in records] == ["WARNING", "DEBUG", "DEBUG"]
    message = records[0].getMessage()
    assert "logged-game" in message and "IndexError" in message
    assert "test_reading:" in message  # where it was raised: module and line
    assert len(message) < 400 and all(r.exc_info is None for r in records)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_reads_only_through_the_guard(name):
    game = GAMES[name]
    state = game.read_position("")
    for text in ("9" * 5000, "[" * 1000, "\x00", "0000"):
        with pytest.raises(NotationError):  # a position can only be unreadable
            game.read_position(text + " " + text)
        try:
            state.read_move(text)
        except (NotationError, IllegalMoveError) as error:
            assert len(str(error)) <= MESSAGE_LIMIT
    with pytest.raises(ValueError, match=r"^move 2 \("):
        state.read_moves([state.format_move(state.legal_moves()[0]), "[" * 1000])
    assert state.position() == game.read_position("").position()  # left unchanged
