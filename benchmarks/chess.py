"""Chess next to its peers: nodes per second beside Sunfish, matches against Sunfish and a
strength-limited Stockfish, and the Win At Chess tactics (benchmarks/README.md, "Chess").

kibitz plays in this process (`AlphaBeta` on the compiled board, one engine a game, so its
table lives on between moves as in a session); the peers are UCI processes driven by
python-chess: Sunfish (PyPI `sunfish`, the bench extra) and Debian's Stockfish
(`scripts/peers.sh`). Games are refereed by python-chess (every draw rule, claims included);
the clocks are wall time measured here, and a side whose clock runs out loses.
"""

from __future__ import annotations

import multiprocessing
import shutil
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine

from kibitz.engines import Limits, SearchContext
from kibitz.engines.alphabeta.engine import AlphaBeta
from kibitz.engines.types import Clock
from kibitz.games.chess import Chess
from kibitz.games.chess.board import Board
from kibitz.match import stats

DATA = Path(__file__).parent / "data"
MAX_PLIES = 400
"""A game still running after this many plies is scored a draw."""


def sunfish_command() -> list[str]:
    return [sys.executable, "-m", "sunfish"]


def stockfish_command() -> list[str] | None:
    path = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    return [path] if path else None


# -- players ---------------------------------------------------------------------------------


class KibitzPlayer:
    """kibitz's alpha-beta in this process, with its table kept through a game."""

    name = "kibitz alphabeta"

    def __init__(self) -> None:
        self.engine = AlphaBeta({"Hash": 64})

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


def make_opponent(name: str) -> UciPlayer:
    if name == "sunfish":
        return UciPlayer("sunfish", sunfish_command())
    command = stockfish_command()
    if command is None:
        raise RuntimeError("stockfish is missing: bash scripts/peers.sh installs it")
    probe = chess.engine.SimpleEngine.popen_uci(command)
    lowest = probe.options["UCI_Elo"].min
    probe.quit()
    return UciPlayer(
        f"stockfish UCI_Elo {lowest}",
        command,
        {"UCI_LimitStrength": True, "UCI_Elo": lowest, "Threads": 1, "Hash": 16},
    )


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


def _play_pair(task: tuple[str, list[str], float, float]) -> list[tuple[float, str]]:
    """Both colours of one opening: kibitz's scores and the endings."""
    opponent_name, opening, base, increment = task
    kibitz = KibitzPlayer()
    opponent = make_opponent(opponent_name)
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


def match(opponent: str, pairs: int, base: float, increment: float, workers: int) -> MatchResult:
    lines = openings()
    tasks = [(opponent, lines[index % len(lines)], base, increment) for index in range(pairs)]
    scores: list[tuple[float, str]] = []
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for pair in pool.imap_unordered(_play_pair, tasks):
            scores.extend(pair)
    endings: dict[str, int] = {}
    for _, how in scores:
        endings[how] = endings.get(how, 0) + 1
    probe = make_opponent(opponent)
    probe.close()
    return MatchResult(
        opponent=probe.name,
        wins=sum(1 for score, _ in scores if score == 1.0),
        draws=sum(1 for score, _ in scores if score == 0.5),
        losses=sum(1 for score, _ in scores if score == 0.0),
        endings=endings,
    )


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


def match_table(results: Iterable[MatchResult], base: float, increment: float) -> str:
    rows = [
        f"{'kibitz vs':<28}{'games':>6}{'W':>5}{'D':>5}{'L':>5}{'score':>8}{'Elo':>7}"
        f"{'95% interval':>18}   ({base:g}+{increment:g})"
    ]
    for result in results:
        value, low, high = result.elo_interval()
        rows.append(
            f"{result.opponent:<28}{result.games:>6}{result.wins:>5}{result.draws:>5}"
            f"{result.losses:>5}{result.score:>8.3f}{value:>+7.0f}{low:>+9.0f} to {high:<+6.0f}"
        )
        endings = ", ".join(f"{how} {count}" for how, count in sorted(result.endings.items()))
        rows.append(f"{'':<28}endings: {endings}")
    return "\n".join(rows)


def run(
    quick: bool = False,
    pairs: int | None = None,
    opponents: tuple[str, ...] = ("sunfish", "stockfish"),
    workers: int = 2,
    report: Callable[[str], None] = print,
) -> None:
    seconds = 0.5 if quick else 3.0
    report(nps_table(seconds))
    report("")
    report(tactics_table(0.2 if quick else 1.0, workers, 20 if quick else None))
    report("")
    pairs = pairs or (2 if quick else 50)
    base, increment = 10.0, 0.1
    results = []
    for opponent in opponents:
        if opponent == "stockfish" and stockfish_command() is None:
            report("stockfish is missing (bash scripts/peers.sh installs it): its match skipped")
            continue
        results.append(match(opponent, pairs, base, increment, workers))
        report(match_table(results[-1:], base, increment))
    report("")
    report(match_table(results, base, increment))
