"""Expectiminimax speed next to OpenSpiel's: nodes, time and nodes per second at equal
depth, and what Star1/Star2 and the table save against plain expectiminimax. See
benchmarks/README.md, "Expectimax".

The peer is OpenSpiel's Python `expectiminimax` (open_spiel/python/algorithms/minimax.py:
plain, no pruning, no table), on OpenSpiel's `pig`, whose rules kibitz's Pig follows. Both
get the same evaluation at the horizon (kibitz's Pig estimate, computed from the OpenSpiel
state's scores and turn total), so they must find the same value: the table checks it.
OpenSpiel's nodes are the calls of its recursive function (every position visited);
kibitz's are the positions its search visited, every iteration of its iterative deepening
included (depth 1, 2, ... d; OpenSpiel searches depth d alone).
"""

from __future__ import annotations

import math
import re
import statistics
import time
from collections.abc import Callable

from kibitz.engines import Limits, SearchContext
from kibitz.engines.expectimax import Expectimax
from kibitz.games.pig import Pig

PIG_GOAL = 100
PIG_POSITIONS = (
    (0, 0, 0, 0),
    (20, 35, 8, 1),
    (61, 48, 0, 0),
    (88, 90, 5, 1),
)
"""(score 1, score 2, turn total, player to move) of the Pig positions measured."""
SETTINGS = {
    "kibitz, no pruning, no table": {"Star1": False, "Hash": 0},
    "kibitz, Star1": {"Star2": False},
    "kibitz, Star1 + Star2 (default)": {},
}


def _pig_estimate(scores: tuple[int, int], turn: int, player: int) -> float:
    """Player 0's value of kibitz's Pig estimate (Pig.expected_return)."""
    state = Pig(PIG_GOAL)
    state.scores, state.turn_total, state.player = list(scores), turn, player
    return state.expected_return(0)


_OPENSPIEL_STATE = re.compile(r"Scores: (\d+) (\d+), Turn total: (\d+)\nCurrent player: (\d)")


def openspiel_pig_search(
    position: tuple[int, int, int, int], depth: int
) -> tuple[float, int, float]:
    """(player 0's value, nodes, seconds) of OpenSpiel's Python expectiminimax."""
    import pyspiel
    from open_spiel.python.algorithms import minimax

    first, second, turn, player = position
    game = pyspiel.load_game("pig", {"winscore": PIG_GOAL, "horizon": 1000})
    state = game.new_initial_state()
    # reach the position through OpenSpiel's own moves: each side banks its score with
    # rolls of 2 (player order kept), then the player to move rolls up the turn total
    for points in _banked_rolls(first, second, turn, player):
        state.apply_action(points)
    if str(state).split("\n")[0] != f"Scores: {first} {second}, Turn total: {turn}":
        raise AssertionError(f"could not reach {position} in OpenSpiel: {state}")

    def estimate(state) -> float:
        match = _OPENSPIEL_STATE.search(str(state))
        assert match is not None
        a, b, t, p = map(int, match.groups())
        return _pig_estimate((a, b), t, p)

    calls = 0
    search = minimax.expectiminimax

    def counted(*args):
        nonlocal calls
        calls += 1
        return search(*args)

    minimax.expectiminimax = counted  # its recursion looks the name up: every call counts
    try:
        start = time.perf_counter()
        value, _ = search(state, depth, estimate, 0)
        seconds = time.perf_counter() - start
    finally:
        minimax.expectiminimax = search
    return value, calls + 1, seconds


def _banked_rolls(first: int, second: int, turn: int, player: int) -> list[int]:
    """OpenSpiel actions (0 roll / 1 stop at decisions, face - 1 at chance nodes) that lead
    from the start to the position: scores banked in rolls of 2 (and a 3 for an odd score),
    alternating turns, then the turn total rolled by the player to move."""
    actions: list[int] = []

    def turn_of(points: int) -> list[int]:
        rolls = []
        while points > 0:
            face = 3 if points % 2 else 2
            rolls += [0, face - 1]
            points -= face
        return rolls

    banks = [first, second]
    for side in (0, 1):
        actions += [*turn_of(banks[side]), 1]
    if player == 1:  # player 1 moves: player 0 passes once more
        actions += [1]
    return actions + turn_of(turn)


def kibitz_pig_search(
    position: tuple[int, int, int, int], depth: int, options: dict
) -> tuple[float, int, float]:
    first, second, turn, player = position
    state = Pig.from_position(f"{first}-{second} +{turn} {player + 1} goal={PIG_GOAL} moves=5/1000")
    start = time.perf_counter()
    result = Expectimax(options).search(state, Limits(depth=depth), SearchContext())
    seconds = time.perf_counter() - start
    value = result.score.expected if player == 0 else -result.score.expected
    return value, result.nodes, seconds


def pig_table(depths: tuple[int, ...], rounds: int) -> list[str]:
    lines = [
        f"Pig to {PIG_GOAL}, {len(PIG_POSITIONS)} positions, same estimate at the horizon: "
        f"totals over the positions (times: medians of {rounds} rounds)",
        f"{'depth':>5}  {'search':<34}{'nodes':>11}{'seconds':>9}{'nodes/s':>10}"
        f"{'x OS time':>10}{'x OS nodes':>11}",
    ]
    for depth in depths:
        runs: dict[str, Callable] = {
            "OpenSpiel expectiminimax (Python)": lambda p, d=depth: openspiel_pig_search(p, d)
        }
        for name, options in SETTINGS.items():
            runs[name] = lambda p, d=depth, o=options: kibitz_pig_search(p, d, o)
        totals: dict[str, tuple[int, float]] = {}
        values: dict[str, list[float]] = {}
        for name, search in runs.items():
            nodes, times = 0, []
            for _ in range(rounds):
                answers = [search(position) for position in PIG_POSITIONS]
                times.append(sum(seconds for _, _, seconds in answers))
                nodes = sum(count for _, count, _ in answers)
                values[name] = [value for value, _, _ in answers]
            totals[name] = (nodes, statistics.median(times))
        reference = values["OpenSpiel expectiminimax (Python)"]
        for name, found in values.items():
            if any(
                not math.isclose(a, b, abs_tol=1e-9) for a, b in zip(found, reference, strict=True)
            ):
                raise AssertionError(f"depth {depth}: {name} finds {found}, OpenSpiel {reference}")
        peer_nodes, peer_time = totals["OpenSpiel expectiminimax (Python)"]
        for name, (nodes, seconds) in totals.items():
            lines.append(
                f"{depth:>5}  {name:<34}{nodes:>11,}{seconds:>9.3f}{nodes / seconds:>10,.0f}"
                f"{peer_time / seconds:>10.1f}{peer_nodes / nodes:>11.1f}"
            )
    lines.append(
        "every search finds OpenSpiel's value at every position (checked to 1e-9); x OS: "
        "OpenSpiel's time (nodes) over this one's"
    )
    return lines


def run(quick: bool = False) -> None:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print(
            "Expectimax benchmark skipped: OpenSpiel is missing (bash scripts/bench.sh installs it)"
        )
        return
    for line in pig_table(depths=(4,) if quick else (4, 6, 8), rounds=1 if quick else 3):
        print(line)
