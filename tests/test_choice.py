"""Every card's value from any position (:mod:`solo_analysis.solver.choice`), against the oracle.

Random endings of a few cards a hand, with 0 to 3 cards of the trick in progress already
played: the value of each legal card of the player to move, exact or as a target question,
must equal the plain minimax of ``tests/naive.py`` after that card.
"""

from __future__ import annotations

import numpy as np
import pytest
from naive import naive_tricks, trick_winner

from solo_analysis.deal import Deal
from solo_analysis.errors import DealError
from solo_analysis.solver import Question
from solo_analysis.solver.choice import (
    Trick,
    card_values_batch,
    legal_cards,
    play_trick,
    solve_cards,
)


def _oracle(hands, trump, leader, declarers, misere, trick, card):
    """Declarer-side tricks from here (the trick in progress included) after ``card``."""
    seat = (leader + len(trick)) % 4
    rest = [list(h) for h in hands]
    rest[seat].remove(card)
    played = (*trick, card)
    if len(played) < 4:
        return naive_tricks(rest, trump, leader, declarers, misere, played)
    winner = trick_winner(list(played), leader, trump)
    won = int(winner in declarers)
    if not rest[0]:
        return won
    return won + naive_tricks(rest, trump, winner, declarers, misere)


def _random_position(rng, k):
    """Hands of ``k`` cards, a trump, leader, declarer side, misère flag and a legal trick.

    The cards of the trick are out of the hands that played them.
    """
    cards = rng.permutation(52)[: 4 * k]
    hands = [sorted(int(c) for c in cards[i * k : (i + 1) * k]) for i in range(4)]
    trump = int(rng.integers(0, 5))
    leader = int(rng.integers(0, 4))
    misere = bool(rng.random() < 0.3)
    if misere:
        declarers = (int(rng.integers(0, 4)),)
        trump = 4
    elif rng.random() < 0.5:
        declarers = (int(rng.integers(0, 4)),)
    else:
        a = int(rng.integers(0, 4))
        declarers = tuple(sorted((a, (a + int(rng.integers(1, 4))) % 4)))
    trick: list[int] = []
    for i in range(int(rng.integers(0, 4))):
        seat = (leader + i) % 4
        hand = hands[seat]
        led = trick[0] // 13 if trick else None
        follow = [c for c in hand if led is not None and c // 13 == led]
        card = int(rng.choice(follow or hand))
        trick.append(card)
        hand.remove(card)
    return hands, trump, leader, declarers, misere, trick


def _deal_text(hands, trick, leader):
    """PBN of the hands with the trick's cards put back into the hands that played them."""
    full = [list(h) for h in hands]
    for i, card in enumerate(trick):
        full[(leader + i) % 4].append(card)
    return Deal.from_array(np.array(full)).to_pbn()


@pytest.mark.jit_off
@pytest.mark.parametrize("seed", range(12))
def test_every_card_of_a_mid_trick_ending_against_the_oracle(seed):
    rng = np.random.default_rng(seed)
    for _ in range(6):
        k = int(rng.integers(2, 5))
        hands, trump, leader, declarers, misere, trick = _random_position(rng, k)
        pbn = _deal_text(hands, trick, leader)
        kw = dict(trump=trump, leader=leader, declarers=declarers, misere=misere, trick=trick)
        exact = solve_cards(pbn, **kw)
        seat = (leader + len(trick)) % 4
        led = trick[0] // 13 if trick else None
        hand = hands[seat]
        legal = [c for c in hand if led is not None and c // 13 == led] or hand
        assert sorted(exact) == sorted(legal)
        for card, value in exact.items():
            assert value == _oracle(hands, trump, leader, declarers, misere, trick, card)
        target = int(rng.integers(0, k + 1))
        answers = solve_cards(pbn, target=target, **kw)
        for card, ok in answers.items():
            tricks = exact[card]
            assert ok == (tricks <= target if misere else tricks >= target)


def test_values_of_a_batch_equal_one_deal_at_a_time():
    rng = np.random.default_rng(5)
    hands, trump, leader, declarers, misere, trick = _random_position(rng, 4)
    q = Question(trump, leader, declarers, misere)
    worlds = []
    for _ in range(6):  # the same trick and player to move, the others' cards shuffled
        seat = (leader + len(trick)) % 4
        others = [c for s in range(4) if s != seat for c in hands[s]]
        rng.shuffle(others)
        new = [None] * 4
        i = 0
        for s in range(4):
            if s == seat:
                new[s] = hands[s]
            else:
                new[s] = sorted(others[i : i + len(hands[s])])
                i += len(hands[s])
        worlds.append(new)
    masks = np.array([[sum(1 << c for c in h) for h in w] for w in worlds], dtype=np.int64)
    # the trick's state, as play_trick gives it from the hands before the trick
    full = np.array([sum(1 << c for c in h) for h in hands], dtype=np.int64)
    for i, card in enumerate(trick):
        full[(leader + i) % 4] |= 1 << card
    state = play_trick(full, trump, leader, trick)
    cards = np.array(legal_cards(int(full[state.to_play]), state), dtype=np.int64)
    values, work = card_values_batch(masks, trump, state, q.declarers_mask, misere, -1, cards)
    one = card_values_batch(masks, trump, state, q.declarers_mask, misere, -1, cards, threads=1)
    assert (values == one[0]).all() and (work == one[1]).all()
    for w, world in enumerate(worlds):
        pbn = _deal_text(world, trick, leader)
        got = solve_cards(
            pbn, trump=trump, leader=leader, declarers=declarers, misere=misere, trick=trick
        )
        assert [got[int(c)] for c in cards] == list(values[w])


def test_a_limit_gives_up_and_says_so():
    deal = Deal.random(3)
    masks = np.array([h.mask for h in deal], dtype=np.int64)[None, :]
    state = Trick(1)
    cards = np.array(legal_cards(int(masks[0, 1]), state), dtype=np.int64)
    values, work = card_values_batch(masks, 1, state, 0b0101, False, 8, cards, max_positions=50)
    assert (values == -1).any() and work[0] > 50


@pytest.mark.parametrize(
    ("trick", "word"),
    [
        ("SA SK SQ SJ", "at most 3"),
        ("XX", "XX"),
        ("S2", "not in"),
        (["SA", "H5"], "must follow"),
    ],
)
def test_bad_tricks_are_one_line_errors(trick, word):
    pbn = "N:AKQJ... T98.5.. 765.A.. 432.J.."
    with pytest.raises(DealError, match=word) as info:
        solve_cards(pbn, trump="NT", leader="N", declarers="NS", trick=trick)
    assert "\n" not in str(info.value)


def test_a_target_beyond_the_tricks_left():
    with pytest.raises(DealError, match="tricks are left"):
        solve_cards("N:AK... QJ... T9... 87...", trump="NT", leader="N", declarers="N", target=3)


def _low_hand_position(rng, k):
    """A misère position inside a trick where the declarer holds mostly the lower cards."""
    cards = rng.permutation(52)[: 4 * k]
    order = np.argsort(cards % 13, kind="stable")
    weight = 1.0 / (1.0 + np.argsort(order)) ** 1.5  # the lower a card, the likelier his
    declarer = int(rng.integers(0, 4))
    mine = set(rng.choice(4 * k, size=k, replace=False, p=weight / weight.sum()).tolist())
    rest = [int(cards[i]) for i in range(4 * k) if i not in mine]
    hands = []
    for s in range(4):
        if s == declarer:
            hands.append(sorted(int(cards[i]) for i in mine))
        else:
            hands.append(sorted(rest[:k]))
            rest = rest[k:]
    leader = int(rng.integers(0, 4))
    trick: list[int] = []
    for i in range(int(rng.integers(0, 4))):
        hand = hands[(leader + i) % 4]
        led = trick[0] // 13 if trick else None
        follow = [c for c in hand if led is not None and c // 13 == led]
        card = int(rng.choice(follow or hand))
        trick.append(card)
        hand.remove(card)
    return hands, leader, (declarer,), trick


@pytest.mark.parametrize("seed", range(4))
def test_misere_with_low_cards_inside_a_trick_against_the_oracle(seed):
    """The misère safety bound, met at the trick boundaries below a mid-trick position."""
    rng = np.random.default_rng([77, seed])
    for _ in range(10):
        k = int(rng.integers(3, 5))
        hands, leader, declarers, trick = _low_hand_position(rng, k)
        pbn = _deal_text(hands, trick, leader)
        kw = dict(trump=4, leader=leader, declarers=declarers, misere=True, trick=trick)
        exact = solve_cards(pbn, **kw)
        for card, value in exact.items():
            assert value == _oracle(hands, 4, leader, declarers, True, trick, card), (pbn, card)
        for card, ok in solve_cards(pbn, target=0, **kw).items():
            assert ok == (exact[card] == 0)
