"""Tests of the deal sampler against exact combinatorics.

Every expected distribution is computed here from binomial coefficients (the
slow, obviously correct oracle); the sampler's output is compared by chi-square
at fixed seeds, so the tests are deterministic.

Reference values: hand-pattern probabilities of a random 13-card hand,
4-4-3-2 21.55%, 5-3-3-2 15.52%, 5-4-3-1 12.93%, 5-4-2-2 10.58%, 4-3-3-3 10.54%
(Source: Borel & Chéron, "Théorie mathématique du bridge", 1940; reproduced in
Wikipedia, "Contract bridge probabilities", table of hand patterns).
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections import Counter
from math import comb

import numba
import numpy as np
import pytest
from scipy import stats

from solo_analysis.cards import PLAY_SEATS, parse_card
from solo_analysis.errors import (
    CardCountError,
    ConstraintError,
    DuplicateCardError,
    SamplingError,
    SeatError,
    SoloAnalysisError,
    TurnupError,
)
from solo_analysis.hand import Hand, cards_from_text
from solo_analysis.sampler import (
    Constraints,
    DealSampler,
    high_card_points,
    random_deals,
    sample_deals,
    suit_lengths,
)

HAND = "AKQ.JT9.876.5432"  # S AKQ, H JT9, D 876, C 5432
P_MIN = 0.001


# --- exact oracles -------------------------------------------------------------------


def chi2_p(observed: Counter, expected: dict, n: int) -> float:
    """Chi-square p-value; categories with expected count < 5 are pooled."""
    obs, exp, o_rest, e_rest = [], [], 0, 0.0
    assert set(observed) <= set(expected), set(observed) - set(expected)
    assert abs(sum(expected.values()) - 1) < 1e-12
    for key, p in expected.items():
        if p * n >= 5:
            obs.append(observed.get(key, 0))
            exp.append(p * n)
        else:
            o_rest += observed.get(key, 0)
            e_rest += p * n
    if e_rest > 0:
        obs.append(o_rest)
        exp.append(e_rest)
    return float(stats.chisquare(obs, exp).pvalue)


def split_probs(missing: int, slots: tuple[int, ...]) -> dict[tuple[int, ...], float]:
    """Multivariate hypergeometric: ``missing`` cards among seats with ``slots`` free places."""
    total = comb(sum(slots), missing)
    out = {}
    for split in itertools.product(*(range(min(s, missing) + 1) for s in slots)):
        if sum(split) == missing:
            out[split] = np.prod([comb(s, k) for s, k in zip(slots, split, strict=False)]) / total
    return out


def pattern_probs(
    suit_sizes: tuple[int, int, int, int], cards: int, extra_suit: int | None = None
) -> dict:
    """Exact probability of each pattern of ``cards`` drawn from a pool with ``suit_sizes``.

    A pattern is the suit lengths sorted longest first.  ``extra_suit``: one more known card of
    that suit is added to the hand.
    """
    total = comb(sum(suit_sizes), cards)
    out: dict[tuple[int, ...], float] = {}
    for lengths in itertools.product(*(range(s + 1) for s in suit_sizes)):
        if sum(lengths) != cards:
            continue
        p = np.prod([comb(s, k) for s, k in zip(suit_sizes, lengths, strict=False)]) / total
        full = list(lengths)
        if extra_suit is not None:
            full[extra_suit] += 1
        key = tuple(sorted(full, reverse=True))
        out[key] = out.get(key, 0.0) + p
    return out


def hcp_probs(pool: list[int], cards: int) -> dict[int, float]:
    """Exact HCP distribution of ``cards`` drawn from ``pool``."""
    by_rank = Counter(max(c % 13 - 8, 0) for c in pool)  # 0 = spot card, 1..4 = J..A
    total = comb(len(pool), cards)
    out: dict[int, float] = {}
    for ks in itertools.product(*(range(by_rank[v] + 1) for v in (1, 2, 3, 4))):
        spots = cards - sum(ks)
        if spots < 0 or spots > by_rank[0]:
            continue
        p = (
            comb(by_rank[0], spots)
            * np.prod([comb(by_rank[v], k) for v, k in zip((1, 2, 3, 4), ks, strict=False)])
            / total
        )
        h = sum(v * k for v, k in zip((1, 2, 3, 4), ks, strict=False))
        out[h] = out.get(h, 0.0) + p
    return out


def lengths_of(deals: np.ndarray, seat: int, suit: int) -> np.ndarray:
    return suit_lengths(deals)[:, seat, suit]


# --- layout and basic invariants ------------------------------------------------------------


def test_full_deck_pattern_reference_values():
    probs = pattern_probs((13, 13, 13, 13), 13)
    for pattern, ref in [
        ((4, 4, 3, 2), 0.2155),
        ((5, 3, 3, 2), 0.1552),
        ((5, 4, 3, 1), 0.1293),
        ((5, 4, 2, 2), 0.1058),
        ((4, 3, 3, 3), 0.1054),
    ]:
        assert round(probs[pattern], 4) == ref


@pytest.mark.jit_off
def test_shape_dtype_permutation_and_order():
    deals = sample_deals(HAND, seat="second", turnup="7S", n=2000, seed=11)
    assert deals.shape == (2000, 4, 13) and deals.dtype == np.int8
    flat = np.sort(deals.reshape(len(deals), 52).astype(int), axis=1)
    assert (flat == np.arange(52)).all()
    hand = np.array(Hand.parse(HAND).codes)
    assert (deals[:, 1, :] == hand).all()  # same display order as Hand.codes
    turnup = parse_card("7S")
    assert (deals[:, 3, :] == turnup).any(axis=1).all()
    # display order: suits S H D C, rank high to low
    key = (deals // 13).astype(int) * 13 + 12 - deals % 13
    assert (np.diff(key, axis=2) > 0).all()


@pytest.mark.jit_off
def test_player_is_dealer():
    deals = sample_deals(HAND, seat="Dealer", turnup="2C", n=500, seed=2)
    assert (deals[:, 3, :] == np.array(Hand.parse(HAND).codes)).all()
    assert PLAY_SEATS == ("eldest", "second", "third", "dealer")


@pytest.mark.jit_off
def test_seat_and_hand_forms():
    a = sample_deals(HAND, seat="third", turnup="♥7", n=50, seed=3)
    b = sample_deals(Hand.parse(HAND), seat=2, turnup="H7", n=50, seed=3)
    c = sample_deals(
        list(Hand.parse(HAND).codes), seat="THIRD", turnup=parse_card("7H"), n=50, seed=3
    )
    assert (a == b).all() and (a == c).all()


@pytest.mark.jit_off
def test_no_turnup_and_random_deals():
    deals = sample_deals(HAND, seat="eldest", turnup=None, n=300, seed=4)
    assert (deals[:, 0, :] == np.array(Hand.parse(HAND).codes)).all()
    rnd = random_deals(300, 4)
    assert rnd.shape == (300, 4, 13)
    assert (np.sort(rnd.reshape(300, 52), axis=1) == np.arange(52)).all()
    with_turnup = random_deals(300, 4, turnup="QD")
    assert (with_turnup[:, 3, :] == parse_card("QD")).any(axis=1).all()


def test_zero_deals():
    assert sample_deals(HAND, seat="second", turnup="7S", n=0, seed=1).shape == (0, 4, 13)


# --- reproducibility -------------------------------------------------------------------------


@pytest.mark.jit_off
def test_seed_reproducible_and_distinct():
    a = sample_deals(HAND, seat="second", turnup="7S", n=200, seed=5)
    b = sample_deals(HAND, seat="second", turnup="7S", n=200, seed=5)
    c = sample_deals(HAND, seat="second", turnup="7S", n=200, seed=6)
    assert (a == b).all() and not (a == c).all()
    assert (sample_deals(HAND, seat="second", turnup="7S", n=5, seed=2**64 - 1) >= 0).all()


@pytest.mark.jit_off
@pytest.mark.parametrize(
    "constraints", [None, Constraints(length={"eldest": {"H": (4, None)}}, hcp={"third": (8, 20)})]
)
def test_draws_continue_the_stream(constraints):
    one = DealSampler(HAND, seat="second", turnup="7S", seed=9, constraints=constraints)
    two = DealSampler(HAND, seat="second", turnup="7S", seed=9, constraints=constraints)
    parts = [one.draw(100), one.draw(1), one.draw(0), one.draw(99)]
    whole = two.draw(200)
    assert (np.concatenate(parts) == whole).all()
    assert one.drawn == two.drawn == 200
    assert one.tried == two.tried


def test_large_draw_spans_batches(monkeypatch):
    import solo_analysis.sampler as sm

    ref = sample_deals(HAND, seat="eldest", turnup="7S", n=1000, seed=12)
    monkeypatch.setattr(sm, "MAX_BATCH", 64)
    assert (sample_deals(HAND, seat="eldest", turnup="7S", n=1000, seed=12) == ref).all()
    cons = Constraints(length={"third": {"C": (3, None)}})
    ref_c = DealSampler(HAND, seat="eldest", turnup="7S", seed=12, constraints=cons)
    monkeypatch.setattr(sm, "MAX_BATCH", 1 << 16)
    big = ref_c.draw(1000)
    monkeypatch.setattr(sm, "MAX_BATCH", 100)
    small = DealSampler(HAND, seat="eldest", turnup="7S", seed=12, constraints=cons).draw(1000)
    assert (big == small).all()


def test_same_output_whatever_the_thread_count():
    before = numba.get_num_threads()
    cons = Constraints(hcp={"eldest": (12, None)})
    try:
        out = []
        for threads in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
            numba.set_num_threads(threads)
            out.append(
                (
                    sample_deals(HAND, seat="second", turnup="7S", n=5000, seed=21),
                    sample_deals(
                        HAND, seat="second", turnup="7S", n=2000, seed=21, constraints=cons
                    ),
                )
            )
    finally:
        numba.set_num_threads(before)
    assert (out[0][0] == out[1][0]).all() and (out[0][1] == out[1][1]).all()


def test_jit_off_path_gives_the_same_deals():
    code = (
        "import sys, numpy as np; from solo_analysis.sampler import sample_deals; "
        "np.save(sys.argv[1], sample_deals('AKQ.JT9.876.5432', seat='second', turnup='7S', "
        "n=20, seed=8, constraints={'hcp': {'eldest': (10, None)}}))"
    )
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"jitoff_{os.getpid()}.npy")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    subprocess.run([sys.executable, "-c", code, path], env=env, check=True, timeout=120)
    try:
        jit_off = np.load(path)
    finally:
        os.remove(path)
    cons = {"hcp": {"eldest": (10, None)}}
    assert (
        jit_off == sample_deals(HAND, seat="second", turnup="7S", n=20, seed=8, constraints=cons)
    ).all()


# --- distributions vs exact values -----------------------------------------------------------


def test_split_of_a_plain_suit_among_unseen_hands():
    # player 'second' holds H JT9: 10 hearts missing among eldest (13 free), third (13), dealer (12)
    n = 20000
    deals = sample_deals(HAND, seat="second", turnup="7S", n=n, seed=101)
    lengths = suit_lengths(deals)[:, :, 1]
    obs = Counter(map(tuple, lengths[:, [0, 2, 3]]))
    assert chi2_p(obs, split_probs(10, (13, 13, 12)), n) > P_MIN


def test_split_of_the_turnup_suit():
    # spades: player holds AKQ, the 7S is the dealer's turn-up: 9 unknown spades in
    # (13, 13, 12) slots
    n = 20000
    deals = sample_deals(HAND, seat="second", turnup="7S", n=n, seed=102)
    lengths = suit_lengths(deals)[:, :, 0]
    assert (lengths[:, 3] >= 1).all()
    obs = Counter((int(a), int(b), int(c) - 1) for a, b, c in lengths[:, [0, 2, 3]])
    assert chi2_p(obs, split_probs(9, (13, 13, 12)), n) > P_MIN


def test_split_when_the_player_deals():
    n = 20000
    deals = sample_deals(HAND, seat="dealer", turnup="2C", n=n, seed=103)
    obs = Counter(map(tuple, suit_lengths(deals)[:, :3, 3]))  # clubs: 9 missing, (13, 13, 13)
    assert chi2_p(obs, split_probs(9, (13, 13, 13)), n) > P_MIN


def test_patterns_of_random_deals():
    n = 20000
    deals = random_deals(n, 104)
    obs = Counter(tuple(sorted(row, reverse=True)) for row in suit_lengths(deals)[:, 2].tolist())
    assert chi2_p(obs, pattern_probs((13, 13, 13, 13), 13), n) > P_MIN


def test_patterns_of_unseen_hands_given_the_player_hand():
    n = 20000
    deals = sample_deals(HAND, seat="second", turnup="7S", n=n, seed=105)
    # unseen pool: S 10 - 1 (turn-up), H 10, D 10, C 9 -> 38 cards
    lens = suit_lengths(deals)
    obs_eldest = Counter(tuple(sorted(r, reverse=True)) for r in lens[:, 0].tolist())
    assert chi2_p(obs_eldest, pattern_probs((9, 10, 10, 9), 13), n) > P_MIN
    obs_dealer = Counter(tuple(sorted(r, reverse=True)) for r in lens[:, 3].tolist())
    assert chi2_p(obs_dealer, pattern_probs((9, 10, 10, 9), 12, extra_suit=0), n) > P_MIN


def test_hcp_distribution_of_an_unseen_hand():
    n = 20000
    deals = sample_deals(HAND, seat="second", turnup="7S", n=n, seed=106)
    pool = sorted(set(range(52)) - set(Hand.parse(HAND).codes) - {parse_card("7S")})
    obs = Counter(high_card_points(deals)[:, 2].tolist())
    assert chi2_p(obs, hcp_probs(pool, 13), n) > P_MIN


@pytest.mark.slow
def test_patterns_large_sample():
    n = 1_000_000
    deals = random_deals(n, 107)
    lens = -np.sort(-suit_lengths(deals), axis=-1)
    for seat in range(4):
        codes, counts = np.unique(
            lens[:, seat] @ np.array([14**3, 14**2, 14, 1]), return_counts=True
        )
        obs = Counter(
            {
                tuple(int(c) // 14**e % 14 for e in (3, 2, 1, 0)): int(k)
                for c, k in zip(codes, counts, strict=False)
            }
        )
        assert chi2_p(obs, pattern_probs((13, 13, 13, 13), 13), n) > P_MIN


# --- constraints -------------------------------------------------------------------------------


def test_length_constraint_conditional_distribution_and_rate():
    # eldest holds >= 5 of the 10 missing hearts; pool 38, eldest draws 13
    cons = Constraints(length={"eldest": {"H": (5, None)}, "third": {"D": (None, 4)}})
    sampler = DealSampler(HAND, seat="second", turnup="7S", seed=201, constraints=cons)
    n = 5000
    deals = sampler.draw(n)
    lens = suit_lengths(deals)
    assert (lens[:, 0, 1] >= 5).all() and (lens[:, 2, 2] <= 4).all()
    # conditional law of eldest's hearts: the exact joint law restricted and renormalised
    joint: dict[int, float] = {}
    for h, d in itertools.product(range(11), range(11)):  # eldest hearts h, third diamonds d
        if h < 5 or d > 4:
            continue
        # eldest: h of 10 hearts + 13-h of 28 others; third: d of 10 diamonds among the rest
        p_e = comb(10, h) * comb(28, 13 - h) / comb(38, 13)
        # diamonds left after eldest: eldest took k of 10 diamonds among its 13-h others
        p = 0.0
        for k in range(0, min(10, 13 - h) + 1):
            p_k = comb(10, k) * comb(18, 13 - h - k) / comb(28, 13 - h)
            left_d, left = 10 - k, 25
            if d <= left_d:
                p += p_k * comb(left_d, d) * comb(left - left_d, 13 - d) / comb(left, 13)
        joint[h] = joint.get(h, 0.0) + p_e * p
    accept = sum(joint.values())
    expected = {h: p / accept for h, p in joint.items()}
    assert chi2_p(Counter(lens[:, 0, 1].tolist()), expected, n) > P_MIN
    rate = sampler.acceptance_rate
    se = np.sqrt(accept * (1 - accept) / sampler.tried)
    assert abs(rate - accept) < 5 * se, (rate, accept)


def test_hcp_constraint_rate_matches_exact_tail():
    pool = sorted(set(range(52)) - set(Hand.parse(HAND).codes) - {parse_card("7S")})
    tail = sum(p for h, p in hcp_probs(pool, 13).items() if 12 <= h <= 16)
    sampler = DealSampler(
        HAND, seat="second", turnup="7S", seed=202, constraints={"hcp": {"third": (12, 16)}}
    )
    deals = sampler.draw(4000)
    pts = high_card_points(deals)[:, 2]
    assert ((pts >= 12) & (pts <= 16)).all()
    se = np.sqrt(tail * (1 - tail) / sampler.tried)
    assert abs(sampler.acceptance_rate - tail) < 5 * se


def test_predicate_equals_builtin_constraint():
    builtin = DealSampler(
        HAND,
        seat="second",
        turnup="7S",
        seed=203,
        constraints=Constraints(hcp={"eldest": (11, None)}),
    )
    calls = []

    def pred(d: np.ndarray) -> np.ndarray:
        calls.append(len(d))
        return high_card_points(d)[:, 0] >= 11

    via_pred = DealSampler(HAND, seat="second", turnup="7S", seed=203, constraints=pred)
    a, b = builtin.draw(3000), via_pred.draw(3000)
    assert calls and (a == b).all()
    assert builtin.acceptance_rate == via_pred.acceptance_rate
    assert 0 < via_pred.acceptance_rate < 1


@pytest.mark.jit_off
def test_acceptance_rate_reporting():
    s = DealSampler(HAND, seat="second", turnup="7S", seed=1)
    assert s.acceptance_rate is None and s.drawn == 0
    s.draw(10)
    assert s.acceptance_rate == 1.0 and s.drawn == 10 and "acceptance_rate" in repr(s)


@pytest.mark.jit_off
def test_known_cards_are_placed_and_the_rest_uniform():
    hand = "KQJ.T98.AK6.5432"  # no AS, no 7H, no 2H
    n = 20000
    sampler = DealSampler(
        hand, seat="eldest", turnup="2H", seed=204, known={"third": "AS", "dealer": ["7H", "2H"]}
    )
    deals = sampler.draw(n)
    assert (deals[:, 2, :] == parse_card("AS")).any(axis=1).all()
    for card in ("7H", "2H"):
        assert (deals[:, 3, :] == parse_card(card)).any(axis=1).all()
    # the other 9 spades among second (13 free), third (12), dealer (11)
    lens = suit_lengths(deals)[:, :, 0]
    obs = Counter((int(a), int(b) - 1, int(c)) for a, b, c in lens[:, 1:])
    assert chi2_p(obs, split_probs(9, (13, 12, 11)), n) > P_MIN


@pytest.mark.jit_off
def test_holds_equals_known():
    a = sample_deals(HAND, seat="second", turnup="7S", n=500, seed=205, known={"eldest": "AH KH"})
    b = sample_deals(
        HAND,
        seat="second",
        turnup="7S",
        n=500,
        seed=205,
        constraints={"holds": {"eldest": cards_from_text("AH KH")}},
    )
    assert (a == b).all()


@pytest.mark.jit_off
@pytest.mark.parametrize(
    "spec, pattern",
    [
        ({"length": {"eldest": {"S": 7, "H": 7}}}, "cannot make 13 cards"),
        (
            {"length": {"eldest": {"S": (5, None)}, "third": {"S": (5, None)}}},
            "spades",
        ),  # 9 unseen spades
        ({"length": {"third": {"H": (11, None)}}}, "hearts"),  # only 10 unseen hearts
        ({"length": {"second": {"C": (5, None)}}}, "clubs"),  # the player's own hand has 4
        ({"hcp": {"eldest": (25, None), "third": (20, None)}}, "HCP"),
        ({"hcp": {"eldest": (10, 5)}}, "min > max"),
        ({"length": {"eldest": {"S": (-1, 3)}}}, "outside"),
        ({"length": {"eldest": {"X": 3}}}, "'X'"),
        ({"holds": {"third": "AS"}}, "already in the 'second' hand"),  # AS is the player's
        ({"holds": {"eldest": "7S"}}, "already in the 'dealer' hand"),  # the turn-up
        ({"colour": 1}, "unknown constraint keys"),
        ({"predicate": 3}, "callable"),
    ],
)
def test_impossible_or_invalid_constraints_fail_at_once(spec, pattern):
    with pytest.raises(ConstraintError, match=pattern):
        DealSampler(HAND, seat="second", turnup="7S", seed=1, constraints=spec)


def test_too_rare_constraints_fail_with_the_rate():
    never = Constraints(predicate=lambda d: np.zeros(len(d), dtype=bool), trial_budget=20000)
    with pytest.raises(
        ConstraintError, match=r"0 accepted out of 20000 candidates \(acceptance rate 0"
    ):
        sample_deals(HAND, seat="second", turnup="7S", n=10, seed=1, constraints=never)
    # possible, but about 6e-7: all ten missing hearts with eldest
    rare = Constraints(length={"eldest": {"H": 10}}, trial_budget=50000)
    with pytest.raises(ConstraintError, match="too rare"):
        sample_deals(HAND, seat="second", turnup="7S", n=1, seed=1, constraints=rare)


def test_bad_predicate_output():
    with pytest.raises(ConstraintError, match="bool array"):
        sample_deals(
            HAND, seat="second", turnup="7S", n=5, seed=1, constraints=lambda d: np.ones(3)
        )


# --- input errors ------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", ["nord", "", 4, -1, True, None, 1.0])
def test_bad_seat(seat):
    with pytest.raises(SeatError, match="seat"):
        sample_deals(HAND, seat=seat, turnup="7S", n=1, seed=1)


def test_turnup_errors():
    with pytest.raises(TurnupError, match=r"AS is in the player's hand.*'second'"):
        sample_deals(HAND, seat="second", turnup="AS", n=1, seed=1)
    with pytest.raises(TurnupError, match=r"player is the dealer.*turn-up 7S"):
        sample_deals(HAND, seat="dealer", turnup="7S", n=1, seed=1)
    with pytest.raises(SoloAnalysisError):
        sample_deals(HAND, seat="second", turnup="ZZ", n=1, seed=1)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "3", True, None])
def test_bad_seed(seed):
    with pytest.raises(SamplingError, match="seed"):
        sample_deals(HAND, seat="second", turnup="7S", n=1, seed=seed)


@pytest.mark.parametrize("n", [-1, 2.0, "5"])
def test_bad_n(n):
    with pytest.raises(SamplingError, match=r"n must be"):
        sample_deals(HAND, seat="second", turnup="7S", n=n, seed=1)


@pytest.mark.jit_off
def test_bad_hands_and_known_cards():
    with pytest.raises(CardCountError):
        sample_deals(list(range(12)), seat="second", turnup="7S", n=1, seed=1)
    with pytest.raises(DuplicateCardError):
        sample_deals([0] * 13, seat="second", turnup=None, n=1, seed=1)
    with pytest.raises(DuplicateCardError, match="already in the 'second' hand"):
        sample_deals(HAND, seat="second", turnup="7S", n=1, seed=1, known={"third": "KS"})
    with pytest.raises(CardCountError, match="more than 13"):
        sample_deals(
            HAND,
            seat="second",
            turnup="7S",
            n=1,
            seed=1,
            known={"eldest": list(range(13, 17)) + list(range(26, 30)) + list(range(33, 39))},
        )
    with pytest.raises(SeatError):
        DealSampler(None, seat="second", turnup=None, seed=1)
    with pytest.raises(SeatError):
        DealSampler(HAND, seat=None, turnup=None, seed=1)


def test_errors_are_one_line():
    for call in (
        lambda: sample_deals(HAND, seat="nord", turnup="7S", n=1, seed=1),
        lambda: sample_deals(HAND, seat="second", turnup="AS", n=1, seed=1),
        lambda: sample_deals(
            HAND,
            seat="second",
            turnup="7S",
            n=1,
            seed=1,
            constraints={"length": {"eldest": {"S": 7, "H": 7}}},
        ),
    ):
        with pytest.raises(SoloAnalysisError) as info:
            call()
        assert "\n" not in str(info.value)


@pytest.mark.jit_off
def test_candidates_are_the_stream_from_any_start():
    from solo_analysis.sampler import DealSampler

    whole = DealSampler(None, seat=None, turnup=None, seed=11).draw(12)
    deals, accepted = DealSampler(None, seat=None, turnup=None, seed=11).candidates(5, 7)
    assert accepted.all()
    assert np.array_equal(deals, whole[5:12])
    with pytest.raises(ValueError, match="start and n"):
        DealSampler(None, seat=None, turnup=None, seed=11).candidates(-1, 3)
