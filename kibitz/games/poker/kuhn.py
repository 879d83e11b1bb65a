"""Kuhn poker with OpenSpiel's rules (open_spiel/games/kuhn_poker/kuhn_poker.cc, two
players): a deck of three cards, J < Q < K; each player antes 1 and gets one card; one
betting round of one bet of 1 at most; the higher card wins a showdown.

OpenSpiel's pass and bet are our c and r with no bet to answer, f and c facing one; its
information state strings (the card's number, then ``p`` and ``b``) are our views with the
betting in ACPC's letters (tests/games/test_kuhn_poker.py maps one to the other for every
information set). Notation and views: `kibitz.games.poker.limit`; e.g. ``KQ:cr`` (player 1
holds K, player 2 Q; check, bet), ``K:cr`` (the view of player 1, to move, holding K).
The game's value to player 1 is -1/18.
"""

from __future__ import annotations

from typing import ClassVar

from kibitz.games.poker.limit import LimitPoker


class KuhnPoker(LimitPoker):
    """A Kuhn poker position, a full state or a view; see the module docstring."""

    name: ClassVar[str] = "kuhn-poker"
    title: ClassVar[str] = "Kuhn poker"
    notation: ClassVar[str] = "kuhn-poker"
    notation_help: ClassVar[str] = (
        "Cards J, Q, K. A full state: both cards, player 1's first, a colon, then the "
        "betting in ACPC letters: 'KQ:cr' (player 1 holds K, player 2 Q; check, bet); '--:' "
        "is the start, before the deal, '-' a card still to deal ('K-:'). A view: the "
        "player to move's card alone, 'K:cr', or both seats with '?' for the card not "
        "seen, 'K?:cc' (player 1's view), '?Q:cr' (player 2's). Moves: c (check or call), "
        "r (bet), f (fold); at the deal, the card dealt (J, Q or K)."
    )
    example: ClassVar[str] = "KQ:cr"
    raise_sizes: ClassVar[tuple[int, ...]] = (1,)
    max_raises: ClassVar[int] = 1

    def hand_strength(self, card: int) -> int:
        return card
