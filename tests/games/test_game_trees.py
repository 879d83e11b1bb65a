"""Game records as trees: reading PGN with variations, comments, `[%clk]` and `[%eval]`
(python-chess), writing them back, the JSON records of the other games, and bad records."""

from __future__ import annotations

import json

import pytest

from kibitz.games import GAMES, IllegalMoveError, NotationError, RecordNode
from kibitz.games.base import MAX_RECORD_NODES, main_line

CHESS = GAMES["chess"]
CONNECT4 = GAMES["connect4"]

PGN = """[Event "club night"]
[White "Ann"]
[Black "Bob"]

1. e4 { [%eval 0.35] [%clk 0:04:59] the king's pawn } e5 (1... c5 { Sicilian [%eval #-3] }
2. Nf3) 2. Nf3 { [%clk 1:00:00.5] } Nc6 { [%eval #2] } *
"""


def test_a_pgn_is_read_with_its_variation_comments_clocks_and_evaluations():
    tree = CHESS.read_record(PGN)
    assert tree.start == CHESS.default_position
    assert (tree.headers["Event"], tree.headers["White"]) == ("club night", "Ann")
    shape = [(node.parent, node.move, node.label) for node in tree.nodes]
    assert shape == [
        (-1, "e2e4", "e4"),
        (0, "e7e5", "e5"),
        (1, "g1f3", "Nf3"),
        (2, "b8c6", "Nc6"),
        (0, "c7c5", "c5"),  # the variation after the main line's continuation
        (4, "g1f3", "Nf3"),
    ]
    first, sicilian = tree.nodes[0], tree.nodes[4]
    assert (first.comment, first.clock_ms, first.eval_centi) == ("the king's pawn", 299_000, 35)
    # mates in moves become plies: Black mates in 3 with White to move (6), White in 2 (3)
    assert (sicilian.comment, sicilian.eval_plies, sicilian.eval_centi) == ("Sicilian", -6, None)
    assert tree.nodes[3].eval_plies == 3
    assert tree.nodes[2].clock_ms == 3_600_500 and tree.nodes[2].comment == ""
    assert main_line(tree.nodes) == [0, 1, 2, 3]


def test_a_tree_is_written_as_pgn_and_read_back_the_same():
    tree = CHESS.read_record(PGN)
    text = CHESS.read_position(tree.start).export_tree(tree.nodes, ["Ann", "Bob"]).text
    assert "1. e4 { the king's pawn [%eval 0.35] [%clk 0:04:59] } 1... e5" in text
    assert "( 1... c5 { Sicilian [%eval #-3] } 2. Nf3 )" in text
    assert "2... Nc6 { [%eval #2] } *" in text
    assert CHESS.read_record(text).nodes == tree.nodes


def test_a_pgn_from_a_fen_keeps_its_start():
    fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
    tree = CHESS.read_record(f'[SetUp "1"]\n[FEN "{fen}"]\n\n1. Ra8# 1-0\n')
    assert tree.start == fen and [node.label for node in tree.nodes] == ["Ra8#"]


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("1. e4 e5 2. Qxf7", IllegalMoveError, "move 2. Qxf7 is illegal here"),
        ("1. e4 (1. d4 d5 2. Ke3) e5", IllegalMoveError, "move 2. Ke3 is illegal here"),
        ("1. e4 Ke2", IllegalMoveError, r"move 1\.\.\. Ke2 is illegal here"),
        ("", NotationError, "no PGN game"),
        ("hello", NotationError, "no PGN game"),
        ('[FEN "8/8/8"]\n\n1. e4', NotationError, "cannot read the PGN"),
        ("1. e4 " * 200_000, NotationError, "more than 1000000"),
    ],
)
def test_bad_pgn_says_what_is_wrong(text, error, message):
    with pytest.raises(error, match=message):
        CHESS.read_record(text)


def test_too_many_moves_are_refused():
    line = "1. Nf3 Nf6 2. Ng1 Ng8 " * (MAX_RECORD_NODES // 4 + 1)
    with pytest.raises(NotationError, match=f"more than {MAX_RECORD_NODES} moves"):
        CHESS.read_record(line)


def test_other_games_read_back_the_json_tree_they_write():
    nodes = [
        RecordNode(-1, "4"),
        RecordNode(0, "4", comment="the centre", eval_centi=12, clock_ms=5000),
        RecordNode(-1, "3", eval_plies=7),
    ]
    record = CONNECT4.from_position("").export_tree(nodes, ["a", "b"])
    written = json.loads(record.text)
    assert written["moves"] == ["4", "4"] and written["comments"] == ["", "the centre"]
    assert written["nodes"][1] == {
        "parent": 0,
        "move": "4",
        "label": "4",
        "comment": "the centre",
        "clockMs": 5000,
        "evalCenti": 12,
    }
    tree = CONNECT4.read_record(record.text)
    assert [(n.parent, n.move, n.comment) for n in tree.nodes] == [
        (-1, "4", ""),
        (0, "4", "the centre"),
        (-1, "3", ""),
    ]
    assert (tree.nodes[1].eval_centi, tree.nodes[1].clock_ms, tree.nodes[2].eval_plies) == (
        12,
        5000,
        7,
    )
    line = CONNECT4.read_record(CONNECT4.from_position("").export_record(["4", "3"]).text)
    assert [(n.parent, n.move) for n in line.nodes] == [(-1, "4"), (0, "3")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2", "the JSON ExportGame writes"),
        ("[]", "a JSON object"),
        ('{"moves": ["4", "9"]}', "node 2"),
        ('{"nodes": [{"parent": 0, "move": "4"}]}', "node 1: its parent is no earlier node"),
        ('{"nodes": [{"parent": -1, "move": 4}]}', "node 1: move is not a str"),
        ('{"start": 5}', "start is not a text"),
    ],
)
def test_bad_json_records_say_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message):
        CONNECT4.read_record(text)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_reads_back_the_tree_it_writes(name):
    """A main line of a few moves and a variation at its first position, through the game's
    own writer and reader: the same moves, parents and comments come back."""
    start = GAMES[name].from_position("")
    walker, nodes = start.clone(), []
    for ply in range(4):
        moves = walker.legal_moves()
        if not moves:
            break
        nodes.append(RecordNode(ply - 1, walker.format_move(moves[0]), comment=f"ply {ply}"))
        walker.play(moves[0])
    alternatives = start.legal_moves()[1:2]
    nodes += [RecordNode(-1, start.format_move(move), eval_centi=-5) for move in alternatives]
    tree = GAMES[name].read_record(start.export_tree(nodes, ["a", "b"]).text)
    assert [(n.parent, n.move, n.comment) for n in tree.nodes] == [
        (n.parent, n.move, n.comment) for n in nodes
    ]
    assert tree.start == start.position()
    assert all(node.label for node in tree.nodes)
