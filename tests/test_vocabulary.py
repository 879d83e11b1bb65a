"""kibitz.vocabulary is the one value model on both sides of the wire: the engines, the
server's conversion and the clients use the same enums, and they agree with the protocol's
enums member for member, both ways."""

from __future__ import annotations

import pytest

import kibitz.clients
import kibitz.clients.values
import kibitz.engines
import kibitz.engines.types
from kibitz import vocabulary
from kibitz.clients.values import Result as ClientResult
from kibitz.clients.values import Score as ClientScore
from kibitz.engines.alphabeta.table import BOUNDS, EXACT, LOWER, UPPER
from kibitz.engines.types import Score as EngineScore
from kibitz.server.convert import score_to_pb, stop_fields
from kibitz.v1 import engine_pb2 as pb
from kibitz.vocabulary import Bound, ScoreKind, StopReason, is_proven, score_text

PROTO = [  # the model's enum, the proto's, the proto's "not set" member
    (ScoreKind, pb.Score.Kind, "KIND_UNSPECIFIED"),
    (Bound, pb.Score.Bound, "BOUND_UNSPECIFIED"),
    (StopReason, pb.Result.StopReason, "STOP_REASON_UNSPECIFIED"),
]


@pytest.mark.parametrize(("enum", "proto", "unset"), PROTO, ids=[e.__name__ for e, _, _ in PROTO])
def test_the_model_and_the_proto_have_the_same_members(enum, proto, unset):
    assert [member.name for member in enum] == [
        value.name for value in proto.DESCRIPTOR.values if value.name != unset
    ]


@pytest.mark.parametrize("name", ["ScoreKind", "Bound", "StopReason"])
def test_engines_server_and_clients_use_the_same_objects(name):
    shared = getattr(vocabulary, name)
    for module in (kibitz.clients, kibitz.clients.values, kibitz.engines, kibitz.engines.types):
        assert getattr(module, name) is shared, module.__name__


@pytest.mark.parametrize("kind", list(ScoreKind))
@pytest.mark.parametrize("bound", list(Bound))
def test_every_score_kind_and_bound_crosses_the_wire_and_back(kind, bound):
    message = score_to_pb(EngineScore(kind, bound=bound), 1)
    assert pb.Score.Kind.Name(message.kind) == kind.name
    assert pb.Score.Bound.Name(message.bound) == bound.name
    score = ClientScore.from_pb(message)
    assert score.kind is kind and score.bound is bound and score.player == 1
    assert message.proven is score.proven is is_proven(kind, bound)


@pytest.mark.parametrize("reason", list(StopReason))
def test_every_stop_reason_crosses_the_wire_and_back(reason):
    fields = stop_fields(reason)
    assert fields["stop_reason"] == str(reason)
    assert pb.Result.StopReason.Name(fields["stopped_by"]) == reason.name
    assert ClientResult.from_pb(pb.Result(**fields)).stop_reason is reason
    only_enum = pb.Result(stopped_by=fields["stopped_by"])
    assert ClientResult.from_pb(only_enum).stop_reason is reason


def test_every_proto_value_reads_as_a_member():
    for value in pb.Score.Kind.values():
        kind = ClientScore.from_pb(pb.Score(kind=value)).kind
        assert value == 0 or kind.name == pb.Score.Kind.Name(value)
    for value in pb.Score.Bound.values():
        bound = ClientScore.from_pb(pb.Score(bound=value)).bound
        assert value == 0 or bound.name == pb.Score.Bound.Name(value)


def test_the_members_are_their_text():
    assert str(ScoreKind.WIN) == "win" and f"{Bound.LOWER}" == "lower"
    assert ScoreKind.DRAW == "draw" and StopReason("time_cap") is StopReason.TIME_CAP


def test_a_return_names_its_result():
    assert ScoreKind.of_return(1) is ScoreKind.WIN
    assert ScoreKind.of_return(-0.5) is ScoreKind.LOSS
    assert ScoreKind.of_return(0) is ScoreKind.DRAW


def test_only_an_exact_result_is_proven():
    assert is_proven(ScoreKind.LOSS, Bound.EXACT)
    assert not is_proven(ScoreKind.DRAW, Bound.LOWER)
    assert not is_proven(ScoreKind.HEURISTIC, Bound.EXACT)


def test_alpha_betas_table_codes_name_the_bounds():
    assert (BOUNDS[EXACT], BOUNDS[LOWER], BOUNDS[UPPER]) == (Bound.EXACT, Bound.LOWER, Bound.UPPER)
    assert 0 not in (EXACT, LOWER, UPPER)  # 0 marks an empty slot in the compiled table


@pytest.mark.parametrize(
    ("kind", "bound", "centi", "expected", "text"),
    [
        (ScoreKind.HEURISTIC, Bound.EXACT, 35, None, "+0.35"),
        (ScoreKind.HEURISTIC, Bound.LOWER, -120, None, ">=-1.20"),
        (ScoreKind.HEURISTIC, Bound.EXACT, 0, 0.12, "+0.120"),
        (ScoreKind.WIN, Bound.EXACT, 0, None, "win in 7"),
        (ScoreKind.WIN, Bound.LOWER, 0, None, ">=win in 7"),
        (ScoreKind.LOSS, Bound.UPPER, 0, None, "<=loss in 7"),
        (ScoreKind.DRAW, Bound.EXACT, 0, None, "draw"),
        (ScoreKind.DRAW, Bound.LOWER, 0, None, ">=draw"),
    ],
)
def test_score_text_is_what_people_read(kind, bound, centi, expected, text):
    assert score_text(kind, bound, centi, expected=expected, plies=7) == text


def test_a_games_own_words_for_a_win_replace_the_default():
    assert score_text(ScoreKind.WIN, Bound.UPPER, 0, plies=3, outcome="mate in 2") == "<=mate in 2"
