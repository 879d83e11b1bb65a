"""Engines for games of three players and more: maxⁿ, paranoid and best-reply search
(docs/engines.md, "Three players and more")."""

from kibitz.engines.multi.coalition import BestReply, Paranoid
from kibitz.engines.multi.maxn import MaxN

__all__ = ["BestReply", "MaxN", "Paranoid"]
