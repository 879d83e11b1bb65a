"""Game rules, one module per game, and the registry the server looks names up in."""

from kibitz.games.base import CHANCE, Game, IllegalMoveError, Move, NotationError
from kibitz.games.connect4 import ConnectFour
from kibitz.games.nim import MisereNim, Nim
from kibitz.games.tictactoe import TicTacToe

GAMES: dict[str, type[Game]] = {g.name: g for g in (TicTacToe, Nim, MisereNim, ConnectFour)}

__all__ = ["CHANCE", "GAMES", "Game", "IllegalMoveError", "Move", "NotationError"]
