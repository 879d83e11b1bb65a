"""Matches with N seats: in a game of three or more players every engine plays every game,
each in every seat in turn (docs/match.md, "Matches with N seats").

Pure functions of a finished game's returns (places, rank points, the result text), the
seatings of a rotation set, and `SeatTally`, the running score of such a match, which the
runner feeds game records as it feeds the two-engine `Tally` (kibitz/match/tally.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from kibitz.match import stats
from kibitz.match.spec import SpecError
from kibitz.match.tally import Timings

SEATINGS = ("rotations", "permutations")
UNDEFINED = (
    "points",
    "mean_return",
    "score",
    "score_ci95",
    "mean_rank",
    "mean_rank_ci95",
    "win_rate",
    "win_rate_ci95",
)
"""The numbers of a table row that an engine without games has none of (null)."""


def seatings(seats: int, kind: str = "rotations") -> list[tuple[int, ...]]:
    """The engines by seat (index 0 = first player) of the games of one rotation set:
    the cyclic rotations (game k seats engine (s + k) mod N in seat s: each engine in each
    seat once; N games), or every order (N! games: each engine also follows each other
    engine equally often). Two seats: (0, 1), (1, 0), a game pair either way."""
    if seats < 2:
        raise SpecError("a match needs at least two seats")
    if kind == "rotations":
        return [tuple((seat + k) % seats for seat in range(seats)) for k in range(seats)]
    if kind == "permutations":
        return list(itertools.permutations(range(seats)))
    raise SpecError(f"--seating must be one of {', '.join(SEATINGS)}")


def places(returns: Sequence[float]) -> list[float]:
    """Each player's place by the game's returns: 1 + the players with more, players level
    sharing the mean of their places (returns (2, -1, -1): places 1, 2.5, 2.5)."""
    return [
        1
        + sum(other > mine for other in returns)
        + (sum(other == mine for other in returns) - 1) / 2
        for mine in returns
    ]


def rank_points(place: float, seats: int) -> float:
    """A place as points in [0, 1]: 1 for first, 0 for last, linear between (two seats: a
    win 1, a draw 1/2, a loss 0)."""
    return (seats - place) / (seats - 1)


def result_text(returns: Sequence[float]) -> str:
    """The game's win point by player, shared by the players level at the top: "1-0-0",
    "0-1/2-1/2", "1/3-1/3-1/3"; two players as PGN: "1-0", "0-1", "1/2-1/2"."""
    best = max(returns)
    top = sum(value == best for value in returns)
    share = "1" if top == 1 else f"1/{top}"
    return "-".join(share if value == best else "0" for value in returns)


class SeatTally:
    """Per engine of an N-seat match: its returns, places and outright wins game by game,
    how it finished against each other engine (above, level, below), forfeits and
    latencies."""

    def __init__(self, names: Sequence[str]) -> None:
        """`names`: the engines, one per seat."""
        self.names = list(names)
        size = len(names)
        self.games = 0
        self.returns: list[list[float]] = [[] for _ in range(size)]
        self.places: list[list[float]] = [[] for _ in range(size)]
        self.wins = [0] * size
        """Games an engine ended alone at the top."""
        self.versus = [[[0, 0, 0] for _ in range(size)] for _ in range(size)]
        """versus[a][b]: the games a finished above, level with, and below b."""
        self.timings = Timings(size)

    def add(self, record: dict[str, Any]) -> None:
        """Count one finished game."""
        self.games += 1
        players, returns = record["players"], record["returns"]
        seats = len(players)
        for seat, place in enumerate(places(returns)):
            engine = players[seat]
            self.returns[engine].append(returns[seat])
            self.places[engine].append(place)
            self.wins[engine] += place == 1
            for other_seat in range(seats):
                if other_seat != seat:
                    mine, theirs = returns[seat], returns[other_seat]
                    column = 0 if mine > theirs else 1 if mine == theirs else 2
                    self.versus[engine][players[other_seat]][column] += 1
        self.timings.add(record)

    def table(self) -> list[dict[str, Any]]:
        """Every engine's results, best mean rank points first (docs/match.md)."""
        seats = len(self.names)
        rows = []
        for engine, name in enumerate(self.names):
            games = len(self.places[engine])
            row: dict[str, Any] = {"name": name, "games": games}
            if games:
                points = [rank_points(place, seats) for place in self.places[engine]]
                score, score_low, score_high = stats.mean_interval(points)
                mean_place, place_low, place_high = stats.mean_interval(self.places[engine])
                row.update(
                    points=sum(self.returns[engine]),
                    mean_return=sum(self.returns[engine]) / games,
                    score=score,
                    score_ci95=[score_low, score_high],
                    mean_rank=mean_place,
                    mean_rank_ci95=[place_low, place_high],
                    wins=self.wins[engine],
                    win_rate=self.wins[engine] / games,
                    win_rate_ci95=list(stats.wilson(self.wins[engine], games)),
                )
            else:
                row.update(dict.fromkeys(UNDEFINED), wins=0)
            row.update(self.timings.row(engine))
            row["results"] = {
                self.names[other]: "-".join(map(str, self.versus[engine][other]))
                for other in range(len(self.names))
                if other != engine and sum(self.versus[engine][other])
            }
            rows.append(row)
        rows.sort(key=lambda row: -(row["score"] if row["score"] is not None else -1))
        for rank, row in enumerate(rows, start=1):
            row["rank"] = rank
        return rows
