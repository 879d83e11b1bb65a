"""`kibitz play`: a game against an engine in the terminal.

In a game with hidden information (poker, blind tic-tac-toe) this program is the referee: it
keeps the full state, deals with `--seed`, shows you only your view and asks the engine
about its own view (DescribeRequest.view_of); the full state is shown when the game ends."""

from __future__ import annotations

import argparse
import contextlib
import random

from kibitz.clients.client import InvalidArgument, NotFound
from kibitz.clients.sync import SyncClient
from kibitz.clients.values import Limits, Result
from kibitz.v1 import engine_pb2 as pb

HELP = (
    "Type a move, `moves` for the legal moves, `hint` for the engine's best move here, `undo` "
    "to take back your last move, `quit`. Dice roll (and cards are dealt) by themselves."
)

CHANCE = -1
"""`PositionInfo.to_move` at a chance event (dice to roll)."""

UNSEEN = "?"
"""The label of a move the viewer did not see (DescribeRequest.view_of)."""


def _ask(prompt: str) -> str | None:
    try:
        return input(prompt).strip()
    except EOFError:
        return None


class Table:
    """The game as this program referees it: the start, the moves played, and what each
    player is shown (everything, unless the game hides information)."""

    def __init__(self, client: SyncClient, game: str, start: str, hidden: bool) -> None:
        self.client, self.game, self.start, self.hidden = client, game, start, hidden
        self.moves: list[str] = []

    def full(self) -> pb.PositionInfo:
        """The position itself (the referee's)."""
        return self.client.describe(self.game, self.start, tuple(self.moves))

    def seen_by(self, player: int) -> pb.PositionInfo:
        """The position as `player` sees it."""
        if not self.hidden:
            return self.full()
        return self.client.describe(self.game, self.start, tuple(self.moves), view_of=player)

    def question(self, player: int) -> tuple[str, list[str]]:
        """The position and moves to send an engine deciding for `player`: their view."""
        if not self.hidden:
            return self.start, self.moves
        return self.seen_by(player).position, []

    def last_seen_by(self, player: int) -> str:
        """The last move as `player` saw it (UNSEEN where it was hidden from them)."""
        return self.seen_by(player).played_labels[-1]


def play(client: SyncClient, args: argparse.Namespace, limits: Limits) -> int:
    """Alternate human and engine moves until the game ends or the human quits; at a chance
    event (dice, a deal) this program rolls for both sides, with `args.seed`."""
    dice = random.Random(args.seed)
    turns: list[int] = []  # len(moves) at each of the human's turns, for `undo`
    position = client.describe(args.game, args.position)  # validates game and position first
    info = game_info(client, args.game)
    alone = info is not None and info.players == 1
    table = Table(client, args.game, args.position, info is not None and info.hidden_information)
    human = 0 if alone or args.you == "first" else 1
    if table.hidden:
        client.describe(args.game, args.position, view_of=human)  # a full state, not a view
        print("Hidden information: you see your view only; the full game shows at its end.")
    if alone:
        print("A puzzle: you play alone; `hint` asks the engine for the next move.")
    # reopen: the human may think past the server's idle timeout
    session = client.open(args.game, args.engine, args.options, reopen=True)
    print(HELP)
    try:
        while True:
            over = position.HasField("game_over")
            if not table.hidden or over or position.to_move == human:
                print()  # a view is drawn at your turns only: it shows nothing new between
                print(table.seen_by(human).board)
            if over:
                if table.hidden:
                    print(f"the full game:\n{position.board}")
                print(f"game over: {position.game_over.reason}")
                return 0
            if position.to_move == CHANCE:
                roll = dice.choices(position.legal_moves, position.probabilities)[0]
                table.moves.append(roll)
                if table.hidden:
                    print(f"dealt: {table.last_seen_by(human)}")
                else:
                    side = "you" if position.perspective == human else "engine"
                    print(f"{side} rolled {roll}")
            elif position.to_move == human:
                if not turns or turns[-1] != len(table.moves):
                    turns.append(len(table.moves))
                command = _ask(f"your move ({args.game}) > ")
                if command is None or command == "quit":
                    return 0
                if command in ("", "help"):
                    print(HELP)
                elif command == "moves":
                    print("legal moves:", " | ".join(table.seen_by(human).legal_moves))
                elif command == "hint":
                    result = session.search(*table.question(human), limits).wait()
                    found = _shown(result) if result.best_move else "none found in the limits"
                    print(f"hint: {found}  ({result.score})")
                elif command == "undo":
                    if len(turns) >= 2:
                        turns.pop()
                        table.moves = table.moves[: turns[-1]]
                else:
                    try:
                        client.describe(args.game, args.position, (*table.moves, command))
                    except InvalidArgument as exc:
                        print(f"rejected: {exc.message}")
                        continue
                    table.moves.append(command)
            else:
                result = session.search(*table.question(position.to_move), limits).wait()
                table.moves.append(result.best_move)
                if not table.hidden:
                    print(f"engine plays {_shown(result)}  ({result.score})")
                elif (seen := table.last_seen_by(human)) != UNSEEN:  # else it says nothing
                    print(f"engine plays {seen}")  # not its score: that tells what it holds
            position = table.full()
    finally:
        with contextlib.suppress(NotFound):
            session.close()


def _shown(result: Result) -> str:
    """The best move as people read it, with the game's notation beside it if it differs."""
    shown = result.best_move_label or result.best_move
    return shown if shown == result.best_move else f"{shown} ({result.best_move})"


def game_info(client: SyncClient, game: str) -> pb.GameInfo | None:
    """`game` as the server lists it (None for a game it does not list)."""
    return next((info for info in client.games() if info.name == game), None)


def players_of(client: SyncClient, game: str) -> int:
    """How many players `game` has, as the server lists it (2 for a game it does not list)."""
    info = game_info(client, game)
    return info.players if info is not None else 2
