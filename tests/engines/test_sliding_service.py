"""The sliding puzzle's single-agent search as the service runs it: the heuristic ``pdb``
(the 15-puzzle's pattern databases read from $KIBITZ_PDB_DIR) in the game and the engines,
checked on the position before a search; the compiled IDA*'s Info per threshold and its
answer when stopped (the greedy probe of kibitz/engines/single/idastar.py). The databases
are tests/sliding_tables.py's cheap stand-ins, written in a temporary directory.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from sliding_tables import write_tiny_663

from kibitz.engines import Limits, OptionError, SearchContext
from kibitz.engines.base import OptionUnavailable
from kibitz.engines.single import AStar, IDAStar
from kibitz.games import sliding_pdb as pdb
from kibitz.games.sliding import SlidingPuzzle
from kibitz.vocabulary import Bound

KORF_1 = (14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3)
"""Korf's instance 1, 57 moves from the goal."""
BUILD = "python -m kibitz.games.sliding_pdb build"


def scramble(steps: int, seed: int) -> list[int]:
    """A seeded random walk of the blank from the 15-puzzle's goal."""
    rng = random.Random(seed)
    tiles = list(range(16))
    for _ in range(steps):
        blank = tiles.index(0)
        _, target = rng.choice(pdb._moves(blank, 4, 16))
        tiles[blank], tiles[target] = tiles[target], 0
    return tiles


def puzzle(tiles) -> SlidingPuzzle:
    return SlidingPuzzle.from_position(",".join(map(str, tiles)))


def search(engine, state, limits=None):
    """The Result and the Infos of a search (no periodic ones: those depend on time)."""
    infos = []
    context = SearchContext(report=infos.append, info_interval=3600.0)
    result = engine.search(state, limits or Limits(), context)
    return result, infos


@pytest.fixture
def pdb_dir(tmp_path, monkeypatch) -> Path:
    """An empty $KIBITZ_PDB_DIR of this test's own."""
    directory = tmp_path / "pdb"
    directory.mkdir()
    monkeypatch.setenv("KIBITZ_PDB_DIR", str(directory))
    return directory


# -- the heuristic in the game ---------------------------------------------------------------


def test_pdb_is_for_the_4x4_board_once_built(pdb_dir):
    for position, size in (
        ("1,5,3,4,0,2,7,6,8", "3x3"),
        ("2x8:" + ",".join(map(str, range(16))), "2x8"),
    ):
        with pytest.raises(ValueError, match=f"needs the 4x4 board, not {size}"):
            SlidingPuzzle.from_position(position).heuristic("pdb")
    with pytest.raises(FileNotFoundError) as missing:
        puzzle(KORF_1).heuristic("pdb")
    assert BUILD in str(missing.value) and str(pdb_dir) in str(missing.value)
    assert "pdb" not in SlidingPuzzle.heuristic_names  # every position takes those
    assert SlidingPuzzle.optional_heuristics == ("pdb",)


def test_pdb_reads_the_strongest_cached_partition(pdb_dir):
    write_tiny_663(pdb_dir)
    alone = pdb.PatternDatabase.build(4, 4, [(12, 13, 15)])  # the only table not all zeros
    state = puzzle(scramble(60, 4))
    assert state.pattern_database().patterns == pdb.PARTITIONS["663"]
    rng = random.Random(5)
    for _ in range(200):  # kept along a walk, consistent, from the tables
        before = state.heuristic("pdb")
        assert before == alone.value(state.tiles())
        state.play(rng.choice(state.legal_moves()))
        assert abs(state.heuristic("pdb") - before) <= 1
    assert puzzle(range(16)).heuristic("pdb") == 0
    for pattern in pdb.PARTITIONS["78"]:  # the 7-8 tables, once there, come first
        with pdb.table_path(4, 4, pattern, pdb_dir).open("wb") as handle:
            handle.truncate(pdb.table_size(16, len(pattern)))
    assert puzzle(KORF_1).pattern_database().patterns == pdb.PARTITIONS["78"]
    assert puzzle(KORF_1).heuristic("pdb") == 0


# -- the engines -----------------------------------------------------------------------------


@pytest.mark.parametrize("engine", [IDAStar, AStar])
def test_the_engines_check_pdb_on_the_position(pdb_dir, engine):
    """`check_options_at`: another board is an OptionError naming its size, a missing
    database OptionUnavailable naming the build command; an uninformed search asks no
    heuristic, so it needs neither."""
    eight = SlidingPuzzle.from_position("1,5,3,4,0,2,7,6,8")
    engine.check_options_for(SlidingPuzzle, {"Heuristic": "pdb"})  # the game has it
    with pytest.raises(OptionError, match=r"option Heuristic: .*not 3x3") as other:
        engine.check_options_at(eight, {"Heuristic": "pdb"})
    assert not isinstance(other.value, OptionUnavailable)
    with pytest.raises(OptionUnavailable, match=BUILD):
        engine.check_options_at(puzzle(KORF_1), {"Heuristic": "pdb"})
    with pytest.raises(OptionUnavailable, match=BUILD):  # the engine asks it too
        engine({"Heuristic": "pdb"}).search(puzzle(KORF_1), Limits(nodes=10), SearchContext())
    uninformed = {"Heuristic": "pdb", "Algorithm": next(iter(engine.uninformed))}
    engine.check_options_at(eight, uninformed)
    with pytest.raises(OptionError, match="'octile' is not a heuristic of sliding-puzzle"):
        engine.check_options_for(SlidingPuzzle, {"Heuristic": "octile"})


@pytest.mark.parametrize(("steps", "seed", "length"), [(30, 3, 12), (40, 3, 10)])
def test_pdb_searches_are_optimal_and_the_kernel_is_the_python_search(pdb_dir, steps, seed, length):
    write_tiny_663(pdb_dir)
    state = puzzle(scramble(steps, seed))
    python, python_infos = search(IDAStar({"Heuristic": "pdb", "Kernel": False}), state)
    compiled, compiled_infos = search(IDAStar({"Heuristic": "pdb"}), state)
    line, nodes, thresholds = pdb.solve(state.tiles(), 4, state.pattern_database())
    assert [state.format_move(move) for move in python.pv] == line and len(line) == length
    assert python.nodes == compiled.nodes == nodes
    assert (compiled.pv, compiled.score) == (python.pv, python.score)
    assert compiled.stats["compiled"] == 1.0 and "compiled" not in python.stats
    # an Info per threshold on both paths, the last one the solution's
    assert [info.depth for info in python_infos] == thresholds
    assert [info.depth for info in compiled_infos] == thresholds
    assert thresholds[0] == state.heuristic("pdb")
    best_first, _ = search(AStar({"Heuristic": "pdb"}), state)
    assert len(best_first.pv) == length and best_first.score == python.score


# -- the compiled IDA*'s reports and its answer when stopped -----------------------------------


def probe(tiles: tuple[int, ...], threshold: int) -> list[str]:
    """The greedy probe written here on tuples, with sliding_pdb's heuristic: the child of
    least h (first of equals in U, L, R, D, not undoing the last move) while g + h stays
    within the threshold; the line up to the position of least h along it."""

    def h(board):
        return pdb.manhattan(board, 4) + pdb.linear_conflicts(board, 4)

    board, line, last = list(tiles), [], -1
    best, best_length = h(board), 0
    while board != list(range(16)):
        choices = []
        blank = board.index(0)
        for move, target in pdb._moves(blank, 4, 16):
            if move == 3 - last:
                continue
            child = list(board)
            child[blank], child[target] = child[target], 0
            if len(line) + 1 + h(child) <= threshold:
                choices.append((h(child), move, child))
        if not choices:
            break
        value, last, board = min(choices, key=lambda choice: choice[:2])
        line.append(pdb.MOVES[last])
        if value < best:
            best, best_length = value, len(line)
    return line[:best_length]


@pytest.mark.parametrize("limit", [1, 1000, 3_000_000])
def test_stopped_the_kernel_answers_its_probe_and_reports_each_threshold(limit):
    """At a node limit (3,000,000: past the first slice of 2^20 nodes), the compiled search
    answers the probe's line with the bound the Python search answers; it sends an Info for each
    threshold completed, then the final one."""
    state = puzzle(KORF_1)
    _, nodes, thresholds = pdb.solve(KORF_1, 4, "linear-conflicts", limit)
    compiled, infos = search(IDAStar({}), state, Limits(nodes=limit))
    assert compiled.nodes == nodes == limit and compiled.stop_reason == "nodes"
    assert compiled.score.bound == Bound.UPPER and compiled.score.plies == thresholds[-1]
    if limit <= 1000:  # the Python search's bound too (3,000,000 nodes take it 40 s)
        python, _ = search(IDAStar({"Kernel": False}), state, Limits(nodes=limit))
        assert compiled.score == python.score
    expected = probe(KORF_1, thresholds[-1])
    assert [state.format_move(move) for move in compiled.pv] == expected
    assert expected == ["U", "U", "L"]  # a line, h 43 -> 40 (greedy gets no closer here)
    end = state.clone()
    end.play_line([state.format_move(move) for move in compiled.pv])
    assert end.heuristic() < state.heuristic()
    assert [info.depth for info in infos] == thresholds
    assert infos[-1].pv == compiled.pv and infos[-1].nodes == limit
    assert state.position() == puzzle(KORF_1).position()  # the probe leaves it as it was
