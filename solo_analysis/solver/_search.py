"""The search kernel: a zero-window alpha-beta over single card plays (:func:`search`).

It answers "can the ``maxer`` side make the ``counted`` seats take at least ``need`` of the
remaining tricks?".  At each trick boundary it tries the bounds of :mod:`._bounds` and the
transposition table of :mod:`._table` before generating moves (:mod:`._moves`); at the
second card of a trick at no trump, the second hand's sure tricks.  Once a move has failed,
the mover's other cards of its suit that lie below every card its refutation depended on
are skipped: the same refutation answers them (DDS's "lowest win" rule).

Encodings: cards, hands, trumps, roles and the columns ``ST_*`` of the stack ``st``, see
:mod:`._bits`; ``hist`` (history scores and killer leads), see :mod:`._moves`; ``info`` and
``index`` (the table), see :mod:`._table`.  The functions it calls with ``inline="always"``
(move generation, probes and stores) are copied into its compiled code, so a change to
them needs its cache cleared, which the package does when imported (:mod:`.._kernel_cache`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import NT, SUIT_MASK
from ._bits import (
    RANK_OF,
    ST_CARD,
    ST_KEY,
    ST_LEADER,
    ST_LED,
    ST_LENS,
    ST_LW,
    ST_NEED,
    ST_NEXT,
    ST_NLIVE,
    ST_NM,
    ST_NPL,
    ST_REL,
    ST_SEAT,
    ST_SEQ,
    ST_SIG,
    ST_SLOT,
    ST_TMASK,
    ST_WC,
    ST_WS,
    SUIT_OF,
    borrow,
    lowbit,
    pop13,
    pop52,
)
from ._bounds import (
    all_tricks_bound,
    counted_quick_tricks,
    defended_trumps,
    drawn_trumps,
    guarded_trumps,
    lone_declarer,
    misere_forced,
    misere_safe,
    quick_tricks_cap,
    second_hand_nt,
    straddling_runs,
    sure_lead,
    sure_trumps,
)
from ._flag import stop_set
from ._moves import gen_moves, run_head
from ._table import EXACT_TT, HASH_A, HASH_B, sig_owners, suit_seq, tt_key, tt_probe, tt_store

#: positions between two looks at the stop flag (and the limit): a few milliseconds of search
STOP_EVERY = 1 << 16


@njit(cache=True, inline="always")
def settle(h, leader, trump, live, maxer, counted, need, rem, d, normal):
    """The bounds of a trick-boundary position: ``(resolved, value, relevant)``.

    ``need`` tricks still to take for the counted side, ``rem`` tricks left, ``d`` the depth
    (0 the root); ``resolved`` False where no bound decides.
    """
    value = False
    resolved = False
    rel = 0
    if need <= 0:
        value = True
        resolved = True
    elif need > rem:
        value = False
        resolved = True
    elif normal:
        # Quick tricks: at no trump everywhere; in a trump contract only at the
        # root and for a lone declarer on lead, as elsewhere the top runs the
        # bound relies on make the stored patterns specific (it costs more than
        # it saves).
        one_declarer = maxer[0] + maxer[1] + maxer[2] + maxer[3] == 1
        lone = one_declarer and maxer[leader] == 1
        if trump == NT or d == 0 or lone:
            # enough to decide: the side on lead needs ``need``, or the other
            # side needs ``need`` of ``rem`` (the count stops there)
            goal = need if maxer[leader] else rem - need + 1
            # (the cap inline: the call only where a count could decide)
            if quick_tricks_cap(h, leader, trump, live, maxer) < goal:
                qt, qrel = 0, 0
            else:
                qt, qrel = counted_quick_tricks(h, leader, trump, live, maxer, goal)
        else:
            qt, qrel = 0, 0
        # In a trump contract, one sure trick on lead, where one decides: the side
        # on lead needs one, or the other side needs them all.  Its relevant card
        # is none in a suit nobody else holds (a relevant card the result did not
        # need makes the stored pattern specific).
        one = (maxer[leader] and need == 1) or (not maxer[leader] and need == rem)
        if qt == 0 and trump < NT and one:
            c1 = sure_lead(h, leader, trump, maxer)
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
        # A side needing every trick with no trumps about (DDS's "later tricks").
        if (
            not resolved
            and (need == rem or need == 1)
            and (trump == NT or ((live >> (13 * trump)) & SUIT_MASK) == 0)
        ):
            dec, v, lrel = all_tricks_bound(h, live, maxer, need, rem)
            if dec:
                value = v
                resolved = True
                rel = lrel
        if not resolved and lone and trump < NT:
            # A lone declarer on lead draws trumps with his top ones first.
            dt, drel = drawn_trumps(h, leader, trump, live)
            if dt >= need:
                value = True
                resolved = True
                rel = drel
        if not resolved and trump < NT and one_declarer and not maxer[leader]:
            # A defender leads against a lone declarer (who needs the top trump).
            dcl = lone_declarer(maxer)
            if pop13((h[dcl] >> (13 * trump)) & SUIT_MASK) >= need:
                dt, drel = defended_trumps(h, dcl, trump, live)
                if dt >= need:
                    value = True
                    resolved = True
                    rel = drel
        if not resolved and trump < NT:
            # A hand's sure trump tricks are at most its trumps: a count that
            # cannot decide is not made.
            long1 = 0
            long0 = 0
            for o in range(4):
                n_o = pop13((h[o] >> (13 * trump)) & SUIT_MASK)
                if maxer[o]:
                    if n_o > long1:
                        long1 = n_o
                elif n_o > long0:
                    long0 = n_o
            sm = 0
            if long1 >= need:
                sm, srel = sure_trumps(h, trump, maxer, 1, live)
            if sm >= need:
                value = True
                resolved = True
                rel = srel
            elif rem - long0 < need:
                sn, srel = sure_trumps(h, trump, maxer, 0, live)
                if rem - sn < need:
                    value = False
                    resolved = True
                    rel = srel
        # Guarded trumps: one or two tricks a hand-by-hand count misses, so only
        # where a side needs one or two, or the other side all but one or two.
        if not resolved and trump < NT and need <= 2:
            tw, srel = guarded_trumps(h, trump, maxer, 1, leader, live)
            if tw >= need:
                value = True
                resolved = True
                rel = srel
        if not resolved and trump < NT and need >= rem - 1:
            tw, srel = guarded_trumps(h, trump, maxer, 0, leader, live)
            if rem - tw < need:
                value = False
                resolved = True
                rel = srel
    elif trump == NT:
        safe, mrel = misere_safe(h, leader, counted, live)
        if safe:
            value = False
            resolved = True
            rel = mrel
        elif need == 1 and maxer[leader]:
            # The defence on lead needs one more trick of the declarer's and can
            # force it now (a low lead of a suit where he must win).
            forced, mrel = misere_forced(h, leader, counted, live)
            if forced:
                value = True
                resolved = True
                rel = mrel
    return resolved, value, rel


@njit(cache=True)
def settle_called(h, leader, trump, live, maxer, counted, need, rem, d, normal):
    """:func:`settle`, called rather than inlined.

    The search inlines :func:`settle` where it asks the bounds before the table and calls
    this where it asks them after it, so that its compiled body holds the bounds once.
    """
    return settle(h, leader, trump, live, maxer, counted, need, rem, d, normal)


@njit(cache=True)
def search(
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
    positions,
    stop=None,
):
    """Zero-window search: can ``maxer`` force ``counted`` >= need0 from here.

    ``positions = [count, check, boundaries, limit]`` (see :func:`._kernels.budget`): every
    position entered adds 1 to ``count`` (and a trick-boundary position 1 to ``boundaries``).
    Once ``count`` passes ``check`` the search looks at ``limit`` and at the flag ``stop[0]``
    (``stop``: an ``int64[1]`` array another thread may set, or ``None``): past the limit or
    with the flag set it gives up and returns False with ``h`` left mid-line (the caller must
    check ``positions[0] > positions[1]`` and discard the answer and ``h``); otherwise the next
    check is :data:`STOP_EVERY` positions on, or at the limit.  The loop itself only compares
    ``count`` with ``check``, as it compared it with the limit before there was a flag: the
    flag costs one look every :data:`STOP_EVERY` positions, and gives up exactly where the
    limit alone did.

    The root is the current trick: ``npl0`` cards already played to it (0 at a trick
    boundary), suit ``led0`` led by ``leader0``, ``wc0`` winning so far for ``ws0``,
    ``tmask0`` the cards played (already removed from ``h``).

    Iterative alpha-beta over single card plays with an explicit stack ``st`` (numba cannot
    load cached recursive functions).  Besides the value, every position computes the set
    of cards whose ranks its result depends on (the trick winners that won by rank, the
    cards a bound relied on); boundary positions are stored in the table under that pattern.
    """
    nbuckets = index.shape[0]  # a power of two
    # a lone declarer in a trump contract (see probe_first below)
    lone_trumps = normal and trump < NT and maxer[0] + maxer[1] + maxer[2] + maxer[3] == 1
    # borrowed views (see borrow): no reference counting in the loop
    h = borrow(h)
    maxer = borrow(maxer)
    counted = borrow(counted)
    wants = borrow(wants)
    info = borrow(info)
    index = borrow(index)
    moves = borrow(moves)
    scores = borrow(scores)
    st = borrow(st)
    hist = borrow(hist)
    positions = borrow(positions)
    d = 0
    st[0, ST_NPL] = npl0
    st[0, ST_LEADER] = leader0
    st[0, ST_LED] = led0
    st[0, ST_WC] = wc0
    st[0, ST_WS] = ws0
    st[0, ST_TMASK] = tmask0
    st[0, ST_NEED] = need0
    entering = True
    value = False
    rel = 0
    while True:
        if entering:
            # ---------------- enter the position at depth d ----------------
            npl = st[d, ST_NPL]
            leader = st[d, ST_LEADER]
            need = st[d, ST_NEED]
            positions[0] += 1
            if positions[0] > positions[1]:
                if positions[0] > positions[3] or (stop is not None and stop_set(stop)):
                    return False
                positions[1] = min(positions[3], positions[0] + STOP_EVERY)
            st[d, ST_SLOT] = -1
            st[d, ST_REL] = 0
            resolved = False
            if npl == 0:
                positions[2] += 1
                rem = pop52(h[leader])
                live = h[0] | h[1] | h[2] | h[3]
                rel = 0
                # Against a lone declarer in trumps with a defender on lead the table
                # settles most positions and the bounds few: the table is probed first
                # there.  Elsewhere the bounds come first: a position they settle skips
                # the owner sequences, and relies on fewer cards than a table entry.
                probe_first = lone_trumps and maxer[leader] == 0 and 0 < need <= rem
                if not probe_first:
                    resolved, value, rel = settle(
                        h, leader, trump, live, maxer, counted, need, rem, d, normal
                    )
                if not resolved and rem > 1:
                    if d >= 4:
                        # The previous trick boundary (d - 4) computed its owner sequences
                        # and lengths: take out the four cards of the trick played since
                        # (cheaper than a fresh computation over 13 ranks a suit).
                        lens = st[d - 4, ST_LENS]
                        removed = st[d - 1, ST_TMASK] | (np.int64(1) << st[d - 1, ST_CARD])
                        for j in range(d - 4, d):
                            c = st[j, ST_CARD]
                            lens -= np.int64(1) << (4 * (15 - 4 * SUIT_OF[c] - st[j, ST_SEAT]))
                        for s in range(4):
                            seq = st[d - 4, ST_SEQ + s]
                            n = st[d - 4, ST_NLIVE + s]
                            rs = (removed >> (13 * s)) & SUIT_MASK
                            if rs:
                                lp = ((live | removed) >> (13 * s)) & SUIT_MASK
                                while rs:
                                    r = lowbit(rs)
                                    rs &= rs - 1
                                    sh = 2 * (n - 1 - pop13(lp >> (r + 1)))
                                    seq = ((seq >> (sh + 2)) << sh) | (seq & ((1 << sh) - 1))
                                    n -= 1
                            st[d, ST_SEQ + s] = seq
                            st[d, ST_NLIVE + s] = n
                    else:
                        lens = 0
                        for s in range(4):
                            ls = (live >> (13 * s)) & SUIT_MASK
                            st[d, ST_SEQ + s] = suit_seq(h, ls, 13 * s)
                            st[d, ST_NLIVE + s] = pop13(ls)
                            for o in range(4):
                                lens = (lens << 4) | pop13((h[o] >> (13 * s)) & SUIT_MASK)
                    st[d, ST_LENS] = lens
                    key = tt_key(lens, rem, leader)
                    st[d, ST_KEY] = key
                    psig = 0
                    for s in range(4):
                        o, _ = sig_owners(st[d, ST_SEQ + s], st[d, ST_NLIVE + s], s)
                        psig |= o
                    st[d, ST_SIG] = psig
                    x = lens * HASH_A + leader * HASH_B
                    bucket = (x ^ (x >> 29)) & (nbuckets - 1)
                    found, v, trel = tt_probe(info, index, bucket, key, st, d, need, live)
                    if found:
                        value = v
                        resolved = True
                        rel = trel
                    else:
                        st[d, ST_SLOT] = bucket
                if probe_first and not resolved:
                    resolved, value, rel = settle_called(
                        h, leader, trump, live, maxer, counted, need, rem, d, normal
                    )
            elif npl == 1 and normal and trump == NT:
                # The second hand's side surely wins this trick and cashes on (DDS's
                # second-hand quick tricks); at no trump only (in trump contracts it saves
                # no time).
                x = (leader + 1) & 3
                cut = need if maxer[x] else pop52(h[x]) - need + 1
                q, qrel = second_hand_nt(h, leader, st[d, ST_LED], st[d, ST_WC], maxer, cut)
                if q >= cut:
                    value = maxer[x] == 1
                    resolved = True
                    rel = qrel
            if not resolved:
                seat = (leader + npl) & 3
                st[d, ST_SEAT] = seat
                # the moves are generated when the first is tried (ST_NM -1), or, at a
                # no-trump lead whose killer the hand can lead, only once the killer, which
                # the move generation would put first, has failed (ST_NM -2, the killer
                # alone in moves[d, 0])
                st[d, ST_NM] = -1
                if npl == 0:
                    # the killer lead of this depth among positions needing as many tricks:
                    # one found where the earlier tricks went otherwise misleads (measured)
                    k = hist[5 + need, d]
                    hist[4, d] = k
                    if trump == NT and k > 0 and run_head(h, seat, k - 1):
                        moves[d, 0] = k - 1
                        st[d, ST_NM] = -2
                st[d, ST_NEXT] = 0
                st[d, ST_LW] = 0xFFFF
                entering = False
                continue
            # resolved at entry: return (value, rel) to the parent
        else:
            # ---------------- try the next move at depth d ----------------
            i = st[d, ST_NEXT]
            nm = st[d, ST_NM]
            if nm < 0:
                if nm == -2 and i == 0:
                    nm = 1  # the killer alone
                else:
                    killer = moves[d, 0]
                    nm = gen_moves(
                        h,
                        st[d, ST_SEAT],
                        st[d, ST_NPL],
                        st[d, ST_LED],
                        st[d, ST_WC],
                        st[d, ST_WS],
                        st[d, ST_TMASK],
                        trump,
                        maxer,
                        wants,
                        moves,
                        scores,
                        d,
                        hist,
                    )
                    st[d, ST_NM] = nm
                    if i > 0:
                        # the killer has been tried alone (ST_NM -2): it stays the first
                        # move, the one the search resumes after, whatever the weights
                        j = 0
                        while j < nm - 1 and moves[d, j] != killer:
                            j += 1
                        ks = scores[d, j]
                        while j > 0:
                            moves[d, j] = moves[d, j - 1]
                            scores[d, j] = scores[d, j - 1]
                            j -= 1
                        moves[d, 0] = killer
                        scores[d, 0] = ks
            if i > 0 and i < nm:
                # the previous move failed: if its card lay below every card its
                # refutation depended on in its suit, the same refutation answers
                # every other card of the mover in that suit below those cards
                pc = moves[d, i - 1]
                ps = SUIT_OF[pc]
                pk = st[d, ST_LW]
                if ((pk >> (4 * ps)) & 15) == 15:
                    rs = (st[d, ST_REL] >> (13 * ps)) & SUIT_MASK
                    low = 13
                    if rs != 0:
                        low = lowbit(rs)
                    if RANK_OF[pc] < low:
                        pk = pk ^ ((15 ^ low) << (4 * ps))
                        st[d, ST_LW] = pk
                if pk != 0xFFFF:
                    while i < nm:
                        c = moves[d, i]
                        t = (pk >> (4 * SUIT_OF[c])) & 15
                        if t == 15 or RANK_OF[c] >= t:
                            break
                        i += 1
            if i < nm:
                st[d, ST_NEXT] = i + 1
                c = moves[d, i]
                seat = st[d, ST_SEAT]
                npl = st[d, ST_NPL]
                bit = 1 << c
                s = c // 13
                h[seat] ^= bit
                st[d, ST_CARD] = c
                if npl == 0:
                    nled = s
                    nwc = c
                    nws = seat
                else:
                    nled = st[d, ST_LED]
                    wc = st[d, ST_WC]
                    ws = wc // 13
                    if (s == ws and c > wc) or (s == trump and ws != trump):
                        nwc = c
                        nws = seat
                    else:
                        nwc = wc
                        nws = st[d, ST_WS]
                e = d + 1
                if npl == 3:
                    st[e, ST_NPL] = 0
                    st[e, ST_LEADER] = nws
                    st[e, ST_LED] = -1
                    st[e, ST_WC] = nwc
                    st[e, ST_WS] = nws
                    st[e, ST_TMASK] = 0
                    st[e, ST_NEED] = st[d, ST_NEED] - counted[nws]
                else:
                    st[e, ST_NPL] = npl + 1
                    st[e, ST_LEADER] = st[d, ST_LEADER]
                    st[e, ST_LED] = nled
                    st[e, ST_WC] = nwc
                    st[e, ST_WS] = nws
                    st[e, ST_TMASK] = st[d, ST_TMASK] | bit
                    st[e, ST_NEED] = st[d, ST_NEED]
                d = e
                entering = True
                continue
            # every move tried without a cut-off
            seat = st[d, ST_SEAT]
            value = maxer[seat] == 0
            # The moves searched stood for whole runs of equivalent cards: a run that
            # crosses the lowest relevant card of its suit becomes relevant down to its end.
            rel = st[d, ST_REL]
            rel |= straddling_runs(
                h[seat],
                st[d, ST_NPL],
                st[d, ST_LED],
                rel,
                h[0] | h[1] | h[2] | h[3] | st[d, ST_TMASK],
            )
            if st[d, ST_SLOT] >= 0:
                tt_store(info, index, st[d, ST_SLOT], st, d, h, value, rel, EXACT_TT)
        # ---------------- return (value, rel) from depth d to its parent ----------------
        while True:
            if d == 0:
                return value
            e = d
            d -= 1
            seat = st[d, ST_SEAT]
            c = st[d, ST_CARD]
            h[seat] ^= 1 << c
            if st[d, ST_NPL] == 3:
                # the trick just completed: its winner matters if it won by rank
                wc = st[e, ST_WC]
                trick = st[d, ST_TMASK] | (1 << c)
                if pop13((trick >> (13 * (wc // 13))) & SUIT_MASK) >= 2:
                    rel |= 1 << wc
            if (maxer[seat] == 1) == value:
                # cut-off: depth d takes this value, and only this child's relevance
                if st[d, ST_NEXT] > 1:
                    hist[seat, c] += (52 - d) * (52 - d)
                if st[d, ST_NPL] == 0:
                    hist[5 + st[d, ST_NEED], d] = c + 1
                if st[d, ST_SLOT] >= 0:
                    tt_store(info, index, st[d, ST_SLOT], st, d, h, value, rel, EXACT_TT)
                continue
            st[d, ST_REL] |= rel
            break
        entering = False
