"""How the CLI writes moves and scores: SAN lines and mates in moves for chess, the wire's
notation for every other game."""

from __future__ import annotations

from kibitz.clients.display import ChessDisplay, Display, display_for
from kibitz.clients.values import Bound, Score, ScoreKind

MORPHY = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1"


def test_chess_lines_are_san_from_the_searched_position():
    display = display_for("chess", MORPHY)
    assert display.line(["a1a6", "b7a6", "b6b7"]) == ["Ra6", "bxa6", "b7#"]
    after = display_for("chess", "startpos", ["e2e4", "e7e5 Nf3"])
    assert after.line(["b8c6", "f1b5"]) == ["Nc6", "Bb5"]


def test_a_move_that_does_not_fit_is_shown_as_it_came_and_ends_the_line():
    assert ChessDisplay("", []).line(["e2e4", "e2e4", "d7d5"]) == ["e4", "e2e4"]


def test_chess_wins_and_losses_are_mates_in_moves():
    display = display_for("chess")
    assert display.score(Score(ScoreKind.WIN, plies=3)) == "mate in 2"
    assert display.score(Score(ScoreKind.LOSS, plies=4)) == "mated in 2"
    assert display.score(Score(ScoreKind.WIN, plies=1, bound=Bound.UPPER)) == "<=mate in 1"
    assert display.score(Score(ScoreKind.LOSS, plies=2, bound=Bound.LOWER)) == ">=mated in 1"
    assert display.score(Score(ScoreKind.HEURISTIC, centi=35)) == "+0.35"


def test_other_games_and_unreadable_chess_positions_keep_the_wire_notation():
    for display in (display_for("connect4", "4453"), display_for("chess", "not a fen")):
        assert type(display) is Display
        assert display.line(["4", "5"]) == ["4", "5"]
        assert display.score(Score(ScoreKind.WIN, plies=3)) == "win in 3"
