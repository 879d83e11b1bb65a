"""What a match shows a person: a live progress bar on a terminal (plain lines elsewhere)
and the final summary as text (`--json` prints the summary itself instead)."""

from __future__ import annotations

from typing import Any, TextIO

from kibitz.match.seats import SeatTally
from kibitz.match.tally import Tally

BAR_WIDTH = 24


class Progress:
    """Reports each finished game to `stream`: one redrawn bar on a terminal, else a line."""

    def __init__(self, stream: TextIO, total: int, names: list[str]) -> None:
        self.stream = stream
        self.total = total
        self.names = names
        self.live = stream.isatty()
        self._drawn = False
        self._waited: set[str] = set()

    def game(self, record: dict[str, Any], tally: Tally | SeatTally) -> None:
        standing = self._standing(tally)
        if self.live:
            done = round(BAR_WIDTH * tally.games / max(1, self.total))
            bar = "#" * done + "." * (BAR_WIDTH - done)
            self.stream.write(f"\r\x1b[K[{bar}] {tally.games}/{self.total} {standing}")
            self._drawn = True
        else:
            seated = " vs ".join(record["engines"])
            self.stream.write(
                f"game {tally.games}/{self.total}: {seated} {record['result']} "
                f"({record['reason']}); {standing}\n"
            )
        self.stream.flush()

    def note(self, text: str) -> None:
        """A message between progress reports (e.g. waiting for a server)."""
        self.end()
        self.stream.write(text + "\n")
        self.stream.flush()

    def waiting(self, name: str, message: str) -> None:
        """A server had no room for `name`'s session or search: said once per engine."""
        if name not in self._waited:
            self._waited.add(name)
            self.note(f"kibitz match: {name}: the server is busy ({message}); waiting")

    def end(self) -> None:
        """Finish the bar's line, if one is drawn."""
        if self._drawn:
            self.stream.write("\n")
            self._drawn = False

    def _standing(self, tally: Tally | SeatTally) -> str:
        if isinstance(tally, SeatTally):
            leader = tally.table()[0]
            return (
                f"leader {leader['name']} score {_percent(leader['score'])}, mean rank "
                f"{_number(leader['mean_rank'], '.2f')}"
            )
        if len(self.names) != 2:
            leader = tally.table()[0]
            return f"leader {leader['name']} {_score(leader)}"
        wins, draws, losses = tally.wdl[0][1]
        summary = tally.head_to_head()
        return f"W/D/L {wins}/{draws}/{losses}, score {_number(summary['score'], '.3f')}, " + (
            f"Elo {_elo(summary)}"
        )


def summary_text(summary: dict[str, Any]) -> str:
    """The final summary for people."""
    lines = []
    if "wins" in summary:
        first, second = summary["engines"]
        lines += [
            f"{first} vs {second}: {summary['games']} games of {summary['game']}",
            f"W/D/L: {summary['wins']}/{summary['draws']}/{summary['losses']} "
            f"(first engine's view), score {_number(summary['score'], '.3f')}, draw ratio "
            f"{_percent(summary['draw_ratio'])}",
            f"Elo: {_elo(summary)}, LOS {_percent(summary['los'])}, nElo "
            f"{_number(summary['nelo'], '+.2f')} +/- {_number(summary['nelo_error'], '.2f')}",
        ]
        penta = summary["pentanomial"]
        if penta["pairs"]:
            counts = ", ".join(f"{k} {v}" for k, v in penta["counts"].items())
            lines.append(
                f"Pairs: {penta['pairs']} ({counts}); Elo {_elo(penta)}, LOS "
                f"{_percent(penta['los'])}"
            )
        sprt = summary.get("sprt")
        if sprt:
            lines.append(
                f"SPRT ({sprt['model']}, elo0={sprt['elo0']:g}, elo1={sprt['elo1']:g}, "
                f"alpha={sprt['alpha']:g}, beta={sprt['beta']:g}): LLR "
                f"{_number(sprt['llr'], '.2f')} ({sprt['lower']:.2f}, {sprt['upper']:.2f}) "
                f"{sprt['result'] or 'undecided'}"
            )
    elif "seats" in summary:
        lines.append(
            f"{summary['seats']} seats of {summary['game']} ({summary['seating']}): "
            f"{summary['games']} games"
        )
    else:
        lines.append(f"{summary['tournament']} of {summary['game']}: {summary['games']} games")
    lines.append(
        seats_text(summary["table"]) if "seats" in summary else table_text(summary["table"])
    )
    if summary["stopped"]:
        lines.append(f"stopped early: {summary['stopped']}")
    return "\n".join(lines)


def table_text(rows: list[dict[str, Any]]) -> str:
    """The crosstable: rank, Elo, games, score, W/D/L, points (the sum of returns: chips in
    poker), forfeits, latency, results per opponent."""
    header = f"{'#':>2} {'engine':<16} {'Elo':>16} {'games':>5} {'score':>6} {'W-D-L':>11}"
    header += f" {'points':>8} {'forfeits':>8} {'latency':>8}  results"
    lines = [header]
    for row in rows:
        results = ", ".join(f"{name} {wdl}" for name, wdl in row["results"].items())
        wdl = f"{row['wins']}-{row['draws']}-{row['losses']}"
        lines.append(
            f"{row['rank']:>2} {row['name']:<16} {_elo(row):>16} {row['games']:>5} "
            f"{_percent(row['score']):>6} {wdl:>11} {_number(row['points'], '.6g'):>8} "
            f"{row['forfeits']:>8} "
            f"{_ms(row['latency_mean']):>8}  {results}"
        )
    return "\n".join(lines)


def seats_text(rows: list[dict[str, Any]]) -> str:
    """The table of an N-seat match: rank, games, points (sum of returns), score (mean rank
    points) and mean rank with their 95% intervals, outright wins with the Wilson interval,
    forfeits, latency, and above-level-below against each other engine."""
    header = f"{'#':>2} {'engine':<16} {'games':>5} {'points':>8} {'score':>15}"
    header += f" {'mean rank':>14} {'wins':>20} {'forfeits':>8} {'latency':>8}  results"
    lines = [header]
    for row in rows:
        results = ", ".join(f"{name} {wdl}" for name, wdl in row["results"].items())
        wins = f"{row['wins']} {_percent(row['win_rate'])} {_interval(row['win_rate_ci95'], '%')}"
        lines.append(
            f"{row['rank']:>2} {row['name']:<16} {row['games']:>5} "
            f"{_number(row['points'], '.6g'):>8} "
            f"{_percent(row['score']) + ' ' + _interval(row['score_ci95'], '%'):>15} "
            f"{_number(row['mean_rank'], '.2f') + ' ' + _interval(row['mean_rank_ci95']):>14} "
            f"{wins:>20} {row['forfeits']:>8} {_ms(row['latency_mean']):>8}  {results}"
        )
    return "\n".join(lines)


def _interval(bounds: list[float] | None, unit: str = "") -> str:
    """`[0.50, 1.20]`, or in percent `[12, 48]`; "" where undefined."""
    if bounds is None:
        return ""
    if unit == "%":
        return f"[{100 * bounds[0]:.0f}, {100 * bounds[1]:.0f}]"
    return f"[{bounds[0]:.2f}, {bounds[1]:.2f}]"


def _score(row: dict[str, Any]) -> str:
    return f"{row['wins']}-{row['draws']}-{row['losses']} ({_percent(row['score'])})"


def _elo(summary: dict[str, Any]) -> str:
    """`+29.4 +/- 80.1`: the estimate and the half-width of its 95% interval."""
    elo, interval = summary["elo"], summary["elo_ci95"]
    if elo is None:
        return "n/a" if summary["los"] is None else ("+inf" if summary["los"] > 0.5 else "-inf")
    if interval is None or None in interval:
        return f"{elo:+.1f} +/- inf"
    return f"{elo:+.1f} +/- {(interval[1] - interval[0]) / 2:.1f}"


def _number(value: float | None, spec: str) -> str:
    return "n/a" if value is None else format(value, spec)


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _ms(seconds: float | None) -> str:
    return "n/a" if seconds is None else f"{1000 * seconds:.1f}ms"
