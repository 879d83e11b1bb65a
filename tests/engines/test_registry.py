"""Registries, engine requirements and default engines (kibitz/registry.py, engines/base.py)."""

from __future__ import annotations

from typing import ClassVar

import pytest
from toys import ChanceToy, RandomTreeGame

from kibitz.engines import ENGINES, Engine, Requirements, default_engine_for
from kibitz.engines.alphabeta import AlphaBeta
from kibitz.games import GAMES, Game
from kibitz.games.capabilities import Evaluation, HashKey, Playout
from kibitz.registry import Registry


class ThreePlayers(RandomTreeGame):
    name: ClassVar[str] = "threeplayers"
    players: ClassVar[int] = 3
    zero_sum: ClassVar[bool] = False


class Bare(Game):
    """The core interface only: no capability at all."""

    name: ClassVar[str] = "bare"
    title: ClassVar[str] = "Bare"
    default_position: ClassVar[str] = ""
    notation_help: ClassVar[str] = ""
    default_engine: ClassVar[str] = "alphabeta"  # which cannot play it

    from_position = classmethod(lambda cls, text: cls())
    position = parse_move = format_move = to_move = legal_moves = None  # type: ignore
    play = undo = is_terminal = returns = render = None  # type: ignore


def test_requirements_name_everything_a_game_lacks():
    assert AlphaBeta.requires.unmet(RandomTreeGame) == []
    assert AlphaBeta.requires.unmet(ChanceToy) == ["a game without chance events"]
    assert AlphaBeta.requires.unmet(ThreePlayers) == ["2 players (it has 3)", "a zero-sum game"]
    assert AlphaBeta.requires.unmet(Bare) == [HashKey.capability_name, Evaluation.capability_name]
    needs = Requirements(players=(1, 4), capabilities=(Playout,))
    assert needs.unmet(ThreePlayers) == ["fast playouts (playout())"]
    assert Requirements(players=(2, None)).unmet(Bare) == []
    assert Requirements(players=(3, None)).unmet(Bare) == ["3+ players (it has 2)"]
    assert Requirements(players=(1, 2)).unmet(ThreePlayers) == ["1 to 2 players (it has 3)"]


def test_the_default_engine_is_the_games_own_or_the_first_that_can_play_it():
    assert default_engine_for(GAMES["connect4"]) is AlphaBeta
    # Bare names alphabeta, which cannot play it: the first engine that can (mcts, built
    # in before the example plugin's random engine, which plays anything too)
    assert default_engine_for(Bare) is ENGINES["mcts"]


class Sloppy(Engine):
    name: ClassVar[str] = "sloppy"
    description: ClassVar[str] = "no search"
    option_specs: ClassVar[tuple] = ()

    def new_game(self) -> None:
        pass


@pytest.mark.parametrize(
    ("candidate", "problem"),
    [
        (int, "is not a subclass of Engine"),
        (Engine, "Engine does not implement new_game, search"),
        (Sloppy, "Sloppy does not implement search"),
        (type("Named", (AlphaBeta,), {"name": "Alpha Beta"}), "must be a lower-case word"),
        (type("Twin", (AlphaBeta,), {}), "the engine name 'alphabeta' is taken"),
        (type("Quiet", (AlphaBeta,), {"name": "quiet"}), ""),
    ],
)
def test_the_registry_refuses_classes_that_cannot_work(candidate, problem):
    engines = Registry("engine", Engine, "kibitz.engines", ("description", "option_specs"))
    engines.register(AlphaBeta)
    if not problem:
        assert engines.register(candidate) is candidate and "quiet" in engines
        return
    with pytest.raises(ValueError, match=problem):
        engines.register(candidate)


def test_a_game_without_its_class_attributes_is_refused():
    games = Registry("game", Game, "kibitz.games", ("title", "default_position", "notation_help"))
    methods = {name: value for name, value in vars(Bare).items() if name != "title"}
    untitled = type("Untitled", (Game, HashKey), {**methods, "name": "untitled", "key": None})
    with pytest.raises(ValueError, match="Untitled does not define title"):
        games.register(untitled)
