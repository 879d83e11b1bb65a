"""Backgammon as a `Game`: two players, dice as chance nodes, no doubling cube.

Before each roll the position is a chance node (`to_move()` is CHANCE, `perspective()` the
player about to roll): the 21 rolls, the 15 non-doubles first (1/18 each) then the doubles
(1/36), each a tuple ``(high, low)``. After the roll the player on roll chooses a play (one
per distinct resulting position, `board.plays`), or passes when no checker can move. The
game ends when a side has borne off all 15: a single game is worth 1, a gammon (the loser
has borne off none) 2, a backgammon (and still has a checker on the bar or in the winner's
home board) 3. Without a cube those are the returns.

Notation (`notation.py`): GNU Backgammon's Position ID, from the point of view of the player
on roll: ``ID`` before the roll (a plain ID means player 0 is on roll), ``ID:31`` after
it; gnubg's ``PositionID:MatchID`` also says which player is on roll and the dice, and is
what `position()` writes when player 1 is on roll. Plays as gnubg writes them, rolls as
``31:``.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import TYPE_CHECKING, ClassVar

from kibitz.games.backgammon import notation
from kibitz.games.backgammon.board import (
    BAR,
    CHECKERS,
    OFF,
    Play,
    apply_play,
    pips,
    plays,
    points_won,
    random_play,
    start_side,
)
from kibitz.games.backgammon.compiled import compiled_kernel
from kibitz.games.backgammon.evaluation import (
    pre_roll_chances,
    pre_roll_equities,
    pre_roll_equity,
)
from kibitz.games.base import CHANCE, Game, IllegalMoveError, Move, NotationError, quoted
from kibitz.games.capabilities import (
    Chances,
    EndgameTable,
    EstimateSources,
    ExpectedReturn,
    ExpectimaxKernel,
    HashKey,
    OutcomeChances,
    Playout,
    Presentation,
)
from kibitz.games.presentation import POINTS, Diagram, Gauge, Place

if TYPE_CHECKING:
    from kibitz.games.backgammon.bearoff import BearoffDatabase
    from kibitz.games.backgammon.network import Network

Roll = tuple[int, int]
ROLLS: tuple[Roll, ...] = tuple(
    (high, low) for high in range(2, 7) for low in range(1, high)
) + tuple((die, die) for die in range(1, 7))
"""The 21 rolls: the 15 non-doubles, then the doubles."""
OUTCOMES: list[tuple[Move, float]] = [
    (roll, 1 / 36 if roll[0] == roll[1] else 1 / 18) for roll in ROLLS
]
PASS: Play = ()
"""The play of a player who cannot move."""
STUCK_PASSES = 200
"""Passes in a row after which a playout calls the game stuck: both sides on the bar
against closed boards can never move again (with any roll)."""


class Backgammon(
    Game,
    HashKey,
    ExpectedReturn,
    OutcomeChances,
    EstimateSources,
    EndgameTable,
    ExpectimaxKernel,
    Playout,
    Presentation,
):
    """A backgammon position; see the module docstring."""

    name: ClassVar[str] = "backgammon"
    title: ClassVar[str] = "Backgammon"
    has_chance: ClassVar[bool] = True
    default_position: ClassVar[str] = "4HPwATDgc/ABMA"
    default_engine: ClassVar[str | None] = "expectimax"
    notation: ClassVar[str] = "gnubg-position-id"
    player_names: ClassVar[tuple[str, ...]] = ("player 1", "player 2")
    return_bounds: ClassVar[tuple[float, float]] = (-3.0, 3.0)
    estimate_names: ClassVar[tuple[str, ...]] = ("formula", "network")
    strongest_estimate: ClassVar[str] = "network"
    notation_help: ClassVar[str] = (
        "Position: GNU Backgammon's Position ID from the view of the player on roll "
        "('4HPwATDgc/ABMA' is the start), before the roll; 'ID:31' after rolling 3 and 1; "
        "gnubg's 'PositionID:MatchID' (the Match ID gives the player on roll and the dice). "
        "Plays as gnubg writes them, points counted from the mover's home: '8/5 6/5', "
        "'bar/22', '6/off', '13/7*', '8/4(2)' (or spelled out: '8/4 8/4'); 'pass' when no "
        "checker can move. Rolls: '31:' (or 31, 3-1). Single games: no doubling cube; a "
        "gammon counts 2, a backgammon 3."
    )

    def __init__(self) -> None:
        self.sides = [start_side(), start_side()]
        """Each player's checkers, in that player's own indexing (board.py)."""
        self.on_roll = 0
        self.dice: Roll | None = None
        self._plays: list[Play] | None = None
        self._history: list[tuple[list[int], list[int], int, Roll | None]] = []
        self.bearoff: BearoffDatabase | None = None
        """The bear-off database the estimate uses where both sides are home (None: the
        race curves everywhere; `with_endgame_table` sets it on a copy)."""
        self.network: Network | None = None
        """The TD network the estimate uses instead of its curves (where neither the game's
        end nor `bearoff` answers; None: the curves; `with_estimate` sets it on a copy)."""

    # -- notation -----------------------------------------------------------------------------

    @classmethod
    def from_position(cls, text: str) -> Backgammon:
        text = text.strip() or cls.default_position
        parts = text.split(":")
        if len(parts) > 2:
            raise NotationError(
                "cannot read the position: expected 'PositionID', 'PositionID:31' or "
                "'PositionID:MatchID'"
            )
        game = cls()
        mine, theirs = notation.decode_position_id(parts[0])
        on_roll, dice = 0, None
        if len(parts) == 2:
            suffix = parts[1]
            if len(suffix) == notation.MATCH_ID_LENGTH:
                match = notation.decode_match_id(suffix)
                on_roll, dice = match.on_roll, match.dice
            else:
                dice = notation.parse_roll(suffix)
                if dice is None:
                    raise NotationError(
                        f"cannot read the dice {quoted(suffix)}: expected "
                        "two digits 1-6 such as 31, or a 12-character Match ID"
                    )
        game.on_roll, game.dice = on_roll, dice
        game.sides[on_roll], game.sides[1 - on_roll] = mine, theirs
        if not sum(mine) and not sum(theirs):
            raise NotationError("neither side has a checker on the board")
        return game

    def position(self) -> str:
        mine, theirs = self.sides[self.on_roll], self.sides[1 - self.on_roll]
        position_id = notation.encode_position_id(mine, theirs)
        if self.on_roll == 1:
            return f"{position_id}:{notation.encode_match_id(1, self.dice)}"
        if self.dice is None:
            return position_id
        return f"{position_id}:{self.dice[0]}{self.dice[1]}"

    def parse_move(self, text: str) -> Move:
        if self.dice is None:
            roll = notation.parse_roll(text)
            if roll is None:
                raise NotationError(
                    f"the dice are to be rolled: expected a roll such as 31: or 3-1, not "
                    f"{quoted(text)}"
                )
            return roll
        if notation.parse_roll(text) is not None:
            raise IllegalMoveError(
                f"{quoted(text)}: the dice are already rolled ({self._dice_text()})"
            )
        if self.is_terminal():
            raise IllegalMoveError(f"{quoted(text)}: the game is over")
        me, opp = self.sides[self.on_roll], self.sides[1 - self.on_roll]
        return notation.parse_play(text, me, opp, self._legal_plays())

    def format_move(self, move: Move) -> str:
        if self.dice is None:
            return notation.format_roll(move)  # type: ignore[arg-type]
        return notation.format_play(move, self.sides[1 - self.on_roll])  # type: ignore[arg-type]

    def split_moves(self, text: str) -> list[str]:
        """A transcript such as ``31: 8/5 6/5 64: 24/18 13/9``: a roll starts a new move,
        the checker paths between two rolls are one play."""
        moves: list[str] = []
        play: list[str] = []
        for word in text.replace(",", " ").split():
            if notation.parse_roll(word) is not None:
                if play:
                    moves.append(" ".join(play))
                    play = []
                moves.append(word)
            else:
                play.append(word)
        if play:
            moves.append(" ".join(play))
        return moves

    def _dice_text(self) -> str:
        return f"{self.dice[0]}{self.dice[1]}" if self.dice else "not rolled"

    # -- rules --------------------------------------------------------------------------------

    def to_move(self) -> int:
        if self.dice is None and not self.is_terminal():
            return CHANCE
        return self.on_roll

    def perspective(self) -> int:
        return self.on_roll

    def is_terminal(self) -> bool:
        return not sum(self.sides[0]) or not sum(self.sides[1])

    def _legal_plays(self) -> list[Play]:
        if self._plays is None:
            assert self.dice is not None
            me, opp = self.sides[self.on_roll], self.sides[1 - self.on_roll]
            self._plays = plays(me, opp, *self.dice) or [PASS]
        return self._plays

    def legal_moves(self) -> list[Move]:
        if self.is_terminal():
            return []
        if self.dice is None:
            return list(ROLLS)
        return list(self._legal_plays())

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        return list(OUTCOMES)

    def play(self, move: Move) -> None:
        mine, theirs = self.sides[self.on_roll], self.sides[1 - self.on_roll]
        self._history.append((mine[:], theirs[:], self.on_roll, self.dice))
        self._plays = None
        if self.dice is None:
            self.dice = move  # type: ignore[assignment]
            return
        apply_play(mine, theirs, move)  # type: ignore[arg-type]
        self.dice = None
        if sum(mine):  # the game goes on: the other player rolls next
            self.on_roll = 1 - self.on_roll

    def undo(self) -> None:
        mine, theirs, self.on_roll, self.dice = self._history.pop()
        self.sides[self.on_roll], self.sides[1 - self.on_roll] = mine, theirs
        self._plays = None

    def returns(self) -> tuple[float, ...]:
        return final_returns(self.sides)

    def terminal_reason(self) -> str:
        winner = 0 if not sum(self.sides[0]) else 1
        points = points_won(self.sides[1 - winner])
        kind = {1: "a single game", 2: "a gammon", 3: "a backgammon"}[points]
        return f"player {winner + 1} wins {kind}"

    def clone(self) -> Backgammon:
        copy = Backgammon.__new__(Backgammon)
        copy.sides = [self.sides[0][:], self.sides[1][:]]
        copy.on_roll, copy.dice = self.on_roll, self.dice
        copy._plays = None
        copy._history = [(a[:], b[:], c, d) for a, b, c, d in self._history]
        copy.bearoff = self.bearoff
        copy.network = self.network
        return copy

    def render(self) -> str:
        """The board from the view of the player on roll (X, moving from 24 to 1)."""
        me, opp = self.sides[self.on_roll], self.sides[1 - self.on_roll]

        def cell(index: int) -> str:
            if me[index]:
                return f"X{me[index]}" if me[index] > 1 else "X "
            theirs = opp[23 - index]
            if theirs:
                return f"O{theirs}" if theirs > 1 else "O "
            return ". "

        top = " ".join(cell(index) for index in range(12, 24))
        bottom = " ".join(cell(index) for index in range(11, -1, -1))
        roll = f"rolled {self._dice_text()}" if self.dice else "to roll"
        lines = [
            " 13 14 15 16 17 18   19 20 21 22 23 24",
            " " + top[:17] + "   " + top[18:],
            " " + bottom[:17] + "   " + bottom[18:],
            " 12 11 10  9  8  7    6  5  4  3  2  1",
            f"X = player {self.on_roll + 1} ({roll}): bar {me[BAR]}, off "
            f"{CHECKERS - sum(me)}, pips {pips(me)}",
            f"O = player {2 - self.on_roll}: bar {opp[BAR]}, off {CHECKERS - sum(opp)}, "
            f"pips {pips(opp)}",
            f"Position ID {notation.encode_position_id(me, opp)}",
        ]
        if self.is_terminal():
            lines.append(self.terminal_reason())
        return "\n".join(lines)

    # -- capabilities -------------------------------------------------------------------------

    def diagram(self, last: Move | None = None) -> Diagram:
        """The 24 points as the first player counts them (13-24 on the top row, 12-1 on the
        bottom one), each labelled as the player on roll counts it; bar, borne-off checkers
        and pip counts as gauges; the dice. Plays are buttons; the points the last play
        touched are highlighted."""
        first, second = self.sides
        places = []
        for number in range(1, 25):
            own, other = first[number - 1], second[24 - number]
            top = number >= 13
            label = number if self.on_roll == 0 else 25 - number
            places.append(
                Place(
                    f"p{number}",
                    row=0 if top else 1,
                    column=number - 13 if top else 12 - number,
                    piece="checker" if own or other else "",
                    owner=0 if own else 1 if other else -1,
                    count=own or other,
                    label=str(label),
                )
            )
        gauges = tuple(
            Gauge(name, value(self.sides[player]), limit, player)
            for name, value, limit in (
                ("bar", lambda side: side[BAR], 0),
                ("off", lambda side: CHECKERS - sum(side), CHECKERS),
                ("pips", pips, 0),
            )
            for player in (0, 1)
        )
        return Diagram(
            POINTS,
            rows=2,
            columns=12,
            places=tuple(places),
            highlights=self._touched(last),
            dice=tuple(self.dice) if self.dice else (),
            gauges=gauges,
            colors=("#f6f1e4", "#2a2a2a"),
        )

    def _touched(self, last: Move | None) -> tuple[str, ...]:
        """The places of the points a play `last` (just played) moved checkers from or to."""
        if not last or not isinstance(last[0], tuple):  # no move, a pass or a roll
            return ()
        mover = self.on_roll if self.is_terminal() else 1 - self.on_roll
        points = {index for step in last for index in step if index not in (BAR, OFF)}
        return tuple(f"p{index + 1 if mover == 0 else 24 - index}" for index in sorted(points))

    def key(self) -> int:
        return hash((tuple(self.sides[0]), tuple(self.sides[1]), self.on_roll, self.dice))

    def expected_return(self, player: int) -> float:
        """The pre-roll estimate for the player on roll (at a decision node too: the roll
        in hand is not looked at; with `bearoff`'s race chances where both are home, and
        `network`'s outputs elsewhere where it is set), negated for the other player."""
        on_roll = self.on_roll
        value = pre_roll_equity(
            self.sides[on_roll], self.sides[1 - on_roll], self.bearoff, self.network
        )
        return value if player == on_roll else -value

    def with_estimate(self, name: str) -> Backgammon:
        """This position estimated by the curves fitted to GNU Backgammon ("formula") or by
        the TD network shipped with kibitz ("network": `network.shipped_network`): a copy
        where that changes `network`, else itself."""
        if name not in self.estimate_names:
            raise ValueError(
                f"{self.name} has no estimate {quoted(name)} ({', '.join(self.estimate_names)})"
            )
        if name == "formula":
            return self._holding("network", None)
        from kibitz.games.backgammon.network import shipped_network  # numpy: only where used

        return self._holding("network", shipped_network())

    def with_endgame_table(self, use: bool) -> Backgammon:
        """This position with the bear-off database (`bearoff.cached_database`: the largest
        built) where `use`, without one where not: a copy where that changes `bearoff`, else
        itself; FileNotFoundError naming the command that builds it where it is not built."""
        if not use:
            return self._holding("bearoff", None)
        from kibitz.games.backgammon import bearoff  # numpy: only where the database is used

        return self._holding("bearoff", bearoff.cached_database())

    def _holding(self, attribute: str, value: object) -> Backgammon:
        """This position where its `attribute` (`bearoff`, `network`) is `value`, else a
        copy holding `value` there."""
        if getattr(self, attribute) is value:
            return self
        copy = self.clone()
        setattr(copy, attribute, value)
        return copy

    kernel_estimates: ClassVar[tuple[str, ...]] = ("formula", "network")

    @classmethod
    def expectimax_kernel(cls) -> ModuleType | None:
        """`_kernel.pyx` (the curves or the network, and the bear-off database)."""
        return compiled_kernel()

    def batched(self) -> bool:
        """Whether `network` is set: its outputs for many positions are one matrix product."""
        return self.network is not None

    def values_after(self, moves: list[Move]) -> tuple[list[float], list[bool]]:
        """Player 0's value after each of `moves` (plays of the roll in hand; `network`
        set): the returns where the play ends the game, else `expected_return(0)` there,
        the network's outputs for all of them in one batch (`evaluation.pre_roll_equities`);
        and for each, whether it is an estimate (the game not over)."""
        assert self.network is not None and self.dice is not None
        mover = self.on_roll
        positions = []
        for move in moves:
            mine, theirs = self.sides[mover][:], self.sides[1 - mover][:]
            apply_play(mine, theirs, move)  # type: ignore[arg-type]
            positions.append((theirs, mine))  # the other on roll, or the game over
        equities = pre_roll_equities(positions, self.bearoff, self.network)
        values, estimates = [], []
        for (theirs, mine), equity in zip(positions, equities, strict=True):
            if not sum(mine):
                values.append(final_returns([mine, theirs] if mover == 0 else [theirs, mine])[0])
                estimates.append(False)
            else:  # the other player is on roll: its equity, player 0's view
                values.append(equity if mover == 1 else -equity)
                estimates.append(True)
        return values, estimates

    def outcome_chances(self, player: int) -> Chances:
        """The pre-roll estimate's chances (`evaluation.pre_roll_chances`) of the player on
        roll, seen by `player`; exact at the end of the game."""
        on_roll = self.on_roll
        chances = pre_roll_chances(
            self.sides[on_roll], self.sides[1 - on_roll], self.bearoff, self.network
        )
        return chances if player == on_roll else chances.flipped()

    def playout(
        self, rng: random.Random, record: list[tuple[int, Move]] | None = None
    ) -> tuple[float, ...]:
        """A random game to the end on copies of the board (`board.random_play`). Where
        both sides are shut out on the bar (every roll passes, for ever), it is a draw."""
        sides = [self.sides[0][:], self.sides[1][:]]
        on_roll, dice = self.on_roll, self.dice
        passes = 0
        while sum(sides[0]) and sum(sides[1]):
            if passes >= STUCK_PASSES:
                return (0.0, 0.0)
            if dice is None:
                first, second = rng.randint(1, 6), rng.randint(1, 6)
                dice = (max(first, second), min(first, second))
                if record is not None:
                    record.append((CHANCE, dice))
            me, opp = sides[on_roll], sides[1 - on_roll]
            play = random_play(me, opp, *dice, rng)
            passes = passes + 1 if not play else 0
            if record is not None:
                record.append((on_roll, play))
            apply_play(me, opp, play)
            on_roll, dice = 1 - on_roll, None
        return final_returns(sides)


def final_returns(sides: list[list[int]]) -> tuple[float, float]:
    """The returns of a finished game (the side with no checkers left has won)."""
    winner = 0 if not sum(sides[0]) else 1
    points = float(points_won(sides[1 - winner]))
    return (points, -points) if winner == 0 else (-points, points)
