"""Pig, the dice game, with OpenSpiel's rules: the smallest game with chance worth searching.

On a turn the player rolls a die as often as they like, adding each roll to a turn total,
until they **hold** (the total is added to their score and the turn passes) or roll a 1
(the turn total is lost and the turn passes). The first to reach the goal wins; a player
who would reach it by holding must hold. As in OpenSpiel's ``pig`` (parameters
``winscore`` and ``horizon``), the game also ends, as a draw, after `horizon` decisions
(rolls and holds; a last roll is still resolved, which changes no score) unless someone
won before: that bound makes the game tree finite, so
small games can be searched to the end and compared with an exact solution.

Position: ``"<score 1>-<score 2> +<turn total> <player to move 1|2>[ roll] goal=<N>
moves=<decisions made>/<horizon>"``, e.g. ``"12-7 +5 1 goal=20 moves=9/40"``; ``roll``
marks the chance node where the die is about to be rolled. Moves: ``roll`` (``r``) and
``hold`` (``h``, ``stop``); at a chance node the die's face, ``1`` to ``6``.
"""

from __future__ import annotations

import math
import re
from typing import ClassVar

from kibitz.games.base import (
    CHANCE,
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    capped_int,
    quoted,
)
from kibitz.games.capabilities import ExpectedReturn, HashKey, Presentation
from kibitz.games.presentation import PANEL, Diagram, Gauge

ROLL = 0
HOLD = 1
FACES = 6

_POSITION = re.compile(r"(\d+)-(\d+) \+(\d+) ([12])( roll)? goal=(\d+) moves=(\d+)/(\d+)", re.ASCII)
_MOVE_NAMES = {"roll": ROLL, "r": ROLL, "hold": HOLD, "h": HOLD, "stop": HOLD}
MAX_GOAL = 10_000
MAX_HORIZON = 1_000_000
MAX_NUMBER = 10 * MAX_HORIZON
"""The largest number a position may hold (scores and turn totals, besides the limits above)."""
_FACE_NAMES = {str(face): face for face in range(1, FACES + 1)}


class Pig(Game, HashKey, ExpectedReturn, Presentation):
    """A Pig position; see the module docstring."""

    name: ClassVar[str] = "pig"
    title: ClassVar[str] = "Pig"
    has_chance: ClassVar[bool] = True
    default_position: ClassVar[str] = "0-0 +0 1 goal=100 moves=0/1000"
    notation_help: ClassVar[str] = (
        "Position: '<score 1>-<score 2> +<turn total> <player to move 1|2>[ roll] goal=<N> "
        "moves=<made>/<horizon>', e.g. '12-7 +5 1 goal=20 moves=9/40'; 'roll' marks the "
        "moment before the die is rolled. The game is a draw after <horizon> decisions. "
        "Moves: roll (r), hold (h); at a roll, the die's face 1-6."
    )
    default_engine: ClassVar[str | None] = "expectimax"
    notation: ClassVar[str] = "pig-scores"
    player_names: ClassVar[tuple[str, ...]] = ("player 1", "player 2")

    def __init__(self, goal: int = 100, horizon: int = 1000) -> None:
        self.goal = goal
        self.horizon = horizon
        self.scores = [0, 0]
        self.turn_total = 0
        self.player = 0
        self.rolling = False
        self.moves_made = 0
        self._history: list[tuple[int, int, int, int, bool, int]] = []

    # -- notation -----------------------------------------------------------------------------

    @classmethod
    def from_position(cls, text: str) -> Pig:
        text = " ".join(text.split()) or cls.default_position
        match = _POSITION.fullmatch(text)
        if match is None:
            raise NotationError(
                "cannot read Pig position: expected e.g. "
                "'12-7 +5 1 goal=20 moves=9/40' ('roll' after the player at a roll)"
            )
        groups = match.groups()
        numbers = [capped_int(number, MAX_NUMBER) for number in groups[:4] + groups[5:]]
        if max(numbers) > MAX_NUMBER:
            raise NotationError(f"Pig position: a number is larger than {MAX_NUMBER}")
        first, second, turn, player, goal, made, horizon = numbers
        game = cls(goal, horizon)
        game.scores = [first, second]
        game.turn_total = turn
        game.player = player - 1
        game.rolling = groups[4] is not None
        game.moves_made = made
        game._check()
        return game

    def _check(self) -> None:
        """Raise NotationError for a readable position that cannot occur."""
        if not 1 <= self.goal <= MAX_GOAL:
            raise NotationError(f"Pig position: goal must be 1 to {MAX_GOAL}")
        if not 1 <= self.horizon <= MAX_HORIZON:
            raise NotationError(f"Pig position: horizon must be 1 to {MAX_HORIZON}")
        if self.moves_made > self.horizon:
            raise NotationError(
                f"Pig position: {self.moves_made} moves made is past the horizon {self.horizon}"
            )
        if any(score >= self.goal for score in self.scores) and (self.turn_total or self.rolling):
            raise NotationError(
                "Pig position: the game is over (a score reached the goal), "
                "so there is no turn total or roll"
            )
        if self.rolling and self.moves_made == 0:
            raise NotationError("Pig position: a roll comes after a decision (moves >= 1)")

    def position(self) -> str:
        roll = " roll" if self.rolling else ""
        return (
            f"{self.scores[0]}-{self.scores[1]} +{self.turn_total} {self.player + 1}{roll} "
            f"goal={self.goal} moves={self.moves_made}/{self.horizon}"
        )

    def parse_move(self, text: str) -> Move:
        word = text.strip().lower()
        if self.rolling:
            if word in _FACE_NAMES:
                return _FACE_NAMES[word]
            raise NotationError(f"a die shows 1 to {FACES}, not {quoted(text)}")
        move = _MOVE_NAMES.get(word)
        if move is None:
            raise NotationError(f"a Pig move is 'roll' or 'hold', not {quoted(text)}")
        if move not in self.legal_moves():
            reason = "the game is over" if self.is_terminal() else "holding reaches the goal"
            raise IllegalMoveError(f"{quoted(text)} is not legal here: {reason}")
        return move

    def format_move(self, move: Move) -> str:
        if self.rolling:
            return str(move)
        return "roll" if move == ROLL else "hold"

    # -- rules --------------------------------------------------------------------------------

    def to_move(self) -> int:
        return CHANCE if self.rolling else self.player

    def perspective(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        # a roll is resolved even when it was the last decision the horizon allows (it
        # changes no score: OpenSpiel ends the game before it, to the same result)
        if self.rolling:
            return False
        return self.moves_made >= self.horizon or max(self.scores) >= self.goal

    def legal_moves(self) -> list[Move]:
        if self.rolling:
            return list(range(1, FACES + 1))
        if self.is_terminal():
            return []
        if self.scores[self.player] + self.turn_total >= self.goal:
            return [HOLD]
        return [ROLL, HOLD]

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        return [(face, 1 / FACES) for face in range(1, FACES + 1)]

    def play(self, move: Move) -> None:
        self._history.append(
            (self.scores[0], self.scores[1], self.turn_total, self.player, self.rolling,
             self.moves_made)
        )  # fmt: skip
        if self.rolling:
            self.rolling = False
            if move == 1:
                self.turn_total = 0
                self.player = 1 - self.player
            else:
                self.turn_total += move
            return
        self.moves_made += 1
        if move == ROLL:
            self.rolling = True
            return
        self.scores[self.player] += self.turn_total
        self.turn_total = 0
        self.player = 1 - self.player

    def undo(self) -> None:
        first, second, self.turn_total, self.player, self.rolling, self.moves_made = (
            self._history.pop()
        )
        self.scores = [first, second]

    def returns(self) -> tuple[float, ...]:
        for player in (0, 1):
            if self.scores[player] >= self.goal:
                return (1.0, -1.0) if player == 0 else (-1.0, 1.0)
        return (0.0, 0.0)

    def terminal_reason(self) -> str:
        result = self.returns()
        if result[0] == result[1]:
            return f"draw: nobody reached {self.goal} within {self.horizon} moves"
        return f"player {1 if result[0] > 0 else 2} reached {self.goal}"

    def clone(self) -> Pig:
        copy = Pig(self.goal, self.horizon)
        copy.scores = list(self.scores)
        copy.turn_total, copy.player = self.turn_total, self.player
        copy.rolling, copy.moves_made = self.rolling, self.moves_made
        copy._history = list(self._history)
        return copy

    def render(self) -> str:
        board = f"Pig to {self.goal}: player 1 has {self.scores[0]}, player 2 has {self.scores[1]}"
        if self.is_terminal():
            return f"{board}\n{self.terminal_reason()} after {self.moves_made} moves"
        state = "rolling the die" if self.rolling else "to decide"
        return (
            f"{board}\nplayer {self.player + 1} {state} with {self.turn_total} this turn; "
            f"move {self.moves_made} of {self.horizon}"
        )

    # -- capabilities -------------------------------------------------------------------------

    def diagram(self, last: Move | None = None) -> Diagram:
        """The scores against the goal, the turn total and the moves made; the die shows
        the last roll. Roll and hold are buttons."""
        rolled = last is not None and bool(self._history) and self._history[-1][4]
        return Diagram(
            PANEL,
            gauges=(
                Gauge("player 1", self.scores[0], self.goal, 0),
                Gauge("player 2", self.scores[1], self.goal, 1),
                Gauge("turn total", self.turn_total, 0, self.player),
                Gauge("moves", self.moves_made, self.horizon),
            ),
            dice=(int(last),) if rolled else (),  # type: ignore[arg-type]
            colors=("#d33f2f", "#2f6f9f"),
        )

    def key(self) -> int:
        return hash(
            (self.scores[0], self.scores[1], self.turn_total, self.player, self.rolling,
             self.moves_made, self.goal, self.horizon)
        )  # fmt: skip

    def expected_return(self, player: int) -> float:
        """A heuristic: the lead, the turn total counting half (it may still be lost), as a
        fraction of the goal, squashed into (-1, 1) by tanh."""
        mine = self.scores[self.player] + self.turn_total / 2
        lead = (mine - self.scores[1 - self.player]) / self.goal
        value = math.tanh(3 * lead)
        return value if player == self.player else -value
