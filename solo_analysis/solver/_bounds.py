"""Bounds of the search: questions it can answer without searching a position's moves.

At a trick boundary (the side on lead to play): quick tricks (:func:`quick_tricks`), one
sure trick on lead in a trump contract (:func:`sure_lead`), sure trump tricks
(:func:`sure_trumps`), a lone declarer's trumps drawn from the top (:func:`drawn_trumps`)
and, an opponent on lead, kept until he can draw (:func:`defended_trumps`), the all-tricks
bound (:func:`all_tricks_bound`), and for misère at no trump the declarer's
safety (:func:`misere_safe`) and a forced win (:func:`misere_forced`).
At the second card of a trick at no trump: the second hand's sure tricks
(:func:`second_hand_nt`).  After every move of a position failed: the cards its result came
to depend on through the runs of equivalent cards it searched (:func:`straddling_runs`).

Each bound returns, with its answer, ``relevant``: a 52-bit mask of the cards whose owners
its answer relies on (the table stores the result under those cards' pattern, see
:mod:`._table`).  A bound relies on as few cards as it can: none in a suit nobody else
holds, where any card is the top card.  Encodings: see :mod:`._bits`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import NT, SUIT_MASK
from ._bits import (
    hibit,
    lowbit,
    opponent_can_ruff,
    opponents_hold_trumps,
    pop13,
    pop52,
    top_cards_mask,
    top_run,
    top_run_mask,
)


@njit(cache=True, inline="always")
def _run_line(mine, mate, run, unblock):
    """Tricks of one line of a two-hand side running a no-trump suit on its top cards.

    ``mine`` (the hand on lead) and ``mate`` are 13-bit holdings, ``run`` the side's cards
    above every opponent's, each of which wins whenever it is the highest card of a trick.
    The greedy line (``unblock`` false): the hand on lead leads its highest run card and the
    other follows with its lowest card (the higher of the two wins and leads next), or,
    holding none, leads its lowest card for the other to overtake with its highest run card.
    The unblocking line (``unblock`` true): the shorter hand's run cards are played first
    (the longer hand on lead leads low to them), then the longer hand's.  Each stops when
    the hand on lead can do neither.  Returns ``(tricks, swapped, on_lead, other)``:
    ``swapped`` whether the hand on lead at the end is ``mate``, and the two hands' cards
    of the suit left, that hand's first.
    """
    z = mine
    zp = mate
    short_lead = pop13(mine) < pop13(mate)
    n = 0
    while True:
        zt = z & run
        if unblock and not short_lead and (zp & run) and z:
            # the longer hand leads low to the shorter hand's highest run card
            c = lowbit(z)
            z ^= 1 << c
            f = hibit(zp & run)
            zp ^= 1 << f
            if f > c:
                z, zp = zp, z
                short_lead = not short_lead
        elif zt:
            c = hibit(zt)
            z ^= 1 << c
            if zp:
                f = lowbit(zp)
                zp ^= 1 << f
                if f > c:
                    z, zp = zp, z
                    short_lead = not short_lead
        elif z and (zp & run):
            c = lowbit(z)
            z ^= 1 << c
            f = hibit(zp & run)
            zp ^= 1 << f
            z, zp = zp, z
            short_lead = not short_lead
        else:
            break
        n += 1
    return n, short_lead != (pop13(mine) < pop13(mate)), z, zp


@njit(cache=True, inline="always")
def _longest_other(h, x, s):
    """The longest holding of suit ``s`` among the hands other than ``x``."""
    longest = 0
    for o in range(4):
        if o != x:
            lo = pop13((h[o] >> (13 * s)) & SUIT_MASK)
            if lo > longest:
                longest = lo
    return longest


@njit(cache=True, inline="always")
def _cash_count(h, x, m, ls, s):
    """What hand ``x``, holding ``m`` of suit ``s`` (live cards ``ls``), cashes on lead.

    For a suit no opponent can ruff (at no trump, the trump suit, or no opponent holding
    a trump).

    Its top run, and the whole of ``m`` where the run is at least as long as every other
    hand's holding (the others are out of it by then).  Returns ``(tricks, top)``: ``top``
    how many of the suit's top cards the count relies on.
    """
    k = top_run(m, ls)
    if k == 0:
        return 0, 0
    longest = _longest_other(h, x, s)
    if k >= longest:
        return pop13(m), longest
    return k, k


@njit(cache=True, inline="always")
def _unruffed(h, trump, maxer, side, s, k):
    """``k`` tricks of side suit ``s`` cut to what no opponent of ``side`` can ruff.

    An opponent holding trumps ruffs once void: at most the shortest holding of ``s`` among
    those opponents.
    """
    for o in range(4):
        if maxer[o] != side and (h[o] >> (13 * trump)) & SUIT_MASK:
            lo = pop13((h[o] >> (13 * s)) & SUIT_MASK)
            if lo < k:
                k = lo
    return k


@njit(cache=True, inline="always")
def _nt_cash(h, x, live):
    """What hand ``x`` cashes on lead at no trump, suit by suit.

    Per suit the top run, and the whole suit where the run is at least as long as every
    other hand's holding (the others are out of it by then).  Returns ``(counts, tops)``,
    4 bits a suit (suit ``s`` in bits ``4 s`` to ``4 s + 3``): the tricks, and how many of
    the suit's top cards the count relies on (:func:`_cashed_rel`).
    """
    counts = 0
    tops = 0
    for s in range(4):
        m = (h[x] >> (13 * s)) & SUIT_MASK
        if m == 0:
            continue
        k, top = _cash_count(h, x, m, (live >> (13 * s)) & SUIT_MASK, s)
        counts |= k << (4 * s)
        tops |= top << (4 * s)
    return counts, tops


@njit(cache=True, inline="always")
def _suit_sum(counts, skip):
    """The tricks of ``counts`` (4 bits a suit) in the suits outside ``skip``."""
    t = 0
    for s in range(4):
        if not (skip >> s) & 1:
            t += (counts >> (4 * s)) & 15
    return t


@njit(cache=True, inline="always")
def _cashed_rel(counts, tops, skip, have, goal, live):
    """Cash the suits of ``counts`` outside ``skip`` after ``have`` tricks, until ``goal``.

    ``counts`` and ``tops`` as :func:`_nt_cash` returns them.  Returns ``(tricks, relevant,
    suits)``: the suits cashed and the top cards their counts rely on (none in a suit
    nobody else holds).
    """
    rel = 0
    suits = 0
    for s in range(4):
        if have >= goal:
            break
        c = (counts >> (4 * s)) & 15
        if c == 0 or (skip >> s) & 1:
            continue
        have += c
        suits |= 1 << s
        top = (tops >> (4 * s)) & 15
        if top > 0:
            rel |= top_cards_mask((live >> (13 * s)) & SUIT_MASK, top, 13 * s)
    return have, rel, suits


@njit(cache=True, inline="always")
def _run_then_cash(h, leader, mate, s, live, run, n, swapped, zx, zy, longest_opp, cash, goal):
    """A no-trump line: the side runs suit ``s`` on its combined top cards, then cashes.

    ``n``, ``swapped``, ``zx``, ``zy``: a line of :func:`_run_line` from ``leader`` with
    ``mate``, ``run`` the side's top run of the suit.  Once the run has outlasted every
    opponent's holding (``longest_opp``), the side's other cards of the suit are winners:
    the hand on lead leads them if the other hand is void; if both hold some, the longer
    hand (either, with as many) runs them when it holds the higher card, and the line
    ends in that card's hand, ``x``.  Then ``x`` cashes its own winners in the other suits,
    and, holding a card of a suit whose top card its team-mate ``y`` holds, crosses to
    ``y``, who cashes his in the suits not yet cashed, if ``y`` has enough cards outside
    those to follow or discard through every trick before.  ``cash``: the leader's and the
    team-mate's :func:`_nt_cash`.  Returns ``(tricks, relevant)``; ``relevant`` only where
    the tricks reach ``goal`` (a count short of it decides nothing).
    """
    ls = (live >> (13 * s)) & SUIT_MASK
    rel = top_cards_mask(ls, pop13(run), 13 * s)
    if n >= longest_opp and zx:
        # the opponents are out of the suit: the side's other cards of it are winners
        if zy == 0:
            n += pop13(zx)
        else:
            # Both hands still hold some: every round both follow, whoever wins leads the
            # next, and the hand keeping the higher card for the other's last round wins
            # it; so the longer hand runs the suit if it holds the higher card, and two
            # holdings alike end in the hand holding it.  That card's rank is relied on.
            a = pop13(zx)
            b = pop13(zy)
            hx = hibit(zx)
            hy = hibit(zy)
            if a == b or (a > b) == (hx > hy):
                n += a if a > b else b
                if hy > hx:
                    swapped = not swapped
                rel |= top_cards_mask(ls, pop13(ls >> (hx if hx > hy else hy)), 13 * s)
    if n >= goal:
        return n, rel
    cx_counts, cx_tops, cy_counts, cy_tops = cash
    x = leader
    y = mate
    if swapped:
        x = mate
        y = leader
        cx_counts, cx_tops, cy_counts, cy_tops = cy_counts, cy_tops, cx_counts, cx_tops
    total = n + _suit_sum(cx_counts, 1 << s)
    if total >= goal:
        total, rx, _ = _cashed_rel(cx_counts, cx_tops, 1 << s, n, goal, live)
        return total, rel | rx
    skip = 1 << s
    for c in range(4):
        if (cx_counts >> (4 * c)) & 15:
            skip |= 1 << c
    if total + _suit_sum(cy_counts, skip) < goal:
        return total, 0
    for e in range(4):
        if (skip >> e) & 1 or ((h[x] >> (13 * e)) & SUIT_MASK) == 0:
            continue
        etop = np.int64(1) << (13 * e + hibit((live >> (13 * e)) & SUIT_MASK))
        if not (h[y] & etop):
            continue
        got, ry, cy = _cashed_rel(cy_counts, cy_tops, skip, total, goal, live)
        busy = 0 if (cy >> e) & 1 else 1  # the entry card is kept in any case
        for c in range(4):
            if (cy >> c) & 1:
                busy += pop13((h[y] >> (13 * c)) & SUIT_MASK)
        if pop52(h[y]) - busy >= total:
            _, rx, _ = _cashed_rel(cx_counts, cx_tops, 1 << s, n, goal, live)
            return got, rel | rx | ry | etop
        break
    return total, 0


@njit(cache=True)
def _own_quick_tricks(h, hand_seat, trump, live, maxer):
    """Tricks ``hand_seat`` can take at once on lead by cashing its own top cards.

    In a trump contract (at no trump, :func:`_nt_cash`).  Per suit, the top run; where it
    is at least as long as every other hand's holding, the whole suit (the others are out
    of it by then; in a side suit only if no opponent holds trumps).  Side suits are
    capped by the length of every opponent who holds trumps (he could ruff once void).
    Returns ``(tricks, counts, tops, cap)``: ``counts`` and ``tops`` 4 bits a suit as
    :func:`_nt_cash` returns them, ``cap`` the most side-suit tricks he can cash in a row
    (:func:`_trump_cash_rel`).
    """
    hand = h[hand_seat]
    side = maxer[hand_seat]
    opp_trumps = opponents_hold_trumps(h, trump, maxer, side)
    trump_tricks = 0
    side_tricks = 0
    counts = 0
    tops = 0
    for s in range(4):
        m = (hand >> (13 * s)) & SUIT_MASK
        if m == 0:
            continue
        ls = (live >> (13 * s)) & SUIT_MASK
        if s == trump or not opp_trumps:
            k, top = _cash_count(h, hand_seat, m, ls, s)
        else:
            k = _unruffed(h, trump, maxer, side, s, top_run(m, ls))
            top = k
        if k > 0:
            counts |= k << (4 * s)
            tops |= top << (4 * s)
            if s == trump:
                trump_tricks += k
            else:
                side_tricks += k
    cap = 13
    if trump < NT and side_tricks > 0:
        # A team-mate holding only trumps must ruff a side-suit winner and take the
        # lead: one with f other cards lets at most f + 1 of them be cashed in a row.
        for o in range(4):
            if o == hand_seat or maxer[o] != side or ((h[o] >> (13 * trump)) & SUIT_MASK) == 0:
                continue
            free = pop52(h[o]) - pop13((h[o] >> (13 * trump)) & SUIT_MASK)
            if free + 1 < cap:
                cap = free + 1
    if side_tricks > cap:
        side_tricks = cap
    return trump_tricks + side_tricks, counts, tops, cap


@njit(cache=True, inline="always")
def _trump_cash_rel(counts, tops, trump, cap, first, goal, live):
    """The suits of an :func:`_own_quick_tricks` count cashed until ``goal``, fewest cards first.

    Suit ``first`` (the entry suit of a crossing; -1 for none) first, then the suits whose
    count relies on no card (nobody else holds them), then the others, those relying on
    fewer top cards first; side-suit tricks count up to ``cap`` in all.  Returns
    ``(tricks, relevant, suits)``: ``relevant`` the top cards the suits cashed rely on.
    """
    have_t = 0
    have_s = 0
    rel = 0
    suits = 0
    while have_t + (have_s if have_s < cap else cap) < goal:
        pick = -1
        if first >= 0 and not (suits >> first) & 1:
            pick = first
        else:
            least = 14
            for s in range(4):
                if (suits >> s) & 1 or ((counts >> (4 * s)) & 15) == 0:
                    continue
                tp = (tops >> (4 * s)) & 15
                if tp < least:
                    least = tp
                    pick = s
        if pick < 0:
            break
        suits |= 1 << pick
        k = (counts >> (4 * pick)) & 15
        if pick == trump:
            have_t += k
        else:
            have_s += k
        tp = (tops >> (4 * pick)) & 15
        if tp > 0:
            rel |= top_cards_mask((live >> (13 * pick)) & SUIT_MASK, tp, 13 * pick)
    return have_t + (have_s if have_s < cap else cap), rel, suits


@njit(cache=True, inline="always")
def quick_tricks_cap(h, leader, trump, live, maxer):
    """An upper bound on :func:`quick_tricks`: what the side on lead could cash at most.

    Every line of the count takes tricks in a suit only with the side's cards above every
    opponent's (its combined top run), and with the rest of the suit only once that run
    outlasts every opponent's holding; and never more than the side's longest holding of
    the suit (each trick of it takes a card from every hand of the side that holds one).
    """
    side = maxer[leader]
    cap = 0
    for s in range(4):
        ls = (live >> (13 * s)) & SUIT_MASK
        if ls == 0:
            continue
        mine = 0
        longest = 0
        longest_opp = 0
        for o in range(4):
            m = (h[o] >> (13 * s)) & SUIT_MASK
            lo = pop13(m)
            if maxer[o] == side:
                mine |= m
                if lo > longest:
                    longest = lo
            elif lo > longest_opp:
                longest_opp = lo
        k = top_run(mine, ls)
        if k >= longest_opp:
            k = longest
        if trump < NT and s != trump:
            k = _unruffed(h, trump, maxer, side, s, k)
        cap += k
    return cap


@njit(cache=True)
def _quick_tricks_nt(h, leader, live, maxer, goal):
    """:func:`quick_tricks` at no trump.

    The lines of :func:`quick_tricks` (the leader's own winners; crossing to a team-mate and
    his; both in turn) and, for a side of two hands, each suit run on the side's combined
    top cards (:func:`_run_line`, either line) and then the winners of the hand it ends in
    and of its team-mate (:func:`_run_then_cash`).  Each hand's winners are counted once
    (:func:`_nt_cash`).  Returns ``(tricks, relevant)``.
    """
    side = maxer[leader]
    hand = h[leader]
    cl, tl = _nt_cash(h, leader, live)
    own = _suit_sum(cl, 0)
    if own >= goal:
        best, rel, _ = _cashed_rel(cl, tl, 0, 0, goal, live)
        return best, rel
    best = own
    mate = -1  # the leader's one team-mate (-2: more than one)
    cm = 0
    tm = 0
    for p in range(4):
        if p == leader or maxer[p] != side:
            continue
        mate = p if mate == -1 else -2
        cp, tp = _nt_cash(h, p, live)
        if mate == p:
            cm = cp
            tm = tp
        etop = -1
        for s in range(4):
            ls = (live >> (13 * s)) & SUIT_MASK
            if ls == 0 or ((hand >> (13 * s)) & SUIT_MASK) == 0:
                continue
            top = 13 * s + hibit(ls)
            if (h[p] >> top) & 1:
                etop = top
                break
        if etop < 0:
            continue
        t = _suit_sum(cp, 0)
        if t >= goal:
            # the team-mate's winners, reached by the leader's card of ``etop``'s suit
            t, r, _ = _cashed_rel(cp, tp, 0, 0, goal, live)
            return t, r | (np.int64(1) << etop)
        best = t if t > best else best
        if t > 0 and own > 0 and own + t >= goal:
            # cash the leader's winners, cross in ``etop``'s suit and cash the team-mate's:
            # sound when the team-mate can follow or discard through the leader's run
            # without giving up a card of a suit he cashes
            busy = 0
            for s in range(4):
                if (cp >> (4 * s)) & 15:
                    busy += pop13((h[p] >> (13 * s)) & SUIT_MASK)
            if pop52(h[p]) - busy >= own and pop52(hand) >= goal:
                _, orel, _ = _cashed_rel(cl, tl, 0, 0, goal, live)
                got, r, _ = _cashed_rel(cp, tp, 0, own, goal, live)
                return got, orel | r | (np.int64(1) << etop)
    rel = 0
    if mate < 0:
        return best, rel
    cash = (cl, tl, cm, tm)
    both = 0  # the two hands' winners in all suits
    for s in range(4):
        both += ((cl >> (4 * s)) & 15) + ((cm >> (4 * s)) & 15)
    for s in range(4):
        m = (hand >> (13 * s)) & SUIT_MASK
        if m == 0:
            continue
        mp = (h[mate] >> (13 * s)) & SUIT_MASK
        a = pop13(m)
        b = pop13(mp)
        # a line takes at most the longer holding in the suit it runs, and the two hands'
        # winners in the others: a count short of ``goal`` decides nothing
        longer = a if a > b else b
        if longer + both - ((cl >> (4 * s)) & 15) - ((cm >> (4 * s)) & 15) < goal:
            continue
        ls = (live >> (13 * s)) & SUIT_MASK
        run = top_run_mask(m | mp, ls, 0)
        if run == 0:
            continue
        longest_opp = 0
        for o in range(4):
            if maxer[o] != side:
                lo = pop13((h[o] >> (13 * s)) & SUIT_MASK)
                if lo > longest_opp:
                    longest_opp = lo
        for ub in range(2):
            if ub == 1 and a == b:
                break
            n, sw, zx, zy = _run_line(m, mp, run, ub == 1)
            kj, rj = _run_then_cash(
                h, leader, mate, s, live, run, n, sw, zx, zy, longest_opp, cash, goal
            )
            if kj > best:
                best = kj
                rel = rj
                if best >= goal:
                    return best, rel
    return best, rel


@njit(cache=True)
def quick_tricks(h, leader, trump, live, maxer, goal):
    """Tricks the side on lead can take at once (a lower bound).

    The largest of: the leader cashing his own top cards; the leader crossing to a
    team-mate who holds the top card of a suit the leader can lead (and no opponent
    can ruff it) and the team-mate cashing his; and, when no opponent holds a trump,
    both in turn (the leader's winners, then the crossing, then the team-mate's), if
    the team-mate has enough cards outside the suits he cashes to follow or discard
    through the leader's run; at no trump also a side of two hands running one suit on
    its combined top cards, and then cashing the other suits' winners of the hand it ends
    in and of its team-mate (:func:`_quick_tricks_nt`).  The count stops at the first
    line that reaches ``goal`` (the tricks that decide the question), and a line cashes
    its suits only until ``goal``: in a trump contract the suits nobody else holds first,
    then those relying on the fewest top cards (:func:`_trump_cash_rel`).  Returns
    ``(tricks, relevant)``: ``tricks`` at least ``goal`` where a line reaches it (it may
    stop short of all the line could cash), and ``relevant`` the cards that decision
    relies on (0 where no line reaches ``goal``); ``(0, 0)`` at once where even
    :func:`quick_tricks_cap` falls short of ``goal`` (no count could decide).
    """
    if quick_tricks_cap(h, leader, trump, live, maxer) < goal:
        return 0, 0
    return counted_quick_tricks(h, leader, trump, live, maxer, goal)


@njit(cache=True)
def counted_quick_tricks(h, leader, trump, live, maxer, goal):
    """:func:`quick_tricks` past its cap, for a caller that found the cap at least ``goal``.

    The search asks the cap itself (inlined) and calls this only where a count could
    decide: about half the boundaries of a no-trump search stop at the cap, and skip the
    call.
    """
    if trump == NT:
        return _quick_tricks_nt(h, leader, live, maxer, goal)
    best, cl, tl, capl = _own_quick_tricks(h, leader, trump, live, maxer)
    if best >= goal:
        got, rel, _ = _trump_cash_rel(cl, tl, trump, capl, -1, goal, live)
        return got, rel
    own = best
    side = maxer[leader]
    hand = h[leader]
    combine = not opponents_hold_trumps(h, trump, maxer, side)
    etop = 0
    for p in range(4):
        if p == leader or maxer[p] != side:
            continue
        entry = False
        for s in range(4):
            if ((hand >> (13 * s)) & SUIT_MASK) == 0:
                continue
            ls = (live >> (13 * s)) & SUIT_MASK
            if ls == 0:
                continue
            top = 12
            while not (ls >> top) & 1:
                top -= 1
            if not (h[p] >> (13 * s + top)) & 1:
                continue
            if not opponent_can_ruff(h, s, trump, maxer, side):
                entry = True
                etop = 13 * s + top
                break
        if entry:
            t, cp, tp, capp = _own_quick_tricks(h, p, trump, live, maxer)
            if t > best:
                best = t
                if best >= goal:
                    # the crossing trick is one of the team-mate's in the entry suit
                    got, r, _ = _trump_cash_rel(cp, tp, trump, capp, etop // 13, goal, live)
                    return got, r | (np.int64(1) << etop)
            if combine and t > 0 and own > 0:
                # cash the leader's winners, cross in ``e`` and cash the team-mate's: sound
                # when nobody on the other side can ruff, and the team-mate can follow or
                # discard through the leader's run without giving up a card of a suit he
                # cashes
                busy = 0
                for s in range(4):
                    ps_ = (h[p] >> (13 * s)) & SUIT_MASK
                    if ps_ and (cp >> (4 * s)) & 15:
                        busy += pop13(ps_)
                if pop52(h[p]) - busy >= own and own + t > best:
                    best = own + t
                    if best > pop52(hand):
                        best = pop52(hand)
                    if best >= goal:
                        _, orel, _ = _trump_cash_rel(cl, tl, trump, capl, -1, 14, live)
                        _, r, _ = _trump_cash_rel(cp, tp, trump, capp, -1, 14, live)
                        return best, orel | r | (np.int64(1) << etop)
    return best, 0


@njit(cache=True, inline="always")
def _pairing(mine, theirs):
    """Trumps of ``mine`` that surely win against ``theirs`` (13-bit rank masks).

    The largest ``j - c`` over ``mine``'s ``j`` highest cards, ``c`` the cards of ``theirs``
    above the ``j``-th.  Returns ``(count, rank)``: ``rank`` the ``j``-th card where the
    count is first reached (13 if the count is 0).
    """
    best = 0
    low = 13
    c = 0
    j = 0
    x = mine | theirs
    last = lowbit(mine)  # the cards below ``mine``'s lowest change nothing
    while x:
        r = hibit(x)
        x ^= 1 << r
        if theirs & (1 << r):
            c += 1
        else:
            j += 1
            if j - c > best:
                best = j - c
                low = r
            if r == last:
                break
    return best, low


@njit(cache=True)
def sure_trumps(h, trump, side, want_side, live):
    """Sure trump tricks of the seats with ``side == want_side``.

    One hand's trumps go to different tricks, and a trump of that hand loses its
    trick only to a higher trump of the other side, each of which can beat one of
    them.  So if the hand's ``j`` highest trumps have only ``c`` trumps of the other
    side above the ``j``-th, at least ``j - c`` of them win (the side takes at least
    that many tricks).  Returns ``(tricks, relevant)``, ``relevant`` the live trumps
    from the top down to the deciding one.
    """
    lt = (live >> (13 * trump)) & SUIT_MASK
    theirs = 0
    for o in range(4):
        if side[o] != want_side:
            theirs |= (h[o] >> (13 * trump)) & SUIT_MASK
    best = 0
    low = 13
    for o in range(4):
        if side[o] != want_side:
            continue
        mine = (h[o] >> (13 * trump)) & SUIT_MASK
        if mine == 0:
            continue
        n, r = _pairing(mine, theirs)
        if n > best:
            best = n
            low = r
    rel = 0
    if best > 0 and theirs != 0:  # against no trumps any trump wins: ranks do not matter
        rel = (lt & ~((1 << low) - 1)) << (13 * trump)
    return best, rel


@njit(cache=True)
def guarded_trumps(h, trump, side, want_side, leader, live):
    """Trump tricks of the seats with ``side == want_side`` that one hand's count misses.

    2 where they hold the top two trumps in different hands, not both bare: the top trump
    wins whenever played, and the second never falls under it (the hand with another trump
    plays that one on the trick where the other plays its top one).  Otherwise 1 where one
    of their hands holds a trump that only trumps of the seat before it (an opponent, who
    plays before it on every trick it does not lead) beat, and one more trump below it for
    each of those: the first time it plays a trump, either one of those is on the trick (it
    plays a low one) or none is (its high one wins), and once they are gone its high one
    is the top trump.  On lead now it needs a card of another suit to lead.  0 otherwise.
    Returns ``(tricks, relevant)``: the live trumps from the top down to the deciding one.
    """
    lt = (live >> (13 * trump)) & SUIT_MASK
    if lt == 0:
        return 0, 0
    r1 = hibit(lt)
    b1 = np.int64(1) << (13 * trump + r1)
    if pop13(lt) >= 2:
        r2 = hibit(lt & ~(1 << r1))
        b2 = np.int64(1) << (13 * trump + r2)
        o1 = 0
        o2 = 0
        for o in range(4):
            if h[o] & b1:
                o1 = o
            if h[o] & b2:
                o2 = o
        if o1 != o2 and side[o1] == want_side and side[o2] == want_side:
            n1 = pop13((h[o1] >> (13 * trump)) & SUIT_MASK)
            n2 = pop13((h[o2] >> (13 * trump)) & SUIT_MASK)
            if n1 >= 2 or n2 >= 2:
                return 2, b1 | b2
    for y in range(4):
        p = (y + 3) & 3
        if side[y] != want_side or side[p] == want_side:
            continue
        mine = (h[y] >> (13 * trump)) & SUIT_MASK
        if mine == 0:
            continue
        t = hibit(mine)
        above = lt & ~((2 << t) - 1)
        if above == 0 or (above & ~((h[p] >> (13 * trump)) & SUIT_MASK)) != 0:
            continue
        n = pop13(mine)
        if n > pop13(above) and (leader != y or pop52(h[y]) > n):
            return 1, (above | (1 << t)) << (13 * trump)
    return 0, 0


@njit(cache=True, inline="always")
def _top_runs(rest, ta, tb, tc, low):
    """A lone hand on lead with trumps ``rest`` draws with its top runs (:func:`drawn_trumps`).

    Each opponent gives up his lowest trump to every trick of a run; a run may make the
    hand's next trumps a top run in turn.  13-bit rank masks.  Returns ``(drawn, rest, ta,
    tb, tc, low)``: the tricks of the runs, the trumps left, and ``low`` the lowest card of
    the runs (the ``low`` passed in if there was none).
    """
    drawn = 0
    while ta | tb | tc:
        k = top_run(rest, rest | ta | tb | tc)
        if k == 0:
            break
        for _ in range(k):
            low = hibit(rest)
            rest &= ~(1 << low)
            ta &= ta - 1
            tb &= tb - 1
            tc &= tc - 1
        drawn += k
    return drawn, rest, ta, tb, tc, low


@njit(cache=True, inline="always")
def _draw(rest, ta, tb, tc, low):
    """Trump tricks of a lone hand on lead with trumps ``rest`` against ``ta``, ``tb``, ``tc``.

    See :func:`drawn_trumps`: the top runs drawn (:func:`_top_runs`), then the larger of the
    pairing and his lowest trump led to draw theirs (:func:`_lose_low`).  13-bit rank masks.
    Returns ``(tricks, low)``: ``low`` the deciding rank, the lowest card of the runs or the
    pairing's (the ``low`` passed in if neither), 0 where the low lead counts more (it relies
    on every opponent's lowest trump).
    """
    drawn, rest, ta, tb, tc, low = _top_runs(rest, ta, tb, tc, low)
    theirs = ta | tb | tc
    if theirs == 0:
        # drawn out: every trump he has left wins, whatever its rank
        return drawn + pop13(rest), low
    best, r = _pairing(rest, theirs)
    if best > 0:
        low = r
    if best < pop13(rest):  # else the low lead cannot count more
        lost = _lose_low(rest, ta, tb, tc)
        if lost > best:
            best = lost
            low = 0
    return drawn + best, low


@njit(cache=True, inline="always")
def _runs_pairing(rest, ta, tb, tc):
    """:func:`_draw`'s top runs and pairing alone (no trick lost on purpose): the tricks."""
    drawn, rest, ta, tb, tc, _ = _top_runs(rest, ta, tb, tc, 13)
    theirs = ta | tb | tc
    if theirs == 0:
        return drawn + pop13(rest)
    best, _ = _pairing(rest, theirs)
    return drawn + best


@njit(cache=True, inline="always")
def _after_lost(rest, ta, tb, tc):
    """Trump tricks of a lone hand, trumps ``rest`` against ``ta``, ``tb``, ``tc``, not on lead.

    The larger of the pairing, which holds whoever leads, and, if he holds the top trump,
    :func:`defended_trumps`' count with :func:`_runs_pairing` for the drawing.
    """
    theirs = ta | tb | tc
    if theirs == 0:
        return pop13(rest)
    best, _ = _pairing(rest, theirs)
    if rest != 0 and hibit(rest) > hibit(theirs):
        top = hibit(rest)
        d = _runs_pairing(rest, ta, tb, tc)
        v = 1 + _runs_pairing(rest & ~(1 << top), ta, tb, tc)
        if v < d:
            d = v
        if d > best:
            best = d
    return best


@njit(cache=True, inline="always")
def _lose_low(rest, ta, tb, tc):
    """Trump tricks of a lone hand on lead that leads its lowest trump, the top one theirs.

    Every opponent holding trumps must play one to it.  At worst for him each gives up his
    lowest, keeping the higher ones (a lower card kept in place of a higher one beats fewer
    of his), except that one of them may play his lowest trump above the card led to win
    the trick.  If none does, the trick is his and he leads again (:func:`_runs_pairing`
    counts the rest); otherwise an opponent leads (:func:`_after_lost`).  The count is the
    least over those replies.  13-bit rank masks.
    """
    x = lowbit(rest)
    rest &= rest - 1
    above = ~((2 << x) - 1)
    # each opponent's trumps after he gives up his lowest
    ra = ta & (ta - 1)
    rb = tb & (tb - 1)
    rc = tc & (tc - 1)
    if ((ta ^ ra) | (tb ^ rb) | (tc ^ rc)) & above:
        worst = 13
    else:
        worst = 1 + _runs_pairing(rest, ra, rb, rc)
    # or one of them wins the trick with his lowest trump above the card led
    over = ta & above
    if over:
        worst = min(worst, _after_lost(rest, ta & ~(over & -over), rb, rc))
    over = tb & above
    if over:
        worst = min(worst, _after_lost(rest, ra, tb & ~(over & -over), rc))
    over = tc & above
    if over:
        worst = min(worst, _after_lost(rest, ra, rb, tc & ~(over & -over)))
    return worst


@njit(cache=True)
def drawn_trumps(h, leader, trump, live):
    """Trump tricks a lone declarer on lead surely takes by drawing trumps first.

    He leads his top run of trumps (cards no other trump beats), one a trick, and wins each
    of those tricks; every opponent holding trumps must follow to them, and each gives up
    his lowest ones at worst for the declarer (a lower card kept in place of a higher one
    can only beat fewer of the declarer's).  With the opponents' high trumps gone, his next
    ones may have become a top run in turn: he goes on while he has one.  Then the pairing
    of :func:`sure_trumps` counts the declarer's remaining trumps that surely win against
    the opponents' remaining ones, or, where it counts more, he leads his lowest trump,
    which every opponent holding trumps must follow (:func:`_lose_low`).  Returns
    ``(tricks, relevant)``: the runs plus that count, relying on the owners of the live
    trumps from the top down to the deciding one (the lowest card of the runs, or the
    declarer's trump where the pairing counts most; every live trump where the low lead
    does).  Below it the owners do not matter: with the lengths fixed (the table's key),
    each opponent keeps the same trumps above it.
    """
    lt = (live >> (13 * trump)) & SUIT_MASK
    rest = (h[leader] >> (13 * trump)) & SUIT_MASK
    if rest == 0 or rest == lt:
        return pop13(rest), 0
    if top_run(rest, lt) == 0:
        return 0, 0
    ta = (h[(leader + 1) & 3] >> (13 * trump)) & SUIT_MASK
    tb = (h[(leader + 2) & 3] >> (13 * trump)) & SUIT_MASK
    tc = (h[(leader + 3) & 3] >> (13 * trump)) & SUIT_MASK
    tricks, low = _draw(rest, ta, tb, tc, 13)
    return tricks, (lt & ~((1 << low) - 1)) << (13 * trump)


@njit(cache=True)
def defended_trumps(h, dcl, trump, live):
    """Trump tricks a lone declarer holding the top trump surely takes, an opponent on lead.

    He follows suit with his side cards while he can and keeps his trumps until one of
    three things happens, each leaving his trumps as they are and the opponents' the same
    or fewer (they can only have ruffed): he wins a trick with a side card and is on lead;
    trumps are led, and he plays the top trump, wins and is on lead as after the first
    trick of :func:`drawn_trumps`' drawing (the opponents chose their trumps, which that
    count already allows for); or a suit he is void in is led, and he ruffs with the top
    trump, wins, and draws with the rest.  So he takes at least the smaller of
    :func:`drawn_trumps`' count and one more than the drawing count of his other trumps
    (each count is what a way of playing his trumps guarantees, and the same play
    guarantees as much against fewer or lower opponents' trumps).  Returns ``(tricks,
    relevant)``, 0 if he lacks the top trump: the live trumps down to the deciding card of
    either count.
    """
    lt = (live >> (13 * trump)) & SUIT_MASK
    mine = (h[dcl] >> (13 * trump)) & SUIT_MASK
    if mine == 0 or not (mine >> hibit(lt)) & 1:
        return 0, 0
    if mine == lt:
        return pop13(mine), 0
    ta = (h[(dcl + 1) & 3] >> (13 * trump)) & SUIT_MASK
    tb = (h[(dcl + 2) & 3] >> (13 * trump)) & SUIT_MASK
    tc = (h[(dcl + 3) & 3] >> (13 * trump)) & SUIT_MASK
    best, low = _draw(mine, ta, tb, tc, 13)
    top = hibit(mine)
    v, lo = _draw(mine & ~(1 << top), ta, tb, tc, top)
    if v + 1 < best:
        best = v + 1
    if lo < low:
        low = lo
    return best, (lt & ~((1 << low) - 1)) << (13 * trump)


@njit(cache=True, inline="always")
def lone_declarer(flags):
    """The one seat flagged in ``flags`` (``counted`` or ``maxer``), or -1 if none or several."""
    dcl = -1
    for o in range(4):
        if flags[o]:
            if dcl >= 0:
                return -1
            dcl = o
    return dcl


@njit(cache=True, inline="always")
def _ducks(ds, os_, shift):
    """Whether the declarer's cards ``ds`` of a suit stay under the others' ``os_`` in pairs.

    With the cards of both sorted from the lowest, the declarer's ``i + shift``-th must be
    below the others' ``i``-th, as far as both go (13-bit rank masks; ``shift`` 0 or 1).
    """
    d = ds
    for _ in range(shift):
        d &= d - 1
    o = os_
    while d != 0 and o != 0:
        if lowbit(d) > lowbit(o):
            return False
        d &= d - 1
        o &= o - 1
    return True


@njit(cache=True)
def misere_safe(h, leader, counted, live):
    """True if the (single, counted) declarer can never again be forced to win a trick.

    No trump, at a trick boundary.  Sufficient condition, suit by suit: with the declarer's
    cards and the other hands' cards (pooled) each sorted from the lowest, his ``i``-th is
    below their ``i``-th as far as both go.  Then, on every lead of the suit (by another
    hand), he plays his highest card below the card led and on every other lead he
    discards the highest card of any suit; either way the condition still holds after the
    trick, whatever the others play.  If he is on lead himself he needs a suit the others
    hold that he can lead and lose without breaking the condition: his lowest card below
    their lowest, and his ``i + 1``-th below their ``i``-th (whichever of their cards
    follow).  Returns ``(safe, relevant)``.
    """
    dcl = lone_declarer(counted)
    if dcl < 0:
        return False, 0
    mine = h[dcl]
    others = live & ~mine
    can_lose_lead = False
    rel = 0
    for s in range(4):
        ds = (mine >> (13 * s)) & SUIT_MASK
        if ds == 0:
            continue
        os_ = (others >> (13 * s)) & SUIT_MASK
        if os_ == 0:
            continue
        if (ds >> lowbit(os_)) == 0:
            # all his cards below all of theirs: the pattern fixes every card above his
            # highest as another hand's, and with the lengths (the table's key) all of
            # theirs are above all of his
            can_lose_lead = True
            rel |= np.int64(1) << (13 * s + hibit(ds))
            continue
        if not _ducks(ds, os_, 0):
            return False, 0
        if leader == dcl and not can_lose_lead and lowbit(ds) < lowbit(os_):
            can_lose_lead = _ducks(ds, os_, 1)
        # the pairing relies on the owners of the suit's cards up to his highest, and so
        # (the table's patterns run from the top card down) of all of them
        rel |= ((live >> (13 * s)) & SUIT_MASK) << (13 * s)
    if leader == dcl and not can_lose_lead:
        return False, 0
    return True, rel


@njit(cache=True)
def misere_forced(h, leader, counted, live):
    """True if the defence, on lead, can make the (single, counted) declarer win this trick.

    No trump.  The leader leads his lowest card of a suit the declarer holds; the defenders
    before the declarer play their lowest cards of it (or discard); if the declarer's lowest
    card is above all of those, he wins the trick unless a defender after him must overtake
    it: one who holds the suit but no card below the declarer's lowest.  If no such defender
    exists, the declarer is forced to win.  Returns ``(forced, relevant)``: the suit's live
    cards (the argument relies on who holds each of them; the table's key fixes the lengths).
    """
    dcl = lone_declarer(counted)
    if dcl < 0 or dcl == leader:
        return False, 0
    for s in range(4):
        mine = (h[leader] >> (13 * s)) & SUIT_MASK
        ds = (h[dcl] >> (13 * s)) & SUIT_MASK
        if mine == 0 or ds == 0:
            continue
        w = lowbit(mine)
        dmin = lowbit(ds)
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
            os_ = (h[o] >> (13 * s)) & SUIT_MASK
            if os_ == 0:
                continue
            lo = lowbit(os_)
            if not after:
                if lo > w:
                    w = lo
            elif lo > dmin:
                forced = False
                break
        if forced:
            return True, ((live >> (13 * s)) & SUIT_MASK) << (13 * s)
    return False, 0


@njit(cache=True)
def all_tricks_bound(h, live, maxer, need, rem):
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
        ls = (live >> (13 * s)) & SUIT_MASK
        if ls == 0:
            continue
        top = hibit(ls)
        bit = np.int64(1) << (13 * s + top)
        holder = 0
        for o in range(4):
            if h[o] & bit:
                holder = o
        mm = 0
        for o in range(4):
            if maxer[o] == maxer[holder]:
                ln = pop13((h[o] >> (13 * s)) & SUIT_MASK)
                if ln > mm:
                    mm = ln
        only = ((h[holder] >> (13 * s)) & SUIT_MASK) == ls
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


@njit(cache=True, inline="always")
def straddling_runs(hand, npl, led, rel, live):
    """Cards to add to ``rel`` at a position where every move of the mover failed.

    The moves searched stood for whole runs of equivalent cards (runs of ``live``,
    which includes the cards of the current trick).  A stored pattern fixes the owners
    of each suit's cards down to its lowest relevant card ``b``; below ``b`` another
    position may split the mover's runs differently.  Runs lying wholly below ``b`` are
    harmless (any of the mover's low cards stands for any other), but a run that holds
    ``b`` and goes on below it would leave its lower cards unaccounted for: its lowest
    card becomes relevant too.  Returns the 52-bit mask of those lowest cards.
    """
    if npl > 0 and (hand >> (13 * led)) & SUIT_MASK:
        legal = hand & (SUIT_MASK << (13 * led))
    else:
        legal = hand
    out = 0
    for s in range(4):
        m = (legal >> (13 * s)) & SUIT_MASK
        if m == 0:
            continue
        rs = (rel >> (13 * s)) & SUIT_MASK
        if rs == 0:
            continue
        b = rs & -rs
        if (m & b) == 0:
            continue
        ls = (live >> (13 * s)) & SUIT_MASK
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
def second_hand_nt(h, leader, led, wc, maxer, cut):
    """At no trump, at the second card of a trick: tricks the second hand's side surely takes.

    The side wins this trick if one of its hands still to play (the second hand, or a
    team-mate after it) holds the highest card of the led suit among the hands still to
    play, above the card led; that hand then leads, and cashes its top runs (what is left of
    the led suit's and every other suit's; the cards the others play to this trick can only
    lengthen them), and the whole of a suit where the run is at least as long as every other
    hand's holding (counted before this trick: they only shorten).  Then, the side's one
    other hand ``q`` following to this trick with his lowest card of the led suit (or having
    led it), that hand crosses in a suit it did not cash to ``q``'s top card of it, and ``q``
    cashes his in the suits not cashed, if he has cards enough outside them (and the entry
    card) to follow or discard through that hand's run.  Counts until ``cut``, the tricks
    that settle the question, and needs the runs only when ``cut > 1`` (stopping early
    keeps the relevant cards few).  Returns ``(tricks, relevant)``, 0 if the trick is not
    sure.
    """
    x = (leader + 1) & 3
    p3 = (leader + 2) & 3
    p4 = (leader + 3) & 3
    base = 13 * led
    rest = ((h[x] | h[p3] | h[p4]) >> base) & SUIT_MASK
    if rest == 0:
        return 0, 0
    r = hibit(rest)
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
        live = h[0] | h[1] | h[2] | h[3]
        counted = 0
        for s in range(4):
            ls = (live >> (13 * s)) & SUIT_MASK
            m = (h[w] >> (13 * s)) & SUIT_MASK
            if s == led:
                ls &= ~(1 << r)
                m &= ~(1 << r)
            if m == 0 or ls == 0:
                continue
            k, top = _cash_count(h, w, m, ls, s)
            if k > 0:
                tricks += k
                if top > 0:  # none in a suit nobody else holds
                    rel |= top_cards_mask(ls, top, 13 * s)
                counted |= 1 << s
                if tricks >= cut:
                    return tricks, rel
        # then cross to the one team-mate's top card of a suit not cashed, and cash his
        q = -1
        for o in range(4):
            if o != w and maxer[o] == maxer[w]:
                q = o if q == -1 else -2
        if q < 0:
            return tricks, rel
        hq = h[q]
        if q != leader:
            # the team-mate still plays to this trick: his lowest card of the led suit
            lq = (hq >> base) & SUIT_MASK
            if lq == 0:
                return tricks, rel
            hq &= ~(np.int64(1) << (base + lowbit(lq)))
        hw = h[w] & ~(np.int64(1) << t)
        etop = -1
        for e in range(4):
            if (counted >> e) & 1 or ((hw >> (13 * e)) & SUIT_MASK) == 0:
                continue
            le = (live >> (13 * e)) & SUIT_MASK
            if e == led:
                le &= ~(1 << r)
            if le == 0:
                continue
            top = 13 * e + hibit(le)
            if (hq >> top) & 1:
                etop = top
                break
        if etop < 0:
            return tricks, rel
        have = tricks
        qrel = 0
        cashed = 0
        busy = 0
        for s in range(4):
            if (counted >> s) & 1:
                continue
            ls = (live >> (13 * s)) & SUIT_MASK
            m = (hq >> (13 * s)) & SUIT_MASK
            if s == led:
                ls &= ~(1 << r)
            if m == 0 or ls == 0:
                continue
            k, top = _cash_count(h, q, m, ls, s)
            if k == 0:
                continue
            have += k
            if top > 0:
                qrel |= top_cards_mask(ls, top, 13 * s)
            cashed |= 1 << s
            busy += pop13(m)
            if have >= cut:
                break
        if have >= cut:
            if not (cashed >> (etop // 13)) & 1:
                busy += 1  # the entry card is kept in any case
            # he follows or discards through the tricks of ``w``'s run
            if pop52(hq) - busy >= tricks - 1:
                return have, rel | qrel | (np.int64(1) << etop)
    return tricks, rel


@njit(cache=True, inline="always")
def sure_lead(h, leader, trump, maxer):
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
        if ((h[leader] >> (13 * s)) & SUIT_MASK) == 0:
            continue
        c = 13 * s + hibit(((ours | theirs) >> (13 * s)) & SUIT_MASK)
        if not (ours >> c) & 1:
            continue
        if s != trump and opponent_can_ruff(h, s, trump, maxer, side):
            continue
        if ((theirs >> (13 * s)) & SUIT_MASK) == 0:
            return 52  # nobody else can follow: the ranks do not matter
        return c
    return -1
