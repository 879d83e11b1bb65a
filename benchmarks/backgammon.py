"""Backgammon against GNU Backgammon: how often kibitz's play is gnubg's, the equity its
plays give up by gnubg's judgement (the opening rolls, and 500 positions from random play
and gnubg self-play), games against gnubg's beginner, intermediate and advanced levels
and against pubeval, MCTS against expectimax at equal time, and the expectimax search's
speed with and without Star1/Star2; and, without gnubg, the equity the race curves give up
in bear-offs, judged by the bear-off database, and 1-ply play with the formula and with
the TD network (option Evaluation) against pubeval. See benchmarks/README.md, "Backgammon".

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
from collections.abc import Callable, Iterator, Sequence
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


def random_player(seed: int) -> Player:
    """A player choosing uniformly among the legal plays, seeded."""
    rng = random.Random(seed)
    return lambda state: rng.choice(state.legal_moves())


PLAYERS: dict[str, Callable[[], Player]] = {
    "kibitz expectimax 1-ply": lambda: expectimax(depth=1, Evaluation="formula"),
    "kibitz 1-ply network": lambda: expectimax(depth=1, Evaluation="network"),
    "kibitz expectimax 2-ply": lambda: expectimax(depth=2, Evaluation="formula"),
    "kibitz 2-ply network": lambda: expectimax(depth=2, Evaluation="network"),
    "gnubg beginner": lambda: gnubg("beginner"),
    "gnubg intermediate": lambda: gnubg("intermediate"),
    "gnubg advanced": lambda: gnubg("advanced"),
    "gnubg 0-ply": lambda: gnubg("0-ply"),
    "pubeval": lambda: pubeval_player,
    "kibitz mcts 0.05 s": lambda: mcts(0.05),
    "kibitz expectimax 0.05 s": lambda: expectimax(movetime=0.05, Evaluation="formula"),
}

KIBITZ = {
    "formula-1": "kibitz expectimax 1-ply",
    "network-1": "kibitz 1-ply network",
    "formula-2": "kibitz expectimax 2-ply",
    "network-2": "kibitz 2-ply network",
}
"""kibitz's expectimax players by short name (`--players`): estimate (option Evaluation)
and depth."""

LEVELS = ("intermediate", "advanced")
"""gnubg's noisy 0-ply levels the level pairings play (`level_pairings`)."""


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


def judged_plays(judge: gnubg_driver.Gnubg, text: str) -> tuple[Backgammon, dict[Move, float]]:
    """The position `text` (``ID:31``) and every legal play's equity as `judge` ranks it
    (``hint`` of every play: gnubg's cubeless equity after the play, for its player)."""
    state = Backgammon.from_position(text)
    position_id, roll = text.split(":")
    hints = judge.hints(position_id, (int(roll[0]), int(roll[1])), 10_000)
    return state, {state.parse_move(hint.play): hint.equity for hint in hints}


def _title(name: str) -> str:
    """A `KIBITZ` name as a column title: ``formula-1`` is ``formula 1-ply``."""
    estimate, depth = name.split("-")
    return f"{estimate} {depth}-ply"


OPENING_PLAYERS = ("formula-1", "formula-2", "network-1", "network-2")
"""The opening table's columns (`KIBITZ` names)."""


def opening_loss_table(players: tuple[str, ...] = OPENING_PLAYERS) -> list[str]:
    """The equity kibitz's opening plays give up, as gnubg judges them at 2-ply (world
    class), for each of `players` (`KIBITZ` names): per roll, then the mean."""
    judge = gnubg_driver.Gnubg("2-ply")
    choosers = {name: PLAYERS[KIBITZ[name]]() for name in players}
    lines = [
        "Opening plays: the equity kibitz's play gives up against gnubg's best, gnubg at 2-ply "
        "judging (cubeless)",
        f"{'roll':<6}{'gnubg 2-ply':<16}"
        + "".join(f"{_title(name):<16}{'loss':>7}  " for name in players).rstrip(),
    ]
    losses: dict[str, list[float]] = {name: [] for name in players}
    for high, low in OPENING_ROLLS:
        state, equity = judged_plays(judge, f"{START}:{high}{low}")
        best = max(equity, key=equity.__getitem__)
        row = f"{high}{low:<5}{state.format_move(best):<16}"
        for name, choose in choosers.items():
            move = choose(state)
            losses[name].append(equity[best] - equity[move])
            row += f"{state.format_move(move):<16}{losses[name][-1]:>7.3f}  "
        lines.append(row.rstrip())
    lines.append(
        f"{'mean':<22}"
        + "".join(f"{statistics.fmean(losses[name]):>23.3f}  " for name in players).rstrip()
    )
    judge.close()
    return lines


# -- equity lost per move -------------------------------------------------------------------------


RATINGS = (
    (0.002, "supernatural"),
    (0.005, "world class"),
    (0.008, "expert"),
    (0.012, "advanced"),
    (0.018, "intermediate"),
    (0.026, "casual player"),
    (0.035, "beginner"),
)
"""gnubg's names for an error rate (equity lost per move) below each bound (gnubg 1.07,
analysis.c, ``arThrsRating``); at 0.035 and above: awful."""


def rating(loss: float) -> str:
    """gnubg's name for the error rate `loss` (equity per move)."""
    return next((name for bound, name in RATINGS if loss < bound), "awful")


EQUITY_PLAYERS = ("formula-1", "network-1", "formula-2")
"""The kibitz rows of the equity-loss table by default (`KIBITZ` names)."""

REFERENCE_PLAYERS = ("pubeval", "gnubg intermediate", "gnubg advanced", "gnubg 0-ply")
"""Rows that put kibitz's in scale: pubeval, two of gnubg's noisy levels and its 0-ply
(expert) play, which loses nothing by its own judgement (a check of the table) and shows
how far 0-ply is from 2-ply by the 2-ply judge's."""


def loss_positions(count: int, seeds: Sequence[int]) -> dict[str, list[str]]:
    """`count` positions for each of `seeds` with their roll and more than one play, races
    and bear-offs included, by title: half from games of random play (one position in ten;
    the dice seeded by the seed, the plays by the seed + 1), half from gnubg 0-ply
    self-play (one in five; the dice seeded by the seed + 2). An opening position can come
    more than once."""

    def anywhere(me: list[int], opp: list[int]) -> bool:
        return True

    half = count // 2
    random_play = [
        text
        for seed in seeds
        for text in positions_from_play(half, seed, random_player(seed + 1), anywhere, 0.1)
    ]
    gnubg_play = [
        text
        for seed in seeds
        for text in positions_from_play(count - half, seed + 2, gnubg("0-ply"), anywhere, 0.2)
    ]
    return {
        f"{len(random_play)} from random play": random_play,
        f"{len(gnubg_play)} from gnubg 0-ply self-play": gnubg_play,
    }


def _choose(task: tuple[str, str]) -> tuple[str, float]:
    """Player `name`'s play of `text` (``ID:31``), written out, and the seconds it took."""
    name, text = task
    state = Backgammon.from_position(text)
    start = time.perf_counter()
    move = _player(name)(state)
    return state.format_move(move), time.perf_counter() - start


def equity_players(kibitz: tuple[str, ...]) -> tuple[str, ...]:
    """The equity-loss table's players: `kibitz` (`KIBITZ` names), then the references."""
    return (*(KIBITZ[name] for name in kibitz), *REFERENCE_PLAYERS)


def equity_loss_table(
    count: int,
    seeds: Sequence[int],
    players: tuple[str, ...],
    workers: int,
    judge_setting: str = "0-ply",
) -> Iterator[str]:
    """The equity each of `players` (`PLAYERS` names) gives up against gnubg's best play
    on the `loss_positions` of `seeds`, every legal play ranked by gnubg at `judge_setting`:
    the share of gnubg's best play, the mean loss per move, the same in millipoints (gnubg's "error
    rate") with gnubg's name for it, the worst, and the time a play took (wall, in the
    worker). The lines come each player's as soon as its plays are chosen."""
    sets = loss_positions(count, seeds)
    total = sum(len(texts) for texts in sets.values())
    judge = gnubg_driver.Gnubg(judge_setting)
    judged = {text: judged_plays(judge, text) for texts in sets.values() for text in texts}
    judge.close()
    yield (
        f"Equity lost per move against gnubg's best, gnubg 1.07 at {judge_setting} ranking every "
        f"legal play (cubeless, gammons counted; seed {', '.join(map(str, seeds))}): positions "
        "with their roll and more than one play"
    )
    yield (
        f"{'player':<26}{'positions':<34}{'best':>7}{'loss/move':>11}{'mEMG':>7}  "
        f"{'gnubg rating':<15}{'worst':>7}{'ms/move':>9}"
    )
    context = multiprocessing.get_context("forkserver")
    with context.Pool(workers) as pool:
        for name in players:
            tasks = [(name, text) for text in judged]
            answers = dict(zip(judged, pool.map(_choose, tasks, chunksize=4), strict=True))
            rows = {**sets, f"all {total}": [text for texts in sets.values() for text in texts]}
            for index, (title, texts) in enumerate(rows.items()):
                losses, seconds = [], []
                for text in texts:
                    state, equity = judged[text]
                    play, took = answers[text]
                    losses.append(max(equity.values()) - equity[state.parse_move(play)])
                    seconds.append(took)
                loss = statistics.fmean(losses)
                best = sum(found <= 1e-9 for found in losses) / len(losses)
                yield (
                    f"{name if index == 0 else '':<26}{title:<34}{best:>7.1%}{loss:>11.4f}"
                    f"{1000 * loss:>7.1f}  {rating(loss):<15}{max(losses):>7.3f}"
                    f"{1000 * statistics.fmean(seconds):>9.1f}"
                )
    yield (
        "best: gnubg's best play (its equity, to gnubg's three decimals); mEMG: millipoints "
        "per move, gnubg's error rate; gnubg rating: its name for that error rate "
        "(chequer play only here)"
    )


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
        f"expectimax choosing a play (ExactRoot off, Evaluation formula) on {len(positions)} "
        f"positions like those, depth {depth} (iterative deepening from 1): totals",
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
            engine = ENGINES["expectimax"]({"ExactRoot": False, "Evaluation": "formula", **options})
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


def search_seconds(text: str, kernel: bool, evaluation: str = "formula") -> tuple[float, tuple]:
    """Seconds expectimax (default options: every play exact; option Evaluation
    `evaluation`) takes for a 2-ply search of `text` (``ID:31``) with an empty table, the
    fastest of `SEARCH_REPEATS`, and its answer (best move, value, nodes)."""
    state = Backgammon.from_position(text)
    times = []
    for _ in range(SEARCH_REPEATS):
        engine = ENGINES["expectimax"]({"Kernel": kernel, "Evaluation": evaluation})
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


def hint_time_table(positions: list[str], evaluation: str = "formula") -> list[str]:
    """A 2-ply search of each opening roll and of each of `positions` (``ID:31``): kibitz's
    expectimax (estimate `evaluation`) with its compiled kernel off and on, next to gnubg's
    2-ply hint, timed in turn in one run. gnubg runs in one process for the whole table
    (its evaluation cache kept, as in play) and is asked each position once: its first
    answer is the one timed; each search starts with an empty table (`search_seconds`).
    Both are warmed up first on a position the table does not time. The kernel must not
    change the answer: best move and nodes are checked, and the value (to the last bits
    with the network, whose sums the kernel adds in another order than numpy)."""
    sections = {
        "the 15 opening rolls": [
            (f"start {high}{low}", f"{START}:{high}{low}") for high, low in OPENING_ROLLS
        ],
        f"{len(positions)} positions from play": [(text, text) for text in positions],
    }
    judge = gnubg_driver.Gnubg("2-ply")
    judge.hints(WARM_UP[0], WARM_UP[1], 1)
    for kernel in (False, True):
        search_seconds(f"{WARM_UP[0]}:{WARM_UP[1][0]}{WARM_UP[1][1]}", kernel, evaluation)
    lines = [
        f"A 2-ply search (expectimax, Evaluation {evaluation}, other options default: every "
        f"play's exact value; the fastest of {SEARCH_REPEATS}) against gnubg 1.07's 2-ply hint "
        "(world class, cubeless; its first answer), milliseconds",
        f"{'position':<22}{'plays':>6}{'nodes':>8}{'kernel off':>12}{'kernel on':>11}"
        f"{'gnubg 2-ply':>13}{'on / gnubg':>12}",
    ]
    for title, rows in sections.items():
        lines.append(title)
        totals = [0.0, 0.0, 0.0]
        worst = 0.0
        for label, text in rows:
            off, answer = search_seconds(text, False, evaluation)
            on, same = search_seconds(text, True, evaluation)
            if same[::2] != answer[::2] or not math.isclose(same[1], answer[1], abs_tol=1e-12):
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
    if evaluation != "formula":
        lines[-1] += " (the value to 1e-12)"
    return lines


LEVEL_PLAYERS = ("formula-2", "network-1")
"""The kibitz players of the level pairings by default (`KIBITZ` names)."""


def pairings(pairs: int) -> list[Pairing]:
    return [
        Pairing("kibitz expectimax 1-ply", "gnubg beginner", pairs),
        Pairing("kibitz expectimax 1-ply", "pubeval", pairs),
        Pairing("kibitz expectimax 2-ply", "gnubg beginner", pairs),
        Pairing("kibitz expectimax 2-ply", "pubeval", pairs),
        Pairing("kibitz mcts 0.05 s", "kibitz expectimax 0.05 s", pairs),
        *network_pairings(pairs)[1:],
        *level_pairings(pairs, LEVEL_PLAYERS),
    ]


def level_pairings(pairs: int, players: tuple[str, ...]) -> list[Pairing]:
    """Each of `players` (`KIBITZ` names) against gnubg's `LEVELS`."""
    return [Pairing(KIBITZ[name], f"gnubg {level}", pairs) for name in players for level in LEVELS]


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
    players = equity_players(EQUITY_PLAYERS)
    for line in equity_loss_table(EQUITY_COUNT[quick], EQUITY_SEEDS, players, workers=2):
        print(line, flush=True)
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


EQUITY_COUNT = {False: 500, True: 20}
"""Positions of the equity-loss table, by `--quick`."""

EQUITY_SEEDS = (5,)
"""The equity-loss table's seeds by default (`--seeds`): each adds `EQUITY_COUNT` positions."""


def _seeds(text: str) -> tuple[int, ...]:
    """`--seeds`: integers separated by commas."""
    try:
        seeds = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: seeds are integers, e.g. 5,11,12") from None
    if not seeds or len(set(seeds)) < len(seeds):
        raise argparse.ArgumentTypeError(f"{text!r}: one or more distinct seeds, e.g. 5,11,12")
    return seeds


def _names(text: str) -> tuple[str, ...]:
    """`--players`: `KIBITZ` names separated by commas."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in KIBITZ]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown player {', '.join(map(repr, unknown or [text]))} (known: {', '.join(KIBITZ)})"
        )
    return names


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.backgammon", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small samples: a smoke run")
    parser.add_argument(
        "--times",
        action="store_true",
        help="only the 2-ply search times next to gnubg's 2-ply hint (20 positions, --quick 5)",
    )
    parser.add_argument(
        "--evaluation",
        choices=("formula", "network"),
        default="formula",
        help="the estimate of the --times searches (option Evaluation; default formula)",
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
    parser.add_argument(
        "--equity-loss",
        action="store_true",
        help=f"only the equity lost per move, gnubg judging ({EQUITY_COUNT[False]} positions, "
        f"--quick {EQUITY_COUNT[True]}; kibitz rows: --players, default "
        f"{','.join(EQUITY_PLAYERS)})",
    )
    parser.add_argument(
        "--seeds",
        type=_seeds,
        default=EQUITY_SEEDS,
        help="seeds of the --equity-loss positions, separated by commas: each adds "
        f"{EQUITY_COUNT[False]} positions (--quick {EQUITY_COUNT[True]}), half from random "
        f"play, half from gnubg's (default {','.join(map(str, EQUITY_SEEDS))})",
    )
    parser.add_argument(
        "--judge",
        choices=("0-ply", "2-ply"),
        default="0-ply",
        help="gnubg's setting ranking the plays of the equity-loss table (default 0-ply)",
    )
    parser.add_argument(
        "--openings",
        action="store_true",
        help="only the opening plays' equity loss, gnubg 2-ply judging (kibitz columns: "
        f"--players, default {','.join(OPENING_PLAYERS)})",
    )
    parser.add_argument(
        "--gnubg-levels",
        action="store_true",
        help=f"only games against gnubg {' and '.join(LEVELS)} (kibitz players: --players, "
        f"default {','.join(LEVEL_PLAYERS)})",
    )
    parser.add_argument(
        "--players",
        type=_names,
        help=f"kibitz players for --equity-loss, --openings, --gnubg-levels, separated by "
        f"commas: {', '.join(KIBITZ)} (estimate and depth)",
    )
    parser.add_argument(
        "--pairs",
        type=int,
        help="pairs of games a pairing for --network and --gnubg-levels (default 100, --quick 2)",
    )
    args = parser.parse_args(argv)
    # the workers' numpy (the TD network's small matrices) on one thread: more only spin
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(variable, "1")
    pairs = args.pairs or (2 if args.quick else 100)
    needs_gnubg = args.times or args.equity_loss or args.openings or args.gnubg_levels
    if needs_gnubg and not gnubg_driver.available():
        print("skipped: gnubg is missing (bash scripts/peers.sh installs it)")
    elif args.bearoff:
        for line in bearoff_table(20 if args.quick else 200, seed=3):
            print(line)
    elif args.network:
        for line in match_table(network_pairings(pairs), workers=2):
            print(line, flush=True)
    elif args.equity_loss:
        count, players = EQUITY_COUNT[args.quick], equity_players(args.players or EQUITY_PLAYERS)
        for line in equity_loss_table(count, args.seeds, players, 2, args.judge):
            print(line, flush=True)
    elif args.openings:
        for line in opening_loss_table(args.players or OPENING_PLAYERS):
            print(line)
    elif args.gnubg_levels:
        for line in match_table(level_pairings(pairs, args.players or LEVEL_PLAYERS), workers=2):
            print(line, flush=True)
    elif args.times:
        positions = sample_positions(5 if args.quick else 20, seed=2)
        for line in hint_time_table(positions, args.evaluation):
            print(line)
    else:
        run(quick=args.quick)


if __name__ == "__main__":
    main(sys.argv[1:])
