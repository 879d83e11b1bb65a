"""Chess: the game (`game.py`) on kibitz's own board (`board.py`), evaluated with PeSTO's
tables (`pesto.py`)."""

from kibitz.games.chess.game import Chess

__all__ = ["Chess"]
