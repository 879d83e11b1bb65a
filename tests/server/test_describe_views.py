"""DescribeRequest.view_of through the real server and client: a referee's full state of a
game with hidden information described as each player sees it (their view, the moves they
saw, their legal moves at their turn only), and the clear refusals."""

from __future__ import annotations

import pytest

from kibitz.clients import Client, InvalidArgument

# player 1 is dealt K, player 2 Q; check, bet, call
KUHN_DEAL = ("K", "Q", "c", "r", "c")
# x b2, o b2 (refused: x holds it), o a1, x c3, o c3 (refused), o a3
PHANTOM = ("b2", "b2", "a1", "c3", "c3", "a3")


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


async def test_the_games_that_hide_information_say_so(client):
    hiding = {info.name for info in await client.games() if info.hidden_information}
    assert hiding == {"bridge", "kuhn-poker", "leduc-poker", "phantom-tictactoe"}


async def test_each_player_of_kuhn_poker_sees_their_own_card_and_the_betting(client):
    first = await client.describe("kuhn-poker", "", KUHN_DEAL[:2], view_of=0)
    second = await client.describe("kuhn-poker", "", KUHN_DEAL[:2], view_of=1)
    assert (first.position, list(first.played_labels)) == ("K:", ["K", "?"])
    assert (second.position, list(second.played_labels)) == ("?Q:", ["?", "Q"])
    assert first.to_move == second.to_move == 0
    assert list(first.legal_moves) == ["c", "r"] and not second.legal_moves  # not 2's turn
    assert "Q" not in first.board.replace("Kuhn", "") and "K" not in second.board.replace(
        "Kuhn", ""
    )
    over = await client.describe("kuhn-poker", "", KUHN_DEAL, view_of=1)
    assert over.position == "?Q:crc"
    assert list(over.played_labels) == ["?", "Q", "check", "bet", "call"]
    assert (
        over.HasField("game_over")
        and over.game_over.reason
        == (await client.describe("kuhn-poker", "", KUHN_DEAL)).game_over.reason
    )


async def test_no_one_is_shown_the_outcomes_of_a_deal(client):
    dealing = await client.describe("kuhn-poker", "", ("K",), view_of=1)
    assert dealing.to_move == -1 and not dealing.legal_moves and not dealing.probabilities
    referee = await client.describe("kuhn-poker", "", ("K",))
    assert sorted(referee.legal_moves) == ["J", "Q"]  # the referee deals from what is left


async def test_a_blind_player_sees_their_own_marks_and_what_they_bumped_into(client):
    x = await client.describe("phantom-tictactoe", "", PHANTOM, view_of=0)
    o = await client.describe("phantom-tictactoe", "", PHANTOM, view_of=1)
    assert (x.position, list(x.played_labels)) == ("x:b2 c3", ["b2", "?", "?", "c3", "?", "?"])
    assert (o.position, list(o.played_labels)) == (
        "o:b2* a1 c3* a3",
        ["?", "b2", "a1", "?", "c3", "a3"],
    )
    assert x.to_move == 0 and len(x.legal_moves) == 7 and not o.legal_moves
    marks = {place.id: place.owner for place in x.diagram.places if place.piece}
    assert marks == {"b2": 0, "c3": 0}  # o's marks are hidden from x
    # the next move's engine question is the view itself: it reads back as the same view
    again = await client.describe("phantom-tictactoe", x.position)
    assert again.position == x.position


@pytest.mark.parametrize(
    ("game", "position", "view_of", "message"),
    [
        ("tictactoe", "", 0, "tictactoe hides nothing from its players"),
        ("kuhn-poker", "K:c", 0, "view_of needs a full state; 'K:c' is already player 2's view"),
        ("kuhn-poker", "KQ:", 2, "view_of 2: kuhn-poker has players 0 to 1"),
        ("kuhn-poker", "KQ:", -1, "view_of -1: kuhn-poker has players 0 to 1"),
    ],
)
async def test_a_view_of_what_cannot_have_one_is_refused(client, game, position, view_of, message):
    with pytest.raises(InvalidArgument, match=message):
        await client.describe(game, position, view_of=view_of)
    assert (await client.describe("kuhn-poker", "KQ:", view_of=1)).position == "?Q:"
