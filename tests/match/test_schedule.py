"""Which games a match plays, and the specifications it is given as text."""

from __future__ import annotations

import pytest

from kibitz.games import GAMES
from kibitz.match import schedule
from kibitz.match.spec import EngineSpec, SpecError, TimeControl


def test_each_opening_is_played_twice_with_colours_reversed_and_the_same_dice():
    tasks = schedule.build(game="backgammon", engines=2, rounds=3, random_plies=2, seed=5)
    assert len(tasks) == 6
    for first, second in zip(tasks[::2], tasks[1::2], strict=True):
        assert first.pair == second.pair and second.players == first.players[::-1]
        assert first.opening == second.opening and first.dice_seed == second.dice_seed
    assert len({task.opening for task in tasks}) == 3 and len({t.dice_seed for t in tasks}) == 3
    again = schedule.build(game="backgammon", engines=2, rounds=3, random_plies=2, seed=5)
    assert again == tasks  # a pure function of the settings: what --resume relies on
    for task in tasks:
        state = GAMES["backgammon"].from_position("")
        state.play_line(task.opening.moves)  # legal
        assert not state.is_terminal()


def test_tournaments_pair_engines_and_odd_game_counts_end_with_a_single_game():
    assert schedule.encounters(4, "gauntlet") == [(0, 1), (0, 2), (0, 3)]
    assert schedule.encounters(3, "round-robin") == [(0, 1), (0, 2), (1, 2)]
    tasks = schedule.build(game="tictactoe", engines=3, games=3)
    assert len(tasks) == 9 and [t.players for t in tasks[:3]] == [(0, 1), (1, 0), (0, 2)]


def test_openings_files_hold_positions_or_moves_in_the_games_notation(tmp_path):
    epd = tmp_path / "chess.epd"
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
    epd.write_text(f'# a comment\n{fen} id "x";\n')
    (opening,) = schedule.read_openings(epd, "chess")
    assert opening.position == f"{fen} 0 1"
    hex_file = tmp_path / "hex.txt"
    hex_file.write_text("a1 b2\n\nc3\n")
    assert [o.moves for o in schedule.read_openings(hex_file, "hex")] == [("a1", "b2"), ("c3",)]
    gammon = tmp_path / "bg.txt"
    gammon.write_text("4HPwATDgc/ABMA\n")
    assert schedule.read_openings(gammon, "backgammon")[0].position == "4HPwATDgc/ABMA"
    bad = tmp_path / "bad.txt"
    bad.write_text("4444444\n")
    with pytest.raises(SpecError, match=r"bad\.txt:1"):
        schedule.read_openings(bad, "connect4")


def test_specs_parse_like_fastchess_and_name_the_culprit():
    assert TimeControl.parse("40/60+0.6") == TimeControl(base=60, increment=0.6, moves=40)
    assert TimeControl.parse("10+0.1") == TimeControl(base=10, increment=0.1)
    spec = EngineSpec.parse("name=new,server=h:1,engine=alphabeta,option.Hash=64,depth=8")
    assert (spec.server, spec.options, spec.limits.depth) == ("h:1", {"Hash": "64"}, 8)
    uci = EngineSpec.parse("name=sf,depth=3,cmd=stockfish --threads=1,2")
    assert uci.cmd == "stockfish --threads=1,2" and uci.server == ""
    with pytest.raises(SpecError, match="unknown key 'colour'"):
        EngineSpec.parse("name=a,colour=red")
    with pytest.raises(SpecError, match="depth must be positive"):
        EngineSpec.parse("name=a,depth=0")
