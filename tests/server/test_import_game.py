"""ImportGame and ExportGame with a tree of moves, over a real server on loopback and the
real clients (async and sync)."""

from __future__ import annotations

import json

import grpc
import pytest

from kibitz.clients import Client, InvalidArgument
from kibitz.clients.sync import SyncClient
from kibitz.v1 import engine_pb2 as pb

PGN = """[Event "club night"]

1. e4 { [%clk 0:04:59] [%eval 0.35] } e5 (1... c5 { Sicilian [%eval #-3] } 2. Nf3) 2. Nf3 *
"""


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


async def test_import_game_answers_the_tree_with_comments_clocks_and_evaluations(client):
    tree = await client.import_game("chess", PGN)
    assert tree.game == "chess" and tree.headers["Event"] == "club night"
    assert tree.position.startswith("rnbqkbnr/pppppppp/")
    assert [(n.parent, n.move, n.label) for n in tree.nodes] == [
        (-1, "e2e4", "e4"),
        (0, "e7e5", "e5"),
        (1, "g1f3", "Nf3"),
        (0, "c7c5", "c5"),
        (3, "g1f3", "Nf3"),
    ]
    first, sicilian = tree.nodes[0], tree.nodes[3]
    assert (first.clock_ms, first.eval_centi, first.HasField("eval_plies")) == (299_000, 35, False)
    assert (sicilian.comment, sicilian.eval_plies, sicilian.HasField("clock_ms")) == (
        "Sicilian",
        -6,  # Black mates in 3 moves, White to move: 6 plies
        False,
    )
    assert not tree.nodes[1].HasField("eval_centi")


async def test_the_tree_is_exported_with_its_variations_and_read_back(client):
    tree = await client.import_game("chess", PGN)
    nodes = list(tree.nodes)
    nodes[2] = pb.RecordNode(parent=1, move="g1f3", eval_centi=-120, clock_ms=61_000)
    record = await client.export("chess", tree.position, players=["Ann", "Bob"], nodes=nodes)
    assert record.format == "pgn"
    assert "1. e4 { [%eval 0.35] [%clk 0:04:59] } 1... e5 ( 1... c5" in record.text
    assert "2. Nf3 { [%eval -1.20] [%clk 0:01:01] } *" in record.text
    again = await client.import_game("chess", record.text)
    assert [n.move for n in again.nodes] == [n.move for n in nodes]
    assert again.nodes[2].eval_centi == -120 and again.nodes[3].eval_plies == -6

    line = [pb.RecordNode(parent=-1, move="4"), pb.RecordNode(parent=0, move="3", eval_plies=5)]
    line.append(pb.RecordNode(parent=-1, move="1"))
    written = json.loads((await client.export("connect4", nodes=line)).text)
    assert written["moves"] == ["4", "3"] and len(written["nodes"]) == 3
    imported = await client.import_game("connect4", json.dumps(written))
    assert [(n.parent, n.move) for n in imported.nodes] == [(-1, "4"), (0, "3"), (-1, "1")]
    assert imported.nodes[1].eval_plies == 5


@pytest.mark.parametrize(
    ("game", "text", "message"),
    [
        ("chess", "1. e4 e5 2. Qxf7", r"record: move 2\. Qxf7 is illegal here"),
        ("chess", "not a game", "no PGN game"),
        ("chess", "1. e4 " * 200_000, "more than 1000000"),
        ("connect4", "1. e4", "the JSON ExportGame writes"),
        ("connect4", '{"moves": ["4", "9"]}', "node 2"),
    ],
)
async def test_a_bad_record_is_invalid_argument_saying_why(client, game, text, message):
    with pytest.raises(InvalidArgument, match=message) as raised:
        await client.import_game(game, text)
    assert raised.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert len(str(raised.value)) < 400


async def test_a_bad_tree_to_export_is_invalid_argument(client):
    orphan = [pb.RecordNode(parent=3, move="4")]
    with pytest.raises(InvalidArgument, match="nodes: node 1: its parent is no earlier node"):
        await client.export("connect4", nodes=orphan)
    illegal = [pb.RecordNode(parent=-1, move="e2e5")]
    with pytest.raises(InvalidArgument, match="nodes: node 1"):
        await client.export("chess", nodes=illegal)


def test_the_sync_client_imports_and_exports_too(server):
    with SyncClient(server.address) as client:
        tree = client.import_game("chess", PGN)
        record = client.export("chess", tree.position, nodes=tree.nodes)
    assert "( 1... c5 { Sicilian [%eval #-3] } 2. Nf3 )" in record.text
