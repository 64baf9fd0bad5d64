"""A slow, obviously correct double-dummy oracle for Solo Whist endings.

Plain Python, no numba, no pruning: full minimax over every legal card, memoised on the
position at the start of each trick (the memos of the last few endings are kept, so that
asking one ending with each leader costs little more than asking it once).  Only for small
endings (up to about 5 cards per hand); the fast solver is tested against it.

Encoding (the same as the package's):
    card code = suit * 13 + rank_index; suits 0..3 = S, H, D, C; rank_index 0..12 = 2..A
    seats 0..3 = N, E, S, W clockwise; trump 0..3 = S, H, D, C, 4 = no trump
"""

from __future__ import annotations

from collections import OrderedDict

NO_TRUMP = 4

#: the memos of the last few endings (per trump, side and kind of contract): a trick-start
#: position's value does not depend on who led to the ending, so the questions of one
#: ending with other leaders (asked one after another) reuse it
_MEMOS: OrderedDict[tuple, dict] = OrderedDict()
_MEMOS_KEPT = 4


def suit_of(card: int) -> int:
    return card // 13


def trick_winner(cards: list[int], leader: int, trump: int) -> int:
    """Seat that wins a complete trick; ``cards[i]`` was played by seat ``(leader + i) % 4``."""
    led = suit_of(cards[0])
    best = 0
    for i in range(1, 4):
        c, b = cards[i], cards[best]
        c_trump = suit_of(c) == trump
        b_trump = suit_of(b) == trump
        if c_trump and not b_trump:
            best = i
        elif c_trump == b_trump and suit_of(c) == suit_of(b) and c > b:
            best = i
        # a card of another non-trump suit than the led (or winning) suit never wins
    # the winning card is a trump or a card of the suit led
    assert suit_of(cards[best]) in (trump, led)
    return (leader + best) % 4


def legal_cards(hand: frozenset[int], led_suit: int | None) -> list[int]:
    """Follow suit if able, otherwise any card."""
    if led_suit is not None:
        follow = [c for c in hand if suit_of(c) == led_suit]
        if follow:
            return sorted(follow)
    return sorted(hand)


def naive_tricks(
    hands: list[list[int]],
    trump: int,
    leader: int,
    declarers: tuple[int, ...],
    misere: bool,
    trick: tuple[int, ...] = (),
) -> int:
    """Declarer side's tricks under perfect play, all cards visible.

    Normal: the declarer side maximises its tricks, the other side minimises them.
    Misère: the single declarer minimises his own tricks, the other three maximise them.
    ``trick``: cards already played to the current trick, in turn from ``leader`` (not in
    ``hands``; the trick counts among the tricks to come).
    """
    if len(hands) != 4 or len(trick) > 3:
        raise ValueError("need four hands and at most three cards of the current trick")
    played = {(leader + i) % 4 for i in range(len(trick))}  # seats that played to the trick
    if len({len(h) + (seat in played) for seat, h in enumerate(hands)}) != 1:
        raise ValueError("need four hands of equal size")
    all_cards = [c for h in hands for c in h] + list(trick)
    if len(set(all_cards)) != len(all_cards):
        raise ValueError("duplicate card")
    if misere and len(declarers) != 1:
        raise ValueError("misere needs exactly one declarer")
    side = frozenset(declarers)
    # seats that want the declarer side's trick count to be high
    maximiser = [(seat in side) != misere for seat in range(4)]

    key = (frozenset(all_cards), trump, side, misere)
    memo = _MEMOS.pop(key, None)
    if memo is None:
        memo = {}
        if len(_MEMOS) >= _MEMOS_KEPT:
            _MEMOS.popitem(last=False)
    _MEMOS[key] = memo

    def value(state: tuple[frozenset[int], ...], lead: int) -> int:
        """Declarer-side tricks still to come from the start of a trick."""
        got = memo.get((state, lead))
        if got is None:
            got = play(state, lead, ()) if state[0] else 0
            memo[(state, lead)] = got
        return got

    def play(state: tuple[frozenset[int], ...], lead: int, trick: tuple[int, ...]) -> int:
        if len(trick) == 4:
            winner = trick_winner(list(trick), lead, trump)
            return (winner in side) + value(state, winner)
        seat = (lead + len(trick)) % 4
        led_suit = suit_of(trick[0]) if trick else None
        results = []
        for card in legal_cards(state[seat], led_suit):
            rest = list(state)
            rest[seat] = state[seat] - {card}
            results.append(play(tuple(rest), lead, (*trick, card)))
        return max(results) if maximiser[seat] else min(results)

    state = tuple(frozenset(h) for h in hands)
    return play(state, leader, tuple(trick)) if trick else value(state, leader)
