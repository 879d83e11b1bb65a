"""The client's typed values: limits from keywords, answers converted from a real server's
messages, scores seen by either player, sessions closed by their context managers."""

from __future__ import annotations

import math

import pytest

from kibitz.clients import (
    Bound,
    Client,
    Info,
    Limits,
    NotFound,
    Result,
    Score,
    ScoreKind,
    StopReason,
    SyncClient,
)
from kibitz.v1 import engine_pb2 as pb

X_WINS_AT_C3 = "xx./oo./... x"  # x to move; c3 wins at once


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


# ---------------------------------------------------------------------------- limits


def test_an_unknown_limit_is_named_with_the_known_ones():
    with pytest.raises(ValueError) as error:
        Limits.from_keywords(dept=3)
    assert str(error.value) == (
        "unknown limit 'dept'; known limits: depth, nodes, movetime, time_left, increment, "
        "moves_to_go, infinite, search_moves, multipv, solve, root_moves"
    )


async def test_searches_refuse_unknown_limits_and_limits_given_twice(client):
    with pytest.raises(ValueError, match="unknown limit 'dept'"):
        client.analyze("tictactoe", dept=3)
    with pytest.raises(ValueError, match="not both"):
        client.analyze("tictactoe", limits=Limits(depth=3), depth=3)
    async with await client.open("tictactoe") as session:
        with pytest.raises(ValueError, match="unknown limit 'movetime_ms'"):
            session.search(movetime_ms=100)
        result = await session.search(X_WINS_AT_C3, limits=Limits(depth=2))
    assert result.best_move == "c3"


@pytest.mark.parametrize(
    ("limits", "complaint"),
    [
        ({"depth": -1}, "depth must be a non-negative integer"),
        ({"nodes": 2.5}, "nodes must be a non-negative integer"),
        ({"multipv": 2**32}, "multipv must be a non-negative integer"),
        ({"movetime": math.nan}, "times must be finite and non-negative"),
        ({"time_left": [1.0, -1.0]}, "times must be finite and non-negative"),
        ({"increment": [math.inf]}, "times must be finite and non-negative"),
        ({"search_moves": "a1"}, "search_moves must be a list"),
    ],
)
def test_limits_the_wire_cannot_carry_are_value_errors(limits, complaint):
    with pytest.raises(ValueError, match=complaint):
        Limits.from_keywords(**limits)


def test_limits_on_the_wire():
    limits = Limits(
        depth=7,
        movetime=0.25,
        time_left=[60, 59.5],
        increment=[1, 1],
        moves_to_go=10,
        search_moves=["a1", "b2"],
        multipv=2,
        root_moves=True,
    )
    assert limits.to_pb() == pb.Limits(
        depth=7,
        move_time_ms=250,
        clock=pb.Clock(time_left_ms=[60000, 59500], increment_ms=[1000, 1000], moves_to_go=10),
        search_moves=["a1", "b2"],
        multipv=2,
        report_root_moves=True,
    )
    assert limits.search_moves == ("a1", "b2")  # frozen all the way down
    empty = Limits().to_pb()
    assert not empty.HasField("depth") and not empty.HasField("clock")
    assert not empty.report_root_moves and empty.multipv == 1


# ---------------------------------------------------------------------------- answers


async def test_scores_take_the_side_to_move_s_point_of_view(client):
    search = client.analyze("tictactoe", depth=2)
    infos = [info async for info in search]
    assert all(isinstance(info, Info) for info in infos) and isinstance(search.result, Result)
    assert {info.score.player for info in infos} == {0} and search.result.score.player == 0
    after_one = await client.analyze("tictactoe", moves=["b2"], depth=2)
    assert after_one.score.player == 1  # o is to move
    assert {root.score.player for root in after_one.root_moves} == {1}


async def test_a_result_converted_from_the_wire(client):
    result = await client.analyze("tictactoe", X_WINS_AT_C3, depth=9)
    assert (result.best_move, result.pv, result.ponder_move) == ("c3", ("c3",), None)
    assert result.score == Score(ScoreKind.WIN, plies=1, bound=Bound.EXACT, player=0)
    assert str(result.score) == "win in 1" and result.score.proven
    assert result.stop_reason is StopReason.SOLVED and result.stop_reason == "solved"
    assert result.game_over is None and result.nodes == result.proto.nodes > 0
    assert result.time == result.proto.time_ms / 1000
    assert result.depth >= 1 and result.seldepth >= 1 and "nps" in result.stats
    assert result.root_moves[0].move == "c3"
    assert all(root.prior is None for root in result.root_moves)
    assert {root.move for root in result.root_moves} == {"c3", "c2", "a1", "b1", "c1"}
    assert "proto" not in repr(result)

    over = await client.analyze("tictactoe", "xxx/oo./... o", depth=3)
    assert over.best_move is None and over.stop_reason is StopReason.GAME_OVER
    assert over.game_over.returns == (1.0, -1.0) and over.game_over.reason
    assert over.score.kind == ScoreKind.LOSS and over.score.player == 1


def test_the_stop_reason_falls_back_to_the_text_field():
    older = Result.from_pb(pb.Result(best_move="4", stop_reason="nodes"))
    assert older.stop_reason is StopReason.NODES and older.best_move == "4"
    assert Result.from_pb(pb.Result()).stop_reason is None


@pytest.mark.parametrize(
    ("score", "text"),
    [
        (Score(centi=35), "+0.35"),
        (Score(centi=-120, bound=Bound.UPPER), "<=-1.20"),
        (Score(ScoreKind.WIN, plies=7), "win in 7"),
        (Score(ScoreKind.LOSS, plies=2, bound=Bound.LOWER), ">=loss in 2"),
        (Score(ScoreKind.DRAW, bound=Bound.LOWER), ">=draw"),
    ],
)
def test_score_text(score, text):
    assert str(score) == text and f"{score:>10}" == text.rjust(10)


@pytest.mark.parametrize(
    ("score", "proven"),
    [
        (Score(ScoreKind.WIN, plies=7), True),
        (Score(ScoreKind.LOSS, plies=2), True),
        (Score(ScoreKind.DRAW), True),
        (Score(ScoreKind.WIN, plies=7, bound=Bound.UPPER), False),
        (Score(ScoreKind.DRAW, bound=Bound.LOWER), False),
        (Score(centi=35), False),  # exact for its depth, not a proof
    ],
)
def test_only_exact_wins_losses_and_draws_are_proven(score, proven):
    assert score.proven is proven
    assert score.for_player(1).proven is proven  # the other side sees the same fact
    message = pb.Score(
        kind=pb.Score.Kind.Value(score.kind.name),
        bound=pb.Score.Bound.Value(score.bound.name),
        plies=score.plies,
        proven=proven,
    )
    assert Score.from_pb(message).proven is proven
    older = pb.Score(kind=message.kind, bound=message.bound)  # a server before `proven`
    assert Score.from_pb(older).proven is proven


async def test_for_player_sees_a_score_from_the_other_side(client):
    result = await client.analyze("connect4", moves=["4453"], depth=4)
    assert result.score.kind == ScoreKind.HEURISTIC and result.score.player == 0
    seen_by_o = result.score.for_player(1)
    assert (seen_by_o.centi, seen_by_o.player) == (-result.score.centi, 1)
    upper = next(root.score for root in result.root_moves if root.score.bound == Bound.UPPER)
    assert upper.for_player(1).bound == Bound.LOWER
    assert upper.for_player(1).for_player(0) == upper and upper.for_player(0) is upper

    won = (await client.analyze("tictactoe", X_WINS_AT_C3, depth=2)).score
    assert won.for_player(1) == Score(ScoreKind.LOSS, plies=1, player=1)

    estimate = Score(
        centi=20,
        player=1,
        win_probability=0.5,
        draw_probability=0.2,
        loss_probability=0.3,
        visits=100,
    )
    flipped = estimate.for_player(0)
    assert (flipped.win_probability, flipped.draw_probability, flipped.loss_probability) == (
        0.3,
        0.2,
        0.5,
    )
    assert (flipped.centi, flipped.visits, flipped.player) == (-20, 100, 0)
    with pytest.raises(ValueError, match="player 2"):
        estimate.for_player(2)


async def test_root_moves_ride_on_every_info_when_asked(client):
    legal = set((await client.describe("connect4")).legal_moves)
    search = client.analyze("connect4", depth=6, root_moves=True)
    infos = [info async for info in search]
    assert infos and infos[-1].depth == 6
    for info in infos:
        assert len(info.root_moves) == 7 and {root.move for root in info.root_moves} == legal
        assert info.root_moves[0].pv[0] == info.root_moves[0].move
    plain = [info async for info in client.analyze("connect4", depth=6)]
    assert plain and all(info.root_moves == () for info in plain)


# ---------------------------------------------------------------------------- sessions


async def test_leaving_an_async_session_block_closes_it(client):
    async with await client.open("tictactoe") as session:
        assert (await session.search(X_WINS_AT_C3, depth=2)).best_move == "c3"
    with pytest.raises(NotFound):
        await client.session(session.id)

    with pytest.raises(RuntimeError, match="boom"):  # an error in the block gets through
        async with await client.open("tictactoe") as failing:
            raise RuntimeError("boom")
    with pytest.raises(NotFound):
        await client.session(failing.id)

    async with await client.open("tictactoe") as closed_early:
        await closed_early.close()  # leaving the block then is fine


def test_leaving_a_sync_session_block_closes_it(server):
    with SyncClient(server.address) as client:
        with client.open("connect4") as session:
            infos = list(session.search(moves="4453", depth=3))
            assert [info.depth for info in infos][-1] == 3
        with pytest.raises(NotFound):
            client.session(session.id)
        with client.open("nim") as expired:
            expired.close()


# ---------------------------------------------------------------------------- the queue


def test_a_queued_info_and_the_time_cap_from_the_wire():
    queued = Info.from_pb(pb.Info(queued_ms=350))
    assert queued.queued == 0.35 and queued.depth == 0
    assert Info.from_pb(pb.Info(depth=3)).queued == 0.0
    capped = Result.from_pb(pb.Result(best_move="4", stopped_by=pb.Result.TIME_CAP))
    assert capped.stop_reason is StopReason.TIME_CAP and capped.stop_reason == "time_cap"
    assert Result.from_pb(pb.Result(stop_reason="time_cap")).stop_reason is StopReason.TIME_CAP
    assert {reason.name for reason in StopReason} == {
        value.name
        for value in pb.Result.StopReason.DESCRIPTOR.values
        if value.name != "STOP_REASON_UNSPECIFIED"
    }


def test_the_servers_labels_are_what_people_see():
    message = pb.Score(kind=pb.Score.WIN, plies=3, bound=pb.Score.EXACT, label="mate in 2")
    score = Score.from_pb(message)
    assert str(score) == "mate in 2" and f"{score:>10}" == " mate in 2"
    assert score == Score(ScoreKind.WIN, plies=3)  # a label is presentation, not value
    assert str(score.for_player(1)) == "loss in 3"  # the label was the other player's
    result = Result.from_pb(
        pb.Result(
            best_move="a1a6",
            best_move_label="Ra6",
            pv=["a1a6"],
            pv_labels=["Ra6"],
            root_moves=[pb.RootMove(move="a1a6", move_label="Ra6", pv_labels=["Ra6"])],
        )
    )
    assert (result.best_move_label, result.pv_labels) == ("Ra6", ("Ra6",))
    assert result.root_moves[0].move_label == "Ra6"
    assert Info.from_pb(pb.Info(pv=["4"], pv_labels=["4"])).pv_labels == ("4",)
