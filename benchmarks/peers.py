"""Connect Four benchmark peers: easyAI Negamax and OpenSpiel alpha-beta, as exact solvers.

Each ``solve_<peer>(moves, time_cap)`` takes a position as a string of column digits 1-7
played from the empty board and returns its exact score in the published convention
(``tests/data/connect4/README.md``): 0 draw, ``22 - winner's stones
at the win`` for a win of the side to move, the negation for a loss. ``None`` means the time
cap was hit.

Every solve runs in a child process forked from a ``forkserver`` that has preloaded the peers,
so a slow search is killed cleanly and the import cost is paid once. ``seconds`` is measured
in the child around the search only (position setup and process start are excluded), and an
answer whose search took longer than ``time_cap`` is discarded as a timeout.

``nodes`` counts the calls of the peer's own recursive search function (root included, every
iteration included), by wrapping that module-level function for the duration of the solve.

Children are started the ``forkserver`` way, which re-imports the caller's ``__main__`` in each
child: a script calling these functions must keep its work under ``if __name__ == "__main__"``.
"""

from __future__ import annotations

import importlib
import multiprocessing
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from types import ModuleType
from typing import Any

import pyspiel
from easyAI import Negamax, TranspositionTable
from easyAI.games import ConnectFour
from open_spiel.python.algorithms import minimax

from kibitz.games.connect4 import solver_score

CELLS = 42
_GRACE = 0.25  # seconds allowed past the cap for the child's start and its answer to arrive
_EASYAI_WIN = 100  # |ConnectFour.scoring()| of a lost position in easyAI
_EASYAI_DEPTH_BONUS = 0.001  # easyAI's negamax scales a leaf's score by 1 + 0.001 * depth_left

_negamax_module = importlib.import_module("easyAI.AI.Negamax")  # shadowed by the class in easyAI.AI


@dataclass(frozen=True)
class PeerAnswer:
    """A peer's exact score for a position, its search time and its node count."""

    score: int
    seconds: float
    nodes: int | None


def score_from_win_ply(stones: int, win_ply: int | None) -> int:
    """Published score, side to move, of a position with `stones` on the board.

    `win_ply` is how many plies from now the game is won under perfect play (odd: the side to
    move wins, even: it loses), or None for a draw. The convention itself is kibitz's
    `solver_score`, so the benchmark and the engine share one copy of it.
    """
    if win_ply is None:
        return solver_score(0, 0, stones)
    return solver_score(1 if win_ply % 2 else -1, win_ply, stones)


@contextmanager
def _count_calls(module: ModuleType, name: str) -> Iterator[list[int]]:
    """Count calls of `module.name`, recursive ones included, while the context is open."""
    original = getattr(module, name)
    counter = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        counter[0] += 1
        return original(*args, **kwargs)

    setattr(module, name, counted)
    try:
        yield counter
    finally:
        setattr(module, name, original)


class _EasyAIConnectFour(ConnectFour):
    """easyAI's ConnectFour plus the ``ttentry`` key its TranspositionTable requires."""

    def ttentry(self) -> bytes:
        """The board (cells hold 0, 1 or 2) identifies the position and the side to move."""
        return self.board.tobytes()


def _search_easyai(moves: str) -> PeerAnswer:
    """Solve with easyAI's Negamax to the full remaining depth, with a transposition table.

    easyAI's game scoring is kept: -100 for the side to move when the opponent has four. Its
    negamax multiplies a leaf's score by ``1 + 0.001 * depth_left``; with the search depth equal
    to the number of empty cells, ``depth_left`` at a leaf is the number of empty cells there,
    so the root value ``±100 * (1 + 0.001 * empty_at_win)`` gives the exact win ply.
    """
    ai = Negamax(CELLS - len(moves), tt=TranspositionTable())
    # Players are only used by TwoPlayerGame.play(); negamax deep-copies the game at every
    # node, so an AI_Player holding `ai` (and its transposition table) would be copied too.
    game = _EasyAIConnectFour([None, None])
    for column in moves:
        game.make_move(int(column) - 1)
        game.switch_player()
    with _count_calls(_negamax_module, "negamax") as nodes:
        start = time.perf_counter()
        ai(game)
        seconds = time.perf_counter() - start
    win_ply = None
    if ai.alpha != 0:
        empty_at_win = round((abs(ai.alpha) / _EASYAI_WIN - 1) / _EASYAI_DEPTH_BONUS)
        win_ply = CELLS - empty_at_win - len(moves)
    return PeerAnswer(score_from_win_ply(len(moves), win_ply), seconds, nodes[0])


def _search_openspiel(moves: str) -> PeerAnswer:
    """Solve with OpenSpiel's alpha_beta_search, deepening the depth limit one ply at a time.

    Terminal states are valued by ``player_return`` (±1, 0) and the value function is only
    consulted at the depth limit, so one full-depth search gives win/draw/loss but no distance.
    With the depth limit valued 0, a search to depth d returns ±1 exactly when the game is
    forced to end with a win within d plies; the first such d is the exact win ply, and a
    search to the full remaining depth that still returns 0 proves a draw.
    """
    game = pyspiel.load_game("connect_four")
    state = game.new_initial_state()
    for column in moves:
        state.apply_action(int(column) - 1)
    root_player = state.current_player()  # the maximizer: values are for the side to move
    win_ply = None
    with _count_calls(minimax, "_alpha_beta") as nodes:
        start = time.perf_counter()
        for depth in range(1, CELLS - len(moves) + 1):
            value, _ = minimax.alpha_beta_search(
                game,
                state=state,
                value_function=lambda _state: 0.0,
                maximum_depth=depth,
                maximizing_player_id=root_player,
            )
            if value != 0:
                win_ply = depth
                break
        seconds = time.perf_counter() - start
    return PeerAnswer(score_from_win_ply(len(moves), win_ply), seconds, nodes[0])


def _child(search: Callable[[str], PeerAnswer], moves: str, conn: Connection) -> None:
    """Run one search in the child and send back its answer, or the traceback of its error."""
    try:
        conn.send(search(moves))
    except Exception:
        conn.send(traceback.format_exc())
    finally:
        conn.close()


def _forkserver_context() -> multiprocessing.context.ForkServerContext:
    """The forkserver context, preloading this module (and with it both peers) once."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload([__name__])
    return ctx


def _run_capped(
    search: Callable[[str], PeerAnswer], moves: str, time_cap: float
) -> PeerAnswer | None:
    """Run `search(moves)` in a child process; None if its search exceeds `time_cap` seconds."""
    ctx = _forkserver_context()
    receiver, sender = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_child, args=(search, moves, sender), daemon=True)
    process.start()
    sender.close()
    try:
        reply = receiver.recv() if receiver.poll(time_cap + _GRACE) else None
    except EOFError:
        process.join()
        reply = f"the child process died (exit code {process.exitcode})"
    finally:
        process.kill()
        process.join()
        receiver.close()
    if isinstance(reply, str):
        raise RuntimeError(f"peer search failed for {moves!r}:\n{reply}")
    if reply is None or reply.seconds > time_cap:
        return None
    return reply


def solve_easyai(moves: str, time_cap: float) -> PeerAnswer | None:
    """Exact score of `moves` by easyAI 2.x Negamax (full depth, transposition table)."""
    return _run_capped(_search_easyai, moves, time_cap)


def solve_openspiel(moves: str, time_cap: float) -> PeerAnswer | None:
    """Exact score of `moves` by OpenSpiel's minimax.alpha_beta_search (depth-limit deepening)."""
    return _run_capped(_search_openspiel, moves, time_cap)
