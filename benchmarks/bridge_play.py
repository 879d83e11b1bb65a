"""GIB-style bridge play measured (`python -m benchmarks.bridge_play`, or a part of `python -m
benchmarks`; see benchmarks/README.md, "GIB-style play (`bridge_play.py`)").

A referee keeps the full state of each deal (`Bridge`, docs/games.md "Bridge") and asks each
side's player for its cards. A player that plays from the cards it can see gets only
``state.view(side)`` read back into a view, as the match referee sends it
(kibitz/match/game.py): its own hand, dummy's, the cards played; a double-dummy player gets
the full state. The players:

- ``pimc``: the `pimc` engine object in process (its worlds searched by `dds`), a stated
  number of worlds, seeded per deal;
- ``dd``: the `dds` engine on the full state, the double-dummy best card;
- ``rules``: `RulesPlayer` below, a handful of textbook rules on its view.

The deals are random from a seed, played in one contract (no trumps by default; South
declares, West leads). Whole hands are too slow for `pimc` here (a world of 13 cards a hand
takes dds about a second), so the first tricks of each deal are played double dummy by all
four seats and the players play the last ones from there; the double-dummy result is that
of the position reached. Three tables: (1) each declarer against a double-dummy defence,
its tricks short of the double-dummy result; (2) each defence against a double-dummy
declarer, the tricks it gave beyond it; (3) `pimc` and `rules` as declarer against the same
`rules` defence on the same deals, the mean tricks of each and the difference of the pairs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Protocol

from kibitz import argtypes
from kibitz.engines import ENGINES, Engine, Limits, SearchContext
from kibitz.games.base import IllegalMoveError, NotationError
from kibitz.games.bridge.cards import (
    NO_TRUMP,
    SEAT_NAMES,
    SEATS,
    STRAINS,
    SUIT_MASK,
    cards_of,
    deal_text,
    read_strain,
    suit_of,
)
from kibitz.games.bridge.game import Bridge, trick_winner
from kibitz.match.stats import mean_interval

DEALS = 100
TRICKS = 8
"""The tricks the players play: the last ones of each deal."""
WORLDS = 32
QUICK_DEALS = 2
QUICK_TRICKS = 3
QUICK_WORLDS = 4
SEED = 1
LEADER = 3
"""West leads: South declares, North is dummy."""
DECLARER_SIDE = 0
"""North-South, whose tricks the tables count."""
JACK = 9
"""The rank of the jack: it and the cards above it are honours."""
TEN = 8
"""The rank of the ten: the lowest card that heads a sequence led."""


class Player(Protocol):
    """A side's player: the card to play in a state (a view unless it sees all)."""

    sees_all: bool
    """Whether it is given the full state (double dummy) rather than its side's view."""

    def choose(self, state: Bridge) -> int: ...


class EnginePlayer:
    """An engine object in process: its best move in the state it is given."""

    def __init__(self, engine: Engine, sees_all: bool) -> None:
        self.engine = engine
        self.sees_all = sees_all

    def choose(self, state: Bridge) -> int:
        move = self.engine.search(state, Limits(), SearchContext()).best_move
        assert isinstance(move, int)
        return move


def double_dummy() -> EnginePlayer:
    """`dds` on the full state."""
    return EnginePlayer(ENGINES["dds"]({}), sees_all=True)


def pimc(worlds: int, seed: int) -> EnginePlayer:
    """`pimc` on the view: `worlds` worlds, each searched by dds, sampled from `seed`."""
    return EnginePlayer(ENGINES["pimc"]({"Worlds": worlds, "Seed": seed}), sees_all=False)


class RulesPlayer:
    """Textbook card play from a view: lead top of a sequence (two or more touching cards
    headed by the ten or higher) from the longest suit (the stronger of two, trumps last),
    else fourth best (the top of a doubleton, the lowest of three); second hand low, but
    cover an honour with an honour; third hand high (the lowest of the touching cards
    topping the hand) unless partner's honour is winning; fourth hand wins as cheaply as it
    can; void, ruff as cheaply as wins where the opponents hold the trick, else throw the
    lowest card of the longest side suit (the weaker of two). Cards touch where every card
    between them went in an earlier trick (a player of whole hands: out of play cards of an
    ending are not counted)."""

    sees_all = False

    def choose(self, state: Bridge) -> int:
        seat = state.seat_to_play()
        hand = state.hand_masks()[seat]
        trick = state.current_trick()
        done = state.played()[: len(state.played()) - len(trick)]
        gone = sum(1 << card for _, card in done)
        strain = state.strain()
        if not trick:
            return _lead(hand, strain, gone)
        winner_seat = trick_winner(trick, strain)
        winning = next(card for who, card in trick if who == winner_seat)
        ours = winner_seat % 2 == seat % 2
        following = suit_of(hand, trick[0][1] // 13)
        if not following:
            return _void(hand, strain, winning, ours)
        cards = list(cards_of(following))
        low = cards[-1]
        beating = [card for card in cards if _beats(card, winning, strain)]
        if len(trick) == 1:  # second hand
            return beating[-1] if trick[0][1] % 13 >= JACK and beating else low
        if len(trick) == 2:  # third hand
            if (ours and winning % 13 >= JACK) or not _beats(cards[0], winning, strain):
                return low
            return _bottom_of_run(cards, gone)
        return low if ours or not beating else beating[-1]


def _beats(card: int, best: int, strain: int) -> bool:
    """Whether `card` beats `best`, the card now winning the trick."""
    if card // 13 == best // 13:
        return card > best
    return card // 13 == strain


def _touching(high: int, low: int, gone: int) -> bool:
    """Whether two cards of a suit touch: every card between them is in `gone`."""
    between = ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
    return between & ~gone == 0


def _bottom_of_run(cards: list[int], gone: int) -> int:
    """The lowest card of the run of touching cards that tops `cards` (high to low)."""
    bottom = cards[0]
    for card in cards[1:]:
        if not _touching(bottom, card, gone):
            break
        bottom = card
    return bottom


def _holding(hand: int, suit: int) -> int:
    """A hand's cards of `suit` as a 13-bit mask of ranks: the longer, then the higher, the
    stronger."""
    return hand >> (13 * suit) & SUIT_MASK


def _lead(hand: int, strain: int, gone: int) -> int:
    """The opening card of a trick: see `RulesPlayer`."""
    suits = [suit for suit in range(4) if suit_of(hand, suit)]
    side_suits = [suit for suit in suits if suit != strain] or suits
    suit = max(side_suits, key=lambda s: (_holding(hand, s).bit_count(), _holding(hand, s)))
    cards = list(cards_of(suit_of(hand, suit)))
    if len(cards) >= 2 and cards[0] % 13 >= TEN and _touching(cards[0], cards[1], gone):
        return cards[0]
    if len(cards) >= 4:
        return cards[3]
    return cards[0] if len(cards) == 2 else cards[-1]


def _void(hand: int, strain: int, winning: int, ours: bool) -> int:
    """The card of a hand void in the suit led: see `RulesPlayer`."""
    if strain != NO_TRUMP and not ours:
        ruffs = [card for card in cards_of(suit_of(hand, strain)) if _beats(card, winning, strain)]
        if ruffs:
            return ruffs[-1]
    suits = [suit for suit in range(4) if suit_of(hand, suit)]
    side_suits = [suit for suit in suits if suit != strain] or suits
    suit = max(side_suits, key=lambda s: (_holding(hand, s).bit_count(), -_holding(hand, s)))
    return list(cards_of(suit_of(hand, suit)))[-1]


def referee(state: Bridge, players: Sequence[Player]) -> int:
    """Plays `state` (a full state) out, `players[side]` choosing each side's cards from
    what it may see; the tricks North-South took from here. IllegalMoveError names a player's
    illegal card."""
    before = state.tricks_taken()[0]
    while not state.is_terminal():
        side = state.to_move()
        player = players[side]
        seen = state.clone() if player.sees_all else Bridge.from_position(state.view(side))
        card = player.choose(seen)
        if card not in state.legal_moves():
            raise IllegalMoveError(
                f"{type(player).__name__} played {state.format_move(card)} for "
                f"{SEAT_NAMES[state.seat_to_play()]}: not a legal card"
            )
        state.play(card)
    return state.tricks_taken()[0] - before


def random_deal(rng: random.Random, strain: int) -> Bridge:
    """A deal drawn from `rng`, played in `strain`, West on lead."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << card for card in deck[13 * seat : 13 * seat + 13]) for seat in range(4)]
    return Bridge.from_position(f"{deal_text(hands)} {STRAINS[strain]} {SEATS[LEADER]}")


def reach(state: Bridge, tricks: int) -> tuple[Bridge, int]:
    """`state` with all but its last `tricks` tricks played double dummy by every seat, and
    North-South's tricks from there with best play (the double-dummy result)."""
    dd = double_dummy()
    while state.tricks_left() > tricks:
        state.play(dd.choose(state))
    result = dd.engine.search(state, Limits(), SearchContext())
    mover = result.stats["tricks"]
    return state, int(mover if state.to_move() == DECLARER_SIDE else tricks - mover)


@dataclass(frozen=True)
class Budgets:
    """What a run plays."""

    deals: int
    tricks: int
    """The last tricks of each deal the players play (the first ones double dummy)."""
    worlds: int
    """`pimc`'s worlds per card."""
    seed: int
    strain: int

    def caption(self) -> str:
        return (
            f"{self.deals} random deal{'s' * (self.deals != 1)} (seed {self.seed}) in "
            f"{STRAINS[self.strain]} by South, West leads; the first {13 - self.tricks} tricks "
            f"double dummy, the last {self.tricks} played; pimc {self.worlds} worlds a card "
            "(each solved by dds), seeded per deal"
        )


@dataclass
class Deal:
    """One deal's outcomes: North-South's tricks over the played tricks."""

    best: int
    """With double-dummy play by all four."""
    played: dict[str, int]
    """By each table's pairing (declarer vs defence)."""


PAIRINGS = (
    ("pimc", "dd"),
    ("rules", "dd"),
    ("dd", "pimc"),
    ("dd", "rules"),
    ("pimc", "rules"),
    ("rules", "rules"),
)
"""(declarer, defence) of every pairing played on each deal."""


def play_deals(budgets: Budgets) -> list[Deal]:
    """Every pairing on each deal of `budgets`."""
    rng = random.Random(budgets.seed)
    deals = []
    for index in range(budgets.deals):
        start, best = reach(random_deal(rng, budgets.strain), budgets.tricks)
        deal_seed = (budgets.seed * 100_003 + index) % 2**31  # pimc's Seed is 31 bits
        players: dict[str, Callable[[], Player]] = {
            "pimc": partial(pimc, budgets.worlds, deal_seed),
            "dd": double_dummy,
            "rules": RulesPlayer,
        }
        played = {}
        for declarer, defence in PAIRINGS:
            sides = (players[declarer](), players[defence]())
            played[f"{declarer} v {defence}"] = referee(start.clone(), sides)
        deals.append(Deal(best, played))
    return deals


def tables(budgets: Budgets, deals: list[Deal]) -> list[str]:
    """The three tables' lines."""
    n, k = len(deals), budgets.tricks
    best = [deal.best for deal in deals]
    lines = [f"GIB-style play: {budgets.caption()}"]
    lines.append(f"double-dummy result: {sum(best) / n:.2f} of the last {k} tricks on average")
    head = f"{'':<12}{'mean':>7}{'95% interval':>18}{'exact':>8}"
    lines += ["(1) declarer against a double-dummy defence: tricks short of double dummy", head]
    for name in ("pimc", "rules"):
        lines.append(
            _row(name, [b - d.played[f"{name} v dd"] for b, d in zip(best, deals, strict=True)])
        )
    lines += ["(2) defence against a double-dummy declarer: tricks given beyond double dummy", head]
    for name in ("pimc", "rules"):
        lines.append(
            _row(name, [d.played[f"dd v {name}"] - b for b, d in zip(best, deals, strict=True)])
        )
    lines += [
        f"(3) declarer against the rules defence: tricks of the last {k}",
        f"{'':<12}{'mean':>7}{'95% interval':>18}",
    ]
    pimc_tricks = [d.played["pimc v rules"] for d in deals]
    rules_tricks = [d.played["rules v rules"] for d in deals]
    lines.append(_row("pimc", pimc_tricks, exact=False))
    lines.append(_row("rules", rules_tricks, exact=False))
    lines.append(
        _row(
            "pimc - rules",
            [a - b for a, b in zip(pimc_tricks, rules_tricks, strict=True)],
            exact=False,
            signed=True,
        )
    )
    return lines


def _row(name: str, values: list[int], exact: bool = True, signed: bool = False) -> str:
    """A row: the mean of `values` and its interval (with their signs where `signed`), and
    where `exact`, how often a value is 0."""
    mean, low, high = mean_interval(values)
    sign = "+" if signed else ""
    row = f"{name:<12}{mean:>{sign}7.2f}{f'[{low:{sign}.2f}, {high:{sign}.2f}]':>18}"
    if exact:
        row += f"{sum(value == 0 for value in values) / len(values):>8.0%}"
    return row


def run(
    quick: bool = False,
    deals: int | None = None,
    tricks: int | None = None,
    worlds: int | None = None,
    seed: int = SEED,
    strain: int = NO_TRUMP,
) -> list[str]:
    """Plays and prints the tables; their lines."""
    budgets = Budgets(
        deals or (QUICK_DEALS if quick else DEALS),
        tricks or (QUICK_TRICKS if quick else TRICKS),
        worlds or (QUICK_WORLDS if quick else WORLDS),
        seed,
        strain,
    )
    start = time.perf_counter()
    lines = tables(budgets, play_deals(budgets))
    print("\n".join(lines))
    print(f"({time.perf_counter() - start:.0f} s)")
    return lines


def _strain(text: str) -> int:
    """A strain read for argparse (its error names the word)."""
    try:
        return read_strain(text)
    except NotationError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bridge_play", description=__doc__)
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"{QUICK_DEALS} deals, the last {QUICK_TRICKS} tricks, {QUICK_WORLDS} worlds",
    )
    parser.add_argument(
        "--deals", type=argtypes.positive_int, metavar="N", help=f"deals (default {DEALS})"
    )
    parser.add_argument(
        "--tricks",
        type=int,
        choices=range(1, 14),
        metavar="K",
        help=f"the last K tricks are played, the first ones double dummy (default {TRICKS})",
    )
    parser.add_argument(
        "--worlds",
        type=argtypes.positive_int,
        metavar="N",
        help=f"pimc's worlds a card (default {WORLDS})",
    )
    parser.add_argument(
        "--seed", type=argtypes.count, default=SEED, help=f"the deals' seed (default {SEED})"
    )
    parser.add_argument(
        "--strain", type=_strain, default=NO_TRUMP, help="S, H, D, C or NT (default NT)"
    )
    args = parser.parse_args(argv)
    run(args.quick, args.deals, args.tricks, args.worlds, args.seed, args.strain)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
