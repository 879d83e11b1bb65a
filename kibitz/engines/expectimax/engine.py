"""The `expectimax` engine: options, the table kept between searches, one search's set-up
and its answer.

The search is in `root.py` (iterative deepening, root moves, principal variations) and
`nodes.py` (decision and chance nodes, Star1/Star2 pruning, the table), with `kernel.py`
where the game has a compiled kernel (`ExpectimaxKernel`) and `batched.py` where the
estimate chosen (option `Evaluation`, the game's `EstimateSources`) values many leaves
together (backgammon's TD network); docs/engines.md, "expectimax", describes the algorithm.
The engine names no game: the options `Evaluation` and `Bearoff` set up the position to
search through the game's capabilities (`EstimateSources`, `EndgameTable`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from kibitz.engines.alphabeta.table import ENTRY_BYTES, TranspositionTable, entries_for_mb
from kibitz.engines.base import (
    Engine,
    OptionError,
    OptionSpec,
    OptionUnavailable,
    Requirements,
    SearchContext,
)
from kibitz.engines.driver import SearchDriver, root_candidates, terminal_result
from kibitz.engines.expectimax.batched import BatchedNodeSearch
from kibitz.engines.expectimax.kernel import KernelNodeSearch, kernel_for
from kibitz.engines.expectimax.nodes import NodeSearch
from kibitz.engines.expectimax.root import RootSearch
from kibitz.engines.types import Limits, Result, Score
from kibitz.games import CHANCE, Game, quoted
from kibitz.games.capabilities import (
    EndgameTable,
    EstimateSources,
    ExpectedReturn,
    MoveOrdering,
)
from kibitz.vocabulary import Bound

DEFAULT_MAX_DEPTH = 64
"""The deepest iteration of a search without a depth limit (decisions)."""
OWN_ESTIMATE = "formula"
"""The `Evaluation` every game has: the estimate a position starts with (the first of
`EstimateSources.estimate_names`)."""
STRONGEST_ESTIMATE = "auto"
"""The `Evaluation` that names the game's strongest estimate
(`EstimateSources.strongest_estimate`; its own, formula, without a choice)."""


def chosen_estimate(game_cls: type[Game], evaluation: str) -> str:
    """The estimate option Evaluation chooses for `game_cls`: `evaluation` itself but for
    auto, which is the game's strongest."""
    if evaluation != STRONGEST_ESTIMATE:
        return evaluation
    if issubclass(game_cls, EstimateSources):
        return game_cls.strongest_estimate
    return OWN_ESTIMATE


class Expectimax(Engine):
    """Expectiminimax with Star1/Star2 pruning; see the module docstring."""

    name: ClassVar[str] = "expectimax"
    description: ClassVar[str] = (
        "Expectiminimax for games with dice: iterative deepening where depth counts "
        "decisions (a chance node adds none), alpha-beta at decision nodes, Star1 and "
        "Star2 pruning at chance nodes from the game's bounds on its returns, a "
        "transposition table, the previous iteration's best moves first. Scores are "
        "expected returns (backgammon: cubeless equity). Works before the roll (the "
        "expected value and every outcome's best move) and after it."
    )
    requires: ClassVar[Requirements] = Requirements(
        players=(2, 2), zero_sum_only=True, capabilities=(ExpectedReturn,)
    )
    inline_nodes: ClassVar[int] = 200
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "Hash",
            "spin",
            16,
            "Transposition table size in MB (about 160 bytes per entry; decision nodes "
            "only, and only where the game has hash keys); 0 = no table. Kept between "
            "searches; cleared on new game.",
            min=0,
            max=4096,
        ),
        OptionSpec(
            "Star1",
            "check",
            True,
            "Star1 pruning: search each chance outcome in the window outside which the "
            "chance node's value is decided whatever the other outcomes are worth (they "
            "lie within the game's return bounds). Off = plain expectiminimax at chance "
            "nodes (and no Star2).",
        ),
        OptionSpec(
            "ExactRoot",
            "check",
            True,
            "Give every root move its exact value (as backgammon programs list every play "
            "with its equity), not only the best `multipv` ones. Off = the others end with "
            "an upper bound as soon as pruning shows they are worse: faster, for play.",
        ),
        OptionSpec(
            "Star2",
            "check",
            True,
            "Star2 probing (needs Star1): before the full searches, search one move of "
            "each outcome's decision node; its value bounds the outcome's and can decide "
            "the chance node without the rest.",
        ),
        OptionSpec(
            "Kernel",
            "check",
            True,
            "Use the game's compiled kernel where it has one (backgammon: move generation, "
            "the estimate, formula or network, and the two levels of the tree above the "
            "leaves in C): the same nodes, values and moves as the pure-Python search, "
            "25-35 times as fast. Off = the pure-Python reference.",
        ),
        OptionSpec(
            "Bearoff",
            "combo",
            "auto",
            "Backgammon: where both sides have every checker home, the estimate is the "
            "one-sided bear-off database's exact race chances (built once by `python -m "
            "kibitz.games.backgammon.bearoff build`) instead of the race curves. auto = "
            "where the database is built; on = always (refused where it is not built); "
            "off = the race curves.",
            choices=("auto", "on", "off"),
        ),
        OptionSpec(
            "Evaluation",
            "combo",
            STRONGEST_ESTIMATE,
            "Backgammon: the estimate at the leaves. auto = the game's strongest (backgammon: "
            "network; formula for a game with no other); formula = the curves fitted to GNU "
            "Backgammon (pubeval, race counts); network = the TD-Gammon network shipped with "
            "kibitz (kibitz/games/backgammon/data/td.npz), the bear-off database still "
            "answering where Bearoff uses it; stronger at every depth measured, and about "
            "four times the formula's time with Kernel on (the kernel computes it in C). With "
            "Kernel off it is evaluated in numpy, each decision node above the leaves valuing "
            "its plays in one batch (run with OPENBLAS_NUM_THREADS=1: numpy's threads only "
            "spin on such small products).",
            choices=(STRONGEST_ESTIMATE, OWN_ESTIMATE, "network"),
        ),
    )
    estimate_options: ClassVar[tuple[str, ...]] = ("Bearoff", "Evaluation")
    """The options that change the estimate: a change empties the table, whose values
    were found with the old one."""

    @classmethod
    def memory_mb(cls, options: Mapping[str, Any]) -> int:
        return int(options["Hash"])

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self._table = TranspositionTable(0)
        super().__init__(options)

    def _sized_table(self) -> TranspositionTable:
        """The table kept between searches, replaced when the Hash option changes."""
        entries = entries_for_mb(int(self.options["Hash"]), ENTRY_BYTES)
        if self._table.size != entries:
            self.close()
            self._table = TranspositionTable(entries)
        return self._table

    def new_game(self) -> None:
        self._table.clear()

    def set_options(self, options: Mapping[str, Any]) -> None:
        before = [self.options[name] for name in self.estimate_options]
        super().set_options(options)
        if before != [self.options[name] for name in self.estimate_options]:
            self._table.clear()

    def close(self) -> None:
        """Let go of the table, emptied first (in steps: see `TranspositionTable.clear`)."""
        self._table.clear()
        self._table = TranspositionTable(0)

    @classmethod
    def check_options_for(cls, game_cls: type[Game], options: Mapping[str, Any]) -> None:
        """OptionError where `Evaluation` is not one of the game's estimates (its
        `EstimateSources`; formula, its own, without them) or `Bearoff` is on for a game
        without an `EndgameTable`."""
        estimate = options["Evaluation"]
        offered = (
            game_cls.estimate_names if issubclass(game_cls, EstimateSources) else (OWN_ESTIMATE,)
        )
        if chosen_estimate(game_cls, estimate) not in offered:
            raise OptionError(
                f"option Evaluation: {quoted(estimate)} is not an estimate of {game_cls.name} "
                f"(it has {STRONGEST_ESTIMATE}, {', '.join(offered)})"
            )
        if options["Bearoff"] == "on" and not issubclass(game_cls, EndgameTable):
            raise OptionError(
                f"option Bearoff: 'on' needs an endgame table, and {game_cls.name} has none "
                "(auto, off)"
            )

    @classmethod
    def check_options_at(cls, state: Game, options: Mapping[str, Any]) -> None:
        """OptionUnavailable where `Bearoff` is on and the game's endgame table is not
        built (the game's message names the command that builds it)."""
        with_table(state, options["Bearoff"])

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        self.check_options_for(type(state), self.options)
        driver = SearchDriver(state, limits, context)
        if state.is_terminal():
            return terminal_result(state, driver.elapsed())
        state = with_table(state, self.options["Bearoff"])
        estimate = chosen_estimate(type(state), self.options["Evaluation"])
        if isinstance(state, EstimateSources):
            state = state.with_estimate(estimate)
        table = self._sized_table()
        table.new_search()
        switches = {"star1": self.options["Star1"], "star2": self.options["Star2"]}
        kernel = kernel_for(type(state), estimate) if self.options["Kernel"] else None
        if kernel is not None:
            nodes: NodeSearch = KernelNodeSearch(kernel, state, table, **switches)
        elif isinstance(state, EstimateSources) and state.batched():
            nodes = BatchedNodeSearch(state, table, **switches)
        else:
            nodes = NodeSearch(state, table, **switches)
        if state.to_move() == CHANCE or not isinstance(state, MoveOrdering):
            ordered = state.legal_moves()
        else:
            ordered = state.ordered_moves()
        moves = root_candidates(ordered, limits.search_moves)
        multipv = len(moves) if self.options["ExactRoot"] else limits.multipv
        root = RootSearch(nodes, driver, moves, multipv)
        max_depth = DEFAULT_MAX_DEPTH
        if limits.depth is not None and not limits.infinite and not limits.solve:
            max_depth = max(1, limits.depth)
        unstarted = driver.unstarted()
        if unstarted is not None:  # stopped, or no time left: the moves' estimates
            root.answer = root.static_lines()
            root.add_chances(root.answer)
            completed_depth, solved, stop_reason = 0, False, unstarted
        else:
            completed_depth, solved, stop_reason = root.deepen(max_depth)

        elapsed = driver.elapsed()
        lines = root.answer
        bound = Bound.EXACT if root.chance else lines[0].bound
        running = elapsed - driver.began
        stats: dict[str, float] = {
            "decision_nodes": float(nodes.decision_nodes),
            "chance_nodes": float(nodes.chance_nodes),
            "leaves": float(nodes.leaves),
            "star2_probes": float(nodes.probes),
            "tt_hits": float(table.hits),
            "tt_probes": float(table.probes),
            "hashfull": float(table.hashfull()),
            "solved": 1.0 if solved else 0.0,
            "nps": nodes.nodes / running if running > 0 else 0.0,
        }
        counts = root.iteration_nodes
        if len(counts) >= 2 and counts[-2] > 0:
            stats["ebf"] = counts[-1] / counts[-2]
        best = lines[0]
        return Result(
            best_move=best.move,
            score=Score.from_expected(root.value(), bound, root.chances()),
            pv=list(best.pv),
            root_moves=[line.to_root_move() for line in lines],
            nodes=nodes.nodes,
            time=elapsed,
            depth=completed_depth,
            seldepth=completed_depth,
            stop_reason=stop_reason,
            stats=stats,
        )


def with_table(state: Game, mode: str) -> Game:
    """The position to search under the option `Bearoff` = `mode`: where the game has an
    `EndgameTable`, `state` using it where it is used (auto: where it is built) and not
    elsewhere (a copy where that changes it); OptionUnavailable where `mode` is on and the
    table is not built."""
    if not isinstance(state, EndgameTable):
        return state
    if mode != "off":
        try:
            return state.with_endgame_table(True)
        except FileNotFoundError as exc:
            if mode == "on":
                raise OptionUnavailable(f"option Bearoff: {exc}") from None
    return state.with_endgame_table(False)
