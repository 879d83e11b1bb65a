"""Chess next to its peers: nodes per second beside Sunfish, matches against Sunfish and a
Stockfish ladder (its `UCI_Elo` rungs, with kibitz's rating fitted over all of them), and the
Win At Chess tactics (benchmarks/README.md, "Chess").

kibitz plays in this process (`AlphaBeta` on the compiled board, one engine a game, so its
table lives on between moves as in a session); the peers are UCI processes driven by
python-chess: Sunfish (PyPI `sunfish`, the bench extra) and Debian's Stockfish
(`scripts/peers.sh`). Games are refereed by python-chess (every draw rule, claims included);
the clocks are wall time measured here, and a side whose clock runs out loses.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine

from kibitz import argtypes
from kibitz.engines import Limits, SearchContext
from kibitz.engines.alphabeta.engine import AlphaBeta
from kibitz.engines.types import Clock
from kibitz.games.chess import Chess
from kibitz.games.chess.board import Board
from kibitz.match import stats

DATA = Path(__file__).parent / "data"
MAX_PLIES = 400
"""A game still running after this many plies is scored a draw."""
LADDER = (1350, 1600, 1800, 2000, 2200)
"""Stockfish's `UCI_Elo` rungs of the ladder (issue 37)."""
LIKELIHOOD_DROP = 1.920729410347062
"""Half the 95% quantile of chi-squared with one degree of freedom: the log-likelihood's fall
from its maximum at the ends of a 95% likelihood-ratio interval."""


def sunfish_command() -> list[str]:
    return [sys.executable, "-m", "sunfish"]


def stockfish_command() -> list[str] | None:
    path = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    return [path] if path else None


# -- players ---------------------------------------------------------------------------------


class KibitzPlayer:
    """kibitz's alpha-beta in this process, with its table kept through a game; `off`: the
    options switched off (the rest at their defaults)."""

    def __init__(self, off: Sequence[str] = ()) -> None:
        self.engine = AlphaBeta({"Hash": 64, **dict.fromkeys(off, False)})
        self.name = variant_name(off)

    def new_game(self) -> None:
        self.engine.new_game()

    def play(self, board: chess.Board, clocks: list[float], increment: float) -> chess.Move:
        state = Chess.from_position(board.root().fen())
        state.play_line(move.uci() for move in board.move_stack)
        limits = Limits(clock=Clock(time_left=list(clocks), increment=[increment, increment]))
        result = self.engine.search(state, limits, SearchContext())
        return chess.Move.from_uci(state.format_move(result.best_move))

    def close(self) -> None:
        pass


class UciPlayer:
    """A UCI engine process (python-chess's engine API)."""

    def __init__(self, name: str, command: list[str], options: dict | None = None) -> None:
        self.name = name
        self.engine = chess.engine.SimpleEngine.popen_uci(command)
        if options:
            self.engine.configure(options)

    def new_game(self) -> None:
        pass

    def play(self, board: chess.Board, clocks: list[float], increment: float) -> chess.Move:
        limit = chess.engine.Limit(
            white_clock=clocks[0], black_clock=clocks[1], white_inc=increment, black_inc=increment
        )
        return self.engine.play(board, limit, game=id(board.root())).move

    def close(self) -> None:
        self.engine.quit()


def stockfish_elo_range() -> tuple[int, int]:
    """The lowest and highest `UCI_Elo` of the installed Stockfish."""
    command = stockfish_command()
    if command is None:
        raise RuntimeError("stockfish is missing: bash scripts/peers.sh installs it")
    probe = chess.engine.SimpleEngine.popen_uci(command)
    option = probe.options["UCI_Elo"]
    probe.quit()
    return option.min, option.max


def variant_name(off: Sequence[str]) -> str:
    return "kibitz alphabeta" + (f", {'+'.join(off)} off" if off else "")


def make_opponent(
    name: str, elo: int | None = None, off: Sequence[str] = ()
) -> UciPlayer | KibitzPlayer:
    """Sunfish, Stockfish limited to `UCI_Elo` `elo` (default: its lowest), or kibitz itself
    with the options `off` switched off."""
    if name == "kibitz":
        return KibitzPlayer(off)
    if name == "sunfish":
        return UciPlayer("sunfish", sunfish_command())
    lowest, highest = stockfish_elo_range()
    elo = lowest if elo is None else elo
    if not lowest <= elo <= highest:
        raise ValueError(f"stockfish's UCI_Elo goes from {lowest} to {highest}, not {elo}")
    # Move Overhead 100 ms (default 10): the referee's clock includes the pipe's round trip,
    # which Stockfish does not see; with 10 ms it lost most games at 1600 on time here.
    options = {
        "UCI_LimitStrength": True,
        "UCI_Elo": elo,
        "Threads": 1,
        "Hash": 16,
        "Move Overhead": 100,
    }
    return UciPlayer(f"stockfish UCI_Elo {elo}", stockfish_command(), options)


# -- games -----------------------------------------------------------------------------------


def openings() -> list[list[str]]:
    lines = []
    for line in (DATA / "chess-openings.txt").read_text().splitlines():
        moves = line.split("#")[0].split()
        if moves:
            lines.append(moves)
    return lines


def play_game(white, black, opening: list[str], base: float, increment: float) -> tuple[float, str]:
    """White's score (1, 0.5, 0) and how the game ended."""
    board = chess.Board()
    for move in opening:
        board.push_uci(move)
    clocks = [base, base]
    players = (black, white)  # indexed by python-chess's colour: False = black
    for player in players:
        player.new_game()
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            score = 0.5 if outcome.winner is None else float(outcome.winner)
            return score, outcome.termination.name.lower()
        if board.ply() >= MAX_PLIES:
            return 0.5, "max length"
        side = 0 if board.turn == chess.WHITE else 1
        start = time.perf_counter()
        try:
            move = players[board.turn].play(board, clocks, increment)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as exc:
            return (0.0 if side == 0 else 1.0), f"engine error: {exc}"
        clocks[side] -= time.perf_counter() - start
        if clocks[side] < 0:
            return (0.0 if side == 0 else 1.0), "time forfeit"
        clocks[side] += increment
        if move not in board.legal_moves:
            return (0.0 if side == 0 else 1.0), f"illegal move {move}"
        board.push(move)


def _play_pair(
    task: tuple[str, int | None, Sequence[str], list[str], float, float],
) -> list[tuple[float, str]]:
    """Both colours of one opening: kibitz's scores and the endings."""
    opponent_name, elo, off, opening, base, increment = task
    kibitz = KibitzPlayer()
    opponent = make_opponent(opponent_name, elo, off)
    try:
        first, how = play_game(kibitz, opponent, opening, base, increment)
        second, how2 = play_game(opponent, kibitz, opening, base, increment)
        return [(first, how), (1.0 - second, how2)]
    finally:
        opponent.close()


@dataclass
class MatchResult:
    opponent: str
    wins: int
    draws: int
    losses: int
    endings: dict[str, int]
    rating: int | None = None
    """The opponent's nominal rating (Stockfish's `UCI_Elo`), None for Sunfish."""
    wall: float = 0.0
    """Seconds the match took (its games two or more at a time)."""

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games

    def elo_interval(self) -> tuple[float, float, float]:
        """Elo difference and its 95% interval over the games (the match runner's
        statistics, kibitz/match/stats.py)."""
        estimate = stats.trinomial(self.wins, self.draws, self.losses)
        return estimate.elo, estimate.elo_low, estimate.elo_high


def match(
    opponent: str,
    pairs: int,
    base: float,
    increment: float,
    workers: int,
    elo: int | None = None,
    off: Sequence[str] = (),
) -> MatchResult:
    """`pairs` openings played twice, colours swapped, against `opponent` (at `UCI_Elo` `elo`
    for Stockfish, with the options `off` switched off for kibitz itself)."""
    lines = openings()
    tasks = [(opponent, elo, off, lines[i % len(lines)], base, increment) for i in range(pairs)]
    scores: list[tuple[float, str]] = []
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for pair in pool.imap_unordered(_play_pair, tasks):
            scores.extend(pair)
    endings: dict[str, int] = {}
    for _, how in scores:
        endings[how] = endings.get(how, 0) + 1
    wall = time.perf_counter() - start
    probe = make_opponent(opponent, elo, off)
    probe.close()
    return MatchResult(
        opponent=probe.name,
        wins=sum(1 for score, _ in scores if score == 1.0),
        draws=sum(1 for score, _ in scores if score == 0.5),
        losses=sum(1 for score, _ in scores if score == 0.0),
        endings=endings,
        rating=elo,
        wall=wall,
    )


# -- the ladder's fit ------------------------------------------------------------------------


@dataclass(frozen=True)
class RatingFit:
    """kibitz's rating fitted over games against rated opponents, with its 95% interval;
    +-inf where the games leave it open (every game won or every game lost)."""

    rating: float
    low: float
    high: float
    games: int


def _softplus(x: float) -> float:
    """log(1 + e^x) without overflow."""
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))


def _beyond(f: Callable[[float], float], x: float, step: float) -> float:
    """The first of x, x + step, x + 3 step, x + 7 step, ... where f is negative."""
    while f(x) >= 0:
        x += step
        step *= 2
    return x


def _root(f: Callable[[float], float], a: float, b: float) -> float:
    """A root of f between a and b, where f's signs differ (bisection to machine precision)."""
    a_negative = f(a) < 0
    for _ in range(200):
        middle = (a + b) / 2
        if middle in (a, b):
            break
        if (f(middle) < 0) == a_negative:
            a = middle
        else:
            b = middle
    return (a + b) / 2


def fit_rating(games: Sequence[tuple[float, float]], drop: float = LIKELIHOOD_DROP) -> RatingFit:
    """The maximum-likelihood rating under the logistic Elo model from (opponent's rating,
    score) per game, a draw scoring 1/2, with the interval where the log-likelihood is within
    `drop` of its maximum (1.92: 95%, a likelihood-ratio interval). Every game won puts the
    rating at +inf and the interval's top end open (+inf); every game lost, the reverse."""
    if not games:
        raise ValueError("no games to fit a rating to")
    groups: dict[float, list[float]] = {}
    for rating, score in games:
        if not 0 <= score <= 1:
            raise ValueError(f"a game's score is 0, 1/2 or 1, not {score}")
        group = groups.setdefault(float(rating), [0, 0.0])
        group[0] += 1
        group[1] += score
    total = sum(score for _, score in games)
    centre = sum(rating for rating, _ in games) / len(games)

    def log_likelihood(rating: float) -> float:
        value = 0.0
        for opponent, (count, score) in groups.items():
            x = (rating - opponent) * math.log(10) / 400  # log odds of a win
            value -= score * _softplus(-x) + (count - score) * _softplus(x)
        return value

    def excess(rating: float) -> float:
        """Expected score minus the actual one, rising with the rating."""
        expected = sum(n * stats.elo_to_score(rating - r) for r, (n, _) in groups.items())
        return expected - total

    if total == 0:
        best, peak = -math.inf, 0.0
    elif total == len(games):
        best, peak = math.inf, 0.0
    else:
        below = _beyond(excess, centre, -100)
        best = _root(excess, below, _beyond(lambda r: -excess(r), centre, 100))
        peak = log_likelihood(best)

    def inside(rating: float) -> float:
        return log_likelihood(rating) - (peak - drop)

    def outside(rating: float) -> float:
        return -inside(rating)

    low, high = -math.inf, math.inf
    if total > 0:  # a point scored: the likelihood falls away below
        top = best if math.isfinite(best) else _beyond(outside, centre, 100)
        low = _root(inside, _beyond(inside, top, -100), top)
    if total < len(games):  # a point dropped: the likelihood falls away above
        bottom = best if math.isfinite(best) else _beyond(outside, centre, -100)
        high = _root(inside, bottom, _beyond(inside, bottom, 100))
    return RatingFit(rating=best, low=low, high=high, games=len(games))


def ladder_games(results: Iterable[MatchResult]) -> list[tuple[float, float]]:
    """(rung's rating, kibitz's score) for every game of the rated matches."""
    games: list[tuple[float, float]] = []
    for result in results:
        if result.rating is not None:
            games += [(result.rating, 1.0)] * result.wins + [(result.rating, 0.5)] * result.draws
            games += [(result.rating, 0.0)] * result.losses
    return games


def _bound(value: float) -> str:
    return f"{value:.0f}" if math.isfinite(value) else "open"


def ladder_table(results: Sequence[MatchResult], base: float, increment: float) -> str:
    """The rungs (games, W-D-L, score, Elo difference with its 95% interval, the rating that
    difference puts kibitz at) and, last, kibitz's rating fitted over every rung's games."""
    rows = [
        f"{'Stockfish UCI_Elo':<19}{'games':>6}{'W-D-L':>12}{'score':>8}{'Elo':>7}"
        f"{'95% interval':>18}{'rating':>8}   ({base:g}+{increment:g})"
    ]
    for result in results:
        value, low, high = result.elo_interval()
        rows.append(
            f"{result.rating:<19}{result.games:>6}"
            f"{f'{result.wins}-{result.draws}-{result.losses}':>12}{result.score:>8.3f}"
            f"{value:>+7.0f}{low:>+9.0f} to {high:<+6.0f}{result.rating + value:>8.0f}"
        )
    fit = fit_rating(ladder_games(results))
    if math.isfinite(fit.rating):
        rating = f"{fit.rating:.0f}"
    else:
        rating = f"{'above' if fit.rating > 0 else 'below'} every rung, open-ended"
    rows.append(
        f"kibitz's rating over the ladder: {rating} (95% interval {_bound(fit.low)} to "
        f"{_bound(fit.high)}; {fit.games} games, maximum likelihood)"
    )
    return "\n".join(rows)


# -- nodes per second ------------------------------------------------------------------------


def kibitz_nodes(fen: str, seconds: float, board_class: type | None = None) -> tuple[int, float]:
    state = Chess.from_position(fen) if board_class is None else Chess.on_board(fen, board_class)
    result = AlphaBeta().search(state, Limits(movetime=seconds), SearchContext())
    return result.nodes, result.time


def sunfish_nodes(fen: str, seconds: float) -> tuple[int, float]:
    import sunfish
    from sunfish_ui import uci

    uci.sunfish = sunfish  # its FEN reader uses the engine module that run() would set
    position = uci.from_fen(*fen.split()[:4], "0", "1")
    searcher = sunfish.Searcher()
    start = time.perf_counter()
    for _ in searcher.search([position]):
        if time.perf_counter() - start > seconds:
            break
    return searcher.nodes, time.perf_counter() - start


def nps_table(seconds: float) -> str:
    middle = [line.strip() for line in (DATA / "chess-middlegames.epd").read_text().splitlines()]
    sets = [("start position", [chess.STARTING_FEN]), (f"{len(middle)} middle games", middle)]
    rows = [
        f"{'positions':<20}{'kibitz (C board)':>18}{'kibitz (Python)':>17}{'Sunfish':>11}"
        f"{'x Sunfish':>11}{'x (Python)':>11}"
    ]
    for name, fens in sets:
        totals = {}
        for label, measure in (
            ("c", lambda fen: kibitz_nodes(fen, seconds)),
            ("py", lambda fen: kibitz_nodes(fen, seconds, Board)),
            ("sunfish", lambda fen: sunfish_nodes(fen, seconds)),
        ):
            nodes = elapsed = 0.0
            for fen in fens:
                n, t = measure(fen)
                nodes, elapsed = nodes + n, elapsed + t
            totals[label] = nodes / elapsed
        rows.append(
            f"{name:<20}{totals['c']:>18,.0f}{totals['py']:>17,.0f}{totals['sunfish']:>11,.0f}"
            f"{totals['c'] / totals['sunfish']:>11.1f}{totals['py'] / totals['sunfish']:>11.1f}"
        )
    return "\n".join(rows)


# -- tactics ---------------------------------------------------------------------------------


def wac() -> list[tuple[str, str, list[str]]]:
    """(id, FEN, best moves in SAN) of the Win At Chess suite."""
    suite = []
    for line in (DATA / "wac.epd").read_text().splitlines():
        board, operations = chess.Board.from_epd(line)
        suite.append((operations["id"], board.fen(), [board.san(m) for m in operations["bm"]]))
    return suite


def _solve_slice(task: tuple[list[tuple[str, str, list[str]]], float]) -> tuple[int, int]:
    """(kibitz solved, Sunfish solved) on some positions."""
    positions, seconds = task
    sunfish = UciPlayer("sunfish", sunfish_command())
    ours = theirs = 0
    try:
        for _, fen, best in positions:
            board = chess.Board(fen)
            state = Chess.from_position(fen)
            result = AlphaBeta().search(state, Limits(movetime=seconds), SearchContext())
            if board.san(chess.Move.from_uci(state.format_move(result.best_move))) in best:
                ours += 1
            move = sunfish.engine.play(board, chess.engine.Limit(time=seconds)).move
            if move is not None and board.san(move) in best:
                theirs += 1
    finally:
        sunfish.close()
    return ours, theirs


def _solve_variants(
    task: tuple[list[tuple[str, str, list[str]]], Limits, list[dict[str, bool]]],
) -> list[tuple[int, float]]:
    """How many of some positions each option set of kibitz solves within `limits`, and the
    seconds its searches took in all."""
    positions, limits, variants = task
    solved = [0] * len(variants)
    seconds = [0.0] * len(variants)
    for _, fen, best in positions:
        board = chess.Board(fen)
        for index, options in enumerate(variants):
            state = Chess.from_position(fen)
            result = AlphaBeta(options).search(state, limits, SearchContext())
            seconds[index] += result.time
            if board.san(chess.Move.from_uci(state.format_move(result.best_move))) in best:
                solved[index] += 1
    return list(zip(solved, seconds, strict=True))


def variants_table(
    limits: Limits, variants: dict[str, dict[str, bool]], workers: int, limit: int | None = None
) -> str:
    """Win At Chess solved by kibitz with each of `variants` (a name and its options), side by
    side, and the mean seconds a search took: at a node limit the count does not depend on
    the machine's load."""
    suite = wac()[:limit]
    sets = list(variants.values())
    slices = [(suite[index::workers], limits, sets) for index in range(workers)]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        counts = pool.map(_solve_variants, slices)
    budget = f"{limits.nodes:,} nodes" if limits.nodes else f"{limits.movetime:g} s"
    title = f"Win At Chess, {len(suite)} positions, {budget} each"
    width = max(len(text) for text in (title, *variants)) + 2
    rows = [f"{title:<{width}}{'solved':>8}{'%':>8}{'mean s':>8}"]
    for index, name in enumerate(variants):
        solved = sum(count[index][0] for count in counts)
        seconds = sum(count[index][1] for count in counts) / len(suite)
        rows.append(f"{name:<{width}}{solved:>8}{100 * solved / len(suite):>8.1f}{seconds:>8.2f}")
    return "\n".join(rows)


def tactics_table(seconds: float, workers: int, limit: int | None) -> str:
    suite = wac()[:limit]
    slices = [(suite[index::workers], seconds) for index in range(workers)]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        counts = pool.map(_solve_slice, slices)
    ours, theirs = sum(c[0] for c in counts), sum(c[1] for c in counts)
    n = len(suite)
    return (
        f"{'Win At Chess, ' + str(n) + ' positions, ' + format(seconds, 'g') + ' s each':<45}"
        f"{'solved':>8}{'%':>8}\n"
        f"{'kibitz alphabeta':<45}{ours:>8}{100 * ours / n:>8.1f}\n"
        f"{'Sunfish':<45}{theirs:>8}{100 * theirs / n:>8.1f}"
    )


def match_table(results: Sequence[MatchResult], base: float, increment: float) -> str:
    width = max(28, *(len(result.opponent) + 2 for result in results))
    rows = [
        f"{'kibitz vs':<{width}}{'games':>6}{'W':>5}{'D':>5}{'L':>5}{'score':>8}{'Elo':>7}"
        f"{'95% interval':>18}   ({base:g}+{increment:g})"
    ]
    for result in results:
        value, low, high = result.elo_interval()
        rows.append(
            f"{result.opponent:<{width}}{result.games:>6}{result.wins:>5}{result.draws:>5}"
            f"{result.losses:>5}{result.score:>8.3f}{value:>+7.0f}{low:>+9.0f} to {high:<+6.0f}"
        )
        endings = ", ".join(f"{how} {count}" for how, count in sorted(result.endings.items()))
        rows.append(f"{'':<{width}}endings: {endings}; {result.wall:.0f} s")
    return "\n".join(rows)


def run(
    quick: bool = False,
    pairs: int | None = None,
    ladder: Sequence[int] | None = None,
    workers: int = 2,
    report: Callable[[str], None] = print,
) -> None:
    """Nodes per second, tactics, the matches (Sunfish's, then one a rung of Stockfish's
    `ladder`: default LADDER, its first two rungs when `quick`, none when it is empty) and the
    ladder with kibitz's rating."""
    if ladder is None:
        ladder = LADDER[:2] if quick else LADDER
    if ladder and stockfish_command() is None:
        report("stockfish is missing (bash scripts/peers.sh installs it): the ladder skipped")
        ladder = []
    if ladder:
        lowest, highest = stockfish_elo_range()
        if refused := [elo for elo in ladder if not lowest <= elo <= highest]:
            report(f"stockfish's UCI_Elo goes from {lowest} to {highest}: rungs {refused} skipped")
            ladder = [elo for elo in ladder if lowest <= elo <= highest]
    seconds = 0.5 if quick else 3.0
    report(nps_table(seconds))
    report("")
    report(tactics_table(0.2 if quick else 1.0, workers, 20 if quick else None))
    report("")
    pairs = pairs or (2 if quick else 50)
    base, increment = 10.0, 0.1
    results = [match("sunfish", pairs, base, increment, workers)]
    report(match_table(results, base, increment))
    for elo in ladder:
        results.append(match("stockfish", pairs, base, increment, workers, elo))
        report(match_table(results[-1:], base, increment))
    report("")
    report(match_table(results, base, increment))
    if ladder:
        report("")
        report(ladder_table(results[1:], base, increment))


NEW_OPTIONS = ("SEE", "Futility", "LateMovePruning")
"""The options of issue 37's chess pruning (docs/engines.md, "alphabeta")."""


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.chess", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small samples: a smoke run")
    parser.add_argument(
        "--wac-nodes",
        type=argtypes.positive_int,
        metavar="N",
        help="only Win At Chess at N nodes a position (the count does not depend on the "
        "load), kibitz with its defaults beside kibitz with the --off options off",
    )
    parser.add_argument(
        "--wac-seconds",
        type=float,
        metavar="S",
        help="only Win At Chess at S seconds a position, the same two side by side",
    )
    parser.add_argument(
        "--selfplay",
        type=argtypes.positive_int,
        metavar="PAIRS",
        help="only kibitz with its defaults against kibitz with the --off options off: "
        "PAIRS openings, each played twice with colours swapped, at --base + --increment",
    )
    parser.add_argument(
        "--off",
        type=lambda text: tuple(text.split(",")),
        default=NEW_OPTIONS,
        metavar="OPTION,...",
        help=f"the options the other side switches off (default {','.join(NEW_OPTIONS)})",
    )
    parser.add_argument("--base", type=float, default=10.0, help="seconds a game (default 10)")
    parser.add_argument(
        "--increment", type=float, default=0.1, help="seconds added a move (default 0.1)"
    )
    args = parser.parse_args(argv)
    variants = {variant_name(()): {}, variant_name(args.off): dict.fromkeys(args.off, False)}
    limit = 20 if args.quick else None
    if args.wac_nodes:
        print(variants_table(Limits(nodes=args.wac_nodes), variants, 2, limit))
    if args.wac_seconds:
        print(variants_table(Limits(movetime=args.wac_seconds), variants, 2, limit))
    if args.selfplay:
        result = match("kibitz", args.selfplay, args.base, args.increment, 2, off=args.off)
        print(match_table([result], args.base, args.increment))
    if not (args.wac_nodes or args.wac_seconds or args.selfplay):
        run(quick=args.quick)


if __name__ == "__main__":
    main(sys.argv[1:])
