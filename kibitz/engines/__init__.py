"""Search engines, generic over the Game interface, and their registry."""

from kibitz.engines.alphabeta import AlphaBeta
from kibitz.engines.base import Engine, OptionError, OptionSpec, SearchContext

ENGINES: dict[str, type[Engine]] = {e.name: e for e in (AlphaBeta,)}

__all__ = ["ENGINES", "Engine", "OptionError", "OptionSpec", "SearchContext"]
