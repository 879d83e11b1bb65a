"""Two-player limit poker with one private card each, as Kuhn and Leduc poker play it: the
deal as chance nodes, the betting, the notation of full states and of one player's view,
and the worlds a view stands for (the `HiddenInformation` contract; docs/games.md, "Hidden
information").

The rules are OpenSpiel's (open_spiel/games/kuhn_poker/kuhn_poker.cc and
open_spiel/games/leduc_poker/leduc_poker.cc): each player antes 1 and is dealt one card
(player 1 first, each card a chance node, uniform over the cards left); a betting round
starts with player 1; a raise puts in what calling would plus the round's raise size, at
most `max_raises` raises a round; fold only facing a bet. A round ends when both checked or
a raise was called; then the next round's public card is dealt (a chance node) and player 1
bets first again. A fold ends the hand; after the last round the better hand wins the pot
(`hand_strength`), a tie splits it. `returns()` are the chips won or lost, OpenSpiel's
returns. Cards are numbered as OpenSpiel numbers them, rank * suits + suit, and are also
the chance outcomes (OpenSpiel's chance actions); the betting moves are OpenSpiel Leduc's
actions, fold 0, call 1, raise 2 (Kuhn's pass and bet are call or fold, raise or call).

Notation (ACPC's betting letters): ``<cards>:<betting>``. The cards are player 1's then
player 2's, ``-`` for a card still to be dealt, then each public card after a ``/`` once
dealt; the betting is each round's letters, ``c`` check or call, ``r`` bet or raise, ``f``
fold, rounds separated by ``/`` (written once a round is over and the hand goes on):
``KsJh/Qh:rc/r``. The start, before the deal, is ``--:``. A view writes the card its
observer cannot see as ``?`` (``K?:cr`` is player 1's view, ``?Q:cr`` player 2's); the view
of the player to move is written short, their card alone (``K:cr``). A card nobody can see
yet (not dealt) is never hidden, so a view before the other card is dealt is the full state
itself (``K-:``).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from kibitz.games.base import CHANCE, Game, IllegalMoveError, Move, NotationError, quoted
from kibitz.games.capabilities import HashKey, HiddenInformation, Presentation
from kibitz.games.presentation import NOBODY, PANEL, Diagram, Gauge

FOLD, CALL, RAISE = 0, 1, 2
"""The betting moves, OpenSpiel Leduc's actions."""
LETTERS = "fcr"
"""Each betting move's letter (ACPC's), by move."""
UNDEALT = -1
"""A card slot whose card is still to be dealt."""
HIDDEN = -2
"""A card slot dealt but not seen by a view's observer."""
ANTE = 1
MAX_TEXT = 100
"""The longest position text read (every real one is far shorter)."""

Snapshot = tuple[int, int, int, int, int, int, bool, int]
"""What `undo` restores: the slot a deal filled (-1 after a bet), the chips each player
has in, the raises, calls, player, round's end and folder before the move."""


class LimitPoker(Game, HiddenInformation, HashKey, Presentation):
    """A position of two-player limit poker with one private card each; see the module
    docstring. Subclasses give the deck, the rounds' raise sizes, the raise cap and the
    hands' order."""

    has_chance: ClassVar[bool] = True
    default_position: ClassVar[str] = "--:"
    default_engine: ClassVar[str | None] = "cfr"
    player_names: ClassVar[tuple[str, ...]] = ("player 1", "player 2")
    ranks: ClassVar[str] = "JQK"
    """The ranks' letters, lowest first."""
    suits: ClassVar[str] = ""
    """The suits' letters; "" for a deck of one suit, whose cards are written as ranks."""
    raise_sizes: ClassVar[tuple[int, ...]]
    """The raise size of each betting round (so the number of rounds)."""
    max_raises: ClassVar[int]
    """The most raises (the first bet included) in one round."""
    example: ClassVar[str]
    """A full state, for error messages."""

    def __init__(self) -> None:
        self.cards = [UNDEALT] * (len(self.raise_sizes) + 1)
        """Player 1's card, player 2's, then the public cards: a card, UNDEALT or HIDDEN."""
        self.betting: list[list[int]] = []
        """The moves of each round begun (a round begins after its card is dealt)."""
        self.paid = [ANTE, ANTE]
        self.raises = 0
        """Raises in the current round."""
        self.calls = 0
        """Calls (checks) in the current round since its last raise."""
        self.player = 0
        """The player whose turn it is in the betting."""
        self.closed = False
        """Whether the current round's betting is over."""
        self.folded = -1
        """The player who folded, or -1."""
        self._history: list[Snapshot] = []

    # -- the deck ---------------------------------------------------------------------------

    @classmethod
    def deck(cls) -> range:
        """Every card, as OpenSpiel numbers them."""
        return range(len(cls.ranks) * max(1, len(cls.suits)))

    @classmethod
    def rank(cls, card: int) -> int:
        return card // max(1, len(cls.suits))

    @classmethod
    def card_text(cls, card: int) -> str:
        if card == UNDEALT:
            return "-"
        if card == HIDDEN:
            return "?"
        suits = len(cls.suits)
        return cls.ranks[card // suits] + cls.suits[card % suits] if suits else cls.ranks[card]

    @classmethod
    def card_names(cls) -> str:
        return ", ".join(cls.card_text(card) for card in cls.deck())

    @classmethod
    def read_card(cls, text: str) -> int:
        """A card from its name (the rank's case and the suit's do not matter)."""
        for card in cls.deck():
            if cls.card_text(card).lower() == text.lower():
                return card
        raise NotationError(f"{quoted(text)} is no card: the cards are {cls.card_names()}")

    @abstractmethod
    def hand_strength(self, card: int) -> int:
        """The strength of the private `card` with the public cards at a showdown (higher
        wins, equal splits)."""

    # -- notation ---------------------------------------------------------------------------

    @classmethod
    def from_position(cls, text: str) -> LimitPoker:
        text = "".join(text.split()) or cls.default_position
        if len(text) > MAX_TEXT:
            raise NotationError(f"a {cls.title} position has at most {MAX_TEXT} characters")
        if text.count(":") != 1:
            raise NotationError(
                f"a {cls.title} position is the cards, a colon, then the betting "
                f"(e.g. {cls.example!r})"
            )
        cards_text, betting_text = text.split(":")
        private_text, *public_texts = cards_text.split("/")
        private = [
            UNDEALT if token == "-" else HIDDEN if token == "?" else cls.read_card(token)
            for token in cls._tokens(private_text)
        ]
        if len(public_texts) > len(cls.raise_sizes) - 1:
            count = len(cls.raise_sizes) - 1
            raise NotationError(
                f"{cls.title} deals {count} public card{'' if count == 1 else 's'}, "
                f"not {len(public_texts)}"
            )
        public = [cls.read_card(card) for card in public_texts]
        rounds = (
            [cls._moves(letters) for letters in betting_text.split("/")] if betting_text else []
        )
        cls._check_cards(private, public)
        if len(private) == 2:
            return cls._replay(private, public, rounds)
        # the view of the player to move: who that is depends on the betting alone
        mover = cls._replay([HIDDEN, HIDDEN], public, rounds)
        seat = mover.to_move()
        if seat == CHANCE or mover.is_terminal():
            when = "the hand is over" if mover.is_terminal() else "a card is dealt next"
            raise NotationError(
                f"nobody is to move here ({when}), so write whose view it is: "
                f"'{cls.card_text(private[0])}?' for player 1's, "
                f"'?{cls.card_text(private[0])}' for player 2's"
            )
        seats = [HIDDEN, HIDDEN]
        seats[seat] = private[0]
        return cls._replay(seats, public, rounds)

    @classmethod
    def _tokens(cls, text: str) -> list[str]:
        """The private cards' part split into one token per seat."""
        width = 2 if cls.suits else 1
        tokens, at = [], 0
        while at < len(text):
            size = 1 if text[at] in "-?" else width
            tokens.append(text[at : at + size])
            at += size
        if len(tokens) not in (1, 2):
            raise NotationError(
                f"{quoted(text)}: write both players' cards (player 1's first), or the "
                "player to move's own card alone"
            )
        return tokens

    @classmethod
    def _moves(cls, letters: str) -> list[int]:
        moves = []
        for letter in letters.lower():
            if letter not in LETTERS:
                raise NotationError(
                    f"{quoted(letter)} is no betting move: c (check or call), r (bet or "
                    "raise), f (fold)"
                )
            moves.append(LETTERS.index(letter))
        return moves

    @classmethod
    def _check_cards(cls, private: list[int], public: list[int]) -> None:
        """NotationError for cards no deal gives."""
        if len(private) == 1 and private[0] < 0:
            raise NotationError("a view written short is the player to move's own card")
        if private.count(HIDDEN) > 1:
            raise NotationError("a view hides only the other player's card (one '?')")
        if len(private) == 2 and private[0] == UNDEALT and private[1] != UNDEALT:
            raise NotationError("player 1's card is dealt first ('-' only for player 2's)")
        known = [card for card in private + public if card >= 0]
        for card in known:
            if known.count(card) > 1:
                raise NotationError(
                    f"{cls.card_text(card)} twice: the deck has one {cls.card_text(card)}"
                )

    @classmethod
    def _replay(
        cls, private: Sequence[int], public: Sequence[int], rounds: Sequence[Sequence[int]]
    ) -> LimitPoker:
        """The position after dealing `private` (player 1's card first; UNDEALT: not yet),
        then each round's moves of `rounds`, each round after the first once its public card
        (`public`) is dealt; a last round that is empty and has no public card is the moment
        before it is dealt. NotationError for betting no hand can have."""
        state = cls()
        for card in private:
            if card != UNDEALT:
                state.play(card)
        if rounds and state.to_move() == CHANCE and not state.closed:
            raise NotationError("the betting starts once both players have a card")
        for index, moves in enumerate(rounds):
            if index > 0:
                done = cls._betting_text(rounds[:index])
                if state.is_terminal() or not state.closed:
                    state_of = "is over" if state.is_terminal() else "goes on"
                    raise NotationError(f"after {done!r} the hand {state_of}: no round {index + 1}")
                if index - 1 < len(public):
                    state.play(public[index - 1])
                elif moves or index < len(rounds) - 1:
                    raise NotationError(f"round {index + 1}'s betting comes after a public card")
                else:
                    break
            for move in moves:
                if state.is_terminal() or state.closed:
                    done = cls._betting_text([*rounds[:index], moves])
                    raise NotationError(f"the betting {done!r} goes on after its round ended")
                if move not in state.legal_moves():
                    raise NotationError(
                        f"the betting {cls._betting_text([*rounds[:index], moves])!r} is "
                        f"impossible: {state._illegal(move)}"
                    )
                state.play(move)
        dealt_public = sum(card != UNDEALT for card in state.cards[2:])
        if dealt_public < len(public):
            raise NotationError(
                f"the public card {cls.card_text(public[dealt_public])} comes once round "
                f"{dealt_public + 1}'s betting is over, after a '/' (e.g. 'rc/')"
            )
        return state

    @staticmethod
    def _betting_text(rounds: Sequence[Sequence[int]]) -> str:
        return "/".join("".join(LETTERS[move] for move in moves) for moves in rounds)

    def position(self) -> str:
        return self._write(self.cards)

    def _write(self, cards: Sequence[int]) -> str:
        """The text of this position with `cards` in place of its own."""
        seat = self.to_move()
        if HIDDEN in cards[:2] and seat != CHANCE and not self.is_terminal() and cards[seat] >= 0:
            private = self.card_text(cards[seat])  # the view of the player to move
        else:
            private = self.card_text(cards[0]) + self.card_text(cards[1])
        public = "".join("/" + self.card_text(card) for card in cards[2:] if card != UNDEALT)
        betting = self._betting_text(self.betting)
        if self.closed and not self.is_terminal():
            betting += "/"
        return f"{private}{public}:{betting}"

    def parse_move(self, text: str) -> Move:
        word = text.strip()
        if self.to_move() == CHANCE:
            card = self.read_card(word)
            if card not in self.legal_moves():
                raise IllegalMoveError(f"{self.card_text(card)} is already out of the deck")
            return card
        if len(word) != 1 or word.lower() not in LETTERS:
            raise NotationError(
                f"a {self.title} move is c (check or call), r (bet or raise) or f (fold), "
                f"not {quoted(text)}"
            )
        move = LETTERS.index(word.lower())
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{word} is not legal here: {self._illegal(move)}")
        return move

    def _illegal(self, move: int) -> str:
        """Why the betting move `move` is not legal here."""
        if self.is_terminal():
            return "the hand is over"
        if move == FOLD:
            return "there is no bet to fold to"
        return f"the round has had its {self.max_raises} raise{'s' if self.max_raises > 1 else ''}"

    def format_move(self, move: Move) -> str:
        if self.to_move() == CHANCE:
            return self.card_text(move)  # type: ignore[arg-type]
        return LETTERS[move]  # type: ignore[index]

    def label_line(self, moves: Sequence[Move]) -> list[str]:
        """Betting moves in words (check, bet, call, raise, fold), dealt cards by name."""
        labels = []
        for move in moves:
            labels.append(self._label(move))
            self.play(move)
        for _ in moves:
            self.undo()
        return labels

    def _label(self, move: Move) -> str:
        if self.to_move() == CHANCE:
            return self.card_text(move)  # type: ignore[arg-type]
        facing = self.paid[self.player] < max(self.paid)
        if move == FOLD:
            return "fold"
        if move == CALL:
            return "call" if facing else "check"
        return "raise" if self.raises else "bet"

    # -- rules ------------------------------------------------------------------------------

    def _slot_to_deal(self) -> int | None:
        """The card slot the next chance node deals, or None where a player is to act."""
        if self.cards[0] == UNDEALT:
            return 0
        if self.cards[1] == UNDEALT:
            return 1
        if self.closed and self.folded < 0 and len(self.betting) < len(self.raise_sizes):
            return len(self.betting) + 1
        return None

    def to_move(self) -> int:
        return CHANCE if self._slot_to_deal() is not None else self.player

    def is_terminal(self) -> bool:
        return self.folded >= 0 or (self.closed and len(self.betting) == len(self.raise_sizes))

    def legal_moves(self) -> list[Move]:
        if self._slot_to_deal() is not None:
            return self._unseen()
        if self.is_terminal():
            return []
        moves: list[Move] = [FOLD] if self.paid[self.player] < max(self.paid) else []
        moves.append(CALL)
        if self.raises < self.max_raises:
            moves.append(RAISE)
        return moves

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """The cards left, uniformly (for a view: every card its observer has not seen)."""
        cards = self.legal_moves()
        return [(card, 1 / len(cards)) for card in cards]

    def play(self, move: Move) -> None:
        slot = self._slot_to_deal()
        self._history.append(
            (-1 if slot is None else slot, self.paid[0], self.paid[1], self.raises,
             self.calls, self.player, self.closed, self.folded)
        )  # fmt: skip
        if slot is not None:
            self.cards[slot] = move  # type: ignore[assignment]
            if slot > 0:  # both private cards, or a public card: a round begins
                self.betting.append([])
                self.raises = self.calls = self.player = 0
                self.closed = False
            return
        mover = self.player
        if move == FOLD:
            self.folded = mover
        elif move == CALL:
            self.paid[mover] = max(self.paid)
            self.calls += 1
        else:
            self.paid[mover] = max(self.paid) + self.raise_sizes[len(self.betting) - 1]
            self.raises += 1
            self.calls = 0
        self.betting[-1].append(move)  # type: ignore[arg-type]
        self.closed = move == FOLD or self.calls == (1 if self.raises else 2)
        self.player = 1 - mover

    def undo(self) -> None:
        slot, first, second, self.raises, self.calls, self.player, self.closed, self.folded = (
            self._history.pop()
        )
        self.paid = [first, second]
        if slot < 0:
            self.betting[-1].pop()
            return
        self.cards[slot] = UNDEALT
        if slot > 0:
            self.betting.pop()

    def returns(self) -> tuple[float, ...]:
        if self.folded >= 0:
            winner = 1 - self.folded
        elif self.is_view():  # the showdown against an unseen card: what the view expects
            worlds = self.worlds()
            return tuple(
                sum(p * world.returns()[seat] for world, p in worlds) for seat in (0, 1)
            )  # fmt: skip
        else:
            first, second = (self.hand_strength(card) for card in self.cards[:2])
            if first == second:
                return (0.0, 0.0)
            winner = 0 if first > second else 1
        won = float(self.paid[1 - winner])
        return (won, -won) if winner == 0 else (-won, won)

    def terminal_reason(self) -> str:
        if self.folded >= 0:
            winner = 2 - self.folded
            return f"player {self.folded + 1} folds: player {winner} wins {self.paid[self.folded]}"
        if self.is_view():
            return "showdown against an unseen card"
        first, second = (self.card_text(card) for card in self.cards[:2])
        result = self.returns()
        if result[0] == result[1]:
            return f"showdown, {first} against {second}: a split pot"
        winner = 1 if result[0] > 0 else 2
        return f"showdown, {first} against {second}: player {winner} wins {max(result):g}"

    def clone(self) -> LimitPoker:
        copy = type(self)()
        copy.cards, copy.betting, copy.paid = (
            list(self.cards),
            [list(r) for r in self.betting],
            list(self.paid),
        )
        copy.raises, copy.calls, copy.player = self.raises, self.calls, self.player
        copy.closed, copy.folded = self.closed, self.folded
        copy._history = list(self._history)
        return copy

    def render(self) -> str:
        """The hands (``?`` for an unseen card), the chips in, the public cards and the
        betting, then who is to act or how the hand ended."""
        title = self.title + (f", player {self.observer() + 1}'s view" if self.is_view() else "")
        lines = [title]
        for seat in (0, 1):
            lines.append(
                f"player {seat + 1}: {self.card_text(self.cards[seat])}, in for {self.paid[seat]}"
            )
        public = [self.card_text(card) for card in self.cards[2:] if card != UNDEALT]
        board = f"; public card {' '.join(public)}" if public else ""
        lines.append(
            f"pot {sum(self.paid)}{board}; betting: {self._betting_text(self.betting) or '-'}"
        )
        slot = self._slot_to_deal()
        if slot is not None:
            lines.append(
                f"to deal: {'the public card' if slot > 1 else f'player {slot + 1} a card'}"
            )
        elif self.is_terminal():
            lines.append(self.terminal_reason())
        else:
            moves = ", ".join(self.move_labels(self.legal_moves()))
            lines.append(f"player {self.player + 1} to act: {moves}")
        return "\n".join(lines)

    # -- capabilities -----------------------------------------------------------------------

    def key(self) -> int:
        return hash((tuple(self.cards), tuple(map(tuple, self.betting)), self.closed))

    def is_view(self) -> bool:
        return HIDDEN in self.cards

    def observer(self) -> int:
        """A view's observer; a full state's player to move (player 1 while a card is dealt,
        who acts first in every round; at the end, the player after the last to act)."""
        if self.is_view():
            return 1 if self.cards[0] == HIDDEN else 0
        return 0 if self._slot_to_deal() is not None else self.player

    def view(self, player: int) -> str:
        if self.is_view():
            if player != self.observer():
                raise ValueError(
                    f"player {self.observer() + 1}'s view does not know player {player + 1}'s"
                )
            return self.position()
        cards = list(self.cards)
        if cards[1 - player] != UNDEALT:
            cards[1 - player] = HIDDEN
        return self._write(cards)

    def sample(self, rng: random.Random) -> LimitPoker:
        """A full state with the unseen card drawn uniformly from the cards the view has not
        seen (every deal consistent with the view is equally likely)."""
        if not self.is_view():
            return self.clone()
        return self._world(rng.choice(self._unseen()))

    def worlds(self) -> list[tuple[Game, float]]:
        if not self.is_view():
            return [(self.clone(), 1.0)]
        unseen = self._unseen()
        return [(self._world(card), 1 / len(unseen)) for card in unseen]

    def _unseen(self) -> list[int]:
        """The cards not seen dealt (for a view, the hidden card is one of them)."""
        seen = set(self.cards)
        return [card for card in self.deck() if card not in seen]

    def _world(self, card: int) -> LimitPoker:
        """The full state of this view with `card` as the unseen card, its moves played."""
        private = [card if slot == HIDDEN else slot for slot in self.cards[:2]]
        public = [slot for slot in self.cards[2:] if slot != UNDEALT]
        return self._replay(private, public, self.betting)

    def diagram(self, last: Move | None = None) -> Diagram:
        """A panel: each player's card (``?`` unseen) and chips in, the pot with the public
        cards; the moves are buttons."""
        most = ANTE + self.max_raises * sum(self.raise_sizes)
        public = [self.card_text(card) for card in self.cards[2:] if card != UNDEALT]
        return Diagram(
            PANEL,
            gauges=(
                *(
                    Gauge(
                        f"player {seat + 1}: {self.card_text(self.cards[seat])}",
                        self.paid[seat],
                        most,
                        seat,
                    )
                    for seat in (0, 1)
                ),
                Gauge(
                    f"pot{' (public ' + ' '.join(public) + ')' if public else ''}",
                    sum(self.paid),
                    2 * most,
                    NOBODY,
                ),
            ),
            colors=("#d33f2f", "#2f6f9f"),
        )
