"""What the single-agent engines share: the options every one has, the heuristic chosen,
one search's plan, node counting and polling, and the search's frame (a position at the
goal, a search stopped before it began, the final report and Result).

Each engine writes only its algorithm: `PuzzleEngine.run(state, plan, progress)` returns a
`Finish`. docs/engines.md, "Single-agent search", describes the engines.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

from kibitz.engines.base import (
    Engine,
    OptionError,
    OptionSpec,
    OptionUnavailable,
    SearchContext,
)
from kibitz.engines.driver import SearchDriver, root_candidates, terminal_result
from kibitz.engines.single.answer import Outcome, report, result_of
from kibitz.engines.types import Limits, Result
from kibitz.games import Game, Move
from kibitz.games.capabilities import Puzzle
from kibitz.vocabulary import StopReason

CHECK_EVERY = 1024
"""Nodes between polls of the limits, at most (fewer where nodes are slow)."""

HEURISTIC_OPTION = OptionSpec(
    "Heuristic",
    "string",
    "",
    "The game's heuristic to search with, one of its heuristic names (kibitz games lists "
    "them with the game); empty = the game's strongest (its first). The sliding puzzle's "
    "pdb (the 15-puzzle's pattern databases, built beforehand) is checked on the position.",
)


class Halt(Exception):
    """Raised inside a search to end it at once for `reason` (a limit, a stop)."""

    def __init__(self, reason: StopReason) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Plan:
    """One search's set-up, the same for every algorithm."""

    heuristic: Callable[[], int]
    """h of the current position (0 everywhere for the uninformed algorithms)."""
    root_moves: list[Move]
    """The root's moves in the game's order, restricted to `search_moves`."""
    cost_limit: int | None
    """The `depth` limit as a bound on a solution's cost (None: none)."""
    unit_costs: bool


@dataclass
class Finish:
    """How a search ended: what it knows, its counters and why it ended."""

    outcome: Outcome
    nodes: int
    depth: int
    """The cost bound searched (IDA*'s last threshold; A*'s largest f expanded)."""
    seldepth: int
    """The most moves of a line searched."""
    reason: StopReason


class Progress:
    """Node counting, polling of the limits and progress reports of one search."""

    __slots__ = ("driver", "first", "next_check", "nodes", "unit_costs")

    def __init__(self, driver: SearchDriver, plan: Plan) -> None:
        self.driver = driver
        self.unit_costs = plan.unit_costs
        self.first = plan.root_moves[0]
        self.nodes = 0
        self.next_check = driver.next_check(0, 0.0, CHECK_EVERY)

    def poll(self, now: Callable[[], Finish]) -> None:
        """At `next_check`: raise `Halt` if the search must end (node limit, stop, hard
        deadline, or the target time of a clock: a puzzle has no iteration worth finishing
        past it); else send a periodic Info of the answer `now()` if one is due."""
        driver = self.driver
        elapsed = driver.elapsed()
        reason = driver.stop_reason(self.nodes, elapsed)
        if reason is None and driver.target_passed(elapsed):
            reason = StopReason.TIME
        if reason is not None:
            raise Halt(reason)
        if driver.info_due(elapsed):
            self.send(now())
        self.next_check = driver.next_check(self.nodes, elapsed, CHECK_EVERY)

    def send(self, finish: Finish) -> None:
        """An Info with the answer of `finish`."""
        report(
            self.driver,
            finish.outcome,
            unit_costs=self.unit_costs,
            first=self.first,
            nodes=finish.nodes,
            depth=finish.depth,
            seldepth=finish.seldepth,
        )


def heuristic_of(state: Game, name: str, informed: bool) -> Callable[[], int]:
    """h for `state` as it moves: the game's heuristic `name` ("" = its strongest; checked
    by `check_options_for`), or 0 for an uninformed search."""
    assert isinstance(state, Puzzle)
    return partial(state.heuristic, name) if informed else lambda: 0


def cost_limit_of(limits: Limits) -> int | None:
    """The `depth` limit read as a cost bound (not with `solve` or `infinite`)."""
    if limits.depth is None or limits.infinite or limits.solve:
        return None
    return max(0, limits.depth)


class PuzzleEngine(Engine):
    """A single-agent search: the frame every algorithm shares (see the module docstring)."""

    uninformed: ClassVar[frozenset[str]] = frozenset()
    """The `Algorithm` choices that search with h = 0."""

    def new_game(self) -> None:
        """Nothing is kept between searches."""

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        driver = SearchDriver(state, limits, context)
        if state.is_terminal():
            return terminal_result(state, driver.elapsed())
        assert isinstance(state, Puzzle)
        self.check_options_for(type(state), self.options)
        self.check_options_at(state, self.options)
        informed = self.options["Algorithm"] not in self.uninformed
        plan = Plan(
            heuristic=heuristic_of(state, self.options["Heuristic"], informed),
            root_moves=root_candidates(state.legal_moves(), limits.search_moves),
            cost_limit=cost_limit_of(limits),
            unit_costs=type(state).unit_costs,
        )
        progress = Progress(driver, plan)
        unstarted = driver.unstarted()
        if unstarted is not None:  # stopped, or no time left: the first move, h as bound
            h = plan.heuristic()
            finish = Finish(Outcome([], 0, h), 0, 0, 0, unstarted)
        else:
            finish = self.run(state, plan, progress)
            progress.send(finish)
        return result_of(
            finish.outcome,
            unit_costs=plan.unit_costs,
            first=progress.first,
            nodes=finish.nodes,
            depth=finish.depth,
            seldepth=finish.seldepth,
            driver=driver,
            stop_reason=finish.reason,
        )

    @classmethod
    def check_options_for(cls, game_cls: type[Game], options: Mapping[str, Any]) -> None:
        """OptionError for a `Heuristic` the game does not have (in its `heuristic_names`
        or its `optional_heuristics`)."""
        name = options.get("Heuristic", "")
        names = (
            *getattr(game_cls, "heuristic_names", ()),
            *getattr(game_cls, "optional_heuristics", ()),
        )
        if name and name not in names:
            offered = ", ".join(names) or "none named"
            raise OptionError(
                f"option Heuristic: {name!r} is not a heuristic of {game_cls.name} ({offered})"
            )

    @classmethod
    def check_options_at(cls, state: Game, options: Mapping[str, Any]) -> None:
        """The heuristic asked once at the root, as the search will ask it (an uninformed
        `Algorithm` asks none): OptionError where the game refuses it for this position
        (ValueError: the sliding puzzle's pdb on a board other than 4x4),
        OptionUnavailable where its data are missing (OSError: pdb's databases not built),
        each with the game's message."""
        if options.get("Algorithm") in cls.uninformed:
            return
        assert isinstance(state, Puzzle)
        try:
            state.heuristic(options.get("Heuristic", ""))
        except OSError as exc:
            raise OptionUnavailable(f"option Heuristic: {exc}") from None
        except ValueError as exc:
            raise OptionError(f"option Heuristic: {exc}") from None

    @abstractmethod
    def run(self, state: Game, plan: Plan, progress: Progress) -> Finish:
        """Search `state` (not at the goal) and leave it as it was."""
