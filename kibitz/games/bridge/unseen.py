"""The deals of a bridge view's unseen cards to its hidden seats, counted and drawn
uniformly: each hidden seat gets as many cards as it has left to play, and none of a suit it
has shown out of (docs/games.md, "Bridge").

The deals are counted suit by suit: a suit's unseen cards split among the hidden seats in
``u! / (x1! x2! ...)`` ways for the split (x1, x2, ...), and the number of deals of the later
suits depends only on the seats' capacities left. A split is drawn with probability its
count times the later suits' count over the whole count, suit after suit, then the suit's
cards are shuffled into it: every consistent deal is equally likely.
"""

from __future__ import annotations

import random
from functools import cache
from math import factorial

from kibitz.games.bridge.cards import SUIT_MASK, cards_of

Split = tuple[int, ...]
"""How many cards of one suit each hidden seat gets."""


class UnseenDeals:
    """The deals of `unseen` (a hand: the cards no seat of the view shows) to `seats` (the
    hidden seats), seat ``seats[i]`` getting ``counts[i]`` cards and no card of a suit in its
    bitmask ``voids[i]`` (bit `suit`)."""

    def __init__(
        self, unseen: int, seats: tuple[int, ...], counts: tuple[int, ...], voids: tuple[int, ...]
    ) -> None:
        self.unseen = unseen
        self.seats = seats
        self.counts = counts
        self.voids = voids
        self.sizes = tuple((unseen >> (13 * suit) & SUIT_MASK).bit_count() for suit in range(4))
        """The unseen cards of each suit."""
        self._ways = cache(self._count)

    def total(self) -> int:
        """The number of consistent deals (0: the view is impossible)."""
        if sum(self.counts) != self.unseen.bit_count():
            return 0
        return self._ways(0, self.counts)

    def _splits(self, suit: int, capacities: tuple[int, ...]) -> list[tuple[Split, int]]:
        """Each way to split `suit`'s unseen cards among the seats within `capacities` and
        their voids, with its number of card assignments."""
        found: list[tuple[Split, int]] = []
        size = self.sizes[suit]

        def extend(split: Split, left: int) -> None:
            index = len(split)
            if index == len(capacities) - 1:
                if left <= capacities[index] and (not left or not self.voids[index] >> suit & 1):
                    whole = (*split, left)
                    ways = factorial(size)
                    for part in whole:
                        ways //= factorial(part)
                    found.append((whole, ways))
                return
            most = 0 if self.voids[index] >> suit & 1 else min(left, capacities[index])
            for part in range(most + 1):
                extend((*split, part), left - part)

        extend((), size)
        return found

    def _count(self, suit: int, capacities: tuple[int, ...]) -> int:
        """Deals of the suits from `suit` on into `capacities`."""
        if suit == 4:
            return 1 if not any(capacities) else 0
        total = 0
        for split, ways in self._splits(suit, capacities):
            rest = tuple(c - x for c, x in zip(capacities, split, strict=True))
            total += ways * self._ways(suit + 1, rest)
        return total

    def draw(self, rng: random.Random) -> dict[int, int]:
        """One consistent deal, uniformly: each hidden seat's cards (a hand) by seat."""
        capacities = self.counts
        hands = dict.fromkeys(self.seats, 0)
        for suit in range(4):
            options = []
            for split, ways in self._splits(suit, capacities):
                rest = tuple(c - x for c, x in zip(capacities, split, strict=True))
                weight = ways * self._ways(suit + 1, rest)
                if weight:
                    options.append((split, rest, weight))
            pick = rng.randrange(sum(weight for _, _, weight in options))
            chosen = 0
            while pick >= options[chosen][2]:
                pick -= options[chosen][2]
                chosen += 1
            split, rest, _ = options[chosen]
            cards = list(cards_of(self.unseen & SUIT_MASK << (13 * suit)))
            rng.shuffle(cards)
            at = 0
            for seat, part in zip(self.seats, split, strict=True):
                for card in cards[at : at + part]:
                    hands[seat] |= 1 << card
                at += part
            capacities = rest
        return hands
