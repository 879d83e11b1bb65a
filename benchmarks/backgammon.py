"""Backgammon against GNU Backgammon: how often kibitz's play is gnubg's, games against
gnubg's weakest player and against pubeval, MCTS against expectimax at equal time, and the
expectimax search's speed with and without Star1/Star2; and, without gnubg, the equity the
race curves give up in bear-offs, judged by the bear-off database, and 1-ply play with the
formula and with the TD network (option Evaluation) against pubeval. See
benchmarks/README.md, "Backgammon".

Games are single games without a cube (1, 2 or 3 points), played in pairs with **common
dice**: both games of a pair use the same sequence of rolls, the colours swapped, so that
the luck of the dice mostly cancels. Player 0 rolls first (no opening roll-off). The score
is kibitz's points per game with a 95% interval (normal approximation over the pairs).
"""

from __future__ import annotations

import argparse
import gc
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from benchmarks import gnubg as gnubg_driver
from kibitz.engines import ENGINES, Limits, SearchContext
from kibitz.games import Move
from kibitz.games.backgammon import Backgammon, bearoff, evaluation
from kibitz.games.backgammon.board import apply_play

START = "4HPwATDgc/ABMA"
OPENING_ROLLS = [(high, low) for high in range(2, 7) for low in range(1, high)]


# -- players ------------------------------------------------------------------------------------

Player = Callable[[Backgammon], Move]
"""Chooses a play for the player on roll of a position whose dice are rolled."""

_GNUBG: dict[str, gnubg_driver.Gnubg] = {}


def gnubg(setting: str) -> Player:
    def choose(state: Backgammon) -> Move:
        if setting not in _GNUBG:  # one gnubg per process and setting
            _GNUBG[setting] = gnubg_driver.Gnubg(setting)
        position_id = state.position().split(":")[0]
        hint = _GNUBG[setting].best_move(position_id, state.dice)
        return state.parse_move(hint.play)

    return choose


def expectimax(depth: int | None = None, movetime: float | None = None, **options) -> Player:
    """kibitz's expectimax choosing a play (only the best move exact: `ExactRoot` off)."""
    engine = ENGINES["expectimax"]({"ExactRoot": False, **options})

    def choose(state: Backgammon) -> Move:
        limits = Limits(depth=depth, movetime=movetime)
        return engine.search(state, limits, SearchContext()).best_move

    return choose


def mcts(movetime: float) -> Player:
    engine = ENGINES["mcts"]({"Seed": 0})

    def choose(state: Backgammon) -> Move:
        return engine.search(state, Limits(movetime=movetime), SearchContext()).best_move

    return choose


def pubeval_player(state: Backgammon) -> Move:
    """Tesauro's benchmark player: the play pubeval scores best (race weights when the
    position before the play is a race), the first of equals."""
    me, opp = state.sides[state.on_roll], state.sides[1 - state.on_roll]
    race = evaluation.is_race(me, opp)

    def score(play) -> float:
        mine, theirs = me[:], opp[:]
        apply_play(mine, theirs, play)
        return evaluation.pubeval(mine, theirs, race)

    return max(state.legal_moves(), key=score)


PLAYERS: dict[str, Callable[[], Player]] = {
    "kibitz expectimax 1-ply": lambda: expectimax(depth=1),
    "kibitz 1-ply network": lambda: expectimax(depth=1, Evaluation="network"),
    "kibitz expectimax 2-ply": lambda: expectimax(depth=2),
    "gnubg beginner": lambda: gnubg("beginner"),
    "pubeval": lambda: pubeval_player,
    "kibitz mcts 0.05 s": lambda: mcts(0.05),
    "kibitz expectimax 0.05 s": lambda: expectimax(movetime=0.05),
}


# -- games ------------------------------------------------------------------------------------


MAX_TURNS = 2000
"""A game still going after this many turns is stuck (both sides shut out on the bar)
and scores 0."""


def play_game(players: tuple[Player, Player], seed: int) -> float:
    """Player 0's points in one game whose k-th roll is the k-th of `seed`'s sequence."""
    dice = random.Random(seed)
    state = Backgammon.from_position(START)
    for _ in range(MAX_TURNS):
        if state.is_terminal():
            return state.returns()[0]
        first, second = dice.randint(1, 6), dice.randint(1, 6)
        state.play((max(first, second), min(first, second)))
        moves = state.legal_moves()
        state.play(moves[0] if len(moves) == 1 else players[state.on_roll](state))
    return 0.0


@dataclass(frozen=True)
class Pairing:
    ours: str
    theirs: str
    pairs: int


_PLAYER_CACHE: dict[str, Player] = {}


def _player(name: str) -> Player:
    if name not in _PLAYER_CACHE:
        _PLAYER_CACHE[name] = PLAYERS[name]()
    return _PLAYER_CACHE[name]


def _play_pair(task: tuple[str, str, int]) -> float:
    """kibitz's points over the two games of pair `index` (colours swapped, same dice)."""
    ours, theirs, index = task
    first = play_game((_player(ours), _player(theirs)), index)
    second = -play_game((_player(theirs), _player(ours)), index)
    return first + second


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    spread = statistics.stdev(values) if len(values) > 1 else 0.0
    return mean, 1.96 * spread / math.sqrt(len(values))


def match_table(pairings: list[Pairing], workers: int) -> Iterator[str]:
    """The table's lines, each pairing's as soon as its games are over."""
    yield (
        "Single games without a cube, in pairs with common dice (colours swapped): kibitz's "
        "points per game"
    )
    yield (
        f"{'kibitz':<26}{'opponent':<26}{'games':>6}{'won':>6}{'points/game':>13}"
        f"{'95% interval':>18}{'seconds':>9}"
    )
    context = multiprocessing.get_context("forkserver")
    with context.Pool(workers) as pool:
        for pairing in pairings:
            start = time.perf_counter()
            tasks = [(pairing.ours, pairing.theirs, index) for index in range(pairing.pairs)]
            pair_points = pool.map(_play_pair, tasks, chunksize=1)
            per_game = [points / 2 for points in pair_points]
            mean, half = interval(per_game)
            games = 2 * pairing.pairs
            won = sum(points > 0 for points in pair_points)  # pairs won
            yield (
                f"{pairing.ours:<26}{pairing.theirs:<26}{games:>6}{won:>6}{mean:>+13.3f}"
                f"{f'{mean - half:+.3f} to {mean + half:+.3f}':>18}"
                f"{time.perf_counter() - start:>9.0f}"
            )
    yield "won: pairs of games with a positive total for kibitz"


# -- agreement with gnubg -------------------------------------------------------------------------


def positions_from_play(
    count: int,
    seed: int,
    chooser: Player,
    keep: Callable[[list[int], list[int]], bool],
    rate: float,
) -> list[str]:
    """`count` positions with their roll (``ID:31``) from seeded games between two players
    choosing by `chooser`: those with more than one play where `keep(on_roll, other)`, each
    taken with probability `rate` (one position at most every few moves)."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        state = Backgammon.from_position(START)
        while not state.is_terminal() and len(found) < count:
            first, second = rng.randint(1, 6), rng.randint(1, 6)
            state.play((max(first, second), min(first, second)))
            moves = state.legal_moves()
            me, opp = state.sides[state.on_roll], state.sides[1 - state.on_roll]
            if len(moves) > 1 and keep(me, opp) and rng.random() < rate:
                # the Position ID is the roller's view: the roller is player 0 of `ID:31`
                position_id = state.position().split(":")[0]
                found.append(f"{position_id}:{state.dice[0]}{state.dice[1]}")
            state.play(moves[0] if len(moves) == 1 else chooser(state))
    return found


def sample_positions(count: int, seed: int) -> list[str]:
    """`count` contact positions from seeded games between two kibitz 1-ply players."""

    def contact(me: list[int], opp: list[int]) -> bool:
        return not evaluation.is_race(me, opp)

    return positions_from_play(count, seed, expectimax(depth=1), contact, 0.2)


def agreement_table(count: int, seed: int) -> list[str]:
    positions = sample_positions(count, seed)
    openings = [f"{START}:{high}{low}" for high, low in OPENING_ROLLS]
    reference = gnubg("0-ply")
    lines = [
        "How often kibitz's play is gnubg's (gnubg 1.07 at 0-ply, its expert level; the same "
        "resulting position counts as the same play)",
        f"{'positions':<44}{'kibitz 1-ply':>14}{'kibitz 2-ply':>14}",
    ]
    for title, texts in (
        (f"{len(positions)} contact positions from play (seed {seed})", positions),
        ("the 15 opening rolls", openings),
    ):
        agreed = {1: 0, 2: 0}
        for text in texts:
            state = Backgammon.from_position(text)
            theirs = reference(state)
            for depth in (1, 2):
                if expectimax(depth=depth)(state) == theirs:
                    agreed[depth] += 1
        lines.append(f"{title:<44}{agreed[1] / len(texts):>14.1%}{agreed[2] / len(texts):>14.1%}")
    return lines


def opening_loss_table() -> list[str]:
    """The equity kibitz's opening plays give up, as gnubg judges them at 2-ply (world
    class): per roll, then the mean."""
    judge = gnubg_driver.Gnubg("2-ply")
    players = {depth: expectimax(depth=depth) for depth in (1, 2)}
    lines = [
        "Opening plays: the equity kibitz's play gives up against gnubg's best, gnubg at 2-ply "
        "judging (cubeless)",
        f"{'roll':<6}{'gnubg 2-ply':<16}{'kibitz 1-ply':<16}{'loss':>7}  "
        f"{'kibitz 2-ply':<16}{'loss':>7}",
    ]
    losses: dict[int, list[float]] = {1: [], 2: []}
    for high, low in OPENING_ROLLS:
        state = Backgammon.from_position(f"{START}:{high}{low}")
        hints = judge.hints(START, (high, low), 1000)
        equity = {state.parse_move(hint.play): hint.equity for hint in hints}
        best = max(equity, key=equity.__getitem__)
        row = f"{high}{low:<5}{state.format_move(best):<16}"
        for depth, choose in players.items():
            move = choose(state)
            losses[depth].append(equity[best] - equity[move])
            row += f"{state.format_move(move):<16}{losses[depth][-1]:>7.3f}  "
        lines.append(row.rstrip())
    lines.append(
        f"{'mean':<22}{statistics.fmean(losses[1]):>23.3f}  {statistics.fmean(losses[2]):>23.3f}"
    )
    judge.close()
    return lines


# -- bear-offs ------------------------------------------------------------------------------------


def bearoff_positions(count: int, seed: int) -> list[str]:
    """`count` positions where both sides are home, from seeded games between two kibitz
    1-ply players (race curves only)."""

    def home(me: list[int], opp: list[int]) -> bool:
        return not any(me[6:]) and not any(opp[6:])

    return positions_from_play(count, seed, expectimax(depth=1, Bearoff="off"), home, 0.3)


def bearoff_table(count: int, seed: int) -> list[str]:
    """The equity the 1-ply play gives up in bear-offs, the race curves' (option Bearoff
    off) and the database's (on), judged by the database: each play's value is the
    database's equity of the position after it (the points where it ends the game)."""
    try:
        database = bearoff.cached_database(bearoff.CHECKERS)
    except FileNotFoundError as exc:
        return [f"Bear-off table skipped: {exc}"]
    positions = bearoff_positions(count, seed)
    players = {setting: expectimax(depth=1, Bearoff=setting) for setting in ("off", "on")}
    losses: dict[str, list[float]] = {setting: [] for setting in players}
    for text in positions:
        state = Backgammon.from_position(text)
        judged = state.clone()
        judged.bearoff = database
        mover = state.on_roll
        values = {}
        for play in judged.legal_moves():
            judged.play(play)
            ended = judged.is_terminal()
            values[play] = judged.returns()[mover] if ended else judged.expected_return(mover)
            judged.undo()
        best = max(values.values())
        for setting, choose in players.items():
            losses[setting].append(best - values[choose(state)])
    lines = [
        f"Bear-offs: the equity kibitz's 1-ply play gives up, judged by the 15-checker bear-off "
        f"database ({len(positions)} positions with both sides home, from 1-ply self-play, "
        f"seed {seed})",
        f"{'estimate':<34}{'best play':>10}{'mean loss':>11}{'worst':>8}",
    ]
    for setting, title in (("off", "race curves (Bearoff off)"), ("on", "database (Bearoff on)")):
        found = losses[setting]
        best_share = sum(loss <= 1e-12 for loss in found) / len(found)
        lines.append(
            f"{title:<34}{best_share:>10.1%}{statistics.fmean(found):>11.4f}{max(found):>8.3f}"
        )
    return lines


# -- speed ---------------------------------------------------------------------------------------


def speed_table(positions: list[str], depth: int) -> list[str]:
    settings = {
        "no pruning, no table": {"Star1": False, "Hash": 0},
        "Star1": {"Star2": False},
        "Star1 + Star2 (default)": {},
    }
    lines = [
        f"expectimax choosing a play (ExactRoot off) on {len(positions)} positions like "
        f"those, depth {depth} (iterative deepening from 1): totals",
        f"{'search':<26}{'nodes':>10}{'seconds':>9}{'nodes/s':>9}{'x nodes':>9}{'x time':>8}",
    ]
    rows = {}
    values: dict[str, list[float]] = {}
    for name, options in settings.items():
        nodes, seconds = 0, 0.0
        values[name] = []
        for text in positions:
            state = Backgammon.from_position(text)
            start = time.perf_counter()
            engine = ENGINES["expectimax"]({"ExactRoot": False, **options})
            result = engine.search(state, Limits(depth=depth), SearchContext())
            seconds += time.perf_counter() - start
            nodes += result.nodes
            values[name].append(result.score.expected)
        rows[name] = (nodes, seconds)
    base_nodes, base_time = rows["no pruning, no table"]
    for name, (nodes, seconds) in rows.items():
        if any(
            abs(a - b) > 1e-9
            for a, b in zip(values[name], values["no pruning, no table"], strict=True)
        ):
            raise AssertionError(f"{name} changes a value")
        lines.append(
            f"{name:<26}{nodes:>10,}{seconds:>9.2f}{nodes / seconds:>9,.0f}"
            f"{base_nodes / nodes:>9.1f}{base_time / seconds:>8.1f}"
        )
    lines.append("every setting finds the same value at every position (checked to 1e-9)")
    return lines


WARM_UP = (START, (6, 6))
"""What gnubg and the searches answer once before the timed ones (the start with 6-6, which
the table does not time), so that no row pays for first evaluations."""


SEARCH_REPEATS = 3
"""Searches timed per position and setting, the fastest counted (each with a new engine,
after a garbage collection): the machine's other work only ever adds time."""


def search_seconds(text: str, kernel: bool) -> tuple[float, tuple]:
    """Seconds expectimax (default options: every play exact) takes for a 2-ply search of
    `text` (``ID:31``) with an empty table, the fastest of `SEARCH_REPEATS`, and its answer
    (best move, value, nodes)."""
    state = Backgammon.from_position(text)
    times = []
    for _ in range(SEARCH_REPEATS):
        engine = ENGINES["expectimax"]({"Kernel": kernel})
        gc.collect()
        start = time.perf_counter()
        result = engine.search(state, Limits(depth=2), SearchContext())
        times.append(time.perf_counter() - start)
    return min(times), (result.best_move, result.score.expected, result.nodes)


def hint_seconds(judge: gnubg_driver.Gnubg, text: str) -> float:
    """Seconds gnubg's hint takes for `text` (``ID:31``) at the judge's setting."""
    position_id, roll = text.split(":")
    start = time.perf_counter()
    judge.hints(position_id, (int(roll[0]), int(roll[1])), 1)
    return time.perf_counter() - start


def hint_time_table(positions: list[str]) -> list[str]:
    """A 2-ply search of each opening roll and of each of `positions` (``ID:31``): kibitz's
    expectimax with its compiled kernel off and on, next to gnubg's 2-ply hint, timed in
    turn in one run. gnubg runs in one process for the whole table (its evaluation cache
    kept, as in play) and is asked each position once: its first answer is the one timed;
    each search starts with an empty table (`search_seconds`). Both are warmed up first on
    a position the table does not time. The kernel must not change the answer: best move,
    value and nodes are checked."""
    sections = {
        "the 15 opening rolls": [
            (f"start {high}{low}", f"{START}:{high}{low}") for high, low in OPENING_ROLLS
        ],
        f"{len(positions)} positions from play": [(text, text) for text in positions],
    }
    judge = gnubg_driver.Gnubg("2-ply")
    judge.hints(WARM_UP[0], WARM_UP[1], 1)
    for kernel in (False, True):
        search_seconds(f"{WARM_UP[0]}:{WARM_UP[1][0]}{WARM_UP[1][1]}", kernel)
    lines = [
        "A 2-ply search (expectimax, default options: every play's exact value; the fastest "
        f"of {SEARCH_REPEATS}) against gnubg 1.07's 2-ply hint (world class, cubeless; its "
        "first answer), milliseconds",
        f"{'position':<22}{'plays':>6}{'nodes':>8}{'kernel off':>12}{'kernel on':>11}"
        f"{'gnubg 2-ply':>13}{'on / gnubg':>12}",
    ]
    for title, rows in sections.items():
        lines.append(title)
        totals = [0.0, 0.0, 0.0]
        worst = 0.0
        for label, text in rows:
            off, answer = search_seconds(text, kernel=False)
            on, same = search_seconds(text, kernel=True)
            if same != answer:
                raise AssertionError(f"the kernel changes the answer at {text}: {same} {answer}")
            theirs = hint_seconds(judge, text)
            for index, seconds in enumerate((off, on, theirs)):
                totals[index] += seconds
            worst = max(worst, on / theirs)
            plays = len(Backgammon.from_position(text).legal_moves())
            lines.append(
                f"{label:<22}{plays:>6}{answer[2]:>8,}{1000 * off:>12.0f}{1000 * on:>11.1f}"
                f"{1000 * theirs:>13.0f}{on / theirs:>12.2f}"
            )
        off, on, theirs = totals
        lines.append(
            f"{'total':<36}{1000 * off:>12.0f}{1000 * on:>11.1f}{1000 * theirs:>13.0f}"
            f"{on / theirs:>12.2f}   worst {worst:.2f}"
        )
    judge.close()
    lines.append("the kernel finds the same best move, value and node count at every position")
    return lines


def pairings(pairs: int) -> list[Pairing]:
    return [
        Pairing("kibitz expectimax 1-ply", "gnubg beginner", pairs),
        Pairing("kibitz expectimax 1-ply", "pubeval", pairs),
        Pairing("kibitz expectimax 2-ply", "gnubg beginner", pairs),
        Pairing("kibitz expectimax 2-ply", "pubeval", pairs),
        Pairing("kibitz mcts 0.05 s", "kibitz expectimax 0.05 s", pairs),
        *network_pairings(pairs)[1:],
    ]


def network_pairings(pairs: int) -> list[Pairing]:
    """The formula's 1-ply player and the TD network's against pubeval (no gnubg needed)."""
    return [
        Pairing("kibitz expectimax 1-ply", "pubeval", pairs),
        Pairing("kibitz 1-ply network", "pubeval", pairs),
    ]


def run(pairs: int | None = None, quick: bool = False) -> None:
    for line in bearoff_table(20 if quick else 200, seed=3):
        print(line)
    print()
    if not gnubg_driver.available():
        print("Backgammon benchmark skipped: gnubg is missing (bash scripts/peers.sh installs it)")
        return
    count = 20 if quick else 200
    for line in agreement_table(count, seed=1):
        print(line)
    print()
    for line in opening_loss_table():
        print(line)
    print()
    timed = sample_positions(5 if quick else 20, seed=2)
    for line in speed_table(timed, depth=2):
        print(line)
    print()
    for line in hint_time_table(timed):
        print(line)
    print()
    for line in match_table(pairings(pairs or (2 if quick else 100)), workers=2):
        print(line, flush=True)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.backgammon", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small samples: a smoke run")
    parser.add_argument(
        "--times",
        action="store_true",
        help="only the 2-ply search times next to gnubg's 2-ply hint (20 positions, --quick 5)",
    )
    parser.add_argument(
        "--network",
        action="store_true",
        help="only expectimax 1-ply with the formula and with the TD network (option "
        "Evaluation) against pubeval (100 pairs, --quick 2; no gnubg needed)",
    )
    parser.add_argument(
        "--bearoff",
        action="store_true",
        help="only the bear-off table (200 positions, --quick 20; needs the database: "
        f"{bearoff.BUILD_COMMAND})",
    )
    args = parser.parse_args(argv)
    # the workers' numpy (the TD network's small matrices) on one thread: more only spin
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(variable, "1")
    if args.bearoff:
        for line in bearoff_table(20 if args.quick else 200, seed=3):
            print(line)
    elif args.network:
        for line in match_table(network_pairings(2 if args.quick else 100), workers=2):
            print(line, flush=True)
    elif args.times and gnubg_driver.available():
        for line in hint_time_table(sample_positions(5 if args.quick else 20, seed=2)):
            print(line)
    else:
        run(quick=args.quick)


if __name__ == "__main__":
    main(sys.argv[1:])
