"""Entry kernels of the solver: what :mod:`.single` and :mod:`.batch` call.

Encodings (cards, hands, trumps and roles: see :mod:`._bits`)
-------------------------------------------------------------
* ``hands: int64[4]``: a position, one hand mask a seat; ``masks: int64[n, 4]`` a deal a row.
* ``declarers_mask``: the declarer side as a bitmask, bit ``seat`` set for each declarer;
  :func:`roles` turns it (and ``misere``) into the ``maxer``, ``counted`` and ``wants``
  arrays of the search.
* ``target``: -1 asks for the declarer side's tricks, ``t >= 0`` the yes/no question
  "the side takes at least ``t``" (misère: "the declarer takes at most ``t``").
* an answer: the tricks, or 1/0 for a ``target`` question, or -1 where the search passed
  its limit.
* ``limit``: the most positions one answer may search (:data:`NO_LIMIT`: none);
  ``positions = [count, check, boundaries, limit]`` the counters of :func:`._search.search`
  (:func:`budget`).
* ``stop``: an ``int64[1]`` flag, set (to 1) by another thread to stop a batch: the workers
  look at it between tasks and the search every :data:`._search.STOP_EVERY` positions; an
  answer it cuts short is :data:`STOPPED`.  Every long-running batch kernel takes one, as its
  last argument (:func:`~solo_analysis.solver.batch.run_stoppable` passes it); ``None`` where
  nothing can stop the search.
* ``tt = (info, index)``: a transposition table (:mod:`._table`); ``moves`` and ``scores``
  ``int64[56, 16]`` the move lists of the search (:mod:`._moves`).  :func:`new_tables`
  allocates one of each a worker.
* the trick at the root: ``npl`` cards played to it (0 at a trick boundary), suit ``led``
  led (-1 at a boundary), ``win_card`` winning it so far for ``win_seat`` (-1 at a
  boundary), ``trick_mask`` the cards played (already taken out of ``hands``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..cards import FULL_MASK
from ._bits import choices, next_task, pop52
from ._flag import stop_set
from ._search import STOP_EVERY, search
from ._table import TT_WAYS

#: the limit on positions that means none (far more than any search takes)
NO_LIMIT = 2**62
#: the answer of a task that the stop flag left unsolved (never started, or cut short)
STOPPED = -2


@njit(cache=True)
def roles(declarers_mask, misere):
    """maxer, counted, wants arrays for a declarer-side bitmask (bit seat)."""
    maxer = np.zeros(4, dtype=np.int64)
    counted = np.zeros(4, dtype=np.int64)
    wants = np.zeros(4, dtype=np.int64)
    for s in range(4):
        dec = (declarers_mask >> s) & 1
        counted[s] = dec
        if misere:
            maxer[s] = 1 - dec
            wants[s] = 0
        else:
            maxer[s] = dec
            wants[s] = 1
    return maxer, counted, wants


#: positions a search from a trick boundary may take before its leads are probed one by one
#: (:func:`_can_make`); each round of probes allows each open lead :data:`PROBE_GROWTH` times
#: more
PROBE_FIRST = 1 << 14
PROBE_START = 1 << 10
PROBE_GROWTH = 4


@njit(cache=True)
def _search_from(
    h,
    leader,
    card,
    need,
    trump,
    maxer,
    counted,
    wants,
    normal,
    tt,
    moves,
    scores,
    st,
    hist,
    cap,
    positions,
    stop,
):
    """One zero-window search from a trick boundary, or after ``leader`` leads ``card``.

    ``card`` -1 searches from the boundary.  The search may go on until ``positions[0]``
    passes ``cap`` (at most the limit ``positions[3]``).  Returns ``(value, state)``: state 1
    answered, 0 stopped at ``cap`` (the counters ready for the next search), -1 given up at
    the limit or stopped by the flag (``positions[0] > positions[1]`` says so to the caller).
    ``h`` is left as it was.
    """
    info, index = tt
    hc = h.copy()
    npl = 0
    led = -1
    seat = -1
    bit = np.int64(0)
    if card >= 0:
        bit = np.int64(1) << card
        hc[leader] ^= bit
        npl = 1
        led = card // 13
        seat = leader
    limit = positions[3]
    positions[3] = cap
    positions[1] = min(positions[1], cap)
    v = search(
        hc,
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
        npl,
        led,
        card,
        seat,
        bit,
        positions,
        stop,
    )
    positions[3] = limit
    state = 1
    if positions[0] > positions[1]:
        if positions[0] > limit or (stop is not None and stop_set(stop)):
            return v, -1
        state = 0
    positions[1] = min(limit, positions[0] + STOP_EVERY)
    return v, state


@njit(cache=True)
def _can_make(
    h, trump, leader, maxer, counted, wants, normal, need, tt, moves, scores, hist, positions, stop
):
    """One zero-window search from a trick boundary (see :func:`._search.search`).

    A Misère search that passes :data:`PROBE_FIRST` positions is continued lead by lead: each
    round searches every lead not yet decided (one card a run of equivalent cards, as
    :func:`._bits.choices` lists them) from the position after it, allowing it
    :data:`PROBE_GROWTH` times the positions of the round before, and stops at the first lead
    that decides the question for the side on lead (a lead that makes it for the side that
    wants the tricks, one that defeats it for the other).  The table keeps every subtree
    proved, so a lead searched again resumes most of its work.  A hard question's answer
    often rests on one lead among many, found where the search's move order tried others
    first at great cost; the answer is the same either way.
    """
    st = np.empty((56, 32), dtype=np.int64)
    limit = positions[3]
    first = limit if normal else min(limit, positions[0] + PROBE_FIRST)
    ok, state = _search_from(
        h,
        leader,
        -1,
        need,
        trump,
        maxer,
        counted,
        wants,
        normal,
        tt,
        moves,
        scores,
        st,
        hist,
        first,
        positions,
        stop,
    )
    if state != 0:
        return ok  # answered, or given up (the caller discards the answer)
    leads = np.empty(13, dtype=np.int64)
    gone = np.int64(FULL_MASK) & ~(h[0] | h[1] | h[2] | h[3])
    n = choices(h[leader], h[leader], gone, False, leads)
    open_ = np.ones(n, dtype=np.bool_)
    side = maxer[leader] == 1  # a lead that makes it decides for the maxer, one that fails not
    allow = PROBE_START // PROBE_GROWTH
    left = n
    while left > 0:
        allow *= PROBE_GROWTH
        for j in range(n):
            if not open_[j]:
                continue
            v, state = _search_from(
                h,
                leader,
                leads[j],
                need,
                trump,
                maxer,
                counted,
                wants,
                normal,
                tt,
                moves,
                scores,
                st,
                hist,
                min(limit, positions[0] + allow),
                positions,
                stop,
            )
            if state < 0:
                return False
            if state == 0:
                continue  # this round's allowance spent: the lead stays open
            if v == side:
                return v
            open_[j] = False
            left -= 1
    return not side


@njit(cache=True)
def makes(
    h, trump, leader, declarers_mask, misere, target, tt, moves, scores, hist, positions, stop
):
    """Whether the declarer side makes ``target`` from a trick boundary: 1 or 0, -1 given up.

    Normal contracts: the side takes at least ``target`` of the remaining tricks; misère: the
    declarer at most ``target``.  The table is used as it is (what it holds from searches of
    the same declarer side and kind of contract serves this one); ``hist`` and ``positions``
    as in :func:`solve_counted`, which empties the table first.
    """
    maxer, counted, wants = roles(declarers_mask, misere)
    if misere:
        # declarer holds himself to <= target  <=>  defence cannot force >= target + 1
        ok = not _can_make(
            h,
            trump,
            leader,
            maxer,
            counted,
            wants,
            False,
            target + 1,
            tt,
            moves,
            scores,
            hist,
            positions,
            stop,
        )
    else:
        ok = _can_make(
            h,
            trump,
            leader,
            maxer,
            counted,
            wants,
            True,
            target,
            tt,
            moves,
            scores,
            hist,
            positions,
            stop,
        )
    if positions[0] > positions[1]:
        return -1
    return 1 if ok else 0


@njit(cache=True)
def new_history():
    """Move-ordering memory of one solve (``hist``, see :mod:`._moves`).

    Rows 0-3 the history score of each seat's cards (cut-offs by a move other than the
    first, weighted by depth); rows 5 + ``need`` (``need`` 0..13) the killer lead (card + 1, 0
    for none) of each depth for the positions needing ``need`` more tricks, which the search
    copies to row 4 before it generates a lead (:mod:`._moves` reads row 4).
    """
    return np.zeros((19, 56), dtype=np.int64)


@njit(cache=True)
def budget(limit):
    """The counters ``[count, check, boundaries, limit]`` of a search of ``limit`` positions.

    ``check`` is where the search next looks at the limit and the stop flag
    (:func:`._search.search`).
    """
    positions = np.zeros(4, dtype=np.int64)
    positions[1] = min(limit, STOP_EVERY)
    positions[3] = limit
    return positions


@njit(cache=True)
def solve_position(hands, trump, leader, declarers_mask, misere, target, tt, moves, scores, limit):
    """Solve one position given as ``hands: int64[4]`` bitmasks.

    Returns the declarer side's trick count under perfect play when ``target < 0``;
    otherwise 1 or 0: normal contracts "side takes >= target", misère "declarer
    takes <= target".  Returns -1 if the search needed more than ``limit`` positions
    (in all, over the searches one answer takes).
    """
    return solve_counted(
        hands, trump, leader, declarers_mask, misere, target, tt, moves, scores, budget(limit), None
    )


@njit(cache=True)
def solve_counted(
    hands, trump, leader, declarers_mask, misere, target, tt, moves, scores, positions, stop
):
    """:func:`solve_position` with the counters ``positions`` (see :func:`budget`) given.

    Also -1 where ``stop`` (a flag array, or ``None``) cut the search short: the caller tells
    that apart by the flag.
    """
    # The table's fill counters say which ways hold this solve's entries: reset them, so
    # that the entries of the deals a worker solved before are never read, and the search,
    # its size and so a limit's outcome depend on this deal alone.
    tt[1][:, 0] = 0
    h = hands.copy()
    hist = new_history()
    if target >= 0:
        return makes(
            h,
            trump,
            leader,
            declarers_mask,
            misere,
            target,
            tt,
            moves,
            scores,
            hist,
            positions,
            stop,
        )
    maxer, counted, wants = roles(declarers_mask, misere)
    normal = not misere
    n = pop52(h[0])
    # exact count: largest t with "maxer can force counted >= t" (binary search)
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        ok = _can_make(
            h,
            trump,
            leader,
            maxer,
            counted,
            wants,
            normal,
            mid,
            tt,
            moves,
            scores,
            hist,
            positions,
            stop,
        )
        if positions[0] > positions[1]:
            return -1
        if ok:
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True)
def count_positions(
    hands,
    trump,
    leader,
    declarers_mask,
    misere,
    target,
    tt,
    moves,
    scores,
    npl,
    led,
    win_card,
    win_seat,
    trick_mask,
):
    """``(answer, positions, boundaries)`` of one yes/no question (``target >= 0``), no limit.

    The answer as :func:`solve_position` gives it, from a root that may lie inside a trick
    (``npl`` cards of it played: see the module's encodings); the positions (card plays) the
    search entered, and how many of them were trick boundaries, the root included if it is
    one.  A diagnostic for benchmarks and tools.
    """
    positions = budget(NO_LIMIT)
    tt[1][:, 0] = 0  # no entries of an earlier solve (see solve_counted)
    h = hands.copy()
    if npl == 0:  # a trick boundary: the search the solver makes (:func:`makes`)
        ok = (
            makes(
                h,
                trump,
                leader,
                declarers_mask,
                misere,
                target,
                tt,
                moves,
                scores,
                new_history(),
                positions,
                None,
            )
            == 1
        )
    else:
        maxer, counted, wants = roles(declarers_mask, misere)
        info, index = tt
        st = np.empty((56, 32), dtype=np.int64)
        ok = search(
            h,
            leader,
            target + 1 if misere else target,
            trump,
            maxer,
            counted,
            wants,
            not misere,
            info,
            index,
            moves,
            scores,
            st,
            new_history(),
            npl,
            led,
            win_card,
            win_seat,
            trick_mask,
            positions,
        )
        if misere:
            # declarer holds himself to <= target  <=>  defence cannot force >= target + 1
            ok = not ok
    return ok, positions[0], positions[2]


@njit(cache=True)
def solve_after_lead(hands, trump, leader, card, declarers_mask, misere, tt, moves, scores):
    """Declarer side's tricks (perfect play) after ``leader`` leads ``card`` to the first trick."""
    h = hands.copy()
    bit = 1 << card
    h[leader] ^= bit
    maxer, counted, wants = roles(declarers_mask, misere)
    normal = not misere
    hist = new_history()
    info, index = tt
    index[:, 0] = 0  # the table's fill counters: no entries of an earlier solve (see tt_probe)
    st = np.empty((56, 32), dtype=np.int64)
    n = pop52(hands[leader])
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if search(
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
            budget(NO_LIMIT),
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


def new_tables(workers: int, bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One transposition table and move workspace a worker, for :func:`solve_many`.

    Returns ``(infos, indexes, moves, scores)``, each with a leading axis of ``workers``.
    Allocated by numpy outside numba so that the zero pages are only touched where the
    search writes (a zero-filling loop over every table costs more than small batches).
    """
    if bits < 9:
        raise ValueError(f"a table of 2**{bits} entries is too small (at least 2**9)")
    size = 1 << bits
    return (
        np.zeros((workers, size, 3), dtype=np.int64),
        np.zeros((workers, size // TT_WAYS, TT_WAYS + 1), dtype=np.int64),
        np.zeros((workers, 56, 16), dtype=np.int64),
        np.zeros((workers, 56, 16), dtype=np.int64),
    )


@njit(cache=True, parallel=True, nogil=True)
def solve_many(
    masks,
    deal,
    trump,
    leader,
    declarers_mask,
    misere,
    target,
    infos,
    indexes,
    moves,
    scores,
    limit,
    stop,
):
    """Solve tasks in parallel: the answers and positions of each task.

    Task ``i`` is deal ``deal[i]`` of ``masks: int64[n, 4]`` with its own question
    (``trump[i]``, ``leader[i]``, ``declarers_mask[i]``, ``misere[i]``, ``target[i]``, as for
    :func:`solve_position`); returns the ``int8`` answers, -1 where over ``limit``, and the
    ``int64`` positions each task searched.  Once ``stop[0]`` is set the workers take no more
    tasks and cut their searches short: the tasks left unsolved answer :data:`STOPPED`.

    The workers are the iterations of a ``prange`` over the tables of :func:`new_tables`, one
    a worker (its own iteration index picks them, so no numba setting is read or changed):
    each takes the tasks one at a time, in order, from a shared counter (:func:`next_task`)
    until none is left.  A task starts by resetting its table's fill counters, so it never
    reads another's entries: its answer and positions depend on its own question alone, not
    on the worker or the number of workers.
    """
    n = deal.shape[0]
    out = np.full(n, STOPPED, dtype=np.int8)
    work = np.zeros(n, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    for w in prange(infos.shape[0]):
        while not stop_set(stop):
            i = next_task(counter)
            if i >= n:
                break
            positions = budget(limit)
            answer = solve_counted(
                masks[deal[i]],
                trump[i],
                leader[i],
                declarers_mask[i],
                misere[i],
                target[i],
                (infos[w], indexes[w]),
                moves[w],
                scores[w],
                positions,
                stop,
            )
            out[i] = STOPPED if answer < 0 and stop_set(stop) else answer
            work[i] = positions[0]
    return out, work


@njit(cache=True)
def popcount_rows(masks):
    """Number of distinct cards in each row of ``masks: int64[n, 4]`` (the union)."""
    n = masks.shape[0]
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = pop52(masks[i, 0] | masks[i, 1] | masks[i, 2] | masks[i, 3])
    return out
