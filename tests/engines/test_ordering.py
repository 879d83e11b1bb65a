"""Killer moves and the history heuristic (kibitz/engines/alphabeta/ordering.py)."""

from __future__ import annotations

from kibitz.engines.alphabeta.ordering import QuietMoveOrdering


def test_history_then_killers_reorder_quiet_moves():
    ordering = QuietMoveOrdering()
    ordering.new_search(use_killers=True, use_history=True)
    ordering.record_cutoff(5, ply=3, depth=2)  # history 4, killer at ply 3
    ordering.record_cutoff(7, ply=2, depth=3)  # history 9, killer at ply 2
    moves = [1, 5, 7, 9]
    ordering.order(moves, ply=3, tt_move=None)
    assert moves == [5, 7, 1, 9]  # ply 3's killer first, then by history, then as given
    moves = [1, 5, 7, 9]
    ordering.order(moves, ply=2, tt_move=7)  # the table move is the engine's business
    assert moves == [7, 5, 1, 9]


def test_switches_and_ageing():
    ordering = QuietMoveOrdering()
    ordering.new_search(use_killers=False, use_history=False)
    assert not ordering.active
    ordering.record_cutoff(3, ply=1, depth=4)
    moves = [1, 3]
    ordering.order(moves, ply=1, tt_move=None)
    assert moves == [1, 3]
    ordering.new_search(use_killers=False, use_history=True)
    assert ordering.history[3] == 8  # halved between searches
    assert ordering.killers[2:4] == [None, None]  # ply 1's killers forgotten
    ordering.clear()
    assert not ordering.history
