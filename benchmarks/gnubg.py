"""GNU Backgammon as a reference: a driver for Debian's `gnubg` in its text mode.

One long-lived ``gnubg -t -q`` process reads commands on stdin; a benchmark makes thousands
of calls on it. Each request sets the
board from a Position ID, sets the dice, and asks for ``hint`` (plays ranked with their
probabilities) or ``eval`` (the position's probabilities). After the commands the driver
sends an unknown word, ``kibitz-N``: gnubg answers it with ``Unknown keyword `kibitz-N'.``,
and that line marks where the answer ends. Every read has a deadline (`Gnubg(timeout=...)`);
a process that times out or dies is killed and raises `GnubgError`, and the next call
starts a new one with the same settings.

Speed: a 0-ply `best_move` or `evaluate` takes 10-11 ms, nearly all of it asleep: gnubg
runs every evaluation as a task and its waiting loop (multithread.c, ``WaitForAllTasks``)
checks for the end only every ``g_usleep(100 * callbackTime)``, 10 ms, even with ``set
threads 1``. A 1-ply call takes about 12 ms, a 2-ply one about 90 ms (the opening rolls).
Requests sent together wait just as long, but separate processes do not wait for each
other: for more than about 90 calls a second, use one `Gnubg` per thread (four in parallel
answer four times as many on two cores).

Found by experiment with gnubg 1.07.001 (Debian 12):

- ``set board ID`` needs a game in progress (``new game`` once at the start; with both
  players ``human`` gnubg moves for nobody). It reads the Position ID from the point of view
  of the player on roll in gnubg's game, whoever that is (its board is then shown from that
  side), so no ``set turn`` is needed: an ID in kibitz's convention (`encode_position_id`
  of the player on roll, then the other) means the same position to both. gnubg takes
  malformed IDs without a word (a short one gives some other position) and answers
  ``Illegal position.`` to impossible ones while keeping the old board: the driver checks
  the ID's form itself, and that the board gnubg shows afterwards has that ID.
- ``eval`` values the position before the roll, whatever dice are set, at the
  *cube decision* plies (``set evaluation cubedecision evaluation plies N``; 2 by default,
  about 20 ms; 0-ply takes 1 ms): one row of probabilities for each ply up to N
  (``static:``, `` 1 ply:``, ...). `evaluate` sets those plies to the setting's.
- ``hint N`` lists the N best plays, each as ``k. Cubeless P-ply  PLAY  Eq.: +x.xxx``
  then the probabilities ``w wg wbg - l lg lbg`` (gammons include backgammons) after the
  play, for the player who made it (a certain loss may show ``-0.000`` for w: with 1-1 on
  PwAAgL4HAAAAAA three of the 11 plays do). ``hint 10000`` lists every legal play, one
  per resulting position, written by gnubg's ``FormatMove``. Above 0-ply a move filter
  first ranks every play at 0-ply and looks deeper only at the few within 0.16 of the
  best: the others keep their 0-ply figures, and a play alone within the filter is chosen
  at 0-ply (the opening 31).
- Money play without a cube, gammons counted: ``set cube use off`` alone is not that.
  gnubg still ranks plays by a *cubeful* equity (as if a cube were in play; 8/5 6/5 with 31
  shows +0.200 where its probabilities give +0.159), and under the Jacoby rule (on by
  default) that cubeful equity ignores gammons (gnubg warns: "you'll have to disable the
  Jacoby rule if you want gammons and backgammons to be scored"); the opening 64 at 2-ply
  changes from 24/18 13/9 to 8/2 6/2 when it goes. So the driver sets ``set jacoby off``
  and ``set evaluation chequerplay evaluation cubeful off``: plays are then ranked by the
  cubeless equity ``2w - 1 + wg + wbg - lg - lbg``, which ``Eq.`` shows. (`cubeful=True`
  keeps gnubg's cubeful ranking.)
- gnubg's predefined levels (eval.c, ``aecSettings``): beginner, casual play,
  intermediate, advanced are all 0-ply with *deterministic* noise of standard deviation
  0.060, 0.050, 0.040, 0.015; expert is 0-ply without noise; world class and supremo
  2-ply (normal and large move filters), grandmaster 3-ply, 4ply 4-ply. The **weakest is
  beginner**: 0-ply, noise 0.060, deterministic (the noise is a hash of the position, so
  the same position always gets the same play). In this build the deterministic noise is
  not centred: it sums the 16 bytes of an MD5 digest as (signed) ``char`` but subtracts the
  mean of unsigned bytes, so every output of every evaluation is shifted by about -6.9
  standard deviations (-0.41 on the win probability at beginner, a quarter of that on
  gammons) before being clipped to [0, 1]. The shift is common to all plays, so plays
  still rank by their real value plus noise of about 0.06, except where the clipping
  makes plays look alike: every play that leaves the opponent with less than about 41%
  looks equally good on winning chances. Its equities are meaningless (+0.969 for 8/4 with
  31 at the start); only its plays count. Its opening 31 is 8/4, 65 is 24/18 13/8.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import time
from dataclasses import asdict, dataclass
from typing import NamedTuple

GNUBG = "/usr/games/gnubg"


class Setting(NamedTuple):
    plies: int
    noise: float
    """Standard deviation of the (deterministic) noise gnubg adds to its evaluations."""


SETTINGS = {
    "beginner": Setting(0, 0.060),
    "casual": Setting(0, 0.050),
    "intermediate": Setting(0, 0.040),
    "advanced": Setting(0, 0.015),
    "0-ply": Setting(0, 0.0),
    "1-ply": Setting(1, 0.0),
    "2-ply": Setting(2, 0.0),
}
"""Evaluation settings by name. `beginner` is gnubg's weakest predefined player, and
`casual` to `advanced` its other noisy 0-ply levels; `0-ply` is its "expert" and `2-ply`
its "world class" (the normal move filter), here cubeless (see the module docstring)."""

START_TIMEOUT = 30.0
"""Seconds gnubg may take to start and take the settings (it loads its nets: 0.15 s)."""

WEAKEST = "beginner"
"""gnubg's weakest predefined setting."""

_POSITION_ID = re.compile(r"^[A-Za-z0-9+/]{14}$")
_SHOWN_ID = re.compile(r"Position ID:\s+(\S+)")
_HINT = re.compile(r"^\s*\*?\s*\d+\.\s+Cube(?:ful|less) \d-ply\s+(.+?)\s+Eq\.:\s+[+-]?\d")
_NUMBER = r"(-?[\d.]+)"  # a certain loss's winning chance can read -0.000
_PROBABILITIES = re.compile(
    rf"^\s+{_NUMBER} {_NUMBER} {_NUMBER} - {_NUMBER} {_NUMBER} {_NUMBER}\s*$"
)
_EVAL_ROW = re.compile(
    r"^(static|\d+ ply):\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+[+-]?[\d.]+"
)
_ERRORS = ("Illegal position", "You must specify", "No game in progress", "Unknown keyword")
"""How gnubg's refusals begin (the driver's own end mark is cut off before the check)."""
_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


class GnubgError(RuntimeError):
    """gnubg is missing, died, timed out, refused a command or answered something this
    driver cannot read."""


def available() -> bool:
    """Whether gnubg is installed (`bash scripts/peers.sh` installs Debian's)."""
    return _program() is not None


def _program() -> str | None:
    return GNUBG if shutil.which(GNUBG) else shutil.which("gnubg")


class Hint(NamedTuple):
    """One play as gnubg ranks it; unpacks as ``(play, equity)``."""

    play: str
    """gnubg's text of the play, e.g. ``8/5 6/5``; ``pass`` when no checker can move."""
    equity: float
    """Cubeless equity after the play, for the player who made it (gammons counted; from
    gnubg's probabilities, which it prints with three decimals). NaN for ``pass``."""


def cubeless(win: float, win_gammon: float, win_backgammon: float, lose_gammon: float,
             lose_backgammon: float) -> float:  # fmt: skip
    """Money equity without a cube: gammons count 2, backgammons 3 (the gammon
    probabilities include the backgammons)."""
    return 2 * win - 1 + win_gammon + win_backgammon - lose_gammon - lose_backgammon


@dataclass(frozen=True)
class Evaluation:
    """gnubg's probabilities for the player on roll, before the roll (gammons include
    backgammons)."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @property
    def equity(self) -> float:
        """Cubeless equity, gammons counting 2 and backgammons 3."""
        return cubeless(
            self.win, self.win_gammon, self.win_backgammon, self.lose_gammon, self.lose_backgammon
        )

    def as_dict(self) -> dict[str, float]:
        """The probabilities and the equity by name."""
        return {**asdict(self), "equity": self.equity}


class Gnubg:
    """One gnubg process; use as a context manager (or call `close`).

    `setting`: a name from `SETTINGS`; `timeout`: seconds one request may take before the
    process is given up (a 2-ply `plays` of a big double takes well under a second);
    `cubeful`: rank plays by gnubg's cubeful equity instead of the cubeless one (the module
    docstring says why the default is cubeless)."""

    def __init__(self, setting: str = "0-ply", *, timeout: float = 60.0,
                 cubeful: bool = False) -> None:  # fmt: skip
        if setting not in SETTINGS:
            raise ValueError(f"unknown gnubg setting {setting!r} (known: {', '.join(SETTINGS)})")
        self.timeout = timeout
        self.cubeful = cubeful
        self.setting = setting
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._marks = 0
        self.requests = 0
        """Requests answered so far (each one command batch)."""
        self.starts = 0
        """Processes started so far (more than one only after a failure)."""
        self._start()

    # -- public -------------------------------------------------------------------------------

    def use(self, setting: str) -> None:
        """Evaluate with `SETTINGS[setting]` from now on."""
        if setting not in SETTINGS:
            raise ValueError(f"unknown gnubg setting {setting!r} (known: {', '.join(SETTINGS)})")
        if setting != self.setting:
            self.setting = setting
            self._ask(self._setting_commands())

    def hints(self, position_id: str, dice: tuple[int, int], count: int = 1) -> list[Hint]:
        """The `count` best plays for the player on roll of `position_id` with `dice`, best
        first ([Hint("pass", nan)] when no checker can move)."""
        first, second = _dice(dice)
        board = f"set board {_position_id(position_id)}"
        lines = self._ask([board, f"set dice {first} {second}", f"hint {int(count)}"])
        _check_board(position_id, lines)
        hints: list[Hint] = []
        play: str | None = None
        for line in lines:
            found = _HINT.match(line)
            if found:
                play = found.group(1)
                continue
            probabilities = _PROBABILITIES.match(line)
            if probabilities and play is not None:
                win, wg, wbg, _, lg, lbg = map(float, probabilities.groups())
                hints.append(Hint(play, cubeless(win, wg, wbg, lg, lbg)))
                play = None
        if not hints:
            if any("no legal moves" in line.lower() for line in lines):
                return [Hint("pass", float("nan"))]
            raise GnubgError(f"no hint for {position_id} {first}{second}: {_tail(lines)}")
        return hints

    def best_move(self, position_id: str, dice: tuple[int, int]) -> Hint:
        """The play gnubg makes at the current setting, and its cubeless equity: what a
        gnubg player in a match plays."""
        return self.hints(position_id, dice, 1)[0]

    def plays(self, position_id: str, dice: tuple[int, int]) -> list[str]:
        """The legal plays as gnubg lists them (``hint 10000``), gnubg's best first
        (``["pass"]`` when none): every legal play, one per resulting position, spelled as
        gnubg writes it."""
        return [hint.play for hint in self.hints(position_id, dice, 10_000)]

    def evaluate(self, position_id: str) -> Evaluation:
        """The cubeless evaluation of the player on roll before the roll, at the setting's
        plies, without noise (the noisy levels are evaluated as 0-ply)."""
        lines = self._ask([f"set board {_position_id(position_id)}", "eval"])
        _check_board(position_id, lines)
        rows = {}
        for line in lines:
            found = _EVAL_ROW.match(line.strip())
            if found:
                rows[found.group(1)] = Evaluation(*map(float, found.groups()[1:]))
        plies = SETTINGS[self.setting].plies
        row = rows.get("static" if plies == 0 else f"{plies} ply")
        if row is None:
            raise GnubgError(f"no {plies}-ply evaluation for {position_id}: {_tail(lines)}")
        return row

    def close(self) -> None:
        """End the process (politely, then by force)."""
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        try:
            assert process.stdin is not None
            process.stdin.write(b"quit\ny\n")
            process.stdin.close()
            process.wait(timeout=5)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()

    def __enter__(self) -> Gnubg:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the process --------------------------------------------------------------------------

    def _setting_commands(self) -> list[str]:
        plies, noise = SETTINGS[self.setting]
        prefix = "set evaluation chequerplay evaluation"
        return [
            f"{prefix} plies {plies}",
            f"{prefix} noise {noise:.3f}",
            f"{prefix} deterministic on",
            f"{prefix} cubeful {'on' if self.cubeful else 'off'}",
            # `eval` values at the cube decision plies: the same, without noise
            f"set evaluation cubedecision evaluation plies {plies}",
            "set evaluation cubedecision evaluation noise 0",
        ]

    def _start(self) -> None:
        program = _program()
        if program is None:
            raise GnubgError("gnubg is not installed (bash scripts/peers.sh installs it)")
        self._process = subprocess.Popen(
            [program, "-t", "-q"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            bufsize=0,
        )
        self._buffer = b""
        self.starts += 1
        players = ["set player 0 human", "set player 1 human"]  # gnubg moves for nobody
        money = ["set cube use off", "set jacoby off"]
        self._ask([*players, *money, "set display off", "new game", *self._setting_commands()],
                  started=True)  # fmt: skip

    def _ask(self, commands: list[str], started: bool = False) -> list[str]:
        """Send `commands`; return the lines gnubg printed for them."""
        if self._process is None:
            self._start()
        process = self._process
        assert process is not None and process.stdin is not None and process.stdout is not None
        self._marks += 1
        mark = f"kibitz-{self._marks}"
        try:
            process.stdin.write(("\n".join([*commands, mark]) + "\n").encode())
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            self._fail(f"gnubg has exited (code {process.poll()})")
        timeout = START_TIMEOUT if started else self.timeout
        text = self._read_until(f"`{mark}'".encode(), commands, timeout)
        self.requests += 1
        lines = text.splitlines()
        for line in lines:
            if any(error in line for error in _ERRORS) and not started:
                raise GnubgError(f"gnubg refused {commands}: {line.strip()}")
        return lines

    def _read_until(self, mark: bytes, commands: list[str], timeout: float) -> str:
        """gnubg's output up to the line holding `mark` (that line dropped)."""
        process = self._process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        deadline = time.monotonic() + timeout
        while True:
            at = self._buffer.find(mark)
            if at >= 0:
                start = self._buffer.rfind(b"\n", 0, at) + 1
                end = self._buffer.find(b"\n", at)
                end = len(self._buffer) if end < 0 else end + 1
                text = self._buffer[:start].decode(errors="replace")
                self._buffer = self._buffer[end:]
                return text
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail(f"gnubg did not answer {commands} within {timeout:g} s")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    tail = self._buffer.decode(errors="replace").splitlines()
                    self._fail(f"gnubg has exited (code {process.wait()}): {_tail(tail)}")
                self._buffer += chunk

    def _fail(self, message: str) -> None:
        """Give the process up (the next request starts a new one) and raise."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
        raise GnubgError(message)


def _position_id(text: str) -> str:
    if not _POSITION_ID.match(text):
        raise ValueError(f"not a gnubg Position ID (14 characters of base64): {text!r}")
    return text


def _dice(dice: tuple[int, int]) -> tuple[int, int]:
    first, second = dice
    if not (1 <= first <= 6 and 1 <= second <= 6):
        raise ValueError(f"dice must be two numbers from 1 to 6: {dice!r}")
    return int(first), int(second)


def _check_board(position_id: str, lines: list[str]) -> None:
    """gnubg shows the board after ``set board``: it must have the ID asked for."""
    shown = next((m.group(1) for line in lines if (m := _SHOWN_ID.search(line))), None)
    if shown is None or _canonical(shown) != _canonical(position_id):
        raise GnubgError(f"gnubg did not take the position {position_id} (it shows {shown})")


def _canonical(position_id: str) -> tuple[str, int]:
    """An ID's 80 bits: 13 characters and the top 2 bits of the last (4 bits pad it)."""
    last = _BASE64.find(position_id[-1]) if position_id else -1
    return position_id[:13], last >> 4


def _tail(lines: list[str]) -> str:
    return " | ".join(line.strip() for line in lines[-5:] if line.strip())
