"""The UCI protocol: an engine's lines parsed into kibitz values, the `go` command built from
kibitz limits, and the engine process with reads that time out.

See docs/uci.md. Only what kibitz uses of UCI is here: `uci`/`uciok`, `option`
lines, `setoption`, `isready`/`readyok`, `ucinewgame`, `position fen ... moves ...`, `go`,
`info`, `stop`, `bestmove`, `quit`.
"""

from __future__ import annotations

import collections
import contextlib
import queue
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kibitz.engines.base import OptionSpec
from kibitz.engines.timeman import allocate
from kibitz.engines.types import Limits, Score
from kibitz.vocabulary import Bound, ScoreKind

OPTION_TYPES = ("spin", "check", "combo", "string")
"""The UCI option types kibitz keeps; `button` options are left out (they hold no value)."""
_OPTION_WORDS = frozenset(("name", "type", "default", "min", "max", "var"))
_INFO_NUMBERS = frozenset(
    ("depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "tbhits", "time", "cpuload")
)
_INFO_WORDS = {"currmove": 1, "currmovenumber": 1, "wdl": 3}
"""Info fields kibitz skips or reads apart, with the number of words they take."""


# ------------------------------------------------------------------------------ options


def parse_option(line: str) -> OptionSpec | None:
    """An `option name N type T default D min A max B var V ...` line as an OptionSpec
    (its default the engine's own, typed); None for a `button`, an unknown type or a line
    kibitz cannot read."""
    fields: dict[str, list[str]] = {}
    choices: list[str] = []
    key = None
    for word in line.split()[1:]:
        # a word is a keyword unless it belongs to the name and `type` has not come yet
        if word in _OPTION_WORDS and (key != "name" or word == "type"):
            key = word
            if key == "var":
                choices.append("")
            fields.setdefault(key, [])
        elif key == "var":
            choices[-1] = f"{choices[-1]} {word}".strip()
        elif key is not None:
            fields[key].append(word)
    name = " ".join(fields.get("name", []))
    kind = " ".join(fields.get("type", []))
    if not name or kind not in OPTION_TYPES:
        return None
    text = " ".join(fields.get("default", []))
    try:
        return _typed_option(name, kind, text, fields, tuple(choices))
    except ValueError:
        return None


def _typed_option(
    name: str, kind: str, text: str, fields: dict[str, list[str]], choices: tuple[str, ...]
) -> OptionSpec:
    if kind == "spin":
        low = int(fields["min"][0]) if fields.get("min") else None
        high = int(fields["max"][0]) if fields.get("max") else None
        return OptionSpec(name, kind, int(text), "", min=low, max=high)
    if kind == "check":
        return OptionSpec(name, kind, text.lower() == "true", "")
    if kind == "combo":
        return OptionSpec(name, kind, text, "", choices=choices or (text,))
    return OptionSpec(name, kind, "" if text == "<empty>" else text, "")


def setoption_command(name: str, value: Any) -> str:
    """`setoption name N value V` (booleans as true/false, an empty string as <empty>)."""
    if isinstance(value, bool):
        return f"setoption name {name} value {'true' if value else 'false'}"
    return f"setoption name {name} value {str(value) or '<empty>'}"


# ------------------------------------------------------------------------------ info lines


@dataclass
class UciInfo:
    """The fields of one `info` line that kibitz uses (None: not in the line)."""

    depth: int | None = None
    seldepth: int | None = None
    multipv: int = 1
    score: Score | None = None
    nodes: int | None = None
    nps: int | None = None
    time_ms: int | None = None
    hashfull: int | None = None
    pv: list[str] = field(default_factory=list)


def parse_info(line: str) -> UciInfo:
    """An `info ...` line; fields kibitz does not use (`string`, `currmove`, `refutation`,
    ...) are skipped, a malformed number is ignored."""
    words = line.split()[1:]
    info = UciInfo()
    numbers: dict[str, int] = {}
    kind, value, bound, wdl = "", 0, Bound.EXACT, None
    index = 0
    while index < len(words):
        word = words[index]
        if word in ("pv", "string", "refutation", "currline"):
            if word == "pv":
                info.pv = words[index + 1 :]
            break
        if word == "score" and index + 2 < len(words) and _is_int(words[index + 2]):
            kind, value = words[index + 1], int(words[index + 2])
            index += 3
            while index < len(words) and words[index] in ("lowerbound", "upperbound"):
                bound = Bound.LOWER if words[index] == "lowerbound" else Bound.UPPER
                index += 1
            continue
        if word == "wdl" and all(_is_int(w) for w in words[index + 1 : index + 4]):
            wdl = tuple(int(w) for w in words[index + 1 : index + 4])
        if word in _INFO_NUMBERS and index + 1 < len(words) and _is_int(words[index + 1]):
            numbers[word] = int(words[index + 1])
            index += 2
            continue
        index += 1 + _INFO_WORDS.get(word, 0)
    info.depth = numbers.get("depth")
    info.seldepth = numbers.get("seldepth")
    info.multipv = max(1, numbers.get("multipv", 1))
    info.nodes = numbers.get("nodes")
    info.nps = numbers.get("nps")
    info.time_ms = numbers.get("time")
    info.hashfull = numbers.get("hashfull")
    if kind in ("cp", "mate"):
        info.score = uci_score(kind, value, bound, wdl)
    return info


def _is_int(word: str) -> bool:
    return word.lstrip("-").isdigit()


def uci_score(
    kind: str, value: int, bound: Bound = Bound.EXACT, wdl: tuple[int, ...] | None = None
) -> Score:
    """A UCI score (`cp N` or `mate N`, from the side to move) as a kibitz Score: mate N > 0
    is a win in 2N-1 plies, mate -N a loss in 2N plies (mate 0: mated now), cp N is N
    centi-units; `wdl` (permille) gives the win/draw/loss probabilities."""
    chances: dict[str, float] = {}
    if wdl is not None and sum(wdl) > 0:
        total = sum(wdl)
        chances = {"win": wdl[0] / total, "draw": wdl[1] / total, "loss": wdl[2] / total}
    if kind == "mate":
        if value > 0:
            return Score(ScoreKind.WIN, plies=2 * value - 1, bound=bound, **chances)
        return Score(ScoreKind.LOSS, plies=-2 * value, bound=bound, **chances)
    return Score(ScoreKind.HEURISTIC, value=value, bound=bound, **chances)


def parse_bestmove(line: str) -> tuple[str, str]:
    """`bestmove M [ponder P]` -> (M, P or "")."""
    words = line.split()
    best = words[1] if len(words) > 1 else ""
    ponder = words[3] if len(words) > 3 and words[2] == "ponder" else ""
    return best, ponder


# ------------------------------------------------------------------------------ go


def go_command(limits: Limits, side: int, elapsed: float, search_moves: Sequence[str]) -> str:
    """The `go` command for `limits`, `elapsed` seconds after the search's time began (the
    request's arrival): those seconds are gone from the move time and the mover's clock.
    Without a limit the engine understands (infinite, or solve alone) it is `go infinite`,
    ended by `stop` (a Stop, or the cap `Limits.max_time`)."""
    words = ["go"]
    if not limits.infinite:
        if limits.depth is not None:
            words += ["depth", str(limits.depth)]
        if limits.nodes is not None:
            words += ["nodes", str(limits.nodes)]
        if limits.movetime is not None:
            # the shared time manager's deadline: movetime less a reserve for the answer
            hard = allocate(Limits(movetime=limits.movetime), side).hard or 0.0
            words += ["movetime", str(_ms(hard - elapsed))]
        words += _clock_words(limits, side, elapsed)
    if len(words) == 1:
        words.append("infinite")
    if search_moves:
        words += ["searchmoves", *search_moves]
    return " ".join(words)


def _clock_words(limits: Limits, side: int, elapsed: float) -> list[str]:
    clock = limits.clock
    if clock is None:
        return []
    words = []
    for player, (time_word, increment_word) in enumerate((("wtime", "winc"), ("btime", "binc"))):
        if player < len(clock.time_left):
            left = clock.time_left[player] - (elapsed if player == side else 0.0)
            words += [time_word, str(_ms(left))]
        if player < len(clock.increment) and clock.increment[player] > 0:
            words += [increment_word, str(_ms(clock.increment[player]))]
    if clock.moves_to_go > 0:
        words += ["movestogo", str(clock.moves_to_go)]
    return words


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


# ------------------------------------------------------------------------------ the process


class ProcessExited(Exception):
    """The engine process ended (or its pipes closed)."""

    def __init__(self, code: int | None, stderr: str) -> None:
        super().__init__(f"exited (code {code})" + (f": {stderr}" if stderr else ""))
        self.code = code
        self.stderr = stderr


class NoAnswer(Exception):
    """The engine did not send the awaited line in time."""


class UciProcess:
    """An engine process: lines to its input, its output lines read by a thread of our own
    into a queue, so that every read can time out; the last lines of its error output are
    kept for messages.

    No `preexec_fn` (such as a parent-death signal): it makes Python fork instead of vfork,
    and a fork runs gRPC's fork handlers in a process that has gRPC loaded (the server, at
    start-up), which may abort the child. An engine whose worker dies reads the end of its
    input, and UCI engines quit then."""

    def __init__(self, argv: Sequence[str]) -> None:
        """Start `argv`; OSError when it cannot be started (no such file, not executable)."""
        self.process = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            errors="replace",
        )
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=3)
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _read_stdout(self) -> None:
        try:
            for line in self.process.stdout:
                self._lines.put(line.strip())
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _read_stderr(self) -> None:
        try:
            for line in self.process.stderr:
                if line.strip():
                    self._stderr.append(line.strip()[:200])
        except (OSError, ValueError):
            pass

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def send(self, line: str) -> None:
        """Write one line; ProcessExited if the engine is gone."""
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (OSError, ValueError):
            raise self._exited() from None

    def read(self, timeout: float) -> str | None:
        """The next line, or None when none came within `timeout` seconds; ProcessExited
        once the engine has ended and every line it wrote has been read."""
        try:
            line = self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if line is None:
            self._lines.put(None)  # for whoever reads next
            raise self._exited()
        return line

    def expect(self, word: str, timeout: float) -> list[str]:
        """The lines up to one that is `word` or starts with `word ` (returned last), read
        within `timeout` seconds; NoAnswer if it does not come."""
        until = time.monotonic() + timeout
        lines = []
        while True:
            line = self.read(until - time.monotonic())
            if line is None:
                raise NoAnswer(f"did not answer `{word}` within {timeout:g} s")
            lines.append(line)
            if line == word or line.startswith(word + " "):
                return lines

    def _exited(self) -> ProcessExited:
        try:
            code = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:  # its output closed but it lives on: end it
            self.kill()
            code = self.process.wait()
        for reader in self._readers:
            reader.join(timeout=0.5)
        return ProcessExited(code, self._stderr[-1] if self._stderr else "")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()

    def close(self, grace: float = 0.5) -> None:
        """Ask the engine to quit; kill it if it has not within `grace` seconds."""
        if self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(timeout=grace)
            except (ProcessExited, subprocess.TimeoutExpired):
                pass
        self.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            with contextlib.suppress(OSError):
                stream.close()
