"""Optional capabilities a game can declare on top of the core `Game` interface.

A game declares a capability by inheriting it (``class ConnectFour(Game, HashKey,
Evaluation, ...)``); its abstract methods then must be implemented. An engine lists the
capabilities it needs in its `Requirements` and uses the others where a game has them
(`isinstance(state, NoisyMoves)`). The architecture page (docs/architecture.md, "The Game
interface") explains which engine uses what.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import astuple, dataclass
from types import ModuleType
from typing import ClassVar

from kibitz.games.base import Game, Move
from kibitz.games.csp.model import Model
from kibitz.games.presentation import Diagram


class Capability(ABC):
    """Base of every capability; `capability_name` names it in messages and listings."""

    capability_name: ClassVar[str]


class HashKey(Capability):
    """Position keys for transposition tables."""

    capability_name: ClassVar[str] = "hash keys (key())"

    @abstractmethod
    def key(self) -> int:
        """Hash of the position (Zobrist or exact), including the side to move."""


class Evaluation(Capability):
    """A heuristic value of non-terminal positions, for searches with a horizon."""

    capability_name: ClassVar[str] = "heuristic evaluation (evaluate())"

    @abstractmethod
    def evaluate(self, player: int | None = None) -> int:
        """Heuristic value in centi-units from `player`'s point of view (None: the side to
        move); positive is good for that player. Never called at a terminal position."""


class NoisyMoves(Capability):
    """Moves a quiescence search should still follow at the horizon."""

    capability_name: ClassVar[str] = "noisy moves (noisy_moves())"

    @abstractmethod
    def noisy_moves(self) -> list[Move]:
        """The legal moves that change the evaluation sharply (captures, promotions...)."""


class StaticExchange(Capability):
    """The material a capture wins or loses once the exchange on its square is over, for
    pruning and ordering captures without searching them."""

    capability_name: ClassVar[str] = "static exchange (exchange())"

    @abstractmethod
    def exchange(self, move: Move) -> int:
        """The static exchange evaluation of a noisy legal `move` in centi-units: what the
        mover wins on the target square if both sides then recapture there with their least
        valuable piece while it pays. Negative: the move loses material; alpha-beta then
        searches it after the quiet moves and skips it in quiescence."""


class MoveOrdering(Capability):
    """A hint on which moves to try first."""

    capability_name: ClassVar[str] = "move ordering (ordered_moves())"
    strong_move_order: ClassVar[bool] = False
    """True when `ordered_moves()` beats generic history/killer ordering, which engines
    should then leave alone (only a transposition-table move goes first)."""
    noisy_first: ClassVar[bool] = False
    """True when `ordered_moves()` lists exactly the `noisy_moves()` first (chess: captures
    by MVV-LVA): killers and history then order only the quiet moves after them."""

    @abstractmethod
    def ordered_moves(self) -> list[Move]:
        """The legal moves, most promising first."""


class SolverHooks(Capability):
    """Rules knowledge that proves results without searching (two-player games)."""

    capability_name: ClassVar[str] = "solver hooks (winning_moves(), non_losing_moves())"

    @abstractmethod
    def winning_moves(self) -> list[Move]:
        """Moves that win on the spot."""

    @abstractmethod
    def non_losing_moves(self) -> list[Move]:
        """When no move wins on the spot: the moves after which the opponent cannot win on
        the spot, in search order; empty when every move loses at once."""


class Checks(Capability):
    """Check: an attack on a royal piece that the side to move must answer at once."""

    capability_name: ClassVar[str] = "checks (in_check())"

    @abstractmethod
    def in_check(self) -> bool:
        """Whether the side to move is in check. Alpha-beta then extends the search, answers
        every move in quiescence (no stand-pat) and neither prunes nor reduces there."""


class NullMove(Capability):
    """Passing the move, for null-move pruning."""

    capability_name: ClassVar[str] = "null moves (play_null())"

    @abstractmethod
    def play_null(self) -> None:
        """Give the move to the opponent without moving; `undo()` takes it back (a search
        that stops unwinds every move it made with `undo()`, passes included)."""

    @abstractmethod
    def null_move_allowed(self) -> bool:
        """Whether passing is a safe guess of a lower bound here: false where zugzwang is
        likely (chess: the side to move has only king and pawns)."""


class HistoryDraws(Capability):
    """Draws that depend on how a position was reached, not only on the position itself
    (chess: repetition, the fifty-move rule). A search scores them as draws but never as
    proven results, which a transposition table would carry to other paths."""

    capability_name: ClassVar[str] = "history draws (ply(), history_draw(), start_and_moves())"

    @abstractmethod
    def ply(self) -> int:
        """Moves played since the start of the game's known history."""

    @abstractmethod
    def history_draw(self, root_ply: int) -> bool:
        """Whether a search whose root was at `root_ply` should score this position as a
        draw by its history: a repetition of a position seen after the root (whoever repeats
        once can repeat again) or twice before it, or a drawing rule on the game's
        clock."""

    @abstractmethod
    def start_and_moves(self) -> tuple[str, list[str]]:
        """The earliest position of the known history and the moves played since, in the
        game's notation: what a program that judges these draws itself needs to be told
        (an external UCI engine: `position fen START moves ...`)."""


class Symmetry(Capability):
    """A board symmetry that transposition tables can share entries across."""

    capability_name: ClassVar[str] = "symmetry (symmetric_key(), mirror_move())"

    @abstractmethod
    def symmetric_key(self) -> tuple[int, bool]:
        """A key shared by this position and its mirror image, and whether this position is
        the mirrored one (whose moves map to the shared orientation by `mirror_move`)."""

    @abstractmethod
    def mirror_move(self, move: Move) -> Move:
        """The mirror image of a move (an involution)."""


class Playout(Capability):
    """A fast random playout, for Monte Carlo engines."""

    capability_name: ClassVar[str] = "fast playouts (playout())"
    all_moves_as_first: ClassVar[bool] = False
    """Whether a move tends to be as good played later as now (Hex, Go; not Connect Four,
    where a column's value depends on the stones below): Monte Carlo search then learns
    from every move of a playout (RAVE, `mcts`'s default there)."""

    @abstractmethod
    def playout(
        self, rng: random.Random, record: list[tuple[int, Move]] | None = None
    ) -> tuple[float, ...]:
        """Play random moves (chance outcomes by their probabilities) to the end of the
        game and return `returns()` there; the position is left unchanged. `record`, when
        given, gets each (player, move) of the playout in order (RAVE learns from them); a
        game that decides a playout without playing it move by move (Hex fills the board
        at once) records each player's stones as if played alternately."""


class MovePriors(Capability):
    """Prior probabilities of the moves, for PUCT selection."""

    capability_name: ClassVar[str] = "move priors (move_priors())"
    priors_by_default: ClassVar[bool] = True
    """Whether `mcts` selects by these priors under its default policy (auto): False where
    its search without them is the stronger at equal time (Hex: the compiled UCT walk, which
    has no PUCT); the policy puct still uses them."""

    @abstractmethod
    def move_priors(self) -> list[tuple[Move, float]]:
        """Every legal move with its prior probability (summing to 1)."""


class ExpectedReturn(Capability):
    """Estimates of a player's expected final return, for searches of games with chance
    (expectiminimax): floats in the units of `returns()`, not centi-units."""

    capability_name: ClassVar[str] = "expected-return estimates (expected_return())"
    return_bounds: ClassVar[tuple[float, float]] = (-1.0, 1.0)
    """The least and the greatest return a player can get (backgammon: -3 and 3); every
    return and every estimate lies within (Star1/Star2 pruning relies on it)."""

    @abstractmethod
    def expected_return(self, player: int) -> float:
        """Estimated expected `returns()[player]` from this position on, within
        `return_bounds`; asked at any non-terminal position, chance nodes included."""


@dataclass(frozen=True, slots=True)
class Chances:
    """How a game with gammons may end, from one player's point of view, cumulative as GNU
    Backgammon writes them (``0.523 0.143 0.006 - 0.477 0.121 0.004``): `win_gammon`
    includes `win_backgammon`, `win` includes both; the loss side likewise, and the loss
    itself is ``1 - win``. Consistent: ``win_backgammon <= win_gammon <= win`` and
    ``loss_backgammon <= loss_gammon <= loss``."""

    win: float
    win_gammon: float = 0.0
    win_backgammon: float = 0.0
    loss_gammon: float = 0.0
    loss_backgammon: float = 0.0

    @property
    def loss(self) -> float:
        return 1.0 - self.win

    def flipped(self) -> Chances:
        """The same chances from the other player's point of view."""
        return Chances(
            self.loss, self.loss_gammon, self.loss_backgammon, self.win_gammon, self.win_backgammon
        )

    @staticmethod
    def average(weighted: list[tuple[float, Chances]]) -> Chances:
        """The weighted average of chances (weights need not sum to 1; at least one > 0)."""
        total = sum(weight for weight, _ in weighted)
        columns = zip(*(astuple(chances) for _, chances in weighted), strict=True)
        weights = [weight for weight, _ in weighted]
        return Chances(
            *(
                sum(w * v for w, v in zip(weights, column, strict=True)) / total
                for column in columns
            )
        )


class OutcomeChances(Capability):
    """Estimates of how the game ends (win, gammon, backgammon for each side), for games
    whose returns count several kinds of win (backgammon); expectimax reports them with the
    scores of its root moves."""

    capability_name: ClassVar[str] = "outcome chances (outcome_chances())"

    @abstractmethod
    def outcome_chances(self, player: int) -> Chances:
        """The chances from `player`'s point of view, by the same estimate as
        `ExpectedReturn.expected_return` (before the roll; exact at the end of a game)."""


class EstimateSources(Capability):
    """Estimates to choose from for `ExpectedReturn.expected_return` (and `OutcomeChances`),
    by name (backgammon: "formula", its fitted curves, and "network", its TD network). An
    engine offers them as an option (expectimax: Evaluation) and searches a copy of the
    position that uses the one chosen."""

    capability_name: ClassVar[str] = "estimate sources (with_estimate())"
    estimate_names: ClassVar[tuple[str, ...]] = ()
    """The names `with_estimate` takes, the one a position starts with first (expectimax's
    option Evaluation calls that one formula, as every game's own estimate)."""
    strongest_estimate: ClassVar[str] = "formula"
    """The one of `estimate_names` that plays best where measured (backgammon: its network):
    what an engine's `auto` choice (expectimax's default Evaluation) searches with."""

    @abstractmethod
    def with_estimate(self, name: str) -> Game:
        """This position estimated by `name` (one of `estimate_names`): a copy where that
        changes its estimate, else itself."""

    @abstractmethod
    def batched(self) -> bool:
        """Whether the estimate at hand values many positions faster together than one at
        a time (a network: one matrix product); a search then values the moves of a
        decision node above its leaves with `values_after`."""

    @abstractmethod
    def values_after(self, moves: list[Move]) -> tuple[list[float], list[bool]]:
        """Player 0's value after each of `moves` (moves of this decision node), all
        valued together: `returns()[0]` where the move ends the game, else
        `expected_return(0)` there (equal but maybe for the last bits of a batched sum);
        and for each, whether it is an estimate (the game not over)."""


class EndgameTable(Capability):
    """An exact table that the estimate answers from first wherever it holds the position
    (backgammon: the one-sided bear-off database, once both sides are home). It is built
    once, outside the package, so it may be missing. An engine lets an option use it
    (expectimax: Bearoff) and searches a copy of the position that does or does not."""

    capability_name: ClassVar[str] = "endgame table (with_endgame_table())"

    @abstractmethod
    def with_endgame_table(self, use: bool) -> Game:
        """This position with the table in its estimate where `use`, without it where not:
        a copy where that changes it, else itself. FileNotFoundError, its message saying
        how to build the table, where `use` and the table is not built."""


class ExpectimaxKernel(Capability):
    """A compiled kernel of the `expectimax` engine's node search for this game: its moves,
    its estimate and the two levels of the tree above the leaves in C, the same nodes and
    values as the Python search (the interface: kibitz/engines/expectimax/kernel.py)."""

    capability_name: ClassVar[str] = "compiled expectimax kernel (expectimax_kernel())"
    kernel_estimates: ClassVar[tuple[str, ...]] = ("formula",)
    """The estimates (`EstimateSources.estimate_names`) the kernel computes: the one a
    position starts with ("formula") unless the game says more (backgammon: its network
    too); a search with another is the Python one."""

    @classmethod
    @abstractmethod
    def expectimax_kernel(cls) -> ModuleType | None:
        """The kernel (a module), or None where it was not built (no C compiler at install
        time). It computes the estimate the position holds (one of `kernel_estimates`),
        with the endgame table where the position uses one."""


class Puzzle(Capability):
    """A one-player game whose goal (a terminal position, `returns()` (1.0,)) is reached by a
    cheapest sequence of moves: what single-agent search (A*, IDA*, breadth-first, uniform
    cost) needs. A solution's cost is the sum of its moves' `move_cost`; its length is its
    number of moves."""

    capability_name: ClassVar[str] = "puzzle (move_cost(), heuristic(), inverse())"
    heuristic_names: ClassVar[tuple[str, ...]] = ()
    """The names `heuristic(name)` takes, strongest first (the first is the default), e.g.
    ``("linear-conflicts", "manhattan", "misplaced")``; engines offer them as a combo."""
    unit_costs: ClassVar[bool] = True
    """Whether every move costs 1 (then a solution's cost is its length)."""

    @abstractmethod
    def move_cost(self, move: Move) -> int:
        """The cost (a positive whole number) of playing legal `move` here."""

    @abstractmethod
    def heuristic(self, name: str = "") -> int:
        """A lower bound on the cost from here to the goal, by the heuristic `name` (""
        means the first of `heuristic_names`): admissible (never above the true cost) and
        consistent (h(here) <= cost(move) + h(after the move)); 0 at the goal."""

    def inverse(self, move: Move) -> Move | None:
        """The move that takes `move` back in the position after it (for pruning the
        parent in a depth-first search), or None when there is none to prune."""
        return None

    def compiled_depth_first(self, heuristic: str) -> CompiledDepthFirst | None:
        """A compiled IDA* from this position with the heuristic `heuristic` ("" = the
        first of `heuristic_names`), the same search node for node as the `idastar`
        engine's (its module docstring's convention), or None where the game has none
        (not built, a heuristic or a size it does not cover)."""
        return None


CompiledDepthFirst = Callable[[int | None], tuple[list[Move] | None, int, list[int]]]
"""A compiled IDA* (`Puzzle.compiled_depth_first`): called with a node limit (None: none),
it searches from scratch and answers ``(solution, nodes, thresholds)``: the cheapest
solution's moves, or None when the node limit ended it (then `nodes` is the limit); the
nodes counted over every iteration; each iteration's threshold."""


class ConstraintProblem(Capability):
    """A constraint puzzle (sudoku, map colouring, a timetable): a `Model` of variables,
    domains and constraints, the values assigned so far, and the move that assigns a value.
    What the `csp` engine searches (kibitz.games.csp, docs/games.md "Constraint puzzles")."""

    capability_name: ClassVar[str] = "constraints (constraint_model(), assignment())"

    @abstractmethod
    def constraint_model(self) -> Model:
        """The whole problem, the givens' variables included; the same for every position
        of one game."""

    @abstractmethod
    def assignment(self) -> list[int | None]:
        """Each variable's value (the givens and the moves played), None where unassigned."""

    @abstractmethod
    def assignment_move(self, variable: int, value: int) -> Move:
        """The move that gives `variable` the value `value`."""


class HiddenInformation(Capability):
    """A game of imperfect information (poker, blind tic-tac-toe: docs/games.md "Hidden
    information"). Its objects are of two kinds, both read by `from_position`:

    - a **full state** (`is_view()` False): everything, the hidden part included, as the
      referee of a match keeps it and as a sampled world is; it plays as any game with
      chance (the deal is a chance node), so perfect-information engines and CFR walk it;
    - a **view** (`is_view()` True): what one player, the `observer()`, knows: their own
      cards, the public actions, what has been revealed. A client sends a view, never the
      hidden truth, and nothing an engine answers for a view may carry more than the view
      holds. A view knows who is to move and the legal moves when its observer is to move;
      it is never searched directly: engines search the worlds it `sample`s.

    `view(player)` writes the view text of `player` (a full state: of any player; a view:
    of its observer only); it is also the key of `player`'s information set."""

    capability_name: ClassVar[str] = "hidden information (view(), sample())"

    @abstractmethod
    def is_view(self) -> bool:
        """Whether this is one player's view rather than a full state."""

    @abstractmethod
    def observer(self) -> int:
        """The player whose view this is (a full state: the player to move, or at a chance
        node the next player to act)."""

    @abstractmethod
    def view(self, player: int) -> str:
        """What `player` knows here, in the game's view notation (also the key of their
        information set); ValueError where this object cannot know it (another player's
        view of a view)."""

    @abstractmethod
    def sample(self, rng: random.Random) -> Game:
        """A full state consistent with this view (itself copied, for a full state), drawn
        by the game's documented weighting (the deals consistent with the view, uniformly,
        unless the game says otherwise), with the view's actions played."""

    def worlds(self) -> list[tuple[Game, float]] | None:
        """Every full state consistent with this view with its probability under the same
        weighting (summing to 1), where there are few enough to list (Kuhn poker's view has
        two); None where there are too many."""
        return None


class Presentation(Capability):
    """A drawing of the position that a page draws and clicks without knowing the game
    (kibitz.games.presentation, docs/games.md "How a game presents itself")."""

    capability_name: ClassVar[str] = "diagrams (diagram())"

    @abstractmethod
    def diagram(self, last: Move | None = None) -> Diagram:
        """This position as a `Diagram`, with a `Target` for each legal move a click can
        play; `last` is the move that led here (already played), when known, for the
        diagram's highlights."""


CAPABILITIES: tuple[type[Capability], ...] = (
    HashKey,
    Puzzle,
    ConstraintProblem,
    HiddenInformation,
    Evaluation,
    NoisyMoves,
    StaticExchange,
    MoveOrdering,
    SolverHooks,
    Checks,
    NullMove,
    HistoryDraws,
    Symmetry,
    Playout,
    MovePriors,
    ExpectedReturn,
    OutcomeChances,
    EstimateSources,
    EndgameTable,
    ExpectimaxKernel,
    Presentation,
)
"""Every capability, in the order listings show them."""


def capabilities_of(game: type) -> list[type[Capability]]:
    """The capabilities a game class declares."""
    return [capability for capability in CAPABILITIES if issubclass(game, capability)]
