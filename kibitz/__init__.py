"""kibitz: a networked game-engine service."""

__version__ = "0.1.0"
