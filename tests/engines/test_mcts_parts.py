"""The `mcts` engine's pluggable parts: leaf evaluations (`Evaluation`, a plugged-in
`Evaluator`) and tree policies (`Policy`), selected by option or handed in."""

from __future__ import annotations

import random
from typing import ClassVar

import pytest
from toys import ChanceToy

from kibitz.engines.base import OptionError, SearchContext
from kibitz.engines.mcts import MCTS
from kibitz.engines.mcts.evaluators import EVALUATORS, GamePriors, Heuristic, random_playout
from kibitz.engines.mcts.policies import PUCT, RAVE, UCT
from kibitz.engines.types import Limits, ScoreKind
from kibitz.games import Game, Move
from kibitz.games.capabilities import MovePriors
from kibitz.games.connect4 import ConnectFour
from kibitz.games.hex import Hex
from kibitz.games.nim import Nim
from kibitz.games.pig import Pig
from kibitz.games.tictactoe import TicTacToe


def search(state: Game, nodes: int, engine: MCTS | None = None, **options):
    return (engine or MCTS(options)).search(state, Limits(nodes=nodes), SearchContext())


def visits(result) -> dict:
    return {root.move: root.score.visits for root in result.root_moves}


class CentreTicTacToe(TicTacToe, MovePriors):
    """Tic-tac-toe whose priors favour the centre (9/17) over the rest (1/17 each)."""

    name: ClassVar[str] = "centretictactoe"

    def move_priors(self) -> list[tuple[Move, float]]:
        weights = {move: 9.0 if move == 4 else 1.0 for move in self.legal_moves()}
        total = sum(weights.values())
        return [(move, weight / total) for move, weight in weights.items()]


class CountingPlayouts:
    """A plugged-in evaluator: random playouts, counted; no priors."""

    gives_priors = False

    def __init__(self) -> None:
        self.calls = 0

    def evaluate(self, state: Game, rng: random.Random, record) -> tuple[float, ...]:
        self.calls += 1
        return random_playout(state, rng, record)

    def priors(self, state: Game) -> dict[Move, float] | None:
        return None


# -- every evaluation and policy by option -----------------------------------------------------


@pytest.mark.parametrize("rave", ["off", "on"])
@pytest.mark.parametrize("policy", ["auto", "uct", "puct"])
@pytest.mark.parametrize("evaluation", ["playout", "heuristic"])
@pytest.mark.parametrize(
    ("game", "position"), [(ConnectFour, "4453"), (Hex, "5"), (Nim, "3,4,5"), (Pig, "")]
)
def test_every_evaluation_and_policy_searches_legally(game, position, evaluation, policy, rave):
    state = game.from_position(position)
    before = state.position()
    options = {"Evaluation": evaluation, "Policy": policy, "RAVE": rave, "Solver": False}
    result = search(state, 600, **options)
    assert state.position() == before
    assert result.best_move in state.legal_moves() and result.nodes == 600
    assert sum(visits(result).values()) == 600
    assert (result.root_moves[0].prior is not None) == (policy == "puct")


def test_the_heuristic_evaluation_wins_in_one_and_blocks_without_the_solver():
    win = ConnectFour.from_position("112233")  # x wins at 4 ...
    result = search(win, 300, Evaluation="heuristic", Solver=False)
    assert win.format_move(result.best_move) == "4"
    assert result.score.kind == ScoreKind.HEURISTIC and result.score.value > 90
    block = ConnectFour.from_position("11223")  # ... and o must stop it there
    result = search(block, 300, Evaluation="heuristic", Solver=False)
    assert block.format_move(result.best_move) == "4"
    assert visits(result)[result.best_move] > 150


def test_the_heuristic_evaluation_is_the_games_and_plays_out_where_it_has_none():
    settings = MCTS().settings
    connect4 = ConnectFour.from_position("112233")  # x to move can win at once
    evaluator = EVALUATORS["heuristic"](connect4, settings(connect4))
    assert isinstance(evaluator, Heuristic)
    x, o = evaluator.evaluate(connect4, random.Random(1), None)
    assert x > 0.99 and o == -x
    pig = Pig.from_position("")
    value = EVALUATORS["heuristic"](pig, settings(pig)).evaluate(pig, random.Random(1), None)
    assert value == (pig.expected_return(0), pig.expected_return(1))
    for other in (Race(), ChanceToy(1)):  # no evaluation; one not asked at chance nodes
        assert not isinstance(EVALUATORS["heuristic"](other, settings(other)), Heuristic)
    race = Race()
    result = search(race, 300, Evaluation="heuristic")
    assert result.best_move == 2 and result.score.kind == ScoreKind.WIN


@pytest.mark.parametrize("patterns", [True, False])
def test_the_option_patterns_reaches_the_games_playout(patterns):
    """Hex's playout gets `patterns` from the option (the same one the game's own call
    gives, record included); a game whose playout has no such keyword never does."""
    engine = MCTS({"Kernel": False, "Patterns": patterns})
    state = Hex.from_position("5")
    state.play_line(["b3", "a5", "d2", "c3"])  # Black answers c2 in a bridge playout
    evaluator = engine.make_evaluator(state, engine.settings(state))
    record: list = []
    value = evaluator.evaluate(state, random.Random(3), record)
    expected: list = []
    assert value == state.playout(random.Random(3), expected, patterns=patterns)
    assert record == expected and (record[0] == (0, state.parse_move("c2"))) == patterns
    connect4 = ConnectFour.from_position("")
    assert not engine.make_evaluator(connect4, engine.settings(connect4)).patterns


class Race(Game):
    """Add 1 or 2 to a count from 0; who reaches 5 wins (the first player, by adding 2).
    No capabilities."""

    name: ClassVar[str] = "race"
    title: ClassVar[str] = "Race to 5"
    default_position: ClassVar[str] = ""
    notation_help: ClassVar[str] = "-"

    def __init__(self) -> None:
        self.moves: list[int] = []

    @classmethod
    def from_position(cls, text: str) -> Race:
        return cls()

    def position(self) -> str:
        return ",".join(map(str, self.moves))

    def parse_move(self, text: str) -> Move:
        return int(text)

    def format_move(self, move: Move) -> str:
        return str(move)

    def to_move(self) -> int:
        return len(self.moves) % 2

    def legal_moves(self) -> list[Move]:
        return [] if self.is_terminal() else [1, 2]

    def play(self, move: Move) -> None:
        self.moves.append(move)

    def undo(self) -> None:
        self.moves.pop()

    def is_terminal(self) -> bool:
        return sum(self.moves) >= 5

    def returns(self) -> tuple[float, ...]:
        won = 1.0 if self.to_move() == 1 else -1.0  # the last mover reached 5
        return (won, -won)

    def render(self) -> str:
        return self.position()


def test_heuristic_scale_sharpens_the_evaluation():
    state = ConnectFour.from_position("4453")
    soft = MCTS({"HeuristicScale": 10_000}).settings(state)
    sharp = MCTS({"HeuristicScale": 10}).settings(state)
    rng = random.Random(1)
    soft_value = EVALUATORS["heuristic"](state, soft).evaluate(state, rng, None)[0]
    sharp_value = EVALUATORS["heuristic"](state, sharp).evaluate(state, rng, None)[0]
    assert 0 < abs(soft_value) < abs(sharp_value) <= 1


# -- tree policies ----------------------------------------------------------------------------


def test_the_default_policies_are_todays():
    engine = MCTS()
    for state, kind in (
        (ConnectFour.from_position(""), UCT),
        (CentreTicTacToe.from_position(""), PUCT),
    ):
        settings = engine.settings(state)
        policy = engine.make_policy(settings, engine.make_evaluator(state, settings))
        assert type(policy) is kind
    hex_state = Hex.from_position("5")
    settings = engine.settings(hex_state)
    policy = engine.make_policy(settings, engine.make_evaluator(hex_state, settings))
    assert isinstance(policy, RAVE) and isinstance(policy.base, UCT)


def test_puct_follows_the_games_priors_and_uct_ignores_them():
    state = CentreTicTacToe.from_position("")
    result = search(state, 400, FPU=0, Policy="puct")
    assert result.best_move == 4 and visits(result)[4] > 200
    assert result.root_moves[0].prior == pytest.approx(9 / 17)
    plain = search(state, 1, FPU=0, Policy="uct")
    assert plain.best_move == 0 and all(root.prior is None for root in plain.root_moves)


def test_puct_without_priors_spreads_them_evenly():
    state = TicTacToe.from_position("")
    result = search(state, 300, Policy="puct")
    assert all(root.prior == pytest.approx(1 / 9) for root in result.root_moves)
    assert search(state, 300, Policy="auto").root_moves[0].prior is None  # auto: UCT


class CornerPriors(CountingPlayouts):
    """Playouts, with priors that put nearly everything on corner 0."""

    gives_priors = True

    def priors(self, state: Game) -> dict[Move, float] | None:
        moves = state.legal_moves()
        rest = 0.01 / len(moves)
        return {move: rest + (0.99 if move == moves[0] else 0.0) for move in moves}


def test_an_evaluators_priors_drive_puct_under_policy_auto():
    state = TicTacToe.from_position("")
    result = search(state, 50, MCTS({"FPU": 0}, evaluator=CornerPriors()))
    assert result.best_move == 0 and visits(result)[0] > 25
    assert result.root_moves[0].prior == pytest.approx(0.99 + 0.01 / 9)


# -- a plugged-in evaluator -------------------------------------------------------------------


def test_a_plugged_in_evaluator_evaluates_every_leaf():
    evaluator = CountingPlayouts()
    engine = MCTS({"Solver": False, "Evaluation": "heuristic"}, evaluator=evaluator)
    result = search(ConnectFour.from_position(""), 500, engine)  # no end within 500
    assert evaluator.calls == result.nodes == 500
    # the same evaluator, search after search (with the tree reused)
    state = ConnectFour.from_position("")
    state.play(result.best_move)
    search(state, 200, engine)
    assert evaluator.calls == 700


class Even(GamePriors):
    """Every leaf a draw."""

    def evaluate(self, state: Game, rng: random.Random, record) -> tuple[float, ...]:
        return (0.0, 0.0)


class EvenMCTS(MCTS):
    """An engine of a plugin's: `mcts` with its own leaf evaluation."""

    name: ClassVar[str] = "evenmcts"

    def make_evaluator(self, state, settings):
        return Even(state, settings)


def test_a_subclass_plugs_in_its_own_evaluation():
    result = search(ConnectFour.from_position(""), 300, EvenMCTS({"Solver": False}))
    assert all(root.score.draw == 1.0 for root in result.root_moves if root.score.visits)


# -- options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value", "choices"),
    [("Evaluation", "neural", "playout, heuristic"), ("Policy", "ucb1", "auto, uct, puct")],
)
def test_an_unknown_evaluation_or_policy_is_an_option_error(option, value, choices):
    with pytest.raises(OptionError, match=f"option {option}: .*{value}.* one of {choices}"):
        MCTS({option: value})
    with pytest.raises(OptionError):
        MCTS.validate_options({option: value})
