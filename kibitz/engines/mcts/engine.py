"""The `mcts` engine: options, the tree kept between searches, one search's loop and its
answer in the shared score model (docs/engines.md, "mcts").

The simulations themselves are in `simulation.py`, their tree policies in `policies.py`,
their leaf evaluations in `evaluators.py`, the tree in `tree.py`, tree reuse in `reuse.py`;
the same simulations compiled, for the games that have a kernel, in `kernels/_walk.pyx`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol

from kibitz.engines.base import Engine, OptionSpec, Requirements, SearchContext
from kibitz.engines.driver import SearchDriver, root_candidates, terminal_result
from kibitz.engines.mcts import kernels
from kibitz.engines.mcts.evaluators import EVALUATORS, Evaluator, GamePlayout, KernelPlayout
from kibitz.engines.mcts.policies import POLICIES, RAVE, UCT, TreePolicy, make_policy
from kibitz.engines.mcts.reuse import find_subtree
from kibitz.engines.mcts.settings import Settings
from kibitz.engines.mcts.simulation import NO_PLAYER, Simulations
from kibitz.engines.mcts.tree import Node
from kibitz.engines.types import Limits, Result, RootMove, Score
from kibitz.games import Game, Move
from kibitz.games.capabilities import MovePriors, Playout
from kibitz.vocabulary import Bound, ScoreKind, StopReason

CHECK_MOST = 64
"""Simulations between two polls of the clock and the stop signal, at most."""


class Steps(Protocol):
    """A search made of steps (MCTS's simulations, ISMCTS's iterations) that `poll_steps`
    drives."""

    depth_total: int
    """The depths of every step's walk, summed (the depth limit is on their mean)."""

    @property
    def steps(self) -> int:
        """The steps run so far."""

    def run(self) -> None:
        """One step."""

    def solved(self) -> bool:
        """Whether the root's value is proven (no step can change it)."""


def poll_steps(
    steps: Steps, driver: SearchDriver, limits: Limits, report: Callable[[float], None]
) -> StopReason:
    """Steps until a limit is reached or the root is proven; why it ended. The limits are
    looked at every so many steps (`driver.next_check`), with `report(elapsed)` where an
    Info is due."""
    depth = None if limits.infinite else limits.depth
    check_at = 0
    while True:
        if steps.solved():
            return StopReason.SOLVED
        done = steps.steps
        if done >= check_at:
            elapsed = driver.elapsed()
            reason = driver.stop_reason(done, elapsed, first_step=done == 0)
            if reason is not None:
                return reason
            if driver.target_passed(elapsed):
                return StopReason.TIME
            if depth is not None and done and steps.depth_total >= depth * done:
                return StopReason.DEPTH
            if driver.info_due(elapsed):
                report(elapsed)
            check_at = driver.next_check(done, elapsed, CHECK_MOST)
        steps.run()


class MCTS(Engine):
    """Monte Carlo tree search; see the module docstring."""

    name: ClassVar[str] = "mcts"
    description: ClassVar[str] = (
        "Monte Carlo tree search: UCT (PUCT where the game gives move priors), random "
        "playouts (the game's own where it has them) or the game's heuristic at the leaves, "
        "MCTS-solver proofs of wins and losses, "
        "RAVE where it pays, tree reuse between the moves of a session. Any number of players, "
        "chance events sampled by their probabilities. Nodes are playouts; depth is the "
        "average depth of the simulations in the tree, selective depth the deepest."
    )
    requires: ClassVar[Requirements] = Requirements()
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "Exploration",
            "spin",
            100,
            "The exploration constant c of UCT (mean + c*sqrt(ln N / n)) or PUCT "
            "(mean + c*prior*sqrt(N)/(1+n)), in hundredths (100 = 1.0); returns count from "
            "-1 (loss) to +1 (win).",
            min=0,
            max=10_000,
        ),
        OptionSpec(
            "FPU",
            "spin",
            1000,
            "First-play urgency: the value, in hundredths of a return, an untried move "
            "competes with in selection (PUCT adds its prior's exploration term). The "
            "default 1000 tries every move once before any move twice (classic UCT); "
            "lower values (e.g. 0) revisit good moves before trying the rest.",
            min=-100,
            max=1000,
        ),
        OptionSpec(
            "Priors",
            "check",
            True,
            "Select by PUCT with the game's move priors where it has them (with Policy "
            "auto only where the game says they pay: not Hex, whose compiled UCT walk is "
            "stronger; Policy puct uses Hex's); off = UCT (with Policy auto; Policy puct "
            "then spreads the priors evenly).",
        ),
        OptionSpec(
            "Policy",
            "combo",
            "auto",
            "The tree policy: uct, puct (the evaluation's move priors, even priors where it "
            "has none), auto = puct where the evaluation gives priors (the game's, with "
            "Priors on), else uct. RAVE blends into either.",
            choices=tuple(POLICIES),
        ),
        OptionSpec(
            "Evaluation",
            "combo",
            "playout",
            "What a simulation backs up from the tree's edge: playout = a random playout to "
            "the end (the game's own, compiled with Kernel); heuristic = the game's "
            "expected_return() or tanh(evaluate() / HeuristicScale), no playout (random "
            "playouts where the game has neither).",
            choices=tuple(EVALUATORS),
        ),
        OptionSpec(
            "HeuristicScale",
            "spin",
            300,
            "With Evaluation heuristic: the evaluate() value, in centi-units, that counts as "
            "a return of tanh(1) = 0.76 (returns go from -1 to +1).",
            min=1,
            max=100_000,
        ),
        OptionSpec(
            "Solver",
            "check",
            True,
            "MCTS-solver: prove wins, losses and draws in the tree (two-player zero-sum "
            "games without chance), never choose a proven loss, stop once the root is "
            "proven.",
        ),
        OptionSpec(
            "GameHooks",
            "check",
            True,
            "With the solver, use the game's solver hooks where it has them (Connect Four, "
            "Hex): below the root, a move that wins on the spot is the only one tried, and "
            "moves that let the opponent win on the spot are not tried at all.",
        ),
        OptionSpec(
            "Patterns",
            "check",
            True,
            "Playouts that answer the game's local patterns where it has them (Hex: a "
            "player answers an intrusion into their bridge, or into a bridge to their own "
            "edge, in its other cell, as MoHex does), compiled in the walk too. Off = "
            "uniformly random playouts.",
        ),
        OptionSpec(
            "RAVE",
            "combo",
            "auto",
            "Rapid action value estimation: blend each move's mean with its all-moves-as-"
            "first value, weighted by RAVEEquivalence. auto = where the game says it pays "
            "(Hex: it wins 9 of 10 games at equal time; in Connect Four it loses 8 of 10).",
            choices=("auto", "on", "off"),
        ),
        OptionSpec(
            "RAVEEquivalence",
            "spin",
            1000,
            "RAVE's equivalence parameter k: a move's AMAF weight is sqrt(k / (3n + k)) after "
            "n visits (about half at n = k/3).",
            min=1,
            max=1_000_000,
        ),
        OptionSpec(
            "Reuse",
            "check",
            True,
            "Keep the subtree of the position searched next when it follows the previous "
            "search's position by up to 4 moves (the Result's stats say how many visits).",
        ),
        OptionSpec(
            "TreeMemory",
            "spin",
            128,
            "Megabytes the tree may take (a few hundred bytes a node, a few kilobytes with "
            "RAVE on big boards); when it is full the search goes on with playouts from the "
            "tree's leaves without adding nodes (stats: tree_full).",
            min=1,
            max=4096,
        ),
        OptionSpec(
            "Kernel",
            "check",
            True,
            "Compiled search where the game has it: with random playouts and UCT (RAVE or "
            "not), the whole tree walk in C (Connect Four, Hex), simulation for simulation "
            "the Python search, about ten times as fast; else compiled playouts (Connect "
            "Four), move for move the game's own. Off = Python.",
        ),
        OptionSpec(
            "Seed",
            "spin",
            1,
            "Seed of the random numbers, set at the start of every search: a search with "
            "the same seed, position, tree and node limit gives the same result. 0 = a "
            "fresh random seed for each search.",
            min=0,
            max=2**31 - 1,
        ),
    )

    @classmethod
    def memory_mb(cls, options: Mapping[str, Any]) -> int:
        return int(options["TreeMemory"])

    def __init__(
        self, options: Mapping[str, Any] | None = None, *, evaluator: Evaluator | None = None
    ) -> None:
        """`evaluator`: a leaf evaluation of the caller's (a learned value, say) for every
        search, instead of the option `Evaluation`'s."""
        super().__init__(options)
        self._previous: tuple[Game, Node] | None = None
        """The position of the previous search and its tree (for reuse)."""
        self._evaluator = evaluator

    def new_game(self) -> None:
        self._previous = None

    def settings(self, state: Game) -> Settings:
        """The options, typed, for a search of `state`."""
        options = self.options
        rave = options["RAVE"] == "on" or (
            options["RAVE"] == "auto" and isinstance(state, Playout) and state.all_moves_as_first
        )
        priors = options["Priors"] and (
            options["Policy"] == "puct"
            or not isinstance(state, MovePriors)
            or state.priors_by_default
        )
        return Settings(
            exploration=options["Exploration"] / 100,
            fpu=options["FPU"] / 100,
            priors=priors,
            solver=options["Solver"],
            rave=options["RAVEEquivalence"] if rave else 0,
            max_bytes=options["TreeMemory"] * 2**20,
            kernel=options["Kernel"],
            hooks=options["GameHooks"],
            patterns=options["Patterns"],
            evaluation=options["Evaluation"],
            policy=options["Policy"],
            heuristic_scale=float(options["HeuristicScale"]),
        )

    def make_evaluator(self, state: Game, settings: Settings) -> Evaluator:
        """The leaf evaluation of a search of `state`: the one given to the constructor,
        else the option `Evaluation`'s (a subclass may plug in its own)."""
        if self._evaluator is not None:
            return self._evaluator
        return EVALUATORS[settings.evaluation](state, settings)

    def make_policy(self, settings: Settings, evaluator: Evaluator) -> TreePolicy:
        """The tree policy of a search: the option `Policy`'s, with RAVE when on."""
        return make_policy(settings, evaluator.gives_priors)

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        driver = SearchDriver(state, limits, context)
        if state.is_terminal():
            self._previous = None
            return terminal_result(state, driver.elapsed())
        candidates = root_candidates(state.legal_moves(), limits.search_moves)
        seed = self.options["Seed"]
        rng = random.Random(seed) if seed else random.Random()
        root_moves = candidates if limits.search_moves else None
        settings = self.settings(state)
        evaluator = self.make_evaluator(state, settings)
        policy = self.make_policy(settings, evaluator)
        board = _compiled_board(state, settings, evaluator, policy)
        node_type = Node if board is None else kernels.KernelNode
        # a stop or no time left ends it before the first simulation (0 nodes): the answer is
        # then the tree's, reused or fresh (`ranked_root_moves` lists every root move)
        root = self._reused_root(state, node_type) if not limits.search_moves else None
        reused = root.visits if root is not None else 0
        if root is None:
            root = node_type(None, NO_PLAYER)
        simulations: Simulations | kernels.Walk
        if board is None:
            simulations = Simulations(
                state, root, settings, rng, root_moves, evaluator=evaluator, policy=policy
            )
        else:
            simulations = kernels.Walk(board, root, settings, rng, root_moves)
        stop_reason = self._simulate(simulations, driver, limits)
        elapsed = driver.elapsed()
        self._report(simulations, driver, limits.multipv, elapsed)
        # a restricted root lacks moves: no later search may reuse it
        self._previous = None if limits.search_moves else (state.clone(), root)
        root_moves = ranked_root_moves(root, simulations.outcomes)
        best = root_moves[0]
        stats = {
            "playouts": float(simulations.playouts),
            "reused_visits": float(reused),
            "tree_nodes": float(simulations.nodes),
            "tree_bytes": float(simulations.bytes),
            "tree_full": 1.0 if simulations.full else 0.0,
            "average_depth": _average_depth(simulations),
            "solved": 1.0 if root.proven is not None else 0.0,
        }
        return Result(
            best_move=best.move,
            score=best.score,
            pv=list(best.pv),
            root_moves=root_moves,
            nodes=simulations.playouts,
            time=elapsed,
            depth=round(_average_depth(simulations)),
            seldepth=simulations.max_depth,
            stop_reason=stop_reason,
            stats=stats,
        )

    def _reused_root(self, state: Game, node_type: type) -> Node | None:
        """The previous search's subtree of `state`, where it is a tree of `node_type` (a
        tree of the compiled walk and one of the Python search do not mix)."""
        if self._previous is None or not self.options["Reuse"]:
            return None
        previous, root = self._previous
        if type(root) is not node_type:
            return None
        node = find_subtree(previous, root, state)
        if node is not None:
            node.move, node.mover, node.prior = None, NO_PLAYER, None
            if node.untried is not None:  # a root scores every move: add those pruned
                known = {child.move for child in node.children} | set(node.untried)
                node.untried[:0] = [move for move in state.legal_moves() if move not in known]
        return node

    def _simulate(
        self, simulations: Simulations | kernels.Walk, driver: SearchDriver, limits: Limits
    ) -> StopReason:
        """Simulations until a limit is reached or the root is proven; why it ended."""
        return poll_steps(
            simulations,
            driver,
            limits,
            lambda elapsed: self._report(simulations, driver, limits.multipv, elapsed),
        )

    def _report(
        self,
        simulations: Simulations | kernels.Walk,
        driver: SearchDriver,
        multipv: int,
        elapsed: float,
    ) -> None:
        root_moves = ranked_root_moves(simulations.root, simulations.outcomes)
        for index, line in enumerate(root_moves[: max(1, multipv)], start=1):
            driver.report(
                driver.info(
                    round(_average_depth(simulations)),
                    simulations.max_depth,
                    line.score,
                    simulations.playouts,
                    line.pv,
                    elapsed,
                    multipv=index,
                    root_moves=root_moves if index == 1 else [],
                )
            )


def _compiled_board(
    state: Game, settings: Settings, evaluator: Evaluator, policy: TreePolicy
) -> Any | None:
    """The compiled walk's board of `state` (`kernels.walk_for`) where option Kernel is on
    and the search is one the walk repeats: the built-in random playouts and UCT, with or
    without RAVE; else None (the Python search)."""
    if not settings.kernel or type(evaluator) not in (KernelPlayout, GamePlayout):
        return None
    base = policy.base if isinstance(policy, RAVE) else policy
    return kernels.walk_for(state) if type(base) is UCT else None


def ranked_root_moves(root: Node, odds: Mapping[Move, float] | None = None) -> list[RootMove]:
    """Every root move, best first: a proven win (the shortest), then by visits (ties by
    mean; a proven draw goes first when the most visited move's mean is no better),
    proven losses last (the longest first); untried moves after the tried ones. At a
    chance root (before the roll) the outcomes, each with its probability: the sampled ones
    by visits, then those not sampled yet, most likely first (so that a search cut before
    its first simulation answers the most likely outcome, as expectimax does). `odds`: a
    chance root's outcomes and their probabilities (`Simulations.outcomes`)."""
    odds = odds or {}
    children = sorted(root.children, key=_rank, reverse=True)
    draw = next((child for child in children if child.proven == 0), None)
    if draw is not None and children[0].proven is None and children[0].mean <= 0:
        children.remove(draw)
        children.insert(0, draw)
    moves = [
        RootMove(
            child.move,
            child_score(child),
            principal_variation(child),
            child.prior,
            odds.get(child.move),
        )
        for child in children
    ]
    for move in reversed(root.untried or []):
        prior = root.priors.get(move) if root.priors else None
        moves.append(RootMove(move, Score(ScoreKind.HEURISTIC, visits=0), [move], prior))
    sampled = {child.move for child in children}
    unsampled = [(move, p) for move, p in odds.items() if move not in sampled]
    for move, probability in sorted(unsampled, key=lambda outcome: -outcome[1]):  # stable
        score = Score(ScoreKind.HEURISTIC, visits=0)
        moves.append(RootMove(move, score, [move], probability=probability))
    return moves


def _rank(child: Node) -> tuple[int, int, int, float]:
    proven = child.proven
    if proven == 1:
        return (2, -child.plies, child.visits, child.mean)
    if proven == -1:
        return (0, child.plies, child.visits, child.mean)
    return (1, 0, child.visits, child.mean)


def child_score(child: Node) -> Score:
    """A root move's score, for the player making it (its mover); in games of three
    players and more with every player's mean return (`values`)."""
    visits = child.visits
    win = child.wins / visits if visits else None
    draw = child.draws / visits if visits else None
    loss = 1.0 - win - draw if visits else None
    totals = child.totals
    values = tuple(total / visits for total in totals) if totals is not None and visits else None
    estimates = {"win": win, "draw": draw, "loss": loss, "visits": visits, "values": values}
    if child.proven == 1:
        return Score(ScoreKind.WIN, plies=child.plies + 1, **estimates)
    if child.proven == -1:
        return Score(ScoreKind.LOSS, plies=child.plies + 1, **estimates)
    if child.proven == 0:
        return Score(ScoreKind.DRAW, **estimates)
    if child.optimistic == 0:  # the solver knows it cannot win
        return Score(ScoreKind.DRAW, bound=Bound.UPPER, **estimates)
    if child.pessimistic == 0:  # ... or that it cannot lose
        return Score(ScoreKind.DRAW, bound=Bound.LOWER, **estimates)
    return Score(ScoreKind.HEURISTIC, value=round(100 * child.mean), **estimates)


def principal_variation(child: Node) -> list[Move]:
    """`child`'s move, then the most visited children down the tree (a proven win
    first)."""
    line = [child.move]
    node = child
    while node.children:
        node = max(node.children, key=_rank)
        if not node.visits:
            break
        line.append(node.move)
    return line


def _average_depth(simulations: Simulations | kernels.Walk) -> float:
    playouts = simulations.playouts
    return simulations.depth_total / playouts if playouts else 0.0
