"""Backgammon plays against GNU Backgammon itself: on seeded random positions (from random
games and random boards: hits, doubles, the bar, bearing off), kibitz's legal plays spelled by
kibitz are exactly the plays gnubg lists, spelled by gnubg, and every gnubg spelling reads back
as the play it names.

Also the recorder of tests/data/backgammon/gnubg_plays.txt (test_backgammon.py checks kibitz
against it without gnubg): ``.venv/bin/python -m tests.games.test_backgammon_gnubg
tests/data/backgammon/gnubg_plays.txt`` asks gnubg again for each position in the file and
rewrites its plays, keeping the comments."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.gnubg import Gnubg, available
from kibitz.games.backgammon import Backgammon
from kibitz.games.backgammon.board import BAR, apply_play, random_play, start_side
from kibitz.games.backgammon.notation import encode_position_id

pytestmark = pytest.mark.skipif(
    not available(), reason="gnubg is missing (bash scripts/peers.sh installs Debian's gnubg)"
)
Roll = tuple[int, int]
GAME_POSITIONS = 60
"""Positions from random games (every other turn), from the start to the bear-off."""
RANDOM_POSITIONS = 40
"""Positions from random boards, half of them with doubles."""


def _roll(rng: random.Random) -> Roll:
    first, second = rng.randint(1, 6), rng.randint(1, 6)
    return max(first, second), min(first, second)


def game_positions(rng: random.Random, count: int) -> Iterator[tuple[str, Roll]]:
    """(Position ID, roll) of every other turn of random games played from the start."""
    me, opp = start_side(), start_side()
    turn = 0
    while count:
        if not sum(me) or not sum(opp):
            me, opp, turn = start_side(), start_side(), 0
        roll = _roll(rng)
        if turn % 2 == 0:
            yield encode_position_id(me, opp), roll
            count -= 1
        apply_play(me, opp, random_play(me, opp, *roll, rng))
        me, opp, turn = opp, me, turn + 1


def random_positions(rng: random.Random, count: int) -> Iterator[tuple[str, Roll]]:
    """(Position ID, roll) of random boards: 1-15 checkers a side anywhere (some on the bar),
    or all in the home board; half the rolls doubles."""
    for number in range(count):
        sides: list[list[int]] = [[0] * 25, [0] * 25]
        for mine, theirs in (sides, sides[::-1]):
            home = rng.random() < 0.3
            for _ in range(rng.randint(1, 15)):
                free = [point for point in range(6 if home else 24) if not theirs[23 - point]]
                on_bar = not free or (not home and rng.random() < 0.1)
                mine[BAR if on_bar else rng.choice(free)] += 1
        roll = (rng.randint(1, 6),) * 2 if number % 2 else _roll(rng)
        yield encode_position_id(*sides), roll


def check_against(texts: list[str], position_id: str, roll: Roll) -> None:
    """gnubg's `texts` for the position are kibitz's spellings of its legal plays, and each
    reads back as the play it spells."""
    state = Backgammon.from_position(f"{position_id}:{roll[0]}{roll[1]}")
    ours = [state.format_move(move) for move in state.legal_moves()]
    where = f"{position_id}:{roll[0]}{roll[1]}"
    assert len(set(ours)) == len(ours), where  # one spelling per play
    assert sorted(texts) == sorted(ours), where
    for text in texts:
        assert state.format_move(state.parse_move(text)) == text, (where, text)


@pytest.fixture(scope="module")
def gnubg():
    with Gnubg("0-ply") as driver:
        yield driver


def test_kibitz_spells_every_legal_play_as_gnubg_does_on_random_positions(gnubg):
    rng = random.Random(26)
    cases = [*game_positions(rng, GAME_POSITIONS), *random_positions(rng, RANDOM_POSITIONS)]
    spellings: list[str] = []
    for position_id, roll in cases:
        texts = gnubg.plays(position_id, roll)
        check_against(texts, position_id, roll)
        spellings += texts
    # the sample holds the cases that once differed, so the comparison means something
    words = {word for text in spellings for word in text.split()}
    assert any("*(" in word for word in words)  # hits counted: 7/5*(2)
    assert any("*/" in word and "(" in word for word in words)  # 17/12*/7(2)
    assert any(word.startswith("bar/") and "(" in word for word in words)
    assert any(word.endswith("off") for word in words)
    # a point passed on the way is written only where the opponent had a checker
    assert not any(word.count("/") > 1 and "*" not in word for word in words)
    assert len(cases) == GAME_POSITIONS + RANDOM_POSITIONS and len(spellings) > 2000


def test_gnubg_lists_every_play_where_a_play_loses_for_certain(gnubg):
    """gnubg may write the winning chance of a lost game as -0.000; the driver once dropped those
    plays and took gnubg to omit three of these eleven."""
    texts = gnubg.plays("PwAAgL4HAAAAAA", (1, 1))
    assert len(texts) == 11
    check_against(texts, "PwAAgL4HAAAAAA", (1, 1))


def record(path: Path) -> None:
    """Rewrite the data file at `path`: gnubg's plays for each position in it, comments kept."""
    lines: list[str] = []
    done: set[tuple[str, str]] = set()
    with Gnubg("0-ply") as driver:
        for line in path.read_text().splitlines():
            if line.startswith("#") or not line.strip():
                lines.append(line)
                continue
            position_id, roll = line.split()[:2]
            if (position_id, roll) in done:
                continue
            done.add((position_id, roll))
            dice = (int(roll[0]), int(roll[1]))
            lines += [f"{position_id} {roll} {text}" for text in driver.plays(position_id, dice)]
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    record(Path(sys.argv[1]))
