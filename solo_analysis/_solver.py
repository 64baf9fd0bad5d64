"""Numba kernel of the double-dummy solver (private; see :mod:`solo_analysis.solver`).

Encoding used throughout this module
------------------------------------
* card: int ``suit * 13 + rank_index``; suit 0..3 = S H D C, rank_index 0..12 = 2..A,
  so within a suit a larger code is a higher card.
* hand: int64 bitmask with bit ``card`` set (52 bits; suit ``s`` is
  ``(mask >> (13 * s)) & 0x1FFF``).  A position is ``hands: int64[4]``, seats 0..3
  clockwise (N E S W for a :class:`~solo_analysis.cards.Deal`, eldest..dealer for
  the sampler); play goes ``seat -> (seat + 1) & 3``.
* trump: 0..3 = S H D C, 4 = no trump.
* ``maxer[seat]`` is 1 for the seats that try to *raise* the count, ``counted[seat]``
  is 1 for the seats whose tricks are counted.  A normal contract has
  ``maxer == counted == declarer side``; misère has ``maxer = defence`` and
  ``counted = declarer`` (the defence tries to force the declarer to win tricks).

Search
------
``_search`` answers the zero-window question "can the ``maxer`` side make the
``counted`` seats take at least ``need`` of the remaining tricks?" by alpha-beta
over single card plays.  At each trick boundary it uses

* trivial bounds (``need <= 0`` / ``need > tricks left``),
* quick-trick bounds for normal contracts at no trump (in a trump contract only at the
  root, or with a lone declarer on lead): tricks the side on lead can cash at once from
  top cards, its own or (after crossing in a suit where a team-mate holds the top card)
  a team-mate's, capped where an opponent could ruff,
* in a trump contract, one sure trick for the side on lead (the top card of a suit it can
  lead that no opponent can ruff) where one trick decides,
* sure trump tricks for either side: a hand whose ``j`` highest trumps have only
  ``c`` opposing trumps above the ``j``-th takes at least ``j - c`` tricks,
* at no trump or with no trumps left, DDS's "later tricks" bound: a side that needs every
  remaining trick fails if the suits whose top card it holds cannot supply them,
* a misère safety test (no trump): the declarer can never again be forced to win,
* a transposition table keyed on the hand-suit lengths and the leader, holding for
  each key up to ``TT_WAYS`` entries, each a *pattern* of relative ranks (who holds
  the 1st, 2nd, ... highest remaining card of each suit, down to the lowest card the
  result depended on; a bound's relevant cards leave out suits nobody else holds, and
  trumps when the other side holds none) with lower and upper bounds, so that positions
  differing only in irrelevant small cards share one entry and successive zero-window
  searches on the same deal share their work;

at the second card of a trick at no trump, the tricks the second hand's side surely takes
(this trick, when one of its hands still to play holds the top card of the led suit among
them, and the winner's top runs after it); and it generates one card per run of
equivalent cards (cards of one hand with no card of another hand, or of the current
trick, between them), ordered by win-cheaply / duck heuristics with weights tuned on node
counts, a history score and the killer lead of the stack depth (first at no trump, a small
bonus in trumps).  Once a move has failed, the
mover's other cards of its suit that lie below every card its refutation depended on are
skipped: the same refutation answers them (the "lowest win" rule of DDS; about 2x fewer
nodes).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir as _ir
from numba import get_thread_id, njit, prange, types
from numba.extending import intrinsic

# ---------------------------------------------------------------------------
# small tables
# ---------------------------------------------------------------------------
_POP13 = np.array([bin(i).count("1") for i in range(1 << 13)], dtype=np.int64)

TT_BITS_DEFAULT = 19
NT = 4

_MASK13 = 0x1FFF
_SUIT_OF = np.array([c // 13 for c in range(52)], dtype=np.int64)
_RANK_OF = np.array([c % 13 for c in range(52)], dtype=np.int64)
_HIBIT = np.array(
    [0] + [i.bit_length() - 1 for i in range(1, 1 << 13)], dtype=np.int64
)  # highest set bit
_LOWBIT = np.array([0] + [(i & -i).bit_length() - 1 for i in range(1, 1 << 13)], dtype=np.int64)
_HASH_A = 0x1F3D5B79A3C4E2B5 & 0x7FFFFFFFFFFFFFFF
_HASH_B = 0x2545F4914F6CDD1D
_HASH_C = 0x1E3779B97F4A7C15


@njit(cache=True, inline="always")
def _pop52(x: int) -> int:
    return (
        _POP13[x & _MASK13]
        + _POP13[(x >> 13) & _MASK13]
        + _POP13[(x >> 26) & _MASK13]
        + _POP13[(x >> 39) & _MASK13]
    )


@njit(cache=True, inline="always")
def _top_run(mine: int, live: int) -> int:
    """Number of consecutive top cards of ``live`` (13-bit suit mask) held in ``mine``."""
    n = 0
    r = 12
    while r >= 0:
        b = 1 << r
        if live & b:
            if mine & b:
                n += 1
            else:
                break
        r -= 1
    return n


@intrinsic
def _borrow(typingctx, arr):
    """The same array with no reference count to keep (a NULL meminfo): a borrowed view.

    numba counts references to an array at run time, with atomic operations, wherever a
    function or an inlined helper takes it; in :func:`_search` those left after numba's
    pruning took 10-12 % of the samples of a profile (``perf``, N+S 8 in hearts).  The
    search works on borrowed views of its arrays, which its caller keeps alive: the counts
    become tests of a NULL pointer.  200 random deals, N+S 8 in hearts and 5 / 9 NT: -0.6
    to -3.3 % time (10 runs), same positions.
    """

    def codegen(context, builder, sig, args):
        val = args[0]
        return builder.insert_value(val, _ir.Constant(val.type.elements[0], None), 0)

    return arr(arr), codegen


@intrinsic
def _next_task(typingctx, counter):
    """Atomically add 1 to ``counter[0]`` (an int64 array) and return its value before.

    The worker threads of :func:`solve_many` take their tasks one at a time from a shared
    counter, so a thread that drew short tasks takes over more of them while another works
    through a long one (numba's OpenMP layer splits a ``prange`` into fixed blocks up front).
    """

    def codegen(context, builder, sig, args):
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        return builder.atomic_rmw("add", ary.data, _ir.Constant(_ir.IntType(64), 1), "monotonic")

    return types.int64(counter), codegen


# ---------------------------------------------------------------------------
# transposition table
#
# Entries are found by the hand-suit lengths of a trick-boundary position and the
# leader (hashed to a bucket of TT_WAYS entries: one key can have many patterns, and
# too few ways made the table forget them - 4 ways searched ~10x more nodes), and
# hold a *pattern*: for each suit, the owners of its top ``k`` remaining
# cards (the cards whose ranks mattered to the result, as in DDS's "winning ranks").
# A stored bound applies to every position with the same lengths and leader whose
# top cards have the same owners, whatever happens below them.
#
#   index[b, 0] = ways of bucket b written by the current solve (reset to 0 when a solve
#                 starts): its entries are the first min(index[b, 0], TT_WAYS) ways
#                 (:func:`_fill`); past TT_WAYS it picks the way to overwrite, round-robin
#   index[b, 1 + w] = (hash << 40) | (signature << 8) | (lower << 4) | upper for way w:
#                 a 22-bit hash of the position's key (:func:`_tt_key`, :func:`_key_hash`),
#                 the pattern's signature (below) and the bounds on the counted side's
#                 remaining tricks
#   info[b * TT_WAYS + w] = [pattern S | pattern H << 32, pattern D | pattern C << 32, key]
#   pattern = (k << 26) | owners of the top k cards, highest first, 2 bits each (30 bits)
#   signature = the owners of each suit's top card (bits 0-7, 2 a suit) and second card
#               (bits 8-15) where the pattern fixes them, and in bits 16-31 a mask of 3s
#               saying where it does
#
# A probe scans the index words, which lie together, and reads a way's row only where the
# hash matches, the signature agrees with the position's top two owners of every suit and
# the bounds decide: on 100 random deals, N+S 8 in hearts, a probe scans 38 ways, 10.5 of
# them of the same key, of which 7.9 have bounds that decide and 7.2 a pattern that does not
# fit.  Against rows [lengths, leader, 4 patterns] and an array of bounds, the index words
# alone (key and bounds), 200 random deals, N+S 8 in hearts / 5 and 9 NT: -6 / -3 / -3 %
# time; the signatures then another -11 / -10 / -12 % (Prop-Cop and Misère on sampled deals
# -7 / -9 %), same positions.  A third card in the signature (with a 6-bit hash): no gain.
#
# 256 ways (1024 buckets of 2**18 entries when this was measured): a probe scans only the
# ways of the current solve, so more ways cost little while the table keeps more patterns of
# a key.
# Against 128 (same-run timings, with the newest-first scan): a lone declarer's Solo on 150
# sampled deals of bench_advise.py's ordinary hand 24.0 M -> 15.3 M positions, 2.33 ->
# 1.69 s (another 150, one deal of 541 M positions among them: 578 M -> 304 M, 66 -> 46 s);
# bench_solver's deals, N+S 8 / 5 in hearts, 8 / 9 NT, -1.9 % time in all (16 runs); Prop-Cop
# and Misère within +-2 %.  512 ways took 10 % more time at 9 NT; 64 ways 4-5 % more positions.
#
# 2**19 entries (TT_BITS_DEFAULT; 32 bytes an entry with the patterns two to a word, 16.8 MB
# a thread) instead of 2**18: the hard deals keep more of their work.  bench_solver's
# hardest deal of seed 4 (N+S 8 in hearts) 10.7 M -> 7.3 M positions, 3.6 -> 2.5 s (2**20:
# 5.8 M, 2.0 s); seed 4's eight questions 13.76 -> 12.45 s; seed 1's within noise (8.20 ->
# 8.07 s); 300 sampled deals of the ordinary hand, Prop-Cop and Solo questions, 2 threads:
# -4 to -8 % time.  Packing the patterns costs no time (same positions, 8 in hearts +-0.5 %).
# ---------------------------------------------------------------------------
TT_WAYS = 256
# True: store whole positions (every live card relevant) instead of winning-rank
# patterns.  A debugging switch: the patterns are exact (checked against the oracle).
EXACT_TT = False
_HASH_SHIFT = 40  # an index word: key hash << 40, signature << 8, lower bound << 4, upper bound
_OWN26 = (1 << 26) - 1


@njit(cache=True, inline="always")
def _suit_seq(h, live_s, base):
    """Owners (2 bits each, highest card first) of the live cards of one suit."""
    seq = 0
    r = 12
    while r >= 0:
        if live_s & (1 << r):
            b = 1 << (base + r)
            if h[0] & b:
                o = 0
            elif h[1] & b:
                o = 1
            elif h[2] & b:
                o = 2
            else:
                o = 3
            seq = (seq << 2) | o
        r -= 1
    return seq


@njit(cache=True, inline="always")
def _top_cards_mask(live_s, k, base):
    """Bitmask (52-bit) of the top ``k`` live cards of one suit."""
    m = 0
    r = 12
    while r >= 0 and k > 0:
        if live_s & (1 << r):
            m |= 1 << (base + r)
            k -= 1
        r -= 1
    return m


@njit(cache=True, inline="always")
def _top_run_mask(mine, live_s, base):
    """Bitmask (52-bit) of the consecutive top live cards of one suit held in ``mine``."""
    m = 0
    r = 12
    while r >= 0:
        b = 1 << r
        if live_s & b:
            if mine & b:
                m |= 1 << (base + r)
            else:
                break
        r -= 1
    return m


@njit(cache=True, inline="always")
def _opponents_hold_trumps(h, trump, maxer, side):
    """True if a seat not on ``side`` holds a trump (always False in no trump)."""
    found = False
    if trump < 4:
        for o in range(4):
            if maxer[o] != side and (h[o] >> (13 * trump)) & _MASK13:
                found = True
    return found


@njit(cache=True, inline="always")
def _opponent_can_ruff(h, s, trump, maxer, side):
    """True if an opponent of ``side`` is void in side suit ``s`` and holds trumps."""
    if trump >= 4 or s == trump:
        return False
    for o in range(4):
        if (
            maxer[o] != side
            and ((h[o] >> (13 * s)) & _MASK13) == 0
            and ((h[o] >> (13 * trump)) & _MASK13) != 0
        ):
            return True
    return False


# ---------------------------------------------------------------------------
# move generation
# ---------------------------------------------------------------------------
# Leads are also ordered by the size of the subtree they open (the idea behind DDS's
# lead weights): each card the opponents can answer with costs this much.  On 60
# random deals (one thread, node counts) it took the searches of N+S making 8 in
# hearts from 10.5 M to 6.6 M nodes, 8 in no trump from 12.7 M to 6.9 M, Solo
# questions 1.6-1.9x fewer, and a misère set that hit a 20 M node limit to 0.4 M.
_LEAD_SIZE_WEIGHT = 8
_LEAD_SIZE_WEIGHT_TRUMPS = 10  # retuned with the other trump-contract lead weights (below)


# _gen_moves, _tt_probe and _tt_store are inlined into _search (numba IR inlining): no call
# or reference counting of the arrays they take at every node; same-run timings on bridge
# questions (100 deals, node counts unchanged) 6-12 % less time, for ~1 s more compilation.
@njit(cache=True, inline="always")
def _gen_moves(
    h, seat, npl, led, win_card, win_seat, tmask, trump, maxer, wants, moves, scores, depth, hist
):
    """Fill ``moves[depth]`` with one card per equivalence run, best first; return count."""
    hand = h[seat]
    live = h[0] | h[1] | h[2] | h[3] | tmask
    if npl > 0:
        follow = hand & (_MASK13 << (13 * led))
        if follow != 0:
            # A single run of equivalent cards (no other hand's live card between the
            # highest and the lowest): the one move, no scores needed.  35-40 % of the
            # follows of bench_solver's questions; 200 random deals, N+S 8 in hearts / 5 NT:
            # -0.5 to -2.5 % time (6 runs), same positions.
            m = (follow >> (13 * led)) & _MASK13
            hi = _HIBIT[m]
            span = ((2 << hi) - 1) & ~((1 << _LOWBIT[m]) - 1)
            if (((live >> (13 * led)) & _MASK13) & span) == m:
                moves[depth, 0] = 13 * led + hi
                return 1
        legal = follow if follow != 0 else hand
    else:
        legal = hand
    nm = 0
    wsuit = win_card // 13 if npl > 0 else -1
    partner_winning = npl > 0 and maxer[win_seat] == maxer[seat]
    want = wants[seat]
    # who plays after this seat in the current trick
    mate_after = False
    opp_after = False
    n_opp = 0  # seats on the other side (leads only): 1 for a defender against a lone declarer
    if npl == 0:
        for o in range(4):
            if maxer[o] != maxer[seat]:
                n_opp += 1
    for j in range(npl + 1, 4):
        o = (seat + j - npl) & 3
        if maxer[o] == maxer[seat]:
            mate_after = True
        else:
            opp_after = True
    # The hands still to play to this trick: the led suit's highest card among the opponents
    # (``opp_hi``) and among the team-mates (``mate_hi``), and the highest trump of an
    # opponent who is void in it (``opp_thi``: he can ruff; -1 if none, always at no trump).
    opp_hi = -1
    mate_hi = -1
    opp_thi = -1
    if npl > 0:
        for j in range(npl + 1, 4):
            o = (seat + j - npl) & 3
            ho = (h[o] >> (13 * led)) & _MASK13
            if ho:
                c = 13 * led + _HIBIT[ho]
                if maxer[o] != maxer[seat]:
                    opp_hi = max(opp_hi, c)
                else:
                    mate_hi = max(mate_hi, c)
            elif trump < 4 and maxer[o] != maxer[seat]:
                ht = (h[o] >> (13 * trump)) & _MASK13
                if ht:
                    opp_thi = max(opp_thi, 13 * trump + _HIBIT[ht])
    # A team-mate's card winning so far counts as winning (for the side that wants tricks)
    # only if no opponent still to play can beat it (a third hand then tries to win the trick
    # himself).  With the sure winners tried first (below), 100 random deals, N+S 8 / 5 / 9,
    # East leading, boundary positions: no trump -29 / -25 / -31 % (seed 1), hearts -26 / -19
    # / -21 %; 200 deals of seed 2: no trump -30 / -21 / -27 %, hearts -34 / -28 / -25 %; 100
    # sampled deals of bench_advise.py's ordinary hand (two sets): Prop-Cop -21 to -47 %, Solo
    # -40 to -42 %.
    mate_wins = partner_winning
    if partner_winning:
        if wsuit == led:
            mate_wins = win_card > opp_hi and opp_thi < 0
        else:
            mate_wins = win_card > opp_thi  # a team-mate's ruff: can it be over-ruffed?
    # A team-mate still to play surely wins the trick (the led suit's top card among the hands
    # still to play, above the card winning so far, no opponent left who can ruff): the mover
    # plays as under a team-mate's winning card, low.  100 random deals (seed 1), 8 / 5 / 9:
    # no trump -11 / -3 / -17 %, hearts -5 / +8 / -9 % positions; 200 of seed 2: no trump -22 /
    # -17 / -31 %, hearts -1 / -5 / -19 %; 150 of seed 3: no trump -14 / -15 / +4 %, hearts +8 /
    # -10 / -8 %; 100 sampled deals of the ordinary hand (two sets): Prop-Cop -5 to -14 %, Solo
    # -4 to -9 %.  This covers the earlier rule for a void follower holding trumps there (a
    # ruff tried after the discards: bench_solver's hardest deal of seed 4, N+S 8 in hearts,
    # 7.3 M -> 3.8 M positions), which now scores his ruffs like his discards.
    if npl > 0 and wsuit == led and mate_hi > opp_hi and mate_hi > win_card and opp_thi < 0:
        mate_wins = True
    for s in range(4):
        m = (legal >> (13 * s)) & _MASK13
        if m == 0:
            continue
        L = (live >> (13 * s)) & _MASK13
        slen = _POP13[(hand >> (13 * s)) & _MASK13]
        if npl == 0:
            # who holds the suit's top live card: a team-mate, or an opponent (and whether
            # that opponent plays last to the trick); an opponent able to ruff
            mate_top = False
            mate_pos = 0
            mate_len = 0
            opp_top = False
            rho_top = False
            if L:
                tb = 13 * s + _HIBIT[L]
                for o in range(4):
                    if o != seat and (h[o] >> tb) & 1:
                        if maxer[o] == maxer[seat]:
                            mate_top = True
                            mate_pos = (o - seat) & 3
                            mate_len = _POP13[(h[o] >> (13 * s)) & _MASK13]
                        else:
                            opp_top = True
                            rho_top = o == ((seat + 3) & 3)
            ruff_risk = _opponent_can_ruff(h, s, trump, maxer, maxer[seat])
            # cards the opponents can answer this lead with (a void opponent may
            # discard anything): the fewer, the smaller the subtree
            opp_cards = 0
            for o in range(4):
                if maxer[o] != maxer[seat]:
                    lo = _POP13[(h[o] >> (13 * s)) & _MASK13]
                    opp_cards += lo if lo > 0 else _pop52(hand)
        # Walk the mover's cards only, high to low (a walk over all 13 ranks took 15-20 %
        # more time in all): a card heads a run unless the next live card above it is his.
        others = L & ~m
        x = m
        while x:
            r = _HIBIT[x]
            b = 1 << r
            x ^= b
            above = L & ~((b << 1) - 1)
            if above & -above & m:
                continue  # the live card just above is the mover's: same run
            top = (others & above) == 0  # above every card of other hands in this suit
            c = 13 * s + r
            # ---- heuristic score (higher is tried first) ----
            if npl == 0:
                # Weights tuned on node counts.  In trump contracts by coordinate descent
                # on 150 random deals (N+S 8 / 5 / 9 in hearts) and 150 sampled deals of
                # bench_advise.py's ordinary hand (Solo, Prop-Cop), other deals than the
                # ones measured: held-out Solo -56 %, Prop-Cop -15 %, bridge hearts -2 to
                # -5 % nodes.  At no trump the same tuning did not carry over to other
                # deals (-2 to +7 %), so those weights stay as they were.
                if want:
                    if top:
                        sc = 60 + slen  # cash a winner
                    elif mate_top:
                        # cross to a team-mate's winner: high (unblocking), but low to
                        # a partner across the table in a two-against-two trump contract
                        # (an opponent plays between and after): 150-200 sampled deals of
                        # the ordinary hand, Prop-Cop with the dealer -2 / -6 % positions,
                        # the other rows unchanged; bridge hearts 8 / 5 / 9 (East leading,
                        # N+S): -4 / -8 / -7 % (seed 1), -19 / -9 / -12 % (seed 4); no trump
                        # untouched (+1 to +14 % there).  Low, too, to a bare top card (a
                        # high card would fall under it): 200 sampled deals (two sets),
                        # Solo -7 / -1 %, Prop-Cop -1 to +0 %; no trump -3 / +1 / -3 %
                        # (seed 1), -12 / -7 / -3 % (seed 2); hearts unchanged
                        if (mate_pos == 2 and n_opp == 2 and trump < 4) or mate_len == 1:
                            sc = 50 - r
                        else:
                            sc = 50 + r
                    else:
                        sc = (20 if trump == 4 else -10) + slen + r
                    if ruff_risk:
                        sc -= 30
                    if s == trump:
                        # a lone declarer draws trumps (100 random deals, Solo 5 in hearts
                        # declarer South / 6 declarer North on lead / 5 in spades declarer
                        # East: -49 / -35 / -20 % positions (seed 1), -3 / +4 / -80 % (seed
                        # 2); 200 sampled deals of the ordinary hand (two sets), Solo -53 /
                        # -33 %; chosen among +15 .. +45 on those; held out: seeds 3 and 4
                        # -32 / -15 / -34 % and +25 / -17 / -18 %, sampled -16 / -20 %);
                        # everyone else leads trumps late.  Limiting it to a declarer longer
                        # in trumps than every defender, or a bonus of 0 otherwise: worse
                        sc += 30 if n_opp == 3 else -15
                    if opp_top:
                        sc += 15  # knock out an opponent's winner
                    if rho_top and trump < 4:
                        sc -= 10  # (without: Solo +10 % nodes)
                    if rho_top and trump == 4 and not top:
                        # at no trump, into the top card of the hand that plays last (who
                        # wins cheaply), the more so the higher the card: 8 / 5 / 9, East
                        # leading, positions -5 / -24 / -3 % (100 deals, seed 1), -18 / -7 /
                        # -3 % (200, seed 2), held out -6 / -6 / -8 % (150, seed 3)
                        sc -= 15 + r
                elif maxer[seat]:
                    sc = 40  # misère defence (see the follow weights)
                else:
                    sc = 40 - r
                sc -= (_LEAD_SIZE_WEIGHT if trump == 4 else _LEAD_SIZE_WEIGHT_TRUMPS) * opp_cards
                if hist[4, depth] == c + 1:
                    # the killer lead: the last lead that cut off at this depth.  First at
                    # no trump: 100 random deals, N+S 8 / 5 / 9, East leading: -14 / -10 /
                    # -17 % nodes (seed 1), -20 / -15 / -21 % (seed 2); in trumps only a
                    # bonus of 20 (as the first move it cost up to +20 % nodes there).
                    sc += 1000 if trump == 4 else 20
            else:
                if s == wsuit:
                    beats = c > win_card
                else:
                    beats = s == trump
                if want:
                    # Tuned like the leads.  In trump contracts (held-out sampled deals:
                    # Solo -50 %, Prop-Cop -19 % nodes; bridge hearts 8 / 5 / 9 +6 / -3 /
                    # -7 %): no preference among the ranks that win or leave it to a
                    # team-mate, and ruff low.  At no trump (200 random deals, N+S 8 / 5 /
                    # 9, East leading: -9 / -15 / -12 % nodes, seed 1; -15 / -19 / -32 %,
                    # seed 2): no preference among the ranks left to a team-mate, and
                    # discards from long suits first.
                    if mate_wins:
                        sc = 30 - r
                    elif beats:
                        if not opp_after:
                            sc = 50 - r  # last of its side: win cheaply
                        elif (s == led and c > opp_hi and opp_thi < 0) or (
                            s != led and c > opp_thi
                        ):
                            sc = 70 - r  # wins whatever the opponents play: cheaply
                        elif top and s != trump:
                            sc = 55  # a sure winner in the suit
                        elif mate_after:
                            sc = 35 if trump == 4 else 30  # leave it to a team-mate
                        elif trump == 4:
                            sc = 45 + r  # win as high as possible
                        else:
                            sc = 45
                        if s == trump and led != trump:
                            sc -= r  # a ruff (or over-ruff): as low as wins
                    else:
                        sc = 20 - r
                    if trump == 4 and s != led:
                        sc += 4 * slen  # a discard
                    elif s != led and s != trump:
                        # a discard in a trump contract: from long suits, less strongly.
                        # 8 / 5 / 9 in hearts, East leading, positions -8 / -2 / -17 % (100
                        # deals, seed 1), -7 / -6 / -7 % (200, seed 2); sampled deals of the
                        # ordinary hand (two sets of 100): Prop-Cop -5 / -3 / -2 / -4 %, Solo
                        # +2 / -10 % (weights 1 and 3: less)
                        sc += 2 * slen
                elif maxer[seat]:
                    # Misère defence (the side that wants the declarer to win a trick).
                    # Tuned like the others on sampled deals of middling hands (and
                    # random deals): once the declarer has ducked under a team-mate's
                    # card, shed the highest card; no rank preference for its leads or for
                    # overtaking the declarer; discards from long suits.  Six sets of 200
                    # deals (four hands, two of random deals; two sets not used in the
                    # tuning): deals unsolved at 2 M positions 15 -> 11 in all, time -28 %;
                    # worst set: random deals, seed 2, 1 -> 2 unsolved.
                    if beats and (opp_after or not partner_winning):
                        sc = 10 - r if opp_after else 10
                    else:
                        sc = 40 + r
                    if s != led:
                        sc += slen
                else:
                    if beats:
                        sc = 10 - r  # a card that wins: last, lowest first
                    else:
                        sc = 40  # a card that ducks
            hv = hist[seat, c]
            if hv > 1048575:
                hv = 1048575
            sc = sc * 1048576 + hv
            # insertion into the sorted list
            j = nm
            while j > 0 and scores[depth, j - 1] < sc:
                moves[depth, j] = moves[depth, j - 1]
                scores[depth, j] = scores[depth, j - 1]
                j -= 1
            moves[depth, j] = c
            scores[depth, j] = sc
            nm += 1
    return nm


# ---------------------------------------------------------------------------
# quick tricks and sure trump tricks (bounds at a trick boundary)
# ---------------------------------------------------------------------------
@njit(cache=True)
def _own_quick_tricks(h, hand_seat, trump, live, maxer):
    """Tricks ``hand_seat`` can take at once on lead by cashing its own top cards.

    Per suit, the top run; where it is at least as long as every other hand's holding,
    the whole suit (the others are out of it by then; in a side suit of a trump
    contract only if no opponent holds trumps).  Side suits of a trump contract are
    capped by the length of every opponent who holds trumps (he could ruff once void).
    Returns ``(tricks, relevant, suits)``: ``relevant`` the 52-bit mask of the top cards the
    count relies on (none in a suit nobody else holds), ``suits`` a bit for each suit counted.
    """
    hand = h[hand_seat]
    side = maxer[hand_seat]
    opp_trumps = _opponents_hold_trumps(h, trump, maxer, side)
    trump_tricks = 0
    side_tricks = 0
    rel = 0
    suits = 0
    for s in range(4):
        m = (hand >> (13 * s)) & _MASK13
        if m == 0:
            continue
        ls = (live >> (13 * s)) & _MASK13
        k = _top_run(m, ls)
        if k == 0:
            continue
        longest_other = 0
        for o in range(4):
            if o != hand_seat:
                lo = _POP13[(h[o] >> (13 * s)) & _MASK13]
                if lo > longest_other:
                    longest_other = lo
        top = k  # the top cards the count relies on
        if k >= longest_other and (s == trump or not opp_trumps):
            k = _POP13[m]
            top = longest_other  # once the others are out, the rest of the suit wins too
        elif trump < 4 and s != trump:
            for o in range(4):
                if maxer[o] == side:
                    continue
                if (h[o] >> (13 * trump)) & _MASK13:
                    lo = _POP13[(h[o] >> (13 * s)) & _MASK13]
                    if lo < k:
                        k = lo
            top = k
        if k > 0:
            suits |= 1 << s
            if s == trump:
                trump_tricks += k
            else:
                side_tricks += k
            if top > 0:  # in a suit nobody else holds the ranks do not matter
                rel |= _top_cards_mask(ls, top, 13 * s)
    if trump < 4 and side_tricks > 0:
        # A team-mate holding only trumps must ruff a side-suit winner and take the
        # lead: one with f other cards lets at most f + 1 of them be cashed in a row.
        for o in range(4):
            if o == hand_seat or maxer[o] != side or ((h[o] >> (13 * trump)) & _MASK13) == 0:
                continue
            free = _pop52(h[o]) - _POP13[(h[o] >> (13 * trump)) & _MASK13]
            if side_tricks > free + 1:
                side_tricks = free + 1
    return trump_tricks + side_tricks, rel, suits


@njit(cache=True)
def _quick_tricks(h, leader, trump, live, maxer):
    """Tricks the side on lead can take at once (a lower bound).

    The largest of: the leader cashing his own top cards; the leader crossing to a
    team-mate who holds the top card of a suit the leader can lead (and no opponent
    can ruff it) and the team-mate cashing his; and, when no opponent holds a trump,
    both in turn (the leader's winners, then the crossing, then the team-mate's), if
    the team-mate has enough cards outside the suits he cashes to follow or discard
    through the leader's run.  Returns ``(tricks, relevant)``.
    """
    best, rel, _ = _own_quick_tricks(h, leader, trump, live, maxer)
    own = best
    own_rel = rel
    side = maxer[leader]
    hand = h[leader]
    combine = not _opponents_hold_trumps(h, trump, maxer, side)
    etop = 0
    for p in range(4):
        if p == leader or maxer[p] != side:
            continue
        entry = False
        for s in range(4):
            if ((hand >> (13 * s)) & _MASK13) == 0:
                continue
            ls = (live >> (13 * s)) & _MASK13
            if ls == 0:
                continue
            top = 12
            while not (ls >> top) & 1:
                top -= 1
            if not (h[p] >> (13 * s + top)) & 1:
                continue
            if not _opponent_can_ruff(h, s, trump, maxer, side):
                entry = True
                etop = 13 * s + top
                break
        if entry:
            t, r, cashed = _own_quick_tricks(h, p, trump, live, maxer)
            if t > best:
                best = t
                rel = r
            if combine and t > 0 and own > 0:
                # cash the leader's winners, cross in ``e`` and cash the team-mate's: sound
                # when nobody on the other side can ruff, and the team-mate can follow or
                # discard through the leader's run without giving up a card of a suit he
                # cashes
                busy = 0
                for s in range(4):
                    ps_ = (h[p] >> (13 * s)) & _MASK13
                    if ps_ and (cashed >> s) & 1:
                        busy += _POP13[ps_]
                if _pop52(h[p]) - busy >= own and own + t > best:
                    best = own + t
                    if best > _pop52(hand):
                        best = _pop52(hand)
                    rel = own_rel | r | (np.int64(1) << etop)
    return best, rel


@njit(cache=True)
def _sure_trumps(h, trump, side, want_side, live):
    """Sure trump tricks of the seats with ``side == want_side``.

    One hand's trumps go to different tricks, and a trump of that hand loses its
    trick only to a higher trump of the other side, each of which can beat one of
    them.  So if the hand's ``j`` highest trumps have only ``c`` trumps of the other
    side above the ``j``-th, at least ``j - c`` of them win (the side takes at least
    that many tricks).  Returns ``(tricks, relevant)``, ``relevant`` the live trumps
    from the top down to the deciding one.
    """
    lt = (live >> (13 * trump)) & _MASK13
    theirs = 0
    for o in range(4):
        if side[o] != want_side:
            theirs |= (h[o] >> (13 * trump)) & _MASK13
    best = 0
    low = 13
    for o in range(4):
        if side[o] != want_side:
            continue
        mine = (h[o] >> (13 * trump)) & _MASK13
        if mine == 0:
            continue
        c = 0
        j = 0
        r = 12
        while r >= 0:
            b = 1 << r
            if theirs & b:
                c += 1
            elif mine & b:
                j += 1
                if j - c > best:
                    best = j - c
                    low = r
            r -= 1
    rel = 0
    if best > 0 and theirs != 0:  # against no trumps any trump wins: ranks do not matter
        rel = (lt & ~((1 << low) - 1)) << (13 * trump)
    return best, rel


@njit(cache=True, inline="always")
def _lone_declarer(counted):
    """The one seat whose tricks count (a misère declarer), or -1 if none or several."""
    dcl = -1
    for o in range(4):
        if counted[o]:
            if dcl >= 0:
                return -1
            dcl = o
    return dcl


@njit(cache=True)
def _misere_safe(h, leader, counted, live):
    """True if the (single, counted) declarer can never again be forced to win a trick.

    No trump only.  Sufficient condition: in every suit, all the declarer's cards are
    below all the other hands' cards (or the others hold none), and if the declarer
    is on lead he has a suit the others hold (so he loses the lead and never regains
    it: every later trick is led by another hand and won above him, or he discards).
    Returns ``(safe, relevant)``.
    """
    dcl = _lone_declarer(counted)
    if dcl < 0:
        return False, 0
    mine = h[dcl]
    others = live & ~mine
    can_lose_lead = False
    rel = 0
    for s in range(4):
        ds = (mine >> (13 * s)) & _MASK13
        if ds == 0:
            continue
        os_ = (others >> (13 * s)) & _MASK13
        if os_ == 0:
            continue
        if (ds >> _LOWBIT[os_]) != 0:
            return False, 0
        can_lose_lead = True
        # the declarer's highest card: the pattern then fixes every card above it as another
        # hand's, and with the lengths (the table's key) all of theirs are above all of his
        rel |= np.int64(1) << (13 * s + _HIBIT[ds])
    if leader == dcl and not can_lose_lead:
        return False, 0
    return True, rel


@njit(cache=True)
def _misere_forced(h, leader, counted, live):
    """True if the defence, on lead, can make the (single, counted) declarer win this trick.

    No trump.  The leader leads his lowest card of a suit the declarer holds; the defenders
    before the declarer play their lowest cards of it (or discard); if the declarer's lowest
    card is above all of those, he wins the trick unless a defender after him must overtake
    it: one who holds the suit but no card below the declarer's lowest.  If no such defender
    exists, the declarer is forced to win.  Returns ``(forced, relevant)``: the suit's live
    cards (the argument relies on who holds each of them; the table's key fixes the lengths).
    """
    dcl = _lone_declarer(counted)
    if dcl < 0 or dcl == leader:
        return False, 0
    for s in range(4):
        mine = (h[leader] >> (13 * s)) & _MASK13
        ds = (h[dcl] >> (13 * s)) & _MASK13
        if mine == 0 or ds == 0:
            continue
        w = _LOWBIT[mine]
        dmin = _LOWBIT[ds]
        forced = True
        after = False
        for j in range(1, 4):
            o = (leader + j) & 3
            if o == dcl:
                if dmin < w:
                    forced = False
                    break
                after = True
                continue
            os_ = (h[o] >> (13 * s)) & _MASK13
            if os_ == 0:
                continue
            lo = _LOWBIT[os_]
            if not after:
                if lo > w:
                    w = lo
            elif lo > dmin:
                forced = False
                break
        if forced:
            return True, ((live >> (13 * s)) & _MASK13) << (13 * s)
    return False, 0


@njit(cache=True)
def _all_tricks_bound(h, live, maxer, need, rem):
    """A side that needs every remaining trick, at no trump or with no trumps left.

    It never lets the other side win a trick, so it never wins one in a suit whose top card
    the other side holds (the holder plays it when the suit is led); its tricks come from
    the suits whose top card it holds, at most the longest of its holdings in each (every
    trick of a suit takes a card of that suit from each of its hands that has one).  If
    those cannot supply the tricks left, it fails (DDS's "later tricks" bound).  The result
    relies on the other side's top cards (none in a suit nobody else holds: any card of
    it is the top) and the lengths, which are the table's key.  ``maxer`` needs every trick
    when ``need == rem``, the other side when ``need == 1``.  Returns ``(decided, value,
    relevant)``.
    """
    sum_max = 0
    sum_min = 0
    rel_max = 0
    rel_min = 0
    for s in range(4):
        ls = (live >> (13 * s)) & _MASK13
        if ls == 0:
            continue
        top = _HIBIT[ls]
        bit = np.int64(1) << (13 * s + top)
        holder = 0
        for o in range(4):
            if h[o] & bit:
                holder = o
        mm = 0
        for o in range(4):
            if maxer[o] == maxer[holder]:
                ln = _POP13[(h[o] >> (13 * s)) & _MASK13]
                if ln > mm:
                    mm = ln
        only = ((h[holder] >> (13 * s)) & _MASK13) == ls
        if maxer[holder]:
            sum_max += mm
            if not only:
                rel_max |= bit
        else:
            sum_min += mm
            if not only:
                rel_min |= bit
    if need == rem and sum_max < rem:
        return True, False, rel_min
    if need == 1 and sum_min < rem:
        return True, True, rel_max
    return False, False, 0


# ---------------------------------------------------------------------------
# the search (iterative: numba cannot load cached recursive functions)
# ---------------------------------------------------------------------------
# columns of the per-depth state array ``st`` (int64, shape (56, 32))
_NPL = 0  # cards already played to the current trick
_LEADER = 1  # seat that led the current trick
_LED = 2  # suit led (-1 at a trick boundary)
_WC = 3  # card winning the trick so far; at a boundary: the last trick's winner
_WS = 4  # seat winning the trick so far
_TMASK = 5  # cards played to the current trick
_NEED = 6  # counted tricks still needed from here
_SEAT = 7  # seat to play
_NM = 8  # number of generated moves
_I = 9  # next move to try
_SLOT = 10  # transposition-table bucket number (boundary nodes still to be stored) or -1
_CARD = 11  # card being tried
_REL = 12  # relevant cards (52-bit) gathered from the children searched
_LENS = 13  # hand-suit lengths key of a boundary node
_SEQ = 14  # 14..17: owner sequence of each suit's live cards
_NLIVE = 18  # 18..21: live cards in each suit
_LW = 22  # 4 bits a suit: moves of the mover below this rank are skipped (15: none)
_KEY = 23  # table key of a boundary node (:func:`_tt_key`)
_SIG = 24  # owners of each suit's top two live cards at a boundary node (see the table)


@njit(cache=True, inline="always")
def _straddling_runs(hand, npl, led, rel, live):
    """Cards to add to ``rel`` at a node where every move of the mover failed.

    The moves searched stood for whole runs of equivalent cards (runs of ``live``,
    which includes the cards of the current trick).  A stored pattern fixes the owners
    of each suit's cards down to its lowest relevant card ``b``; below ``b`` another
    position may split the mover's runs differently.  Runs lying wholly below ``b`` are
    harmless (any of the mover's low cards stands for any other), but a run that holds
    ``b`` and goes on below it would leave its lower cards unaccounted for: its lowest
    card becomes relevant too.  Returns the 52-bit mask of those lowest cards.
    """
    if npl > 0 and (hand >> (13 * led)) & _MASK13:
        legal = hand & (_MASK13 << (13 * led))
    else:
        legal = hand
    out = 0
    for s in range(4):
        m = (legal >> (13 * s)) & _MASK13
        if m == 0:
            continue
        rs = (rel >> (13 * s)) & _MASK13
        if rs == 0:
            continue
        b = rs & -rs
        if (m & b) == 0:
            continue
        ls = (live >> (13 * s)) & _MASK13
        last = b
        x = b >> 1
        while x:
            if ls & x:
                if m & x:
                    last = x
                else:
                    break
            x >>= 1
        if last != b:
            out |= last << (13 * s)
    return out


@njit(cache=True, inline="always")
def _fill(index, b):
    """How many ways of bucket ``b`` hold entries of the current solve."""
    n = index[b, 0]
    return n if n < TT_WAYS else TT_WAYS


@njit(cache=True, inline="always")
def _key_hash(key):
    """22 bits of a table key for the index words (the rows hold the whole key)."""
    return ((key * _HASH_C) >> 42) & 0x3FFFFF


@njit(cache=True, inline="always")
def _sig_owners(seq, n, s):
    """Signature bits of suit ``s`` (see the table): the owners of the top one or two of the
    ``n`` cards whose owner sequence is ``seq``, and the mask of the bits they fill."""
    own = 0
    mask = 0
    if n >= 1:
        own |= ((seq >> (2 * (n - 1))) & 3) << (2 * s)
        mask |= 3 << (2 * s)
    if n >= 2:
        own |= ((seq >> (2 * (n - 2))) & 3) << (8 + 2 * s)
        mask |= 3 << (8 + 2 * s)
    return own, mask


@njit(cache=True, inline="always")
def _pattern(info, slot, s):
    """Suit ``s``'s pattern in row ``slot`` (two patterns a word)."""
    return (info[slot, s >> 1] >> (32 * (s & 1))) & 0xFFFFFFFF


@njit(cache=True, inline="always")
def _tt_key(lens, rem, leader):
    """A trick-boundary position's table key from its hand-suit lengths, cards left a hand
    and leader.

    ``lens`` holds 16 lengths of 4 bits, suit by suit (S first), each suit's four hands in
    seat order; the clubs of each hand follow from its other suits and ``rem``, so the key
    keeps the other 48 bits, ``rem`` and the leader (54 bits).
    """
    return (((lens >> 16) & 0xFFFFFFFFFFFF) << 6) | (rem << 2) | leader


@njit(cache=True, inline="always")
def _tt_probe(info, index, b, key, st, d, need, live):
    """Look for a decisive entry in bucket ``b``; returns (found, value, relevant-mask).

    A bucket's entries of the current solve are its first ``index[b, 0]`` ways (all of them
    once that passes ``TT_WAYS``): every solve starts with the counts at zero, and
    :func:`_tt_store` fills the ways in order, then overwrites round-robin.  They are scanned
    newest first: where several entries decide, the first one found gives the relevant cards
    passed up, and the newest tend to rely on fewer (against oldest first, same answers:
    200 random deals of another seed, N+S 8 / 9 in hearts -9 / -19 % positions, -7 / -18 %
    time; on bench_solver's deals 0.5-7.5 % fewer positions at about the same time, the
    scans being a little longer; Solo and Prop-Cop on sampled deals -5 / -4 % positions,
    time within noise).  The signature has checked the top two owners of each suit, so
    only patterns of more cards are compared in full.
    """
    hk = _key_hash(key)
    psig = st[d, _SIG]
    for w in range(_fill(index, b) - 1, -1, -1):
        word = index[b, 1 + w]
        if (word >> _HASH_SHIFT) != hk:
            continue
        sg = word >> 8
        if ((sg ^ psig) & (sg >> 16) & 0xFFFF) != 0:
            continue
        lb = (word >> 4) & 15
        ub = word & 15
        if lb < need and ub >= need:
            continue
        slot = b * TT_WAYS + w
        if info[slot, 2] != key:
            continue
        ok = True
        for s in range(4):
            pat = _pattern(info, slot, s)
            k = pat >> 26
            if k > 2:
                n = st[d, _NLIVE + s]
                if (st[d, _SEQ + s] >> (2 * (n - k))) != (pat & _OWN26):
                    ok = False
                    break
        if not ok:
            continue
        rel = 0
        for s in range(4):
            k = _pattern(info, slot, s) >> 26
            if k > 0:
                rel |= _top_cards_mask((live >> (13 * s)) & _MASK13, k, 13 * s)
        return True, lb >= need, rel
    return False, False, 0


@njit(cache=True, inline="always")
def _tt_store(info, index, b, st, d, h, value, rel, exact):
    """Store the result of boundary node ``d`` in bucket ``b`` under the pattern of its
    relevant cards.

    With ``exact`` the pattern is the whole position (every live card relevant).
    """
    key = st[d, _KEY]
    need = st[d, _NEED]
    live = h[0] | h[1] | h[2] | h[3]
    if exact:
        rel = live
    p01 = 0  # patterns S and H, two to a word
    p23 = 0  # D and C
    esig = 0
    for s in range(4):
        rs = (rel >> (13 * s)) & _MASK13
        if rs != 0:
            k = _POP13[((live >> (13 * s)) & _MASK13) >> _LOWBIT[rs]]
            n = st[d, _NLIVE + s]
            own = st[d, _SEQ + s] >> (2 * (n - k))
            if s < 2:
                p01 |= ((k << 26) | own) << (32 * s)
            else:
                p23 |= ((k << 26) | own) << (32 * (s - 2))
            o, mk = _sig_owners(own, k, s)
            esig |= o | (mk << 16)
    hk = _key_hash(key)
    head = (hk << _HASH_SHIFT) | (esig << 8)
    base = b * TT_WAYS
    way = -1
    for w in range(_fill(index, b) - 1, -1, -1):
        slot = base + w
        if (
            (index[b, 1 + w] & ~np.int64(255)) == head
            and info[slot, 2] == key
            and info[slot, 0] == p01
            and info[slot, 1] == p23
        ):
            way = w
            break
    if way < 0:
        way = index[b, 0] % TT_WAYS
        index[b, 0] += 1
        index[b, 1 + way] = head | 13  # bounds 0 and 13: nothing known yet
        slot = base + way
        info[slot, 0] = p01
        info[slot, 1] = p23
        info[slot, 2] = key
    word = index[b, 1 + way]
    if value:
        if need > ((word >> 4) & 15):
            index[b, 1 + way] = (word & ~np.int64(0xF0)) | (need << 4)
    else:
        if need - 1 < (word & 15):
            index[b, 1 + way] = (word & ~np.int64(15)) | (need - 1)


@njit(cache=True, inline="always")
def _second_hand_nt(h, leader, led, wc, maxer, cut):
    """At no trump, at the second card of a trick: tricks the second hand's side surely takes.

    The side wins this trick if one of its hands still to play (the second hand, or a
    team-mate after it) holds the highest card of the led suit among the hands still to
    play, above the card led; that hand then leads, and cashes its top runs (what is left of
    the led suit's and every other suit's; the cards the others play to this trick can only
    lengthen them).  Counts until ``cut``, the tricks that settle the question, and needs
    the runs only when ``cut > 1`` (stopping early keeps the relevant cards few).  Returns
    ``(tricks, relevant)``, 0 if the trick is not sure or ``cut`` out of reach.
    """
    x = (leader + 1) & 3
    p3 = (leader + 2) & 3
    p4 = (leader + 3) & 3
    base = 13 * led
    rest = ((h[x] | h[p3] | h[p4]) >> base) & _MASK13
    if rest == 0:
        return 0, 0
    r = _HIBIT[rest]
    t = base + r
    if t < wc:
        return 0, 0
    if (h[x] >> t) & 1:
        w = x
    elif (h[p3] >> t) & 1:
        w = p3
    else:
        w = p4
    if maxer[w] != maxer[x]:
        return 0, 0
    tricks = 1
    rel = np.int64(1) << t
    if cut > 1:
        if cut > _pop52(h[w]):
            return 0, 0
        live = h[0] | h[1] | h[2] | h[3]
        for s in range(4):
            ls = (live >> (13 * s)) & _MASK13
            m = (h[w] >> (13 * s)) & _MASK13
            if s == led:
                ls &= ~(1 << r)
                m &= ~(1 << r)
            if m == 0 or ls == 0:
                continue
            k = _top_run(m, ls)
            if k > 0:
                tricks += k
                if ls != m:  # a suit nobody else holds: the ranks do not matter
                    rel |= _top_run_mask(m, ls, 13 * s)
                if tricks >= cut:
                    break
    return tricks, rel


@njit(cache=True, inline="always")
def _sure_lead(h, leader, trump, maxer):
    """A card that surely wins the trick the side on lead leads to now (or -1).

    The top card of a suit held by the leader's side, when the leader holds a card of that
    suit and no opponent can ruff it (void in the suit and holding trumps).
    """
    side = maxer[leader]
    ours = 0
    theirs = 0
    for o in range(4):
        if maxer[o] == side:
            ours |= h[o]
        else:
            theirs |= h[o]
    for s in range(4):
        if ((h[leader] >> (13 * s)) & _MASK13) == 0:
            continue
        c = 13 * s + _HIBIT[((ours | theirs) >> (13 * s)) & _MASK13]
        if not (ours >> c) & 1:
            continue
        if s != trump and _opponent_can_ruff(h, s, trump, maxer, side):
            continue
        if ((theirs >> (13 * s)) & _MASK13) == 0:
            return 52  # nobody else can follow: the ranks do not matter
        return c
    return -1


@njit(cache=True)
def _search(
    h,
    leader0,
    need0,
    trump,
    maxer,
    counted,
    wants,
    normal,
    info,
    index,
    moves,
    scores,
    st,
    hist,
    npl0,
    led0,
    wc0,
    ws0,
    tmask0,
    nodes,
):
    """Zero-window search: can ``maxer`` force ``counted`` >= need0 from here?

    ``nodes = [count, limit, boundaries]``: every node entered adds 1 to ``count`` (and a
    trick-boundary node 1 to ``boundaries``); once ``count`` passes
    ``limit`` the search gives up and returns False with ``h`` left mid-line (the
    caller must check ``nodes[0] > nodes[1]`` and discard the answer and ``h``).

    The root is the current trick: ``npl0`` cards already played to it (0 at a trick
    boundary), suit ``led0`` led by ``leader0``, ``wc0`` winning so far for ``ws0``,
    ``tmask0`` the cards played (already removed from ``h``).

    Iterative alpha-beta over single card plays with an explicit stack ``st``.
    Besides the value, every node computes the set of cards whose ranks its result
    depends on (the trick winners that won by rank, the cards a bound relied on);
    boundary nodes are stored in the table under that pattern.
    """
    nbuckets = index.shape[0]  # a power of two
    # borrowed views (see _borrow): no reference counting in the loop
    h = _borrow(h)
    maxer = _borrow(maxer)
    counted = _borrow(counted)
    wants = _borrow(wants)
    info = _borrow(info)
    index = _borrow(index)
    moves = _borrow(moves)
    scores = _borrow(scores)
    st = _borrow(st)
    hist = _borrow(hist)
    nodes = _borrow(nodes)
    d = 0
    st[0, _NPL] = npl0
    st[0, _LEADER] = leader0
    st[0, _LED] = led0
    st[0, _WC] = wc0
    st[0, _WS] = ws0
    st[0, _TMASK] = tmask0
    st[0, _NEED] = need0
    entering = True
    value = False
    rel = 0
    while True:
        if entering:
            # ---------------- enter node d ----------------
            npl = st[d, _NPL]
            leader = st[d, _LEADER]
            need = st[d, _NEED]
            nodes[0] += 1
            if nodes[0] > nodes[1]:
                return False
            st[d, _SLOT] = -1
            st[d, _REL] = 0
            resolved = False
            if npl == 0:
                nodes[2] += 1
                rem = _pop52(h[leader])
                live = h[0] | h[1] | h[2] | h[3]
                rel = 0
                if need <= 0:
                    value = True
                    resolved = True
                elif need > rem:
                    value = False
                    resolved = True
                elif normal:
                    # In a trump contract the quick-trick bound costs more than it saves below
                    # the root: the top runs it relies on make the stored patterns specific.
                    # Off there (same answers): bench_solver --deals 50 --seed 1, hearts 8/5/9
                    # boundary positions -16 %/-16 %/-11 %, time -25 %/-26 %/-22 %; at no trump
                    # it stays (off there: +39 % to +153 % nodes on 40 deals).  It also stays
                    # for a lone declarer on lead: Solo on 300 deals of the ordinary hand of
                    # bench_advise.py 9.6 -> 8.3 s (unresolved 9 -> 8), 100 random deals -4 %
                    # (hearts, 5) and -49 % (spades, 6) nodes; on the defence's leads it cost more.
                    lone = maxer[leader] == 1 and maxer[0] + maxer[1] + maxer[2] + maxer[3] == 1
                    if trump == 4 or d == 0 or lone:
                        qt, qrel = _quick_tricks(h, leader, trump, live, maxer)
                    else:
                        qt, qrel = 0, 0
                    # In a trump contract, one sure trick on lead, where one decides: the side
                    # on lead needs one, or the other side needs them all.  With the bounds'
                    # relevant cards cut to the suits others hold (a relevant card the result
                    # did not need makes the stored pattern specific: with the top card always
                    # relevant this bound cost 20-28 % more nodes), 100 random deals, N+S 8 / 5
                    # in hearts: -13 % / -13 % nodes; the cuts alone took 8 / 5 at no trump
                    # -20 % / -17 %.
                    one = (maxer[leader] and need == 1) or (not maxer[leader] and need == rem)
                    if qt == 0 and trump < 4 and one:
                        c1 = _sure_lead(h, leader, trump, maxer)
                        if c1 >= 0:
                            qt = 1
                            qrel = 0 if c1 == 52 else np.int64(1) << c1
                    if maxer[leader]:
                        if qt >= need:
                            value = True
                            resolved = True
                            rel = qrel
                    elif rem - qt < need:
                        value = False
                        resolved = True
                        rel = qrel
                    # A side needing every trick with no trumps about: 100 random deals,
                    # N+S 8 / 5 / 9 at no trump: -3 / -5 / -7 % boundary positions; deals of
                    # 11-13 cards, every declarer side and target: -56 % card plays.
                    if (
                        not resolved
                        and (need == rem or need == 1)
                        and (trump == 4 or ((live >> (13 * trump)) & _MASK13) == 0)
                    ):
                        dec, v, lrel = _all_tricks_bound(h, live, maxer, need, rem)
                        if dec:
                            value = v
                            resolved = True
                            rel = lrel
                    if not resolved and trump < 4:
                        sm, srel = _sure_trumps(h, trump, maxer, 1, live)
                        if sm >= need:
                            value = True
                            resolved = True
                            rel = srel
                        else:
                            sn, srel = _sure_trumps(h, trump, maxer, 0, live)
                            if rem - sn < need:
                                value = False
                                resolved = True
                                rel = srel
                elif trump == 4:
                    safe, mrel = _misere_safe(h, leader, counted, live)
                    if safe:
                        value = False
                        resolved = True
                        rel = mrel
                    elif need == 1 and maxer[leader]:
                        # The defence on lead needs one more trick of the declarer's and can
                        # force it now.  100 random deals (seed 2), declarer South, North
                        # leading: 276 M -> 0.35 M positions (one deal took 77 s: a lead of
                        # the king where a low card of the suit forced him); 100 sampled deals
                        # of bench_advise.py's ordinary hand -72 %; 200 of the README's misère
                        # hand (declarer second) +0.6 %.
                        forced, mrel = _misere_forced(h, leader, counted, live)
                        if forced:
                            value = True
                            resolved = True
                            rel = mrel
                if not resolved and rem > 1:
                    if d >= 4:
                        # The previous trick boundary (d - 4) computed its owner sequences
                        # and lengths: take out the four cards of the trick played since
                        # (a fresh computation, 13 ranks a suit, took 10 % of the time in
                        # hearts: 100 random deals, N+S 8 / 5 NT / 8 H: -3 / -11 / -10 %).
                        lens = st[d - 4, _LENS]
                        removed = st[d - 1, _TMASK] | (np.int64(1) << st[d - 1, _CARD])
                        for j in range(d - 4, d):
                            c = st[j, _CARD]
                            lens -= np.int64(1) << (4 * (15 - 4 * _SUIT_OF[c] - st[j, _SEAT]))
                        for s in range(4):
                            seq = st[d - 4, _SEQ + s]
                            n = st[d - 4, _NLIVE + s]
                            rs = (removed >> (13 * s)) & _MASK13
                            if rs:
                                lp = ((live | removed) >> (13 * s)) & _MASK13
                                while rs:
                                    r = _LOWBIT[rs]
                                    rs &= rs - 1
                                    sh = 2 * (n - 1 - _POP13[lp >> (r + 1)])
                                    seq = ((seq >> (sh + 2)) << sh) | (seq & ((1 << sh) - 1))
                                    n -= 1
                            st[d, _SEQ + s] = seq
                            st[d, _NLIVE + s] = n
                    else:
                        lens = 0
                        for s in range(4):
                            ls = (live >> (13 * s)) & _MASK13
                            st[d, _SEQ + s] = _suit_seq(h, ls, 13 * s)
                            st[d, _NLIVE + s] = _POP13[ls]
                            for o in range(4):
                                lens = (lens << 4) | _POP13[(h[o] >> (13 * s)) & _MASK13]
                    st[d, _LENS] = lens
                    key = _tt_key(lens, rem, leader)
                    st[d, _KEY] = key
                    psig = 0
                    for s in range(4):
                        o, _ = _sig_owners(st[d, _SEQ + s], st[d, _NLIVE + s], s)
                        psig |= o
                    st[d, _SIG] = psig
                    x = lens * _HASH_A + leader * _HASH_B
                    bucket = (x ^ (x >> 29)) & (nbuckets - 1)
                    found, v, trel = _tt_probe(info, index, bucket, key, st, d, need, live)
                    if found:
                        value = v
                        resolved = True
                        rel = trel
                    else:
                        st[d, _SLOT] = bucket
            elif npl == 1 and normal and trump == 4:
                # The second hand's side surely wins this trick and cashes on (DDS's
                # second-hand quick tricks).  100 random deals (seed 1), N+S making 8 / 5 / 9
                # at no trump, East leading: -17 / -21 / -23 % nodes, -3 / -9 / -10 % time.  In
                # trump contracts (the trick alone, or with the runs where no opponent can
                # ruff) it saved 1-3 % nodes or cost 8-10 %, and no time.
                x = (leader + 1) & 3
                cut = need if maxer[x] else _pop52(h[x]) - need + 1
                q, qrel = _second_hand_nt(h, leader, st[d, _LED], st[d, _WC], maxer, cut)
                if q >= cut:
                    value = maxer[x] == 1
                    resolved = True
                    rel = qrel
            if not resolved:
                seat = (leader + npl) & 3
                st[d, _SEAT] = seat
                st[d, _NM] = _gen_moves(
                    h,
                    seat,
                    npl,
                    st[d, _LED],
                    st[d, _WC],
                    st[d, _WS],
                    st[d, _TMASK],
                    trump,
                    maxer,
                    wants,
                    moves,
                    scores,
                    d,
                    hist,
                )
                st[d, _I] = 0
                st[d, _LW] = 0xFFFF
                entering = False
                continue
            # resolved at entry: return (value, rel) to the parent
        else:
            # ---------------- try the next move of node d ----------------
            i = st[d, _I]
            nm = st[d, _NM]
            if i > 0 and i < nm:
                # the previous move failed: if its card lay below every card its
                # refutation depended on in its suit, the same refutation answers
                # every other card of the mover in that suit below those cards
                pc = moves[d, i - 1]
                ps = _SUIT_OF[pc]
                pk = st[d, _LW]
                if ((pk >> (4 * ps)) & 15) == 15:
                    rs = (st[d, _REL] >> (13 * ps)) & _MASK13
                    low = 13
                    if rs != 0:
                        low = _LOWBIT[rs]
                    if _RANK_OF[pc] < low:
                        pk = pk ^ ((15 ^ low) << (4 * ps))
                        st[d, _LW] = pk
                if pk != 0xFFFF:
                    while i < nm:
                        c = moves[d, i]
                        t = (pk >> (4 * _SUIT_OF[c])) & 15
                        if t == 15 or _RANK_OF[c] >= t:
                            break
                        i += 1
            if i < nm:
                st[d, _I] = i + 1
                c = moves[d, i]
                seat = st[d, _SEAT]
                npl = st[d, _NPL]
                bit = 1 << c
                s = c // 13
                h[seat] ^= bit
                st[d, _CARD] = c
                if npl == 0:
                    nled = s
                    nwc = c
                    nws = seat
                else:
                    nled = st[d, _LED]
                    wc = st[d, _WC]
                    ws = wc // 13
                    if (s == ws and c > wc) or (s == trump and ws != trump):
                        nwc = c
                        nws = seat
                    else:
                        nwc = wc
                        nws = st[d, _WS]
                e = d + 1
                if npl == 3:
                    st[e, _NPL] = 0
                    st[e, _LEADER] = nws
                    st[e, _LED] = -1
                    st[e, _WC] = nwc
                    st[e, _WS] = nws
                    st[e, _TMASK] = 0
                    st[e, _NEED] = st[d, _NEED] - counted[nws]
                else:
                    st[e, _NPL] = npl + 1
                    st[e, _LEADER] = st[d, _LEADER]
                    st[e, _LED] = nled
                    st[e, _WC] = nwc
                    st[e, _WS] = nws
                    st[e, _TMASK] = st[d, _TMASK] | bit
                    st[e, _NEED] = st[d, _NEED]
                d = e
                entering = True
                continue
            # every move tried without a cut-off
            seat = st[d, _SEAT]
            value = maxer[seat] == 0
            # The moves searched stood for whole runs of equivalent cards: a run that
            # crosses the lowest relevant card of its suit becomes relevant down to its end.
            rel = st[d, _REL]
            rel |= _straddling_runs(
                h[seat], st[d, _NPL], st[d, _LED], rel, h[0] | h[1] | h[2] | h[3] | st[d, _TMASK]
            )
            if st[d, _SLOT] >= 0:
                _tt_store(info, index, st[d, _SLOT], st, d, h, value, rel, EXACT_TT)
        # ---------------- return (value, rel) from node d to its parent ----------------
        while True:
            if d == 0:
                return value
            e = d
            d -= 1
            seat = st[d, _SEAT]
            c = st[d, _CARD]
            h[seat] ^= 1 << c
            if st[d, _NPL] == 3:
                # the trick just completed: its winner matters if it won by rank
                wc = st[e, _WC]
                trick = st[d, _TMASK] | (1 << c)
                if _POP13[(trick >> (13 * (wc // 13))) & _MASK13] >= 2:
                    rel |= 1 << wc
            if (maxer[seat] == 1) == value:
                # cut-off: node d takes this value, and only this child's relevance
                if st[d, _I] > 1:
                    hist[seat, c] += (52 - d) * (52 - d)
                if st[d, _NPL] == 0:
                    hist[4, d] = c + 1
                if st[d, _SLOT] >= 0:
                    _tt_store(info, index, st[d, _SLOT], st, d, h, value, rel, EXACT_TT)
                continue
            st[d, _REL] |= rel
            break
        entering = False


@njit(cache=True)
def _roles(side_mask, misere):
    """maxer, counted, wants arrays for a declarer-side bitmask (bit seat)."""
    maxer = np.zeros(4, dtype=np.int64)
    counted = np.zeros(4, dtype=np.int64)
    wants = np.zeros(4, dtype=np.int64)
    for s in range(4):
        dec = (side_mask >> s) & 1
        counted[s] = dec
        if misere:
            maxer[s] = 1 - dec
            wants[s] = 0
        else:
            maxer[s] = dec
            wants[s] = 1
    return maxer, counted, wants


@njit(cache=True)
def _can_make(
    h, trump, leader, maxer, counted, wants, normal, need, tt, moves, scores, hist, nodes
):
    info, index = tt
    st = np.empty((56, 32), dtype=np.int64)
    return _search(
        h,
        leader,
        need,
        trump,
        maxer,
        counted,
        wants,
        normal,
        info,
        index,
        moves,
        scores,
        st,
        hist,
        0,
        -1,
        -1,
        -1,
        0,
        nodes,
    )


@njit(cache=True)
def _new_history():
    """Move-ordering memory of one solve: rows 0-3 the history score of each seat's cards
    (cut-offs by a move other than the first, weighted by depth), row 4 the killer lead
    (card + 1, 0 for none) of each stack depth."""
    return np.zeros((5, 56), dtype=np.int64)


@njit(cache=True)
def _budget(max_nodes):
    """``[count, limit, boundary count]`` for :func:`_search`; ``max_nodes <= 0`` means no limit."""
    nodes = np.zeros(3, dtype=np.int64)
    nodes[1] = max_nodes if max_nodes > 0 else np.int64(1) << 62
    return nodes


@njit(cache=True)
def solve_position(hands, trump, leader, side_mask, misere, target, tt, moves, scores, max_nodes):
    """Solve one position given as ``hands: int64[4]`` bitmasks.

    Returns the declarer side's trick count under perfect play when ``target < 0``;
    otherwise 1 or 0: normal contracts "side takes >= target", misère "declarer
    takes <= target".  Returns -1 if the search needed more than ``max_nodes`` nodes
    (in all, over the searches one answer takes; ``max_nodes <= 0``: no limit).
    """
    return _solve_counted(
        hands, trump, leader, side_mask, misere, target, tt, moves, scores, _budget(max_nodes)
    )


@njit(cache=True)
def _solve_counted(hands, trump, leader, side_mask, misere, target, tt, moves, scores, nodes):
    """:func:`solve_position` with the node counter ``nodes`` (see :func:`_budget`) given."""
    # The table's fill counters say which ways hold this solve's entries: reset them, so
    # that the entries of the deals a thread solved before are never read, and the search,
    # its node count and so a budget's outcome depend on this deal alone.
    tt[1][:, 0] = 0
    h = hands.copy()
    maxer, counted, wants = _roles(side_mask, misere)
    normal = not misere
    n = _pop52(h[0])
    hist = _new_history()
    if target >= 0:
        if misere:
            # declarer holds himself to <= target  <=>  defence cannot force >= target + 1
            ok = not _can_make(
                h,
                trump,
                leader,
                maxer,
                counted,
                wants,
                normal,
                target + 1,
                tt,
                moves,
                scores,
                hist,
                nodes,
            )
        else:
            ok = _can_make(
                h,
                trump,
                leader,
                maxer,
                counted,
                wants,
                normal,
                target,
                tt,
                moves,
                scores,
                hist,
                nodes,
            )
        if nodes[0] > nodes[1]:
            return -1
        return 1 if ok else 0
    # exact count: largest t with "maxer can force counted >= t" (binary search)
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        ok = _can_make(
            h, trump, leader, maxer, counted, wants, normal, mid, tt, moves, scores, hist, nodes
        )
        if nodes[0] > nodes[1]:
            return -1
        if ok:
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True)
def count_nodes(hands, trump, leader, side_mask, misere, target, tt, moves, scores):
    """``(answer, nodes, boundaries)``: :func:`solve_position`'s yes/no answer to ``target >= 0``,
    the number of search positions (card plays) it entered and how many of them were trick
    boundaries, the root included (a diagnostic for benchmarks; no node limit)."""
    nodes = _budget(0)
    ok = _solve_counted(hands, trump, leader, side_mask, misere, target, tt, moves, scores, nodes)
    return ok == 1, nodes[0], nodes[2]


@njit(cache=True)
def solve_after_lead(hands, trump, leader, card, side_mask, misere, tt, moves, scores):
    """Declarer side's tricks (perfect play) after ``leader`` leads ``card`` to the first trick."""
    h = hands.copy()
    bit = 1 << card
    h[leader] ^= bit
    maxer, counted, wants = _roles(side_mask, misere)
    normal = not misere
    hist = _new_history()
    info, index = tt
    index[:, 0] = 0  # the table's fill counters: no entries of an earlier solve (see _tt_probe)
    st = np.empty((56, 32), dtype=np.int64)
    n = _pop52(hands[leader])
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _search(
            h,
            leader,
            mid,
            trump,
            maxer,
            counted,
            wants,
            normal,
            info,
            index,
            moves,
            scores,
            st,
            hist,
            1,
            card // 13,
            card,
            leader,
            bit,
            _budget(0),
        ):
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True)
def codes_to_masks(deals):
    """(n, 4, k) card codes -> (n, 4) int64 bitmasks."""
    n = deals.shape[0]
    k = deals.shape[2]
    out = np.zeros((n, 4), dtype=np.int64)
    for i in range(n):
        for s in range(4):
            m = 0
            for j in range(k):
                m |= 1 << np.int64(deals[i, s, j])
            out[i, s] = m
    return out


def new_tables(threads: int, bits: int):
    """One transposition table and move workspace per thread, for :func:`solve_many`.

    Allocated by numpy outside numba so that the zero pages are only touched where the
    search writes (a zero-filling loop over every table costs more than small batches).
    """
    if bits < 9:
        raise ValueError(f"a table of 2**{bits} entries is too small (at least 2**9)")
    size = 1 << bits
    return (
        np.zeros((threads, size, 3), dtype=np.int64),
        np.zeros((threads, size // TT_WAYS, TT_WAYS + 1), dtype=np.int64),
        np.zeros((threads, 56, 16), dtype=np.int64),
        np.zeros((threads, 56, 16), dtype=np.int64),
    )


@njit(cache=True, parallel=True, nogil=True)
def solve_many(
    masks, deal, trump, leader, side_mask, misere, target, infos, indexes, moves, scores, max_nodes
):
    """Solve tasks in parallel: task ``i`` is deal ``deal[i]`` of ``masks: int64[n, 4]`` with its
    own question (``trump[i]``, ``leader[i]``, ``side_mask[i]``, ``misere[i]``, ``target[i]``, as
    for :func:`solve_position`); returns ``int8`` answers, -1 where over ``max_nodes``, and
    ``int64`` the positions each task searched (deterministic: a task's search depends on its
    own position alone).

    Several questions on the same deals go to the threads in one call, so the threads wait
    for the slowest task once, not once per question.  Each worker thread owns a
    transposition table from :func:`new_tables` (a solve starts by resetting the table's fill
    counters, so one task never reads another's entries).  The workers, one a table, take the
    tasks one at a time in order from a shared counter (:func:`_next_task`; see
    :func:`solo_analysis.solver.solve_questions` for the task order).  Results do not depend
    on the number of threads (the search is exact).
    """
    n = deal.shape[0]
    out = np.empty(n, dtype=np.int8)
    work = np.empty(n, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    for _ in prange(infos.shape[0]):  # one worker a table; each takes tasks until none is left
        t = get_thread_id()
        while True:
            i = _next_task(counter)
            if i >= n:
                break
            nodes = _budget(max_nodes)
            out[i] = _solve_counted(
                masks[deal[i]],
                trump[i],
                leader[i],
                side_mask[i],
                misere[i],
                target[i],
                (infos[t], indexes[t]),
                moves[t],
                scores[t],
                nodes,
            )
            work[i] = nodes[0]
    return out, work


@njit(cache=True)
def popcount_rows(masks):
    """Number of distinct cards in each row of ``masks: int64[n, 4]`` (the union)."""
    n = masks.shape[0]
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = _pop52(masks[i, 0] | masks[i, 1] | masks[i, 2] | masks[i, 3])
    return out
