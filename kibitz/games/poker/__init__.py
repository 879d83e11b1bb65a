"""Poker with hidden cards: Kuhn and Leduc poker (`kibitz.games.poker.limit` has what both
share: the deal, limit betting, the notation of full states and views, sampling)."""

from kibitz.games.poker.kuhn import KuhnPoker
from kibitz.games.poker.leduc import LeducPoker

__all__ = ["KuhnPoker", "LeducPoker"]
