# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The double-dummy search of `solver.py` in C, node for node.

`KernelSolver` is `solver.Solver` compiled: the same null-window searches in the same order
(bisection or steps from a guess), the same quick tricks and later-tricks bounds, the same
winning-rank table entries probed and stored at the same trick boundaries and in the same
order (open-addressing maps that grow and never drop an entry, and each bucket's tops records
in insertion order, so they answer as the Python dicts do; each tops record's filter of its
entries' owners only skips lookups that would find nothing), the same equivalent-card runs
and the same move weights sorted the same stable way, the same polls. Tests check equal
values and equal node counts against the pure-Python solver, which stays the reference.
"""

from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc

from kibitz.engines.dds import solver as _reference


cdef extern from *:
    int leading_zeros "__builtin_clzll"(unsigned long long) nogil
    int trailing_zeros "__builtin_ctzll"(unsigned long long) nogil


cdef long long POLL_NODES = _reference.POLL_NODES


cdef enum:
    NO_TRUMP = 4
    FULL_SUIT = 8191
    MAX_PLIES = 53
    MAX_MOVES = 13


cdef struct Slot:
    uint64_t key[4]
    int a  # a bucket's index in `bucket_list`; an entry's low and high bounds
    int b
    int used


cdef struct Map:
    Slot* slots
    uint64_t capacity  # a power of two, at least twice the slots used
    uint64_t used


cdef struct TopsRecord:
    uint64_t filter[4]  # a bit for each of its entries' owners (`filter_bit`): a probe of
    # owners whose bit is clear skips the entries map (no such entry)
    int tops[4]  # how many of each suit's highest live cards an entry fixes


cdef struct Bucket:
    TopsRecord* records  # in insertion order, side by side in memory: a probe walks them all
    int count
    int room


cdef int map_init(Map* table, uint64_t capacity) noexcept:
    table.slots = <Slot*> calloc(capacity, sizeof(Slot))
    table.capacity = capacity
    table.used = 0
    return table.slots != NULL


cdef Slot* map_find(Map* table, uint64_t* key) noexcept nogil:
    """The key's slot: its own, or the empty one where it would go."""
    cdef uint64_t mask = table.capacity - 1
    cdef uint64_t slot = mix(key) & mask
    cdef Slot* found
    while True:
        found = &table.slots[slot]
        if not found.used or (
            found.key[0] == key[0] and found.key[1] == key[1]
            and found.key[2] == key[2] and found.key[3] == key[3]
        ):
            return found
        slot = (slot + 1) & mask


cdef Slot* map_add(Map* table, uint64_t* key) noexcept:
    """The key's slot, taken (used = 1, a = b = 0) if it was free; NULL without memory."""
    cdef Slot* found = map_find(table, key)
    cdef Slot* old
    cdef uint64_t i, old_capacity
    if found.used:
        return found
    if 2 * (table.used + 1) > table.capacity:
        old = table.slots
        old_capacity = table.capacity
        if not map_init(table, 2 * old_capacity):
            table.slots = old
            table.capacity = old_capacity
            return NULL
        table.used = 0
        for i in range(old_capacity):
            if old[i].used:
                map_find(table, old[i].key)[0] = old[i]
                table.used += 1
        free(old)
        found = map_find(table, key)
    found.key[0] = key[0]
    found.key[1] = key[1]
    found.key[2] = key[2]
    found.key[3] = key[3]
    found.a = found.b = 0
    found.used = 1
    table.used += 1
    return found


cdef TopsRecord* new_record(Bucket* bucket) noexcept:
    """Room for one more tops record, last in `bucket`; NULL without memory."""
    cdef int room = 4 if bucket.room == 0 else 2 * bucket.room
    cdef TopsRecord* grown
    if bucket.count == bucket.room:
        grown = <TopsRecord*> realloc(bucket.records, room * sizeof(TopsRecord))
        if grown == NULL:
            return NULL
        bucket.records = grown
        bucket.room = room
    bucket.count += 1
    return &bucket.records[bucket.count - 1]


cdef inline int popcount(uint64_t bits) noexcept nogil:
    """Set bits, counted in registers (the builtin is a library call without -mpopcnt)."""
    bits = bits - ((bits >> 1) & 0x5555555555555555ULL)
    bits = (bits & 0x3333333333333333ULL) + ((bits >> 2) & 0x3333333333333333ULL)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int> ((bits * 0x0101010101010101ULL) >> 56)


cdef inline int top(uint64_t bits) nogil:
    """The highest set bit's index, -1 for none."""
    if bits == 0:
        return -1
    return 63 - leading_zeros(bits)


cdef inline uint64_t holding(uint64_t hand, int suit) nogil:
    return (hand >> (13 * suit)) & FULL_SUIT


cdef inline bint beats(int card, int best, int strain) nogil:
    cdef int suit = card // 13
    if suit == best // 13:
        return card > best
    return suit == strain


cdef inline int skip_rank(int rank, uint64_t suit_ranks) noexcept nogil:
    """`solver._skip_below`."""
    cdef int lowest = trailing_zeros(suit_ranks) if suit_ranks else 13
    return lowest if rank < lowest else 0


cdef inline bint same_tops(int* a, int* b) noexcept nogil:
    return a[0] == b[0] and a[1] == b[1] and a[2] == b[2] and a[3] == b[3]


cdef inline void entry_owners(uint64_t* key, int* tops, uint32_t* owners, int* counts) noexcept nogil:
    """An entry key's second half: each suit's owners of its tops."""
    key[2] = (<uint64_t> (owners[0] >> (2 * (counts[0] - tops[0])))) | (
        <uint64_t> (owners[1] >> (2 * (counts[1] - tops[1])))) << 32
    key[3] = (<uint64_t> (owners[2] >> (2 * (counts[2] - tops[2])))) | (
        <uint64_t> (owners[3] >> (2 * (counts[3] - tops[3])))) << 32


cdef inline void entry_key(
    uint64_t* key, uint64_t lengths, int leader, int* tops, uint32_t* owners, int* counts
) noexcept nogil:
    """An entry's key: the lengths, the leader and tops, each suit's owners of its tops."""
    key[0] = lengths
    key[1] = <uint64_t> leader | (<uint64_t> tops[0]) << 2 | (<uint64_t> tops[1]) << 6 | (
        <uint64_t> tops[2]) << 10 | (<uint64_t> tops[3]) << 14
    entry_owners(key, tops, owners, counts)


cdef inline int filter_bit(uint64_t* key) noexcept nogil:
    """An entry key's owners hashed to 0..255: its bit in its tops record's filter."""
    return <int> (((key[2] * 0x9E3779B97F4A7C15ULL) ^ (key[3] * 0xC2B2AE3D27D4EB4FULL)) >> 56)


cdef inline uint64_t mix(uint64_t* key) noexcept nogil:
    cdef uint64_t h = key[0] * 0x9E3779B97F4A7C15ULL
    h = (h ^ (h >> 29) ^ key[1]) * 0xC2B2AE3D27D4EB4FULL
    h = (h ^ (h >> 31) ^ key[2]) * 0x165667B19E3779F9ULL
    h = (h ^ (h >> 29) ^ key[3]) * 0x9E3779B97F4A7C15ULL
    return h ^ (h >> 32)


cdef class KernelSolver:
    """`solver.Solver` in C: same methods, same answers, same `nodes`."""

    cdef readonly int strain
    cdef public long long nodes
    cdef public object poll  # asked every `poll_nodes` nodes: True stops (see `Solver.poll`)
    cdef readonly long long poll_nodes
    cdef object poll_error
    cdef long long next_poll
    cdef bint stopped
    cdef uint64_t hands[4]
    cdef int seats[MAX_PLIES]
    cdef int cards[MAX_PLIES]
    cdef int win_card[MAX_PLIES]
    cdef int win_seat[MAX_PLIES]
    cdef int win_low[MAX_PLIES]
    cdef int move_buffer[MAX_PLIES][MAX_MOVES]
    cdef int weight_buffer[MAX_PLIES][MAX_MOVES]
    cdef int ply
    cdef int count
    cdef int leader
    cdef int tricks_left
    cdef int max_side
    cdef Map buckets  # (lengths, leader) -> its index in bucket_list
    cdef Map entries  # (lengths, leader and tops, owners) -> bounds (low, high)
    cdef Bucket* bucket_list
    cdef int buckets_room
    cdef int buckets_used

    def __cinit__(self, int strain, long long poll_nodes=POLL_NODES):
        if not 0 <= strain <= NO_TRUMP:
            raise ValueError(f"strain {strain} is not 0..4")
        self.strain = strain
        self.poll_nodes = max(1, poll_nodes)
        self.next_poll = self.poll_nodes
        self.buckets_room = 1 << 10
        self.bucket_list = <Bucket*> malloc(self.buckets_room * sizeof(Bucket))
        if not (map_init(&self.buckets, 1 << 10) and map_init(&self.entries, 1 << 12)) or self.bucket_list == NULL:
            raise MemoryError()

    def __dealloc__(self):
        cdef int i
        for i in range(self.buckets_used):
            free(self.bucket_list[i].records)
        free(self.buckets.slots)
        free(self.entries.slots)
        free(self.bucket_list)

    @property
    def table_size(self) -> int:
        """Entries stored."""
        return self.entries.used

    # -- public ------------------------------------------------------------------------

    def solve(self, hands, int seat_to_play, trick=(), guess=None) -> int:
        """Tricks the side of `seat_to_play` takes of the remaining ones (current included);
        `guess` orders the searches (`value`)."""
        self._setup(hands, seat_to_play, trick)
        return self.value(guess)

    def solve_cards(self, hands, int seat_to_play, trick=()) -> dict:
        """Every legal card of `seat_to_play` -> the tricks its side then takes."""
        self._setup(hands, seat_to_play, trick)
        cdef int n = self._moves(seat_to_play, self.count)
        cdef int i, card, won, best = -1
        cdef int firsts[MAX_MOVES]
        for i in range(n):
            firsts[i] = self.move_buffer[self.ply][i]
        values = {}
        for i in range(n):
            card = firsts[i]
            won = self._play(card)
            values[card] = won + self.value(None if best < 0 else best - won)
            best = max(best, values[card])
            self._unplay()
        for card, tricks in list(values.items()):
            for twin in self._equivalents(seat_to_play, card):
                values[twin] = tricks
        return dict(sorted(values.items()))

    cpdef int value(self, guess=None):
        """The max side's tricks from the current state by null-window searches: a bisection,
        or DDS's steps from a guess (`Solver.value`)."""
        cdef int low = 0, high = self.tricks_left, target = 0
        cdef bint guided = guess is not None
        cdef uint64_t ranks
        cdef bint found
        if guided:
            target = min(max(<int> guess, 1), high)
        while low < high:
            if not low < target <= high:
                target = (low + high + 1) // 2
            found = self._search(target, &ranks)
            if self.stopped:
                if self.poll_error is not None:
                    error, self.poll_error = self.poll_error, None
                    raise error
                raise _reference.SearchStopped(f"stopped after {self.nodes} nodes")
            if found:
                low = target
                target = target + 1 if guided else 0
            else:
                high = target - 1
                target = target - 1 if guided else 0
        return low

    cdef bint _poll(self) noexcept:
        """The poll's answer; an exception it raises stops the search and is raised again
        by `value`."""
        if self.poll is None:
            return False
        try:
            return bool(self.poll())
        except BaseException as error:
            self.poll_error = error
            return True

    # -- state ---------------------------------------------------------------------------

    def _setup(self, hands, int seat_to_play, trick) -> None:
        _reference.check_position(hands, seat_to_play, trick)
        self.stopped = False
        cdef int seat
        for seat in range(4):
            self.hands[seat] = hands[seat]
        self.ply = 0
        self.count = 0
        self.max_side = seat_to_play & 1
        self.tricks_left = popcount(self.hands[seat_to_play])
        self.leader = (seat_to_play - len(trick)) % 4
        for seat, card in trick:
            self._push(seat, card, card)

    cdef void _push(self, int seat, int card, int low) noexcept:
        cdef int ply = self.ply
        self.seats[ply] = seat
        self.cards[ply] = card
        if self.count == 0 or beats(card, self.win_card[ply - 1], self.strain):
            self.win_card[ply] = card
            self.win_seat[ply] = seat
            self.win_low[ply] = low
        else:
            self.win_card[ply] = self.win_card[ply - 1]
            self.win_seat[ply] = self.win_seat[ply - 1]
            self.win_low[ply] = self.win_low[ply - 1]
        self.ply = ply + 1
        self.count += 1

    cdef int _play(self, int card) noexcept:
        cdef int seat = (self.leader + self.count) & 3
        cdef int winner, low = self._run_low(seat, card)
        self.hands[seat] &= ~((<uint64_t> 1) << card)
        self._push(seat, card, low)
        if self.count < 4:
            return 0
        winner = self.win_seat[self.ply - 1]
        self.count = 0
        self.leader = winner
        self.tricks_left -= 1
        return 1 if (winner & 1) == self.max_side else 0

    cdef void _unplay(self) noexcept:
        if self.count == 0:
            self.count = 4
            self.tricks_left += 1
            self.leader = self.seats[self.ply - 4]
        self.count -= 1
        self.ply -= 1
        self.hands[self.seats[self.ply]] |= (<uint64_t> 1) << self.cards[self.ply]

    # -- search --------------------------------------------------------------------------

    cdef bint _search(self, int need, uint64_t* ranks) noexcept:
        cdef int tricks_left, pos, leader, seat, quick, most, low, high, n, i, won, ply, bit
        cdef int card, suit
        cdef int skip_below[4]
        cdef bint leading_max, maximising, result, found, shaped = False
        cdef TopsRecord* tops_record
        cdef TopsRecord* records_end
        cdef uint64_t lengths = 0, child_ranks, by_rank
        cdef uint64_t key[4]
        cdef uint32_t owners[4]
        cdef int counts[4]
        cdef Slot* slot
        self.nodes += 1
        ranks[0] = 0
        if self.nodes >= self.next_poll:
            self.next_poll += self.poll_nodes
            self.stopped = self.stopped or self._poll()
        if self.stopped:
            return False
        if need <= 0:
            return True
        tricks_left = self.tricks_left
        if need > tricks_left:
            return False
        pos = self.count
        leader = self.leader
        seat = (leader + pos) & 3
        leading_max = (leader & 1) == self.max_side
        if pos == 0:
            if tricks_left == 1:
                return (self._last_trick(ranks) & 1) == self.max_side
            quick = self._quick_tricks(leader, ranks)
            if leading_max and quick >= need:
                return True
            if not leading_max and tricks_left - quick < need:
                return False
            most = self._later_tricks(leader, ranks)
            if leading_max and most < need:
                return False
            if not leading_max and tricks_left - most >= need:
                return True
            ranks[0] = 0
            lengths = self._shape(owners, counts)
            shaped = True
            key[0] = lengths
            key[1] = leader
            key[2] = key[3] = 0
            slot = map_find(&self.buckets, key)
            if slot.used:
                tops_record = self.bucket_list[slot.a].records
                records_end = tops_record + self.bucket_list[slot.a].count
            else:
                tops_record = records_end = NULL
            while tops_record != records_end:
                entry_owners(key, tops_record.tops, owners, counts)
                bit = filter_bit(key)
                if tops_record.filter[bit >> 6] >> (bit & 63) & 1:
                    entry_key(key, lengths, leader, tops_record.tops, owners, counts)
                    slot = map_find(&self.entries, key)
                else:
                    slot = NULL
                if slot != NULL and slot.used:
                    if leading_max:
                        low = slot.a
                        high = slot.b
                    else:
                        low = tricks_left - slot.b
                        high = tricks_left - slot.a
                    if low >= need or high < need:
                        ranks[0] = self._top_cards(tops_record.tops)
                        return low >= need
                tops_record += 1
        maximising = (seat & 1) == self.max_side
        if pos == 1 and self._second_hand_tricks(
            seat, need if maximising else tricks_left - need + 1, ranks
        ):
            return maximising
        result = not maximising
        ply = self.ply
        n = self._moves(seat, pos)
        skip_below[0] = skip_below[1] = skip_below[2] = skip_below[3] = 0
        for i in range(n):
            card = self.move_buffer[ply][i]
            suit = card // 13
            if card % 13 < skip_below[suit]:
                continue
            won = self._play(card)
            by_rank = self._rank_win() if self.count == 0 else 0
            found = self._search(need - won, &child_ranks)
            self._unplay()
            if found == maximising:
                result = maximising
                ranks[0] = child_ranks | by_rank
                break
            ranks[0] |= child_ranks | by_rank
            if not skip_below[suit]:
                skip_below[suit] = skip_rank(card % 13, holding(ranks[0], suit))
        if shaped and not self.stopped:
            self._store(lengths, leader, owners, counts, ranks[0], need, result, leading_max, tricks_left)
        return result

    cdef void _store(
        self,
        uint64_t lengths,
        int leader,
        uint32_t* owners,
        int* counts,
        uint64_t ranks,
        int need,
        bint result,
        bint leading_max,
        int tricks_left,
    ) noexcept:
        """Narrows the leader's side's bounds, in the entry for the cards down to each suit's
        lowest winning rank, by one search's answer (nothing is stored without memory)."""
        cdef uint64_t live = self._live(), suit_ranks
        cdef uint64_t key[4]
        cdef int tops[4]
        cdef int suit, bit, i
        cdef Slot* slot
        cdef Slot* entry
        cdef Bucket* bucket
        cdef TopsRecord* record = NULL
        for suit in range(4):
            suit_ranks = holding(ranks, suit)
            tops[suit] = popcount(holding(live, suit) >> trailing_zeros(suit_ranks)) if suit_ranks else 0
        key[0] = lengths
        key[1] = leader
        key[2] = key[3] = 0
        slot = map_find(&self.buckets, key)
        if not slot.used:
            bucket = self._new_bucket()
            if bucket == NULL:
                return
            slot = map_add(&self.buckets, key)
            if slot == NULL:
                return
            slot.a = self.buckets_used - 1
        bucket = &self.bucket_list[slot.a]
        for i in range(bucket.count):
            if same_tops(bucket.records[i].tops, tops):
                record = &bucket.records[i]
                break
        if record == NULL:  # a new tops record, last in its bucket
            record = new_record(bucket)
            if record == NULL:
                return
            for suit in range(4):
                record.tops[suit] = tops[suit]
                record.filter[suit] = 0
        entry_key(key, lengths, leader, tops, owners, counts)
        entry = map_find(&self.entries, key)
        if not entry.used:
            entry = map_add(&self.entries, key)
            if entry == NULL:
                return
            entry.a = 0
            entry.b = tricks_left
            bit = filter_bit(key)
            record.filter[bit >> 6] |= (<uint64_t> 1) << (bit & 63)
        if result:
            if leading_max:
                entry.a = max(entry.a, need)
            else:
                entry.b = min(entry.b, tricks_left - need)
        elif leading_max:
            entry.b = min(entry.b, need - 1)
        else:
            entry.a = max(entry.a, tricks_left - need + 1)

    cdef Bucket* _new_bucket(self) noexcept:
        """An empty bucket, last in `bucket_list`; NULL without memory."""
        cdef Bucket* grown
        if self.buckets_used == self.buckets_room:
            grown = <Bucket*> realloc(self.bucket_list, 2 * self.buckets_room * sizeof(Bucket))
            if grown == NULL:
                return NULL
            self.bucket_list = grown
            self.buckets_room *= 2
        grown = &self.bucket_list[self.buckets_used]
        grown.records = NULL
        grown.count = grown.room = 0
        self.buckets_used += 1
        return grown

    cdef uint64_t _shape(self, uint32_t* owners, int* counts) noexcept:
        """Every hand's suit lengths (the key, leader aside); fills each suit's owners of its
        live cards, high first, two bits a card, and each suit's live card count."""
        cdef uint64_t lengths = 0, card, live_suit
        cdef uint64_t live = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        cdef int seat, suit
        for seat in range(4):
            for suit in range(4):
                lengths = lengths << 4 | popcount(holding(self.hands[seat], suit))
        for suit in range(4):
            owners[suit] = 0
            counts[suit] = 0
            live_suit = holding(live, suit)
            while live_suit:
                card = (<uint64_t> 1) << (13 * suit + top(live_suit))
                seat = 0
                while not self.hands[seat] & card:
                    seat += 1
                owners[suit] = owners[suit] << 2 | seat
                counts[suit] += 1
                live_suit &= ~(card >> (13 * suit))
        return lengths

    cdef uint64_t _top_cards(self, int* tops) noexcept:
        cdef uint64_t live = self._live(), cards = 0, suit_live, top_bit
        cdef int suit, i
        for suit in range(4):
            suit_live = holding(live, suit)
            for i in range(tops[suit]):
                top_bit = (<uint64_t> 1) << top(suit_live)
                cards |= top_bit << (13 * suit)
                suit_live ^= top_bit
        return cards

    cdef uint64_t _rank_win(self) noexcept:
        cdef int start = self.ply - 4, best = self.win_card[self.ply - 1], ply, card
        for ply in range(start, start + 4):
            card = self.cards[ply]
            if card != best and card // 13 == best // 13:
                return (<uint64_t> 1) << self.win_low[self.ply - 1]
        return 0

    cdef int _last_trick(self, uint64_t* ranks) noexcept:
        cdef int leader = self.leader, best_seat = leader, offset, seat, card
        cdef int best = top(self.hands[leader])
        for offset in range(1, 4):
            seat = (leader + offset) & 3
            card = top(self.hands[seat])
            if beats(card, best, self.strain):
                best = card
                best_seat = seat
        ranks[0] = 0
        for seat in range(4):
            card = top(self.hands[seat])
            if seat != best_seat and card // 13 == best // 13:
                ranks[0] = (<uint64_t> 1) << best
                break
        return best_seat

    cdef int _quick_tricks(self, int leader, uint64_t* ranks) noexcept:
        cdef uint64_t partner_ranks
        cdef int entries, suit
        cdef int total = self._cashable(leader, ranks, &entries)
        cdef int partner_total = self._cashable(leader ^ 2, &partner_ranks, &entries)
        if partner_total > total:
            for suit in range(4):
                if entries >> suit & 1 and holding(self.hands[leader], suit):
                    ranks[0] = partner_ranks
                    return partner_total
        return total

    cdef inline int _holder(self, int suit, int rank) noexcept:
        """The seat holding `suit`'s card of `rank` (a card in a hand)."""
        cdef int seat
        for seat in range(3):
            if holding(self.hands[seat], suit) >> rank & 1:
                return seat
        return 3

    cdef int _later_tricks(self, int leader, uint64_t* ranks) noexcept:
        """At most how many of the remaining tricks the leader's side takes (DDS's later
        tricks, `Solver._later_tricks`); fills the cards whose ranks decide it (a mask)."""
        cdef uint64_t live = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        cdef uint64_t suit_live, trumps
        cdef int side = leader & 1, total = 0, suit, best, owner, longer, second
        ranks[0] = 0
        if self.strain == NO_TRUMP or not holding(live, self.strain):
            for suit in range(4):
                suit_live = holding(live, suit)
                if not suit_live:
                    continue
                best = top(suit_live)
                owner = self._holder(suit, best)
                if (owner & 1) == side:
                    total += max(
                        popcount(holding(self.hands[owner], suit)),
                        popcount(holding(self.hands[owner ^ 2], suit)),
                    )
                elif suit_live & ~holding(self.hands[owner], suit):
                    ranks[0] |= (<uint64_t> 1) << (13 * suit + best)
            if total < self.tricks_left:
                return self.tricks_left - 1
            ranks[0] = 0
            return self.tricks_left
        best = top(holding(live, self.strain))
        owner = self._holder(self.strain, best)
        if (owner & 1) == side:
            return self.tricks_left
        if not holding(self.hands[leader] | self.hands[leader ^ 2], self.strain):
            longer = max(
                popcount(holding(self.hands[owner], self.strain)),
                popcount(holding(self.hands[owner ^ 2], self.strain)),
            )
            return self.tricks_left - longer
        trumps = holding(live, self.strain) ^ ((<uint64_t> 1) << best)
        if trumps:
            second = top(trumps)
            owner = self._holder(self.strain, second)
            if (owner & 1) != side and (
                popcount(holding(self.hands[owner], self.strain)) > 1
                or popcount(holding(self.hands[owner ^ 2], self.strain)) > 1
            ):
                ranks[0] = (<uint64_t> 1) << (13 * self.strain + second)
                return self.tricks_left - 2
        ranks[0] = (<uint64_t> 1) << (13 * self.strain + best)
        return self.tricks_left - 1

    cdef bint _second_hand_tricks(self, int seat, int cutoff, uint64_t* ranks) noexcept:
        """`Solver._second_hand_tricks`; fills the winning ranks where it answers True."""
        cdef int partner = seat ^ 2, third = (seat + 1) & 3
        cdef int suit = self.cards[self.ply - 1] // 13, lead_rank = self.cards[self.ply - 1] % 13
        cdef int winner, best, second, other_suit, top_other, tricks = 1
        cdef uint64_t own = holding(self.hands[seat], suit) | holding(self.hands[partner], suit)
        cdef uint64_t found = 0, others, live, mine
        cdef bint suit_contract = self.strain != NO_TRUMP and suit != self.strain
        cdef bint third_ruffs = suit_contract and holding(self.hands[third], self.strain) and not holding(
            self.hands[third], suit
        )
        if suit_contract and (
            (not holding(self.hands[seat], suit) and holding(self.hands[seat], self.strain))
            or (not holding(self.hands[partner], suit) and holding(self.hands[partner], self.strain))
        ):
            if third_ruffs:
                return False
        elif own and top(own) > max(lead_rank, top(holding(self.hands[third], suit))):
            if third_ruffs:
                return False
            found = (<uint64_t> 1) << (13 * suit + top(own))
        else:
            return False
        if tricks >= cutoff:
            ranks[0] = found
            return True
        if self.strain != NO_TRUMP:
            return False
        winner = seat if holding(self.hands[seat], suit) > holding(self.hands[partner], suit) else partner
        others = self.hands[(winner + 1) & 3] | self.hands[(winner + 2) & 3] | self.hands[(winner + 3) & 3]
        live = holding(self._live(), suit)
        best = top(live)
        second = top(live ^ ((<uint64_t> 1) << best))
        mine = holding(self.hands[winner], suit)
        if second >= 0 and (mine >> second) & 1 and (mine >> best) & 1:
            tricks += 1
            found |= (<uint64_t> 1) << (13 * suit + second)
            if tricks >= cutoff:
                ranks[0] = found
                return True
        for other_suit in range(4):
            mine = holding(self.hands[winner], other_suit)
            if other_suit == suit or not mine:
                continue
            top_other = top(holding(others, other_suit))
            if top_other < 0:
                tricks += popcount(mine)
            elif top(mine) > top_other:
                tricks += 1
                found |= (<uint64_t> 1) << (13 * other_suit + top(mine))
            else:
                continue
            if tricks >= cutoff:
                ranks[0] = found
                return True
        return False

    cdef int _cashable(self, int seat, uint64_t* ranks, int* suits) noexcept:
        """The winners `seat` cashes on lead: how many; fills which (a mask) and the suits
        with at least one (a 4-bit mask)."""
        cdef uint64_t others = (
            self.hands[(seat + 1) & 3] | self.hands[(seat + 2) & 3] | self.hands[(seat + 3) & 3]
        )
        cdef int ruffers[2]
        cdef int n_ruffers = 0, opponent, suit, winners, total = 0, i, length
        cdef uint64_t own, top_bit
        ranks[0] = 0
        suits[0] = 0
        if self.strain != NO_TRUMP:
            for opponent in ((seat + 1) & 3, (seat + 3) & 3):
                if holding(self.hands[opponent], self.strain):
                    ruffers[n_ruffers] = opponent
                    n_ruffers += 1
        for suit in range(4):
            own = holding(self.hands[seat], suit)
            if not own:
                continue
            winners = popcount(own >> (top(holding(others, suit)) + 1))
            if suit != self.strain:
                for i in range(n_ruffers):
                    length = popcount(holding(self.hands[ruffers[i]], suit))
                    if length < winners:
                        winners = length
            if winners:
                suits[0] |= 1 << suit
            total += winners
            for i in range(winners):
                top_bit = (<uint64_t> 1) << top(own)
                ranks[0] |= top_bit << (13 * suit)
                own ^= top_bit
        return total

    # -- moves ---------------------------------------------------------------------------

    cdef uint64_t _live(self) noexcept:
        cdef uint64_t live = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        cdef int ply
        for ply in range(self.ply - self.count, self.ply):
            live |= (<uint64_t> 1) << self.cards[ply]
        return live

    cdef int _run_low(self, int seat, int card) noexcept:
        """The lowest card of `card`'s run of equivalent cards in `seat`'s hand."""
        cdef int suit = card // 13, rank = card % 13, lower, low = card
        cdef uint64_t own = holding(self.hands[seat], suit)
        cdef uint64_t others = holding(self._live(), suit) & ~own
        for lower in range(rank - 1, -1, -1):
            if own >> lower & 1:
                low = 13 * suit + lower
            elif others >> lower & 1:
                break
        return low

    def _equivalents(self, int seat, int card) -> list:
        cdef int suit = card // 13, rank = card % 13, lower
        cdef uint64_t own = holding(self.hands[seat], suit)
        cdef uint64_t others = holding(self._live(), suit) & ~own
        twins = []
        for lower in range(rank - 1, -1, -1):
            if own >> lower & 1:
                twins.append(13 * suit + lower)
            elif others >> lower & 1:
                break
        return twins

    cdef int _runs(self, int seat, int suit, uint64_t live, int* heads, bint* sequences) noexcept:
        """Each run of `seat`'s equivalent cards in `suit`, high first: its highest card and
        whether it has more than one card; returns how many runs."""
        cdef uint64_t own = holding(self.hands[seat], suit)
        cdef uint64_t others = holding(live, suit) & ~own
        cdef int n = 0, rank
        cdef bint previous_own = False
        for rank in range(12, -1, -1):
            if own >> rank & 1:
                if previous_own:
                    sequences[n - 1] = True
                else:
                    heads[n] = 13 * suit + rank
                    sequences[n] = False
                    n += 1
                previous_own = True
            elif others >> rank & 1:
                previous_own = False
        return n

    cdef void _top_owners(self, int suit, int* owners) noexcept:
        """owners[0..2]: the seats with the suit's best three cards; owners[3]: the second
        best card's rank (-1 for none)."""
        cdef int found = 0, rank
        cdef uint64_t live = holding(self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3], suit)
        owners[0] = owners[1] = owners[2] = owners[3] = -1
        while live and found < 3:
            rank = top(live)
            owners[found] = self._holder(suit, rank)
            if found == 1:
                owners[3] = rank
            found += 1
            live ^= (<uint64_t> 1) << rank

    cdef int _moves(self, int seat, int pos) noexcept:
        """Fills the ply's move buffer with the legal cards, best first; returns how many."""
        cdef uint64_t hand = self.hands[seat], live = self._live()
        cdef int ply = self.ply, n = 0, suit, lead_suit, i, j, weight, card
        cdef int* moves = self.move_buffer[ply]
        cdef int* weights = self.weight_buffer[ply]
        if pos == 0:
            for suit in range(4):
                if holding(hand, suit):
                    n = self._lead_weights(seat, suit, live, moves, weights, n)
        else:
            lead_suit = self.cards[ply - pos] // 13
            if holding(hand, lead_suit):
                n = self._follow_weights(seat, pos, lead_suit, live, moves, weights, n)
            else:
                for suit in range(4):
                    if holding(hand, suit):
                        n = self._void_weights(seat, suit, live, moves, weights, n)
        for i in range(1, n):  # a stable insertion sort, highest weight first
            card = moves[i]
            weight = weights[i]
            j = i
            while j > 0 and weights[j - 1] < weight:
                moves[j] = moves[j - 1]
                weights[j] = weights[j - 1]
                j -= 1
            moves[j] = card
            weights[j] = weight
        return n

    cdef int _lead_weights(self, int seat, int suit, uint64_t live, int* moves, int* weights, int n) noexcept:
        cdef int lho = (seat + 1) & 3, partner = seat ^ 2, rho = (seat + 3) & 3
        cdef int len_lho = popcount(holding(self.hands[lho], suit))
        cdef int len_rho = popcount(holding(self.hands[rho], suit))
        cdef int len_partner = popcount(holding(self.hands[partner], suit))
        cdef int count_lho = (len_lho if len_lho else self.tricks_left + 1) << 2
        cdef int count_rho = (len_rho if len_rho else self.tricks_left + 1) << 2
        cdef int base = -(((count_lho + count_rho) << 5) // 19)
        cdef int owners[4]
        cdef int heads[MAX_MOVES]
        cdef bint sequences[MAX_MOVES]
        cdef int runs, i, card, rank, relative, delta, weight, winner, second, third, second_rank
        cdef bint partner_beats
        cdef uint64_t suit_live = holding(live, suit)
        if len_partner == 0:
            base -= 9
        if self.strain != NO_TRUMP and suit != self.strain:
            if len_lho == 0 and holding(self.hands[lho], self.strain):
                base -= 40
            if len_rho == 0 and holding(self.hands[rho], self.strain):
                base -= 40
        self._top_owners(suit, owners)
        winner = owners[0]
        second = owners[1]
        third = owners[2]
        second_rank = owners[3]
        partner_beats = top(holding(self.hands[partner], suit)) > top(
            holding(self.hands[lho] | self.hands[rho], suit)
        )
        runs = self._runs(seat, suit, live, heads, sequences)
        for i in range(runs):
            card = heads[i]
            rank = card % 13
            relative = 14 - popcount(suit_live >> (rank + 1))
            delta = base
            if (winner == seat and rank == top(suit_live)) or partner_beats:
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
                elif winner == lho and second == partner:
                    if len_partner != 1:
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
                elif not sequences[i]:
                    weight = delta + 12 + relative
                elif rank == second_rank:
                    weight = delta + 48
                else:
                    weight = delta + 29 - relative
            moves[n] = card
            weights[n] = weight
            n += 1
        return n

    cdef int _follow_weights(self, int seat, int pos, int suit, uint64_t live, int* moves, int* weights, int n) noexcept:
        cdef int ply = self.ply
        cdef int lead_rank = self.cards[ply - pos] % 13
        cdef int win_card = self.win_card[ply - 1]
        cdef bint ruffed = win_card // 13 != suit
        cdef bint partner_wins = self.win_seat[ply - 1] == (seat ^ 2)
        cdef uint64_t suit_live = holding(live, suit), third, fourth
        cdef int heads[MAX_MOVES]
        cdef bint sequences[MAX_MOVES]
        cdef int runs = self._runs(seat, suit, live, heads, sequences)
        cdef int i, card, rank, relative, weight, max3rd, max4th, min3rd, min4th, win_rank
        if pos == 1:
            third = holding(self.hands[(seat + 1) & 3], suit)
            fourth = holding(self.hands[seat ^ 2], suit)
            max3rd = top(third)
            max4th = top(fourth)
            min3rd = trailing_zeros(third) if third else -1
            min4th = trailing_zeros(fourth) if fourth else -1
            for i in range(runs):
                card = heads[i]
                rank = card % 13
                relative = 14 - popcount(suit_live >> (rank + 1))
                if ruffed:
                    weight = -rank
                elif max4th > lead_rank and max4th > max3rd:
                    weight = -rank
                elif rank > lead_rank and rank > max3rd:
                    weight = 81 - rank
                elif min3rd > rank or min4th > rank:
                    weight = -3 + relative
                elif rank < lead_rank:
                    weight = -11 + relative
                elif sequences[i]:
                    weight = 10 + relative
                else:
                    weight = 13 - rank
                moves[n] = card
                weights[n] = weight
                n += 1
        elif pos == 2:
            max4th = top(holding(self.hands[(seat + 1) & 3], suit))
            win_rank = win_card % 13
            for i in range(runs):
                card = heads[i]
                rank = card % 13
                if ruffed or (partner_wins and win_rank > max4th):
                    weight = -rank
                elif rank > win_rank and rank > max4th:
                    weight = 60 - rank
                else:
                    weight = -rank
                moves[n] = card
                weights[n] = weight
                n += 1
        else:
            for i in range(runs):
                card = heads[i]
                rank = card % 13
                if partner_wins or ruffed or rank < win_card % 13:
                    weight = -rank
                else:
                    weight = 30 - rank
                moves[n] = card
                weights[n] = weight
                n += 1
        return n

    cdef int _void_weights(self, int seat, int suit, uint64_t live, int* moves, int* weights, int n) noexcept:
        cdef int length = popcount(holding(self.hands[seat], suit))
        cdef bint partner_wins = self.win_seat[self.ply - 1] == (seat ^ 2)
        cdef int win_card = self.win_card[self.ply - 1]
        cdef int heads[MAX_MOVES]
        cdef bint sequences[MAX_MOVES]
        cdef int runs = self._runs(seat, suit, live, heads, sequences)
        cdef int owners[4]
        cdef int i, card, rank, weight, add
        if suit == self.strain:
            for i in range(runs):
                card = heads[i]
                rank = card % 13
                if partner_wins:
                    weight = -30 - rank
                elif beats(card, win_card, self.strain):
                    weight = 60 - rank
                else:
                    weight = -40 - rank
                moves[n] = card
                weights[n] = weight
                n += 1
            return n
        add = (length << 6) // 30
        self._top_owners(suit, owners)
        if length == 2 and owners[1] == seat:
            add -= 4
        elif length == 1 and owners[0] == seat:
            add -= 6
        for i in range(runs):
            moves[n] = heads[i]
            weights[n] = add - heads[i] % 13
            n += 1
        return n
