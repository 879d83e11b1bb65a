"""The double-dummy solver in pure Python: the reference the compiled kernel repeats.

Positions use the shared bridge representation (docs/games.md, `bridge`): seats N=0, E=1,
S=2, W=3; a card is `suit * 13 + rank` (suits S, H, D, C = 0..3, ranks '2' = 0 ... 'A' = 12);
a hand is an int with bit `card` set; strain 0..3 is that trump suit, 4 is no trump.

The search follows DDS (Bo Haglund's double-dummy solver), scaled down:

- a null-window alpha-beta answering "can the side of the root player take at least `need`
  of the remaining tricks?", run for a bisection of targets, or in steps of one trick from a
  guess where there is one (`Solver.value`: the other cards' answers in `solve_cards`, the
  other leads' in `dd_table`);
- quick tricks at each trick's start: the top winners the leader (or partner, reached in
  a suit the leader holds) cashes at once, cut short where an opponent holding trumps is
  shorter in the suit; they decide a target without a search, as the last trick does;
- DDS's later-tricks bounds at each trick's start (`Solver._later_tricks`): the tricks the
  leading side must lose to the other side's best trumps, or in no trump to its best cards;
- a transposition table probed and filled only at trick boundaries, with DDS's winning
  ranks (partition search): an entry holds bounds on the leader's side's tricks under the
  leader and every hand's suit lengths, fixing only the owners of each suit's highest live
  cards down to the lowest card that won a trick by rank below it (for a card standing for
  a run of equivalent cards, the run's lowest card); ranks are relative (the live cards of
  a suit renumbered from the top). It is kept across searches of one strain (all targets,
  all four leaders of a table), as DDS keeps its table;
- equivalent cards merged: cards of one hand with no other live card (in another hand or on
  the table in the current trick) between them are one move, the highest standing for all;
  and, as DDS's MakeNext, once a card fails to cut, the suit's cards below it and below
  every winning rank found so far are not tried (they would fail alike);
- move ordering by DDS's weights (its Moves.cpp, WeightAllocNT0 for leads, Notvoid1/2 and
  CombinedNotvoid3 for following, the Void functions for ruffs and discards), sorted
  stably.

`Solver.nodes` counts every card-play node; the kernel (`kernels/_solver.pyx`) must count
the same.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

SEATS = "NESW"
SUITS = "SHDC"
RANKS = "23456789TJQKA"
NO_TRUMP = 4
FULL_SUIT = (1 << 13) - 1
POLL_NODES = 1 << 14
"""Nodes between calls of a solver's `poll` by default."""


class SearchStopped(Exception):
    """A solver's `poll` asked it to stop; its table keeps only what was proven."""


def holding(hand: int, suit: int) -> int:
    """The 13-bit mask of `hand`'s cards in `suit` (bit = rank)."""
    return (hand >> (13 * suit)) & FULL_SUIT


def card_text(card: int) -> str:
    """'SA', 'H7', 'DT', 'C2'."""
    return SUITS[card // 13] + RANKS[card % 13]


def parse_hands(pbn: str) -> tuple[int, int, int, int]:
    """Hand masks from a PBN deal, 'N:QJ6.K652.J85.T98 873.J97.AT764.Q4 ...' (first seat,
    then four hands clockwise, each four suits S.H.D.C); '-' stands for an empty hand."""
    first, _, rest = pbn.strip().partition(":")
    texts = rest.split()
    if first.upper() not in SEATS or len(first) != 1 or len(texts) != 4:
        raise ValueError(f"not a PBN deal: {pbn!r}")
    hands = [0, 0, 0, 0]
    for offset, text in enumerate(texts):
        seat = (SEATS.index(first.upper()) + offset) % 4
        suits = ["", "", "", ""] if text == "-" else text.split(".")
        if len(suits) != 4:
            raise ValueError(f"hand {text!r} does not have four suits")
        for suit, ranks in enumerate(suits):
            for rank in ranks.upper():
                if rank not in RANKS:
                    raise ValueError(f"bad rank {rank!r} in hand {text!r}")
                hands[seat] |= 1 << (13 * suit + RANKS.index(rank))
    return hands[0], hands[1], hands[2], hands[3]


def _top(bits: int) -> int:
    """The highest set bit's index, -1 for none."""
    return bits.bit_length() - 1


def _beats(card: int, best: int, strain: int) -> bool:
    """Whether `card` beats `best`, the trick's winning card so far."""
    suit, best_suit = card // 13, best // 13
    if suit == best_suit:
        return card > best
    return suit == strain


def _skip_below(rank: int, suit_ranks: int) -> int:
    """After a card of `rank` failed to cut: the rank below which the suit's other cards
    would fail alike (DDS's MakeNext), 0 for none. Where the card lies below every winning
    rank of the suit so far (`suit_ranks`), so do the suit's lower cards, which differ from
    it only in ranks that decided nothing."""
    lowest = (suit_ranks & -suit_ranks).bit_length() - 1 if suit_ranks else 13
    return lowest if rank < lowest else 0


def check_position(
    hands: Sequence[int], seat_to_play: int, trick: Sequence[tuple[int, int]] = ()
) -> None:
    """Raises ValueError unless the hands and current trick form a playable position."""
    if len(hands) != 4 or not 0 <= seat_to_play < 4 or len(trick) > 3:
        raise ValueError("a position is four hands, a seat 0..3 and at most 3 trick cards")
    seen = 0
    for seat, hand in enumerate(hands):
        if hand < 0 or hand >> 52 or hand & seen:
            raise ValueError(f"hand {SEATS[seat]} holds a card twice or no card at all")
        seen |= hand
    for pos, (seat, card) in enumerate(trick):
        expected = (seat_to_play - len(trick) + pos) % 4
        if seat != expected or not 0 <= card < 52:
            raise ValueError(f"trick card {pos} is not (seat {expected}, a card 0..51)")
        if seen >> card & 1:
            raise ValueError(f"{card_text(card)} is both in a hand and on the table")
        seen |= 1 << card
    played = {seat for seat, _ in trick}
    left = hands[seat_to_play].bit_count()
    for seat, hand in enumerate(hands):
        expected = left - (seat in played)
        if hand.bit_count() != expected:
            raise ValueError(f"hand {SEATS[seat]} has {hand.bit_count()} cards, not {expected}")
    if left == 0:
        raise ValueError("no cards left to play")


class Solver:
    """Double-dummy search of one strain; its table is kept between calls (any deal of the
    strain may be asked: the table's keys hold every remaining card)."""

    def __init__(self, strain: int, poll_nodes: int = POLL_NODES) -> None:
        if not 0 <= strain <= NO_TRUMP:
            raise ValueError(f"strain {strain} is not 0..4")
        self.strain = strain
        self.nodes = 0
        self.poll: Callable[[], bool] | None = None
        """Asked every `poll_nodes` nodes (counted since the solver's start): True stops the
        search, `value` and the solve methods then raise SearchStopped."""
        self.poll_nodes = max(1, poll_nodes)
        self._next_poll = self.poll_nodes
        self._stopped = False
        # key -> tops (how many of each suit's highest cards matter) -> their owners -> the
        # leader's side's [low, high] bounds
        self.table: dict[int, dict[tuple[int, ...], dict[tuple[int, ...], list[int]]]] = {}
        self._hands = [0, 0, 0, 0]
        self._seats = [0] * 52  # every card played since the root, by ply
        self._cards = [0] * 52
        self._win_card = [0] * 52  # the current trick's winning card after each ply
        self._win_seat = [0] * 52
        self._win_low = [0] * 52  # the lowest card of the winning card's run
        self._ply = 0
        self._count = 0  # cards on the table
        self._leader = 0
        self._tricks_left = 0
        self._max_side = 0

    @property
    def table_size(self) -> int:
        """Entries stored."""
        return sum(len(entries) for by_tops in self.table.values() for entries in by_tops.values())

    # -- public ------------------------------------------------------------------------

    def solve(
        self,
        hands: Sequence[int],
        seat_to_play: int,
        trick: Sequence[tuple[int, int]] = (),
        guess: int | None = None,
    ) -> int:
        """Tricks the side of `seat_to_play` takes of the remaining ones (current included);
        `guess`, a likely answer, orders the searches (`value`), not the answer."""
        self._setup(hands, seat_to_play, trick)
        return self.value(guess)

    def solve_cards(
        self, hands: Sequence[int], seat_to_play: int, trick: Sequence[tuple[int, int]] = ()
    ) -> dict[int, int]:
        """Every legal card of `seat_to_play` -> the tricks its side then takes (DDS's
        SolveBoard with solutions=3), equivalent cards included."""
        self._setup(hands, seat_to_play, trick)
        seat = seat_to_play
        values: dict[int, int] = {}
        best: int | None = None
        for card in self._moves(seat, self._count):
            won = self._play(card)
            later = self.value(None if best is None else best - won)
            values[card] = won + later
            best = values[card] if best is None else max(best, values[card])
            self._unplay()
        for card, tricks in list(values.items()):
            for twin in self._equivalents(seat, card):
                values[twin] = tricks
        return dict(sorted(values.items()))

    def value(self, guess: int | None = None) -> int:
        """The max side's tricks from the current state by null-window searches: without a
        guess a bisection; with one, DDS's steps from it (a search at the guess, then one
        trick up after a success or down after a failure, until the bounds meet)."""
        low, high = 0, self._tricks_left
        target = None if guess is None else min(max(guess, 1), high)
        while low < high:
            if target is None or not low < target <= high:
                target = (low + high + 1) // 2
            found = self._search(target)[0]
            if self._stopped:
                raise SearchStopped(f"stopped after {self.nodes} nodes")
            if found:
                low = target
                target = None if guess is None else target + 1
            else:
                high = target - 1
                target = None if guess is None else target - 1
        return low

    # -- state ---------------------------------------------------------------------------

    def _setup(
        self, hands: Sequence[int], seat_to_play: int, trick: Sequence[tuple[int, int]]
    ) -> None:
        check_position(hands, seat_to_play, trick)
        self._stopped = False
        self._hands = list(hands)
        self._ply = 0
        self._count = 0
        self._max_side = seat_to_play & 1
        self._tricks_left = hands[seat_to_play].bit_count()
        self._leader = (seat_to_play - len(trick)) % 4
        for seat, card in trick:
            self._push(seat, card, card)

    def _push(self, seat: int, card: int, low: int) -> None:
        """Puts `card` on the table for `seat` (already out of the hand); `low` is the lowest
        card of the run of equivalent cards it stands for."""
        ply = self._ply
        self._seats[ply] = seat
        self._cards[ply] = card
        if self._count == 0 or _beats(card, self._win_card[ply - 1], self.strain):
            self._win_card[ply] = card
            self._win_seat[ply] = seat
            self._win_low[ply] = low
        else:
            self._win_card[ply] = self._win_card[ply - 1]
            self._win_seat[ply] = self._win_seat[ply - 1]
            self._win_low[ply] = self._win_low[ply - 1]
        self._ply = ply + 1
        self._count += 1

    def _play(self, card: int) -> int:
        """Plays `card` for the seat to move; returns the tricks the max side won by it
        (1 where it completed a trick the max side won, else 0)."""
        seat = (self._leader + self._count) & 3
        twins = self._equivalents(seat, card)
        self._hands[seat] &= ~(1 << card)
        self._push(seat, card, twins[-1] if twins else card)
        if self._count < 4:
            return 0
        winner = self._win_seat[self._ply - 1]
        self._count = 0
        self._leader = winner
        self._tricks_left -= 1
        return 1 if winner & 1 == self._max_side else 0

    def _unplay(self) -> None:
        """Takes back the last card played by `_play`."""
        if self._count == 0:
            self._count = 4
            self._tricks_left += 1
            self._leader = self._seats[self._ply - 4]
        self._count -= 1
        self._ply -= 1
        self._hands[self._seats[self._ply]] |= 1 << self._cards[self._ply]

    # -- search --------------------------------------------------------------------------

    def _search(self, need: int) -> tuple[bool, int]:
        """Whether the max side takes at least `need` of the remaining tricks, and the
        winning ranks of the answer: the cards (a mask) whose ranks decided it."""
        self.nodes += 1
        if self.nodes >= self._next_poll:
            self._next_poll += self.poll_nodes
            self._stopped = self._stopped or (self.poll is not None and self.poll())
        if self._stopped:
            return False, 0
        if need <= 0:
            return True, 0
        tricks_left = self._tricks_left
        if need > tricks_left:
            return False, 0
        pos = self._count
        leader = self._leader
        seat = (leader + pos) & 3
        leading_max = leader & 1 == self._max_side
        shape = None
        if pos == 0:
            if tricks_left == 1:
                winner, ranks = self._last_trick()
                return winner & 1 == self._max_side, ranks
            quick, ranks = self._quick_tricks(leader)
            if leading_max and quick >= need:
                return True, ranks
            if not leading_max and tricks_left - quick < need:
                return False, ranks
            most, ranks = self._later_tricks(leader)
            if leading_max and most < need:
                return False, ranks
            if not leading_max and tricks_left - most >= need:
                return True, ranks
            shape = self._shape(leader)
            for tops, entries in self.table.get(shape[0], {}).items():
                entry = entries.get(self._patterns(shape, tops))
                if entry is None:
                    continue
                low, high = entry
                if not leading_max:
                    low, high = tricks_left - high, tricks_left - low
                if low >= need or high < need:
                    return low >= need, self._top_cards(tops)
        maximising = seat & 1 == self._max_side
        if pos == 1:
            cutoff = need if maximising else tricks_left - need + 1
            sure, ranks = self._second_hand_tricks(seat, cutoff)
            if sure:
                return maximising, ranks
        result = not maximising
        ranks = 0
        skip_below = [0, 0, 0, 0]
        for card in self._moves(seat, pos):
            suit, rank = divmod(card, 13)
            if rank < skip_below[suit]:
                continue
            won = self._play(card)
            by_rank = self._rank_win() if self._count == 0 else 0
            found, child_ranks = self._search(need - won)
            self._unplay()
            if found == maximising:
                result = maximising
                ranks = child_ranks | by_rank
                break
            ranks |= child_ranks | by_rank
            if not skip_below[suit]:
                skip_below[suit] = _skip_below(rank, holding(ranks, suit))
        if shape is not None and not self._stopped:
            self._store(shape, ranks, need, result, leading_max, tricks_left)
        return result, ranks

    def _store(
        self,
        shape: tuple[int, list[int], list[int]],
        ranks: int,
        need: int,
        result: bool,
        leading_max: bool,
        tricks_left: int,
    ) -> None:
        """Narrows the leader's side's bounds, in the entry for the cards down to each suit's
        lowest winning rank, by one search's answer."""
        live = self._live()
        depths = []
        for suit in range(4):
            suit_ranks = holding(ranks, suit)
            lowest = (suit_ranks & -suit_ranks).bit_length() - 1
            depths.append((holding(live, suit) >> lowest).bit_count() if suit_ranks else 0)
        tops = tuple(depths)
        entries = self.table.setdefault(shape[0], {}).setdefault(tops, {})
        entry = entries.setdefault(self._patterns(shape, tops), [0, tricks_left])
        if result:  # the max side takes >= need
            if leading_max:
                entry[0] = max(entry[0], need)
            else:
                entry[1] = min(entry[1], tricks_left - need)
        elif leading_max:  # the max side takes <= need - 1
            entry[1] = min(entry[1], need - 1)
        else:
            entry[0] = max(entry[0], tricks_left - need + 1)

    def _shape(self, leader: int) -> tuple[int, list[int], list[int]]:
        """(the table key: the leader and every hand's suit lengths; each suit's owners of
        its live cards, high first, two bits a card; each suit's live card count)."""
        hands = self._hands
        key = leader
        for seat in range(4):
            for suit in range(4):
                key = key << 4 | holding(hands[seat], suit).bit_count()
        owners = [0, 0, 0, 0]
        counts = [0, 0, 0, 0]
        for suit in range(4):
            shift = 13 * suit
            for bit in range(12, -1, -1):
                card = 1 << (shift + bit)
                for seat in range(4):
                    if hands[seat] & card:
                        owners[suit] = owners[suit] << 2 | seat
                        counts[suit] += 1
                        break
        return key, owners, counts

    @staticmethod
    def _patterns(
        shape: tuple[int, list[int], list[int]], tops: tuple[int, ...]
    ) -> tuple[int, ...]:
        """The owners of each suit's `tops[suit]` highest live cards."""
        owners, counts = shape[1], shape[2]
        return tuple(owners[suit] >> 2 * (counts[suit] - tops[suit]) for suit in range(4))

    def _top_cards(self, tops: tuple[int, ...]) -> int:
        """The mask of each suit's `tops[suit]` highest live cards."""
        live = self._live()
        cards = 0
        for suit in range(4):
            suit_live = holding(live, suit)
            for _ in range(tops[suit]):
                top = 1 << _top(suit_live)
                cards |= top << (13 * suit)
                suit_live ^= top
        return cards

    def _rank_win(self) -> int:
        """Where the just-finished trick was won by rank (the winning card beat a card of
        its own suit): the lowest card of the winning card's run (a mask; every card of the
        run would have won), else 0."""
        start = self._ply - 4
        best = self._win_card[self._ply - 1]
        for ply in range(start, start + 4):
            card = self._cards[ply]
            if card != best and card // 13 == best // 13:
                return 1 << self._win_low[self._ply - 1]
        return 0

    def _last_trick(self) -> tuple[int, int]:
        """The seat winning the last trick (one card in each hand, nothing on the table) and
        its card (a mask) where it won by rank."""
        leader = self._leader
        best_seat = leader
        best = _top(self._hands[leader])
        for offset in (1, 2, 3):
            seat = (leader + offset) & 3
            card = _top(self._hands[seat])
            if _beats(card, best, self.strain):
                best, best_seat = card, seat
        for seat in range(4):
            card = _top(self._hands[seat])
            if seat != best_seat and card // 13 == best // 13:
                return best_seat, 1 << best
        return best_seat, 0

    def _quick_tricks(self, leader: int) -> tuple[int, int]:
        """Tricks the leader's side surely takes by cashing top winners at once, and those
        winners (a mask): the leader's own, or partner's where the leader can reach partner
        (a suit the leader holds in which partner has a winner)."""
        total, cards, _ = self._cashable(leader)
        partner = leader ^ 2
        partner_total, partner_cards, entries = self._cashable(partner)
        if partner_total > total:
            for suit in range(4):
                if entries >> suit & 1 and holding(self._hands[leader], suit):
                    return partner_total, partner_cards
        return total, cards

    def _second_hand_tricks(self, seat: int, cutoff: int) -> tuple[bool, int]:
        """DDS's QuickTricksSecondHand: whether the side of `seat`, second to play, surely
        takes `cutoff` tricks from here, and the winning ranks (a mask) that say so. The
        current trick is sure where the side ruffs and the third hand cannot overruff, or
        where its best card of the suit led beats the lead and the third hand's cards, which
        cannot ruff; in no trump, the hand that wins it then cashes the suit's second best
        card if it holds the best two, its top winners in the other suits and the suits
        nobody else holds."""
        hands = self._hands
        strain = self.strain
        partner, third = seat ^ 2, (seat + 1) & 3
        lead = self._cards[self._ply - 1]
        suit = lead // 13
        own = holding(hands[seat], suit) | holding(hands[partner], suit)
        third_ruffs = bool(
            strain != NO_TRUMP
            and suit != strain
            and holding(hands[third], strain)
            and not holding(hands[third], suit)
        )
        if (
            strain != NO_TRUMP
            and suit != strain
            and any(
                not holding(hands[hand], suit) and holding(hands[hand], strain)
                for hand in (seat, partner)
            )
        ):
            if third_ruffs:
                return False, 0
            ranks = 0
        elif own and _top(own) > max(lead % 13, _top(holding(hands[third], suit))):
            if third_ruffs:
                return False, 0
            ranks = 1 << (13 * suit + _top(own))
        else:
            return False, 0
        tricks = 1
        if tricks >= cutoff:
            return True, ranks
        if strain != NO_TRUMP:
            return False, 0
        winner = seat if holding(hands[seat], suit) > holding(hands[partner], suit) else partner
        others = hands[(winner + 1) & 3] | hands[(winner + 2) & 3] | hands[(winner + 3) & 3]
        live = holding(self._live(), suit)
        best = _top(live)
        second = _top(live ^ (1 << best))
        if (
            second >= 0
            and holding(hands[winner], suit) >> second & 1
            and (holding(hands[winner], suit) >> best & 1)
        ):
            tricks += 1
            ranks |= 1 << (13 * suit + second)
            if tricks >= cutoff:
                return True, ranks
        for other_suit in range(4):
            mine = holding(hands[winner], other_suit)
            if other_suit == suit or not mine:
                continue
            top_other = _top(holding(others, other_suit))
            if top_other < 0:
                tricks += mine.bit_count()
            elif _top(mine) > top_other:
                tricks += 1
                ranks |= 1 << (13 * other_suit + _top(mine))
            else:
                continue
            if tricks >= cutoff:
                return True, ranks
        return False, 0

    def _later_tricks(self, leader: int) -> tuple[int, int]:
        """DDS's later-tricks bounds (LaterTricks.cpp): at most how many of the remaining tricks
        the leader's side takes, and the cards (a mask) whose ranks decide it. Without trumps
        (no trump, or none left), a side that holds no suit's best card, or whose best cards
        head suits of at most `sum` cards (the longer hand of the side in each) with `sum`
        short of the tricks left, loses a trick: a best card of the other side decides. With
        trumps, where the other side holds the best trump: all but that trump's trick, or,
        where the leader's side holds no trump, all but the longer hand's trumps of the other
        side (lengths alone decide), or all but two where it also holds the second best trump
        and that card's hand or its partner holds more than one trump."""
        hands = self._hands
        strain = self.strain
        tricks_left = self._tricks_left
        side = leader & 1
        live = hands[0] | hands[1] | hands[2] | hands[3]
        if strain == NO_TRUMP or not holding(live, strain):
            total = 0
            ranks = 0
            for suit in range(4):
                suit_live = holding(live, suit)
                if not suit_live:
                    continue
                best = _top(suit_live)
                owner = next(seat for seat in range(4) if holding(hands[seat], suit) >> best & 1)
                if owner & 1 == side:
                    total += max(
                        holding(hands[owner], suit).bit_count(),
                        holding(hands[owner ^ 2], suit).bit_count(),
                    )
                elif suit_live & ~holding(hands[owner], suit):
                    ranks |= 1 << (13 * suit + best)
            if total < tricks_left:
                return tricks_left - 1, ranks
            return tricks_left, 0
        best = _top(holding(live, strain))
        owner = next(seat for seat in range(4) if holding(hands[seat], strain) >> best & 1)
        if owner & 1 == side:
            return tricks_left, 0
        if not holding(hands[leader] | hands[leader ^ 2], strain):
            longer = max(
                holding(hands[owner], strain).bit_count(),
                holding(hands[owner ^ 2], strain).bit_count(),
            )
            return tricks_left - longer, 0
        trumps = holding(live, strain) ^ 1 << best
        if trumps:
            second = _top(trumps)
            holder = next(seat for seat in range(4) if holding(hands[seat], strain) >> second & 1)
            if holder & 1 != side and (
                holding(hands[holder], strain).bit_count() > 1
                or holding(hands[holder ^ 2], strain).bit_count() > 1
            ):
                return tricks_left - 2, 1 << (13 * strain + second)
        return tricks_left - 1, 1 << (13 * strain + best)

    def _cashable(self, seat: int) -> tuple[int, int, int]:
        """The winners `seat` cashes on lead: how many, which (a mask), and the suits (a
        4-bit mask) with at least one. In each suit its cards above every other hand's,
        at most as many as an opponent holding trumps follows to."""
        hands = self._hands
        strain = self.strain
        others = hands[(seat + 1) & 3] | hands[(seat + 2) & 3] | hands[(seat + 3) & 3]
        ruffers = []
        if strain != NO_TRUMP:
            for opponent in ((seat + 1) & 3, (seat + 3) & 3):
                if holding(hands[opponent], strain):
                    ruffers.append(opponent)
        total = 0
        cards = 0
        suits = 0
        for suit in range(4):
            own = holding(hands[seat], suit)
            if not own:
                continue
            top_other = _top(holding(others, suit))
            winners = (own >> (top_other + 1)).bit_count()
            if suit != strain:
                for opponent in ruffers:
                    winners = min(winners, holding(hands[opponent], suit).bit_count())
            if winners:
                suits |= 1 << suit
            total += winners
            for _ in range(winners):
                top = 1 << _top(own)
                cards |= top << (13 * suit)
                own ^= top
        return total, cards, suits

    # -- moves ---------------------------------------------------------------------------

    def _live(self) -> int:
        """Every card still in play: the four hands and the current trick's cards."""
        hands = self._hands
        live = hands[0] | hands[1] | hands[2] | hands[3]
        for ply in range(self._ply - self._count, self._ply):
            live |= 1 << self._cards[ply]
        return live

    def _groups(self, seat: int, suit: int, live: int) -> list[tuple[int, bool]]:
        """Each run of `seat`'s equivalent cards in `suit`, high first: (its highest card,
        whether the run has more than one card)."""
        own = holding(self._hands[seat], suit)
        others = holding(live, suit) & ~own
        runs: list[tuple[int, bool]] = []
        previous_own = False
        for rank in range(12, -1, -1):
            if own >> rank & 1:
                if previous_own:
                    runs[-1] = (runs[-1][0], True)
                else:
                    runs.append((13 * suit + rank, False))
                previous_own = True
            elif others >> rank & 1:
                previous_own = False
        return runs

    def _equivalents(self, seat: int, card: int) -> list[int]:
        """The cards of `seat` in `card`'s run below it (same value as `card`)."""
        suit, rank = divmod(card, 13)
        own = holding(self._hands[seat], suit)
        others = holding(self._live(), suit) & ~own
        twins = []
        for lower in range(rank - 1, -1, -1):
            if own >> lower & 1:
                twins.append(13 * suit + lower)
            elif others >> lower & 1:
                break
        return twins

    def _top_owners(self, suit: int) -> tuple[int, int, int, int]:
        """The seats holding the suit's best, second and third cards in the hands (-1 for
        none), and the second-best card's rank (-1 for none)."""
        hands = self._hands
        owners = [-1, -1, -1]
        second_rank = -1
        found = 0
        for rank in range(12, -1, -1):
            card = 1 << (13 * suit + rank)
            for seat in range(4):
                if hands[seat] & card:
                    owners[found] = seat
                    if found == 1:
                        second_rank = rank
                    found += 1
                    break
            if found == 3:
                break
        return owners[0], owners[1], owners[2], second_rank

    def _moves(self, seat: int, pos: int) -> list[int]:
        """The seat's legal cards (one per run of equivalent cards), best first: DDS's move
        weights (Moves.cpp), sorted stably, highest weight first."""
        hand = self._hands[seat]
        live = self._live()
        weighted: list[tuple[int, int]] = []
        if pos == 0:
            for suit in range(4):
                if holding(hand, suit):
                    self._lead_weights(seat, suit, live, weighted)
        else:
            lead_suit = self._cards[self._ply - pos] // 13
            if holding(hand, lead_suit):
                self._follow_weights(seat, pos, lead_suit, live, weighted)
            else:
                for suit in range(4):
                    if holding(hand, suit):
                        self._void_weights(seat, pos, suit, live, weighted)
        weighted.sort(key=lambda item: -item[0])
        return [card for _, card in weighted]

    def _lead_weights(
        self, seat: int, suit: int, live: int, weighted: list[tuple[int, int]]
    ) -> None:
        """Leads of `suit` (DDS's WeightAllocNT0, with a ruffing penalty in a suit contract)."""
        hands = self._hands
        strain = self.strain
        lho, partner, rho = (seat + 1) & 3, seat ^ 2, (seat + 3) & 3
        len_lho = holding(hands[lho], suit).bit_count()
        len_rho = holding(hands[rho], suit).bit_count()
        len_partner = holding(hands[partner], suit).bit_count()
        count_lho = (len_lho if len_lho else self._tricks_left + 1) << 2
        count_rho = (len_rho if len_rho else self._tricks_left + 1) << 2
        base = -(((count_lho + count_rho) << 5) // 19)
        if len_partner == 0:
            base -= 9
        if strain != NO_TRUMP and suit != strain:
            for opponent, length in ((lho, len_lho), (rho, len_rho)):
                if length == 0 and holding(hands[opponent], strain):
                    base -= 40
        winner, second, third, second_rank = self._top_owners(suit)
        opponents_top = _top(holding(hands[lho] | hands[rho], suit))
        partner_beats = _top(holding(hands[partner], suit)) > opponents_top
        suit_live = holding(live, suit)
        for card, sequence in self._groups(seat, suit, live):
            rank = card % 13
            relative = 14 - (suit_live >> (rank + 1)).bit_count()
            delta = base
            if (winner == seat and rank == _top(suit_live)) or partner_beats:
                if second == rho:
                    if len_rho != 1:
                        delta -= 1
                elif second == lho:
                    delta += 22 if len_lho != 1 else 16
                if (second != lho or len_lho == 1) and (second != rho or len_rho == 1):
                    weight = delta + 45 + relative
                else:
                    weight = delta + 18 + relative
            else:
                if winner == rho or second == rho:
                    if len_rho != 1:
                        delta -= 10
                elif winner == lho and second == partner and len_partner != 1:
                    delta += 31
                if second == partner and third == partner:
                    delta += 35
                elif len_partner > 1 and (
                    (second == seat and third == partner) or (second == partner and third == seat)
                ):
                    delta += 25
                if (len_lho == 1 and winner == lho) or (len_rho == 1 and winner == rho):
                    weight = delta + 28 + relative
                elif winner == seat:
                    weight = delta - 17 + relative
                elif not sequence:
                    weight = delta + 12 + relative
                elif rank == second_rank:
                    weight = delta + 48
                else:
                    weight = delta + 29 - relative
            weighted.append((weight, card))

    def _follow_weights(
        self, seat: int, pos: int, suit: int, live: int, weighted: list[tuple[int, int]]
    ) -> None:
        """Cards following suit (DDS's WeightAllocNTNotvoid1/2 and CombinedNotvoid3)."""
        hands = self._hands
        ply = self._ply
        lead_rank = self._cards[ply - pos] % 13
        win_card = self._win_card[ply - 1]
        ruffed = win_card // 13 != suit
        partner_wins = self._win_seat[ply - 1] == seat ^ 2
        suit_live = holding(live, suit)
        runs = self._groups(seat, suit, live)
        if pos == 1:
            third = holding(hands[(seat + 1) & 3], suit)
            fourth = holding(hands[seat ^ 2], suit)
            max3rd, max4th = _top(third), _top(fourth)
            min3rd = (third & -third).bit_length() - 1
            min4th = (fourth & -fourth).bit_length() - 1
            for card, sequence in runs:
                rank = card % 13
                relative = 14 - (suit_live >> (rank + 1)).bit_count()
                if ruffed or (max4th > lead_rank and max4th > max3rd):
                    weight = -rank
                elif rank > lead_rank and rank > max3rd:
                    weight = 81 - rank
                elif min3rd > rank or min4th > rank:
                    weight = -3 + relative
                elif rank < lead_rank:
                    weight = -11 + relative
                elif sequence:
                    weight = 10 + relative
                else:
                    weight = 13 - rank
                weighted.append((weight, card))
        elif pos == 2:
            max4th = _top(holding(hands[(seat + 1) & 3], suit))
            win_rank = win_card % 13
            for card, _ in runs:
                rank = card % 13
                if ruffed or (partner_wins and win_rank > max4th):
                    weight = -rank
                elif rank > win_rank and rank > max4th:
                    weight = 60 - rank
                else:
                    weight = -rank
                weighted.append((weight, card))
        else:
            for card, _ in runs:
                rank = card % 13
                losing = partner_wins or ruffed or rank < win_card % 13
                weighted.append((-rank if losing else 30 - rank, card))

    def _void_weights(
        self, seat: int, pos: int, suit: int, live: int, weighted: list[tuple[int, int]]
    ) -> None:
        """Ruffs and discards from `suit` (after DDS's WeightAlloc*Void*)."""
        hand = self._hands[seat]
        length = holding(hand, suit).bit_count()
        partner_wins = self._win_seat[self._ply - 1] == seat ^ 2
        win_card = self._win_card[self._ply - 1]
        if suit == self.strain:
            for card, _ in self._groups(seat, suit, live):
                rank = card % 13
                if partner_wins:
                    weight = -30 - rank
                elif _beats(card, win_card, self.strain):
                    weight = 60 - rank
                else:
                    weight = -40 - rank
                weighted.append((weight, card))
            return
        add = (length << 6) // 30
        winner, second, _, _ = self._top_owners(suit)
        if length == 2 and second == seat:
            add -= 4
        elif length == 1 and winner == seat:
            add -= 6
        for card, _ in self._groups(seat, suit, live):
            weighted.append((add - card % 13, card))


def solve(
    hands: Sequence[int], strain: int, seat_to_play: int, trick: Sequence[tuple[int, int]] = ()
) -> int:
    """Tricks the side of `seat_to_play` takes of the remaining ones with best play."""
    return Solver(strain).solve(hands, seat_to_play, trick)


def solve_cards(
    hands: Sequence[int], strain: int, seat_to_play: int, trick: Sequence[tuple[int, int]] = ()
) -> dict[int, int]:
    """Every legal card of `seat_to_play` -> the tricks its side then takes."""
    return Solver(strain).solve_cards(hands, seat_to_play, trick)


def dd_table(hands: Sequence[int], solver_class: type = Solver) -> list[list[int]]:
    """DDS's table: `[strain][declarer]` -> the declarer's side's tricks (the declarer's left
    hand leads), strains S, H, D, C, NT and declarers N, E, S, W.

    Each strain's four leads share one solver (its table); each lead's search starts from a
    guess: the opposite side's answer for the first lead after the first, then the same side's
    for the last two."""
    table = []
    tricks = hands[0].bit_count()
    for strain in range(5):
        solver = solver_class(strain)
        leads = [solver.solve(hands, 1)]
        leads.append(solver.solve(hands, 2, (), tricks - leads[0]))
        leads.append(solver.solve(hands, 3, (), leads[0]))
        leads.append(solver.solve(hands, 0, (), leads[1]))
        table.append([tricks - won for won in leads])
    return table
