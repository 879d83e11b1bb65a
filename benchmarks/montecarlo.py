"""Monte Carlo tree search next to OpenSpiel's: simulations per second from the empty board,
and match games (kibitz `mcts` against OpenSpiel's C++ MCTS at equal playouts, and against
kibitz `alphabeta` at equal time). See benchmarks/README.md, "Monte Carlo".

Both OpenSpiel bots use random rollouts (one per simulation) and uct_c = 2, their examples'
value; the C++ bot in matches also uses its solver, as kibitz does. OpenSpiel's Hex names
cells as kibitz does (a1 top left, rows shifted right going down) and its first player (x)
joins top and bottom like kibitz's Black: `_openspiel_action` translates by the cell's name
and `check_translation()` verifies it on a game each run.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from kibitz.engines import ENGINES, Limits, SearchContext
from kibitz.games import GAMES, Game, Move

UCT_C = 2.0
"""OpenSpiel's exploration constant in both bots (the value of its examples)."""
RATE_GAMES = (
    ("Hex 11x11", "hex", "11", "hex", {"num_rows": 11, "num_cols": 11}),
    ("Connect Four", "connect4", "", "connect_four", {}),
)
"""(title, kibitz game, position, OpenSpiel game, its parameters)."""


def _openspiel_game(name: str, parameters: dict):
    import pyspiel

    return pyspiel.load_game(name, parameters)


# -- simulations per second -------------------------------------------------------------------


def kibitz_rate(
    game: str,
    position: str,
    simulations: int,
    rave: str = "auto",
    kernel: bool = True,
    patterns: bool = True,
) -> float:
    """Simulations per second of one `mcts` search from `position` (a fresh tree); `kernel`
    off: the pure-Python search (the compiled walk's reference); `patterns` off: uniformly
    random playouts."""
    engine = ENGINES["mcts"]({"RAVE": rave, "Kernel": kernel, "Patterns": patterns})
    state = GAMES[game].from_position(position)
    start = time.perf_counter()
    result = engine.search(state, Limits(nodes=simulations), SearchContext())
    return result.nodes / (time.perf_counter() - start)


def openspiel_python_rate(name: str, parameters: dict, simulations: int) -> float:
    import numpy as np
    from open_spiel.python.algorithms import mcts

    game = _openspiel_game(name, parameters)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = mcts.MCTSBot(
        game, UCT_C, simulations, evaluator, random_state=np.random.RandomState(1), solve=False
    )
    state = game.new_initial_state()
    start = time.perf_counter()
    bot.step(state)
    return simulations / (time.perf_counter() - start)


def openspiel_cpp_rate(name: str, parameters: dict, simulations: int) -> float:
    import pyspiel

    game = _openspiel_game(name, parameters)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
    bot = pyspiel.MCTSBot(game, evaluator, UCT_C, simulations, 10**9, False, 1, False)
    state = game.new_initial_state()
    start = time.perf_counter()
    bot.step(state)
    return simulations / (time.perf_counter() - start)


def rate_table(rounds: int, quick: bool) -> list[str]:
    """Median simulations per second over `rounds` alternating rounds, per game and engine."""
    scale = 0.1 if quick else 1.0
    lines = [
        "Simulations per second from the empty board (one random playout each; medians of "
        f"{rounds} alternating rounds)",
        f"{'game':<14}{'engine':<26}{'simulations':>12}{'sims/s':>10}{'x OpenSpiel Py':>16}"
        f"{'x C++':>8}",
    ]
    for title, game, position, os_name, parameters in RATE_GAMES:
        hexes = game == "hex"
        runs: dict[str, tuple[int, Callable[[int], float]]] = {
            "kibitz mcts": (
                int((20_000 if hexes else 60_000) * scale),
                lambda n, g=game, p=position: kibitz_rate(g, p, n),
            ),
        }
        if hexes:  # RAVE is on by default for Hex; without it, OpenSpiel's very algorithm
            runs["kibitz mcts, RAVE off"] = (
                int(60_000 * scale),
                lambda n, g=game, p=position: kibitz_rate(g, p, n, "off"),
            )
            runs["kibitz mcts, Patterns off"] = (  # the fill-at-once playouts
                int(20_000 * scale),
                lambda n, g=game, p=position: kibitz_rate(g, p, n, patterns=False),
            )
        runs["kibitz mcts, Kernel off"] = (  # the Python search, playouts included
            int((20_000 if hexes else 60_000) * scale),
            lambda n, g=game, p=position: kibitz_rate(g, p, n, kernel=False),
        )
        runs |= {
            "OpenSpiel MCTSBot (Python)": (
                int((500 if hexes else 3_000) * scale),
                lambda n, o=os_name, p=parameters: openspiel_python_rate(o, p, n),
            ),
            "OpenSpiel MCTSBot (C++)": (
                int((20_000 if hexes else 100_000) * scale),
                lambda n, o=os_name, p=parameters: openspiel_cpp_rate(o, p, n),
            ),
        }
        rates: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(rounds):
            for name, (count, measure) in runs.items():
                rates[name].append(measure(count))
        python = statistics.median(rates["OpenSpiel MCTSBot (Python)"])
        cpp = statistics.median(rates["OpenSpiel MCTSBot (C++)"])
        for name, (count, _) in runs.items():
            rate = statistics.median(rates[name])
            lines.append(
                f"{title:<14}{name:<26}{count:>12,}{rate:>10,.0f}{rate / python:>16.1f}"
                f"{rate / cpp:>8.2f}"
            )
        title = ""
    lines.append(
        "goal: kibitz >= 1.0x OpenSpiel's C++ MCTS on Connect Four, and on Hex 11x11 with RAVE "
        "(its C++ without)"
    )
    return lines


# -- matches ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pairing:
    """kibitz `mcts` against an opponent, `games` games from `position`."""

    title: str
    game: str
    position: str
    opponent: str
    """"openspiel" (C++ MCTS at `playouts`), or a kibitz engine ("alphabeta", "mcts") at
    `movetime`, or at `playouts` nodes where that is set."""
    games: int
    playouts: int = 0
    movetime: float = 0.0
    options: tuple[tuple[str, bool | int | str], ...] = ()
    """kibitz mcts's options besides its defaults (the benchmark's Seed aside)."""
    opponent_options: tuple[tuple[str, bool | int | str], ...] = ()
    """A kibitz opponent's options besides its defaults."""


class _OpenSpielPlayer:
    """OpenSpiel's C++ MCTSBot, following the kibitz game move by move."""

    def __init__(self, game: Game, size: int | None, playouts: int, seed: int) -> None:
        import pyspiel

        if size is None:
            self.game = _openspiel_game("connect_four", {})
        else:
            self.game = _openspiel_game("hex", {"num_rows": size, "num_cols": size})
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        self.bot = pyspiel.MCTSBot(self.game, evaluator, UCT_C, playouts, 10**9, True, seed, False)
        self.state = self.game.new_initial_state()

    def follow(self, kibitz: Game, move: Move) -> None:
        """Play kibitz's `move` (not yet played there) in OpenSpiel's game too."""
        self.state.apply_action(_openspiel_action(self.state, kibitz, move))

    def choose(self, kibitz: Game) -> Move:
        action = self.bot.step(self.state)
        return kibitz.parse_move(_kibitz_text(self.state, action))


def _openspiel_action(state, kibitz: Game, move: Move) -> int:
    """OpenSpiel's action for kibitz's move: Connect Four's column index, Hex's cell name."""
    text = kibitz.format_move(move)
    if kibitz.name == "connect4":
        return int(text) - 1
    actions = {state.action_to_string(state.current_player(), a): a for a in state.legal_actions()}
    return actions[text]


def _kibitz_text(state, action: int) -> str:
    text = state.action_to_string(state.current_player(), action)
    return str(action + 1) if state.get_game().get_type().short_name == "connect_four" else text


def play_game(pairing: Pairing, index: int) -> float:
    """Game `index` of a pairing: kibitz mcts's return (+1, 0, -1). Each pair of games
    starts from the same random first move, kibitz playing first in the even one."""
    state = GAMES[pairing.game].from_position(pairing.position)
    ours = ENGINES["mcts"]({"Seed": index + 1, **dict(pairing.options)})
    ours_side = index % 2
    opening = random.Random(f"{pairing.title}/{index // 2}").choice(state.legal_moves())
    size = int(pairing.position) if pairing.game == "hex" else None
    limits = (
        Limits(nodes=pairing.playouts) if pairing.playouts else Limits(movetime=pairing.movetime)
    )
    if pairing.opponent == "openspiel":
        peer = _OpenSpielPlayer(state, size, pairing.playouts, index + 1)
        peer.follow(state, opening)
    else:
        peer = None
        theirs = ENGINES[pairing.opponent](dict(pairing.opponent_options))
    state.play(opening)
    while not state.is_terminal():
        if state.to_move() == ours_side:
            move = ours.search(state, limits, SearchContext()).best_move
        elif peer is not None:
            move = peer.choose(state)
        else:
            move = theirs.search(state, limits, SearchContext()).best_move
        if peer is not None:
            peer.follow(state, move)
        state.play(move)
    if peer is not None and not peer.state.is_terminal():
        raise AssertionError("kibitz and OpenSpiel disagree on the end of the game")
    return state.returns()[ours_side]


def _play(task: tuple[Pairing, int]) -> float:
    return play_game(*task)


def score_interval(results: list[float]) -> tuple[float, float, float]:
    """kibitz's score rate (win 1, draw 1/2) and its 95% interval (normal approximation on
    the per-game scores)."""
    scores = [(result + 1) / 2 for result in results]
    mean = statistics.fmean(scores)
    spread = statistics.stdev(scores) if len(scores) > 1 else 0.0
    half = 1.96 * spread / math.sqrt(len(scores))
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def match_table(pairings: list[Pairing], workers: int) -> Iterator[str]:
    """The table's lines, each pairing's as soon as its games are over."""
    yield (
        "Matches: kibitz mcts (defaults, Seed = game number) against each opponent, colours "
        "alternating, each pair of games from the same random first move"
    )
    yield f"{'pairing':<50}{'games':>6}{'W':>5}{'D':>4}{'L':>5}{'score':>8}{'95% interval':>16}"
    context = multiprocessing.get_context("forkserver")
    with context.Pool(workers) as pool:
        for pairing in pairings:
            results = pool.map(_play, [(pairing, i) for i in range(pairing.games)])
            wins = sum(result > 0 for result in results)
            draws = sum(result == 0 for result in results)
            mean, low, high = score_interval(results)
            yield (
                f"{pairing.title:<50}{len(results):>6}{wins:>5}{draws:>4}"
                f"{len(results) - wins - draws:>5}{mean:>8.1%}{f'{low:.1%}-{high:.1%}':>16}"
            )


def alphabeta_pairings(games: int) -> list[Pairing]:
    """kibitz mcts against kibitz alphabeta at equal time on Hex, with its playouts'
    patterns (the default) and without (uniformly random playouts, as before them)."""
    return [
        Pairing("vs kibitz alphabeta, 0.1 s/move, Hex 7x7", "hex", "7", "alphabeta", games,
                movetime=0.1),
        Pairing("vs kibitz alphabeta, 0.2 s/move, Hex 11x11", "hex", "11", "alphabeta", games,
                movetime=0.2),
        Pairing("vs alphabeta, 0.1 s/move, Hex 7x7, Patterns off", "hex", "7", "alphabeta",
                games, movetime=0.1, options=(("Patterns", False),)),
        Pairing("vs alphabeta, 0.2 s/move, Hex 11x11, Patterns off", "hex", "11", "alphabeta",
                games, movetime=0.2, options=(("Patterns", False),)),
    ]  # fmt: skip


PRIORS = (("Policy", "puct"), ("FPU", 0))
"""mcts with Hex's move priors: PUCT (which the compiled walk lacks: the Python search), the
likeliest untried move competing at FPU 0 plus its prior's term rather than every move
first."""


def priors_pairings(games: int) -> list[Pairing]:
    """kibitz mcts with Hex's move priors (`PRIORS`) against alphabeta and mcts's defaults
    at equal time, and against the same Python search without them (UCT) at equal
    simulations: what the priors are worth apart from the compiled walk's rate."""
    python_uct = (("Kernel", False),)
    return [
        Pairing("priors vs alphabeta, 0.1 s/move, Hex 7x7", "hex", "7", "alphabeta", games,
                movetime=0.1, options=PRIORS),
        Pairing("priors vs alphabeta, 0.2 s/move, Hex 11x11", "hex", "11", "alphabeta", games,
                movetime=0.2, options=PRIORS),
        Pairing("priors vs mcts defaults, 0.1 s/move, Hex 7x7", "hex", "7", "mcts", games,
                movetime=0.1, options=PRIORS),
        Pairing("priors vs mcts defaults, 0.2 s/move, Hex 11x11", "hex", "11", "mcts", games,
                movetime=0.2, options=PRIORS),
        Pairing("priors vs Kernel off (UCT), 1000 nodes, Hex 7x7", "hex", "7", "mcts", games,
                playouts=1000, options=PRIORS + python_uct, opponent_options=python_uct),
        Pairing("priors vs Kernel off (UCT), 1000 nodes, Hex 11x11", "hex", "11", "mcts",
                games, playouts=1000, options=PRIORS + python_uct, opponent_options=python_uct),
    ]  # fmt: skip


def pairings(games: int, playouts: int) -> list[Pairing]:
    return [
        Pairing(
            f"vs OpenSpiel C++ MCTS, {playouts} playouts/move, Hex 7x7",
            "hex", "7", "openspiel", games, playouts=playouts,
        ),
        Pairing(
            f"vs OpenSpiel C++ MCTS, {playouts} playouts/move, Connect Four",
            "connect4", "", "openspiel", games, playouts=playouts,
        ),
        *alphabeta_pairings(games),
    ]  # fmt: skip


def check_translation() -> None:
    """Play a seeded random Hex 5x5 and Connect Four game in both libraries at once and check
    that they agree on every position's legal moves and on the end (raises if not)."""
    for game, position, os_name, parameters in (
        ("hex", "5", "hex", {"num_rows": 5, "num_cols": 5}),
        ("connect4", "", "connect_four", {}),
    ):
        ours = GAMES[game].from_position(position)
        theirs = _openspiel_game(os_name, parameters).new_initial_state()
        rng = random.Random(7)
        while not ours.is_terminal():
            names = {_kibitz_text(theirs, action) for action in theirs.legal_actions()}
            if names != {ours.format_move(move) for move in ours.legal_moves()}:
                raise AssertionError(f"{game}: legal moves differ at {ours.position()}")
            move = rng.choice(ours.legal_moves())
            theirs.apply_action(_openspiel_action(theirs, ours, move))
            ours.play(move)
        winner = ours.returns()[0]
        if not theirs.is_terminal() or theirs.returns()[0] != winner:
            raise AssertionError(f"{game}: the libraries disagree on the result")


def run(games: int | None = None, playouts: int = 1000, quick: bool = False) -> None:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("Monte Carlo benchmark skipped: OpenSpiel is missing (bash scripts/bench.sh "
              "installs it)")  # fmt: skip
        return
    check_translation()
    for line in rate_table(rounds=1 if quick else 5, quick=quick):
        print(line)
    print()
    count = games if games is not None else (4 if quick else 100)
    for line in match_table(pairings(count, 200 if quick else playouts), workers=2):
        print(line)
    print(
        "score: wins + draws/2 per game; 95% interval: normal approximation on the per-game "
        "scores. Two games run at once (one per core), so equal time is equal for both sides."
    )


PAIRING_SETS = {"alphabeta": alphabeta_pairings, "priors": priors_pairings}
"""`main`'s choices of matches."""


def main() -> None:
    """`python -m benchmarks.montecarlo --games N [--pairings priors] [--only TEXT]`: only
    the matches on Hex against kibitz engines (OpenSpiel not needed): mcts's defaults
    against alphabeta (`alphabeta_pairings`), or mcts with Hex's move priors
    (`priors_pairings`)."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--games", type=int, default=100, help="games a pairing (default 100)")
    parser.add_argument(
        "--pairings", choices=tuple(PAIRING_SETS), default="alphabeta", help="which matches"
    )
    parser.add_argument(
        "--only", default="", help="only the pairings whose title contains this text"
    )
    args = parser.parse_args()
    chosen = [p for p in PAIRING_SETS[args.pairings](args.games) if args.only in p.title]
    for line in match_table(chosen, workers=2):
        print(line, flush=True)


if __name__ == "__main__":
    main()
