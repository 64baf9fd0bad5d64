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
from ._bits import HIBIT, LOWBIT, POP13, pop52, ruffers

# Leads are also ordered by the size of the subtree they open (the idea behind DDS's lead
# weights): each card the opponents can answer with costs this much (no trump, trumps).
_LEAD_SIZE_WEIGHT = 8
_LEAD_SIZE_WEIGHT_TRUMPS = 10
# A side-suit lead a team-mate can ruff (void, with trumps left; no opponent can ruff it)
# comes earlier in a trump contract by this much.
_MATE_RUFF_WEIGHT = 40
# No-trump leads, by who holds the suit's second and third cards (the idea behind DDS's
# no-trump lead weights; the values tuned on search sizes, see docs/solver.md):
# a suit the leader's side wins, whose second card the opponent after the leader holds
# (not bare) ...
_NT_SECOND_AFTER = 10
# ... or the opponent before him, who plays last to the trick (not bare);
_NT_SECOND_BEFORE = -30
# another lead of a suit whose second and third cards the leader's side holds;
_NT_NEXT_TWO = 20
# the second card led from a hand that also holds the third (the top card elsewhere);
_NT_SEQUENCE = 10
# a suit a team-mate is void in.
_NT_MATE_VOID = -30


@njit(cache=True, inline="always")
def _owner(h0, h1, h2, c):
    """The seat holding card ``c``, of the hands ``h0``-``h3`` (one of them holds it)."""
    if (h0 >> c) & 1:
        return 0
    if (h1 >> c) & 1:
        return 1
    if (h2 >> c) & 1:
        return 2
    return 3


@njit(cache=True)
def nt_leads(h0, h1, h2, h3, s, seat, side):
    """No-trump lead weights of suit ``s`` by who holds its second and third cards.

    For the side that wants tricks, packed: bits 0-9 the weight (+ 512) of a lead the
    leader's side wins (his top card, or a team-mate's above), bits 10-19 that of another
    lead of the suit, and from bit 20 the rank + 1 of the second card if he holds it and
    the third (0 if not).

    ``h0``-``h3`` are the hands, ``side`` the seats (bit ``seat``) of the leader's side.  It
    is called, not inlined, and takes scalars only (no arrays to pass or count references
    of), so that the move generation of trump contracts, which never calls it, keeps its
    size: inlined, it made their searches 1.5 % slower.
    """
    base = 13 * s
    live_s = ((h0 | h1 | h2 | h3) >> base) & SUIT_MASK
    x = live_s & ~(1 << HIBIT[live_s])
    r2 = -1
    o2 = -1
    o3 = -1
    if x:
        r2 = HIBIT[x]
        o2 = _owner(h0, h1, h2, base + r2)
        x &= ~(1 << r2)
        if x:
            o3 = _owner(h0, h1, h2, base + HIBIT[x])
    lho = (seat + 1) & 3
    rho = (seat + 3) & 3
    lens = (
        (h0 >> base) & SUIT_MASK,
        (h1 >> base) & SUIT_MASK,
        (h2 >> base) & SUIT_MASK,
        (h3 >> base) & SUIT_MASK,
    )
    nt_win = 512
    nt_low = 512
    if o2 == lho and not (side >> lho) & 1:
        if POP13[lens[lho]] != 1:
            nt_win += _NT_SECOND_AFTER
    elif o2 == rho and not (side >> rho) & 1:
        if POP13[lens[rho]] != 1:
            nt_win += _NT_SECOND_BEFORE
    if o3 >= 0 and (side >> o2) & 1 and (side >> o3) & 1:
        nt_low += _NT_NEXT_TWO
    for o in range(4):
        if o != seat and (side >> o) & 1 and lens[o] == 0:
            nt_win += _NT_MATE_VOID
            nt_low += _NT_MATE_VOID
    nt = nt_win | (nt_low << 10)
    if o3 == seat:
        nt |= (r2 + 1) << 20
    return nt


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
            hi = HIBIT[m]
            span = ((2 << hi) - 1) & ~((1 << LOWBIT[m]) - 1)
            if (((live >> (13 * led)) & SUIT_MASK) & span) == m:
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
    side = 0  # the seats of the mover's side, bit seat (leads only)
    if npl == 0:
        for o in range(4):
            if maxer[o] != maxer[seat]:
                n_opp += 1
            else:
                side |= 1 << o
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
            ho = (h[o] >> (13 * led)) & SUIT_MASK
            if ho:
                c = 13 * led + HIBIT[ho]
                if maxer[o] != maxer[seat]:
                    opp_hi = max(opp_hi, c)
                else:
                    mate_hi = max(mate_hi, c)
            elif trump < NT and maxer[o] != maxer[seat]:
                ht = (h[o] >> (13 * trump)) & SUIT_MASK
                if ht:
                    opp_thi = max(opp_thi, 13 * trump + HIBIT[ht])
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
        slen = POP13[(hand >> (13 * s)) & SUIT_MASK]
        if npl == 0:
            # who holds the suit's top live card: a team-mate, or an opponent (and whether
            # that opponent plays last to the trick)
            mate_top = False
            mate_pos = 0
            mate_len = 0
            opp_top = False
            rho_top = False
            if L:
                tb = 13 * s + HIBIT[L]
                for o in range(4):
                    if o != seat and (h[o] >> tb) & 1:
                        if maxer[o] == maxer[seat]:
                            mate_top = True
                            mate_pos = (o - seat) & 3
                            mate_len = POP13[(h[o] >> (13 * s)) & SUIT_MASK]
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
                    lo = POP13[(h[o] >> (13 * s)) & SUIT_MASK]
                    opp_cards += lo if lo > 0 else pop52(hand)
            # at no trump: the weights of the suit's leads (see nt_leads)
            nt = nt_leads(h[0], h[1], h[2], h[3], s, seat, side) if trump == NT and want else 0
        # Walk the mover's cards only, high to low (not all 13 ranks): a card heads a run
        # unless the next live card above it is his.
        others = L & ~m
        x = m
        while x:
            r = HIBIT[x]
            b = 1 << r
            x ^= b
            above = L & ~((b << 1) - 1)
            if above & -above & m:
                continue  # the live card just above is the mover's: same run
            top = (others & above) == 0  # above every card of other hands in this suit
            c = 13 * s + r
            # ---- heuristic score (higher is tried first) ----
            if npl == 0:
                # Weights tuned on search sizes (in trump contracts by coordinate descent;
                # the no-trump weights are older, the same tuning did not carry over there).
                if want:
                    if top:
                        sc = 60 + slen  # cash a winner
                    elif mate_top:
                        # cross to a team-mate's winner: high (unblocking), but low to
                        # a partner across the table in a two-against-two trump contract
                        # (an opponent plays between and after), and low to a bare top
                        # card (a high card would fall under it)
                        if (mate_pos == 2 and n_opp == 2 and trump < NT) or mate_len == 1:
                            sc = 50 - r
                        else:
                            sc = 50 + r
                    else:
                        sc = (20 if trump == NT else -10) + slen + r
                    if ruff_risk:
                        sc -= 30
                    elif mate_ruff:
                        sc += _MATE_RUFF_WEIGHT  # a team-mate's ruff
                    if s == trump:
                        # a lone declarer draws trumps; everyone else leads trumps late
                        sc += 30 if n_opp == 3 else -15
                    if opp_top:
                        sc += 15  # knock out an opponent's winner
                    if trump < NT:
                        if rho_top:
                            sc -= 10  # less into the top card of the hand that plays last
                    else:
                        if top or mate_top:
                            sc += (nt & 1023) - 512
                        else:
                            sc += ((nt >> 10) & 1023) - 512
                            if r + 1 == nt >> 20:
                                sc += _NT_SEQUENCE  # the second card, the third behind it
                            if rho_top:
                                # even less into the top card of the hand that plays last
                                # (who wins cheaply), the less the higher the card led
                                sc -= 15 + r
                elif maxer[seat]:
                    sc = 40  # misère defence (see the follow weights)
                else:
                    sc = 40 - r
                sc -= (_LEAD_SIZE_WEIGHT if trump == NT else _LEAD_SIZE_WEIGHT_TRUMPS) * opp_cards
                if hist[4, depth] == c + 1:
                    # the killer lead: the last lead that cut off at this depth; first at
                    # no trump, only a bonus in trumps (as the first move it costs more there)
                    sc += 1000 if trump == NT else 20
            else:
                if s == wsuit:
                    beats = c > win_card
                else:
                    beats = s == trump
                if want:
                    # Tuned like the leads.  In trump contracts: no preference among the
                    # ranks that win or leave it to a team-mate, and ruff low.  At no trump:
                    # no preference among the ranks left to a team-mate, and discards from
                    # long suits first.
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
                            sc = 35 if trump == NT else 30  # leave it to a team-mate
                        elif trump == NT:
                            sc = 45 + r  # win as high as possible
                        else:
                            sc = 45
                        if s == trump and led != trump:
                            sc -= r  # a ruff (or over-ruff): as low as wins
                    else:
                        sc = 20 - r
                    if trump == NT and s != led:
                        sc += 4 * slen  # a discard
                    elif s != led and s != trump:
                        # a discard in a trump contract: from long suits, less strongly
                        sc += 2 * slen
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
