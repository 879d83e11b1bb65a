"""Games of hidden information next to OpenSpiel: the exploitability (NashConv) of the
strategies that `cfr`, `pimc` and `ismcts` answer through the service on Kuhn and Leduc
poker, and phantom tic-tac-toe matches among `ismcts`, `pimc`, OpenSpiel's ISMCTS bot and
uniform random moves. See benchmarks/README.md, "Hidden information".

Exploitability: a real `kibitz serve` on a loopback port (benchmarks/load.py's
`ServerProcess`), one session per engine and budget, one search per information set with
the view as the position; the answers fill an OpenSpiel `TabularPolicy` whose NashConv
OpenSpiel computes. `information_sets` walks OpenSpiel's tree and ours together (raising
where they differ on a move's outcome) to pair each information state string with our view
and each action with our move.

Matches: in-process engine objects, as the other match benchmarks play. A referee keeps an
OpenSpiel `phantom_ttt` state and our full state side by side and checks at every turn
that they agree (`agree`); our engines get the mover's view, OpenSpiel's bot its own state.
OpenSpiel's phantom tic-tac-toe cannot resample a world from an information state, so its
bot draws its worlds through `OpenSpielSide.resample`: our view's `sample`, replayed into a
pyspiel state (the bot checks that the world has its information state).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kibitz import argtypes
from kibitz.engines import ENGINES, Limits, SearchContext
from kibitz.games import CHANCE, GAMES, Game, Move
from kibitz.games.poker.limit import CALL, FOLD, RAISE
from kibitz.games.tictactoe import cell_name
from kibitz.match import stats

GAMES_OF = {"kuhn-poker": "kuhn_poker", "leduc-poker": "leduc_poker"}
"""Our poker games and OpenSpiel's."""
CFR_ITERATIONS = {"kuhn-poker": (10, 100, 1000), "leduc-poker": (10, 100)}
ISMCTS_ITERATIONS = {"kuhn-poker": (1000, 10_000), "leduc-poker": (1000,)}
KUHN_VALUE = -1 / 18
"""Kuhn poker's value to the first player."""
PHANTOM = "phantom-tictactoe"
UCT_C = 2.0
"""OpenSpiel's ISMCTS exploration constant (its examples' value, as in montecarlo.py)."""
CELLS = {cell_name(cell): cell for cell in range(9)}
PAIRINGS = (
    ("ismcts", "pimc"),
    ("ismcts", "openspiel"),
    ("pimc", "openspiel"),
    ("ismcts", "random"),
    ("pimc", "random"),
)
"""The match pairings, the first-named engine's score reported."""


@dataclass(frozen=True)
class Budgets:
    """What each player of the matches spends on a move."""

    ismcts: int
    """`ismcts` iterations (its `nodes`)."""
    worlds: int
    """`pimc` worlds (option Worlds; each searched by `mcts`, its Engine auto's choice
    here, at 1000 simulations)."""
    simulations: int
    """OpenSpiel ISMCTSBot simulations."""

    def caption(self) -> str:
        return (
            f"ismcts {self.ismcts} iterations, pimc {self.worlds} worlds (mcts, 1000 "
            f"simulations each), OpenSpiel ISMCTSBot {self.simulations} simulations (UCT c = "
            f"{UCT_C:g}, one random rollout each, the most visited move)"
        )


FULL = Budgets(ismcts=500, worlds=5, simulations=500)
QUICK = Budgets(ismcts=100, worlds=2, simulations=100)


# -- information sets -----------------------------------------------------------------------


@dataclass
class InfoSet:
    """One of OpenSpiel's information states as ours: the view and each action's move."""

    player: int
    view: str
    moves: dict[int, str]
    """OpenSpiel's action -> our move's text."""


def _our_move(game: str, spiel, action: int) -> Move:
    """Our move for OpenSpiel's `action`: Leduc's fold/call/raise are ours (0, 1, 2); Kuhn's
    pass is a check (a fold facing a bet), its bet a bet (a call facing one)."""
    if game == "leduc-poker":
        return action
    facing = 1 in spiel.history()[2:]
    return (CALL if facing else RAISE) if action == 1 else (FOLD if facing else CALL)


def information_sets(game: str) -> dict[str, InfoSet]:
    """Every information state of the player to move in OpenSpiel's game, keyed by its
    string, walking both trees together; AssertionError where they differ (who moves, the
    legal moves, the chance probabilities, the payoffs) or where a string is two views."""
    import pyspiel

    found: dict[str, InfoSet] = {}

    def visit(ours: Game, spiel) -> None:
        assert ours.is_terminal() == spiel.is_terminal(), ours.position()
        if spiel.is_terminal():
            assert tuple(ours.returns()) == tuple(spiel.returns()), ours.position()
            return
        if spiel.is_chance_node():
            assert ours.to_move() == CHANCE, ours.position()
            assert ours.chance_outcomes() == spiel.chance_outcomes(), ours.position()
            pairs = [(action, action) for action in spiel.legal_actions()]
        else:
            player = spiel.current_player()
            assert ours.to_move() == player, ours.position()
            pairs = [(a, _our_move(game, spiel, a)) for a in spiel.legal_actions()]
            assert sorted(move for _, move in pairs) == sorted(ours.legal_moves())
            key = spiel.information_state_string(player)
            moves = {action: ours.format_move(move) for action, move in pairs}
            info = found.setdefault(key, InfoSet(player, ours.view(player), moves))
            assert (info.player, info.view, info.moves) == (player, ours.view(player), moves)
        for action, move in pairs:
            ours.play(move)
            visit(ours, spiel.child(action))
            ours.undo()

    visit(GAMES[game].from_position(""), pyspiel.load_game(GAMES_OF[game]).new_initial_state())
    assert len({(info.player, info.view) for info in found.values()}) == len(found)
    return found


# -- exploitability -------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """One row: `engine` with `options` under `limits`, every information set asked."""

    label: str
    engine: str
    options: dict[str, Any]
    limits: dict[str, int]
    pure: bool
    """Whether the answer is the pure strategy of its best move (else the probabilities)."""


def plans(game: str, quick: bool) -> list[Plan]:
    cfr = CFR_ITERATIONS[game][:1] if quick else CFR_ITERATIONS[game]
    ismcts = (100,) if quick else ISMCTS_ITERATIONS[game]
    return [
        *(Plan(f"cfr, {n} iterations", "cfr", {"NashConv": False}, {"depth": n}, False)
          for n in cfr),
        Plan("pimc, Choice mean", "pimc", {}, {}, True),
        Plan("pimc, Choice votes", "pimc", {"Choice": "votes"}, {}, True),
        *(Plan(f"ismcts, {n} iterations", "ismcts", {}, {"nodes": n}, True) for n in ismcts),
    ]  # fmt: skip


async def answers(address: str, game: str, plan: Plan, views: list[str]) -> dict[str, Any]:
    """The Result of each view, from one session of `plan`'s engine (so `cfr` answers all
    of them from one profile: the first search runs the iterations, the others none)."""
    from kibitz.clients import Client

    found = {}
    async with Client(address, tls_ca="", token="") as client:
        session = await client.open(game, plan.engine, plan.options)
        async with session:
            for view in views:
                found[view] = await session.search(view, **plan.limits)
    return found


def strategy(result: Any, pure: bool) -> dict[str, float]:
    """A client Result's strategy, by move text: each root move's probability, or 1 for
    the best move."""
    if pure:
        return {result.best_move: 1.0}
    return {root.move: root.probability for root in result.root_moves}


def policy_of(game: str, sets: dict[str, InfoSet], strategies: Mapping[str, Mapping[str, float]]):
    """OpenSpiel's TabularPolicy of a strategy given by view (each move's text: its
    probability; a move not given: 0)."""
    import pyspiel
    from open_spiel.python import policy

    table = policy.TabularPolicy(pyspiel.load_game(GAMES_OF[game]))
    for key, info in sets.items():
        chosen = strategies[info.view]
        row = table.policy_for_key(key)
        for action, move in info.moves.items():
            row[action] = chosen.get(move, 0.0)
    return table


def openspiel_cfr(game: str, iterations: tuple[int, ...]) -> dict[int, float]:
    """NashConv of OpenSpiel's Python CFRPlusSolver's average policy after each count."""
    import pyspiel
    from open_spiel.python.algorithms import cfr, exploitability

    spiel = pyspiel.load_game(GAMES_OF[game])
    solver = cfr.CFRPlusSolver(spiel)
    found = {}
    for count in range(1, max(iterations) + 1):
        solver.evaluate_and_update_policy()
        if count in iterations:
            found[count] = exploitability.nash_conv(spiel, solver.average_policy())
    return found


def exploitability_table(quick: bool) -> list[str]:
    import pyspiel
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability

    from benchmarks.load import ServerProcess

    games = ("kuhn-poker",) if quick else tuple(GAMES_OF)
    lines = [
        "Exploitability: NashConv (OpenSpiel's exploitability.nash_conv, in chips; 0 at an "
        "equilibrium) of the strategy each engine answers through the service, one search "
        "per information set with the view as the position",
        f"{'game':<7}{'strategy':<34}{'NashConv':>10}{'seconds':>9}  OpenSpiel CFR+",
    ]
    value_line = ""
    with ServerProcess() as server:
        for game in games:
            spiel = pyspiel.load_game(GAMES_OF[game])
            sets = information_sets(game)
            views = [info.view for info in sets.values()]
            uniform = exploitability.nash_conv(spiel, policy.UniformRandomPolicy(spiel))
            title = "Kuhn" if game == "kuhn-poker" else "Leduc"
            lines.append(f"{title:<7}{'uniform random':<34}{uniform:>10.6f}")
            game_plans = plans(game, quick)
            iterations = tuple(p.limits["depth"] for p in game_plans if p.engine == "cfr")
            peer = openspiel_cfr(game, iterations)
            for plan in game_plans:
                start = time.perf_counter()
                results = asyncio.run(answers(server.address, game, plan, views))
                seconds = time.perf_counter() - start
                strategies = {view: strategy(r, plan.pure) for view, r in results.items()}
                conv = exploitability.nash_conv(spiel, policy_of(game, sets, strategies))
                extra = f"  {peer[plan.limits['depth']]:.6f}" if plan.engine == "cfr" else ""
                lines.append(f"{'':<7}{plan.label:<34}{conv:>10.6f}{seconds:>9.1f}{extra}")
                if game == "kuhn-poker" and plan.engine == "cfr":
                    value_line = kuhn_value(results, plan)
    lines += [
        "cfr: RootMove.probability of each move (the average strategy after N iterations "
        "of CFR+, Limits depth = N, one session for all the views); OpenSpiel CFR+: its "
        "Python CFRPlusSolver's average policy after as many iterations. pimc (its "
        "defaults: poker views list their worlds, each searched exactly) and ismcts "
        "(Seed 1): the pure strategy of Result.best_move, pimc's best mean over the worlds "
        "or most votes, ismcts's most visited root move. seconds: every search of the row "
        "through the service",
        value_line,
    ]
    return lines


def kuhn_value(results: dict[str, Any], plan: Plan) -> str:
    """Kuhn's value to the first player from cfr's answers: the mean Score of its three
    first views (one per card), and the engine's game_value statistic."""
    scores = [results[f"{card}:"].score.expected_value for card in "JQK"]
    reported = results["K:"].stats["game_value"]
    return (
        f"Kuhn's value to the first player from {plan.label}: the mean score of J:, Q:, K: "
        f"{sum(scores) / 3:+.6f}, its game_value {reported:+.6f}; exact -1/18 = "
        f"{KUHN_VALUE:+.6f}"
    )


# -- phantom tic-tac-toe ----------------------------------------------------------------------


def openspiel_cell(action: int) -> int:
    """OpenSpiel's cell (row 0 at the top) as ours (row 0 at the bottom), and back."""
    return 3 * (2 - action // 3) + action % 3


def openspiel_view(information_state: str, player: int) -> str:
    """OpenSpiel's information state string (the player's board, then their actions) as
    our view: an attempt was refused where the board shows the opponent's mark."""
    *rows, actions = information_state.split("\n")
    board = "".join(rows)
    attempts = []
    for item in actions.split():
        who, action = map(int, item.split(","))
        if who != player:
            raise AssertionError(
                f"player {player + 1}'s information state shows a move of the other"
            )
        refused = board[action] != "xo"[player]
        attempts.append(cell_name(openspiel_cell(action)) + ("*" if refused else ""))
    return "xo"[player] + ":" + " ".join(attempts)


def agree(ours: Game, spiel) -> None:
    """Raise where the two states differ: the end and its returns, or the player to move,
    the legal moves and both players' views."""
    if ours.is_terminal() or spiel.is_terminal():
        if not (ours.is_terminal() and spiel.is_terminal()):
            raise AssertionError(f"one library ended the game, not the other: {ours.position()}")
        if tuple(ours.returns()) != tuple(spiel.returns()):
            raise AssertionError(f"the returns differ at {ours.position()}")
        return
    legal = sorted(map(openspiel_cell, spiel.legal_actions()))
    if ours.to_move() != spiel.current_player() or sorted(ours.legal_moves()) != legal:
        raise AssertionError(f"the mover or the legal moves differ at {ours.position()}")
    for player in (0, 1):
        if ours.view(player) != openspiel_view(spiel.information_state_string(player), player):
            raise AssertionError(f"player {player + 1}'s views differ at {ours.position()}")


def replayed(attempts: list[int]):
    """A pyspiel phantom_ttt state after our `attempts` (cells)."""
    import pyspiel

    spiel = pyspiel.load_game("phantom_ttt").new_initial_state()
    for cell in attempts:
        spiel.apply_action(openspiel_cell(cell))
    return spiel


def attempts_of(state: Game) -> list[int]:
    """The cells a full state's attempts tried, in order (its position, stars dropped)."""
    return [CELLS[token.rstrip("*")] for token in state.position().split()]


class OpenSpielSide:
    """OpenSpiel's Python ISMCTSBot with a random-rollout evaluator; it draws its worlds
    with our view's `sample` (`resample`)."""

    def __init__(self, simulations: int, seed: int) -> None:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        game = pyspiel.load_game("phantom_ttt")
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        self.bot = ismcts.ISMCTSBot(
            game, evaluator, UCT_C, simulations, random_state=np.random.RandomState(seed)
        )
        self.bot.set_resampler(self.resample)
        self.rng = random.Random(seed)

    def resample(self, spiel, player: int):
        """A world of `player`'s information state in `spiel`: a full state drawn by our
        view's `sample`, as a pyspiel state."""
        ours = GAMES[PHANTOM].from_position("")
        for action in spiel.history():
            ours.play(openspiel_cell(action))
        view = GAMES[PHANTOM].from_position(ours.view(player))
        return replayed(attempts_of(view.sample(self.rng)))  # type: ignore[attr-defined]

    def choose(self, ours: Game, spiel) -> Move:
        return openspiel_cell(self.bot.step(spiel))


class KibitzSide:
    """A kibitz engine searching the mover's view."""

    def __init__(self, name: str, budgets: Budgets, seed: int) -> None:
        if name == "ismcts":
            self.engine = ENGINES["ismcts"]({"Seed": seed})
            self.limits = Limits(nodes=budgets.ismcts)
        else:
            self.engine = ENGINES["pimc"]({"Seed": seed, "Worlds": budgets.worlds})
            self.limits = Limits()

    def choose(self, ours: Game, spiel) -> Move:
        view = GAMES[PHANTOM].from_position(ours.view(ours.to_move()))
        return self.engine.search(view, self.limits, SearchContext()).best_move


class RandomSide:
    """Uniformly random legal moves (the mover's, which it knows), seeded."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, ours: Game, spiel) -> Move:
        return self.rng.choice(ours.legal_moves())


def side(name: str, budgets: Budgets, seed: int) -> OpenSpielSide | KibitzSide | RandomSide:
    if name == "openspiel":
        return OpenSpielSide(budgets.simulations, seed)
    if name == "random":
        return RandomSide(seed)
    return KibitzSide(name, budgets, seed)


@dataclass(frozen=True)
class Task:
    """One game of a pairing: the first-named engine plays x in even games, o in odd."""

    pairing: tuple[str, str]
    index: int
    budgets: Budgets


def play(task: Task) -> float:
    """The first-named engine's return (+1, 0, -1) in one refereed game; every engine and
    rng is seeded by the game's number."""
    first_seat = task.index % 2
    names = task.pairing if first_seat == 0 else task.pairing[::-1]
    seats = [side(name, task.budgets, 1000 * task.index + seat + 1) for seat, name in
             enumerate(names)]  # fmt: skip
    ours = GAMES[PHANTOM].from_position("")
    spiel = replayed([])
    agree(ours, spiel)
    while not ours.is_terminal():
        move = seats[ours.to_move()].choose(ours, spiel)
        ours.play(move)
        spiel.apply_action(openspiel_cell(move))
        agree(ours, spiel)
    return ours.returns()[first_seat]


def label(name: str) -> str:
    return {"openspiel": "OpenSpiel ISMCTS", "random": "random"}.get(name, name)


def match_table(games: int, budgets: Budgets, workers: int) -> list[str]:
    lines = [
        f"Phantom tic-tac-toe (OpenSpiel's phantom_ttt rules): {games} games a pairing, the "
        f"first-named engine x in half of them; {budgets.caption()}; seeds: the game's "
        "number",
        f"{'pairing':<30}{'games':>6}{'W':>5}{'D':>5}{'L':>5}{'score':>8}{'95% interval':>16}"
        f"{'s/game':>8}",
    ]
    context = multiprocessing.get_context("forkserver")
    with context.Pool(workers) as pool:
        for pairing in PAIRINGS:
            start = time.perf_counter()
            results = pool.map(play, [Task(pairing, i, budgets) for i in range(games)])
            seconds = (time.perf_counter() - start) * workers / games
            wins = sum(result > 0 for result in results)
            draws = sum(result == 0 for result in results)
            low, high = stats.wilson(wins + draws / 2, games)
            lines.append(
                f"{label(pairing[0]) + ' vs ' + label(pairing[1]):<30}{games:>6}{wins:>5}"
                f"{draws:>5}{games - wins - draws:>5}{(wins + draws / 2) / games:>8.1%}"
                f"{f'{low:.1%}-{high:.1%}':>16}{seconds:>8.2f}"
            )
    lines.append(
        "score: (W + D/2) / games of the first-named engine, its Wilson interval; s/game: "
        f"wall seconds per game ({workers} at a time). The referee checks at every turn "
        "that OpenSpiel's state and ours agree (the mover, the legal moves, both views, "
        "the end and its returns). Engines in-process: our engines' search() of the mover's "
        "view, OpenSpiel's bot step() of its state"
    )
    return lines


# -- the run ----------------------------------------------------------------------------------


def run(
    quick: bool = False, games: int | None = None, workers: int = 2, budgets: Budgets | None = None
) -> None:
    """Both tables; --quick: Kuhn alone, small budgets, 4 games a pairing."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("Hidden information skipped: OpenSpiel is missing (bash scripts/bench.sh "
              "installs it)")  # fmt: skip
        return
    for line in exploitability_table(quick):
        print(line, flush=True)
    print()
    count = games if games is not None else (4 if quick else 200)
    budgets = budgets or (QUICK if quick else FULL)
    for line in match_table(count, budgets, 1 if quick else workers):
        print(line, flush=True)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hidden", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run of seconds")
    parser.add_argument(
        "--games",
        type=argtypes.positive_int,
        metavar="N",
        help="phantom tic-tac-toe games per pairing (default 200, --quick 4)",
    )
    parser.add_argument(
        "--workers", type=argtypes.positive_int, default=2, metavar="N", help="games at once"
    )
    flags = {
        "ismcts": "ismcts iterations a move",
        "worlds": "pimc worlds a move",
        "simulations": "OpenSpiel ISMCTSBot simulations a move",
    }
    for name, what in flags.items():
        parser.add_argument(
            f"--{name}",
            type=argtypes.positive_int,
            metavar="N",
            help=f"{what} (default {getattr(FULL, name)}, --quick {getattr(QUICK, name)})",
        )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    defaults = QUICK if args.quick else FULL
    budgets = Budgets(**{name: getattr(args, name) or getattr(defaults, name) for name in flags})
    run(args.quick, args.games, args.workers, budgets)
    load = os.getloadavg()[2]
    print(f"\n({time.perf_counter() - start:.0f} s in all; load average {load:.1f} over the last "
          f"15 minutes on {os.cpu_count()} cores)")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
