"""The root of an expectimax search: iterative deepening, the root moves and their values,
principal variations through chance nodes, polling and progress reports.

At a **decision root** the root moves are the moves of the side to move; the first
`multipv` (in the order of the previous iteration's values; all of them under the engine's
`ExactRoot`) get exact values, the others the window above the `multipv`-th best so far,
so that a worse move ends with an upper bound as soon as the Star1/Star2 pruning below it
shows it cannot be better.

At a **chance root** (the dice not yet rolled) the root moves are the outcomes (restricted
to `search_moves` when the client states some): each is searched with the full window, so
every outcome gets its exact value and its best move; the root's value is their
probability-weighted average. The best "move" is the most likely outcome (the first listed
among equally likely ones): there is nothing to choose before the roll.

Values are kept from the point of view of `perspective()` of the root (the side to move, or
at a chance root the player about to roll). A principal variation follows the table's best
moves and, through a chance node, the most likely outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kibitz.engines.driver import SearchDriver
from kibitz.engines.expectimax.nodes import NodeSearch, SearchAborted
from kibitz.engines.types import Info, RootMove, Score
from kibitz.games import CHANCE, Move
from kibitz.games.capabilities import Chances, OutcomeChances
from kibitz.vocabulary import Bound, StopReason

CHECK_MOST = 256
"""Nodes between two polls at most (fewer where nodes are slow: `SearchDriver.next_check`)."""


@dataclass(slots=True)
class Line:
    """One root move (or outcome): its value for the root's point of view, bound and PV."""

    move: Move
    value: float
    bound: Bound = Bound.EXACT
    pv: list[Move] = field(default_factory=list)
    probability: float | None = None
    chances: Chances | None = None

    def to_root_move(self) -> RootMove:
        return RootMove(
            self.move,
            Score.from_expected(self.value, self.bound, self.chances),
            list(self.pv),
            probability=self.probability,
        )


def most_likely(outcomes: list[tuple[Move, float]]) -> Move:
    """The most likely outcome, the first listed among equally likely ones."""
    return max(outcomes, key=lambda outcome: outcome[1])[0]


class RootSearch:
    """Iterative deepening over the root moves of `nodes.state`."""

    def __init__(
        self,
        nodes: NodeSearch,
        driver: SearchDriver,
        moves: list[Move],
        multipv: int,
    ) -> None:
        self.nodes = nodes
        self.driver = driver
        self.state = nodes.state
        self.moves = moves
        self.multipv = max(1, multipv)
        self.chance = self.state.to_move() == CHANCE
        self.perspective = self.state.perspective()
        self.sign = 1.0 if self.perspective == 0 else -1.0
        """Player 0's values times `sign` are the root's point of view."""
        low, high = nodes.low, nodes.high
        self.view_low, self.view_high = (low, high) if self.sign > 0 else (-high, -low)
        self.iteration = 0
        self.iteration_nodes: list[int] = []
        self.answer: list[Line] = []
        """The latest complete iteration's lines, best (or most likely) first."""
        self.stop_reason: StopReason | None = None
        nodes.poll = self.poll

    # -- polling --------------------------------------------------------------------------------

    def poll(self) -> None:
        """Called by the node search: end it if it must end, and send a periodic Info."""
        driver, nodes = self.driver, self.nodes
        elapsed = driver.elapsed()
        reason = driver.stop_reason(nodes.nodes, elapsed, first_step=self.iteration <= 1)
        if reason is not None:
            self.stop_reason = reason
            raise SearchAborted
        nodes.next_check = driver.next_check(nodes.nodes, elapsed, CHECK_MOST)
        if self.answer and driver.info_due(elapsed):
            driver.report(self.info(self.iteration - 1, self.answer, elapsed))

    # -- iterative deepening --------------------------------------------------------------------

    def deepen(self, max_depth: int) -> tuple[int, bool, StopReason]:
        """Search depth 1, 2, ... `max_depth`; returns (completed depth, solved, reason)."""
        nodes = self.nodes
        completed_depth = 0
        stop_reason = StopReason.DEPTH
        for depth in range(1, max_depth + 1):
            if depth > 1:
                reason = self.driver.step_allowed(nodes.nodes, self.growth())
                if reason:
                    return completed_depth, False, reason
            self.iteration = depth
            start_nodes, start_estimates = nodes.nodes, nodes.estimates
            try:
                lines = self.search_root(depth)
            except SearchAborted:
                if not self.answer:  # cut within depth 1: value the rest without search
                    self.answer = self.static_lines()
                    self.add_chances(self.answer)
                return completed_depth, False, self.stop_reason or StopReason.STOPPED
            self.iteration_nodes.append(nodes.nodes - start_nodes)
            self.add_chances(lines)
            completed_depth = depth
            self.answer = lines
            self.driver.report(self.info(depth, lines, self.driver.elapsed()))
            if nodes.estimates == start_estimates:  # every leaf was the end of the game
                return completed_depth, True, StopReason.SOLVED
        return completed_depth, False, stop_reason

    def growth(self) -> float:
        """The last iteration's node growth (8 until there are two iterations)."""
        counts = self.iteration_nodes
        if len(counts) >= 2 and counts[-2] > 0:
            return max(2.0, counts[-1] / counts[-2])
        return 8.0

    def search_root(self, depth: int) -> list[Line]:
        return self.chance_root(depth) if self.chance else self.decision_root(depth)

    def decision_root(self, depth: int) -> list[Line]:
        """Every root move at `depth`: the first `multipv` exactly, the rest bounded."""
        nodes, sign = self.nodes, self.sign
        exact: list[float] = []  # the exact values so far, best first
        lines: list[Line] = []
        for move in self.ordered_root_moves():
            floor = exact[self.multipv - 1] if len(exact) >= self.multipv else self.view_low
            alpha, beta = (floor, self.view_high) if sign > 0 else (-self.view_high, -floor)
            value = sign * nodes.child(move, depth - 1, alpha, beta)
            if value <= floor and floor > self.view_low:
                bound = Bound.UPPER
            else:
                bound = Bound.EXACT
                exact.append(value)
                exact.sort(reverse=True)
            lines.append(Line(move, value, bound))
        lines.sort(key=lambda line: (line.value, line.bound == Bound.EXACT), reverse=True)
        for line in lines:
            line.pv = self.principal_variation(line.move, depth)
        return lines

    def chance_root(self, depth: int) -> list[Line]:
        """Every outcome at `depth`, exactly; the most likely first."""
        state, nodes, sign = self.state, self.nodes, self.sign
        probabilities = dict(state.chance_outcomes())
        lines = []
        for outcome in self.moves:
            value = sign * nodes.child(outcome, depth, nodes.low, nodes.high)
            line = Line(outcome, value, probability=probabilities[outcome])
            line.pv = self.principal_variation(outcome, depth)
            lines.append(line)
        lines.sort(key=lambda line: -(line.probability or 0.0))  # stable: listed order on ties
        return lines

    def ordered_root_moves(self) -> list[Move]:
        """The root moves, best of the previous iteration first (exact values before
        bounds of the same value); the engine's order at depth 1."""
        if not self.answer:
            return list(self.moves)
        return [line.move for line in self.answer]

    def add_chances(self, lines: list[Line]) -> None:
        """Each line's outcome chances, where the game estimates them: the game's estimate
        of the position after the root player's first decision on the line (the root move
        itself, or at a chance root the outcome's best move), before the opponent's roll.
        The chances are that static estimate, not the search's value: one evaluation per
        root move, as GNU Backgammon's 0-ply figures."""
        if not isinstance(self.state, OutcomeChances):
            return
        for line in lines:
            line.chances = self.chances_after(line.pv if self.chance else [line.move])

    def chances_after(self, pv: list[Move]) -> Chances | None:
        """The estimate after `pv` up to and including its first decision (None where the
        line has none)."""
        state = self.state
        assert isinstance(state, OutcomeChances)
        played = 0
        for move in pv:
            decision = state.to_move() != CHANCE
            state.play(move)
            played += 1
            if decision:
                break
        else:
            decision = False
        chances = state.outcome_chances(self.perspective) if decision else None
        for _ in range(played):
            state.undo()
        return chances

    def chances(self) -> Chances | None:
        """The root's chances: the best line's, or at a chance root the outcomes' average
        (weighted by their probabilities); None where the lines have none."""
        lines = self.answer
        if not self.chance:
            return lines[0].chances
        weighted = [(line.probability or 0.0, line.chances) for line in lines]
        if any(chances is None for _, chances in weighted):
            return None
        return Chances.average(weighted)  # type: ignore[arg-type]

    def value(self) -> float:
        """The root's value for its point of view: the best move's, or at a chance root the
        outcomes' average (renormalised over the stated outcomes)."""
        lines = self.answer
        if not self.chance:
            return lines[0].value
        total = sum(line.probability or 0.0 for line in lines)
        return sum((line.probability or 0.0) * line.value for line in lines) / total

    def static_lines(self) -> list[Line]:
        """Root lines without a search (a search stopped within depth 1): each move's
        position valued by the game's estimate, best first (chance: most likely first)."""
        state, sign = self.state, self.sign
        probabilities = dict(state.chance_outcomes()) if self.chance else {}
        lines = []
        for move in self.moves:
            state.play(move)
            if state.is_terminal():
                value = sign * float(state.returns()[0])
            else:
                value = sign * state.expected_return(0)
            state.undo()
            lines.append(Line(move, value, pv=[move], probability=probabilities.get(move)))
        if self.chance:
            lines.sort(key=lambda line: -(line.probability or 0.0))
        else:
            lines.sort(key=lambda line: line.value, reverse=True)
        return lines

    # -- lines and reports ----------------------------------------------------------------------

    def principal_variation(self, move: Move, decisions: int) -> list[Move]:
        """`move`, then the table's best moves (the most likely outcome through chance
        nodes), up to `decisions` decisions in all (the root move is one at a decision
        root); the position is unchanged."""
        state, table = self.state, self.nodes.table
        line = [move]
        state.play(move)
        if not self.chance:
            decisions -= 1
        while decisions > 0 and not state.is_terminal():
            if state.to_move() == CHANCE:
                step = most_likely(state.chance_outcomes())
            else:
                step = table.best_move(state.key()) if table.size else None
                if step is None or step not in self.nodes.moves():
                    break
                decisions -= 1
            line.append(step)
            state.play(step)
        for _ in line:
            state.undo()
        if len(line) > 1 and self._outcome_last(line):
            line.pop()  # a roll with no move known after it says nothing
        return line

    def _outcome_last(self, line: list[Move]) -> bool:
        """Whether the last move of `line` (from the root) is a chance outcome."""
        state = self.state
        for move in line[:-1]:
            state.play(move)
        chance = state.to_move() == CHANCE
        for _ in line[:-1]:
            state.undo()
        return chance

    def info(self, depth: int, lines: list[Line], elapsed: float) -> Info:
        best = lines[0]
        bound = best.bound if not self.chance else Bound.EXACT
        score = Score.from_expected(self.value(), bound, self.chances())
        return self.driver.info(
            depth,
            depth,
            score,
            self.nodes.nodes,
            best.pv,
            elapsed,
            hashfull=self.nodes.table.hashfull(),
            root_moves=[line.to_root_move() for line in lines],
        )
