"""The `csp` engine on models built here: Australia's map (NotEqual), n queens (Binary),
4x4 sudoku (AllDifferent), a cryptarithm (Linear), a Predicate, a small partial CSP with
soft costs and unsatisfiable ones. Every solution is checked by a checker written here
(not the model's), counts against brute force and published numbers, every option's
solutions against the defaults', exact node counts per option, limits, stops and the
answer's shape (line, score, bound, stats)."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from itertools import product
from typing import ClassVar

import pytest
from fakes import FakeClock

from kibitz.engines import ENGINES, Info, Limits, OptionError, SearchContext
from kibitz.engines.csp import CSP
from kibitz.engines.csp.network import network_of, values_of
from kibitz.engines.csp.search import Search, Settings
from kibitz.games import GAMES, Move
from kibitz.games.csp.game import ConstraintGame
from kibitz.games.csp.model import (
    AllDifferent,
    Binary,
    Constraint,
    Linear,
    Model,
    NotEqual,
    Predicate,
)
from kibitz.vocabulary import Bound, ScoreKind, StopReason

# -- a game on any model ----------------------------------------------------------------------


class Toy(ConstraintGame):
    """A constraint puzzle on `MODEL`; position: the givens as moves (``WA=0 SA=2``)."""

    name: ClassVar[str] = "csp-toy"
    title: ClassVar[str] = "CSP toy"
    default_position: ClassVar[str] = ""
    notation_help: ClassVar[str] = "name=value ..."
    MODEL: ClassVar[Model]

    @classmethod
    def from_position(cls, text: str) -> Toy:
        state = cls(cls.MODEL, [None] * len(cls.MODEL.variables))
        state.read_givens(text)
        return state

    def position(self) -> str:
        return self.givens_text()


def toy(model: Model, givens: str = "") -> Toy:
    game = type("Toy", (Toy,), {"MODEL": model})
    return game.from_position(givens)


def solve(state: Toy, limits: Limits | None = None, **options: object):
    infos: list[Info] = []
    before = (state.position(), state.assignment())
    result = CSP(options).search(state, limits or Limits(solve=True), SearchContext(infos.append))
    assert (state.position(), state.assignment()) == before
    return result, infos


def completed(state: Toy, line: Sequence[Move]) -> list[int]:
    """The values after playing `line` (each move legal, every variable assigned)."""
    game = state.clone()
    for move in line:
        assert move in game.legal_moves(), f"{game.format_move(move)} is illegal"
        game.play(move)
    values = game.assignment()
    assert None not in values
    return values  # type: ignore[return-value]


# -- the models -------------------------------------------------------------------------------

AUSTRALIA = ["WA", "NT", "SA", "Q", "NSW", "V", "T"]
BORDERS = [("WA", "NT"), ("WA", "SA"), ("NT", "SA"), ("NT", "Q"), ("SA", "Q"), ("SA", "NSW")]
BORDERS += [("SA", "V"), ("Q", "NSW"), ("NSW", "V")]


def australia(colours: int = 3) -> Model:
    index = AUSTRALIA.index
    borders = tuple(NotEqual((index(a), index(b)), f"{a}-{b}") for a, b in BORDERS)
    return Model(tuple(AUSTRALIA), ((*range(colours),),) * 7, borders)


def coloured(values: Sequence[int]) -> bool:
    colour = dict(zip(AUSTRALIA, values, strict=True))
    return all(colour[a] != colour[b] for a, b in BORDERS)


def queens(size: int) -> Model:
    def apart(distance: int) -> Callable[[int, int], bool]:
        return lambda a, b: a != b and abs(a - b) != distance

    pairs = tuple(
        Binary((i, j), f"{i}-{j}", relation=apart(j - i))
        for i in range(size)
        for j in range(i + 1, size)
    )
    return Model(tuple(f"q{i}" for i in range(size)), ((*range(size),),) * size, pairs)


def no_attacks(rows: Sequence[int]) -> bool:
    n = len(rows)
    return all(
        rows[i] != rows[j] and abs(rows[i] - rows[j]) != j - i
        for i in range(n)
        for j in range(i + 1, n)
    )


def sudoku4() -> Model:
    units = [[4 * r + c for c in range(4)] for r in range(4)]
    units += [[4 * r + c for r in range(4)] for c in range(4)]
    units += [
        [4 * (r + dr) + c + dc for dr in (0, 1) for dc in (0, 1)] for r in (0, 2) for c in (0, 2)
    ]
    cells = tuple(f"r{r + 1}c{c + 1}" for r in range(4) for c in range(4))
    constraints = tuple(AllDifferent(tuple(unit), f"unit {k}") for k, unit in enumerate(units))
    return Model(cells, ((1, 2, 3, 4),) * 16, constraints)


def valid_grid(values: Sequence[int]) -> bool:
    rows = [values[4 * r : 4 * r + 4] for r in range(4)]
    columns = [[values[4 * r + c] for r in range(4)] for c in range(4)]
    boxes = [
        [values[4 * (r + a) + c + b] for a in (0, 1) for b in (0, 1)]
        for r in (0, 2)
        for c in (0, 2)
    ]
    return all(sorted(unit) == [1, 2, 3, 4] for unit in rows + columns + boxes)


LETTERS = "TWOFUR"


def two_two_four() -> Model:
    """TWO + TWO = FOUR: one Linear over the letters, all different, no leading zero."""
    # 2·(100T + 10W + O) - (1000F + 100O + 10U + R) = 0
    weights = {"T": 200, "W": 20, "O": 2 - 100, "F": -1000, "U": -10, "R": -1}
    column = Linear(
        tuple(range(6)), "sum", coefficients=tuple(weights[x] for x in LETTERS), total=0
    )
    digits = tuple(range(10))
    leading = tuple(range(1, 10))
    domains = tuple(leading if x in "TF" else digits for x in LETTERS)
    return Model(tuple(LETTERS), domains, (column, AllDifferent(tuple(range(6)), "letters")))


def adds_up(values: Sequence[int]) -> bool:
    d = dict(zip(LETTERS, values, strict=True))
    two = 100 * d["T"] + 10 * d["W"] + d["O"]
    four = 1000 * d["F"] + 100 * d["O"] + 10 * d["U"] + d["R"]
    return len(set(values)) == 6 and d["T"] and d["F"] and 2 * two == four


def triples() -> Model:
    """x + y == z (a Predicate) with x < y (a Binary) over 0..6, and z != 5."""
    return Model(
        ("x", "y", "z"),
        ((*range(7),),) * 3,
        (
            Predicate((0, 1, 2), "x+y=z", test=lambda v: v[0] + v[1] == v[2]),
            Binary((0, 1), "x<y", relation=lambda a, b: a < b),
            Predicate((2,), "z!=5", test=lambda v: v[0] != 5),
        ),
    )


def weighted() -> Model:
    """Four lessons in three slots: hard, lessons 0-1 and 1-2 apart; soft, weighted wishes."""
    soft: list[Constraint] = [
        Predicate((0,), "0 early", cost=3, test=lambda v: v[0] == 0),
        Predicate((1,), "1 not early", cost=2, test=lambda v: v[0] != 0),
        NotEqual((2, 3), "2-3 apart", cost=4),
        Binary((0, 3), "3 after 0", cost=1, relation=lambda a, b: b > a),
        Predicate((1, 2), "1 before 2", cost=2, test=lambda v: v[0] < v[1]),
        Linear((0, 2), "0+2=4", cost=5, coefficients=(1, 1), total=4),
    ]
    hard = (NotEqual((0, 1), "0-1"), NotEqual((1, 2), "1-2"))
    return Model(("a", "b", "c", "d"), ((0, 1, 2),) * 4, (*hard, *soft))


def brute_force(model: Model) -> tuple[int, int | None]:
    """(solutions of the hard constraints, the least cost of one), by enumeration."""
    count, best = 0, None
    for values in product(*model.domains):
        if all(c.satisfied([values[v] for v in c.scope]) for c in model.constraints if not c.cost):
            count += 1
            cost = model.cost(values)
            best = cost if best is None else min(best, cost)
    return count, best


# -- solving ----------------------------------------------------------------------------------

OPTION_GRID = [
    {"VariableOrder": order, "ValueOrder": values, "Propagation": propagation, "Preprocess": pre}
    for order in ("mrv-degree", "mrv", "static")
    for values in ("lcv", "static", "mcv")
    for propagation in ("mac", "forward", "none")
    for pre in ("ac3", "none")
]


def test_the_engine_is_registered_for_constraint_games_only() -> None:
    assert ENGINES["csp"] is CSP
    assert CSP.supports(type(toy(australia())))
    assert not CSP.supports(GAMES["connect4"])


@pytest.mark.parametrize("options", OPTION_GRID, ids=lambda o: "-".join(o.values()))
def test_every_option_solves_and_counts_the_same(options) -> None:
    cases = [
        (australia(), "", coloured, 18),
        (australia(), "SA=1", coloured, 6),
        (queens(6), "", no_attacks, 4),
        (sudoku4(), "r1c1=1 r2c3=1", valid_grid, 36),  # 288 / 4 / 2
    ]
    if options["Propagation"] != "none":  # plain backtracking takes seconds on a cryptarithm
        cases.append((two_two_four(), "", adds_up, 7))
    for model, givens, check, count in cases:
        state = toy(model, givens)
        result, _ = solve(state, **options)
        values = completed(state, result.pv)
        assert check(values)
        assert result.score.kind == ScoreKind.WIN and result.score.bound == Bound.EXACT
        assert result.score.plies == len(result.pv) == state.assignment().count(None)
        assert result.stop_reason == StopReason.SOLVED
        counted, _ = solve(state, CountSolutions=True, **options)
        assert counted.stats["solutions"] == count and counted.stats["count_complete"] == 1


def test_a_unique_solution_is_the_same_under_every_option() -> None:
    state = toy(sudoku4(), "r1c2=2 r2c1=3 r3c4=3 r4c3=2 r1c4=4 r4c1=4")
    answers = set()
    for options in OPTION_GRID:
        result, _ = solve(state, **options)
        answers.add(tuple(completed(state, result.pv)))
    assert answers == {(1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)}
    assert valid_grid(next(iter(answers)))


def test_counts_match_brute_force_and_published_numbers() -> None:
    assert solve(toy(queens(8)), CountSolutions=True)[0].stats["solutions"] == 92
    assert solve(toy(sudoku4()), CountSolutions=True)[0].stats["solutions"] == 288
    for model in (australia(), triples(), weighted(), queens(5)):
        count, _ = brute_force(model)
        assert solve(toy(model), CountSolutions=True)[0].stats["solutions"] == count


def test_a_predicate_and_a_binary_relation_are_propagated_to_a_solution() -> None:
    state = toy(triples())
    result, _ = solve(state)
    x, y, z = completed(state, result.pv)
    assert x + y == z and x < y and z != 5


# -- unsatisfiable ----------------------------------------------------------------------------


@pytest.mark.parametrize("propagation", ["mac", "forward", "none"])
def test_an_unsatisfiable_problem_is_a_proven_loss(propagation) -> None:
    cases = [
        toy(australia(colours=2)),  # SA, WA and NT form a triangle
        toy(queens(3)),
        toy(sudoku4(), "r1c1=1 r2c3=1 r3c2=1 r4c4=2"),  # 1 has no place in the fourth row
    ]
    for state in cases:
        for pre in ("ac3", "none"):
            result, _ = solve(state, Propagation=propagation, Preprocess=pre)
            assert result.score.kind == ScoreKind.LOSS and result.score.bound == Bound.EXACT
            assert result.stop_reason == StopReason.SOLVED
            assert result.best_move in state.legal_moves() and result.pv == [result.best_move]
            assert "solution_cost" not in result.stats


# -- soft costs -------------------------------------------------------------------------------


@pytest.mark.parametrize("options", OPTION_GRID[::5], ids=lambda o: "-".join(o.values()))
def test_branch_and_bound_finds_the_cheapest_assignment(options) -> None:
    model = weighted()
    _, cheapest = brute_force(model)
    assert cheapest == 4
    state = toy(model)
    result, _ = solve(state, **options)
    values = completed(state, result.pv)
    assert model.cost(values) == cheapest == result.stats["solution_cost"]
    assert result.stats["cost_bound"] == cheapest
    assert result.score.kind == ScoreKind.WIN and result.score.bound == Bound.EXACT


def test_a_cut_branch_and_bound_answers_its_best_with_a_bound() -> None:
    state = toy(weighted())
    result, infos = solve(state, Limits(nodes=10))
    assert result.stop_reason == StopReason.NODES and result.nodes == 10
    assert result.score.kind == ScoreKind.HEURISTIC and result.score.bound == Bound.LOWER
    cost = state.constraint_model().cost(completed(state, result.pv))
    assert result.score.value == -100 * cost == -100 * result.stats["solution_cost"]
    assert cost == 6 and result.stats["cost_bound"] == 0  # the cheapest costs 4
    assert infos[-1].score == result.score


# -- node counts ------------------------------------------------------------------------------


NODES = {
    "plain": ({"VariableOrder": "static", "ValueOrder": "static", "Propagation": "none"}, 877),
    "plain-mrv": ({"VariableOrder": "mrv", "ValueOrder": "static", "Propagation": "none"}, 573),
    "forward": ({"VariableOrder": "static", "ValueOrder": "static", "Propagation": "forward"}, 89),
    "mrv": ({"VariableOrder": "mrv", "ValueOrder": "static", "Propagation": "forward"}, 76),
    "mac": ({"VariableOrder": "mrv", "ValueOrder": "static", "Propagation": "mac"}, 16),
    "mrv-degree": ({"ValueOrder": "static"}, 16),
    "lcv": ({}, 11),
}
"""Eight queens: options added one at a time (without AC-3), and the nodes to the first
solution (the root counted, and every assignment tried); "plain-mrv" adds MRV to plain
backtracking, where it counts the values consistent with the fixed variables."""


@pytest.mark.parametrize("label", NODES)
def test_exact_node_counts_shrink_as_options_are_added(label) -> None:
    options, nodes = NODES[label]
    state = toy(queens(8))
    result, _ = solve(state, Preprocess="none", **options)
    assert no_attacks(completed(state, result.pv))
    assert result.nodes == nodes
    counted, _ = solve(state, Preprocess="none", CountSolutions=True, **options)
    assert counted.stats["solutions"] == 92
    assert counted.nodes == {877: 15721, 573: 10153, 89: 1725, 76: 1361}.get(nodes, 409)


def legal_values(search: Search) -> list[set[int]]:
    """`Search.legal` of each unfixed variable, as sets."""
    legal = zip(search.legal(), search.fixed, strict=True)
    return [set(values_of(mask)) for mask, done in legal if not done]


def test_mrv_without_propagation_counts_the_values_the_fixed_variables_leave() -> None:
    """Under `none` no domain shrinks, so MRV counts `Search.legal`: checked against the
    model's own `consistent` (every hard constraint on the variable, with the value added)
    on partial assignments drawn at random (seeded) over every kind of constraint; and the
    cryptarithm's last letter, where the sum leaves one digit."""
    rng = random.Random(32)
    settings = Settings("mrv", "static", "none", "none", count=False)
    for model in (australia(), queens(6), sudoku4(), two_two_four(), triples()):
        hard = [constraint for constraint in model.constraints if not constraint.cost]
        for _ in range(20):
            share = rng.random()
            givens: list[int | None] = [None] * len(model.domains)
            for variable, domain in enumerate(model.domains):  # each given keeps them consistent
                if rng.random() < share:
                    givens[variable] = rng.choice(domain)
                    if model.violated(givens) is not None:
                        givens[variable] = None
            search = Search(network_of(model), settings, lambda search: None)
            assert search.start(givens)
            expected = []
            for variable, given in enumerate(givens):
                if given is None:
                    on = [constraint for constraint in hard if variable in constraint.scope]
                    kept = set()
                    for value in model.domains[variable]:
                        givens[variable] = value
                        if all(constraint.consistent(givens) for constraint in on):
                            kept.add(value)
                    givens[variable] = None
                    expected.append(kept)
            assert legal_values(search) == expected
    search = Search(network_of(two_two_four()), settings, lambda search: None)
    assert search.start([7, 3, 4, 1, 6, None])  # TWO + TWO = FOUR: 734 + 734 = 1468
    assert legal_values(search) == [{8}]


def test_counters_on_a_fixed_search() -> None:
    result, _ = solve(toy(queens(8)), Preprocess="none", ValueOrder="static")
    assert (result.nodes, result.stats["backtracks"], result.stats["propagations"]) == (16, 10, 530)


# -- limits, stops, the answer's shape --------------------------------------------------------


def test_a_node_limit_answers_the_deepest_consistent_line() -> None:
    state = toy(queens(10))
    for propagation in ("mac", "forward", "none"):
        result, infos = solve(
            state,
            Limits(nodes=12),
            Propagation=propagation,
            VariableOrder="static",
            ValueOrder="static",
        )
        assert result.stop_reason == StopReason.NODES and result.nodes == 12
        assert result.score == type(result.score)(ScoreKind.WIN, plies=10, bound=Bound.UPPER)
        game = state.clone()
        for move in result.pv:
            assert move in game.legal_moves()
            game.play(move)
        assert no_attacks([v for v in game.assignment() if v is not None])
        assert len(result.pv) == result.depth and infos[-1].pv == result.pv


def test_an_info_every_thousand_nodes_and_a_stop_answers_at_once() -> None:
    state = toy(queens(9))
    _, infos = solve(state, Limits(nodes=3500), Propagation="none", CountSolutions=True)
    assert [info.nodes for info in infos] == [1000, 2000, 3000, 3500]
    stop = threading.Event()
    stop.set()
    context = SearchContext(stop=stop)
    stopped = CSP().search(state, Limits(infinite=True), context)
    assert stopped.stop_reason == StopReason.STOPPED and stopped.nodes == 0
    assert stopped.best_move in state.legal_moves()
    late = SearchContext(clock=FakeClock(0.001), started=0.0)  # asked 100 s after its start
    timeless = CSP().search(state, Limits(movetime=0.005), late)
    assert timeless.stop_reason == StopReason.TIME and timeless.nodes == 0
    assert timeless.best_move == stopped.best_move


def test_a_stop_during_counting_answers_a_lower_bound() -> None:
    stop = threading.Event()
    state = toy(queens(9))
    context = SearchContext(report=lambda info: stop.set(), stop=stop)
    result = CSP({"CountSolutions": True}).search(state, Limits(infinite=True), context)
    assert result.stop_reason == StopReason.STOPPED
    assert 0 < result.stats["solutions"] < 352 and result.stats["count_complete"] == 0
    assert no_attacks(completed(state, result.pv))


def test_search_moves_restrict_the_first_assignment() -> None:
    state = toy(australia())
    wanted = [state.parse_move("SA=2"), state.parse_move("WA=1")]
    result = CSP({"CountSolutions": True}).search(
        state, Limits(solve=True, search_moves=wanted), SearchContext()
    )
    # in the game's order: WA=1 (6 solutions), then SA=2 where WA is not 1 (3 more)
    assert result.best_move == wanted[1] and coloured(completed(state, result.pv))
    assert result.stats["solutions"] == 6 + 3


@pytest.mark.parametrize("propagation", ["mac", "forward", "none"])
def test_search_moves_count_each_solution_once(propagation) -> None:
    """Solutions holding any of the search moves, each once, against brute force."""
    model = australia()
    state = toy(model)
    texts = ["WA=0", "SA=1", "T=2", "NSW=0"]
    moves = [state.parse_move(text) for text in texts]
    expected = sum(
        1
        for values in product(*model.domains)
        if coloured(values) and any(values[v] == x for v, x in moves)  # type: ignore[misc]
    )
    options = {"CountSolutions": True, "Propagation": propagation}
    result = CSP(options).search(state, Limits(solve=True, search_moves=moves), SearchContext())
    assert result.stats["solutions"] == expected == 14
    assert result.best_move in moves and coloured(completed(state, result.pv))
    grid = toy(sudoku4())
    first_cell = [grid.parse_move(f"r1c1={digit}") for digit in (1, 2, 3, 4)]
    every = CSP(options).search(grid, Limits(solve=True, search_moves=first_cell), SearchContext())
    assert every.stats["solutions"] == 288


def test_bad_options_are_refused_naming_the_option() -> None:
    with pytest.raises(OptionError, match=r"Propagation: 'ac4' is not one of mac, forward, none"):
        CSP({"Propagation": "ac4"})
    with pytest.raises(OptionError, match=r"engine csp has no option 'Heuristic'"):
        CSP({"Heuristic": "manhattan"})
    with pytest.raises(OptionError, match=r"CountSolutions: 'maybe' is not true/false"):
        CSP({"CountSolutions": "maybe"})


def test_plain_backtracking_answers_a_line_the_game_plays() -> None:
    """Plain backtracking reached five queens, but after the fourth the game sees a file
    with no square left (a dead end, where it has no moves): the line stops there."""
    state = toy(queens(8))
    options = {"Propagation": "none", "VariableOrder": "static", "ValueOrder": "static"}
    result, _ = solve(state, Limits(nodes=30), **options)
    assert result.depth == 5 and len(result.pv) == 4
    game = state.clone()
    for move in result.pv:
        assert move in game.legal_moves()
        game.play(move)
    assert game.is_terminal() and game.unassigned()


def test_hall_sets_and_hidden_singles_propagate_before_any_decision() -> None:
    """a and b share {1, 2} (a Hall set): c and d lose 1 and 2; then 4 is left to c alone (a
    hidden single) and d has 3 only: both fixed before the first decision."""
    domains = ((1, 2), (1, 2), (1, 2, 3, 4), (1, 2, 3))
    model = Model(("a", "b", "c", "d"), domains, (AllDifferent((0, 1, 2, 3), "all"),))
    state = toy(model)
    result, _ = solve(state)
    assert [state.format_move(move) for move in result.pv] == ["c=4", "d=3", "a=1", "b=2"]
    assert result.nodes == 2 and result.stats["backtracks"] == 0
    assert solve(state, Propagation="forward", Preprocess="none")[0].nodes > 2
    crowded = Model(("a", "b", "c"), ((1, 2),) * 3, (AllDifferent((0, 1, 2), "all"),))
    result, _ = solve(toy(crowded))
    assert result.score.kind == ScoreKind.LOSS and result.nodes == 1


EULER_1 = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
"""Grid 01 of Project Euler problem 96."""
HARDEST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
"""Norvig's hardest for his own solver."""
BOXES = [(r, c) for r in (0, 3, 6) for c in (0, 3, 6)]
"""The top left cells of a 9x9 grid's boxes."""


@pytest.mark.parametrize(
    ("position", "options", "nodes"),
    [
        (EULER_1, {}, 1),  # propagation at the root solves it
        (EULER_1, {"Propagation": "forward", "Preprocess": "none"}, 50),
        (EULER_1, {"Propagation": "none", "Preprocess": "none", "VariableOrder": "static"}, 1419),
        (EULER_1, {"Propagation": "none", "Preprocess": "none", "VariableOrder": "mrv"}, 50),
        (HARDEST, {}, 1),
        (HARDEST, {"Propagation": "forward", "Preprocess": "none"}, 2401),
        (HARDEST, {"Propagation": "none", "Preprocess": "none", "VariableOrder": "mrv"}, 3823),
    ],
)
def test_sudoku_node_counts(position, options, nodes) -> None:
    state = GAMES["sudoku"].from_position(position)
    result = CSP(options).search(state, Limits(solve=True), SearchContext())
    assert result.nodes == nodes and result.stop_reason == StopReason.SOLVED
    game = state.clone()
    for move in result.pv:
        game.play(move)
    grid = game.position()
    assert all(given in ".0" or given == got for given, got in zip(position, grid, strict=True))
    rows = [grid[9 * r : 9 * r + 9] for r in range(9)]
    columns = ["".join(row[c] for row in rows) for c in range(9)]
    boxes = ["".join(rows[r + a][c + b] for a in range(3) for b in range(3)) for r, c in BOXES]
    assert all(sorted(unit) == list("123456789") for unit in rows + columns + boxes)
