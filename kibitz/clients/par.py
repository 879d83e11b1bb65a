"""Bridge's par result from a double-dummy table: the contract reached when both sides bid
perfectly knowing every card, each side outbidding the other while that pays (a sacrifice
doubled and down costs less than letting the opponents play), scored as duplicate bridge
scores it. `kibitz bridge-table --par` prints it."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

SEATS = "NESW"
BIDDING_STRAINS = ("C", "D", "H", "S", "NT")
"""The strains in the order bids rank within a level."""
VULNERABILITIES = ("none", "ns", "ew", "both")


@dataclass(frozen=True)
class Par:
    """The par score for North-South (East-West's is its negative) and the par contracts:
    `4S N =`, `5Dx E -2` (doubled, two down); one per seat that would declare it."""

    score: int
    contracts: tuple[str, ...]

    def text(self) -> str:
        if not self.contracts:
            return "par 0: passed out"
        return f"par {self.score:+d} for NS: " + ", ".join(self.contracts)


def contract_score(level: int, strain: str, tricks: int, vulnerable: bool) -> int:
    """What the declaring side scores for `level` `strain` taking `tricks`: undoubled where it
    makes, doubled where it goes down (the opponents would double a contract they beat)."""
    needed = 6 + level
    if tricks < needed:
        down = needed - tricks
        if vulnerable:
            return -(200 + 300 * (down - 1))
        return -(100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0))
    per_trick = 20 if strain in ("C", "D") else 30
    contracted = per_trick * level + (10 if strain == "NT" else 0)
    score = contracted + per_trick * (tricks - needed)
    score += (500 if vulnerable else 300) if contracted >= 100 else 50
    if level == 6:
        score += 750 if vulnerable else 500
    elif level == 7:
        score += 1500 if vulnerable else 1000
    return score


def par(tricks: Mapping[str, Mapping[str, int]], vulnerable: str, dealer: str) -> Par:
    """Par from `tricks[seat][strain]` (declarer's tricks, seats N E S W, strains C D H S NT),
    `vulnerable` one of VULNERABILITIES, `dealer` the seat that bids first.

    The auction is a game between the sides: from the dealer's side they take turns to pass
    or bid any higher contract, two passes in a row end it, and the last bid is played by
    its side's better declarer; North-South maximise their score, East-West minimise it."""
    if vulnerable not in VULNERABILITIES:
        raise ValueError(f"vulnerability {vulnerable!r}: one of {', '.join(VULNERABILITIES)}")
    if dealer not in SEATS:
        raise ValueError(f"dealer {dealer!r}: one of N, E, S, W")
    best = [
        {strain: max(tricks[SEATS[side]][strain], tricks[SEATS[side + 2]][strain])
         for strain in BIDDING_STRAINS}
        for side in (0, 1)
    ]  # fmt: skip
    vulnerable_side = (vulnerable in ("ns", "both"), vulnerable in ("ew", "both"))

    def result(bid: int, owner: int) -> int:
        """North-South's score where the auction ends on `bid` (-1: no bid) by `owner`."""
        if bid < 0:
            return 0
        level, strain = divmod(bid, 5)
        name = BIDDING_STRAINS[strain]
        score = contract_score(level + 1, name, best[owner][name], vulnerable_side[owner])
        return score if owner == 0 else -score

    @functools.cache
    def value(bid: int, owner: int, to_act: int, passed: bool) -> tuple[int, int, int]:
        """(North-South's score, final bid, its owner) with best play from here."""
        # two passes in a row end the auction; one passes the turn
        ending = (result(bid, owner), bid, owner) if passed else value(bid, owner, 1 - to_act, True)
        choices = [ending] + [
            value(higher, to_act, 1 - to_act, False) for higher in range(bid + 1, 35)
        ]
        pick = max if to_act == 0 else min
        return pick(choices, key=lambda choice: choice[0])

    score, bid, owner = value(-1, -1, SEATS.index(dealer) % 2, False)
    if bid < 0:
        return Par(0, ())
    level, strain = divmod(bid, 5)
    name = BIDDING_STRAINS[strain]
    taken = best[owner][name]
    over = taken - 6 - (level + 1)
    outcome = "=" if over == 0 else f"{over:+d}"
    doubled = "x" if over < 0 else ""
    seats = [seat for seat in SEATS[owner::2] if tricks[seat][name] == taken]
    return Par(score, tuple(f"{level + 1}{name}{doubled} {seat} {outcome}" for seat in seats))
