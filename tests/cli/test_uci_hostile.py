"""`kibitz uci` fed every command with random and hostile arguments (huge and negative
numbers, `1e99`, unicode, 20 KB words, bytes that are not UTF-8, garbage lines), for real:
the bridge in a subprocess against a `kibitz serve` subprocess. It never dies or prints a
traceback, every `go` gets exactly one `bestmove`, `isready` still gets `readyok` and a
valid search afterwards still answers a legal move. Seeded, so a failure replays."""

from __future__ import annotations

import os
import queue
import random
import subprocess
import threading
from collections.abc import Iterator

import chess
import pytest
from servers import KIBITZ, ServerProcess

SEEDS = (1, 2, 3)
STEPS = 50
HOSTILE = [
    "", "0", "-1", "-5", "1e99", "nan", "inf", "1.5", "9" * 5000, "-" + "9" * 50,
    "ñ€😀", "٣", "x" * 20_000, "\x00", "\x1b[2J", "true", "<empty>", "name", "value",
    "moves", "fen", "startpos", "infinite", "ponder", "searchmoves", "0000", "e2e4", "a1a1",
]  # fmt: skip
GO_WORDS = ["wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate",
            "movetime", "infinite", "ponder", "searchmoves"]  # fmt: skip
OPTION_NAMES = ["MultiPV", "Move Overhead", "Ponder", "Hash", "multipv", "", "ñ€😀", "x" * 20_000]


def hostile(rng: random.Random) -> str:
    return rng.choice(HOSTILE)


def hostile_words(rng: random.Random, most: int = 4) -> str:
    return " ".join(hostile(rng) for _ in range(rng.randint(0, most)))


def commands(rng: random.Random) -> Iterator[tuple[bytes, str | None]]:
    """Random command lines (as bytes, some not UTF-8), each a kind the bridge knows or
    garbage, with the answer to wait for (None: none); every `go` is followed by `stop`,
    so that each one ends, whose answer is the go's `bestmove`."""
    for _ in range(STEPS):
        kind = rng.choice(
            ["uci", "isready", "setoption", "ucinewgame", "position", "go", "stop",
             "ponderhit", "debug", "garbage"]
        )  # fmt: skip
        if kind == "setoption":
            line = f"setoption name {rng.choice(OPTION_NAMES)} value {hostile_words(rng, 2)}"
            if rng.random() < 0.2:
                line = f"setoption {hostile_words(rng)}"
        elif kind == "position":
            line = rng.choice(
                [
                    "position startpos moves e2e4 0000",
                    f"position startpos moves {hostile_words(rng)}",
                    f"position fen {hostile_words(rng, 8)}",
                    f"position fen {hostile_words(rng)} moves {hostile_words(rng)}",
                    f"position {hostile_words(rng)}",
                    "position startpos moves e2e4 e7e5",
                ]
            )
        elif kind == "go":
            words = [rng.choice([*GO_WORDS, hostile(rng)]) for _ in range(rng.randint(0, 5))]
            line = " ".join(["go", *(f"{w} {hostile(rng)}" for w in words)])
        elif kind == "garbage":
            line = rng.choice(
                [hostile_words(rng, 6), "x" * 20_000, "   ", "\t", "go" + hostile(rng)]
            )
            if rng.random() < 0.3:
                yield b"\xff\xfe go \xc3\x28 depth 1\n", None  # not UTF-8
                continue
        else:
            line = f"{kind} {hostile_words(rng, 2)}" if rng.random() < 0.5 else kind
        answer = {"go": "bestmove", "isready": "readyok", "uci": "uciok"}.get(kind)
        if kind == "go":
            yield line.encode("utf-8") + b"\n", None
            yield b"stop\n", answer
        else:
            yield line.encode("utf-8") + b"\n", answer


class Bridge:
    """`kibitz uci` in a subprocess; its stdout lines arrive on a queue (read in a thread,
    so a wait for a line is bounded by the test's own timeout, never a sleep)."""

    def __init__(self, address: str) -> None:
        self.process = subprocess.Popen(
            [*KIBITZ, "--server", address, "uci", "--game", "chess", "--engine", "alphabeta"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            # strict, as under a locale such as en_US.UTF-8: bytes that are not UTF-8 once
            # stopped the bridge's reader for good
            env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"},
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def send(self, raw: bytes) -> None:
        self.process.stdin.write(raw)
        self.process.stdin.flush()

    def read_until(self, prefix: str) -> list[str]:
        """The lines up to and including the next one that starts with `prefix`."""
        lines = []
        while True:
            line = self.lines.get(timeout=60)
            assert line is not None, f"the bridge ended: {self.seen[-5:]} {self.stderr()}"
            self.seen.append(line)
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def quit(self) -> int:
        self.send(b"quit\n")
        self.process.stdin.close()
        code = self.process.wait(timeout=60)
        while (line := self.lines.get(timeout=60)) is not None:
            self.seen.append(line)
        return code

    def stderr(self) -> str:
        return self.process.stderr.read().decode("utf-8", "replace") if self.process.poll() else ""


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    with ServerProcess("--max-searches", "2", "--default-movetime", "0.2") as server:
        yield server.address


@pytest.mark.parametrize("seed", SEEDS)
def test_hostile_commands_never_kill_the_bridge(address, seed):
    rng = random.Random(seed)
    bridge = Bridge(address)
    try:
        bridge.send(b"uci\n")
        bridge.read_until("uciok")
        gos = 0
        for raw, answer in commands(rng):
            bridge.send(raw)
            gos += answer == "bestmove"
            if answer is not None:
                bridge.read_until(answer)
        bridge.send(b"isready\n")
        bridge.read_until("readyok")
        bridge.send(b"setoption name MultiPV value 1\nucinewgame\n")
        bridge.send(b"position startpos moves e2e4\ngo depth 1\n")
        (best,) = [line for line in bridge.read_until("bestmove") if line.startswith("bestmove")]
        board = chess.Board()
        board.push_uci("e2e4")
        assert chess.Move.from_uci(best.split()[1]) in board.legal_moves
        assert bridge.quit() == 0
    finally:
        if bridge.process.poll() is None:
            bridge.process.kill()
            bridge.process.wait(timeout=60)
    stderr = bridge.process.stderr.read().decode("utf-8", "replace")
    assert "Traceback" not in stderr, stderr
    assert sum(line.startswith("bestmove") for line in bridge.seen) == gos + 1
    assert gos > 0


def test_a_go_with_only_unreadable_parameters_answers_without_a_stop(address):
    bridge = Bridge(address)
    try:
        bridge.send(b"uci\nposition startpos\ngo movetime 1e99 depth -5 wtime abc\n")
        lines = bridge.read_until("bestmove")  # no stop: the server's default move time
        assert bridge.quit() == 0
    finally:
        if bridge.process.poll() is None:
            bridge.process.kill()
            bridge.process.wait(timeout=60)
    ignored = [line for line in lines if line.endswith("; ignored")]
    assert len(ignored) == 3 and "'1e99'" in ignored[0] and "'-5'" in ignored[1]
    assert lines[-1].split()[1] != "(none)"
