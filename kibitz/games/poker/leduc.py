"""Leduc poker with OpenSpiel's rules (open_spiel/games/leduc_poker/leduc_poker.cc, two
players, its default parameters): a deck of six cards, two suits of J < Q < K, numbered as
OpenSpiel numbers them (Js 0, Jh 1, Qs 2, Qh 3, Ks 4, Kh 5; the suits only tell the two
cards of a rank apart, as OpenSpiel's information states do); each player antes 1 and gets
one card; two betting rounds, raises of 2 in the first and 4 in the second, at most two a
round; one public card between them. At the showdown a pair with the public card wins,
else the higher card, then the higher of the other two; equal hands split the pot.

OpenSpiel's information state strings (observer, private card, round, pot, money, public
card, both rounds' actions) are our views (tests/games/test_leduc_poker.py maps one to the
other for every information set). Notation and views: `kibitz.games.poker.limit`; e.g.
``KsJh/Qh:rc/r`` (player 1 holds Ks, player 2 Jh, the public card Qh; round 1 raise and
call, round 2 a bet), ``KsJh:rc/`` before the public card, ``Ks/Qh:rc/r`` the view of
player 1 (to move) of either.
"""

from __future__ import annotations

from typing import ClassVar

from kibitz.games.poker.limit import LimitPoker


class LeducPoker(LimitPoker):
    """A Leduc poker position, a full state or a view; see the module docstring."""

    name: ClassVar[str] = "leduc-poker"
    title: ClassVar[str] = "Leduc poker"
    notation: ClassVar[str] = "leduc-poker"
    notation_help: ClassVar[str] = (
        "Cards Js Jh Qs Qh Ks Kh. As kuhn-poker's, with the public card after a '/' once "
        "dealt and '/' between the rounds' betting: a full state 'KsJh/Qh:rc/r' (player 1 "
        "holds Ks, player 2 Jh, the public card is Qh; round 1 raise, call; round 2 bet), "
        "'KsJh:rc/' before the public card, '--:' the start; a view 'Ks/Qh:rc/r' (the player "
        "to move's), 'Ks?/Qh:rc/r' (player 1's), '?Jh/Qh:rc/r' (player 2's). Moves: c (check "
        "or call), r (bet or raise), f (fold); at a deal, the card dealt."
    )
    example: ClassVar[str] = "KsJh/Qh:rc/r"
    suits: ClassVar[str] = "sh"
    raise_sizes: ClassVar[tuple[int, ...]] = (2, 4)
    max_raises: ClassVar[int] = 2

    def hand_strength(self, card: int) -> int:
        rank, public = self.rank(card), self.rank(self.cards[2])
        if rank == public:
            return 100 + rank
        return max(rank, public) * len(self.ranks) + min(rank, public)
