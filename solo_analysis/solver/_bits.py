"""Shared pieces of the solver's kernels: card tables, bit counts, suit helpers, intrinsics.

Encodings used by every kernel module (defined in :mod:`solo_analysis.cards`)
---------------------------------------------------------------------------
* card: ``suit * 13 + rank``; suit 0..3 = S H D C, rank 0..12 = 2..A, so within a suit a
  larger code is a higher card.
* hand: an int64 bitmask with bit ``card`` set (52 bits); the 13-bit mask of suit ``s`` is
  ``(hand >> (13 * s)) & SUIT_MASK``.  A position is ``h: int64[4]``, one hand a seat,
  seats 0..3 clockwise; play goes ``seat -> (seat + 1) & 3``.
* trump: 0..3 = S H D C, :data:`~solo_analysis.cards.NT` (4) = no trump.
* roles: ``maxer[seat]`` is 1 for the seats that try to *raise* the count, ``counted[seat]``
  1 for the seats whose tricks are counted, ``wants[seat]`` 1 where the seat wants tricks.  A
  normal contract has ``maxer == counted == wants == declarer side``; misère has ``maxer``
  the defence, ``counted`` the declarer and ``wants`` all 0 (the defence tries to force the
  declarer to win tricks, nobody wants tricks for himself).
* search stack: ``st: int64[56, 32]``, one row a depth (one card played per depth), its
  columns the ``ST_*`` constants below.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir as _ir
from numba import config, njit, types
from numba.extending import intrinsic

from ..cards import NT, SUIT_MASK

SUIT_OF = np.array([c // 13 for c in range(52)], dtype=np.int64)
RANK_OF = np.array([c % 13 for c in range(52)], dtype=np.int64)


# ---------------------------------------------------------------------------
# intrinsics (LLVM code written by hand), with plain-Python stand-ins for NUMBA_DISABLE_JIT=1

if config.DISABLE_JIT:

    def borrow(arr):
        """The array itself (no reference counts to avoid without numba)."""
        return arr

    def next_task(counter):
        """Return ``counter[0]`` and add 1 to it (one thread runs the tasks without numba)."""
        i = counter[0]
        counter[0] += 1
        return i

    def popcount(x):
        """Set bits of a 64-bit integer (an int64, as the compiled code's)."""
        return np.int64(bin(int(x) & 0xFFFF_FFFF_FFFF_FFFF).count("1"))

    def leading_zeros(x):
        """Zero bits above the highest set bit of a 64-bit integer (64 for 0)."""
        return np.int64(64 - (int(x) & 0xFFFF_FFFF_FFFF_FFFF).bit_length())

    def trailing_zeros(x):
        """Zero bits below the lowest set bit of a 64-bit integer (64 for 0)."""
        x = int(x) & 0xFFFF_FFFF_FFFF_FFFF
        return np.int64(((x & -x).bit_length() - 1) if x else 64)

else:

    @intrinsic
    def borrow(typingctx, arr):
        """The same array with no reference count to keep (a NULL meminfo): a borrowed view.

        numba counts references to an array at run time, with atomic operations, wherever a
        function or an inlined helper takes it.  The search works on borrowed views of its
        arrays, which its caller keeps alive, so that those counts become tests of a NULL
        pointer.
        """

        def codegen(context, builder, sig, args):
            val = args[0]
            return builder.insert_value(val, _ir.Constant(val.type.elements[0], None), 0)

        return arr(arr), codegen

    @intrinsic
    def next_task(typingctx, counter):
        """Atomically add 1 to ``counter[0]`` (an int64 array) and return its value before.

        The workers of :func:`~._kernels.solve_many` take their tasks one at a time from a
        shared counter, so a worker that drew short tasks takes over more of them while
        another works through a long one (numba splits a ``prange`` into fixed blocks up
        front).
        """

        def codegen(context, builder, sig, args):
            ary = context.make_array(sig.args[0])(context, builder, args[0])
            one = _ir.Constant(_ir.IntType(64), 1)
            return builder.atomic_rmw("add", ary.data, one, "monotonic")

        return types.int64(counter), codegen

    def _int64_intrinsic(emit, doc):
        """An intrinsic taking one integer (as int64) and returning ``emit(builder, value)``."""

        def typer(typingctx, x):
            if not isinstance(x, types.Integer):
                return None

            def codegen(context, builder, sig, args):
                return emit(builder, context.cast(builder, args[0], sig.args[0], types.int64))

            return types.int64(x), codegen

        typer.__doc__ = doc
        return intrinsic(typer)

    _NOT_UNDEF = _ir.Constant(_ir.IntType(1), 0)  # a zero input is defined: 64 zero bits
    popcount = _int64_intrinsic(
        lambda b, v: b.ctpop(v), "Set bits of an integer (the processor's popcount)."
    )
    leading_zeros = _int64_intrinsic(
        lambda b, v: b.ctlz(v, _NOT_UNDEF),
        "Zero bits above the highest set bit of a 64-bit integer (64 for 0).",
    )
    trailing_zeros = _int64_intrinsic(
        lambda b, v: b.cttz(v, _NOT_UNDEF),
        "Zero bits below the lowest set bit of a 64-bit integer (64 for 0).",
    )


@njit(cache=True, inline="always")
def pop13(x: int) -> int:
    """Number of cards in a suit mask."""
    return popcount(x)


@njit(cache=True, inline="always")
def hibit(x: int) -> int:
    """Rank of the highest set bit of a suit mask (0 for an empty mask)."""
    return 63 - leading_zeros(x | 1)


@njit(cache=True, inline="always")
def lowbit(x: int) -> int:
    """Rank of the lowest set bit of a suit mask (0 for an empty mask)."""
    return trailing_zeros(x) & 63


@njit(cache=True, inline="always")
def pop52(x: int) -> int:
    """Number of cards in a 52-bit hand mask."""
    return popcount(x)


@njit(cache=True, inline="always")
def top_run(mine: int, live: int) -> int:
    """Number of consecutive top cards of ``live`` (13-bit suit mask) held in ``mine``."""
    own = mine & live
    others = live & ~mine
    if others == 0:
        return pop13(own)
    return pop13(own >> (hibit(others) + 1))


@njit(cache=True, inline="always")
def top_cards_mask(live_s, k, base):
    """Bitmask (52-bit) of the top ``k`` live cards of one suit."""
    m = live_s
    drop = pop13(live_s) - k  # the lowest cards left out
    while drop > 0:
        m &= m - 1
        drop -= 1
    return np.int64(m) << base


@njit(cache=True, inline="always")
def top_run_mask(mine, live_s, base):
    """Bitmask (52-bit) of the consecutive top live cards of one suit held in ``mine``."""
    own = mine & live_s
    others = live_s & ~mine
    if others:
        own = (own >> (hibit(others) + 1)) << (hibit(others) + 1)
    return np.int64(own) << base


@njit(cache=True, inline="always")
def opponents_hold_trumps(h, trump, maxer, side):
    """True if a seat not on ``side`` holds a trump (always False in no trump)."""
    found = False
    if trump < NT:
        for o in range(4):
            if maxer[o] != side and (h[o] >> (13 * trump)) & SUIT_MASK:
                found = True
    return found


@njit(cache=True, inline="always")
def ruffers(h, s, trump):
    """The seats (bit ``seat``) void in side suit ``s`` that hold trumps (0 in no trump)."""
    found = 0
    if trump < NT and s != trump:
        for o in range(4):
            if ((h[o] >> (13 * s)) & SUIT_MASK) == 0 and ((h[o] >> (13 * trump)) & SUIT_MASK) != 0:
                found |= 1 << o
    return found


@njit(cache=True, inline="always")
def opponent_can_ruff(h, s, trump, maxer, side):
    """True if an opponent of ``side`` is void in side suit ``s`` and holds trumps."""
    found = ruffers(h, s, trump)
    for o in range(4):
        if (found >> o) & 1 and maxer[o] != side:
            return True
    return False


@njit(cache=True, nogil=True)
def choices(hand, legal, gone, high, out):
    """Fill ``out`` with one card a run of touching legal cards; return how many.

    ``legal`` is a mask of the legal cards, ``gone`` the cards of finished tricks: two legal
    cards touch when every card between them is gone or in ``hand`` (the cards of the trick
    in progress separate them).  A run is played as its lowest card, or its highest if
    ``high``.  Cards are visited in code order (suit by suit, low to high).
    """
    k = 0
    first = -1
    last = -1
    for card in range(52):
        if not (legal >> card) & 1:
            continue
        if last >= 0 and card // 13 == last // 13:
            between = ((np.int64(1) << card) - 1) & ~((np.int64(1) << (last + 1)) - 1)
            if between & ~(gone | hand) == 0:
                last = card
                continue
        if last >= 0:
            out[k] = last if high else first
            k += 1
        first = card
        last = card
    if last >= 0:
        out[k] = last if high else first
        k += 1
    return k


# ---------------------------------------------------------------------------
# columns of the search stack ``st`` (int64, shape (56, 32)): row d describes depth d
ST_NPL = 0  # cards already played to the current trick
ST_LEADER = 1  # seat that led the current trick
ST_LED = 2  # suit led (-1 at a trick boundary)
ST_WC = 3  # card winning the trick so far; at a boundary: the last trick's winner
ST_WS = 4  # seat winning the trick so far
ST_TMASK = 5  # cards played to the current trick
ST_NEED = 6  # counted tricks still needed from here
ST_SEAT = 7  # seat to play
ST_NM = 8  # number of generated moves; -1 none yet, -2 only the killer lead (see _search)
ST_NEXT = 9  # next move to try
ST_SLOT = 10  # transposition-table bucket (boundary positions still to be stored) or -1
ST_CARD = 11  # card being tried
ST_REL = 12  # relevant cards (52-bit) gathered from the children searched
ST_LENS = 13  # hand-suit lengths of a boundary position (4 bits each, see _table.tt_key)
ST_SEQ = 14  # 14..17: owner sequence of each suit's live cards (see _table.suit_seq)
ST_NLIVE = 18  # 18..21: live cards in each suit
ST_LW = 22  # 4 bits a suit: moves of the mover below this rank are skipped (15: none)
ST_KEY = 23  # table key of a boundary position (see _table.tt_key)
ST_SIG = 24  # owners of each suit's top two live cards at a boundary (see _table)
