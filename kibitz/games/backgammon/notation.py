"""Backgammon notation: GNU Backgammon's Position ID and Match ID, and plays as text.

**Position ID** (GNU Backgammon manual, "Position ID"): 80 bits, base64 without padding (14
characters). For each side, first the player *not* on roll, then the player on roll, and
for each of its points 1-24 then its bar: as many 1 bits as checkers there, then a 0 bit.
Bits fill each byte from its least significant bit.

**Match ID** ("Match ID"): 66 bits in 9 bytes, base64 (12 characters), least significant
bit first: cube value (log2, 4 bits), cube owner (2), player on roll (1), Crawford (1), game
state (3), player to make a decision (1), double offered (1), resignation offered (2), the
two dice (3 each), match length (15), the two scores (15 each), Jacoby (1).

**Plays** are written as GNU Backgammon writes them (gnubg's ``FormatMove``, drawboard.c):
each checker's path from its point to where it stops (``13/7``, ``bar/22``, ``6/off``),
paths from the back first (``24/18 13/9``, ``24/23 24/21``); a point passed on the way is
written, always starred, only where the opponent had a checker (``13/11*/7``, and for a
second checker through it ``7/5*/3(2)``); identical paths are counted (``8/4(2)``, hits
included: ``7/5*(2)``, ``13/12*(3)``); a path's end is starred where it hits unless that
point is already starred (``7/5*/3 7/5``). Points count from the mover's home.
"""

from __future__ import annotations

import base64
import itertools
import re
from dataclasses import dataclass

from kibitz.games.backgammon.board import BAR, CHECKERS, OFF, Play, move_checker
from kibitz.games.base import IllegalMoveError, NotationError, quoted

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12


# -- Position ID ------------------------------------------------------------------------------


def _b64decode(text: str, size: int, what: str) -> bytes:
    try:
        data = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except ValueError:
        raise NotationError(f"{what} {quoted(text)} is not base64") from None
    if len(data) < size:
        raise NotationError(f"{what} {quoted(text)} is too short")
    return data


def decode_position_id(text: str) -> tuple[list[int], list[int]]:
    """(the checkers of the player on roll, those of the other) from a Position ID."""
    if len(text) != POSITION_ID_LENGTH:
        raise NotationError(
            f"a Position ID has {POSITION_ID_LENGTH} characters, not {len(text)}: {quoted(text)}"
        )
    data = _b64decode(text, 10, "Position ID")
    bits = [(data[index // 8] >> (index % 8)) & 1 for index in range(80)]
    sides: list[list[int]] = [[0] * 25, [0] * 25]
    side, point = 0, 0
    for bit in bits:
        if side == 2:
            break
        if bit:
            sides[side][point] += 1
        else:
            point += 1
            if point == 25:
                side, point = side + 1, 0
    other, on_roll = sides
    for name, checkers in (("on roll", on_roll), ("not on roll", other)):
        if sum(checkers) > CHECKERS:
            raise NotationError(
                f"Position ID {quoted(text)}: the player {name} has {sum(checkers)} checkers "
                f"(15 at most)"
            )
    for index in range(24):
        if on_roll[index] and other[23 - index]:
            raise NotationError(
                f"Position ID {quoted(text)}: both players have checkers on point "
                f"{index + 1} (of the player on roll)"
            )
    return on_roll, other


def encode_position_id(on_roll: list[int], other: list[int]) -> str:
    bits: list[int] = []
    for side in (other, on_roll):
        for count in side:
            bits += [1] * count + [0]
    bits += [0] * (80 - len(bits))
    data = bytes(sum(bits[byte * 8 + bit] << bit for bit in range(8)) for byte in range(10))
    return base64.b64encode(data).decode()[:POSITION_ID_LENGTH]


# -- Match ID ---------------------------------------------------------------------------------

_MATCH_FIELDS = (
    ("cube", 4),
    ("cube_owner", 2),
    ("on_roll", 1),
    ("crawford", 1),
    ("state", 3),
    ("turn", 1),
    ("doubled", 1),
    ("resigned", 2),
    ("die1", 3),
    ("die2", 3),
    ("length", 15),
    ("score0", 15),
    ("score1", 15),
    ("jacoby", 1),
)
PLAYING = 1
"""Game state "playing" in a Match ID."""
CENTRED = 3
"""Cube owner "centred" in a Match ID."""


@dataclass(frozen=True)
class MatchId:
    """The fields of a Match ID that a money game without a cube uses."""

    on_roll: int
    dice: tuple[int, int] | None


def decode_match_id(text: str) -> MatchId:
    """Player on roll and dice of a Match ID; NotationError for what kibitz cannot play
    (a cube turned or offered, a resignation, a game not in play, a match)."""
    if len(text) != MATCH_ID_LENGTH:
        raise NotationError(
            f"a Match ID has {MATCH_ID_LENGTH} characters, not {len(text)}: {quoted(text)}"
        )
    data = _b64decode(text, 9, "Match ID")
    value = int.from_bytes(data[:9], "little")
    fields = {}
    for name, width in _MATCH_FIELDS:
        fields[name] = value & ((1 << width) - 1)
        value >>= width
    problem = None
    if fields["state"] != PLAYING:
        problem = "the game is not in play"
    elif fields["cube"] != 0 or fields["doubled"]:
        problem = "the cube has been turned or offered (kibitz plays without a cube)"
    elif fields["resigned"]:
        problem = "a resignation is offered"
    elif fields["turn"] != fields["on_roll"]:
        problem = "the player to decide is not the player on roll"
    if problem:
        raise NotationError(f"Match ID {quoted(text)}: {problem}")
    die1, die2 = fields["die1"], fields["die2"]
    if (die1 == 0) != (die2 == 0) or die1 > 6 or die2 > 6:
        raise NotationError(f"Match ID {quoted(text)}: impossible dice {die1} and {die2}")
    dice = (max(die1, die2), min(die1, die2)) if die1 else None
    return MatchId(fields["on_roll"], dice)


def encode_match_id(on_roll: int, dice: tuple[int, int] | None) -> str:
    """The Match ID of a money game without a cube, `on_roll` to play, `dice` rolled."""
    fields = dict.fromkeys((name for name, _ in _MATCH_FIELDS), 0)
    fields |= {"cube_owner": CENTRED, "on_roll": on_roll, "turn": on_roll, "state": PLAYING}
    if dice is not None:
        fields["die1"], fields["die2"] = dice
    value, shift = 0, 0
    for name, width in _MATCH_FIELDS:
        value |= fields[name] << shift
        shift += width
    return base64.b64encode(value.to_bytes(9, "little")).decode()


# -- dice -----------------------------------------------------------------------------------------

_ROLL = re.compile(r"\(?([1-6])-?([1-6])\)?:?", re.ASCII)


def parse_roll(text: str) -> tuple[int, int] | None:
    """(high, low) from ``31``, ``13``, ``3-1``, ``31:``; None if it is not a roll."""
    match = _ROLL.fullmatch(text.strip())
    if match is None:
        return None
    first, second = int(match.group(1)), int(match.group(2))
    return (max(first, second), min(first, second))


def format_roll(roll: tuple[int, int]) -> str:
    """``31:``, the transcript style, which marks a roll in a line of moves."""
    return f"{roll[0]}{roll[1]}:"


# -- plays ----------------------------------------------------------------------------------------


def _point_name(index: int) -> str:
    if index == BAR:
        return "bar"
    if index == OFF:
        return "off"
    return str(index + 1)


def format_play(play: Play, opp: list[int]) -> str:
    """GNU Backgammon's text for `play` by the side whose opponent is `opp` (before it),
    by the rules of gnubg's ``FormatMove`` (drawboard.c): the steps sorted from the back
    (source, then target, descending); each step joined to the first earlier path that
    stops where it starts, the point between kept (and starred) only where `opp` had a
    checker before the play; identical paths (same points) counted, ``(n)`` after the
    first; a ``*`` after a path's end where `opp` had a checker, once per point."""
    if not play:
        return "pass"
    steps = sorted(play, key=lambda step: (-step[0], -step[1]))
    paths: list[list[int]] = []
    used = [False] * len(steps)
    for first, (source, target) in enumerate(steps):
        if used[first]:
            continue
        path = [source, target]
        for later in range(first + 1, len(steps)):
            if not used[later] and steps[later][0] == path[-1]:
                if not _occupied(opp, path[-1]):
                    path.pop()  # a point passed without a hit is not written
                path.append(steps[later][1])
                used[later] = True
        paths.append(path)
    counted: list[tuple[list[int], int]] = []
    for path in paths:
        for index, (known, times) in enumerate(counted):
            if known == path:
                counted[index] = (known, times + 1)
                break
        else:
            counted.append((path, 1))
    starred: set[int] = set()
    texts = []
    for path, times in counted:
        names = [_point_name(path[0])]
        for point in path[1:-1]:  # kept only where it hits
            names.append(_point_name(point) + "*")
            starred.add(point)
        end = path[-1]
        star = _occupied(opp, end) and end not in starred
        if star:
            starred.add(end)
        names.append(_point_name(end) + ("*" if star else ""))
        texts.append("/".join(names) + (f"({times})" if times > 1 else ""))
    return " ".join(texts)


def _occupied(opp: list[int], index: int) -> bool:
    """Whether the opponent has a checker on the mover's point `index` (never on off)."""
    return 0 <= index < 24 and opp[23 - index] > 0


_PATH = re.compile(r"((?:bar|off|\d{1,2})\*?(?:/(?:bar|off|\d{1,2})\*?)+)(?:\((\d)\))?", re.ASCII)


def parse_play(text: str, me: list[int], opp: list[int], legal: list[Play]) -> Play:
    """The legal play that `text` describes: GNU Backgammon's form or spelled out (``8/4(2)``
    or ``8/4 8/4``, ``13/7`` or ``13/10 10/7``, any order, ``*`` optional). It is the legal
    play with the same resulting position (the hits marked decide between plays that differ
    only in what they hit on the way)."""
    words = text.lower().replace(",", " ").split()
    if words in (["pass"], ["-"], []):
        if any(legal):
            raise IllegalMoveError(f"{quoted(text)}: a play is possible ({_examples(legal, opp)})")
        return ()
    moved_me = me[:]
    marked: set[int] = set()
    for word in words:
        match = _PATH.fullmatch(word)
        if match is None:
            raise NotationError(
                f"cannot read the play {quoted(text)}: expected paths like 8/5, 13/7*, "
                f"bar/22, 6/off, 8/4(2)"
            )
        names = match.group(1).split("/")
        points = [_point_index(name.rstrip("*"), text) for name in names]
        marked |= {point for point, name in zip(points, names, strict=True) if name.endswith("*")}
        for _ in range(int(match.group(2) or 1)):
            for source, target in itertools.pairwise(points):
                if source <= target and target != OFF:
                    raise NotationError(
                        f"{quoted(text)}: checkers move from higher points to lower"
                    )
                if moved_me[source] == 0:
                    raise IllegalMoveError(
                        f"{quoted(text)}: no checker on {_point_name(source)} to move"
                    )
                moved_me[source] -= 1
                if target != OFF:
                    moved_me[target] += 1
    candidates: list[tuple[Play, set[int]]] = []
    for play in legal:
        after_me, after_opp = me[:], opp[:]
        hits = {
            target for source, target in play if move_checker(after_me, after_opp, source, target)
        }
        if after_me == moved_me:
            candidates.append((play, hits))
    if not candidates:
        raise IllegalMoveError(f"{quoted(text)} is not a legal play here ({_examples(legal, opp)})")
    # plays that end alike but hit differently on the way: the hits marked decide
    for play, hits in candidates:
        if hits == marked:
            return play
    for play, hits in candidates:
        if len(hits) == len(marked):
            return play
    return candidates[0][0]


def _point_index(name: str, text: str) -> int:
    if name == "bar":
        return BAR
    if name == "off":
        return OFF
    point = int(name)
    if not 1 <= point <= 24:
        raise NotationError(f"{quoted(text)}: points are 1 to 24, bar and off, not {point}")
    return point - 1


def _examples(legal: list[Play], opp: list[int], count: int = 4) -> str:
    if not any(legal):
        return "no checker can move: the only play is 'pass'"
    shown = ", ".join(format_play(play, opp) for play in legal[:count])
    more = f", ... ({len(legal)} plays)" if len(legal) > count else ""
    return f"legal: {shown}{more}"
