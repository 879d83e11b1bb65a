"""Backgammon: `board.py` (checkers and move generation), `notation.py` (GNU Backgammon's
Position and Match IDs, plays as text), `evaluation.py` (pubeval and a race formula,
calibrated to cubeless equity), `game.py` (the `Game`)."""

from kibitz.games.backgammon.game import Backgammon

__all__ = ["Backgammon"]
