"""Cryptarithms (alphametics) as constraint puzzles (docs/games.md, "Constraint puzzles").

A sum of words, ``SEND+MORE=MONEY``: each letter stands for another digit, no word of two
letters or more starts with 0, and the sum holds. The model: a variable per letter (at
most 10, in the order the puzzle first writes them), its domain the digits 0-9 (1-9 for a
word's leading letter), an `AllDifferent` over the letters (``different letters``) and one
`Linear` (``the sum``): each letter weighted by its place values, those of the words after
``=`` negated, summing to 0. A move gives a letter a digit: ``S=9``. A position is the
puzzle, words of letters joined by ``+`` on either side of one ``=``, then after ``;`` any
letters given already (``SEND+MORE=MONEY; M=1``).
"""

from __future__ import annotations

from typing import ClassVar

from kibitz.games.base import Move, NotationError, quoted
from kibitz.games.capabilities import Presentation
from kibitz.games.csp.game import ConstraintGame
from kibitz.games.csp.grid import logic_grid
from kibitz.games.csp.model import AllDifferent, Linear, Model
from kibitz.games.presentation import Diagram

MAX_LETTERS = 10
MAX_WORD = 20
"""Letters a word has at most."""
MAX_WORDS = 20


class Cryptarithm(ConstraintGame, Presentation):
    """A sum of words to read as digits (see the module docstring)."""

    name: ClassVar[str] = "cryptarithm"
    title: ClassVar[str] = "Cryptarithm"
    default_position: ClassVar[str] = "SEND+MORE=MONEY"
    notation_help: ClassVar[str] = (
        "Position: a sum of words with one =, e.g. 'SEND+MORE=MONEY' or 'TWO+TWO=FOUR', "
        "then after ; any letters given already ('SEND+MORE=MONEY; M=1'). Each letter is "
        "another digit, at most 10 letters, and no word of two letters or more starts with "
        "0. A move gives a letter a digit: 'S=9'."
    )

    def __init__(self, left: tuple[str, ...], right: tuple[str, ...]) -> None:
        super().__init__(_model(left, right), [None] * len(_letters(left + right)))
        self._left, self._right = left, right

    @classmethod
    def from_position(cls, text: str) -> Cryptarithm:
        puzzle, _, givens = (text.strip() or cls.default_position).partition(";")
        puzzle = "".join(puzzle.split()).upper()
        sides = puzzle.split("=")
        if len(sides) != 2:
            raise NotationError(
                f"{quoted(puzzle)} is no sum of words: expected one =, e.g. SEND+MORE=MONEY"
            )
        left, right = (_words(side) for side in sides)
        letters = _letters(left + right)
        if len(letters) > MAX_LETTERS:
            raise NotationError(
                f"{len(letters)} letters: a cryptarithm has at most {MAX_LETTERS}, one a digit"
            )
        state = cls(left, right)
        state.read_givens(givens)
        return state

    def position(self) -> str:
        puzzle = f"{'+'.join(self._left)}={'+'.join(self._right)}"
        givens = self.givens_text()
        return f"{puzzle}; {givens}" if givens else puzzle

    def render(self) -> str:
        """The sum, each word beside its digits (. for a letter without one)."""
        digits = {
            name: "." if value is None else str(value)
            for name, value in zip(self._model.variables, self._values, strict=True)
        }
        words = [*self._left, *self._right]
        width = max(map(len, words))
        signs = [" ", *"+" * (len(self._left) - 1), "=", *"+" * (len(self._right) - 1)]
        return "\n".join(
            f"{sign} {word:>{width}}  {''.join(digits[letter] for letter in word):>{width}}"
            for sign, word in zip(signs, words, strict=True)
        )

    def diagram(self, last: Move | None = None) -> Diagram:
        """A row per letter, a column per digit, a marker where the letter has it."""
        return logic_grid(self, last, "marker")


def _words(side: str) -> tuple[str, ...]:
    """The words of one side of the sum, checked."""
    words = tuple(side.split("+"))
    if len(words) > MAX_WORDS:
        raise NotationError(f"{len(words)} words on one side: at most {MAX_WORDS}")
    for word in words:
        if not word or not word.isascii() or not word.isalpha():
            shown = quoted(word, 20) if word else "an empty word"
            raise NotationError(f"{shown}: a word is letters A-Z, words joined by + and =")
        if len(word) > MAX_WORD:
            raise NotationError(f"{quoted(word, 20)}: a word has at most {MAX_WORD} letters")
    return words


def _letters(words: tuple[str, ...]) -> tuple[str, ...]:
    """The letters in the order the words first write them."""
    return tuple(dict.fromkeys(letter for word in words for letter in word))


def _model(left: tuple[str, ...], right: tuple[str, ...]) -> Model:
    letters = _letters(left + right)
    weights = dict.fromkeys(letters, 0)
    for sign, words in ((1, left), (-1, right)):
        for word in words:
            for place, letter in enumerate(reversed(word)):
                weights[letter] += sign * 10**place
    leading = {word[0] for word in left + right if len(word) > 1}
    domains = tuple(tuple(range(1 if letter in leading else 0, 10)) for letter in letters)
    index = {letter: variable for variable, letter in enumerate(letters)}
    weighted = [letter for letter in letters if weights[letter]]
    total = Linear(
        tuple(index[letter] for letter in weighted),
        "the sum",
        coefficients=tuple(weights[letter] for letter in weighted),
    )
    return Model(
        letters, domains, (AllDifferent(tuple(range(len(letters))), "different letters"), total)
    )
