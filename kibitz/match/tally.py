"""The running score of a match, fed game records as they finish: W/D/L per engine and per
encounter, game pairs (pentanomial), forfeits and latencies, and the summary built from them
(kibitz/match/stats.py has the formulas; docs/match.md, "The summary")."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from kibitz.match import stats
from kibitz.match.spec import SprtSpec

PENTA_LABELS = ("LL", "LD", "WL+DD", "WD", "WW")


def points(record: dict[str, Any], engine: int) -> float:
    """What `engine` scored in the game `record`: 1, 1/2 or 0."""
    player = record["players"].index(engine)
    mine, theirs = record["returns"][player], record["returns"][1 - player]
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


class Timings:
    """Per engine: its forfeits, and the sum and the maximum of its moves' latencies with
    their count."""

    def __init__(self, size: int) -> None:
        self.forfeits = [0] * size
        self.latency = [[0.0, 0.0, 0] for _ in range(size)]

    def add(self, record: dict[str, Any]) -> None:
        """Count one finished game's forfeit and move latencies."""
        if record.get("forfeit_engine") is not None:
            self.forfeits[record["forfeit_engine"]] += 1
        for move in record["moves"]:
            if "latency" in move:
                stat = self.latency[record["players"][move["player"]]]
                stat[0] += move["latency"]
                stat[1] = max(stat[1], move["latency"])
                stat[2] += 1

    def row(self, engine: int) -> dict[str, Any]:
        """`engine`'s forfeits, mean and maximum latency, as a table row has them."""
        stat = self.latency[engine]
        return {
            "forfeits": self.forfeits[engine],
            "latency_mean": _mean(stat),
            "latency_max": stat[1] if stat[2] else None,
        }


class Tally:
    """W/D/L of every engine against every other, and the game pairs of each encounter."""

    def __init__(self, names: Sequence[str], encounters: Sequence[tuple[int, int]]) -> None:
        self.names = list(names)
        self.encounters = list(encounters)
        size = len(names)
        self.wdl = [[[0, 0, 0] for _ in range(size)] for _ in range(size)]
        """wdl[a][b]: a's wins, draws and losses against b."""
        self.penta = [[0] * 5 for _ in encounters]
        """Per encounter (a, b): pairs in which a scored 0, 1/2, 1, 3/2, 2 points."""
        self._halves: dict[int, float] = {}
        self.points = [0.0] * size
        """Per engine: the sum of its games' returns (chips won, in poker)."""
        self.games = 0
        self.timings = Timings(size)

    def add(self, record: dict[str, Any]) -> None:
        """Count one finished game."""
        self.games += 1
        a, b = self.encounters[record["encounter"]]
        for engine, other in ((a, b), (b, a)):
            score = points(record, engine)
            self.wdl[engine][other][(1.0, 0.5, 0.0).index(score)] += 1
            self.points[engine] += record["returns"][record["players"].index(engine)]
        self.timings.add(record)
        pair = record["pair"]
        if pair in self._halves:
            total = self._halves.pop(pair) + points(record, a)
            self.penta[record["encounter"]][round(total * 2)] += 1
        else:
            self._halves[pair] = points(record, a)

    def totals(self, engine: int) -> tuple[int, int, int]:
        """`engine`'s wins, draws and losses against everyone."""
        w, d, l = (sum(row[i] for row in self.wdl[engine]) for i in range(3))  # noqa: E741
        return w, d, l

    def llr(self, sprt: SprtSpec) -> float | None:
        """The SPRT's LLR for the first encounter over its complete game pairs (None before
        the first pair is complete)."""
        counts = self.penta[0]
        return stats.llr(counts, sprt) if sum(counts) else None

    # ------------------------------------------------------------------------ summaries

    def head_to_head(self, sprt: SprtSpec | None = None) -> dict[str, Any]:
        """The two-engine summary, from the first engine's point of view."""
        wins, draws, losses = self.wdl[0][1]
        games = wins + draws + losses
        trinomial = stats.trinomial(wins, draws, losses)
        summary: dict[str, Any] = {
            "engines": self.names[:2],
            "games": games,
            "wins": wins,
            "draws": draws,
            "losses": losses,
            "score": trinomial.score if games else None,
            **_elo(trinomial),
            "draw_ratio": draws / games if games else None,
        }
        counts = self.penta[0]
        penta = stats.pentanomial(counts)
        summary["pentanomial"] = {
            "pairs": sum(counts),
            "counts": dict(zip(PENTA_LABELS, counts, strict=True)),
            "score": penta.score if sum(counts) else None,
            **_elo(penta),
        }
        if sprt is not None:
            value = self.llr(sprt)
            summary["sprt"] = {
                "elo0": sprt.elo0,
                "elo1": sprt.elo1,
                "alpha": sprt.alpha,
                "beta": sprt.beta,
                "model": sprt.model,
                "llr": value,
                "lower": sprt.lower,
                "upper": sprt.upper,
                "result": stats.sprt_decision(value, sprt) if value is not None else None,
            }
        return summary

    def table(self) -> list[dict[str, Any]]:
        """Every engine's results against the field, best score first."""
        rows = []
        for engine, name in enumerate(self.names):
            wins, draws, losses = self.totals(engine)
            games = wins + draws + losses
            estimate = stats.trinomial(wins, draws, losses)
            rows.append(
                {
                    "name": name,
                    "games": games,
                    "wins": wins,
                    "draws": draws,
                    "losses": losses,
                    "score": estimate.score if games else None,
                    "points": self.points[engine],
                    **_elo(estimate),
                    **self.timings.row(engine),
                    "results": {
                        self.names[other]: "-".join(map(str, self.wdl[engine][other]))
                        for other in range(len(self.names))
                        if other != engine and sum(self.wdl[engine][other])
                    },
                }
            )
        rows.sort(key=lambda row: -(row["score"] if row["score"] is not None else -1))
        for rank, row in enumerate(rows, start=1):
            row["rank"] = rank
        return rows


def _elo(estimate: stats.Estimate) -> dict[str, Any]:
    """Elo, its 95% interval, LOS and normalized Elo, JSON-ready (None where undefined)."""
    if not estimate.samples:
        return {"elo": None, "elo_ci95": None, "los": None, "nelo": None, "nelo_error": None}
    return {
        "elo": _finite(estimate.elo),
        "elo_ci95": [_finite(estimate.elo_low), _finite(estimate.elo_high)],
        "los": estimate.los,
        "nelo": _finite(estimate.nelo),
        "nelo_error": _finite(estimate.nelo_error),
    }


def _finite(value: float) -> float | None:
    return round(value, 2) + 0.0 if math.isfinite(value) else None  # + 0.0: no -0.0


def _mean(stat: list[float]) -> float | None:
    return round(stat[0] / stat[2], 4) if stat[2] else None
