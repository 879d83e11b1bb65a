"""Bad notation over a real server (issue 27): chess null moves, move counters too big for C
integers, and messages that quote at most a short prefix of the input. Each answer is
INVALID_ARGUMENT with a short message, never UNKNOWN, and the server goes on serving."""

from __future__ import annotations

import grpc
import pytest

from kibitz.clients import Client, KibitzError, Limits
from kibitz.games import GAMES, Game, NotationError

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
NULL_MOVES = ["0000", "--", "Z0", "@@@@"]
BIG_COUNTERS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2147483648 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2147483648",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999999999999",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1000001 1",
]
SHORT = 300
"""Characters an error about bad notation has at most."""


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


async def refused(call) -> str:
    """The message of the INVALID_ARGUMENT that `call` (a coroutine) must raise."""
    with pytest.raises(KibitzError) as caught:
        await call
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT, caught.value
    assert len(caught.value.message) < SHORT, caught.value.message
    return caught.value.message


async def still_serving(client: Client) -> None:
    assert "e2e4" in (await client.describe("chess")).legal_moves


@pytest.mark.parametrize("null", NULL_MOVES)
async def test_a_null_move_in_describe_is_refused_as_illegal(client, null):
    message = await refused(client.describe("chess", "", ["e2e4", null]))
    assert message.startswith(f"moves: move 2 ({null!r}): ")
    assert "null move" in message and "Recursion" not in message
    await refused(client.describe("chess", "", [f"e2e4 {null} e7e5"]))
    await still_serving(client)


@pytest.mark.parametrize("null", NULL_MOVES)
async def test_a_null_move_in_search_moves_is_refused_by_analyze(client, null):
    limits = Limits(depth=1, search_moves=(null,))
    message = await refused(client.analyze_result("chess", limits=limits))
    assert message.startswith(f"limits.search_moves: {null!r}: ") and "null move" in message
    await refused(client.analyze("chess", moves=["e2e4"], limits=limits))
    await still_serving(client)


async def test_null_moves_in_search_moves_are_refused_by_a_session_search(client):
    async with await client.open("chess") as session:
        for null in NULL_MOVES:
            message = await refused(session.search(depth=1, search_moves=[null]))
            assert "null move" in message
        result = await session.search(depth=1, search_moves=["e2e4"])  # the session goes on
        assert result.best_move == "e2e4"


@pytest.mark.parametrize("fen", BIG_COUNTERS)
async def test_move_counters_beyond_the_documented_range_are_refused(client, fen):
    message = await refused(client.describe("chess", fen))
    assert "must be at most 1000000" in message and "Overflow" not in message
    await refused(client.analyze_result("chess", fen, depth=1))
    async with await client.open("chess") as session:
        await refused(session.search(fen, depth=1))
    await still_serving(client)


async def test_the_largest_counters_are_read(client):
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 99 1000000"
    described = await client.describe("chess", fen, ["e7e5"])
    assert described.position.endswith(" 0 1000001")  # played on past the bound: fine


@pytest.mark.parametrize(
    ("game", "position", "moves", "complaint"),
    [
        ("chess", "x" * 900, [], "not a FEN: expected 8 rows in position part of fen"),
        ("chess", START + " " + "x" * 900, [], "more parts than expected"),
        ("chess", "", ["x" * 900], "is not a move"),
        ("backgammon", "4HPwATDgc/ABMA:" + "7" * 400, [], "cannot read the dice"),
        ("hex", "3/" + "9" * 5000 + "/3 b", [], "is not a number of empty cells"),
        ("pig", "0-0 +0 1 goal=20 moves=0/" + "9" * 5000, [], "larger than"),
        ("pig", "0-0 +0 1 roll goal=20 moves=1/40", ["9" * 5000], "a die shows 1 to 6"),
        ("nim", "3,4," + "9" * 5000, [], "is more than 1000 objects"),
        ("nim", "3,4,5", ["1:" + "9" * 5000], "cannot take"),
        ("nim", "3,4,5", ["9" * 5000 + ":1"], "there is no heap"),
    ],
)
async def test_messages_quote_a_short_prefix_of_the_input(client, game, position, moves, complaint):
    message = await refused(client.describe(game, position, moves))
    assert complaint in message
    assert "4300" not in message  # Python's "Exceeds the limit (4300 digits)": not passed on


# -- the one place: a game whose reader breaks cannot make the server answer UNKNOWN ----------


FAILURES = {  # how Brittle's reader fails on each text
    "deep": lambda: Brittle.from_position("deep"),  # recurses until Python gives up
    "big": lambda: int("9" * 5000),
    "overflow": lambda: float(10**400),
    "index": lambda: [][0],
    "key": lambda: {}["x" * 5000],
    "value": lambda: int("x" * 5000),
}


class Brittle(Game):
    """A game whose notation code fails like buggy code does: with whatever Python raises."""

    name = "brittle"
    title = "Brittle"
    default_position = "ok"
    notation_help = "Anything but 'ok' breaks it."

    @classmethod
    def from_position(cls, text: str) -> Brittle:
        if text in ("", "ok"):
            return cls()
        FAILURES.get(text, FAILURES["value"])()
        raise NotationError("unreachable")  # pragma: no cover

    def parse_move(self, text: str):
        if text == "go":
            return 0
        return Brittle.from_position(text)

    def position(self) -> str:
        return "ok"

    def format_move(self, move) -> str:
        return "go"

    def to_move(self) -> int:
        return 0

    def legal_moves(self) -> list:
        return [0]

    def play(self, move) -> None:
        pass

    def undo(self) -> None:
        pass

    def is_terminal(self) -> bool:
        return False

    def returns(self) -> tuple[float, ...]:
        return (0.0, 0.0)

    def render(self) -> str:
        return "ok"


@pytest.fixture
def brittle():
    GAMES.register(Brittle)
    yield Brittle
    del GAMES[Brittle.name]


async def test_any_failure_of_a_games_reader_is_invalid_argument(client, brittle, caplog):
    for text in FAILURES:
        message = await refused(client.describe("brittle", text))
        assert message.startswith(f"position {text!r}: cannot read it as a brittle position: ")
        assert "xxxxxxxxxx" not in message  # Python's own text quotes the input: not passed on
        message = await refused(client.describe("brittle", "ok", ["go", text]))
        assert message.startswith(f"moves: move 2 ({text!r}): cannot read it as a brittle move")
    assert "nested too deeply" in await refused(client.describe("brittle", "deep"))
    assert "too large" in await refused(client.describe("brittle", "big"))
    assert "too large" in await refused(client.describe("brittle", "overflow"))
    assert (await client.describe("brittle", "ok", ["go"])).legal_moves == ["go"]
    warnings = [r for r in caplog.records if r.name == "kibitz.games" and r.levelname == "WARNING"]
    assert warnings and all(r.exc_info is None and len(r.getMessage()) < 400 for r in warnings)
