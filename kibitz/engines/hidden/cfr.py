"""The `cfr` engine: counterfactual regret minimization over the whole tree of a small game
of hidden information (docs/engines.md, "Hidden information: cfr and pimc").

The tree is built once from the game's start and kept with its regrets and averages between
searches of the same game, so that each search adds iterations to the same equilibrium and
every information set of a session is answered from one strategy profile. A search answers
the information set of the position's player (`view(player)`): each move's probability in
the average strategy and its expected return given what the player knows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from kibitz.engines.base import OptionSpec, SearchContext
from kibitz.engines.driver import (
    SearchDriver,
    root_candidates,
    terminal_result,
)
from kibitz.engines.hidden import common
from kibitz.engines.hidden.common import Line
from kibitz.engines.hidden.tree import (
    POLL_NODES,
    GameTree,
    Interrupted,
    Profile,
    Solver,
    normalised,
)
from kibitz.engines.types import Limits, Result
from kibitz.games import CHANCE, Game, HiddenInformation, Move
from kibitz.vocabulary import StopReason

DEFAULT_ITERATIONS = 1000
"""The iterations a search runs the tables up to when no depth limit is given."""


class CFR(common.HiddenEngine):
    """CFR+ (or vanilla CFR) over the whole game tree; see the module docstring."""

    name: ClassVar[str] = "cfr"
    description: ClassVar[str] = (
        "Counterfactual regret minimization for games of hidden information small enough to "
        "enumerate (Kuhn and Leduc poker): CFR+ (regret matching+, alternating updates, "
        "linear averaging) over the whole tree from the deal, information sets keyed by the "
        "players' views. Answers the position's information set: every move's probability "
        "in the average strategy and its expected return; the game's value and NashConv in "
        "the statistics. A depth limit is the number of iterations (1000 by default), kept "
        "between searches of one game."
    )
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "Variant",
            "combo",
            "cfr+",
            "cfr+: regrets floored at 0 after each iteration, the average strategy weighted "
            "by the iteration (Tammelin 2014); cfr: plain regret matching, uniform average. "
            "Both update the players in turn. Changing it starts the tables afresh.",
            choices=("cfr+", "cfr"),
        ),
        OptionSpec(
            "NashConv",
            "check",
            True,
            "Compute the average strategy's NashConv (best responses over the whole tree; "
            "about one iteration's work) into the statistics at the end of each search.",
        ),
    )

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self._solver: Solver | None = None
        self._profile: tuple[Solver, int, Profile] | None = None
        """The average strategy's profile, with the solver and iterations it is of."""
        super().__init__(options)

    def set_options(self, options: Mapping[str, Any]) -> None:
        variant = self.options.get("Variant")
        super().set_options(options)
        if self.options["Variant"] != variant:
            self._solver = self._profile = None

    def new_game(self) -> None:
        self._solver = self._profile = None

    def close(self) -> None:
        self._solver = self._profile = None

    def _average(self, solver: Solver) -> Profile:
        """The average strategy's profile, evaluated again only after more iterations (a
        session asking about every information set in turn pays for one walk of the tree)."""
        kept = self._profile
        if kept is None or kept[0] is not solver or kept[1] != solver.iterations:
            profile = Profile(solver.tree, solver.average())
            kept = self._profile = (solver, solver.iterations, profile)
        return kept[2]

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        driver = SearchDriver(state, limits, context)
        if state.is_terminal():
            return terminal_result(state, driver.elapsed())
        player = common.answered_player(state)
        chance = state.to_move() == CHANCE
        moves = [move for move, _ in state.chance_outcomes()] if chance else state.legal_moves()
        candidates = root_candidates(moves, limits.search_moves)
        solver = self._solver if self._solver and self._solver.tree.game is type(state) else None
        nodes, elapsed = 0, driver.began
        reason = driver.unstarted()
        if solver is None and reason is None:
            every = min(POLL_NODES, driver.node_limit or POLL_NODES) or 1
            try:
                tree = GameTree(
                    type(state), lambda count: _poll(driver, count, candidates[0]), every
                )
            except Interrupted as cut:
                reason, nodes, elapsed = cut.args
            else:
                solver = self._solver = Solver(tree, plus=self.options["Variant"] == "cfr+")
                nodes = len(tree)
        if solver is None:  # stopped before the tree was built: the first move, unvalued
            line = Line(candidates[0], 0.0)
            driver.report(common.info(driver, [line], 0.0, 0, nodes, elapsed))
            return common.result(driver, [line], 0.0, 0, nodes, reason, {})

        def report(nodes: int) -> None:
            lines, value = _answer(state, player, candidates, self._average(solver), chance)
            driver.report(common.info(driver, lines, value, solver.iterations, nodes))

        if reason is None:
            reason, nodes = _iterate(solver, driver, limits, nodes, report)
        profile = self._average(solver)
        lines, value = _answer(state, player, candidates, profile, chance)
        stats = {
            "iterations": float(solver.iterations),
            "game_value": profile.values[solver.tree.root][player],
            "tree_nodes": float(len(solver.tree)),
            "infosets": float(len(solver.tree.infosets)),
        }
        if self.options["NashConv"]:
            stats["nash_conv"] = profile.nash_conv
        return common.result(driver, lines, value, solver.iterations, nodes, reason, stats)


def _poll(driver: SearchDriver, nodes: int, move: Move) -> None:
    """Raise Interrupted(reason, nodes, elapsed) where a limit ends the building of the
    tree; report the first move, unvalued, when an Info is due."""
    elapsed = driver.elapsed()
    reason = driver.stop_reason(nodes, elapsed)
    if reason is not None:
        raise Interrupted(reason, nodes, elapsed)
    if driver.info_due(elapsed):
        driver.report(common.info(driver, [Line(move, 0.0)], 0.0, 0, nodes, elapsed))


def _iterate(
    solver: Solver,
    driver: SearchDriver,
    limits: Limits,
    nodes: int,
    report: Callable[[int], None],
) -> tuple[StopReason, int]:
    """Iterations until a limit ends them, `report(nodes)` after iterations 1, 2, 4, ...
    and when an Info is due; `nodes` were spent building the tree. Returns why they ended
    and the search's nodes."""
    target = None if limits.infinite else limits.depth or DEFAULT_ITERATIONS
    cost = solver.iteration_nodes
    next_info = solver.iterations + 1
    while True:
        first = solver.iterations == 0
        elapsed = driver.elapsed()
        if target is not None and solver.iterations >= target:
            return StopReason.DEPTH, nodes
        reason = driver.stop_reason(nodes, elapsed, first_step=first)
        if reason is None and not first:
            limit = driver.node_limit
            if limit is not None and nodes + cost > limit:
                reason = StopReason.NODES
            elif driver.target_passed(elapsed):
                reason = StopReason.TIME
        if reason is not None:
            return reason, nodes
        solver.iterate()
        nodes += cost
        if solver.iterations >= next_info or driver.info_due(driver.elapsed()):
            next_info = max(next_info, solver.iterations) * 2
            report(nodes)


def _answer(
    state: Game, player: int, candidates: list, profile: Profile, chance: bool
) -> tuple[list[Line], float]:
    """The root moves, most probable first, and the position's value to `player`."""
    if chance:
        outcomes = dict(state.chance_outcomes())
        lines = []
        for move in candidates:
            state.play(move)
            lines.append(Line(move, _state_value(state, profile, player), outcomes[move]))
            state.undo()
        weights = normalised([line.probability for line in lines])
        value = sum(w * line.value for w, line in zip(weights, lines, strict=True))
    else:
        assert isinstance(state, HiddenInformation)
        tree = profile.tree
        index = tree.index.get((player, state.view(player)))
        if index is None:
            raise ValueError(
                f"the view {state.view(player)!r} is not reached from the start of {tree.game.name}"
            )
        info = tree.infosets[index]
        strategy, values = profile.strategies[index], profile.move_values(index)
        value = sum(s * v for s, v in zip(strategy, values, strict=True))
        lines = [
            Line(move, values[a], strategy[a])
            for a, move in enumerate(info.moves)
            if move in candidates
        ]
    lines.sort(key=lambda line: -(line.probability or 0.0))
    return lines, value


def _state_value(state: Game, profile: Profile, player: int) -> float:
    """`player`'s expected return from the full state `state` on under the profile's
    strategies (an information set the tree lacks plays uniformly)."""
    if state.is_terminal():
        return state.returns()[player]
    mover = state.to_move()
    if mover == CHANCE:
        weighted = state.chance_outcomes()
    else:
        assert isinstance(state, HiddenInformation)
        moves = state.legal_moves()
        index = profile.tree.index.get((mover, state.view(mover)))
        strategy = (
            profile.strategies[index] if index is not None else normalised([1.0] * len(moves))
        )
        weighted = list(zip(moves, strategy, strict=True))
    total = 0.0
    for move, p in weighted:
        state.play(move)
        total += p * _state_value(state, profile, player)
        state.undo()
    return total
