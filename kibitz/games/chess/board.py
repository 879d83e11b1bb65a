"""Chess rules on a 0x88 board: legal moves, make/unmake, Zobrist key and PeSTO evaluation.

Squares are 0x88 indices (``16 * rank + file``, a1 = 0, h8 = 0x77): a square is off the
board exactly when ``square & 0x88`` is set, also for the negative numbers a step off the
first rank gives. Pieces are ``8 * colour + kind`` (White 0, Black 1; pawn 1 .. king 6),
empty squares 0. A move is the int ``from | to << 7 | promotion << 14``; castling is the
king's two-square move, en passant the pawn's diagonal move to the en-passant square.

Everything a search needs per node is incremental and restored by `undo` from a stack of
saved fields: the key (Polyglot's Zobrist numbers, so it equals the key opening books use),
the middle-game and endgame sums of PeSTO's tables (White minus Black) and the game phase.
The en-passant square is kept only when a pawn of the side to move stands next to the pawn
that moved (Polyglot's rule, also for the key and FEN).

Legal moves come from pseudo-legal generation filtered with the checkers and pins of the
king found once per position, so only en-passant captures are made and tested. The order is
fixed (squares a1 to h8, each piece's directions in table order): the compiled board
repeats it move for move.
"""

from __future__ import annotations

from chess.polyglot import POLYGLOT_RANDOM_ARRAY

from kibitz.games.chess.pesto import FULL_PHASE, PHASE_WEIGHT, tables_for

WHITE, BLACK = 0, 1
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6

KNIGHT_STEPS = (33, 31, 18, 14, -14, -18, -31, -33)
KING_STEPS = (16, 17, 1, -15, -16, -17, -1, 15)
BISHOP_STEPS = (17, 15, -15, -17)
ROOK_STEPS = (16, 1, -16, -1)
SLIDES = {BISHOP: BISHOP_STEPS, ROOK: ROOK_STEPS, QUEEN: KING_STEPS}

WHITE_SHORT, WHITE_LONG, BLACK_SHORT, BLACK_LONG = 1, 2, 4, 8
ALL_CASTLING = 15

ON_BOARD = tuple(s for s in range(128) if not s & 0x88)
"""The 64 squares in generation order, a1 to h8."""


def to_64(square: int) -> int:
    """0x88 square -> 0 (a1) .. 63 (h8)."""
    return (square & 7) | ((square >> 4) << 3)


def to_88(square: int) -> int:
    """0 (a1) .. 63 (h8) -> 0x88 square."""
    return (square & 7) | ((square >> 3) << 4)


def encode(frm: int, to: int, promotion: int = 0) -> int:
    return frm | to << 7 | promotion << 14


def _step_between() -> list[int]:
    """For every difference `to - frm` + 119: the queen step leading from frm to to, or 0."""
    table = [0] * 239
    for step in KING_STEPS:
        for distance in range(1, 8):
            table[step * distance + 119] = step
    return table


STEP = _step_between()


def _castling_masks() -> list[int]:
    masks = [ALL_CASTLING] * 128
    masks[0x04] = ALL_CASTLING & ~(WHITE_SHORT | WHITE_LONG)
    masks[0x07] = ALL_CASTLING & ~WHITE_SHORT
    masks[0x00] = ALL_CASTLING & ~WHITE_LONG
    masks[0x74] = ALL_CASTLING & ~(BLACK_SHORT | BLACK_LONG)
    masks[0x77] = ALL_CASTLING & ~BLACK_SHORT
    masks[0x70] = ALL_CASTLING & ~BLACK_LONG
    return masks


CASTLING_KEPT = _castling_masks()
"""Castling rights that survive a move from or to each square."""


def _piece_tables() -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    """Zobrist numbers and PeSTO values (signed: White +, Black -) by piece and 0x88 square."""
    keys = [[0] * 128 for _ in range(16)]
    mg = [[0] * 128 for _ in range(16)]
    eg = [[0] * 128 for _ in range(16)]
    for colour in (WHITE, BLACK):
        for kind in range(PAWN, KING + 1):
            piece = 8 * colour + kind
            polyglot_kind = 2 * (kind - 1) + (colour == WHITE)
            middle, end = tables_for(piece)
            sign = 1 if colour == WHITE else -1
            for square in ON_BOARD:
                index = to_64(square)
                keys[piece][square] = POLYGLOT_RANDOM_ARRAY[64 * polyglot_kind + index]
                mg[piece][square] = sign * middle[index]
                eg[piece][square] = sign * end[index]
    return keys, mg, eg


PIECE_KEYS, PIECE_MG, PIECE_EG = _piece_tables()
CASTLING_KEYS = [0] * 16
for _rights in range(16):
    for _bit in range(4):
        if _rights >> _bit & 1:
            CASTLING_KEYS[_rights] ^= POLYGLOT_RANDOM_ARRAY[768 + _bit]
EP_KEYS = tuple(POLYGLOT_RANDOM_ARRAY[772 + file] for file in range(8))
TURN_KEY = POLYGLOT_RANDOM_ARRAY[780]
"""Polyglot hashes this in when White is to move."""
VICTIM_VALUE = (0, 1, 3, 3, 5, 9, 0)
"""Piece values by kind for the MVV-LVA capture order."""
EXCHANGE_VALUE = (0, 100, 300, 300, 500, 900, 20000)
"""Piece values by kind in centipawns for the static exchange evaluation (`Board.exchange`);
the king's outweighs everything, so that no side gives it up for material."""
PIECE_PHASE = [
    PHASE_WEIGHT[(piece & 7) - 1] if 1 <= piece & 7 <= KING else 0 for piece in range(16)
]


class Board:
    """One chess position with its history (for `undo` and repetitions)."""

    __slots__ = (
        "cached",
        "cached_key",
        "castling",
        "eg",
        "ep",
        "fullmove",
        "halfmove",
        "history",
        "key",
        "kings",
        "mg",
        "phase",
        "squares",
        "stack",
        "turn",
    )

    def __init__(self) -> None:
        self.squares = [0] * 128
        self.turn = WHITE
        self.castling = 0
        self.ep = -1
        self.halfmove = 0
        self.fullmove = 1
        self.kings = [-1, -1]
        self.key = 0
        self.mg = 0
        self.eg = 0
        self.phase = 0
        self.stack: list[tuple] = []
        self.history: list[int] = []
        """The key of every position since the start, the current one last."""
        self.cached: list[int] | None = None
        """The legal moves of the position whose key is `cached_key` (`_cached_moves`)."""
        self.cached_key = 0

    def copy(self) -> Board:
        """An independent copy, history included."""
        board = Board()
        for field in Board.__slots__:
            value = getattr(self, field)
            setattr(board, field, list(value) if isinstance(value, list) else value)
        return board

    # -- set-up ---------------------------------------------------------------------------

    @classmethod
    def from_fields(
        cls,
        pieces: dict[int, int],
        turn: int,
        castling: int,
        ep: int,
        halfmove: int,
        fullmove: int,
    ) -> Board:
        """A board from checked fields: pieces by 0x88 square, en passant as a 0x88 square
        or -1 (kept only where a pawn can take, as everywhere)."""
        board = cls()
        for square, piece in pieces.items():
            board.squares[square] = piece
            if piece & 7 == KING:
                board.kings[piece >> 3] = square
        board.turn = turn
        board.castling = castling
        board.halfmove = halfmove
        board.fullmove = fullmove
        if ep >= 0 and board._pawn_can_take_on(ep, turn):
            board.ep = ep
        board.key, board.mg, board.eg, board.phase = board._computed_sums()
        board.history = [board.key]
        return board

    def _computed_sums(self) -> tuple[int, int, int, int]:
        """(key, mg, eg, phase) computed from scratch (set-up, and tests of the updates)."""
        key = mg = eg = phase = 0
        for square in ON_BOARD:
            piece = self.squares[square]
            if piece:
                key ^= PIECE_KEYS[piece][square]
                mg += PIECE_MG[piece][square]
                eg += PIECE_EG[piece][square]
                phase += PIECE_PHASE[piece]
        key ^= CASTLING_KEYS[self.castling]
        if self.ep >= 0:
            key ^= EP_KEYS[self.ep & 7]
        if self.turn == WHITE:
            key ^= TURN_KEY
        return key, mg, eg, phase

    def _pawn_can_take_on(self, target: int, turn: int) -> bool:
        """Whether a pawn of `turn` stands where it could take on the en-passant `target`."""
        pawn = 8 * turn + PAWN
        behind = target - 16 if turn == WHITE else target + 16
        squares = self.squares
        return any(
            not (behind + side) & 0x88 and squares[behind + side] == pawn for side in (-1, 1)
        )

    # -- making moves -----------------------------------------------------------------------

    def play(self, move: int) -> None:
        squares = self.squares
        frm = move & 127
        to = (move >> 7) & 127
        promotion = move >> 14
        piece = squares[frm]
        captured = squares[to]
        us = self.turn
        key = self.key
        mg = self.mg
        eg = self.eg
        phase = self.phase
        castling = self.castling
        ep = self.ep
        self.stack.append((move, captured, castling, ep, self.halfmove, key, mg, eg, phase))
        key ^= TURN_KEY
        if ep >= 0:
            key ^= EP_KEYS[ep & 7]
        halfmove = self.halfmove + 1
        if captured:
            key ^= PIECE_KEYS[captured][to]
            mg -= PIECE_MG[captured][to]
            eg -= PIECE_EG[captured][to]
            phase -= PIECE_PHASE[captured]
            halfmove = 0
        squares[frm] = 0
        squares[to] = piece
        key ^= PIECE_KEYS[piece][frm] ^ PIECE_KEYS[piece][to]
        mg += PIECE_MG[piece][to] - PIECE_MG[piece][frm]
        eg += PIECE_EG[piece][to] - PIECE_EG[piece][frm]
        new_ep = -1
        kind = piece & 7
        if kind == PAWN:
            halfmove = 0
            if promotion:
                queen = 8 * us + promotion
                squares[to] = queen
                key ^= PIECE_KEYS[piece][to] ^ PIECE_KEYS[queen][to]
                mg += PIECE_MG[queen][to] - PIECE_MG[piece][to]
                eg += PIECE_EG[queen][to] - PIECE_EG[piece][to]
                phase += PIECE_PHASE[queen]
            elif to == ep:
                taken_on = to - 16 if us == WHITE else to + 16
                taken = squares[taken_on]
                squares[taken_on] = 0
                key ^= PIECE_KEYS[taken][taken_on]
                mg -= PIECE_MG[taken][taken_on]
                eg -= PIECE_EG[taken][taken_on]
            elif to - frm == 32 or frm - to == 32:
                target = (frm + to) >> 1
                if self._pawn_can_take_on(target, us ^ 1):
                    new_ep = target
                    key ^= EP_KEYS[target & 7]
        elif kind == KING:
            self.kings[us] = to
            if to - frm == 2 or frm - to == 2:
                rook_from, rook_to = (frm + 3, frm + 1) if to > frm else (frm - 4, frm - 1)
                rook = squares[rook_from]
                squares[rook_from] = 0
                squares[rook_to] = rook
                key ^= PIECE_KEYS[rook][rook_from] ^ PIECE_KEYS[rook][rook_to]
                mg += PIECE_MG[rook][rook_to] - PIECE_MG[rook][rook_from]
                eg += PIECE_EG[rook][rook_to] - PIECE_EG[rook][rook_from]
        kept = castling & CASTLING_KEPT[frm] & CASTLING_KEPT[to]
        if kept != castling:
            key ^= CASTLING_KEYS[castling] ^ CASTLING_KEYS[kept]
            self.castling = kept
        self.ep = new_ep
        self.halfmove = halfmove
        if us == BLACK:
            self.fullmove += 1
        self.turn = us ^ 1
        self.key = key
        self.mg = mg
        self.eg = eg
        self.phase = phase
        self.history.append(key)

    def undo(self) -> None:
        move, captured, castling, ep, halfmove, key, mg, eg, phase = self.stack.pop()
        self.history.pop()
        us = self.turn ^ 1
        self.turn = us
        self.castling = castling
        self.ep = ep
        self.halfmove = halfmove
        self.key = key
        self.mg = mg
        self.eg = eg
        self.phase = phase
        if us == BLACK:
            self.fullmove -= 1
        if not move:  # a null move
            return
        squares = self.squares
        frm = move & 127
        to = (move >> 7) & 127
        piece = 8 * us + PAWN if move >> 14 else squares[to]
        squares[frm] = piece
        squares[to] = captured
        kind = piece & 7
        if kind == PAWN:
            if to == ep:
                squares[to - 16 if us == WHITE else to + 16] = 8 * (us ^ 1) + PAWN
        elif kind == KING:
            self.kings[us] = frm
            if to - frm == 2 or frm - to == 2:
                rook_from, rook_to = (frm + 3, frm + 1) if to > frm else (frm - 4, frm - 1)
                squares[rook_from] = squares[rook_to]
                squares[rook_to] = 0

    def play_null(self) -> None:
        """Pass (for null-move pruning). It resets the halfmove clock, so that no repetition
        is counted across it."""
        ep = self.ep
        key = self.key
        self.stack.append(
            (0, 0, self.castling, ep, self.halfmove, key, self.mg, self.eg, self.phase)
        )
        key ^= TURN_KEY
        if ep >= 0:
            key ^= EP_KEYS[ep & 7]
            self.ep = -1
        if self.turn == BLACK:
            self.fullmove += 1
        self.turn ^= 1
        self.halfmove = 0
        self.key = key
        self.history.append(key)

    # -- attacks ---------------------------------------------------------------------------

    def attacked(self, square: int, by: int) -> bool:
        """Whether pieces of colour `by` attack `square`."""
        squares = self.squares
        if by == WHITE:
            pawn = PAWN
            left, right = square - 17, square - 15
        else:
            pawn = 8 + PAWN
            left, right = square + 15, square + 17
        if (not left & 0x88 and squares[left] == pawn) or (
            not right & 0x88 and squares[right] == pawn
        ):
            return True
        knight = 8 * by + KNIGHT
        for step in KNIGHT_STEPS:
            s = square + step
            if not s & 0x88 and squares[s] == knight:
                return True
        king = 8 * by + KING
        for step in KING_STEPS:
            s = square + step
            if not s & 0x88 and squares[s] == king:
                return True
        bishop, rook, queen = 8 * by + BISHOP, 8 * by + ROOK, 8 * by + QUEEN
        for step in BISHOP_STEPS:
            s = square + step
            while not s & 0x88:
                piece = squares[s]
                if piece:
                    if piece in (bishop, queen):
                        return True
                    break
                s += step
        for step in ROOK_STEPS:
            s = square + step
            while not s & 0x88:
                piece = squares[s]
                if piece:
                    if piece in (rook, queen):
                        return True
                    break
                s += step
        return False

    def in_check(self) -> bool:
        return self.attacked(self.kings[self.turn], self.turn ^ 1)

    def _checks_and_pins(self) -> tuple[list[int], dict[int, int]]:
        """The squares of the pieces giving check, and the pinned pieces of the side to move
        with the step from their king towards them."""
        squares = self.squares
        us = self.turn
        them = us ^ 1
        king = self.kings[us]
        checkers: list[int] = []
        pinned: dict[int, int] = {}
        for step in KING_STEPS:
            straight = step in ROOK_STEPS
            own = -1
            s = king + step
            while not s & 0x88:
                piece = squares[s]
                if piece:
                    if piece >> 3 == us:
                        if own >= 0:
                            break
                        own = s
                    else:
                        kind = piece & 7
                        if kind == QUEEN or kind == (ROOK if straight else BISHOP):
                            if own >= 0:
                                pinned[own] = step
                            else:
                                checkers.append(s)
                        break
                s += step
        knight = 8 * them + KNIGHT
        for step in KNIGHT_STEPS:
            s = king + step
            if not s & 0x88 and squares[s] == knight:
                checkers.append(s)
        pawn = 8 * them + PAWN
        for s in (king + 15, king + 17) if us == WHITE else (king - 17, king - 15):
            if not s & 0x88 and squares[s] == pawn:
                checkers.append(s)
        return checkers, pinned

    # -- move generation ------------------------------------------------------------------

    def pseudo_moves(self) -> list[int]:
        """Every move of the side to move by the pieces' movement rules, castling only
        through empty squares with the rights (attacks are checked by `legal_moves`)."""
        squares = self.squares
        us = self.turn
        moves: list[int] = []
        append = moves.append
        for frm in ON_BOARD:
            piece = squares[frm]
            if not piece or piece >> 3 != us:
                continue
            kind = piece & 7
            if kind == PAWN:
                self._pawn_moves(frm, moves)
            elif kind in (KNIGHT, KING):
                for step in KNIGHT_STEPS if kind == KNIGHT else KING_STEPS:
                    to = frm + step
                    if to & 0x88:
                        continue
                    target = squares[to]
                    if not target or target >> 3 != us:
                        append(frm | to << 7)
                if kind == KING:
                    self._castling_moves(frm, moves)
            else:
                for step in SLIDES[kind]:
                    to = frm + step
                    while not to & 0x88:
                        target = squares[to]
                        if target:
                            if target >> 3 != us:
                                append(frm | to << 7)
                            break
                        append(frm | to << 7)
                        to += step
        return moves

    def _pawn_moves(self, frm: int, moves: list[int]) -> None:
        squares = self.squares
        us = self.turn
        forward = 16 if us == WHITE else -16
        last_rank = 7 if us == WHITE else 0
        targets = []
        to = frm + forward
        if not squares[to]:
            targets.append(to)
            start_rank = 1 if us == WHITE else 6
            if frm >> 4 == start_rank and not squares[to + forward]:
                targets.append(to + forward)
        for to in (frm + forward - 1, frm + forward + 1):
            if to & 0x88:
                continue
            target = squares[to]
            if (target and target >> 3 != us) or to == self.ep:
                targets.append(to)
        for to in targets:
            if to >> 4 == last_rank:
                for promotion in (QUEEN, KNIGHT, ROOK, BISHOP):
                    moves.append(frm | to << 7 | promotion << 14)
            else:
                moves.append(frm | to << 7)

    def _castling_moves(self, king: int, moves: list[int]) -> None:
        rights = self.castling >> (2 * self.turn) & 3
        if not rights:
            return
        squares = self.squares
        if rights & 1 and not squares[king + 1] and not squares[king + 2]:
            moves.append(king | (king + 2) << 7)
        if rights & 2 and not squares[king - 1] and not squares[king - 2] and not squares[king - 3]:
            moves.append(king | (king - 2) << 7)

    def _cached_moves(self) -> list[int]:
        """`legal_moves()`, computed once per position (recognised by its key): the list
        itself, which callers must not change."""
        if self.cached is None or self.cached_key != self.key:
            self.cached = self._legal_moves()
            self.cached_key = self.key
        return self.cached

    def legal_moves(self) -> list[int]:
        """Every legal move, in generation order (a new list)."""
        return list(self._cached_moves())

    def has_moves(self) -> bool:
        return bool(self._cached_moves())

    def is_over(self) -> bool:
        """No legal move, the fifty-move rule, insufficient material or a threefold
        repetition: the game is over."""
        return (
            not self._cached_moves()
            or self.halfmove >= 100
            or self.insufficient_material()
            or self.repetitions(self.halfmove) >= 2
        )

    def _legal_moves(self) -> list[int]:
        checkers, pinned = self._checks_and_pins()
        us = self.turn
        them = us ^ 1
        king = self.kings[us]
        squares = self.squares
        blocks: set[int] | None = None
        if len(checkers) == 1:
            checker = checkers[0]
            blocks = {checker}
            step = STEP[checker - king + 119]
            if step and squares[checker] & 7 in (BISHOP, ROOK, QUEEN):
                s = king + step
                while s != checker:
                    blocks.add(s)
                    s += step
        legal = []
        for move in self.pseudo_moves():
            frm = move & 127
            to = (move >> 7) & 127
            if frm == king:
                castles = to - frm == 2 or frm - to == 2
                if castles and (checkers or self.attacked((frm + to) >> 1, them)):
                    continue
                squares[king] = 0
                safe = not self.attacked(to, them)
                squares[king] = 8 * us + KING
                if safe:
                    legal.append(move)
                continue
            if len(checkers) > 1:
                continue
            if to == self.ep and squares[frm] & 7 == PAWN:
                self.play(move)
                safe = not self.attacked(king, them)
                self.undo()
                if safe:
                    legal.append(move)
                continue
            if blocks is not None and to not in blocks:
                continue
            if frm in pinned and STEP[to - king + 119] != pinned[frm]:
                continue
            legal.append(move)
        return legal

    def is_legal(self, move: int) -> bool:
        """Whether a move of `pseudo_moves` leaves the king safe (by making it)."""
        frm = move & 127
        to = (move >> 7) & 127
        us = self.turn
        if frm == self.kings[us] and (to - frm == 2 or frm - to == 2):
            them = us ^ 1
            if self.attacked(frm, them) or self.attacked((frm + to) >> 1, them):
                return False
        self.play(move)
        safe = not self.attacked(self.kings[us], us ^ 1)
        self.undo()
        return safe

    def noisy_moves(self) -> list[int]:
        """The captures and queen promotions among the legal moves, most valuable victim
        first, then least valuable attacker (MVV-LVA); ties in generation order."""
        squares = self.squares
        ep = self.ep
        scored = []
        for move in self._cached_moves():
            to = (move >> 7) & 127
            promotion = move >> 14
            attacker = squares[move & 127] & 7
            victim = squares[to] & 7
            if not victim:
                if to == ep and attacker == PAWN:
                    victim = PAWN
                elif promotion != QUEEN:
                    continue
            gain = VICTIM_VALUE[victim] + (VICTIM_VALUE[promotion] - 1 if promotion else 0)
            scored.append((attacker - 16 * gain, move))
        scored.sort(key=_first)
        return [move for _, move in scored]

    def ordered_moves(self) -> list[int]:
        """`noisy_moves()`, then the other legal moves in their order."""
        noisy = self.noisy_moves()
        chosen = set(noisy)
        return noisy + [move for move in self._cached_moves() if move not in chosen]

    # -- static exchange ------------------------------------------------------------------

    def exchange(self, move: int) -> int:
        """The static exchange evaluation of `move` (a capture or promotion) in centipawns:
        what the mover wins on the target square if both sides then recapture there with
        their least valuable attacker for as long as it pays (either may stop), x-rays
        through the pieces that left included, pins ignored. Negative: the move loses
        material."""
        squares = self.squares
        frm, to, promotion = move & 127, (move >> 7) & 127, move >> 14
        piece = squares[frm]
        gone = {frm}
        victim = squares[to] & 7
        if not victim and to == self.ep and piece & 7 == PAWN:
            victim = PAWN
            gone.add(to - 16 if piece >> 3 == WHITE else to + 16)
        gains = [EXCHANGE_VALUE[victim]]
        on_square = EXCHANGE_VALUE[piece & 7]
        if promotion:
            gains[0] += EXCHANGE_VALUE[promotion] - EXCHANGE_VALUE[PAWN]
            on_square = EXCHANGE_VALUE[promotion]
        side = piece >> 3 ^ 1
        while (attacker := self._least_attacker(to, side, gone)) >= 0:
            gains.append(on_square - gains[-1])  # the side's balance if the exchange ends here
            on_square = EXCHANGE_VALUE[squares[attacker] & 7]
            gone.add(attacker)
            side ^= 1
        for index in range(len(gains) - 1, 0, -1):  # each side stops where recapturing loses
            gains[index - 1] = -max(-gains[index - 1], gains[index])
        return gains[0]

    def _least_attacker(self, square: int, by: int, gone: set[int]) -> int:
        """The square of the least valuable piece of colour `by` that attacks `square` when
        the squares in `gone` are empty, or -1 (pawn, knight, bishop, rook, queen, king;
        within a kind: the pawn towards the a-file first, the others in step order)."""
        squares = self.squares
        pawn = 8 * by + PAWN
        for s in (square - 17, square - 15) if by == WHITE else (square + 15, square + 17):
            if not s & 0x88 and squares[s] == pawn and s not in gone:
                return s
        knight = self._stepping_attacker(square, KNIGHT_STEPS, 8 * by + KNIGHT, gone)
        if knight >= 0:
            return knight
        diagonal = self._ray_ends(square, BISHOP_STEPS, gone)
        straight = self._ray_ends(square, ROOK_STEPS, gone)
        for kind, ends in ((BISHOP, diagonal), (ROOK, straight), (QUEEN, diagonal + straight)):
            for s in ends:
                if squares[s] == 8 * by + kind:
                    return s
        return self._stepping_attacker(square, KING_STEPS, 8 * by + KING, gone)

    def _stepping_attacker(
        self, square: int, steps: tuple[int, ...], piece: int, gone: set[int]
    ) -> int:
        """The first square one of `steps` from `square` holding `piece` (not in `gone`),
        or -1."""
        squares = self.squares
        for step in steps:
            s = square + step
            if not s & 0x88 and squares[s] == piece and s not in gone:
                return s
        return -1

    def _ray_ends(self, square: int, steps: tuple[int, ...], gone: set[int]) -> list[int]:
        """The first piece along each of `steps` from `square` (the squares in `gone`
        empty), in step order."""
        squares = self.squares
        ends = []
        for step in steps:
            s = square + step
            while not s & 0x88:
                if squares[s] and s not in gone:
                    ends.append(s)
                    break
                s += step
        return ends

    def has_pieces(self) -> bool:
        """Whether the side to move has a piece besides king and pawns."""
        squares = self.squares
        turn = self.turn
        for square in ON_BOARD:
            piece = squares[square]
            if piece and piece >> 3 == turn and piece & 7 not in (PAWN, KING):
                return True
        return False

    def history_draw(self, root_ply: int) -> bool:
        """A repetition (`repeated_since`), or the fifty-move rule where no mate ends it."""
        if self.halfmove >= 100:
            return self.has_moves() or not self.in_check()
        return self.repeated_since(root_ply)

    def repeated_since(self, root_ply: int) -> bool:
        """Whether the position occurred before at or after history index `root_ply`, or
        twice before it (since the last capture, pawn move or null move)."""
        history = self.history
        key = self.key
        current = len(history) - 1
        before_root = 0
        for index in range(current - 4, current - 1 - min(self.halfmove, current), -2):
            if history[index] == key:
                if index >= root_ply:
                    return True
                before_root += 1
                if before_root == 2:
                    return True
        return False

    # -- draws ----------------------------------------------------------------------------

    def insufficient_material(self) -> bool:
        """Neither side can mate: no pawns, rooks or queens, and either a lone knight or
        bishops (of either side) all on squares of one colour (python-chess's rule)."""
        knights = 0
        bishop_colours = set()
        for square in ON_BOARD:
            piece = self.squares[square]
            kind = piece & 7
            if kind in (PAWN, ROOK, QUEEN):
                return False
            if kind == KNIGHT:
                knights += 1
            elif kind == BISHOP:
                bishop_colours.add(((square >> 4) + square) & 1)
        if knights:
            return knights == 1 and not bishop_colours
        return len(bishop_colours) <= 1

    def repetitions(self, since: int) -> int:
        """How often the current position occurred before, looking back no further than
        `since` positions (and never past the last capture, pawn move or null move)."""
        history = self.history
        key = self.key
        count = 0
        back = min(self.halfmove, since, len(history) - 1)
        for index in range(len(history) - 3, len(history) - 2 - back, -2):
            if history[index] == key:
                count += 1
        return count

    # -- evaluation -----------------------------------------------------------------------

    def evaluate(self, player: int | None = None) -> int:
        """PeSTO's tapered value in centipawns, from `player`'s point of view (None: the
        side to move's)."""
        phase = self.phase if self.phase < FULL_PHASE else FULL_PHASE
        blend = self.mg * phase + self.eg * (FULL_PHASE - phase)
        value = blend // FULL_PHASE if blend >= 0 else -(-blend // FULL_PHASE)  # to zero, as C
        side = self.turn if player is None else player
        return value if side == WHITE else -value


def _first(pair: tuple[int, int]) -> int:
    return pair[0]
