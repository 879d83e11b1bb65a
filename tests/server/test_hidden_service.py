"""Games of hidden information through the real server and client: `cfr` answers each of
Kuhn poker's 12 information sets with its strategy (NashConv by OpenSpiel at most 0.01),
`pimc` answers every one, the perfect-information engines are refused, and no answer for a
view, Infos included, carries a card the view does not hold or a line past its move."""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import exploitability

from kibitz.clients import Client, InvalidArgument
from kibitz.clients.values import Limits
from kibitz.engines import Result, RootMove, Score
from kibitz.games import GAMES
from kibitz.server import convert

CARDS = "JQK"
VIEWS = [f"{card}:{betting}" for card in CARDS for betting in ("", "c", "r", "cr")]
"""The 12 information sets of Kuhn poker as views: the player to move's card, the betting."""


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


def openspiel_key(view: str) -> str:
    """OpenSpiel's information state string of a Kuhn view: the card's number, then the
    betting with p for a check and b for a bet."""
    card, betting = view.split(":")
    return str(CARDS.index(card)) + betting.replace("c", "p").replace("r", "b")


def openspiel_action(view: str, move: str) -> int:
    """OpenSpiel's action (0 pass, 1 bet) for one of our moves in `view`: c is a pass
    before a bet and a bet (call) after one, f a pass."""
    facing_a_bet = view.endswith("r")
    return {"r": 1, "f": 0, "c": 1 if facing_a_bet else 0}[move]


async def test_cfr_answers_every_kuhn_information_set_with_an_equilibrium(client):
    game = pyspiel.load_game("kuhn_poker")
    policy = openspiel_policy.TabularPolicy(game)
    async with await client.open("kuhn-poker", "cfr") as session:
        for view in VIEWS:
            result = await session.search(view, depth=1000)
            assert sum(root.probability for root in result.root_moves) == pytest.approx(1.0)
            assert result.best_move == result.root_moves[0].move
            assert result.stats["iterations"] == 1000
            player = 0 if len(view.split(":")[1]) % 2 == 0 else 1
            value = -1 / 18 if player == 0 else 1 / 18
            assert result.stats["game_value"] == pytest.approx(value, abs=1e-3)
            probabilities = policy.policy_for_key(openspiel_key(view))
            for root in result.root_moves:
                probabilities[openspiel_action(view, root.move)] = root.probability
    assert exploitability.nash_conv(game, policy) <= 0.01
    assert exploitability.nash_conv(game, policy) == pytest.approx(
        result.stats["nash_conv"], abs=1e-9
    )


async def test_pimc_answers_every_kuhn_information_set(client):
    for view in VIEWS:
        result = await client.analyze("kuhn-poker", view, engine="pimc")
        described = await client.describe("kuhn-poker", view)
        assert sorted(root.move for root in result.root_moves) == sorted(described.legal_moves)
        assert result.stats["worlds"] == 2
        votes = [result.stats[f"votes {root.move}"] for root in result.root_moves]
        assert sum(votes) == pytest.approx(1.0)  # the two listed worlds, 1/2 each
        best = max(root.score.expected_value for root in result.root_moves)
        assert result.root_moves[0].score.expected_value == best
    caller = await client.analyze("kuhn-poker", "K:r", engine="pimc")
    assert {root.move: root.score.expected_value for root in caller.root_moves} == {
        "c": 2.0,
        "f": -1.0,
    }


@pytest.mark.parametrize("engine", ["alphabeta", "mcts", "expectimax"])
async def test_perfect_information_engines_are_refused(client, engine):
    with pytest.raises(InvalidArgument, match=r"it needs .*a game of perfect information"):
        await client.analyze("kuhn-poker", "K:", engine=engine, depth=2)


def texts(message) -> list[str]:
    """Every string in a protobuf message: fields, map keys, nested messages."""
    found = []
    for field, value in message.ListFields():
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            found += [str(key) for key in value]
            items = [item for item in value.values() if hasattr(item, "ListFields")]
        else:
            items = value if field.is_repeated else [value]
        for item in items:
            if hasattr(item, "ListFields"):
                found += texts(item)
            elif isinstance(item, str):
                found.append(item)
    return found


LEAK_LIMITS = {
    "cfr": Limits(depth=50, root_moves=True),
    "pimc": Limits(root_moves=True),
    "ismcts": Limits(nodes=5000, root_moves=True),  # not the default second a view
}


@pytest.mark.parametrize("engine", sorted(LEAK_LIMITS))
async def test_no_answer_for_a_view_leaks_a_hidden_card(client, engine):
    for view in VIEWS:
        hidden = [card for card in CARDS if card != view[0]]
        limits = LEAK_LIMITS[engine]
        stream = client.stream_analysis(
            client.analyze_request("kuhn-poker", view, engine=engine, limits=limits)
        )
        result = await stream
        assert stream.infos, "no progress reported"
        for message in [info.proto for info in stream.infos] + [result.proto]:
            written = texts(message)
            assert written, message
            assert not [text for text in written if any(card in text for card in hidden)]
        assert all(len(root.pv) == 1 for root in result.root_moves) and len(result.pv) == 1
        assert result.ponder_move is None


def test_the_server_cuts_any_line_for_a_view_to_its_first_move():
    kuhn = GAMES["kuhn-poker"]
    view, full = kuhn.from_position("K:"), kuhn.from_position("KQ:")
    bet = view.read_move("r")
    line = [bet, full.read_move("c")]
    root = RootMove(bet, Score.from_expected(1.0), line)
    result = Result(bet, root.score, line, [root], 10, 0.1, 2)
    for state, shown in ((view, ["r"]), (full, ["r", "c"])):
        message = convert.result_to_pb(result, state)
        assert list(message.pv) == list(message.root_moves[0].pv) == shown
        assert message.ponder_move == ("c" if state is full else "")
        assert len(message.pv_labels) == len(shown)


@pytest.mark.parametrize("engine", ["cfr", "pimc", "ismcts"])
async def test_a_view_whose_observer_is_not_to_move_is_refused(client, engine):
    # player 1 checked holding K: player 2 is to move, whose card the view does not know
    with pytest.raises(InvalidArgument, match="a view is searched when its observer is to move"):
        await client.analyze("kuhn-poker", "K?:c", engine=engine)
