"""Three players and more, on Chinese checkers: the depth that maxⁿ (with and without
Korf's pruning), paranoid and best-reply search reach at equal nodes and at equal time;
round robins among maxn, paranoid, brs and mcts at equal time per move; kibitz `mcts`
against OpenSpiel's MCTS bot at equal simulations. See benchmarks/README.md, "Three players
and more".

The games are played in-process (each engine's `search()` on the game, no server), scored
as `kibitz match` scores N seats (kibitz/match/seats.py: places, rank points; the
intervals of kibitz/match/stats.py). OpenSpiel's `chinese_checkers` follows the kibitz game
action by action (`ChineseCheckers.actions` gives the OpenSpiel actions of a move);
`check_translation()` replays a seeded random game in both and checks every position's
legal moves on each run.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kibitz import argtypes
from kibitz.engines import ENGINES, Engine, Limits, SearchContext
from kibitz.engines.multi.common import sum_bounds
from kibitz.games import GAMES, Game, Move
from kibitz.match import stats
from kibitz.match.seats import places, rank_points, seatings

GAME = "chinese-checkers"
SEARCHERS = (
    ("maxn", "maxn", {}),
    ("maxn, no pruning", "maxn", {"Pruning": False}),
    ("paranoid", "paranoid", {}),
    ("brs", "brs", {}),
)
"""(label, engine, options) of the depth table; the second is the reference."""
REFERENCE = "maxn, no pruning"
ROUND_ROBIN = ("maxn", "paranoid", "brs", "mcts")
"""The engines of the round robins, each with its defaults."""
OPENING_TURNS = 3
"""Random turns (one per player) before a set of games: every seating of the set starts
from the same position."""
UCT_C = 2.0
"""OpenSpiel's exploration constant (its examples' value, as in benchmarks/montecarlo.py)."""
PARTS = ("depth", "openspiel", "roundrobin")
"""The tables, in the order they run."""
OS_SEATINGS = tuple(seats for seats in itertools.product((0, 1), repeat=3) if len(set(seats)) == 2)
"""kibitz mcts (0) and OpenSpiel's bot (1) in three seats: the six ways in which both play,
each engine in each seat three times, once alone in it."""


def new_state(position: str) -> Game:
    return GAMES[GAME].from_position(position)


def play_opening(state: Game, seed: str, turns: int) -> None:
    rng = random.Random(seed)
    for _ in range(turns):
        state.play(rng.choice(state.legal_moves()))


def sample_positions(players: int, count: int) -> list[str]:
    """The start for `players` and `count` positions two random turns per player in (seeded)."""
    sampled = [str(players)]
    for index in range(count):
        state = new_state(str(players))
        play_opening(state, f"depth/{players}/{index}", 2 * players)
        sampled.append(state.position())
    return sampled


# -- depth ------------------------------------------------------------------------------------


def versus(depth: float, reference: float) -> str:
    """`depth` over `reference`, less 1, as a signed percentage ("-" where the reference is 0)."""
    return f"{depth / reference - 1:+.0%}" if reference else "-"


def depth_table(counts: Sequence[int], sampled: int, nodes: int, seconds: float) -> list[str]:
    """Mean depth completed over the start and `sampled` positions per number of players, at
    `nodes` nodes and at `seconds` per search, each against plain maxⁿ's."""
    lines = [
        f"Depth reached on Chinese checkers: mean iterative-deepening depth completed over the "
        f"start and {sampled} positions {'' if sampled == 1 else 'each '}two random turns per "
        f"player in; at {nodes:,} nodes and at {seconds:g} s per search (defaults, 16 MB table)",
        f"{'players':<9}{'engine':<18}{'depth@nodes':>12}{'vs maxn':>9}{'depth@time':>12}"
        f"{'vs maxn':>9}{'nodes/s':>9}{'cuts':>7}",
    ]
    for players in counts:
        positions = sample_positions(players, sampled)
        rows: dict[str, tuple[float, float, float, int]] = {}
        for label, engine, options in SEARCHERS:
            at_nodes, at_time, rates, cuts = [], [], [], 0
            for position in positions:
                for limits, depths in (
                    (Limits(nodes=nodes), at_nodes),
                    (Limits(movetime=seconds), at_time),
                ):
                    result = ENGINES[engine](options).search(
                        new_state(position), limits, SearchContext()
                    )
                    depths.append(result.depth)
                    cuts += int(
                        result.stats.get("shallow_cuts", 0) + result.stats.get("immediate_cuts", 0)
                    )
                rates.append(result.nodes / max(result.time, 1e-9))
            rows[label] = (
                statistics.fmean(at_nodes),
                statistics.fmean(at_time),
                statistics.median(rates),
                cuts,
            )
        plain_nodes, plain_time = rows[REFERENCE][:2]
        title = str(players)
        for label, _, _ in SEARCHERS:
            depth_nodes, depth_time, rate, cuts = rows[label]
            cut_text = f"{cuts:>7}" if label.startswith("maxn") else ""
            lines.append(
                f"{title:<9}{label:<18}{depth_nodes:>12.2f}{versus(depth_nodes, plain_nodes):>9}"
                f"{depth_time:>12.2f}{versus(depth_time, plain_time):>9}{rate:>9,.0f}{cut_text}"
            )
            title = ""
    bounds = sum_bounds(new_state("3"))
    lines.append(
        "vs maxn: the depth over plain maxⁿ's, less 1; the course: paranoid 20-50% deeper than "
        "maxⁿ for 3-6 players. cuts: maxⁿ's shallow + immediate cuts in all its searches"
        + (
            "; Chinese checkers declares no bounded constant-sum returns (bounded_sum), so "
            "Korf's pruning has nothing to work with and maxn is plain maxⁿ here"
            if bounds is None
            else f"; the game's bounds: {bounds}"
        )
    )
    return lines


# -- games --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    """One game: `engines` by seat, from the opening of set `opening`."""

    engines: tuple[str, ...]
    limits: Limits
    opening: int
    seed: int
    turn_cap: int | None = None
    """Stop after this many turns as the game's own turn cap does (0 for everyone)."""


def make_engine(name: str, seed: int) -> Engine:
    return ENGINES[name]({"Seed": seed} if name == "mcts" else {})


def finish(state: Game, turns: int, cap: int | None) -> tuple[list[float], int]:
    """The returns by the rules, or 0 for everyone where `cap` stopped the game first."""
    if state.is_terminal():
        return list(map(float, state.returns())), turns
    assert cap is not None and turns >= cap
    return [0.0] * state.players, turns


def play_game(task: Task) -> dict[str, Any]:
    """One game of kibitz engines: the returns by seat, the turns, the seconds and the
    depth (`Result.depth`) of each move by seat."""
    state = new_state("3")
    play_opening(state, f"opening/{task.opening}", OPENING_TURNS)
    engines = [make_engine(name, task.seed) for name in task.engines]
    latency: list[list[float]] = [[] for _ in engines]
    depths: list[list[int]] = [[] for _ in engines]
    turns = 0
    while not state.is_terminal() and (task.turn_cap is None or turns < task.turn_cap):
        seat = state.to_move()
        start = time.perf_counter()
        result = engines[seat].search(state, task.limits, SearchContext())
        latency[seat].append(time.perf_counter() - start)
        depths[seat].append(result.depth)
        state.play(result.best_move)
        turns += 1
    returns, turns = finish(state, turns, task.turn_cap)
    return {"returns": returns, "turns": turns, "latency": latency, "depths": depths}


@dataclass
class Standing:
    """One engine's places (one per seat it held in a game), seconds and depths per move."""

    places: list[float]
    seconds: list[float]
    depths: list[int]

    def add(self, place: float, seconds: list[float], depths: list[int]) -> None:
        self.places.append(place)
        self.seconds.extend(seconds)
        self.depths.extend(depths)

    def score(self) -> float:
        """Mean rank points of three seats."""
        return statistics.fmean(rank_points(place, 3) for place in self.places)

    def row(self, name: str, seats: int) -> str:
        """Games, rank points (1 first, 0 last) and mean place with their 95% intervals,
        outright wins with the Wilson interval, mean ms and depth per move."""
        count = len(self.places)
        score, score_low, score_high = stats.mean_interval(
            [rank_points(place, seats) for place in self.places]
        )
        rank, rank_low, rank_high = stats.mean_interval(self.places)
        wins = sum(place == 1 for place in self.places)
        low, high = stats.wilson(wins, count)
        milliseconds = 1000 * statistics.fmean(self.seconds) if self.seconds else 0.0
        depth = f"{statistics.fmean(self.depths):>6.2f}" if self.depths else f"{'-':>6}"
        return (
            f"{name:<14}{count:>6}{score:>7.3f}{f'{score_low:.3f}-{score_high:.3f}':>13}"
            f"{rank:>6.2f}{f'{rank_low:.2f}-{rank_high:.2f}':>11}{wins:>6}{wins / count:>7.1%}"
            f"{f'{low:.1%}-{high:.1%}':>13}{milliseconds:>7.1f}{depth}"
        )


STANDING_HEADER = (
    f"{'engine':<14}{'games':>6}{'score':>7}{'95%':>13}{'rank':>6}{'95%':>11}{'wins':>6}"
    f"{'win%':>7}{'95%':>13}{'ms/mv':>7}{'depth':>6}"
)
STANDING_NOTE = (
    "score: mean rank points (first 1, second 1/2, last 0; level players share) with "
    "mean +- 1.96 sd/sqrt(n); rank: mean place (1-3), same interval; wins: games ended alone "
    "first, Wilson interval (kibitz match's N-seat table); ms/mv, depth: mean time and depth "
    "(Result.depth: iterations completed; mcts: the mean depth of its simulations in the "
    "tree) per move"
)


def run_tasks(
    tasks: list[Task],
    workers: int,
    deadline: float | None = None,
    play: Callable[[Task], dict[str, Any]] = play_game,
) -> list[dict[str, Any]]:
    """The records of `play` on `tasks`, in order; where `deadline` (a `time.time()`)
    passes, those of the games finished by then, and no more."""
    records: list[dict[str, Any]] = []

    def done(record: dict[str, Any]) -> bool:
        records.append(record)
        progress = f"game {len(records)}/{len(tasks)}: {record['returns']}, {record['turns']}"
        print(progress, "turns", file=sys.stderr, flush=True)
        return deadline is not None and time.time() > deadline

    if workers == 1:
        for task in tasks:
            if done(play(task)):
                break
        return records
    with multiprocessing.get_context("forkserver").Pool(workers) as pool:
        for record in pool.imap(play, tasks):
            if done(record):
                pool.terminate()
                break
    return records


def round_robin(
    sets: int,
    limits: Limits,
    workers: int,
    turn_cap: int | None = None,
    deadline: float | None = None,
) -> list[str]:
    """Every three of `ROUND_ROBIN` in all six seat orders from `sets` openings each, or
    from the openings whose games all ended by `deadline` (a `time.time()`)."""
    triples = list(itertools.combinations(ROUND_ROBIN, 3))
    orders = seatings(3, "permutations")
    tasks = [
        Task(tuple(triple[engine] for engine in order), limits, opening, opening + 1, turn_cap)
        for opening in range(sets)
        for triple in triples
        for order in orders
    ]
    start = time.perf_counter()
    per_set = len(triples) * len(orders)
    records = run_tasks(tasks, workers, deadline)
    asked, sets = sets, len(records) // per_set
    records, tasks = records[: sets * per_set], tasks[: sets * per_set]
    if not records:
        return ["Round robin: no opening's games all ended by the deadline"]
    elapsed = time.perf_counter() - start
    overall = {name: Standing([], [], []) for name in ROUND_ROBIN}
    by_triple = {triple: {name: Standing([], [], []) for name in triple} for triple in triples}
    for task, record in zip(tasks, records, strict=True):
        triple = next(t for t in triples if set(t) == set(task.engines))
        for seat, place in enumerate(places(record["returns"])):
            name = task.engines[seat]
            move_stats = record["latency"][seat], record["depths"][seat]
            overall[name].add(place, *move_stats)
            by_triple[triple][name].add(place, *move_stats)
    limit = f"{limits.movetime * 1000:g} ms per move" if limits.movetime else str(limits)
    turns = [record["turns"] for record in records]
    lines = [
        f"Round robin, 3-player Chinese checkers at {limit}: each three of "
        f"{', '.join(ROUND_ROBIN)} in all 6 seat orders from each of {sets} openings "
        f"({OPENING_TURNS} random turns), {len(records)} games ({len(records) // len(triples)} "
        f"per three), {workers} at a time"
        + ("" if sets == asked else f"; {asked} openings asked, stopped at the deadline"),
        STANDING_HEADER,
    ]
    for name, standing in sorted(overall.items(), key=lambda item: -item[1].score()):
        lines.append(standing.row(name, 3))
    for triple, standings in by_triple.items():
        lines.append(f"  {' / '.join(triple)}")
        lines.extend("  " + standing.row(name, 3) for name, standing in standings.items())
    undecided = sum(max(record["returns"]) == 0 for record in records)
    lines.append(
        f"{STANDING_NOTE}. Turns per game: median {statistics.median(turns):.0f}, "
        f"{undecided} of {len(records)} without a winner; {elapsed:.0f} s in all"
    )
    return lines


# -- OpenSpiel ----------------------------------------------------------------------------------


class OpenSpielSide:
    """OpenSpiel's `chinese_checkers` following the kibitz game, and its C++ MCTSBot (random
    rollouts, UCT c = 2) at `simulations` per decision for the seats it holds."""

    def __init__(self, players: int, simulations: int, seed: int) -> None:
        import pyspiel

        self.game = pyspiel.load_game("chinese_checkers", {"players": players})
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        self.bot = pyspiel.MCTSBot(
            self.game, evaluator, UCT_C, simulations, 10**9, True, seed, False
        )
        self.state = self.game.new_initial_state()

    def follow(self, kibitz: Game, move: Move) -> None:
        """Play kibitz's `move` (legal in `kibitz`, not yet played there) here too."""
        for action in kibitz.actions(move):  # type: ignore[attr-defined]
            self.state.apply_action(action)

    def choose(self, kibitz: Game) -> Move:
        """The bot's turn, a decision per step, hop or stop, played here; its kibitz move."""
        player, actions = self.state.current_player(), []
        while not self.state.is_terminal() and self.state.current_player() == player:
            action = self.bot.step(self.state)
            actions.append(action)
            self.state.apply_action(action)
        moves = [move for move in kibitz.legal_moves() if kibitz.actions(move) == actions]  # type: ignore[attr-defined]
        if len(moves) != 1:
            raise AssertionError(f"OpenSpiel's actions {actions} are {len(moves)} kibitz moves")
        return moves[0]


def check_translation(players: int = 3, turns: int | None = None, seed: int = 7) -> int:
    """Play a seeded random game (or its first `turns`) in both libraries at once; raise
    where they differ on a position's legal moves or on the end. Returns the turns played."""
    import pyspiel

    ours = new_state(str(players))
    theirs = pyspiel.load_game("chinese_checkers", {"players": players}).new_initial_state()
    rng = random.Random(seed)
    played = 0
    while not ours.is_terminal() and (turns is None or played < turns):
        firsts = {actions[0] for actions in map(ours.actions, ours.legal_moves())}  # type: ignore[attr-defined]
        if firsts != set(theirs.legal_actions()) or theirs.current_player() != ours.to_move():
            raise AssertionError(f"the libraries differ at {ours.position()}")
        move = rng.choice(ours.legal_moves())
        for action in ours.actions(move):  # type: ignore[attr-defined]
            theirs.apply_action(action)
        ours.play(move)
        played += 1
    agree = theirs.is_terminal() and list(theirs.returns()) == list(ours.returns())
    if ours.is_terminal() and not agree:
        raise AssertionError("the libraries differ on the end of the game")
    return played


def play_openspiel(task: Task) -> dict[str, Any]:
    """One game of kibitz mcts (engine "mcts") against OpenSpiel's bot (the other seats) at
    `task.limits.nodes` simulations per decision each."""
    state = new_state("3")
    simulations = task.limits.nodes
    assert simulations is not None
    peer = OpenSpielSide(3, simulations, task.seed)
    rng = random.Random(f"openspiel/{task.opening}")
    for _ in range(OPENING_TURNS):
        move = rng.choice(state.legal_moves())
        peer.follow(state, move)
        state.play(move)
    ours = make_engine("mcts", task.seed)
    latency: list[list[float]] = [[] for _ in task.engines]
    depths: list[list[int]] = [[] for _ in task.engines]
    turns = 0
    while not state.is_terminal() and (task.turn_cap is None or turns < task.turn_cap):
        seat = state.to_move()
        start = time.perf_counter()
        if task.engines[seat] == "mcts":
            result = ours.search(state, task.limits, SearchContext())
            move = result.best_move
            depths[seat].append(result.depth)
            peer.follow(state, move)
        else:
            move = peer.choose(state)
        latency[seat].append(time.perf_counter() - start)
        state.play(move)
        turns += 1
    if state.is_terminal() and not peer.state.is_terminal():
        raise AssertionError("kibitz and OpenSpiel disagree on the end of the game")
    returns, turns = finish(state, turns, task.turn_cap)
    return {"returns": returns, "turns": turns, "latency": latency, "depths": depths}


def openspiel_match(
    sets: int,
    simulations: int,
    workers: int,
    turn_cap: int | None = None,
    deadline: float | None = None,
) -> list[str]:
    """kibitz mcts against OpenSpiel's MCTS bot in the six seatings of `OS_SEATINGS` from
    `sets` openings (the games ended by `deadline`, a `time.time()`, where it passes)."""
    names = ("mcts", "openspiel")
    tasks = [
        Task(
            tuple(names[side] for side in seating),
            Limits(nodes=simulations),
            opening,
            opening + 1,
            turn_cap,
        )
        for opening in range(sets)
        for seating in OS_SEATINGS
    ]
    records = run_tasks(tasks, workers, deadline, play_openspiel)
    if not records:
        return ["kibitz mcts against OpenSpiel's MCTS: no game ended by the deadline"]
    stopped = "" if len(records) == len(tasks) else f" of {len(tasks)}, stopped at the deadline"
    tasks = tasks[: len(records)]
    standings = {name: Standing([], [], []) for name in names}
    for task, record in zip(tasks, records, strict=True):
        for seat, place in enumerate(places(record["returns"])):
            standings[task.engines[seat]].add(
                place, record["latency"][seat], record["depths"][seat]
            )
    turns = [record["turns"] for record in records]
    undecided = sum(max(record["returns"]) == 0 for record in records)
    return [
        f"kibitz mcts (defaults, Seed = set number) against OpenSpiel's C++ MCTSBot (random "
        f"rollouts, UCT c = 2, solver) at {simulations} simulations per decision, 3-player "
        f"Chinese checkers: the 6 seatings in which both play, from each of {sets} openings "
        f"({OPENING_TURNS} random turns), {len(records)} games{stopped}; one row per engine, a "
        f"game counted once for each seat it held",
        STANDING_HEADER,
        *(standing.row(name, 3) for name, standing in standings.items()),
        f"{STANDING_NOTE}. OpenSpiel decides each step, hop and stop of a hop chain with its "
        f"own search (kibitz a whole turn). Turns per game: median "
        f"{statistics.median(turns):.0f}, {undecided} of {len(records)} without a winner",
    ]


# -- the run ------------------------------------------------------------------------------------


def run(
    quick: bool = False,
    sets: int | None = None,
    movetime: float = 0.02,
    os_sets: int | None = None,
    simulations: int = 200,
    workers: int = 2,
    parts: Sequence[str] = PARTS,
    deadline: float | None = None,
) -> None:
    """The tables of the module docstring. --quick: 3 players, the start alone, small
    budgets, and games stopped after a few turns (counted as the game's turn cap counts
    them: 0 for everyone), a smoke run of seconds. `deadline` (a `time.time()`): the round
    robin keeps the openings whose games all ended by then, the match against OpenSpiel
    the games that did."""
    cap = 6 if quick else None
    if "depth" in parts:
        for line in depth_table(
            (3,) if quick else (3, 4, 6),
            0 if quick else 3,
            300 if quick else 20_000,
            0.05 if quick else 2.0,
        ):
            print(line)
        print()
    if "openspiel" in parts:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            print(
                "OpenSpiel match skipped: OpenSpiel is missing (bash scripts/bench.sh installs it)"
            )
        else:
            check_translation(turns=30 if quick else None)
            count = os_sets if os_sets is not None else (1 if quick else 2)
            playouts = 10 if quick else simulations
            for line in openspiel_match(count, playouts, 1 if quick else workers, cap, deadline):
                print(line)
            print()
    if "roundrobin" in parts:
        count = sets if sets is not None else (1 if quick else 20)
        limits = Limits(movetime=0.005 if quick else movetime)
        for line in round_robin(count, limits, 1 if quick else workers, cap, deadline):
            print(line)


def part_names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in PARTS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"{', '.join(unknown) or repr(text)}: the parts are {', '.join(PARTS)}"
        )
    return names


def utc_time(text: str) -> float:
    """The `time.time()` of the next HH:MM UTC."""
    try:
        clock = datetime.datetime.strptime(text, "%H:%M").time()
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a time like 23:30") from None
    now = datetime.datetime.now(datetime.UTC)
    moment = datetime.datetime.combine(now.date(), clock, datetime.UTC)
    if moment <= now:
        moment += datetime.timedelta(days=1)
    return moment.timestamp()


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.multiplayer", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds")
    parser.add_argument(
        "--sets",
        type=argtypes.positive_int,
        metavar="N",
        help="round robin openings: 24 games each (4 threes x 6 seat orders; default 20)",
    )
    parser.add_argument(
        "--movetime",
        type=argtypes.positive_seconds,
        default=0.02,
        metavar="S",
        help="round robin seconds per move (default 0.02)",
    )
    parser.add_argument(
        "--os-sets",
        type=argtypes.positive_int,
        metavar="N",
        help="openings of the match against OpenSpiel: 6 games each (default 2)",
    )
    parser.add_argument(
        "--simulations",
        type=argtypes.positive_int,
        default=200,
        metavar="N",
        help="simulations per decision against OpenSpiel (default 200)",
    )
    parser.add_argument(
        "--workers",
        type=argtypes.positive_int,
        default=2,
        metavar="N",
        help="games at once (default 2)",
    )
    parser.add_argument(
        "--parts",
        type=part_names,
        default=list(PARTS),
        help="comma-separated among depth, openspiel, roundrobin (default: all)",
    )
    parser.add_argument(
        "--until",
        type=utc_time,
        metavar="HH:MM",
        help="stop the games at this UTC time (today's, else tomorrow's): the round robin "
        "keeps the openings whose games all ended, the match against OpenSpiel its games",
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    run(
        args.quick,
        args.sets,
        args.movetime,
        args.os_sets,
        args.simulations,
        args.workers,
        args.parts,
        args.until,
    )
    load = os.getloadavg()[2]
    print(f"\n({time.perf_counter() - start:.0f} s in all; load average {load:.1f} over the last "
          f"15 minutes on {os.cpu_count()} cores)")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
