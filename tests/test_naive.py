"""Self-tests of the plain-Python oracle in ``tests/naive.py`` on hand-made endings."""

from __future__ import annotations

import numpy as np
import pytest
from naive import naive_tricks, trick_winner

S, H, D, C, NT = 0, 1, 2, 3, 4
N, E, SOUTH, W = 0, 1, 2, 3
RANKS = "23456789TJQKA"


def card(text: str) -> int:
    """'SA' -> spade ace code."""
    return "SHDC".index(text[0]) * 13 + RANKS.index(text[1])


def hands(*seats: str) -> list[list[int]]:
    """hands('SA SK', 'H2 D2', ...) for N, E, S, W."""
    return [[card(t) for t in seat.split()] for seat in seats]


def test_trick_winner():
    # led suit wins without trumps
    assert trick_winner([card("H2"), card("SA"), card("H3"), card("H4")], N, NT) == W
    # a single low trump beats the led ace
    assert trick_winner([card("HA"), card("S2"), card("HK"), card("HQ")], N, S) == E
    # highest trump of two
    assert trick_winner([card("HA"), card("S2"), card("S3"), card("HQ")], E, S) == W
    # off-suit high card never wins
    assert trick_winner([card("D2"), card("CA"), card("HA"), card("SA")], W, NT) == W


@pytest.mark.parametrize(
    "trump, leader, declarers, misere, expected",
    [
        (NT, N, (N,), False, 1),  # N's ace of spades wins
        (NT, N, (E,), False, 0),
        (NT, N, (N,), True, 1),  # forced: N must win with the only spade ace
        (H, N, (N,), False, 1),
    ],
)
def test_one_card_all_spades(trump, leader, declarers, misere, expected):
    h = hands("SA", "S2", "S3", "S4")
    assert naive_tricks(h, trump, leader, declarers, misere) == expected


def test_one_card_ruff_and_discard():
    h = hands("HA", "S2", "H3", "H4")
    # spade trumps: East ruffs the heart ace
    assert naive_tricks(h, S, N, (N,), False) == 0
    assert naive_tricks(h, S, N, (E,), False) == 1
    # no trump: the spade 2 is a discard, the ace wins
    assert naive_tricks(h, NT, N, (N,), False) == 1
    # club trumps: nobody holds a club
    assert naive_tricks(h, C, W, (N, SOUTH), False) == 1


def test_two_cards_lead_matters_in_no_trump():
    h = hands("SA SK", "S2 H2", "S3 H3", "S4 H4")
    assert naive_tricks(h, NT, N, (N,), False) == 2  # cash both spades
    assert naive_tricks(h, NT, E, (N,), False) == 1  # heart lead: N discards, W wins, W leads S4
    assert naive_tricks(h, NT, SOUTH, (N,), False) == 1  # a defender leads a heart
    assert naive_tricks(h, NT, SOUTH, (N, SOUTH), False) == 2  # partner leads a spade
    assert naive_tricks(h, NT, SOUTH, (E, W), False) == 0


def test_two_cards_ruff():
    h = hands("SA SK", "H2 D2", "S3 S4", "S5 S6")
    assert naive_tricks(h, H, N, (N,), False) == 0  # E ruffs, cashes D2, N discards
    assert naive_tricks(h, H, N, (E,), False) == 2
    assert naive_tricks(h, NT, N, (N,), False) == 2


def test_two_cards_misere_escape():
    h = hands("SA H2", "H3 D3", "H4 D4", "H5 D5")
    # N leads H2, W wins, W leads a diamond and N throws the ace
    assert naive_tricks(h, NT, N, (N,), True) == 0
    assert naive_tricks(h, NT, W, (N,), True) == 0
    # heart trumps: same escape; defenders would not ruff the ace anyway
    assert naive_tricks(h, H, N, (N,), True) == 0
    # normal play: N cashes the ace
    assert naive_tricks(h, NT, N, (N,), False) == 1


def test_misere_forced_win():
    # E leads S2: N must win with a spade, then must lead his last spade, which wins too
    h = hands("SA SK", "H2 S2", "H3 D3", "H4 D4")
    assert naive_tricks(h, NT, E, (N,), True) == 2
    # if N is on lead he still holds only winners
    assert naive_tricks(h, NT, N, (N,), True) == 2


def test_zero_sum_and_bounds():
    """Normal play: a side's tricks plus the other side's tricks = cards per hand."""
    rng = np.random.default_rng(7)
    for k in (1, 2, 3):
        for _ in range(10):
            cards = rng.choice(52, size=4 * k, replace=False).reshape(4, k)
            h = [list(map(int, row)) for row in cards]
            trump = int(rng.integers(5))
            leader = int(rng.integers(4))
            for side, other in (((N,), (E, SOUTH, W)), ((N, SOUTH), (E, W)), ((N, E), (SOUTH, W))):
                a = naive_tricks(h, trump, leader, side, False)
                b = naive_tricks(h, trump, leader, other, False)
                assert 0 <= a <= k
                assert a + b == k
            assert 0 <= naive_tricks(h, trump, leader, (W,), True) <= k


def test_rejects_bad_input():
    with pytest.raises(ValueError):
        naive_tricks(hands("SA", "S2", "S3", "S4 S5"), NT, N, (N,), False)
    with pytest.raises(ValueError):
        naive_tricks(hands("SA", "SA", "S3", "S4"), NT, N, (N,), False)
    with pytest.raises(ValueError):
        naive_tricks(hands("SA", "S2", "S3", "S4"), NT, N, (N, SOUTH), True)


def test_inside_a_trick():
    h = hands("SA SK", "S2 H2", "S3 H3", "S4 H4")
    # North has led the spade ace: the others follow, North keeps the lead and cashes the king
    rest = hands("SK", "S2 H2", "S3 H3", "S4 H4")
    assert naive_tricks(rest, NT, N, (N,), False, (card("SA"),)) == 2
    # East has followed with the spade 2: East wins nothing, North both tricks
    rest = hands("SK", "H2", "S3 H3", "S4 H4")
    assert naive_tricks(rest, NT, N, (E,), False, (card("SA"), card("S2"))) == 0
    assert naive_tricks(rest, NT, N, (N,), False, (card("SA"), card("S2"))) == 2
    # a whole lead: the best first card gives the value of the position
    for trump in (NT, H):
        for side, misere in (((N,), False), ((N, SOUTH), False), ((N,), True)):
            leads = []
            for c in h[N]:
                rest = [[x for x in hand if x != c] for hand in h]
                leads.append(naive_tricks(rest, trump, N, side, misere, (c,)))
            best = min(leads) if misere else max(leads)
            assert naive_tricks(h, trump, N, side, misere) == best


def test_inside_a_trick_rejects_bad_input():
    with pytest.raises(ValueError):  # West has not played: hands of unequal size
        naive_tricks(hands("SK", "S2", "S3", "S4 S5"), NT, N, (N,), False, (card("SA"),))
    with pytest.raises(ValueError):  # four cards are a whole trick
        naive_tricks(
            hands("SK", "S2", "S3", "S4"),
            NT,
            N,
            (N,),
            False,
            (card("SA"), card("S5"), card("S6"), card("S7")),
        )
