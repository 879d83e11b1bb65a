"""GNU Backgammon as a reference: a driver for Debian's `gnubg` in its text mode.

One long-lived ``gnubg -t -q`` process reads commands on stdin. Each request sets the board
from a Position ID (always from the point of view of the player on roll: ``set board``
reads it for whoever is on roll in gnubg's game, so the side gnubg thinks is on roll does
not matter), sets the dice, and asks for ``hint`` (plays ranked with their equities) or
``eval`` (the position's probabilities). An unknown word sent after the commands makes
gnubg print ``Unknown keyword `kibitz-N'.``: that line marks where the answer ends.

Found by experiment with gnubg 1.07.001 (Debian 12):
- ``set board`` needs a game in progress (``new game`` once at the start; with both players
  ``human`` gnubg moves for nobody);
- ``hint N`` lists the N best plays, each as ``k. Cubeful P-ply  PLAY  Eq.: +x.xxx``
  followed by the probabilities ``w wg wbg - l lg lbg``; the cubeless equity is
  ``2w - 1 + wg + wbg - lg - lbg`` (gammons 2, backgammons 3), which is what `best_move`
  reports (the "Cubeful" figure assumes a cube);
- the evaluation settings (``set evaluation chequerplay evaluation plies N``, ``noise``,
  ``deterministic``) decide both; gnubg's weakest predefined player, **beginner**, is 0-ply
  with noise 0.060 (deterministic: the same noise for the same position), and its
  equities are then noisy too (its plays are what counts).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass

GNUBG = "/usr/games/gnubg"
SETTINGS = {
    "beginner": (0, 0.060),
    "0-ply": (0, 0.0),
    "1-ply": (1, 0.0),
    "2-ply": (2, 0.0),
}
"""Evaluation settings by name: (plies, noise). `beginner` is gnubg's weakest predefined
player (its level names: beginner, casual, intermediate, advanced, expert, world class)."""

_HINT = re.compile(r"^\s*\*?\s*\d+\.\s+Cubeful \d-ply\s+(.+?)\s+Eq\.:\s+[+-]?\d")
_PROBABILITIES = re.compile(r"^\s+([\d.]+) ([\d.]+) ([\d.]+) - ([\d.]+) ([\d.]+) ([\d.]+)\s*$")
_STATIC = re.compile(
    r"^static:\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([+-][\d.]+)"
)


class GnubgError(RuntimeError):
    """gnubg is missing, died, or answered something this driver cannot read."""


def available() -> bool:
    return shutil.which(GNUBG) is not None or shutil.which("gnubg") is not None


@dataclass(frozen=True)
class Hint:
    play: str
    """gnubg's text of the play, e.g. ``8/5 6/5``; ``pass`` when no checker can move."""
    equity: float
    """Cubeless equity after the play, for the player who made it (gammons counted)."""


def cubeless(win: float, win_gammon: float, win_backgammon: float, lose_gammon: float,
             lose_backgammon: float) -> float:  # fmt: skip
    return 2 * win - 1 + win_gammon + win_backgammon - lose_gammon - lose_backgammon


@dataclass(frozen=True)
class Evaluation:
    """gnubg's probabilities for the player on roll (gammons include backgammons)."""

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


class Gnubg:
    """One gnubg process; use as a context manager (or call `close`)."""

    def __init__(self, setting: str = "0-ply") -> None:
        program = GNUBG if shutil.which(GNUBG) else shutil.which("gnubg")
        if program is None:
            raise GnubgError("gnubg is not installed (bash scripts/peers.sh installs it)")
        self._process = subprocess.Popen(
            [program, "-t", "-q"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self._marks = 0
        self.setting = ""
        self._ask(["set player 0 human", "set player 1 human", "set cube use off", "new game"])
        self.use(setting)

    def use(self, setting: str) -> None:
        """Evaluate with one of `SETTINGS` from now on."""
        if setting == self.setting:
            return
        plies, noise = SETTINGS[setting]
        self._ask([
            f"set evaluation chequerplay evaluation plies {plies}",
            f"set evaluation chequerplay evaluation noise {noise}",
            "set evaluation chequerplay evaluation deterministic on",
        ])  # fmt: skip
        self.setting = setting

    def hints(self, position_id: str, dice: tuple[int, int], count: int = 1) -> list[Hint]:
        """The `count` best plays for the player on roll, best first ([Hint("pass", ...)]
        when no checker can move)."""
        lines = self._ask(
            [f"set board {position_id}", f"set dice {dice[0]} {dice[1]}", f"hint {count}"]
        )
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
            raise GnubgError(f"no hint for {position_id} {dice}: {' | '.join(lines[-5:])}")
        return hints

    def best_move(self, position_id: str, dice: tuple[int, int]) -> Hint:
        return self.hints(position_id, dice, 1)[0]

    def plays(self, position_id: str, dice: tuple[int, int]) -> list[str]:
        """Every legal play as gnubg writes it (hint with room for all of them)."""
        return [hint.play for hint in self.hints(position_id, dice, 10_000)]

    def evaluate(self, position_id: str) -> Evaluation:
        """The static (0-ply) cubeless evaluation of the player on roll, before rolling."""
        lines = self._ask([f"set board {position_id}", "eval"])
        for line in lines:
            found = _STATIC.match(line.strip())
            if found:
                return Evaluation(*map(float, found.groups()[:5]))
        raise GnubgError(f"no evaluation for {position_id}: {' | '.join(lines[-5:])}")

    def _ask(self, commands: list[str]) -> list[str]:
        """Send `commands`, return the lines gnubg printed for them."""
        self._marks += 1
        mark = f"kibitz-{self._marks}"
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write("\n".join([*commands, mark]) + "\n")
            stdin.flush()
        except BrokenPipeError:
            raise GnubgError("gnubg has exited") from None
        lines = []
        while True:
            line = stdout.readline()
            if not line:
                raise GnubgError("gnubg has exited: " + " | ".join(lines[-5:]))
            if mark in line:
                return lines
            lines.append(line.rstrip("\n"))

    def close(self) -> None:
        if self._process.poll() is None:
            try:
                assert self._process.stdin is not None
                self._process.stdin.write("quit\ny\n")
                self._process.stdin.close()
                self._process.wait(timeout=5)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self._process.kill()

    def __enter__(self) -> Gnubg:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
