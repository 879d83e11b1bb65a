# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""Backgammon's move generation and evaluation in C, for the expectimax engine's kernel.

`plays` repeats `board.plays` play for play (the same plays in the same order) and
`pre_roll_equity` repeats `evaluation.pre_roll_equity` bit for bit (the same operations in
the same order on doubles, with the C library's `exp` that Python's `math.exp` calls, and
no contraction of a product and a sum into one instruction: setup.py builds it with
``-ffp-contract=off``); the tables of weights are read from `evaluation.py` at import. The
pure-Python modules stay the reference the tests hold this one to.

For the search (`kibitz/engines/expectimax/kernel.py`), on a `Backgammon` state: `moves`
(the decision node's plays, or the pass), `estimate` (`expected_return(0)`), `decide` (the
alpha-beta of a decision node one decision above the leaves) and `chance` (Star1/Star2 at
a chance node above those, the table probed and stored through its Python interface), each
in one call: no play, undo or evaluation in Python.

Plays are found as `board._extend` finds them, depth first over the dice, each recorded
under its resulting position in an open-addressing table that keeps the order in which
positions were first reached. The table cannot fill: a roll records at most 23,750 plays
(a double's plays take their steps from sources that never increase: at most C(28, 4) +
C(27, 3) + C(26, 2) + 25 sequences of 4, 3, 2 and 1 of the 25 sources; two dice at most
2 x 25 x 25 + 2 x 25). The table and the position being searched are the module's own:
one thread at a time (a search runs in one; every call reloads the position it works on
after calling back into Python).

With a bear-off database on the state (`Backgammon.bearoff`), the estimate of two sides
both home is `BearoffDatabase.race_chances`'s, summed in the same order from the database's
own arrays, rows found by the same `bearoff.position_index` (a binomial table here); each
call takes the state's database (`_use`), so the database, like the position, is the
module's for the call.

With a TD network on the state (`Backgammon.network`, expectimax's option Evaluation
network), the estimate is `network.Network.outputs`'s everywhere the game and the database
leave it open: the 198 inputs of `network.encode` (and its 6 contact features for a network
that takes them, `_contact_features` here), one hidden layer summed over the inputs that
are not zero (about 30 of them) from the network's own arrays, each call taking the
state's network as it takes the database (`_use_network`). The sums run in another order
than numpy's matrix product, so a value may differ from `evaluation.pre_roll_equity`'s in
its last bits (the tests hold it to 1e-12).

For the training (`training.py`), `td_game` plays one game of TD(lambda) self-play, the
network's arrays trained in place: `training.self_play_game` with the moves generated,
the afterstates valued and the eligibility traces kept in C. For the fitted targets
(`fitting.py`), `game_positions` plays a game (its first plays at random, then greedily by
the network) and keeps its positions, and `roll_outputs` values positions by the network's
1-ply expectation over the 21 rolls: `fitting.play_positions` and `fitting.one_ply_outputs`
in C.
"""

from libc.math cimport exp, sqrt
from libc.stdlib cimport calloc, free
from libc.string cimport memcmp, memcpy

import builtins
import math

from kibitz.games.backgammon import evaluation
from kibitz.games.backgammon.board import start_side
from kibitz.games.backgammon.game import OUTCOMES

cdef enum:
    BAR = 24
    OFF = -1
    BLOCKED = -2
    CHECKERS = 15
    MOST = 32768  # plays of one roll at most (23,750: see the module docstring)
    SLOTS = 65536  # the table's slots (a power of two, twice MOST)
    INPUTS = 198  # Tesauro's inputs (`network.encode`)
    FEATURES = 6  # the contact features after them, for a network that takes them
    INPUTS_MOST = INPUTS + FEATURES
    HIDDEN_MOST = 4096  # hidden units of a network the kernel takes, at most


cdef struct Found:
    signed char me[25]
    signed char opp[25]
    signed char steps[8]  # (source, target) per die played
    int length


cdef Found _found[MOST]
cdef int _count
cdef int _slot[SLOTS]  # an index into _found, valid where _stamp says this call wrote it
cdef unsigned int _stamp[SLOTS]
cdef unsigned int _call = 0

cdef int _me[25]
cdef int _opp[25]
cdef int _dice[4]
cdef int _dice_count
cdef bint _doubles
cdef signed char _steps[8]

cdef double _contact[24][31]
cdef double _race[24][31]
cdef double _blot[24]
cdef double _contact_weights[122]
cdef double _race_weights[122]
cdef double _race_win[6]
cdef double _contact_win[6]
cdef double _race_gammon[6]
cdef double _contact_gammon[6]
cdef double _race_backgammon[7]
cdef double _contact_backgammon[7]

cdef int _binomial[21][7]  # C(n, k): `bearoff.position_index` of up to 15 checkers
cdef object _database = None  # the bear-off database in use (holds its arrays), or None
cdef int _database_checkers = 0  # its checkers per side; 0 without one
cdef int _length = 0  # its distributions' length
cdef int _first_start = 0  # the row of its first position of all its checkers
cdef const double* _off = NULL
cdef const double* _first = NULL

cdef object _network = None  # the TD network in use (holds its arrays), or None
cdef tuple _network_arrays = ()  # the arrays read from it, to see when it is given new ones
cdef int _hidden = 0  # its hidden units; 0 without one
cdef int _inputs = INPUTS  # its inputs: INPUTS, or INPUTS_MOST with the contact features
cdef const double* _w1 = NULL  # (_inputs, hidden): a row per input
cdef const double* _b1 = NULL
cdef const double* _w2 = NULL  # (5, hidden): a row per output
cdef const double* _b2 = NULL
cdef double _activations[HIDDEN_MOST]


cdef void _load_tables():
    cdef int index, n
    for index in range(24):
        for n in range(31):
            _contact[index][n] = evaluation._CONTACT_TABLES[index][n]
            _race[index][n] = evaluation._RACE_TABLES[index][n]
        _blot[index] = evaluation._BLOT[index]
    for n in range(122):
        _contact_weights[n] = evaluation.CONTACT_WEIGHTS[n]
        _race_weights[n] = evaluation.RACE_WEIGHTS[n]
    for n in range(6):
        _race_win[n] = evaluation.RACE_WIN[n]
        _contact_win[n] = evaluation.CONTACT_WIN[n]
        _race_gammon[n] = evaluation.RACE_GAMMON[n]
        _contact_gammon[n] = evaluation.CONTACT_GAMMON[n]
    for n in range(7):
        _race_backgammon[n] = evaluation.RACE_BACKGAMMON[n]
        _contact_backgammon[n] = evaluation.CONTACT_BACKGAMMON[n]
    for index in range(21):
        for n in range(7):
            _binomial[index][n] = math.comb(index, n)


_load_tables()

_STEPS = tuple(
    tuple((source, target) for target in range(-1, 24)) for source in range(25)
)
"""Every step's tuple, made once: ``_STEPS[source][target + 1]``."""
PASS = ()


# -- move generation ------------------------------------------------------------------------------


cdef inline int _target(int source, int die):
    """`board.step_target` on `_me`/`_opp`: the target, or BLOCKED."""
    cdef int target = source - die, index
    if target >= 0:
        return target if _opp[23 - target] < 2 else BLOCKED
    for index in range(6, 25):  # not all home
        if _me[index]:
            return BLOCKED
    if target == OFF:
        return OFF
    for index in range(source + 1, 6):  # a higher die bears off from the highest point only
        if _me[index]:
            return BLOCKED
    return OFF


cdef void _record(int length):
    """Keep the play in `_steps` under its resulting position (the longer of two)."""
    global _count
    cdef unsigned long long key = 1469598103934665603ULL
    cdef int index, slot, found
    cdef signed char me[25]
    cdef signed char opp[25]
    cdef Found* entry
    for index in range(25):
        me[index] = <signed char>_me[index]
        opp[index] = <signed char>_opp[index]
        key = (key ^ <unsigned long long>(_me[index] * 16 + _opp[index])) * 1099511628211ULL
    slot = <int>(key ^ (key >> 29)) & (SLOTS - 1)
    while _stamp[slot] == _call:
        entry = &_found[_slot[slot]]
        if memcmp(entry.me, me, 25) == 0 and memcmp(entry.opp, opp, 25) == 0:
            if entry.length < length:
                entry.length = length
                memcpy(entry.steps, _steps, 8)
            return
        slot = (slot + 1) & (SLOTS - 1)
    found = _count
    _count += 1
    _stamp[slot] = _call
    _slot[slot] = found
    entry = &_found[found]
    memcpy(entry.me, me, 25)
    memcpy(entry.opp, opp, 25)
    memcpy(entry.steps, _steps, 8)
    entry.length = length


cdef void _extend(int used, int highest):
    """`board._extend` on `_me`/`_opp` with the dice `_dice`."""
    cdef int die, source, target, top
    cdef bint moved = False, hit
    if used < _dice_count:
        die = _dice[used]
        if _me[BAR]:
            source, top = BAR, BAR
        else:
            top = highest if _doubles else BAR
            source = top if top < 23 else 23
        while True:
            if _me[source]:
                target = _target(source, die)
                if target != BLOCKED:
                    moved = True
                    _me[source] -= 1
                    hit = False
                    if target != OFF:
                        _me[target] += 1
                        if _opp[23 - target] == 1:
                            _opp[23 - target] = 0
                            _opp[BAR] += 1
                            hit = True
                    _steps[2 * used] = <signed char>source
                    _steps[2 * used + 1] = <signed char>target
                    _extend(used + 1, source)
                    if target != OFF:  # take the step back
                        _me[target] -= 1
                        if hit:
                            _opp[23 - target] = 1
                            _opp[BAR] -= 1
                    _me[source] += 1
            if source == BAR or source == 0:
                break
            source -= 1
        if moved:
            return
    if used:
        _record(used)


cdef void _search(int first, int second, int count):
    """Every play of `count` dice (`first`, `second`; a double when equal) from `_me`/`_opp`
    into `_found`, after those already there."""
    global _dice_count
    _dice[0], _dice[1], _dice[2], _dice[3] = first, second, first, first
    _dice_count = count
    _extend(0, BAR)


cdef void _begin():
    global _call, _count
    cdef int slot
    _call += 1
    if _call == 0:  # the stamps wrapped around: forget them all
        for slot in range(SLOTS):
            _stamp[slot] = 0
        _call = 1
    _count = 0


cdef int _generate(int high, int low):
    """`board.plays` of `_me`/`_opp` into `_found`: returns the length of the plays kept
    (those of the most dice; 0: none)."""
    global _doubles
    cdef int index, most = 0
    _begin()
    _doubles = high == low
    if _doubles:
        _search(high, high, 4)
    else:
        _search(high, low, 2)
        _search(low, high, 2)
    for index in range(_count):
        if _found[index].length > most:
            most = _found[index].length
    if most == 1 and not _doubles:  # one die only: the larger wherever it can be played
        _begin()
        _search(high, high, 1)
        if not _count:
            _search(low, low, 1)
    return most


cdef tuple _play(Found* entry):
    cdef int step
    steps = []
    for step in range(entry.length):
        steps.append(_STEPS[entry.steps[2 * step]][entry.steps[2 * step + 1] + 1])
    return tuple(steps)


cdef void _load(list me, list opp):
    cdef int index
    for index in range(25):
        _me[index] = me[index]
        _opp[index] = opp[index]


def plays(list me, list opp, int high, int low):
    """`board.plays`: every legal play of the roll, the same plays in the same order."""
    _load(me, opp)
    cdef int most = _generate(high, low), index
    found = []
    for index in range(_count):
        if _found[index].length == most:
            found.append(_play(&_found[index]))
    return found


# -- evaluation -----------------------------------------------------------------------------------


cdef struct Summary:
    int pips, back, checkers, outside, outside_count, zone, zone_count


cdef inline Summary _summary(const int* side):
    cdef Summary s
    cdef int index, n
    s.pips = s.outside = s.outside_count = s.zone = s.zone_count = s.checkers = 0
    s.back = -1
    for index in range(25):
        n = side[index]
        if n:
            s.checkers += n
            s.back = index
            s.pips += n * (index + 1)
            if index >= 6:
                s.outside += n * (index - 5)
                s.outside_count += n
                if index >= 18:
                    s.zone += n * (index - 17)
                    s.zone_count += n
    return s


cdef inline bint _is_race(Summary first, Summary second):
    """`evaluation.is_race`: the two sides can no longer hit or block each other."""
    return first.back + second.back < 23


cdef inline double _points(const int* loser, int left):
    cdef int index
    if left < CHECKERS:
        return 1.0
    for index in range(18, 25):
        if loser[index]:
            return 3.0
    return 2.0


cdef inline int _wastage(const int* side):
    cdef int extra = 2 * (side[0] - 1 if side[0] > 1 else 0)
    extra += side[1] - 1 if side[1] > 1 else 0
    extra += side[2] - 3 if side[2] > 3 else 0
    return extra + (side[3] == 0) + (side[4] == 0) + (side[5] == 0)


cdef double _pubeval_race(const int* mover, const int* opponent, int left):
    """`evaluation.pubeval(mover, opponent, True)` of a side with `left` checkers left."""
    cdef double score
    cdef int index, count
    if not left:
        return 99999999.0
    score = _race_weights[120] * opponent[24] / 2 + _race_weights[121] * (CHECKERS - left) / 15
    for index in range(24):
        count = mover[index] - opponent[23 - index]
        if count:
            score += _race[index][count + 15]
    return score


cdef int _use(object database) except -1:
    """Take `database` (a `BearoffDatabase`, or None) for the estimate."""
    global _database, _database_checkers, _length, _first_start, _off, _first
    cdef const double[:, ::1] off
    cdef const double[:, ::1] first
    if database is _database:
        return 0
    _database = database
    if database is None:
        _database_checkers = 0
        return 0
    off, first = database.off, database.first
    _off, _first = &off[0, 0], &first[0, 0]
    _length = off.shape[1]
    _first_start = off.shape[0] - first.shape[0]
    _database_checkers = database.checkers
    return 0


cdef inline int _row(const int* side):
    """`bearoff.position_index` of the side's home board."""
    cdef int rank = 0, total = 0, k
    for k in range(5):
        total += side[5 - k]
        rank += _binomial[total + k][k + 1]
    total += side[0]
    return rank + _binomial[total + 5][6]


cdef double _race_equity(const int* on_roll, const int* other, int my_left, int their_left):
    """`evaluation.pre_roll_equity` from `BearoffDatabase.race_chances`, both sides home and
    in the database: the same sums in the same order."""
    cdef int my_row = _row(on_roll), their_row = _row(other), n
    cdef const double* mine = _off + my_row * _length
    cdef const double* theirs = _off + their_row * _length
    cdef const double* my_first = NULL
    cdef const double* their_first = NULL
    cdef double win = 0.0, win_gammon = 0.0, lose_gammon = 0.0, chance, equity
    cdef double theirs_done = 0.0, their_first_done = 0.0, my_first_done = 0.0
    if my_left == CHECKERS:
        my_first = _first + (my_row - _first_start) * _length
    if their_left == CHECKERS:
        their_first = _first + (their_row - _first_start) * _length
    for n in range(_length):
        chance = mine[n]
        win += chance * (1.0 - theirs_done)
        theirs_done += theirs[n]
        if their_first != NULL:
            win_gammon += chance * (1.0 - their_first_done)
            their_first_done += their_first[n]
        if my_first != NULL:
            my_first_done += my_first[n]
            lose_gammon += theirs[n] * (1.0 - my_first_done)
    equity = 2.0 * win - 1.0
    equity += win_gammon
    equity -= lose_gammon
    return equity


cdef inline double _clamp(double x):
    return -50.0 if x < -50.0 else 50.0 if x > 50.0 else x


cdef int _use_network(object network) except -1:
    """Take `network` (a `Network`, or None) for the estimate."""
    global _network, _network_arrays, _hidden, _inputs, _w1, _b1, _w2, _b2
    cdef const double[:, ::1] w1
    cdef const double[::1] b1
    cdef const double[:, ::1] w2
    cdef const double[::1] b2
    if network is None:
        _network, _network_arrays, _hidden = None, (), 0
        return 0
    arrays = (network.w1, network.b1, network.w2, network.b2)
    if network is _network and all(
        mine is theirs for mine, theirs in zip(arrays, _network_arrays)
    ):
        return 0
    w1, b1, w2, b2 = arrays
    if w1.shape[0] not in (INPUTS, INPUTS_MOST) or not 0 < w1.shape[1] <= HIDDEN_MOST:
        raise ValueError(f"a network of {w1.shape[0]} inputs and {w1.shape[1]} hidden units: "
                         f"the kernel takes {INPUTS} or {INPUTS_MOST} inputs and at most "
                         f"{HIDDEN_MOST} units")
    _network, _network_arrays, _hidden, _inputs = network, arrays, w1.shape[1], w1.shape[0]
    _w1, _b1, _w2, _b2 = &w1[0, 0], &b1[0], &w2[0, 0], &b2[0]
    return 0


cdef inline double _sigmoid(double x):
    return 1.0 / (1.0 + exp(-_clamp(x)))


cdef inline int _unit(int* inputs, double* values, int count, int input, double x):
    inputs[count], values[count] = input, x
    return count + 1


cdef int _encode_side(const int* side, int offset, int left, int* inputs, double* values,
                      int count):
    """One side's inputs that are not 0 (`network.encode`'s 98 from `offset` on) after the
    `count` already in `inputs`/`values`: the new count."""
    cdef int index, n
    for index in range(24):
        n = side[index]
        if n:
            count = _unit(inputs, values, count, offset + 4 * index, 1.0)
            if n >= 2:
                count = _unit(inputs, values, count, offset + 4 * index + 1, 1.0)
                if n >= 3:
                    count = _unit(inputs, values, count, offset + 4 * index + 2, 1.0)
                    if n > 3:
                        count = _unit(inputs, values, count, offset + 4 * index + 3,
                                      (n - 3) / 2.0)
    if side[24]:
        count = _unit(inputs, values, count, offset + 96, side[24] / 2.0)
    if left < CHECKERS:
        count = _unit(inputs, values, count, offset + 97, <double>(CHECKERS - left) / CHECKERS)
    return count


cdef int _encode(const int* on_roll, const int* other, int* inputs, double* values):
    """`network.encode`'s inputs that are not 0, in order (at most `_inputs`), the contact
    features with them where the network takes them: their count."""
    cdef Summary me = _summary(on_roll), it = _summary(other)
    cdef int count = _encode_side(on_roll, 0, me.checkers, inputs, values, 0), index
    cdef bint race = _is_race(me, it)
    cdef double features[FEATURES]
    count = _encode_side(other, 98, it.checkers, inputs, values, count)
    count = _unit(inputs, values, count, 197 if race else 196, 1.0)
    if _inputs == INPUTS_MOST:
        _contact_features(on_roll, other, race, features)
        for index in range(FEATURES):
            if features[index] != 0.0:
                count = _unit(inputs, values, count, INPUTS + index, features[index])
    return count


# -- contact features (`contact.py` in C) ---------------------------------------------------------


cdef void _contact_features(const int* on_roll, const int* other, bint race, double* features):
    """`contact.contact_features` of one position (`race`: no checker can reach the other
    side's any more, so no shot)."""
    if race:
        features[0] = features[1] = features[2] = features[3] = 0.0
    else:
        _shots(on_roll, other, features)
        _shots(other, on_roll, features + 2)
    features[4] = _prime(on_roll)
    features[5] = _prime(other)


cdef void _shots(const int* hitter, const int* victim, double* found):
    """`contact.shots`: `found[0]` the share of the 36 rolls on which `hitter` hits a blot
    of `victim`, `found[1]` the mean over them of the largest hit's pips, over 24."""
    cdef int blots[24]  # the blots' indices, the farthest (the costliest hit) first
    cdef bint open_[24]
    cdef int t, high, low, weight, best, at, count = 0, rolls = 0, pips = 0
    for t in range(23, -1, -1):
        open_[t] = victim[23 - t] < 2
        if victim[23 - t] == 1:
            blots[count] = t
            count += 1
    for high in range(1, 7 if count else 1):
        for low in range(1, high + 1):
            weight = 1 if high == low else 2
            best = 0
            for at in range(count):
                t = blots[at]
                if (_double_reaches(hitter, open_, high, t) if high == low
                        else _roll_reaches(hitter, open_, high, low, t)):
                    best = t + 1
                    break
            if best:
                rolls += weight
                pips += weight * best
    found[0] = rolls / 36.0
    found[1] = pips / (36.0 * 24.0)


cdef inline bint _on(const int* hitter, int source):
    """Whether `hitter` has a checker on board index `source` (False off the board)."""
    return source <= 23 and hitter[source] > 0


cdef bint _roll_reaches(const int* hitter, const bint* open_, int first, int second, int t):
    """Whether a roll of two different dice takes a checker of `hitter` to index `t`
    (`contact._roll_hits`)."""
    cdef int bar = hitter[24]
    if bar == 0:
        return (_on(hitter, t + first) or _on(hitter, t + second)
                or (_on(hitter, t + first + second) and (open_[t + first] or open_[t + second])))
    if t == 24 - first or t == 24 - second:
        return True
    if bar > 1:
        return False
    return ((_on(hitter, t + first) and open_[24 - second])
            or (_on(hitter, t + second) and open_[24 - first])
            or (t == 24 - first - second and (open_[24 - first] or open_[24 - second])))


cdef bint _double_reaches(const int* hitter, const bint* open_, int die, int t):
    """Whether a roll of double `die` takes a checker of `hitter` to index `t`
    (`contact._double_hits`)."""
    cdef int bar = hitter[24], steps, steps_left, bar_steps
    cdef bint clear = True
    if bar == 0:
        steps_left = 4
    elif open_[24 - die]:
        steps_left = 4 - bar if bar < 4 else 0
    else:
        steps_left = 0
    for steps in range(1, steps_left + 1):
        if t + steps * die > 23:
            break
        if clear and hitter[t + steps * die] > 0:
            return True
        clear = clear and open_[t + steps * die]
    if bar == 0:
        return False
    bar_steps = 5 - bar if bar < 4 else 1
    clear = True
    for steps in range(1, bar_steps + 1):
        if 24 - steps * die < 0:
            break
        if clear and t == 24 - steps * die:
            return True
        clear = clear and open_[24 - steps * die]
    return False


cdef double _prime(const int* side):
    """`contact.prime`: the longest run of held points, at most 6, over 6."""
    cdef int index, run = 0, best = 0
    for index in range(24):
        run = run + 1 if side[index] >= 2 else 0
        if run > best:
            best = run
    return (best if best < 6 else 6) / 6.0


def fill_contact_features(const long long[:, ::1] on_roll, const long long[:, ::1] other,
                          double[:, ::1] out):
    """`contact.contact_features` of each row of `on_roll` and `other` ((n, 25) int64
    arrays), written into `out` ((n, 6))."""
    cdef int mine[25]
    cdef int theirs[25]
    cdef Py_ssize_t row
    cdef int index
    if not (on_roll.shape[1] == other.shape[1] == 25 and out.shape[1] == FEATURES
            and on_roll.shape[0] == other.shape[0] == out.shape[0]):
        raise ValueError("two (n, 25) arrays of sides and an (n, 6) array for the features")
    for row in range(on_roll.shape[0]):
        for index in range(25):
            mine[index], theirs[index] = on_roll[row, index], other[row, index]
        _contact_features(mine, theirs, _is_race(_summary(mine), _summary(theirs)), &out[row, 0])


cdef void _forward(const int* inputs, const double* values, int count, double* hidden,
                   double* out):
    """`Network.forward` of the encoded inputs: the hidden activations and the 5 outputs."""
    cdef const double* row
    cdef double x, total
    cdef int at, unit, output
    for unit in range(_hidden):
        hidden[unit] = 0.0
    for at in range(count):
        row, x = _w1 + inputs[at] * _hidden, values[at]
        for unit in range(_hidden):
            hidden[unit] += x * row[unit]
    for unit in range(_hidden):
        hidden[unit] = _sigmoid(hidden[unit] + _b1[unit])
    for output in range(5):
        total = 0.0
        for unit in range(_hidden):
            total += hidden[unit] * _w2[output * _hidden + unit]
        out[output] = _sigmoid(total + _b2[output])


cdef inline double _outputs_equity(const double* out):
    """`network.equity` of one row of outputs."""
    cdef double equity = 2.0 * out[0] - 1.0
    equity += out[1]
    equity += out[2]
    equity -= out[3]
    equity -= out[4]
    return equity


cdef double _network_equity(const int* on_roll, const int* other):
    """The cubeless equity of `network.Network.outputs` (`_hidden` units) for the player on
    roll, neither side finished."""
    cdef int inputs[INPUTS_MOST]
    cdef double values[INPUTS_MOST]
    cdef double out[5]
    _forward(inputs, values, _encode(on_roll, other, inputs, values), _activations, out)
    return _outputs_equity(out)


cdef double _equity(const int* on_roll, const int* other):
    """`evaluation.pre_roll_equity`, the same operations in the same order."""
    cdef Summary me = _summary(on_roll), it = _summary(other)
    cdef int mine = me.pips, theirs = it.pips, lead, index, n
    cdef double spread, logit, structure, blots, x, win, equity
    cdef double* w
    cdef double* g
    cdef double* b
    if not me.checkers or not it.checkers:
        return _points(other, it.checkers) if not me.checkers else -_points(on_roll, me.checkers)
    if mine <= 3 and me.checkers <= 2:
        return _points(other, it.checkers)
    if (
        _database_checkers
        and not me.outside_count
        and not it.outside_count
        and me.checkers <= _database_checkers
        and it.checkers <= _database_checkers
    ):
        return _race_equity(on_roll, other, me.checkers, it.checkers)
    if _hidden:
        return _network_equity(on_roll, other)
    spread = sqrt(2 * (mine + theirs))
    lead = theirs - mine
    if _is_race(me, it):
        w = _race_win
        logit = (
            w[0] * lead / spread
            + w[1] * (lead + _wastage(other) - _wastage(on_roll)) / spread
            + w[2] * (
                _pubeval_race(on_roll, other, me.checkers)
                - _pubeval_race(other, on_roll, it.checkers)
            )
            + w[3] * (it.checkers - me.checkers) / CHECKERS
            + w[4] * 4 / spread
            + w[5]
        )
        g, b = _race_gammon, _race_backgammon
    else:
        structure = _contact_weights[121] * (it.checkers - me.checkers) / 15
        blots = _contact_weights[120] * on_roll[24] / 2
        for index in range(24):
            n = on_roll[index]
            if n:
                structure += _contact[index][n + 15]
                if n == 1:
                    blots += _blot[23 - index]
            n = other[index]
            if n:
                structure -= _contact[index][n + 15]
        w = _contact_win
        logit = (
            w[0] * structure
            + w[1] * blots
            + w[2] * lead / 100
            + w[3] * lead / spread
            + w[4] * 4 / spread
            + w[5]
        )
        g, b = _contact_gammon, _contact_backgammon
    logit = _clamp(logit)
    win = 1.0 / (1.0 + exp(-logit))
    equity = 2.0 * win - 1.0
    if it.checkers == CHECKERS:  # the player on roll can win a gammon
        x = g[0] * logit + g[1] * it.outside / 50 + g[2] * it.outside_count / 15
        x += g[3] * mine / 100 + g[4] + g[5]
        equity += 1.0 / (1.0 + exp(-_clamp(x)))
        if it.zone_count:  # the other has checkers on the bar or in my home board
            x = b[0] * logit + b[1] * it.zone / 20 + b[2] * it.zone_count / 5
            x += b[3] * it.outside / 50 + b[4] * mine / 100 + b[5] + b[6]
            equity += 1.0 / (1.0 + exp(-_clamp(x)))
    if me.checkers == CHECKERS:  # the other can
        x = -g[0] * logit + g[1] * me.outside / 50 + g[2] * me.outside_count / 15
        x += g[3] * theirs / 100
        x += g[5]
        equity -= 1.0 / (1.0 + exp(-_clamp(x)))
        if me.zone_count:
            x = -b[0] * logit + b[1] * me.zone / 20 + b[2] * me.zone_count / 5
            x += b[3] * me.outside / 50 + b[4] * theirs / 100 + b[6]
            equity -= 1.0 / (1.0 + exp(-_clamp(x)))
    return equity


def pre_roll_equity(list on_roll, list other, database=None, network=None):
    """`evaluation.pre_roll_equity` (with the bear-off `database` and the TD `network`): the
    same value, bit for bit with the formula (to the last bits with a network)."""
    _use(database)
    _use_network(network)
    _load(on_roll, other)
    return _equity(_me, _opp)


# -- the search's calls ------------------------------------------------------------------------------


def moves(state):
    """The plays of a `Backgammon` state whose dice are rolled (`legal_moves` there): its
    plays, or the pass alone."""
    on_roll = state.on_roll
    high, low = state.dice
    found = plays(state.sides[on_roll], state.sides[1 - on_roll], high, low)
    return found or [PASS]


def estimate(state):
    """`state.expected_return(0)`."""
    _use(state.bearoff)
    _use_network(state.network)
    on_roll = state.on_roll
    _load(state.sides[on_roll], state.sides[1 - on_roll])
    value = _equity(_me, _opp)
    return value if on_roll == 0 else -value


cdef struct Counts:
    long decision_nodes, leaves, probes, estimates


cdef int _kept[MOST]  # the indices in `_found` of the plays kept (those of most dice)


cdef double _value_after(const signed char* mover, const signed char* other, double sign,
                         bint* end):
    """Player 0's value after the mover's play (`sign` 1 where the mover is player 0); `end`
    says whether the play ended the game."""
    cdef int index, left = 0
    cdef int me[25]
    cdef int it[25]
    for index in range(25):
        me[index] = mover[index]
        it[index] = other[index]
        left += me[index]
    end[0] = not left
    if not left:  # borne off: the game is over
        return sign * _points(it, _summary(it).checkers)
    return -sign * _equity(it, me)


cdef int _place(object first, int count) except -2:
    """Where in `_kept` the play `first` is (-1 where it is none of them)."""
    cdef signed char steps[8]
    cdef int length, step, index
    if not isinstance(first, tuple) or not 0 < len(first) <= 4:
        return -1
    length = len(first)
    for step in range(length):
        steps[2 * step], steps[2 * step + 1] = first[step]
    for index in range(count):
        if _found[_kept[index]].length == length and memcmp(
            _found[_kept[index]].steps, steps, 2 * length
        ) == 0:
            return index
    return -1


cdef tuple _decide(int on_roll, int high_die, int low_die, double alpha, double beta,
                   double low, double high, object first, int limit, Counts* counts):
    """`decide` of the position in `_me`/`_opp` (`on_roll`'s), the counts added to `counts`:
    (value, best move)."""
    cdef int most, count = 0, index, at, where, best_at = 0
    cdef double sign = 1.0 if on_roll == 0 else -1.0, value, best
    cdef bint maximising = on_roll == 0, end
    cdef signed char me[25]
    cdef signed char opp[25]
    most = _generate(high_die, low_die)
    if most == 0:  # the pass: the position as it is, the other player to roll
        for index in range(25):
            me[index], opp[index] = _me[index], _opp[index]
        value = _value_after(me, opp, sign, &end)
        counts.leaves += 1
        counts.estimates += not end
        return value, PASS
    for index in range(_count):
        if _found[index].length == most:
            _kept[count] = index
            count += 1
    where = _place(first, count) if first is not None else -1
    best = low - 1.0 if maximising else high + 1.0
    for at in range(count if count < limit else limit):
        if where > 0:  # the table's move first, the others in order
            index = where if at == 0 else at - 1 if at <= where else at
        else:
            index = at
        value = _value_after(_found[_kept[index]].me, _found[_kept[index]].opp, sign, &end)
        counts.leaves += 1
        counts.estimates += not end
        if maximising:
            if value > best:
                best, best_at = value, index
                if value > alpha:
                    alpha = value
        elif value < best:
            best, best_at = value, index
            if value < beta:
                beta = value
        if alpha >= beta:
            break
    return best, _play(&_found[_kept[best_at]])


def decide(state, double alpha, double beta, double low, double high, first, int limit=MOST):
    """`NodeSearch.decision` of a `Backgammon` state one decision above the leaves (its
    moves valued as `NodeSearch.value` values them at depth 0: `returns()[0]` where the play
    ends the game, else `expected_return(0)`), `first` (the table's best move) first, in the
    window (`alpha`, `beta`) of a game whose returns lie in [`low`, `high`], over the first
    `limit` moves at most (1: Star2's probe): (value, best move, leaves, estimates among
    them)."""
    cdef Counts counts = Counts(0, 0, 0, 0)
    _use(state.bearoff)
    _use_network(state.network)
    on_roll = state.on_roll
    high_die, low_die = state.dice
    _load(state.sides[on_roll], state.sides[1 - on_roll])
    value, move = _decide(on_roll, high_die, low_die, alpha, beta, low, high, first, limit,
                          &counts)
    return value, move, counts.leaves, counts.estimates


cdef struct Bounds:
    int exact, lower, upper, proven  # the table's bound kinds, and its depth of a proven value


cdef list _ROLLS = [roll for roll, _ in OUTCOMES]
_sum = builtins.sum
"""Python's own sum (which some versions compensate): Cython would inline a plain loop."""
cdef double _chance[21]
for _index, (_, _probability) in enumerate(OUTCOMES):
    _chance[_index] = _probability


cdef double _rolled(int on_roll, tuple sides, int index, object table, Bounds* kinds,
                    double alpha, double beta, double low, double high, const int* me,
                    const int* opp, Counts* counts) except? -99.0:
    """`NodeSearch.value` at depth 1 of the decision node after roll `index` (`sides`: the
    sides as tuples, for the table's keys): the table's answer, or `decide` stored there."""
    cdef long estimates
    roll = _ROLLS[index]
    key = hash((sides[0], sides[1], on_roll, roll)) if table.size else 0
    entry = table.probe(key) if table.size else None
    first = None
    if entry is not None:
        if entry.depth == 1 or entry.depth == kinds.proven:
            stored, bound = entry.score, entry.bound
            if (
                bound == kinds.exact
                or (bound == kinds.lower and stored >= beta)
                or (bound == kinds.upper and stored <= alpha)
            ):
                if entry.depth != kinds.proven:
                    counts.estimates += 1
                return stored
        first = entry.move
    estimates = counts.estimates
    counts.decision_nodes += 1
    memcpy(_me, me, sizeof(int) * 25)
    memcpy(_opp, opp, sizeof(int) * 25)
    value, move = _decide(on_roll, roll[0], roll[1], alpha, beta, low, high, first, MOST,
                          counts)
    if table.size:
        bound = kinds.upper if value <= alpha else kinds.lower if value >= beta else kinds.exact
        depth = 1 if counts.estimates != estimates else kinds.proven
        table.store(key, depth, value, bound, move, 0)
    return value


cdef inline double _larger(double a, double b):
    """Python's max(a, b)."""
    return b if b > a else a


cdef inline double _smaller(double a, double b):
    """Python's min(a, b)."""
    return b if b < a else a


cdef double _probes(int on_roll, tuple sides, object table, double alpha, double beta,
                    double low, double high, double* lower, double* upper,
                    const int* me, const int* opp, Counts* counts, bint* cut) except? -99.0:
    """`NodeSearch.probe_outcomes` at depth 1: the node's bound where the probes decide it
    (`cut` set), else `lower`/`upper` tightened."""
    cdef int index
    cdef double sum_low, sum_high, probability, window_alpha, window_beta, value
    cdef double new_low, new_high
    sum_low = _sum([_chance[index] * lower[index] for index in range(21)])
    sum_high = _sum([_chance[index] * upper[index] for index in range(21)])
    for index in range(21):
        probability = _chance[index]
        window_alpha = (alpha - sum_high + probability * upper[index]) / probability
        window_beta = (beta - sum_low + probability * lower[index]) / probability
        # `NodeSearch.probe`: only where its bound can cut
        if (beta >= high) if on_roll == 0 else (alpha <= low):
            continue
        counts.probes += 1
        counts.decision_nodes += 1
        roll = _ROLLS[index]
        first = table.best_move(hash((sides[0], sides[1], on_roll, roll))) if table.size else None
        memcpy(_me, me, sizeof(int) * 25)
        memcpy(_opp, opp, sizeof(int) * 25)
        value = _decide(on_roll, roll[0], roll[1], _larger(window_alpha, low),
                        _smaller(window_beta, high), low, high, first, 1, counts)[0]
        if on_roll == 0 and value > window_alpha:  # the move is worth at least `value`
            new_low, new_high = _larger(lower[index], value), _smaller(upper[index], high)
        elif on_roll == 1 and value < window_beta:  # the move is worth at most `value`
            new_low, new_high = _larger(lower[index], low), _smaller(upper[index], value)
        else:
            continue
        sum_low += probability * (new_low - lower[index])
        sum_high -= probability * (upper[index] - new_high)
        lower[index], upper[index] = new_low, new_high
        if sum_low >= beta:
            cut[0] = True
            return sum_low
        if sum_high <= alpha:
            cut[0] = True
            return sum_high
    return 0.0


def chance(state, table, tuple kinds, double alpha, double beta, double low, double high,
           bint star2):
    """`NodeSearch.chance_star` of a `Backgammon` state before the roll, one decision above
    the leaves, with the search's `table` (probed and stored as `NodeSearch.value` does at
    each roll's decision node; `kinds`: its EXACT, LOWER, UPPER and PROVEN): (value,
    decision nodes, leaves, Star2 probes, estimates)."""
    cdef Counts counts = Counts(0, 0, 0, 0)
    cdef Bounds bounds = Bounds(kinds[0], kinds[1], kinds[2], kinds[3])
    cdef int on_roll = state.on_roll, index
    cdef int me[25]
    cdef int opp[25]
    cdef double lower[21]
    cdef double upper[21]
    cdef double rest_low, rest_high, done = 0.0, probability, child, child_alpha, child_beta
    cdef double value
    cdef bint cut = False
    sides = (tuple(state.sides[0]), tuple(state.sides[1])) if table.size else None
    _use(state.bearoff)
    _use_network(state.network)
    _load(state.sides[on_roll], state.sides[1 - on_roll])
    memcpy(me, _me, sizeof(int) * 25)
    memcpy(opp, _opp, sizeof(int) * 25)
    for index in range(21):
        lower[index], upper[index] = low, high
    if star2:
        value = _probes(on_roll, sides, table, alpha, beta, low, high, lower, upper, me, opp,
                        &counts, &cut)
        if cut:
            return value, counts.decision_nodes, counts.leaves, counts.probes, counts.estimates
    rest_low = _sum([_chance[index] * lower[index] for index in range(21)])
    rest_high = _sum([_chance[index] * upper[index] for index in range(21)])
    for index in range(21):
        probability = _chance[index]
        rest_low -= probability * lower[index]
        rest_high -= probability * upper[index]
        child_alpha = (alpha - done - rest_high) / probability
        child_beta = (beta - done - rest_low) / probability
        child = _rolled(on_roll, sides, index, table, &bounds, _larger(child_alpha, low),
                        _smaller(child_beta, high), low, high, me, opp, &counts)
        if child <= child_alpha:
            value = done + probability * child + rest_high
            break
        if child >= child_beta:
            value = done + probability * child + rest_low
            break
        done += probability * child
    else:
        value = done
    return value, counts.decision_nodes, counts.leaves, counts.probes, counts.estimates


# -- TD(lambda) self-play (`training.self_play_game` in C) ----------------------------------------


cdef int _FLIP[5]
_FLIP[:] = [0, 3, 4, 1, 2]


cdef struct Traces:
    double* w1  # (5, _inputs, hidden): each output's gradient, times `scale`
    double* b1  # (5, hidden)
    double* w2  # (5, 5, hidden)
    double* b2  # (5, 5)
    double scale


cdef void _decay(Traces* traces, double decay, int hidden):
    """`training.Traces.add`'s decay: the scale, folded in before it underflows."""
    cdef int index
    traces.scale *= decay
    if traces.scale < 1e-100:
        for index in range(5 * _inputs * hidden):
            traces.w1[index] *= traces.scale
        for index in range(5 * hidden):
            traces.b1[index] *= traces.scale
        for index in range(25 * hidden):
            traces.w2[index] *= traces.scale
        for index in range(25):
            traces.b2[index] *= traces.scale
        traces.scale = 1.0


cdef void _add_gradients(Traces* traces, const int* inputs, const double* values, int count,
                         const double* hidden, const double* out, double decay, int player):
    """`training.Traces.add`: decay, then add the gradients of the outputs `out` of the
    encoded inputs (hidden activations `hidden`), the position seen by `player`, the
    traces kept in player 0's view (player 1's output k is player 0's output _FLIP[k],
    its win 1 minus the other's)."""
    cdef int H = _hidden, k, unit, at, source
    cdef double slope, sign, x
    cdef double back[HIDDEN_MOST]
    cdef double* row
    _decay(traces, decay, H)
    for k in range(5):
        source = _FLIP[k] if player else k
        sign = -1.0 if player and k == 0 else 1.0
        slope = out[source] * (1.0 - out[source]) * sign / traces.scale
        row = traces.b1 + k * H
        for unit in range(H):
            back[unit] = slope * _w2[source * H + unit] * (hidden[unit] * (1.0 - hidden[unit]))
            row[unit] += back[unit]
        for at in range(count):
            row, x = traces.w1 + (k * _inputs + inputs[at]) * H, values[at]
            for unit in range(H):
                row[unit] += x * back[unit]
        row = traces.w2 + (k * 5 + source) * H
        for unit in range(H):
            row[unit] += slope * hidden[unit]
        traces.b2[k * 5 + source] += slope


cdef void _step(Traces* traces, double* w1, double* b1, double* w2, double* b2,
                const double* error, double alpha):
    """`training.Traces.step`: the weights moved by `alpha` times the temporal difference
    `error` (player 0's view) along the traces."""
    cdef int H = _hidden, k
    cdef double factors[5]
    for k in range(5):
        factors[k] = alpha * traces.scale * error[k]
    _move(w1, traces.w1, _inputs * H, factors)
    _move(b1, traces.b1, H, factors)
    _move(w2, traces.w2, 5 * H, factors)
    _move(b2, traces.b2, 5, factors)


cdef inline void _move(double* weights, const double* trace, int size, const double* factors):
    """``weights += factors @ trace`` (`trace`: 5 rows of `size`)."""
    cdef int index, k
    cdef double change
    for index in range(size):
        change = 0.0
        for k in range(5):
            change += factors[k] * trace[k * size + index]
        weights[index] += change


cdef inline void _seen_by_first(const double* out, int player, double* seen):
    """`training.seen_by_first`: outputs of the player on roll in player 0's view."""
    cdef int k
    for k in range(5):
        seen[k] = out[_FLIP[k]] if player else out[k]
    if player:
        seen[0] = 1.0 - seen[0]


cdef inline void _side(const signed char* side, int* into):
    cdef int index
    for index in range(25):
        into[index] = side[index]


cdef int _greedy(int* mover, int* other, int high, int low, object choose):
    """Play the roll from `mover`'s view (the sides in place): `Network.best_play`'s play,
    the one whose afterstate the network values worst for the opponent (a winning play by
    its exact result, the first of equals), or, where `choose` is not None, the play
    ``choose(count)`` picks among the `count` legal ones; returns 0 when the mover has borne
    everything off. (`td_game`'s plays and `game_positions`' greedy ones.)"""
    cdef int inputs[INPUTS_MOST]
    cdef double values[INPUTS_MOST]
    cdef double out[5]
    cdef int index, most, best = -1, kept = 0, pick = -1, count
    cdef double equity, lowest = 0.0
    memcpy(_me, mover, sizeof(int) * 25)
    memcpy(_opp, other, sizeof(int) * 25)
    most = _generate(high, low)
    if most == 0:
        return 1
    if choose is not None:
        for index in range(_count):
            kept += _found[index].length == most
        pick = choose(kept)
        kept = 0
    for index in range(_count):
        if _found[index].length != most:
            continue
        if pick >= 0:
            if kept == pick:
                best = index
                break
            kept += 1
            continue
        _side(_found[index].opp, other)
        _side(_found[index].me, mover)
        if not _summary(mover).checkers:  # the play wins: the other's exact loss
            equity = -_points(other, _summary(other).checkers)
        else:
            count = _encode(other, mover, inputs, values)
            _forward(inputs, values, count, _activations, out)
            equity = _outputs_equity(out)
        if best < 0 or equity < lowest:
            best, lowest = index, equity
    _side(_found[best].opp, other)
    _side(_found[best].me, mover)
    return _summary(mover).checkers > 0


def td_game(network, dice, double alpha, double decay, int max_turns):
    """`training.self_play_game`: one game of TD(lambda) self-play, `network`'s arrays
    trained in place; (player 0's points, 0 for a game stuck after `max_turns` turns; the
    turns played). The same moves and dice as the Python game; the weights to the last
    bits (sums in another order than numpy's)."""
    cdef double[:, ::1] w1 = network.w1
    cdef double[::1] b1 = network.b1
    cdef double[:, ::1] w2 = network.w2
    cdef double[::1] b2 = network.b2
    cdef int sides[2][25]
    cdef int inputs[INPUTS_MOST]
    cdef double values[INPUTS_MOST]
    cdef double hidden[HIDDEN_MOST]
    cdef double out[5]
    cdef double value[5]
    cdef double following[5]
    cdef double error[5]
    cdef int player = 0, turn, k, index, count, points, H
    cdef int mover[25]
    cdef int other[25]
    cdef Traces traces
    _use_network(network)
    H = _hidden
    randint = dice.randint
    start = start_side()
    for index in range(25):
        sides[0][index] = sides[1][index] = start[index]
    traces.w1 = <double*>calloc(5 * _inputs * H, sizeof(double))
    traces.b1 = <double*>calloc(5 * H, sizeof(double))
    traces.w2 = <double*>calloc(25 * H, sizeof(double))
    traces.b2 = <double*>calloc(25, sizeof(double))
    traces.scale = 1.0
    try:
        if not traces.w1 or not traces.b1 or not traces.w2 or not traces.b2:
            raise MemoryError("the traces of a TD game")
        count = _encode(sides[0], sides[1], inputs, values)
        _forward(inputs, values, count, hidden, out)
        _add_gradients(&traces, inputs, values, count, hidden, out, decay, 0)
        _seen_by_first(out, 0, value)
        for turn in range(max_turns):
            first, second = randint(1, 6), randint(1, 6)
            _greedy(sides[player], sides[1 - player], max(first, second), min(first, second),
                    None)
            memcpy(mover, sides[player], sizeof(int) * 25)
            memcpy(other, sides[1 - player], sizeof(int) * 25)
            if not _summary(mover).checkers:  # the mover has borne off: it has won
                points = <int>_points(other, _summary(other).checkers)
                for k in range(5):
                    following[k] = 0.0
                following[0] = 1.0
                following[1] = points >= 2
                following[2] = points >= 3
                _seen_by_first(following, player, out)  # the mover's outcome, player 0's view
                for k in range(5):
                    error[k] = out[k] - value[k]
                _step(&traces, &w1[0, 0], &b1[0], &w2[0, 0], &b2[0], error, alpha)
                return (points if player == 0 else -points), turn + 1
            player = 1 - player
            count = _encode(other, mover, inputs, values)
            _forward(inputs, values, count, hidden, out)
            _seen_by_first(out, player, following)
            for k in range(5):
                error[k] = following[k] - value[k]
            _step(&traces, &w1[0, 0], &b1[0], &w2[0, 0], &b2[0], error, alpha)
            _add_gradients(&traces, inputs, values, count, hidden, out, decay, player)
            memcpy(value, following, sizeof(double) * 5)
        return 0.0, max_turns
    finally:
        free(traces.w1)
        free(traces.b1)
        free(traces.w2)
        free(traces.b2)


# -- fitted targets (`fitting.py`) ------------------------------------------------------------------


def game_positions(network, dice, int random_turns, int max_turns):
    """The positions of one game from the opening, each before its roll and seen by the
    player about to roll: a list of (on roll, other) lists of 25. The first `random_turns`
    plays are chosen uniformly at random (``dice.randrange``), the others greedily by
    `network` at 1-ply; the dice are ``dice.randint``'s. The game's last position (where a
    play ended it) is not among them."""
    cdef int sides[2][25]
    cdef int player = 0, turn, index, first, second
    _use_network(network)
    randint, randrange = dice.randint, dice.randrange
    start = start_side()
    for index in range(25):
        sides[0][index] = sides[1][index] = start[index]
    found = []
    for turn in range(max_turns):
        found.append(([sides[player][index] for index in range(25)],
                      [sides[1 - player][index] for index in range(25)]))
        first, second = randint(1, 6), randint(1, 6)
        if not _greedy(sides[player], sides[1 - player], max(first, second),
                       min(first, second), randrange if turn < random_turns else None):
            break
        player = 1 - player
    return found


cdef void _mover_outputs(int* mover, int* other, double* out):
    """The five outputs of the position after a play, for the player who made it (`mover`
    has moved; the other is on roll): exact where the play ended the game."""
    cdef int inputs[INPUTS_MOST]
    cdef double values[INPUTS_MOST]
    cdef double theirs[5]
    cdef double points
    cdef int k
    if not _summary(mover).checkers:
        points = _points(other, _summary(other).checkers)
        out[0], out[1], out[2], out[3], out[4] = 1.0, points >= 2, points >= 3, 0.0, 0.0
        return
    _forward(inputs, values, _encode(other, mover, inputs, values), _activations, theirs)
    for k in range(5):
        out[k] = theirs[_FLIP[k]]
    out[0] = 1.0 - theirs[0]


def roll_outputs(network, list positions):
    """The 1-ply expectation of each position (an (on roll, other) pair of 25-lists, before
    the roll, neither side finished): over the 21 rolls, weighted by their chances, the five
    outputs of the player on roll after its best play by `network` (the `best_play` choice;
    the exact outcome where the play ends the game). A list of 5-tuples."""
    cdef int high, low, most, index, k, best
    cdef double weight, equity, top
    cdef double total[5]
    cdef double out[5]
    cdef double chosen[5]
    cdef int on_roll[25]
    cdef int other[25]
    cdef int mover[25]
    cdef int after[25]
    _use_network(network)
    found = []
    for pair in positions:
        for index in range(25):
            on_roll[index], other[index] = pair[0][index], pair[1][index]
        for k in range(5):
            total[k] = 0.0
        for high in range(1, 7):
            for low in range(1, high + 1):
                weight = 1.0 / 36.0 if high == low else 2.0 / 36.0
                memcpy(_me, on_roll, sizeof(int) * 25)
                memcpy(_opp, other, sizeof(int) * 25)
                most = _generate(high, low)
                if most == 0:  # the pass
                    _mover_outputs(on_roll, other, chosen)
                else:
                    best, top = -1, 0.0
                    for index in range(_count):
                        if _found[index].length != most:
                            continue
                        _side(_found[index].me, mover)
                        _side(_found[index].opp, after)
                        _mover_outputs(mover, after, out)
                        equity = _outputs_equity(out)
                        if best < 0 or equity > top:
                            best, top = index, equity
                            memcpy(chosen, out, sizeof(double) * 5)
                for k in range(5):
                    total[k] += weight * chosen[k]
        found.append(tuple(total[k] for k in range(5)))
    return found
