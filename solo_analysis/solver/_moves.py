"""Move generation and ordering of the search.

:func:`gen_moves` fills one row of ``moves`` (card codes) and ``scores`` (int64, ``moves`` in
decreasing score order) with the legal cards of the seat to play, one card per run of
equivalent cards: cards of one hand with no live card of another hand, or of the current
trick, between them (the highest card of the run stands for it).  A score is a heuristic
weight times ``2**20`` plus the card's history score (``hist[seat, card]``, capped below
``2**20``); ``hist[4, depth]`` holds the killer lead of the position being generated (card
+ 1, 0 for none): the search copies it there from the killers it keeps for each depth and
number of tricks needed (:func:`._kernels.new_history`).
Encodings: see :mod:`._bits`.
"""

from __future__ import annotations

from numba import njit

from ..cards import NT, SUIT_MASK
from ._bits import hibit, lowbit, pop13, pop52, ruffers

# Leads are also ordered by the size of the subtree they open (the idea behind DDS's lead
# weights): each card the opponents can answer with costs this much (no trump, trumps).
_LEAD_SIZE_WEIGHT = 8
_LEAD_SIZE_WEIGHT_TRUMPS = 10
# A side-suit lead a team-mate can ruff (void, with trumps left; no opponent can ruff it)
# comes earlier in a trump contract by this much.
_MATE_RUFF_WEIGHT = 40
# Leads by who holds the suit's second and third cards (the idea behind DDS's lead weights;
# the values tuned on search sizes, see docs/solver.md), at no trump (_NT_*) and in a trump
# contract of two against two (_TR_*).  A lead the leader's side wins, of a suit whose second
# card the opponent after the leader holds (not bare; no trump only) ...
_NT_SECOND_AFTER = 10
# ... or the opponent before him, who plays last to the trick (not bare);
_NT_SECOND_BEFORE = -30
_TR_SECOND_BEFORE = -20
# another lead of a suit whose second and third cards the leader's side holds;
_NT_NEXT_TWO = 20
_TR_NEXT_TWO = 20
# another lead of a suit whose top card the opponent after the leader holds and the second
# his team-mate;
_TR_MATE_SECOND = 29
_NT_MATE_SECOND = 20
# the second card led from a hand that also holds the third, the top card elsewhere (no
# trump only);
_NT_SEQUENCE = 10
# a suit a team-mate is void in (no trump only: in trumps that is a ruff, _MATE_RUFF_WEIGHT).
_NT_MATE_VOID = -30
# a lead below the leader's own top card of a suit where a team-mate holds a card above every
# opponent's, less its rank (no trump only; against the top card's 60 less twice the length).
_NT_UNDER_OWN_TOP = 56
# A second hand's card below the card led where a team-mate after him (two against two, the
# hand playing last) holds one above it (in trump contracts; at no trump _follow_by_rank puts
# them first): against 45 for a card that beats the card led but not every opponent's after.
_SECOND_HAND_LOW = 50


# A score is a weight times 2**20 plus the history score, capped below 2**20.
_HIST_CAP = (1 << 20) - 1


# inlined into the move generation (numba IR inlining): no call at every lead
@njit(cache=True, inline="always")
def lead_weights(h, s, L, seat, side, mine, trumps):
    """Lead weights of suit ``s`` by who holds its top, second and third live cards.

    For the side that wants tricks, at no trump or (``trumps``) in a trump contract of two
    against two: returns ``(win, low, seq)``, the weight of a lead the leader's side wins
    (his top card, or a team-mate's above), that of another lead of the suit, and (no trump
    only) whether he holds the second and third cards, so that the second card, led, gains
    ``_NT_SEQUENCE``.  ``h`` are the hands (live cards), ``L`` the suit's live cards (not
    empty; bit = rank), ``side`` the seats (bit ``seat``) and ``mine`` the cards of the
    leader's side.
    """
    base = 13 * s
    r1 = hibit(L)
    x = L & ~(1 << r1)
    win = 0
    low = 0
    seq = False
    if x:
        b2 = base + hibit(x)
        x &= ~(1 << hibit(x))
        if (mine >> b2) & 1:
            # the second card is the leader's side's: the third too?
            b3 = base + hibit(x)
            if x and (mine >> b3) & 1:
                low += _TR_NEXT_TWO if trumps else _NT_NEXT_TWO
                both = (1 << b2) | (1 << b3)
                seq = not trumps and (h[seat] & both) == both
            if not (h[seat] >> b2) & 1 and ((h[(seat + 1) & 3] & ~mine) >> (base + r1)) & 1:
                low += _TR_MATE_SECOND if trumps else _NT_MATE_SECOND
        else:
            hl = h[(seat + 1) & 3]
            hr = h[(seat + 3) & 3]
            if not trumps and (hl >> b2) & 1:
                if pop13((hl >> base) & SUIT_MASK) != 1:
                    win += _NT_SECOND_AFTER
            elif (hr >> b2) & 1 and pop13((hr >> base) & SUIT_MASK) != 1:
                win += _TR_SECOND_BEFORE if trumps else _NT_SECOND_BEFORE
    if not trumps:
        for o in range(4):
            if o != seat and (side >> o) & 1 and ((h[o] >> base) & SUIT_MASK) == 0:
                win += _NT_MATE_VOID
                low += _NT_MATE_VOID
    return win, low, seq


@njit(cache=True, inline="always")
def _mate_over(hand, mine, live, s):
    """Whether a team-mate of the leader holds a card of suit ``s`` above every opponent's.

    Where the leader holds the suit's top card, a low lead to the team-mate then wins the
    trick too, and keeps the top card.  ``hand`` is the leader's cards, ``mine`` his side's
    and ``live`` every hand's (live cards).
    """
    base = 13 * s
    mate_s = ((mine & ~hand) >> base) & SUIT_MASK
    opp_s = ((live & ~mine) >> base) & SUIT_MASK
    return mate_s != 0 and (opp_s == 0 or hibit(mate_s) > hibit(opp_s))


@njit(cache=True, inline="always")
def _emit(moves, depth, nm, base, x, ascending):
    """Append the cards of rank mask ``x`` to ``moves[depth]`` from ``nm`` on; the new count.

    ``base`` is the suit's first card code; lowest first if ``ascending``, else highest first.
    """
    while x:
        if ascending:
            r = lowbit(x)
        else:
            r = hibit(x)
        x ^= 1 << r
        moves[depth, nm] = base + r
        nm += 1
    return nm


@njit(cache=True, inline="always")
def _is_run_head(m, L, b):
    """Whether the card ``b`` (a one-bit rank mask) of ``m`` heads a run of equivalent cards.

    It does unless the next live card above it (``L``: the suit's live cards, the current
    trick's included) is the mover's (``m``) too.
    """
    above = L & ~((b << 1) - 1)
    return (above & -above & m) == 0


@njit(cache=True, inline="always")
def _run_heads(m, L):
    """The highest card of each run of equivalent cards of ``m`` (rank masks of one suit).

    ``L`` holds the suit's live cards, the current trick's included (see :func:`_is_run_head`).
    """
    heads = 0
    x = m
    while x:
        r = lowbit(x)
        b = 1 << r
        x ^= b
        if _is_run_head(m, L, b):
            heads |= b
    return heads


@njit(cache=True, inline="always")
def _after(h, seat, npl, led, trump, maxer):
    """The hands still to play to this trick after ``seat`` (``npl`` cards played).

    Returns ``(opp_after, mate_after, opp_hi, mate_hi, opp_thi)``: whether an opponent, and
    a team-mate, plays after him; the led suit's highest card among those opponents and
    among those team-mates; and the highest trump of such an opponent who is void in the
    led suit (he can ruff; always -1 at no trump); -1 where none (and all three at a lead).
    """
    opp_after = False
    mate_after = False
    opp_hi = -1
    mate_hi = -1
    opp_thi = -1
    for j in range(npl + 1, 4):
        o = (seat + j - npl) & 3
        opp = maxer[o] != maxer[seat]
        if opp:
            opp_after = True
        else:
            mate_after = True
        if npl == 0:
            continue
        ho = (h[o] >> (13 * led)) & SUIT_MASK
        if ho:
            c = 13 * led + hibit(ho)
            # (comparisons, not max(): numba compiles a call to max, and this is the
            # follows' inner loop)
            if opp:
                if c > opp_hi:
                    opp_hi = c
            elif c > mate_hi:
                mate_hi = c
        elif trump < NT and opp:
            ht = (h[o] >> (13 * trump)) & SUIT_MASK
            if ht:
                t_hi = 13 * trump + hibit(ht)
                if t_hi > opp_thi:
                    opp_thi = t_hi
    return opp_after, mate_after, opp_hi, mate_hi, opp_thi


@njit(cache=True, inline="always")
def _follow_by_rank(h, seat, npl, led, m, L, win_card, win_seat, trump, maxer, moves, depth, hist):
    """The follows of :func:`gen_moves`, found without scores.

    For a seat that wants tricks following suit at no trump, or in a trump contract with no
    opponent after him in the trick, the weights of :func:`gen_moves` order the runs by rank
    but for one group, so the order is found from the ranks.  Where a team-mate wins the
    trick (his card wins so far and no opponent after holds a higher card of the suit, or
    he plays after and holds one above the winning card and every opponent's after), the
    runs lowest first.  Otherwise the runs above the winning card and every opponent's
    after (winning for sure), lowest first; then, at no trump, for the second hand whose
    team-mate after him (two against two, the hand playing last) holds a card above the one
    led (second hand low): the runs below
    the card led, then those above it, each lowest first; otherwise those that beat the
    winning card only: with a team-mate after (leaving the trick to him) weighted alike, so
    in the order of their history scores (``hist[seat]``), highest first where those tie;
    with none, highest first; then the rest, lowest first.  ``m`` is the mover's cards of
    the suit led and ``L`` its live cards (the trick's included), as rank masks; returns
    the number of moves.
    """
    heads = _run_heads(m, L)
    base = 13 * led
    if win_card // 13 != led:
        return _emit(moves, depth, 0, base, heads, True)  # ruffed: nothing beats it
    # (no opponent after him holds a trump and is void here: at no trump, or none after)
    _, mate_after, opp_hi, mate_hi, _ = _after(h, seat, npl, led, trump, maxer)
    if (maxer[win_seat] == maxer[seat] and win_card > opp_hi) or (
        mate_hi > opp_hi and mate_hi > win_card
    ):
        return _emit(moves, depth, 0, base, heads, True)  # a team-mate wins it
    wr = win_card - base
    top = wr if win_card > opp_hi else opp_hi - base
    lower = (1 << (wr + 1)) - 1  # ranks up to the winning card's
    sure = heads & ~((1 << (top + 1)) - 1)
    nm = _emit(moves, depth, 0, base, sure, True)
    x = heads & ~lower & ~sure
    if npl == 1 and mate_hi > win_card and trump == NT:
        # Second hand low: a team-mate after him can beat the card led, an opponent after
        # him holds more: the runs below the card led, then those above it, each
        # lowest first
        nm = _emit(moves, depth, nm, base, heads & lower, True)
        return _emit(moves, depth, nm, base, x, True)
    if mate_after:
        # leaving the trick to a team-mate weighs alike: the history scores order these
        # (capped as in gen_moves; highest first where they tie)
        first = nm
        while x:
            r = hibit(x)
            x ^= 1 << r
            c = base + r
            hv = hist[seat, c]
            if hv > _HIST_CAP:
                hv = _HIST_CAP
            j = nm
            while j > first:
                hp = hist[seat, moves[depth, j - 1]]
                if hp >= hv:  # (hv is capped: a capped hp compares the same)
                    break
                moves[depth, j] = moves[depth, j - 1]
                j -= 1
            moves[depth, j] = c
            nm += 1
    else:
        nm = _emit(moves, depth, nm, base, x, False)
    return _emit(moves, depth, nm, base, heads & lower, True)


@njit(cache=True, inline="always")
def run_head(h, seat, c):
    """Whether card ``c`` of ``seat``'s hand heads a run of equivalent cards at a lead.

    Such a card is a move :func:`gen_moves` generates (see :func:`_run_heads`).
    """
    if not (h[seat] >> c) & 1:
        return False
    base = 13 * (c // 13)
    L = ((h[0] | h[1] | h[2] | h[3]) >> base) & SUIT_MASK
    m = (h[seat] >> base) & SUIT_MASK
    return _is_run_head(m, L, 1 << (c - base))


# inlined into the search (numba IR inlining): no call or reference counting of the arrays
# it takes at every position
@njit(cache=True, inline="always")
def gen_moves(
    h, seat, npl, led, win_card, win_seat, tmask, trump, maxer, wants, moves, scores, depth, hist
):
    """Fill ``moves[depth]`` with one card per equivalence run, best first; return count."""
    hand = h[seat]
    live = h[0] | h[1] | h[2] | h[3] | tmask
    if npl > 0:
        follow = hand & (SUIT_MASK << (13 * led))
        if follow != 0:
            # A single run of equivalent cards (no other hand's live card between the
            # highest and the lowest): the one move, no scores needed.
            m = (follow >> (13 * led)) & SUIT_MASK
            hi = hibit(m)
            span = ((2 << hi) - 1) & ~((1 << lowbit(m)) - 1)
            L = (live >> (13 * led)) & SUIT_MASK
            if (L & span) == m:
                moves[depth, 0] = 13 * led + hi
                return 1
            # (in trumps only with no opponent after him)
            own = maxer[seat]  # the mover's side
            if wants[seat] and (
                trump == NT
                or npl == 3
                or (maxer[(seat + 1) & 3] == own and (npl == 2 or maxer[(seat + 2) & 3] == own))
            ):
                return _follow_by_rank(
                    h, seat, npl, led, m, L, win_card, win_seat, trump, maxer, moves, depth, hist
                )
        legal = follow if follow != 0 else hand
    else:
        legal = hand
    nm = 0
    wsuit = win_card // 13 if npl > 0 else -1
    partner_winning = npl > 0 and maxer[win_seat] == maxer[seat]
    want = wants[seat]
    n_opp = 0  # seats on the other side (leads only): 1 for a defender against a lone declarer
    side = 0  # the seats of the mover's side, bit seat (leads only)
    mine = 0  # the cards of the mover's side (leads only)
    if npl == 0:
        for o in range(4):
            if maxer[o] != maxer[seat]:
                n_opp += 1
            else:
                side |= 1 << o
                mine |= h[o]
    # the hands still to play to this trick (see _after)
    opp_after, _, opp_hi, mate_hi, opp_thi = _after(h, seat, npl, led, trump, maxer)
    # A team-mate's card winning so far counts as winning (for the side that wants tricks)
    # only if no opponent still to play can beat it (a third hand then tries to win the trick
    # himself).
    mate_wins = partner_winning
    if partner_winning:
        if wsuit == led:
            mate_wins = win_card > opp_hi and opp_thi < 0
        else:
            mate_wins = win_card > opp_thi  # a team-mate's ruff: can it be over-ruffed?
    # A team-mate still to play surely wins the trick (the led suit's top card among the hands
    # still to play, above the card winning so far, no opponent left who can ruff): the mover
    # plays as under a team-mate's winning card, low (a void follower holding trumps scores
    # his ruffs like his discards).
    if npl > 0 and wsuit == led and mate_hi > opp_hi and mate_hi > win_card and opp_thi < 0:
        mate_wins = True
    for s in range(4):
        m = (legal >> (13 * s)) & SUIT_MASK
        if m == 0:
            continue
        L = (live >> (13 * s)) & SUIT_MASK
        slen = pop13((hand >> (13 * s)) & SUIT_MASK)
        if npl == 0:
            # who holds the suit's top live card: a team-mate, or an opponent (and whether
            # that opponent plays last to the trick)
            mate_top = False
            mate_pos = 0
            mate_len = 0
            opp_top = False
            rho_top = False
            if L:
                tb = 13 * s + hibit(L)
                for o in range(4):
                    if o != seat and (h[o] >> tb) & 1:
                        if maxer[o] == maxer[seat]:
                            mate_top = True
                            mate_pos = (o - seat) & 3
                            mate_len = pop13((h[o] >> (13 * s)) & SUIT_MASK)
                        else:
                            opp_top = True
                            rho_top = o == ((seat + 3) & 3)
            # whether an opponent, or a team-mate, can ruff the suit
            ruff_risk = False
            mate_ruff = False
            rf = ruffers(h, s, trump)
            for o in range(4):
                if (rf >> o) & 1:
                    if maxer[o] != maxer[seat]:
                        ruff_risk = True
                    elif o != seat:
                        mate_ruff = True
            # cards the opponents can answer this lead with (a void opponent may
            # discard anything): the fewer, the smaller the subtree
            opp_cards = 0
            for o in range(4):
                if maxer[o] != maxer[seat]:
                    lo = pop13((h[o] >> (13 * s)) & SUIT_MASK)
                    opp_cards += lo if lo > 0 else pop52(hand)
            # at no trump, and in trumps two against two: the weights of the suit's leads by
            # who holds its top cards
            lead_win = 0
            lead_low = 0
            seq = False
            if want and (trump == NT or n_opp == 2):
                lead_win, lead_low, seq = lead_weights(h, s, L, seat, side, mine, trump < NT)
        # the mover's runs, high to low
        others = L & ~m
        x = _run_heads(m, L)
        while x:
            r = hibit(x)
            b = 1 << r
            x ^= b
            above = L & ~((b << 1) - 1)
            top = (others & above) == 0  # above every card of other hands in this suit
            c = 13 * s + r
            # ---- heuristic score (higher is tried first) ----
            if npl == 0:
                # Weights tuned on search sizes by coordinate descent (docs/solver.md): on
                # bridge deals and the advice's questions; some no-trump weights are older.
                if want:
                    if top:
                        sc = 60 - 2 * slen  # cash a winner, from a short suit first
                    elif mate_top:
                        # cross to a team-mate's winner: high (unblocking) from the
                        # shorter hand, but low to a bare top card (a high card would
                        # fall under it); two against two, low from a hand at least as
                        # long as the team-mate's (the short hand unblocks, the long one
                        # keeps its high cards), and in trumps low to a partner across
                        # the table (an opponent plays between and after)
                        low = mate_len == 1
                        if n_opp == 2:
                            low = low or slen >= mate_len or (mate_pos == 2 and trump < NT)
                        if low:
                            sc = 50 - r
                        else:
                            sc = 50 + r
                    elif trump == NT and not opp_top and _mate_over(hand, mine, live, s):
                        # the leader holds the top card (nobody else does): low to the
                        # team-mate's winner, the top card kept (DDS's no-trump weights
                        # count both as leads the side wins)
                        sc = _NT_UNDER_OWN_TOP - r
                    else:
                        sc = 20 if trump == NT else -10  # no preference of length or rank
                    if ruff_risk:
                        sc -= 30
                    elif mate_ruff:
                        sc += _MATE_RUFF_WEIGHT  # a team-mate's ruff
                    if s == trump:
                        # a lone declarer draws trumps; everyone else leads trumps late
                        sc += 30 if n_opp == 3 else -15
                    if opp_top:
                        sc += 15  # knock out an opponent's winner
                    if top or mate_top:
                        sc += lead_win
                    else:
                        sc += lead_low
                        if seq and pop13(above) == 1:
                            sc += _NT_SEQUENCE  # the second card, the third behind it
                    if trump < NT:
                        if rho_top:
                            sc -= 10  # less into the top card of the hand that plays last
                    elif rho_top:
                        # even less into the top card of the hand that plays last (who
                        # wins cheaply), the less the higher the card led
                        sc -= 15 + r
                elif maxer[seat]:
                    sc = 40  # misère defence (see the follow weights)
                else:
                    sc = 40 - r
                sc -= (_LEAD_SIZE_WEIGHT if trump == NT else _LEAD_SIZE_WEIGHT_TRUMPS) * opp_cards
                if hist[4, depth] == c + 1:
                    # the killer lead: the last lead that cut off at this depth; first at
                    # no trump, only a bonus in trumps (as the first move it costs more there).
                    # At no trump the search tries it before generating the leads and keeps
                    # it first when it generates them (_search.search, ST_NM -2).
                    sc += 1000 if trump == NT else 30
            else:
                if s == wsuit:
                    beats = c > win_card
                else:
                    beats = s == trump
                if want:
                    # Tuned like the leads (in trump contracts on the advice's Prop and Cop
                    # questions too).  In trump contracts: no preference among the ranks that
                    # win or leave it to a team-mate, ruff low, and a top card an opponent
                    # may ruff after leaving it to a team-mate.  At no trump (discards only:
                    # its follows are _follow_by_rank's): from long suits first.
                    if mate_wins:
                        sc = 30 - r
                    elif beats:
                        if not opp_after:
                            sc = 75 - r  # last of its side: win cheaply
                        elif (s == led and c > opp_hi and opp_thi < 0) or (
                            s != led and c > opp_thi
                        ):
                            sc = 70 - r  # wins whatever the opponents play: cheaply
                        elif top and s != trump:
                            sc = 28  # the suit's top card, but an opponent may ruff it
                        else:
                            sc = 45  # leave it to a team-mate, or win
                        if s == trump and led != trump:
                            sc -= r  # a ruff (or over-ruff): as low as wins
                    elif npl == 1 and s == led and mate_hi > win_card:
                        # second hand low, a team-mate after him able to beat the card
                        # led (as at no trump, _follow_by_rank)
                        sc = _SECOND_HAND_LOW - r
                    else:
                        sc = 20 - r
                    if trump == NT and s != led:
                        sc += 4 * slen  # a discard
                    elif s != led and s != trump:
                        # a discard in a trump contract: from long suits, less strongly
                        sc += 3 * slen
                elif maxer[seat]:
                    # Misère defence (the side that wants the declarer to win a trick):
                    # once the declarer has ducked under a team-mate's card, shed the
                    # highest card; no rank preference for its leads or for overtaking the
                    # declarer; discards from long suits.
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
            if hv > _HIST_CAP:
                hv = _HIST_CAP
            sc = sc * (_HIST_CAP + 1) + hv
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
