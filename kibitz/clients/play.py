"""`kibitz play`: a game against an engine in the terminal."""

from __future__ import annotations

import argparse
import contextlib

from kibitz.clients.client import InvalidArgument, NotFound
from kibitz.clients.sync import SyncClient
from kibitz.clients.values import Limits

HELP = "Type a move, `moves` for the legal moves, `undo` to take back your last move, `quit`."


def _ask(prompt: str) -> str | None:
    try:
        return input(prompt).strip()
    except EOFError:
        return None


def play(client: SyncClient, args: argparse.Namespace, limits: Limits) -> int:
    """Alternate human and engine moves until the game ends or the human quits."""
    human = 0 if args.you == "first" else 1
    moves: list[str] = []
    position = client.describe(args.game, args.position)  # validates game and position first
    session = client.open(args.game, args.engine, args.options)
    print(HELP)
    try:
        while True:
            print()
            print(position.board)
            if position.HasField("game_over"):
                print(f"game over: {position.game_over.reason}")
                return 0
            if position.to_move == human:
                command = _ask(f"your move ({args.game}) > ")
                if command is None or command == "quit":
                    return 0
                if command in ("", "help"):
                    print(HELP)
                    continue
                if command == "moves":
                    print("legal moves:", " ".join(position.legal_moves))
                    continue
                if command == "undo":
                    moves = moves[:-2] if len(moves) >= 2 else moves
                    position = client.describe(args.game, args.position, tuple(moves))
                    continue
                try:
                    position = client.describe(args.game, args.position, (*moves, command))
                except InvalidArgument as exc:
                    print(f"rejected: {exc.message}")
                    continue
                moves.append(command)
            else:
                try:
                    result = session.search(args.position, moves, limits).wait()
                except NotFound:  # the session expired while the human was thinking
                    session = client.open(args.game, args.engine, args.options)
                    result = session.search(args.position, moves, limits).wait()
                print(f"engine plays {result.best_move}  ({result.score})")
                moves.append(result.best_move)
                position = client.describe(args.game, args.position, tuple(moves))
    finally:
        with contextlib.suppress(NotFound):
            session.close()
