"""The `csp` engine: backtracking search over a game's constraint model, with its options,
limits, progress reports and answer (docs/engines.md, "Constraint satisfaction").

**The answer.** The line is the assignments beyond the position, in the order the search
fixed the variables (decisions and what propagation forced), as moves. Solved, it is the
whole solution: a WIN in as many moves, EXACT (`kibitz.engines.single.answer`'s model,
as the puzzles' engines answer). With soft costs the line is the cheapest assignment found:
a WIN, EXACT once branch and bound has proven it cheapest, before that a HEURISTIC score
of minus its cost (in centi-units) with bound LOWER (the cheapest costs at most as much).
Proven unsatisfiable: a LOSS, EXACT. Not solved yet (a limit, a stop): the longest
consistent line the search reached, scored a WIN in as many moves as there are unassigned
variables with bound UPPER (a solution takes exactly that many; there may be none).
"""

from __future__ import annotations

from typing import ClassVar

from kibitz.engines.base import Engine, OptionSpec, Requirements, SearchContext
from kibitz.engines.csp.network import network_of
from kibitz.engines.csp.search import Pair, Search, Settings
from kibitz.engines.driver import SearchDriver, root_candidates, terminal_result
from kibitz.engines.single.answer import Outcome, result_of, score_of
from kibitz.engines.single.common import Halt
from kibitz.engines.types import Limits, Result, RootMove, Score
from kibitz.games import Game, Move
from kibitz.games.capabilities import ConstraintProblem
from kibitz.vocabulary import Bound, ScoreKind, StopReason

CHECK_EVERY = 1024
"""Nodes between polls of the limits, at most (fewer where nodes are slow)."""
INFO_NODES = 1000
"""Nodes between Info reports (also sent at the context's interval where that comes first)."""


class Answer:
    """What a search answers now, as an Outcome and its score (see the module docstring)."""

    def __init__(self, search: Search, state: Game, limits: Limits, left: int) -> None:
        self.search = search
        self.state = state
        self.limits = limits
        self.left = left
        """The variables unassigned in the position: a solution's number of moves."""
        self._first: Move | None = None

    def first(self) -> Move:
        """The move answered where the line is empty: the first search move, else the first
        legal one."""
        if self._first is None:
            self._first = root_candidates(self.state.legal_moves(), self.limits.search_moves)[0]
        return self._first

    def line(self, outcome: Outcome) -> list[Move]:
        """The line answered: the outcome's, or the first move where it is empty."""
        return outcome.line or [self.first()]

    def outcome(self) -> Outcome:
        """The answer as the search stands (see the module docstring)."""
        search = self.search
        stats = {"backtracks": float(search.backtracks), "propagations": float(search.propagations)}
        if search.settings.count:
            stats["solutions"] = float(search.solutions)
            stats["count_complete"] = 1.0 if search.complete else 0.0
        if search.best is not None:
            cost = int(search.best_cost)
            optimal = search.complete or cost == search.root_bound
            bound = cost if optimal else search.root_bound
            return Outcome(self.moves(search.best), cost, bound, True, optimal, stats=stats)
        if search.complete:
            return Outcome([], 0, search.root_bound, unreachable=True, stats=stats)
        line = self.moves(search.deepest)
        if search.settings.propagation == "none":
            line = legal_prefix(self.state, line)
        return Outcome(line, 0, search.root_bound, stats=stats)

    def moves(self, pairs: list[Pair]) -> list[Move]:
        assert isinstance(self.state, ConstraintProblem)
        return [self.state.assignment_move(variable, value) for variable, value in pairs]

    def score(self, outcome: Outcome) -> Score:
        """The score of `outcome` (see the module docstring)."""
        if outcome.solved and not outcome.optimal:
            return Score(ScoreKind.HEURISTIC, value=-100 * outcome.cost, bound=Bound.LOWER)
        if outcome.solved or outcome.unreachable:
            return score_of(outcome, unit_costs=False)
        return Score(ScoreKind.WIN, plies=max(1, self.left), bound=Bound.UPPER)


def legal_prefix(state: Game, line: list[Move]) -> list[Move]:
    """The longest prefix of a consistent `line` that the game plays: plain backtracking
    does not see a variable left without a value (the game's dead end, after which it has
    no moves), and a dead end stays one as the line goes on, so bisection finds the first
    (`state` is left as it was)."""

    def dead_after(count: int) -> bool:
        for move in line[:count]:
            state.play(move)
        try:
            return state.is_terminal()
        finally:
            for _ in range(count):
                state.undo()

    if not line or not dead_after(len(line) - 1):
        return line
    alive, dead = 0, len(line) - 1
    while dead - alive > 1:
        middle = (alive + dead) // 2
        if dead_after(middle):
            dead = middle
        else:
            alive = middle
    return line[:dead]


class CSP(Engine):
    """Backtracking search with propagation for constraint puzzles."""

    name: ClassVar[str] = "csp"
    description: ClassVar[str] = (
        "Constraint satisfaction for puzzles with a constraint model (sudoku, n-queens, map "
        "colouring, ...): backtracking with minimum-remaining-values and degree variable "
        "ordering, least-constraining-value ordering, forward checking, AC-3 before the "
        "search and arc consistency maintained during it (MAC); branch and bound where "
        "constraints carry costs; optionally counts every solution. The answer's line is "
        "the whole solution."
    )
    requires: ClassVar[Requirements] = Requirements(
        players=(1, 1), chance=False, capabilities=(ConstraintProblem,)
    )
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "VariableOrder",
            "combo",
            "mrv-degree",
            "mrv-degree: the fewest values left, ties to the most unassigned neighbours; "
            "mrv: the fewest values left; static: the model's order. Under Propagation none "
            "the values left are those consistent with the assigned variables.",
            choices=("mrv-degree", "mrv", "static"),
        ),
        OptionSpec(
            "ValueOrder",
            "combo",
            "lcv",
            "lcv: the value that removes the fewest values of other variables first (by a "
            "forward check); mcv: the most first; static: the model's order.",
            choices=("lcv", "static", "mcv"),
        ),
        OptionSpec(
            "Propagation",
            "combo",
            "mac",
            "mac: propagate every change to a fixpoint (arc consistency maintained); "
            "forward: an assignment filters its constraints' other variables once; "
            "none: plain backtracking, an assignment only checked.",
            choices=("mac", "forward", "none"),
        ),
        OptionSpec(
            "Preprocess",
            "combo",
            "ac3",
            "ac3: every constraint propagated to a fixpoint before the search; none: only "
            "what the givens and Propagation do.",
            choices=("ac3", "none"),
        ),
        OptionSpec(
            "CountSolutions",
            "check",
            False,
            "Search on past the first solution and count them all (Result.stats solutions; "
            "count_complete 0 where a limit cut the count); soft costs then prune nothing.",
        ),
    )

    def new_game(self) -> None:
        """Nothing is kept between searches."""

    def settings(self) -> Settings:
        options = self.options
        return Settings(
            variable_order=options["VariableOrder"],
            value_order=options["ValueOrder"],
            propagation=options["Propagation"],
            preprocess=options["Preprocess"],
            count=options["CountSolutions"],
        )

    def search(self, state: Game, limits: Limits, context: SearchContext) -> Result:
        driver = SearchDriver(state, limits, context)
        if state.is_terminal():
            return terminal_result(state, driver.elapsed())
        assert isinstance(state, ConstraintProblem)
        givens = state.assignment()
        model = state.constraint_model()
        root_moves = None
        if limits.search_moves:
            pairs = {
                state.assignment_move(variable, value): (variable, value)
                for variable, given in enumerate(givens)
                if given is None
                for value in model.domains[variable]
            }
            chosen = root_candidates(state.legal_moves(), limits.search_moves)
            root_moves = [pairs[move] for move in chosen]
        progress = Progress(driver)
        search = Search(network_of(model), self.settings(), progress.poll)
        answer = Answer(search, state, limits, sum(value is None for value in givens))
        progress.answer = answer
        reason = driver.unstarted()
        if reason is None:
            try:
                search.run(givens, root_moves)
                reason = StopReason.SOLVED
            except Halt as halt:
                reason = halt.reason
        outcome = answer.outcome()
        depth = len(search.deepest)
        progress.send(outcome, depth)
        result = result_of(
            outcome,
            unit_costs=False,
            first=answer.line(outcome)[0],
            nodes=search.nodes,
            depth=depth,
            seldepth=depth,
            driver=driver,
            stop_reason=reason,
        )
        result.score = answer.score(outcome)
        result.root_moves = [RootMove(result.pv[0], result.score, result.pv)]
        return result


class Progress:
    """Polling of the limits and Info reports for one search."""

    def __init__(self, driver: SearchDriver) -> None:
        self.driver = driver
        self.answer: Answer | None = None
        self.next_info = INFO_NODES

    def poll(self, search: Search) -> None:
        """Raise `Halt` where the search must end (a limit, a stop, the target time: there
        is no iteration to finish); send an Info every INFO_NODES nodes or when due."""
        driver, nodes = self.driver, search.nodes
        elapsed = driver.elapsed()
        reason = driver.stop_reason(nodes, elapsed)
        if reason is None and driver.target_passed(elapsed):
            reason = StopReason.TIME
        if reason is not None:
            raise Halt(reason)
        if nodes >= self.next_info or driver.info_due(elapsed):
            assert self.answer is not None
            self.send(self.answer.outcome(), len(search.deepest))
            self.next_info = nodes + INFO_NODES
        search.next_check = min(driver.next_check(nodes, elapsed, CHECK_EVERY), self.next_info)

    def send(self, outcome: Outcome, depth: int) -> None:
        """An Info with the answer of `outcome`."""
        answer, driver = self.answer, self.driver
        assert answer is not None
        line, score = answer.line(outcome), answer.score(outcome)
        info = driver.info(depth, depth, score, answer.search.nodes, line, driver.elapsed())
        info.root_moves = [RootMove(line[0], score, line)]
        driver.report(info)
