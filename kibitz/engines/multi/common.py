"""What the engines for three players and more share (docs/engines.md, "Three players and
more"): the value vector of a leaf, the bounded constant-sum declaration shallow pruning
relies on, the table that keeps vectors, the options, the iterative deepening with its
polls, reports and result.

A value vector holds every player's value by player index, in the game's units of returns:
at a finished game its `returns()`, at the horizon the game's evaluation mapped into those
units (`leaf_values`). A search counts a node for every move it plays.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from kibitz.engines.alphabeta.nodes import Abort
from kibitz.engines.alphabeta.table import (
    BOUNDS,
    ENTRY_BYTES,
    EXACT,
    KeptTable,
    TranspositionTable,
)
from kibitz.engines.base import Engine, OptionSpec, Requirements, SearchContext
from kibitz.engines.driver import SearchDriver, root_candidates, unsearched_result
from kibitz.engines.types import MAX_PLY, Limits, Result, RootMove, Score
from kibitz.games import Game, Move
from kibitz.games.capabilities import Evaluation, HashKey, MoveOrdering
from kibitz.vocabulary import Bound, ScoreKind, StopReason

Values = tuple[float, ...]
"""A value vector: every player's value by player index, in units of returns."""

CHECK_EVERY = 512
"""Nodes between two polls of the clock and the stop signal, at most."""
VECTOR_BYTES = 120
"""What a table slot's value vector adds to `ENTRY_BYTES` (a tuple of a few floats)."""
VECTOR_ENTRY_BYTES = ENTRY_BYTES + VECTOR_BYTES
"""A slot of the table with its value vector."""


@dataclass(frozen=True, slots=True)
class SumBounds:
    """A game's declaration that its returns are bounded and constant-sum: every finished
    game's returns add up to `total`, no player's return is below `least` and, where
    given, none above `greatest`. A game declares it with the class (or instance)
    attribute ``bounded_sum = (total, least)`` or ``(total, least, greatest)``: Chinese
    checkers' is ``(0.0, -1.0)`` (the winner n - 1, everyone else -1), three-player Nim's
    ``(0.0, -1.0, 1.0)``."""

    total: float
    least: float
    greatest: float | None = None

    def most(self, players: int) -> float:
        """The largest value a player can have: `greatest`, or everyone else at `least`."""
        derived = self.total - (players - 1) * self.least
        return derived if self.greatest is None else min(derived, self.greatest)


def sum_bounds(state: Game) -> SumBounds | None:
    """The game's `bounded_sum` declaration, or None where it declares none."""
    declared = getattr(state, "bounded_sum", None)
    return None if declared is None else SumBounds(*declared)


def leaf_values(state: Game, bounds: SumBounds | None) -> Values:
    """The value vector of a leaf: `returns()` at a finished game; else each player's
    `evaluate(player)` / 100 (centi-units to units), or 0 for everyone where the game has
    no evaluation. Where the game declares `bounds`, a heuristic vector is then mapped into
    them: shifted by a common amount so that it adds up to `total`, and where a player
    would be below `least` (or above `greatest`), every player's distance from the even
    share `total / n` shrunk by one factor until none is: shallow pruning needs heuristic
    leaves within the bounds as much as finished games."""
    if state.is_terminal():
        return tuple(map(float, state.returns()))
    players = state.players
    if isinstance(state, Evaluation):
        raw = [state.evaluate(player) / 100 for player in range(players)]
    else:
        raw = [0.0] * players
    if bounds is None:
        return tuple(raw)
    share = bounds.total / players
    mean = sum(raw) / players
    deviations = [value - mean for value in raw]
    lowest, highest = min(deviations), max(deviations)
    factor = 1.0
    if share + lowest < bounds.least:
        factor = (share - bounds.least) / -lowest
    most = bounds.most(players)
    if share + highest > most:
        factor = min(factor, (most - share) / highest)
    return tuple(share + deviation * factor for deviation in deviations)


def vector_score(values: Values, player: int, bound: Bound = Bound.EXACT) -> Score:
    """The Score of a value vector for `player` (the side to move at the root): `value`
    their entry in centi-units, `values` the whole vector."""
    return Score(ScoreKind.HEURISTIC, value=round(100 * values[player]), bound=bound, values=values)


class VectorTable(TranspositionTable):
    """The transposition table of alpha-beta (`kibitz.engines.alphabeta.table`) with a
    value vector beside each entry: what an entry's score or bound came from."""

    __slots__ = ("vectors",)

    def __init__(self, entries: int) -> None:
        super().__init__(entries)
        self.vectors: list[Values | None] = [None] * entries

    def clear(self) -> None:
        super().clear()
        self.vectors = [None] * self.size

    def store_values(
        self, key: int, depth: int, score: int, bound: int, move: Move | None, values: Values
    ) -> None:
        """`store` (no win scores here: ply 0) and keep `values` where the entry went in."""
        self.store(key, depth, score, bound, move, 0)
        if self.size:
            index = key % self.size
            entry = self.slots[index]
            if entry is not None and entry.key == key and entry.depth == depth:
                self.vectors[index] = values

    def values_of(self, key: int) -> Values | None:
        """The vector stored with `key`'s entry (after a `probe` that found it)."""
        return self.vectors[key % self.size]


HASH_OPTION = OptionSpec(
    "Hash",
    "spin",
    16,
    "Transposition table size in MB (about 280 bytes per entry, its value vector "
    "included); 0 = no table. Kept between searches; cleared on new game.",
    min=0,
    max=4096,
)
KILLERS_OPTION = OptionSpec(
    "Killers",
    "check",
    True,
    "Try the two latest cutoff moves of the same ply early (killer heuristic), as alphabeta.",
)
HISTORY_OPTION = OptionSpec(
    "History",
    "check",
    True,
    "Order moves by how often they caused cutoffs before (history heuristic), as alphabeta.",
)


class Line:
    """One root move's latest value vector, its bound for the root player, and its line."""

    __slots__ = ("bound", "move", "pv", "values")

    def __init__(self, move: Move, values: Values, bound: int, pv: list[Move]) -> None:
        self.move = move
        self.values = values
        self.bound = bound
        self.pv = pv

    def to_root_move(self, player: int) -> RootMove:
        return RootMove(
            self.move, vector_score(self.values, player, BOUNDS[self.bound]), list(self.pv)
        )


class NodeCounter:
    """Plays and takes back moves on the searched position, counting a node per move and
    polling the driver every few: the part of a node search every engine here shares."""

    def __init__(self, state: Game, driver: SearchDriver) -> None:
        self.state = state
        self.driver = driver
        self.nodes = 0
        self.played = 0
        """Moves on the position since the root (what an Abort takes back)."""
        self.seldepth = 0
        self.horizon = 0
        """Values that did not come from the rules alone (an evaluation at the horizon, a
        table entry that is not proven): an iteration that leaves it unchanged solved the
        root."""
        self.iteration = 0
        self.next_check = driver.next_check(0, 0.0, CHECK_EVERY)
        self.on_poll: Callable[[float], None] = lambda elapsed: None
        """Called at each poll that does not stop the search (periodic Info)."""
        self.players = state.players
        self.bounds = sum_bounds(state)
        self.ordered = isinstance(state, MoveOrdering)

    def play(self, move: Move) -> None:
        self.state.play(move)
        self.count()

    def play_null(self) -> None:
        """A pass (`NullMove.play_null`), counted as a move."""
        self.state.play_null()  # type: ignore[attr-defined]
        self.count()

    def count(self) -> None:
        self.played += 1
        self.nodes += 1
        if self.played > self.seldepth:
            self.seldepth = self.played
        if self.nodes >= self.next_check:
            self.poll()

    def undo(self) -> None:
        self.state.undo()
        self.played -= 1

    def poll(self) -> None:
        driver = self.driver
        elapsed = driver.elapsed()
        reason = driver.stop_reason(self.nodes, elapsed, first_step=self.iteration <= 1)
        if reason:
            raise Abort(self.played, reason)
        try:
            self.on_poll(elapsed)
        except Exception as exc:
            raise Abort(self.played, None, exc) from exc
        self.next_check = driver.next_check(self.nodes, elapsed, CHECK_EVERY)

    def moves_of(self) -> list[Move]:
        """The moves of the position in the game's order (`ordered_moves` where it has
        one, else `legal_moves`)."""
        state: Any = self.state
        return state.ordered_moves() if self.ordered else state.legal_moves()

    def leaf(self) -> Values:
        """The leaf's vector (`leaf_values`), counting an evaluation as horizon."""
        if not self.state.is_terminal():
            self.horizon += 1
        return leaf_values(self.state, self.bounds)


def table_key(state: Game, salt: int) -> int | None:
    """The position's table key mixed with `salt` (the root player, where values depend on
    it), or None where the game has no keys."""
    return state.key() ^ salt if isinstance(state, HashKey) else None


ROOT_SALTS = tuple((0x9E3779B97F4A7C15 * (index + 1)) & (2**64 - 1) for index in range(64))
"""Mixed into keys by searches whose values depend on the root player (paranoid, brs)."""


class MultiPlayerEngine(Engine):
    """The engines of this package: requirements, the table, and one search's frame
    (iterative deepening, polls, reports, the result). A subclass supplies `iterate`."""

    requires: ClassVar[Requirements] = Requirements(players=(2, None), chance=False)
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (HASH_OPTION,)
    exhausted: ClassVar[StopReason] = StopReason.SOLVED
    """Why a search ends when every line of an iteration ended the game: the value is then
    proven (SOLVED), or, where it is not the game's (brs), nothing deeper is to be seen
    (DEPTH)."""

    @classmethod
    def memory_mb(cls, options: Mapping[str, Any]) -> int:
        return int(options["Hash"])

    def __init__(
        self, options: Mapping[str, Any] | None = None, *, tt_entries: int | None = None
    ) -> None:
        """`tt_entries` (a test hook) fixes the table's slot count, 0 = no table at all."""
        super().__init__(options)
        self.kept_table = KeptTable(tt_entries)

    def table(self) -> VectorTable:
        return self.kept_table.get(VectorTable, int(self.options["Hash"]), VECTOR_ENTRY_BYTES)

    def new_game(self) -> None:
        self.kept_table.clear()

    def close(self) -> None:
        self.kept_table.close()

    def start(self, counter: NodeCounter, table: VectorTable, moves: list[Move]) -> Any:
        """The node search of one search from the root: `iterate(depth)` searches the root
        to `depth` (`deepen`), `stats()` gives its own `Result.stats`."""
        raise NotImplementedError

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        driver = SearchDriver(state, limits, context)
        root_player = state.to_move()
        if state.is_terminal():
            score = vector_score(tuple(map(float, state.returns())), root_player)
            return Result(
                None, score, [], [], 0, driver.elapsed(), 0, stop_reason=StopReason.GAME_OVER
            )
        table = self.table()
        table.new_search()
        counter = NodeCounter(state, driver)
        moves = root_candidates(counter.moves_of(), limits.search_moves)
        unstarted = driver.unstarted()
        if unstarted is not None:
            score = vector_score(counter.leaf(), root_player)
            return unsearched_result(moves[0], score, driver.elapsed(), unstarted)
        search = self.start(counter, table, moves)
        max_depth = max(1, min(MAX_PLY - 2, sys.getrecursionlimit() // 4))
        if not limits.infinite and limits.depth is not None:
            max_depth = max(1, min(max_depth, limits.depth))
        result = deepen(counter, table, moves, search.iterate, max_depth, self.exhausted)
        result.stats.update(search.stats())
        return result


def static_lines(counter: NodeCounter, moves: list[Move]) -> list[Line]:
    """Root lines without a search (one cut before its first iteration ended): each move
    valued by the leaf after it, best for the root player first."""
    player = counter.state.to_move()
    lines = []
    for move in moves:
        counter.state.play(move)
        lines.append(Line(move, counter.leaf(), EXACT, [move]))
        counter.state.undo()
    lines.sort(key=lambda line: line.values[player], reverse=True)
    return lines


def deepen(
    counter: NodeCounter,
    table: VectorTable,
    moves: list[Move],
    iterate: Callable[[int], list[Line]],
    max_depth: int,
    exhausted: StopReason,
) -> Result:
    """Iterative deepening: `iterate(depth)` searches the root to `depth` and returns its
    lines best first; an Info after each, and at the driver's cadence with the latest."""
    driver = counter.driver
    state = counter.state
    player = state.to_move()
    answer: list[Line] = []
    depth_done = 0
    reason = StopReason.DEPTH
    counts: list[int] = []
    horizon = counter.horizon

    def report(depth: int, elapsed: float) -> None:
        best = answer[0]
        driver.report(
            driver.info(
                depth,
                counter.seldepth,
                best.to_root_move(player).score,
                counter.nodes,
                best.pv,
                elapsed,
                hashfull=table.hashfull(),
                root_moves=[line.to_root_move(player) for line in answer],
            )
        )

    def periodic(elapsed: float) -> None:
        if answer and driver.info_due(elapsed):
            report(depth_done, elapsed)

    counter.on_poll = periodic
    for depth in range(1, max_depth + 1):
        if depth > 1:
            growth = counts[-1] / counts[-2] if len(counts) >= 2 and counts[-2] else 2.0
            stop = driver.step_allowed(counter.nodes, growth)
            if stop:
                reason = stop
                break
        counter.iteration = depth
        before, horizon = counter.nodes, counter.horizon
        try:
            lines = iterate(depth)
        except Abort as abort:
            for _ in range(counter.played):
                state.undo()
            counter.played = 0
            if abort.cause is not None:
                raise abort.cause from None
            reason = abort.reason
            if not answer:
                answer = static_lines(counter, moves)
            break
        counts.append(counter.nodes - before)
        answer, depth_done = lines, depth
        report(depth, driver.elapsed())
        if counter.horizon == horizon:  # every line ended the game
            reason = exhausted
            break
    best = answer[0]
    root_moves = [line.to_root_move(player) for line in answer]
    elapsed = driver.elapsed()
    stats = {"hashfull": float(table.hashfull()), "tt_hits": float(table.hits)}
    return Result(
        best_move=best.move,
        score=root_moves[0].score,
        pv=list(best.pv),
        root_moves=root_moves,
        nodes=counter.nodes,
        time=elapsed,
        depth=depth_done,
        seldepth=counter.seldepth,
        stop_reason=reason,
        stats=stats,
    )
