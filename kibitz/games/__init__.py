"""Game rules, one module per game, and the registry the server looks names up in."""

from kibitz.games.backgammon import Backgammon
from kibitz.games.base import (
    CHANCE,
    Game,
    GameRecord,
    GameTree,
    IllegalMoveError,
    Move,
    NotationError,
    RecordNode,
    quoted,
)
from kibitz.games.bridge import Bridge
from kibitz.games.capabilities import (
    CAPABILITIES,
    Capability,
    Chances,
    HiddenInformation,
    Presentation,
    capabilities_of,
)
from kibitz.games.chess import Chess
from kibitz.games.chinese_checkers import ChineseCheckers
from kibitz.games.connect4 import ConnectFour
from kibitz.games.csp.cryptarithm import Cryptarithm
from kibitz.games.csp.map_colouring import MapColouring
from kibitz.games.csp.n_queens import NQueens
from kibitz.games.csp.sudoku import Sudoku
from kibitz.games.csp.timetable import Timetable
from kibitz.games.csp.zebra import Zebra
from kibitz.games.hex import Hex
from kibitz.games.nim import MisereNim, Nim
from kibitz.games.nim3 import Nim3
from kibitz.games.pancake import Pancake
from kibitz.games.phantom_tictactoe import PhantomTicTacToe
from kibitz.games.pig import Pig
from kibitz.games.poker import KuhnPoker, LeducPoker
from kibitz.games.presentation import Diagram
from kibitz.games.sliding import SlidingPuzzle
from kibitz.games.tictactoe import TicTacToe
from kibitz.registry import Registry

GAMES: Registry[type[Game]] = Registry(
    "game", Game, "kibitz.games", ("title", "default_position", "notation_help")
)
"""Every game by name: the built-ins, then plugins once `load_plugins()` has run."""
for _game in (
    TicTacToe,
    Nim,
    MisereNim,
    Nim3,
    ConnectFour,
    Hex,
    Pig,
    Backgammon,
    Chess,
    SlidingPuzzle,
    Pancake,
    ChineseCheckers,
    Sudoku,
    NQueens,
    MapColouring,
    Zebra,
    Cryptarithm,
    Timetable,
    PhantomTicTacToe,
    KuhnPoker,
    LeducPoker,
    Bridge,
):
    GAMES.register(_game)

__all__ = [
    "CAPABILITIES",
    "CHANCE",
    "GAMES",
    "Capability",
    "Chances",
    "Diagram",
    "Game",
    "GameRecord",
    "GameTree",
    "HiddenInformation",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Presentation",
    "RecordNode",
    "capabilities_of",
    "quoted",
]
