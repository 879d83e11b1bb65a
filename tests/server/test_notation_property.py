"""A property of every registered game's notation (the example plugin's included), over a
real server: whatever text comes as a position, as a move in Describe's `moves` or as a
search move in Analyze's `search_moves`, the answer is OK (the text happened to be valid),
INVALID_ARGUMENT or NOT_FOUND, never UNKNOWN or INTERNAL; an error's message is under 300
characters; and the server goes on serving. How quickly hostile text is refused is measured
in `python -m benchmarks` (the round-trip table's Describe rows), not asserted here.

The texts are hostile ones (huge numbers, deep brackets, control characters, 20 KB, null
moves) and seeded random ones: mutations of each game's valid positions and moves (numbers
blown up, junk added, cut short) and random strings. Deterministic: a seeded generator and
fixed counts."""

from __future__ import annotations

import random
import string

import grpc
import pytest

from kibitz.clients import Client, KibitzError, Limits
from kibitz.engines import ENGINES
from kibitz.games import CHANCE, GAMES, Game

SEED = 2027
MUTANTS = 24
"""Mutations of valid text per game and kind (position, move, search move)."""
RANDOM = 8
"""Random strings per game and kind."""
SHORT = 300
ANSWERED = {grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND}

HUGE_NUMBERS = ["9" * 5000, "2147483648", "-2147483649", "99999999999999999999", "1" * 400]
HOSTILE = [
    *HUGE_NUMBERS,
    "[" * 1000,
    "]" * 1000,
    "(" * 500 + ")" * 500,
    "{" * 1000,
    "é" * 50,
    "🂡" * 10,
    "²",
    "٣",
    "\u202e\ufeff",
    "\x00\x01\n",
    "\x7f\x1b[2J",
    "x" * 20_000,
    "0000",
    "--",
    "@@@@",
    "Z0",
    "",
    " ",
    "\t\n\r",
    ",,,",
    "/",
    ":",
    "1e999",
    "nan",
    "-0",
    "0x10",
    "1_000",
    "None",
    "pass",
    "swap",
    "roll",
    "O-O-O-O",
    "e7e8k",
]
ALPHABET = string.printable + "éß٣²🂡\x00\x01\x1b\u202e"
JUNK = [" x", "x", " 0000", "/", ":", "\x00", " " + "9" * 5000, "[" * 200, " -1", "é"]


def mutant(rng: random.Random, text: str) -> str:
    """`text` (valid) made doubtful: a number blown up, junk added, cut short, a character
    changed, or repeated into a long string."""
    choice = rng.randrange(6)
    if choice == 0 and any(c.isdigit() for c in text):
        digits = [i for i, c in enumerate(text) if c.isdigit()]
        start = rng.choice(digits)
        end = start
        while end < len(text) and text[end].isdigit():
            end += 1
        return text[:start] + rng.choice(HUGE_NUMBERS) + text[end:]
    if choice == 1:
        return text + rng.choice(JUNK)
    if choice == 2:
        return rng.choice(JUNK) + text
    if choice == 3 and text:
        return text[: rng.randrange(len(text))]
    if choice == 4 and text:
        index = rng.randrange(len(text))
        return text[:index] + rng.choice(ALPHABET) + text[index + 1 :]
    return (text + " ") * rng.randint(2, 3000)


def random_text(rng: random.Random) -> str:
    length = rng.choice([1, 2, 4, 8, 40, 20_000])
    return "".join(rng.choice(ALPHABET) for _ in range(length))


def valid_texts(game: type[Game], rng: random.Random) -> tuple[list[str], list[str]]:
    """Positions and moves of `game` from a short seeded random playout."""
    state = game.from_position("")
    positions, moves = [state.position()], []
    for _ in range(8):
        legal = state.legal_moves()
        if not legal:
            break
        moves.extend(state.format_move(move) for move in legal[:6])
        state.play(rng.choice(legal))
        positions.append(state.position())
    return positions, moves


def texts(game: type[Game], rng: random.Random) -> tuple[list[str], list[str], list[str]]:
    """(positions, moves, search moves) to try on `game`."""
    positions, moves = valid_texts(game, rng)

    def batch(valid: list[str], count: int) -> list[str]:
        return [mutant(rng, rng.choice(valid)) for _ in range(count)] + [
            random_text(rng) for _ in range(RANDOM)
        ]

    return (
        HOSTILE + batch(positions, MUTANTS),
        HOSTILE + batch(moves, MUTANTS),
        HOSTILE + batch(moves, MUTANTS // 2),
    )


def quick_engine(game: type[Game]) -> str:
    """An engine that searches `game` in the server process (should a random search move
    be legal), else the game's default."""
    for name in ("alphabeta", "expectimax"):
        if name in ENGINES and ENGINES[name].supports(game):
            return name
    return ""


class Answers:
    """The codes of the calls made."""

    def __init__(self) -> None:
        self.codes: dict[grpc.StatusCode, int] = {}

    async def call(self, what: str, call) -> None:
        try:
            await call
            code = grpc.StatusCode.OK
        except KibitzError as error:
            code = error.code
            assert code in ANSWERED, f"{what}: {code.name} {error.message[:300]}"
            assert len(error.message) < SHORT, f"{what}: {error.message}"
        self.codes[code] = self.codes.get(code, 0) + 1


@pytest.mark.timeout(120)
async def test_every_games_notation_answers_any_text_briefly(server):
    rng = random.Random(SEED)
    answers = Answers()
    async with Client(server.address) as client:
        for name in sorted(GAMES):
            game = GAMES[name]
            positions, moves, search_moves = texts(game, rng)
            start = game.from_position("")
            first = start.format_move(start.legal_moves()[0])
            engine = quick_engine(game)
            for text in positions:
                await answers.call(f"{name} position {text[:40]!r}", client.describe(name, text))
            for text in moves:
                what = f"{name} move {text[:40]!r}"
                await answers.call(what, client.describe(name, "", [text]))
                await answers.call(what, client.describe(name, "", [first, text]))
            for text in search_moves:
                limits = Limits(nodes=1, search_moves=(text,))
                await answers.call(
                    f"{name} search move {text[:40]!r}",
                    client.analyze_result(name, engine=engine, limits=limits),
                )
            assert (await client.describe(name)).legal_moves  # still serving
    refused = answers.codes.get(grpc.StatusCode.INVALID_ARGUMENT, 0)
    assert refused > 0.8 * sum(answers.codes.values()), answers.codes  # mostly bad text


def test_the_texts_cover_every_registered_game_and_chance_positions():
    assert {"race21", "chess", "backgammon", "pig", "hex"} <= set(GAMES)  # the plugin too
    rng = random.Random(SEED)
    pig_positions, pig_moves = valid_texts(GAMES["pig"], rng)
    assert any(GAMES["pig"].from_position(p).to_move() == CHANCE for p in pig_positions)
    assert {"1", "6"} <= set(pig_moves)  # a die's faces: moves at a chance node
