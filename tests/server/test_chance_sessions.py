"""Games with chance through the real server: chance events described with their odds and
owner, expectimax answers before the roll (every outcome, its probability and best move)
and after it (expected values), sessions that search both."""

from __future__ import annotations

import pytest

from kibitz.clients import Client, InvalidArgument, ScoreKind
from kibitz.clients.render import chances_text, result_text

BEFORE_THE_ROLL = "3-5 +2 2 roll goal=20 moves=4/12"
AFTER_THE_ROLL = "3-5 +6 2 goal=20 moves=4/12"


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


async def test_a_chance_event_is_described_with_its_odds_and_its_owner(client):
    position = await client.describe("pig", BEFORE_THE_ROLL)
    assert position.to_move == -1 and position.perspective == 1
    assert list(position.legal_moves) == ["1", "2", "3", "4", "5", "6"]
    assert list(position.probabilities) == pytest.approx([1 / 6] * 6)
    decision = await client.describe("pig", AFTER_THE_ROLL)
    assert decision.to_move == decision.perspective == 1
    assert list(decision.legal_moves) == ["roll", "hold"] and not decision.probabilities


async def test_before_the_roll_every_outcome_is_valued_for_the_roller(client):
    result = await client.analyze("pig", position=BEFORE_THE_ROLL, depth=3)
    assert result.score.player == 1 and result.score.kind == ScoreKind.HEURISTIC
    assert [root.move for root in result.root_moves] == ["1", "2", "3", "4", "5", "6"]
    assert all(root.probability == pytest.approx(1 / 6) for root in result.root_moves)
    assert all(root.score.player == 1 for root in result.root_moves)
    average = sum(root.score.expected_value for root in result.root_moves) / 6
    assert result.score.expected_value == pytest.approx(average)
    assert result.score.centi == round(100 * result.score.expected_value)
    # each outcome's line: the roll, then the roller's best decision after it
    for root in result.root_moves[1:]:
        assert root.pv[0] == root.move and root.pv[1] in ("roll", "hold")
    assert result.best_move == "1" and result.pv[0] == "1"  # the first of equally likely ones
    assert str(result.score) == f"{result.score.expected_value:+.3f}"


async def test_a_stated_roll_is_searched_alone(client):
    result = await client.analyze("pig", position=BEFORE_THE_ROLL, depth=3, search_moves=["6"])
    assert [root.move for root in result.root_moves] == ["6"]
    after = await client.analyze("pig", position="3-5 +8 2 goal=20 moves=4/12", depth=3)
    assert result.score.expected_value == pytest.approx(after.score.expected_value)


async def test_a_session_searches_decisions_and_chance_events(client):
    async with await client.open("pig", "expectimax", {"Star2": "false"}) as session:
        decision = await session.search(AFTER_THE_ROLL, [], depth=4, multipv=2)
        assert decision.best_move in ("roll", "hold")
        assert {root.move for root in decision.root_moves} == {"roll", "hold"}
        assert decision.stats["chance_nodes"] > 0 and decision.stats["decision_nodes"] > 0
        chance = await session.search(AFTER_THE_ROLL, ["roll"], depth=3)
        assert len(chance.root_moves) == 6 and chance.score.player == 1


async def test_expectimax_refuses_games_without_expected_returns(client):
    with pytest.raises(InvalidArgument, match="expected-return estimates"):
        await client.open("connect4", "expectimax")


async def test_backgammon_root_moves_carry_their_win_gammon_and_backgammon_chances(client):
    """Player 2 on roll with 3-1 at the start: every root move's score, from player 2's side,
    has the six chances on the wire, consistent; the CLI's table shows them as gnubg does."""
    result = await client.analyze("backgammon", position="4HPwATDgc/ABMA:cIkFAAAAAAAA", depth=1)
    assert len(result.root_moves) == 16  # 3-1 at the start: 16 plays
    for root in result.root_moves:
        score = root.score
        assert score.player == 1
        assert score.win_probability + score.loss_probability == pytest.approx(1.0)
        win = (
            score.win_probability,
            score.win_gammon_probability,
            score.win_backgammon_probability,
        )
        loss = (
            score.loss_probability,
            score.loss_gammon_probability,
            score.loss_backgammon_probability,
        )
        assert 0 < win[2] <= win[1] <= win[0] < 1 and 0 < loss[2] <= loss[1] <= loss[0] < 1
    best = result.root_moves[0].score
    assert result.score.win_gammon_probability == best.win_gammon_probability
    # seen by player 1, wins and losses swap
    assert best.for_player(0).win_gammon_probability == best.loss_gammon_probability
    text = chances_text(best)
    assert text == (
        f"{best.win_probability:.3f} {best.win_gammon_probability:.3f} "
        f"{best.win_backgammon_probability:.3f} - {best.loss_probability:.3f} "
        f"{best.loss_gammon_probability:.3f} {best.loss_backgammon_probability:.3f}"
    )
    assert text in result_text(result, chance=False)


async def test_a_described_line_says_which_entries_were_played_at_a_roll(client):
    """A line loaded whole (a transcript entry included): each entry's chance flag, so a
    client numbers a roll and the play after it as one move."""
    moves = ["31:", "8/5 6/5", "64: 24/18 13/9", "11:"]
    position = await client.describe("backgammon", "", moves)
    assert list(position.played_labels) == moves
    assert list(position.played_chance) == [True, False, True, True]
    chess = await client.describe("chess", "", ["e2e4", "e7e5"])
    assert list(chess.played_chance) == [False, False]
