"""Backgammon's learned evaluation: a TD-Gammon network (numpy inference, no other
dependency), trained by `training.py` (TD(lambda) self-play), then by `fitting.py` (rounds
fitted to its own 1-ply lookahead).

**Inputs**: Gerald Tesauro's 198 ("Practical Issues in Temporal Difference Learning",
Machine Learning 8, 1992; the encoding of TD-Gammon 0.0), in a relative form: the position
is seen by the player about to roll. For each side, the player on roll first, then the
other: for each of its 24 points (its own index 0-23 in `board.py`'s convention) four
units for n checkers there: n >= 1, n >= 2, n >= 3, and (n - 3) / 2 when n > 3; then its
checkers on the bar / 2 and its checkers borne off / 15 (98 units a side). Tesauro's last
two units said whose turn it was, which this view always knows; here they say instead
whether the sides are still in contact: (1, 0) in contact, (0, 1) in a race
(`evaluation.is_race`), so that hidden units can switch between the two kinds of game.
A network with 204 inputs (`Network.contact`) has six more after those: `contact.py`'s
features (shots, the pips they cost, primes), which one hidden layer finds hard to learn.

**Network**: one hidden layer of sigmoids, five sigmoid outputs for the player on roll:
win, win a gammon or better, win a backgammon, lose a gammon or better, lose a backgammon.
Its cubeless equity is ``2 win - 1 + gammon + backgammon - lose gammon - lose backgammon``
(the same as `evaluation.pre_roll_equity`'s). A finished game (one side has nothing left)
is never asked of the network: `outputs` puts its exact outcome there.

A 1-ply player evaluates the afterstates of every legal play of its roll in one batch
(`afterstates`, then `outputs` with the opponent on roll) and picks the one that is worst
for the opponent (`best_play`).

Weights are kept in a ``.npz`` file (``w1``, ``b1``, ``w2``, ``b2``; a training checkpoint
is such a file with its counters added); `DEFAULT_WEIGHTS` is the one shipped.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kibitz.games.backgammon.board import CHECKERS, Play, apply_play, plays, points_won
from kibitz.games.backgammon.contact import FEATURES, features
from kibitz.games.capabilities import Chances

INPUTS = 198
"""Tesauro's inputs; a network with contact features has `FEATURES` more."""
OUTPUTS = 5
DEFAULT_WEIGHTS = Path(__file__).resolve().parent / "data" / "td.npz"
"""The weights shipped with kibitz (`training.py`, then `fitting.py` made them; docs/games.md
says how)."""

WEIGHTS = ("w1", "b1", "w2", "b2")
"""The names of the weight arrays, in `Network`'s order (and in a ``.npz`` file)."""
FLIP = np.array([0, 3, 4, 1, 2])
"""The outputs seen by the other player: its win is my loss, its gammons my lost gammons."""

Side = Sequence[int]


def encode(on_roll: np.ndarray, other: np.ndarray, contact: bool = False) -> np.ndarray:
    """The 198 inputs of each position: `on_roll` and `other` are (n, 25) arrays of the two
    sides' checkers (`board.py`'s per-side convention), row by row the same position;
    returns an (n, 198) array, or (n, 204) with the `contact` features after them."""
    rows = on_roll.shape[0]
    x = np.empty((rows, INPUTS + FEATURES if contact else INPUTS))
    for offset, side in ((0, on_roll), (98, other)):
        x[:, offset : offset + 96] = _UNITS[side[:, :24]].reshape(rows, 96)
        x[:, offset + 96] = side[:, 24] / 2
        x[:, offset + 97] = (CHECKERS - side.sum(axis=1)) / CHECKERS
    race = _rearmost(on_roll) + _rearmost(other) < 23
    x[:, 196] = ~race
    x[:, 197] = race
    if contact:
        x[:, INPUTS:] = features(on_roll, other)
    return x


_UNITS = np.array(
    [[n >= 1, n >= 2, n >= 3, max(n - 3, 0) / 2] for n in range(CHECKERS + 1)], dtype=float
)
"""The four units of a point with n checkers, at n."""


def _rearmost(sides: np.ndarray) -> np.ndarray:
    """Each row's rearmost occupied index (the bar is 24), -1 where the side has none left."""
    occupied = sides > 0
    return np.where(occupied.any(axis=1), 24 - np.argmax(occupied[:, ::-1], axis=1), -1)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -50.0, 50.0)))


def equity(outputs: np.ndarray) -> np.ndarray:
    """The cubeless equity of each row of outputs (the last axis: the five outputs)."""
    win, gammon, backgammon, lose_gammon, lose_backgammon = np.moveaxis(outputs, -1, 0)
    return 2.0 * win - 1.0 + gammon + backgammon - lose_gammon - lose_backgammon


def flipped(outputs: np.ndarray) -> np.ndarray:
    """The same outputs seen by the other player."""
    seen = outputs[..., FLIP].copy()
    seen[..., 0] = 1.0 - seen[..., 0]
    return seen


def outcome(on_roll: Side, other: Side) -> np.ndarray | None:
    """The exact outputs of a finished game for the player on roll (who has lost unless it
    is the one with nothing left), or None while both sides have checkers left."""
    if any(on_roll) and any(other):
        return None
    if any(other):  # the player on roll has borne everything off
        points = points_won(list(other))
        return np.array([1.0, points >= 2, points >= 3, 0.0, 0.0])
    points = points_won(list(on_roll))
    return np.array([0.0, 0.0, 0.0, points >= 2, points >= 3])


@dataclass
class Network:
    """The weights: ``hidden = sigmoid(x @ w1 + b1)`` (`w1` has a row per input),
    ``outputs = sigmoid(w2 @ hidden + b2)`` (`w2` a row per output)."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    @classmethod
    def random(cls, hidden: int, seed: int, contact: bool = False) -> Network:
        """Fresh weights, uniform in +-0.1 (seeded), with the contact features' inputs or
        without."""
        rng = np.random.default_rng(seed)
        return cls(
            rng.uniform(-0.1, 0.1, (INPUTS + FEATURES if contact else INPUTS, hidden)),
            rng.uniform(-0.1, 0.1, hidden),
            rng.uniform(-0.1, 0.1, (OUTPUTS, hidden)),
            rng.uniform(-0.1, 0.1, OUTPUTS),
        )

    @classmethod
    def load(cls, path: str | Path = DEFAULT_WEIGHTS) -> Network:
        """The weights of a ``.npz`` file (`save`'s, or a training checkpoint)."""
        with np.load(path) as data:
            return cls.from_arrays(data)

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> Network:
        """Weights from `arrays` (copies, float64)."""
        return cls(*(np.array(arrays[name], dtype=np.float64) for name in WEIGHTS))

    def arrays(self) -> dict[str, np.ndarray]:
        """The weights by name (what `save` writes)."""
        return {name: getattr(self, name) for name in WEIGHTS}

    def save(self, path: str | Path) -> None:
        np.savez(path, **self.arrays())

    @property
    def hidden(self) -> int:
        return self.b1.shape[0]

    @property
    def contact(self) -> bool:
        """Whether the network takes `contact.py`'s features after Tesauro's inputs."""
        return self.w1.shape[0] == INPUTS + FEATURES

    def with_contact(self) -> Network:
        """This network taking the contact features too, their weights zero (the same
        function); itself if it takes them already."""
        if self.contact:
            return self
        extra = np.zeros((FEATURES, self.hidden))
        return Network(np.vstack([self.w1, extra]), self.b1.copy(), self.w2.copy(), self.b2.copy())

    def encode(self, on_roll: np.ndarray, other: np.ndarray) -> np.ndarray:
        """`encode` with this network's inputs."""
        return encode(on_roll, other, self.contact)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The hidden activations and the outputs of each row of inputs (n, 198 or 204)."""
        hidden = _sigmoid(x @ self.w1 + self.b1)
        return hidden, _sigmoid(hidden @ self.w2.T + self.b2)

    def outputs(self, on_roll: Sequence[Side], other: Sequence[Side]) -> np.ndarray:
        """The five outputs (n, 5) of each position (the player on roll's side, the
        other's), finished games exact."""
        mine, theirs = np.array(on_roll), np.array(other)
        _, out = self.forward(self.encode(mine, theirs))
        for row in np.flatnonzero((mine.sum(axis=1) == 0) | (theirs.sum(axis=1) == 0)):
            out[row] = outcome(on_roll[row], other[row])
        return out

    def pre_roll_equity(self, on_roll: Side, other: Side) -> float:
        """The cubeless equity of the player on roll before rolling."""
        return float(equity(self.outputs([on_roll], [other])[0]))

    def pre_roll_chances(self, on_roll: Side, other: Side) -> Chances:
        """The outputs as `Chances` of the player on roll, made consistent (a gammon output
        above the win chance is cut to it, a backgammon output to the gammon chance;
        `pre_roll_equity` takes them uncut)."""
        win, gammon, backgammon, lose_gammon, lose_backgammon = (
            float(value) for value in self.outputs([on_roll], [other])[0]
        )
        gammon, lose_gammon = min(gammon, win), min(lose_gammon, 1.0 - win)
        return Chances(
            win, gammon, min(backgammon, gammon), lose_gammon, min(lose_backgammon, lose_gammon)
        )

    def best_play(self, me: list[int], opp: list[int], high: int, low: int) -> Play:
        """The 1-ply choice of the player on roll (`me`) for the roll: the play whose
        afterstate is worst for the opponent (the first of equals; () to pass)."""
        legal = plays(me, opp, high, low)
        if len(legal) < 2:
            return legal[0] if legal else ()
        theirs, mine = afterstates(me, opp, legal)
        return legal[int(np.argmin(equity(self.outputs(theirs, mine))))]


@functools.cache
def shipped_network() -> Network:
    """The network shipped with kibitz (`DEFAULT_WEIGHTS`), loaded once: the estimate
    "network" of `Backgammon.with_estimate`."""
    return Network.load()


def afterstates(
    me: list[int], opp: list[int], candidates: Sequence[Play]
) -> tuple[list[list[int]], list[list[int]]]:
    """The position after each play, as (the opponent's sides, the mover's sides): the
    opponent is then on roll."""
    theirs, mine = [], []
    for play in candidates:
        mover, other = me[:], opp[:]
        apply_play(mover, other, play)
        mine.append(mover)
        theirs.append(other)
    return theirs, mine
