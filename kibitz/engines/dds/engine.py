"""The `dds` engine: the exact double-dummy value of a bridge deal (docs/engines.md, "Double
dummy").

It reads a full state through the shared bridge accessors (`seat_to_play`, `hand_masks`,
`strain`, `current_trick`, `tricks_taken`, `tricks_left`) and solves every legal card with the
double-dummy solver (`solver.Solver.solve_cards`, in its compiled kernel where built). Each
root move's score is the final return it leads to with best play by all four hands, in the
game's units (tricks of the side to move minus the other side's, since the position's
start): a HEURISTIC score carrying the exact expectation (`Score.expected`), bound EXACT;
`Result.stats["tricks"]` is the best card's tricks for the side to move of the remaining
ones (the current trick included). A view (one seat's knowledge) is refused: it hides the
cards a double-dummy solution needs (search sampled deals with `pimc`).

A stop, the node limit or the deadline (polled every `solver.POLL_NODES` nodes, or at the
node limit where that comes first) ends the search with the first legal card and the game's
quick-trick evaluation, unproven.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from kibitz.engines.base import (
    Engine,
    OptionError,
    OptionSpec,
    Requirements,
    SearchContext,
)
from kibitz.engines.dds import KernelSolver, solver
from kibitz.engines.driver import SearchDriver, root_candidates, terminal_result, unsearched_result
from kibitz.engines.types import Limits, Result, RootMove, Score
from kibitz.games import Game
from kibitz.vocabulary import Bound, ScoreKind, StopReason

ACCESSORS = (
    "seat_to_play",
    "hand_masks",
    "strain",
    "current_trick",
    "tricks_taken",
    "tricks_left",
)
"""What the solver reads of a game (the shared bridge representation)."""


class DoubleDummyRequirements(Requirements):
    """Two players, no chance, hidden information (a full deal is searched), and the
    double-dummy accessors."""

    def unmet(self, game: type[Game]) -> list[str]:
        missing = super().unmet(game)
        lacking = [name for name in ACCESSORS if not callable(getattr(game, name, None))]
        if lacking:
            missing.append(f"the double-dummy accessors ({', '.join(lacking)})")
        return missing


class DoubleDummy(Engine):
    """Exact double-dummy card play for bridge."""

    name: ClassVar[str] = "dds"
    description: ClassVar[str] = (
        "Double-dummy bridge solver after DDS: null-window alpha-beta on tricks, quick "
        "tricks, a table keyed on relative ranks with winning ranks, equivalent cards "
        "merged and DDS's move ordering. Answers every legal card's exact tricks."
    )
    requires: ClassVar[Requirements] = DoubleDummyRequirements(
        players=(2, 2), chance=False, hidden=True
    )
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "Kernel",
            "check",
            True,
            "Search in the compiled kernel (the same search, node for node, much faster); "
            "off, or where it was not built, the pure-Python solver.",
        ),
    )

    def new_game(self) -> None:
        """Nothing is kept between searches."""

    @classmethod
    def check_options_at(cls, state: Game, options: Mapping[str, Any]) -> None:
        if getattr(state, "is_view", lambda: False)():
            raise OptionError(
                "engine dds solves a full deal, and this position is one seat's view of it "
                "(search sampled deals with the engine pimc)"
            )

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        self.check_options_at(state, self.options)
        driver = SearchDriver(state, limits, context)
        if state.is_terminal():
            return terminal_result(state, driver.elapsed())
        game: Any = state
        candidates = root_candidates(state.legal_moves(), limits.search_moves)
        guess = Score(ScoreKind.HEURISTIC, value=state.evaluate())  # type: ignore[attr-defined]
        reason = driver.unstarted()
        if reason is not None:
            return unsearched_result(candidates[0], guess, driver.elapsed(), reason)
        use_kernel = self.options["Kernel"] and KernelSolver is not None
        every = solver.POLL_NODES
        if driver.node_limit is not None:
            every = max(1, min(every, driver.node_limit))
        engine = (KernelSolver if use_kernel else solver.Solver)(game.strain(), every)
        stopped: list[StopReason] = []

        def poll() -> bool:
            elapsed = driver.elapsed()
            why = driver.stop_reason(engine.nodes, elapsed)
            if why is not None:
                stopped.append(why)
                return True
            if driver.info_due(elapsed):
                root = RootMove(candidates[0], guess, [candidates[0]])
                info = driver.info(0, 0, guess, engine.nodes, [candidates[0]], elapsed)
                info.root_moves = [root]
                driver.report(info)
            return False

        engine.poll = poll
        seat = game.seat_to_play()
        trick = game.current_trick()
        depth = 4 * game.tricks_left() - len(trick)
        try:
            tricks = engine.solve_cards(game.hand_masks(), seat, trick)
        except solver.SearchStopped:
            elapsed = driver.elapsed()
            result = unsearched_result(candidates[0], guess, elapsed, stopped[0])
            result.nodes = engine.nodes
            info = driver.info(0, 0, guess, engine.nodes, result.pv, elapsed)
            info.root_moves = result.root_moves
            driver.report(info)
            return result
        taken = game.tricks_taken()
        side, left = seat % 2, game.tricks_left()
        lead = taken[side] - taken[1 - side] - left

        def score(card: int) -> Score:
            return Score.from_expected(float(lead + 2 * tricks[card]), Bound.EXACT)

        ranked = sorted(candidates, key=lambda card: -tricks[card])  # stable: ties keep order
        root_moves = [RootMove(card, score(card), [card]) for card in ranked]
        best = ranked[0]
        elapsed = driver.elapsed()
        info = driver.info(depth, depth, score(best), engine.nodes, [best], elapsed)
        info.root_moves = root_moves
        driver.report(info)
        return Result(
            best,
            score(best),
            [best],
            root_moves,
            engine.nodes,
            elapsed,
            depth,
            depth,
            StopReason.SOLVED,
            {"tricks": float(tricks[best]), "kernel": 1.0 if use_kernel else 0.0},
        )
