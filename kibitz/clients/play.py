"""`kibitz play`: a game against an engine in the terminal."""

from __future__ import annotations

import argparse
import contextlib
import random

from kibitz.clients.client import InvalidArgument, NotFound
from kibitz.clients.sync import SyncClient
from kibitz.clients.values import Limits, Result

HELP = (
    "Type a move, `moves` for the legal moves, `hint` for the engine's best move here, `undo` "
    "to take back your last move, `quit`. Dice roll by themselves."
)


def _ask(prompt: str) -> str | None:
    try:
        return input(prompt).strip()
    except EOFError:
        return None


CHANCE = -1
"""`PositionInfo.to_move` at a chance event (dice to roll)."""


def play(client: SyncClient, args: argparse.Namespace, limits: Limits) -> int:
    """Alternate human and engine moves until the game ends or the human quits; at a chance
    event (dice) this program rolls for both sides, with `args.seed`."""
    dice = random.Random(args.seed)
    moves: list[str] = []
    turns: list[int] = []  # len(moves) at each of the human's turns, for `undo`
    position = client.describe(args.game, args.position)  # validates game and position first
    alone = players_of(client, args.game) == 1
    human = 0 if alone or args.you == "first" else 1
    if alone:
        print("A puzzle: you play alone; `hint` asks the engine for the next move.")
    # reopen: the human may think past the server's idle timeout
    session = client.open(args.game, args.engine, args.options, reopen=True)
    print(HELP)
    try:
        while True:
            print()
            print(position.board)
            if position.HasField("game_over"):
                print(f"game over: {position.game_over.reason}")
                return 0
            if position.to_move == CHANCE:
                roll = dice.choices(position.legal_moves, position.probabilities)[0]
                side = "you" if position.perspective == human else "engine"
                print(f"{side} rolled {roll}")
                moves.append(roll)
            elif position.to_move == human:
                if not turns or turns[-1] != len(moves):
                    turns.append(len(moves))
                command = _ask(f"your move ({args.game}) > ")
                if command is None or command == "quit":
                    return 0
                if command in ("", "help"):
                    print(HELP)
                    continue
                if command == "moves":
                    print("legal moves:", " | ".join(position.legal_moves))
                    continue
                if command == "hint":
                    result = session.search(args.position, moves, limits).wait()
                    found = _shown(result) if result.best_move else "none found in the limits"
                    print(f"hint: {found}  ({result.score})")
                    continue
                if command == "undo":
                    if len(turns) >= 2:
                        turns.pop()
                        moves = moves[: turns[-1]]
                else:
                    try:
                        client.describe(args.game, args.position, (*moves, command))
                    except InvalidArgument as exc:
                        print(f"rejected: {exc.message}")
                        continue
                    moves.append(command)
            else:
                result = session.search(args.position, moves, limits).wait()
                print(f"engine plays {_shown(result)}  ({result.score})")
                moves.append(result.best_move)
            position = client.describe(args.game, args.position, tuple(moves))
    finally:
        with contextlib.suppress(NotFound):
            session.close()


def _shown(result: Result) -> str:
    """The best move as people read it, with the game's notation beside it if it differs."""
    shown = result.best_move_label or result.best_move
    return shown if shown == result.best_move else f"{shown} ({result.best_move})"


def players_of(client: SyncClient, game: str) -> int:
    """How many players `game` has, as the server lists it (2 for a game it does not list)."""
    return next((info.players for info in client.games() if info.name == game), 2)
