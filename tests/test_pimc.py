"""Realistic play (:mod:`solo_analysis.play.pimc`) and the worlds it imagines.

Exact checks where they exist: worlds uniform over the deals a player's knowledge allows
(chi-square against an enumeration), play that sees every card reproducing double-dummy
results, a player whose knowledge fixes the hidden cards choosing a double-dummy best card,
and known answers (the lowest cards always make Misère; the top cards never do).
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from solo_analysis.bidding.policy import POLICY_FEATURES, default_policy, policy_matrix
from solo_analysis.errors import PlayModelError
from solo_analysis.play import Pimc, Prior, make_play_model
from solo_analysis.play._worlds import policy_score, sample_worlds
from solo_analysis.play.pimc import playout, policy_prior
from solo_analysis.sampler import random_deals, sample_deals
from solo_analysis.solver import Question, solve_questions
from solo_analysis.solver._kernels import codes_to_masks
from solo_analysis.solver.choice import Trick, card_values_batch, legal_cards

NO_WEIGHTS = np.zeros(1 + len(POLICY_FEATURES))  # no bidding-policy condition on a prior


def _mask(cards):
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# --- the worlds ---------------------------------------------------------------------------


@pytest.mark.jit_off
def test_worlds_are_uniform_over_the_deals_the_knowledge_allows():
    # seat 0 knows its hand; six unknown cards (S2 S3 S4 H2 H3 D2) go two to each other seat,
    # and seat 2 has shown out of hearts
    pool = [0, 1, 2, 13, 14, 26]
    known = np.array([_mask([50, 51]), 0, 0, 0], dtype=np.int64)
    caps = np.array([0, 2, 2, 2], dtype=np.int64)
    void = np.array([0, 0, 0b0010, 0], dtype=np.int64)
    allowed = []
    for a in itertools.combinations(pool, 2):
        rest = [c for c in pool if c not in a]
        for b in itertools.combinations(rest, 2):
            if any(c // 13 == 1 for c in b):
                continue
            allowed.append((_mask(a), _mask(b)))
    n = 6000
    out = np.empty((n, 4), dtype=np.int64)
    got = sample_worlds(
        np.uint64(7),
        n,
        known,
        np.int64(_mask(pool)),
        caps,
        void,
        -1,
        np.int64(0),
        0,
        40,
        NO_WEIGHTS,
        -1,
        n,
        out,
    )
    assert got == n
    assert (out[:, 0] == known[0]).all()
    counts = Counter((int(w[1]), int(w[2])) for w in out)
    assert set(counts) <= set(allowed)  # every world is consistent
    observed = np.array([counts[k] for k in allowed])
    _, p = stats.chisquare(observed)
    assert p > 0.001, (len(allowed), observed)


def test_a_prior_on_the_declarers_hand_is_respected():
    pool = list(range(39, 52)) + list(range(0, 13))  # clubs and spades unknown
    known = np.array([_mask(range(13, 26)), 0, 0, 0], dtype=np.int64)
    caps = np.array([0, 13, 13, 0], dtype=np.int64)
    out = np.empty((200, 4), dtype=np.int64)
    got = sample_worlds(
        np.uint64(3),
        200,
        known,
        np.int64(_mask(pool)),
        caps,
        np.zeros(4, dtype=np.int64),
        1,
        np.int64(0),
        0,
        4,
        NO_WEIGHTS,
        -1,
        100_000,
        out,
    )
    assert got == 200
    for hand in out[:, 1]:
        points = sum(max(c % 13 - 8, 0) for c in range(52) if (int(hand) >> c) & 1)
        assert points <= 4


# --- play ---------------------------------------------------------------------------------


def _deals(hand, seat, turnup, n, seed):
    deals = sample_deals(hand, seat=seat, turnup=turnup, n=n, seed=seed)
    return deals, codes_to_masks(deals)


@pytest.mark.parametrize(
    ("question", "hand", "seat"),
    [
        (Question("NT", 0, (2,), True, 0), "J742.T853.963.84", "third"),
        (Question("C", 0, (1,), False, 5), "AKJ94.K83.Q72.65", "second"),
        (Question("C", 0, (1, 3), False, 8), "AKJ94.K83.Q72.65", "second"),
    ],
)
def test_seeing_every_card_plays_double_dummy(question, hand, seat):
    deals, masks = _deals(hand, seat, "2C" if seat == "second" else "KH", 6, 11)
    dd = solve_questions(deals, [question], max_positions=3_000_000)[0]
    for i in np.flatnonzero(dd >= 0):  # the deals the solver settles within the limit
        made, _ = playout(masks[i], question, see_all=True, worlds=1, world_positions=None)
        assert int(made) == int(dd[i])


def test_seeing_every_card_on_endings_of_every_contract_type():
    rng = np.random.default_rng(4)
    for _ in range(12):
        cards = rng.permutation(52)[:24]
        masks = np.array([_mask(cards[6 * s : 6 * s + 6]) for s in range(4)], dtype=np.int64)
        kind = int(rng.integers(0, 3))
        if kind == 0:
            q = Question("NT", int(rng.integers(0, 4)), (int(rng.integers(0, 4)),), True, 0)
        elif kind == 1:
            q = Question(int(rng.integers(0, 5)), int(rng.integers(0, 4)), (0,), False, 3)
        else:
            q = Question(int(rng.integers(0, 5)), int(rng.integers(0, 4)), (0, 2), False, 4)
        deal = np.array([[c for c in range(52) if (int(m) >> c) & 1] for m in masks])
        dd = solve_questions(deal[None], [q])[0][0]
        made, _ = playout(masks, q, see_all=True, worlds=1, world_positions=None)
        assert int(made) == int(dd)


def test_a_player_whose_knowledge_fixes_the_cards_plays_a_double_dummy_best_card():
    # E, S and W each hold one suit, and each has shown out of the others: N's worlds are all
    # the real deal, so N's card is one the double-dummy solver rates best for his side
    hands = np.array(
        [
            _mask([12, 11, 25, 24]),
            _mask([0, 1, 2, 3]),
            _mask([13, 14, 15, 16]),
            _mask([26, 27, 28, 29]),
        ],
        dtype=np.int64,
    )
    void = np.array([0, 0b1110, 0b1101, 0b1011], dtype=np.int64)
    known = np.array([hands[0], 0, 0, 0], dtype=np.int64)
    pool = int(hands[1] | hands[2] | hands[3])
    out = np.empty((8, 4), dtype=np.int64)
    got = sample_worlds(
        np.uint64(1),
        8,
        known,
        np.int64(pool),
        np.array([0, 4, 4, 4], dtype=np.int64),
        void,
        -1,
        np.int64(0),
        0,
        40,
        NO_WEIGHTS,
        -1,
        8,
        out,
    )
    assert got == 8 and (out == hands).all()
    q = Question("NT", 0, (0, 2), False, 3)
    trick = Trick(0)
    cards = np.array(legal_cards(int(hands[0]), trick), dtype=np.int64)
    values, _ = card_values_batch(out[:1], 4, trick, q.declarers_mask, False, 3, cards)
    chosen: list[int] = []
    playout(
        hands, q, worlds=8, log=lambda seat, card, *_: chosen.append(card) if seat == 0 else None
    )
    assert values[0][list(cards).index(chosen[0])] == values[0].max()


def test_the_lowest_cards_always_make_misere_and_the_top_cards_never():
    low, _ = _deals("5432.5432.432.32", "third", "KH", 8, 2)
    q = Question("NT", 0, (2,), True, 0)
    model = Pimc(worlds=8, world_positions=200_000)
    assert (model.ask(low, [q], turnups=np.full(8, 24))[0] == 1).all()
    top, _ = _deals("AKQJ.AKQ.AKQ.AKQ", "third", "2H", 4, 2)
    assert (model.ask(top, [q], turnups=np.full(4, 13))[0] == 0).all()
    assert model.positions is not None and model.positions > 0


def test_play_repeats_from_its_seed():
    deals, _ = _deals("J742.T853.963.84", "third", "KH", 6, 5)
    q = Question("NT", 0, (2,), True, 0)
    a = Pimc(worlds=8, seed=3, world_positions=200_000).ask(deals, [q], turnups=np.full(6, 24))[0]
    b = Pimc(worlds=8, seed=3, world_positions=200_000, threads=1).ask(
        deals, [q], turnups=np.full(6, 24)
    )[0]
    assert (a == b).all()


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [({"worlds": 0}, "worlds"), ({"prior": "psychic"}, "prior"), ({"prior": 3}, "prior")],
)
def test_bad_options_are_one_line_errors(kwargs, word):
    with pytest.raises(PlayModelError, match=word) as info:
        Pimc(**kwargs)
    assert "\n" not in str(info.value)


def test_trick_counts_are_refused_with_a_reason():
    deals, _ = _deals("J742.T853.963.84", "third", "KH", 1, 5)
    with pytest.raises(PlayModelError, match="double-dummy only"):
        Pimc().ask(deals, [Question("NT", 0, (2,), True)])


def test_the_registry_builds_it():
    model = make_play_model("PIMC", options={"world_positions": 1000})
    assert isinstance(model, Pimc) and model.world_positions == 1000
    assert Pimc(prior=Prior(0, 4)).prior == Prior(0, 4)


def _assert_compiled_is_reference(question, deals, masks, worlds, pimc_tricks=None):
    """The compiled playouts give the reference playout's answers and positions (turn-up K♥)."""
    model = Pimc(worlds=worlds, seed=2, world_positions=300_000, pimc_tricks=pimc_tricks)
    got = model.ask(deals, [question], turnups=np.full(len(deals), 24))[0]
    spent = 0
    for i in range(len(deals)):
        made, positions = playout(
            masks[i],
            question,
            turnup=24,
            worlds=worlds,
            seed=2,
            prior=model._prior(question, 1),
            world_positions=300_000,
            pimc_tricks=pimc_tricks,
        )
        assert int(made) == int(got[i]), (pimc_tricks, i)
        spent += positions
    assert model.positions == spent


@pytest.mark.parametrize(
    "question",
    [
        Question("NT", 0, (2,), True, 0),
        Question("NT", 0, (2,), True, 0, exposed=True),
        Question("H", 0, (2,), False, 5),
        Question("H", 0, (0, 2), False, 8),
    ],
)
def test_the_compiled_playout_plays_as_the_reference(question):
    deals, masks = _deals("J742.T853.963.84", "third", "KH", 4, 9)
    _assert_compiled_is_reference(question, deals, masks, 6)


def test_the_compiled_policy_score_is_the_policys_model():
    deals = random_deals(40, 8)
    turnups = np.array([int(d[3, 0]) for d in deals])
    x = policy_matrix(deals, turnups)
    masks = codes_to_masks(np.ascontiguousarray(deals, dtype=np.int8))
    for name, coef in default_policy().coefficients.items():
        w = np.asarray(coef)
        for i in range(len(deals)):
            for seat in range(4):
                want = w[0] + x[i, seat] @ w[1:]
                got = policy_score(masks[i, seat], w, turnups[i] // 13, seat)
                assert got == pytest.approx(want, abs=1e-9), (name, i, seat)


def test_a_policy_prior_weighs_hands_by_their_make_rate():
    # the defence at seat 0 knows its hand; seat 1 declared Solo (spades, the turn-up's suit)
    deals = random_deals(1, 4)
    masks = codes_to_masks(np.ascontiguousarray(deals, dtype=np.int8))[0]
    prior = policy_prior(Question(0, 0, (1,), False, 5), 0)
    assert prior is not None and prior.weights is not None
    w = prior.vector()
    known = np.array([masks[0], 0, 0, 0], dtype=np.int64)
    pool = int(masks[1] | masks[2] | masks[3])
    caps = np.array([0, 13, 13, 13], dtype=np.int64)
    void = np.zeros(4, dtype=np.int64)
    n = 4000

    def draw(seat: int) -> np.ndarray:
        out = np.empty((n, 4), dtype=np.int64)
        got = sample_worlds(
            np.uint64(5),
            n,
            known,
            np.int64(pool),
            caps,
            void,
            seat,
            np.int64(0),
            0,
            40,
            w,
            0,
            10_000_000,
            out,
        )
        assert got == n
        return out[:, 1]

    def keep(hand: int) -> float:  # the chance a hand is kept: 1 at p >= 1/2, else 2p
        return min(1.0, 2.0 / (1.0 + np.exp(-policy_score(hand, w, 0, 1))))

    free = np.array([keep(h) for h in draw(-1)])
    kept = np.array([keep(h) for h in draw(1)])
    # the kept worlds are the free ones weighted by their chance: E_kept[k] = E[k^2] / E[k]
    want = float((free**2).mean() / free.mean())
    se = float(kept.std() / np.sqrt(n) + free.std() / np.sqrt(n))
    assert abs(kept.mean() - want) < 5 * se, (kept.mean(), want, se)
    assert kept.mean() > free.mean() + 5 * se  # the bid moves the worlds toward Solo hands
    assert policy_prior(Question(0, 0, (1, 3), False, 8), 0) is None  # Prop and Cop: none


def test_the_policy_prior_is_a_named_option():
    model = make_play_model("pimc", options={"prior": "policy"})
    assert model.options()["prior"] == "policy"
    misere = Question(4, 0, (2,), True, 0)
    assert model._prior(misere, 1).weights == default_policy().coefficients["misere"]


@pytest.mark.parametrize(
    "question",
    [
        Question("NT", 0, (2,), True, 0),
        Question("H", 0, (2,), False, 5),
        Question("H", 0, (0, 2), False, 8),
    ],
)
def test_pimc_tricks_zero_is_double_dummy_and_the_compiled_play_is_the_reference(question):
    deals, masks = _deals("J742.T853.963.84", "third", "KH", 6, 9)
    dd = solve_questions(deals, [question])[0]
    zero = Pimc(worlds=4, seed=2, pimc_tricks=0).ask(deals, [question], turnups=np.full(6, 24))[0]
    assert [int(x) for x in zero] == [int(x) for x in dd]
    for tricks in (2, 13):
        _assert_compiled_is_reference(question, deals, masks, 4, tricks)
    # all thirteen tricks realistic is the model without the option
    full = Pimc(worlds=4, seed=2, world_positions=300_000).ask(
        deals, [question], turnups=np.full(6, 24)
    )[0]
    late = Pimc(worlds=4, seed=2, world_positions=300_000, pimc_tricks=13).ask(
        deals, [question], turnups=np.full(6, 24)
    )[0]
    assert list(full) == list(late)


def test_pimc_tricks_zero_is_one_search_of_the_deal_within_the_world_budget():
    # two Solo deals that one search from the first trick boundary answers in 11,380 and
    # 16,850 positions; valuing each of the leader's 12 cards apart takes 15.2 M and 2.2 M
    # (every lead that lets the declarer make it must be proved), past the 200,000 positions
    # of a world, and the playout went on realistically (and made)
    deals = sample_deals("AKJ94.K83.Q72.65", seat="second", turnup="7S", n=32, seed=1)[[15, 30]]
    question = Question("S", 0, (1,), False, 5)
    dd = solve_questions(deals, [question], return_positions=True)
    model = Pimc(worlds=4, seed=1, pimc_tricks=0)
    zero = model.ask(deals, [question], turnups=np.full(2, 5))[0]
    assert [int(x) for x in zero] == [int(x) for x in dd[0][0]] == [0, 0]
    assert model.positions == int(dd[1][0].sum())


def test_pimc_tricks_is_checked_and_named():
    for bad in (-1, 14, 2.0, True):
        with pytest.raises(PlayModelError, match="pimc_tricks"):
            Pimc(pimc_tricks=bad)
    assert "pimc_tricks" not in Pimc().options()
    assert make_play_model("pimc", options={"pimc_tricks": 1}).options()["pimc_tricks"] == 1
