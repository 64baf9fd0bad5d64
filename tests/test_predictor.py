"""The Prop and Cop predictor fitted in advance, and its place among the control variates.

:mod:`solo_analysis.stats.predictor`; :meth:`solo_analysis.stats.control.Controls.view`.
"""

from __future__ import annotations

import numpy as np
import pytest

from solo_analysis.advice.sampling import predictor_keys
from solo_analysis.play.questions import build_rows
from solo_analysis.rules import load_rules
from solo_analysis.sampler import DealSampler
from solo_analysis.stats.control import CV_PREDICTOR_ALONE, Controls, cv_mean
from solo_analysis.stats.predictor import (
    N_BASE,
    N_INPUTS,
    N_SPLIT,
    N_TOP,
    Predictor,
    default_predictor,
    encode,
    encode_parts,
    roles,
    suit_order,
)

HAND = "AKJ94.K83.Q72.65"


def _random_predictor(hidden: int, seed: int, inputs: int = N_INPUTS) -> Predictor:
    rng = np.random.default_rng(seed)
    return Predictor(
        rng.normal(0.0, 0.1, (inputs, hidden)).astype(np.float32),
        rng.normal(0.0, 0.1, hidden).astype(np.float32),
        rng.normal(0.0, 0.3, (hidden, 1)).astype(np.float32),
        np.array([0.2], np.float32),
    )


def _deals(hand: str, seat: str, turnup: str | None, n: int, seed: int) -> np.ndarray:
    return np.asarray(DealSampler(hand, seat=seat, turnup=turnup, seed=seed).draw(n))


@pytest.mark.parametrize(
    ("hand", "seat", "turnup", "trump"),
    [
        (HAND, "second", "7S", 0),
        ("Q7.KJ93.A864.T52", "dealer", "4D", 2),
        (HAND, "eldest", None, -1),
    ],
)
@pytest.mark.parametrize("inputs", [N_INPUTS, N_BASE])
def test_the_folded_network_gives_the_reference_s_predictions(hand, seat, turnup, trump, inputs):
    # N_BASE: a predictor fitted before the joint indicators, which reads none of them
    net = _random_predictor(16, 3, inputs)
    deals = _deals(hand, seat, turnup, 200, 5)
    me = ["eldest", "second", "third", "dealer"].index(seat)
    for partner in range(4):
        if partner != me:
            got = net.predict(deals, me, trump, partner)
            want = net.forward(encode(deals, me, trump, partner))
            np.testing.assert_allclose(got, want, atol=2e-6)


@pytest.mark.jit_off
def test_the_kernel_runs_uncompiled():
    net = _random_predictor(4, 1)
    deals = _deals(HAND, "second", "7S", 3, 1)
    want = net.forward(encode(deals, 1, 0, 3))
    np.testing.assert_allclose(net.predict(deals, 1, 0, 3), want, atol=2e-6)


def test_inputs_name_each_card_s_holder_by_role():
    deals = _deals(HAND, "second", "7S", 8, 4)
    x = encode(deals, seat=1, trump=0, partner=3)
    assert x.shape == (8, N_INPUTS) and x.dtype == np.float32
    onehot = x[:, :208].reshape(8, 4, 13, 4)
    assert (onehot.sum(axis=3) == 1).all()  # every card has one holder
    assert (onehot[..., 0].sum(axis=(1, 2)) == 13).all()  # the player's 13
    assert (onehot[..., 0] == onehot[0, ..., 0]).all()  # the same on every deal
    # the trump suit (spades) first: the player's A K J 9 4 of it
    assert np.flatnonzero(onehot[0, 0, :, 0]).tolist() == [2, 7, 9, 11, 12]
    # the partner (the dealer) holds the turn-up 7S and sits across the table
    assert (onehot[:, 0, 5, 1] == 1).all()
    where = x[:, 244:252]
    assert (where[:, :3] == [0, 1, 0]).all() and (where[:, 4:] == [0, 0, 0, 1]).all()
    # each role's length in each suit, as one indicator of 14: the player's 5-3-3-2
    shape = x[:, 252:476].reshape(8, 4, 4, 14)
    assert (shape.sum(axis=3) == 1).all()
    assert (shape[:, 0].argmax(axis=2) == [5, 3, 3, 2]).all()
    length = x[:, 208:224].reshape(8, 4, 4) * 4
    np.testing.assert_array_equal(shape.argmax(axis=3), length)
    # each role's ace, king, queen and jack of each suit, as one indicator of 16 (bit 0 the
    # ace): the player's AKJ of spades, K of hearts, Q of diamonds, none of clubs
    honours = x[:, 476:N_BASE].reshape(8, 4, 4, 16)
    assert (honours.sum(axis=3) == 1).all()
    assert (honours[:, 0].argmax(axis=2) == [1 + 2 + 8, 2, 4, 0]).all()
    bits = (onehot[:, :, [12, 11, 10, 9], :] * np.array([1, 2, 4, 8])[:, None]).sum(axis=2)
    np.testing.assert_array_equal(honours.argmax(axis=3), bits.transpose(0, 2, 1))
    # each suit's joint indicators: who holds its ace, king, queen and jack, and how its cards
    # split between the two other roles (lengths at most 6)
    holder = onehot.argmax(axis=3)  # deal, suit, rank
    top = x[:, N_BASE : N_BASE + 4 * N_TOP].reshape(8, 4, N_TOP)
    assert (top.sum(axis=2) == 1).all()
    want = holder[:, :, 12] * 64 + holder[:, :, 11] * 16 + holder[:, :, 10] * 4 + holder[:, :, 9]
    np.testing.assert_array_equal(top.argmax(axis=2), want)
    split = x[:, N_BASE + 4 * N_TOP :].reshape(8, 4, N_SPLIT)
    assert (split.sum(axis=2) == 1).all()
    np.testing.assert_array_equal(
        split.argmax(axis=2), np.minimum(length[:, 2], 6) * 7 + np.minimum(length[:, 3], 6)
    )
    base, cols = encode_parts(deals, 1, 0, 3)  # the joint indicators that are 1, as columns
    assert cols.shape == (8, 8) and (x[np.arange(8)[:, None], cols] == 1).all()
    assert (x[:, N_BASE:].sum(axis=1) == 8).all()
    np.testing.assert_array_equal(base, x[:, :N_BASE])
    # the side suits by the player's holding: hearts K83 and diamonds Q72 (three each, the
    # king first), then clubs 65
    assert suit_order(deals[0, 1], 0) == [0, 1, 2, 3]
    assert suit_order(deals[0, 1], 3) == [3, 0, 1, 2]
    assert suit_order(deals[0, 1], -1) == [0, 1, 2, 3]
    assert roles(1, 3).tolist() == [3, 0, 2, 1]


def test_bad_weights_and_seats_are_refused(tmp_path):
    net = _random_predictor(4, 1)
    with pytest.raises(ValueError, match="weights"):
        Predictor(net.w1[:10], net.b1, net.w2, net.b2)
    with pytest.raises(ValueError, match="must differ"):
        roles(2, 2)
    path = tmp_path / "two.npz"
    np.savez(path, w0=net.w1, b0=net.b1, w1=net.w2, b1=net.b2, w2=net.b2, b2=net.b2)
    with pytest.raises(ValueError, match="not a one-hidden-layer predictor"):
        Predictor.load(str(path))
    path = tmp_path / "one.npz"
    np.savez(path, w0=net.w1, b0=net.b1, w1=net.w2, b1=net.b2)
    again = Predictor.load(str(path))
    deals = _deals(HAND, "second", "7S", 5, 2)
    np.testing.assert_array_equal(again.predict(deals, 1, 0, 0), net.predict(deals, 1, 0, 0))


def test_the_shipped_prop_predictor_ranks_hands_and_partners():
    net = default_predictor("prop")
    # the same player's hand: Prop and Cop is likelier the stronger the partner's hand
    deals = _deals(HAND, "second", "7S", 4000, 7)
    p = net.predict(deals, 1, 0, 3)
    assert ((p > 0) & (p < 1)).all()
    hcp = np.maximum(deals[:, 3] % 13 - 8, 0).sum(axis=1)
    strong, weak = p[hcp >= 15].mean(), p[hcp <= 6].mean()
    assert strong > weak + 0.3
    # a weak player's hand makes it far less often than a strong one's
    low = _deals("7532.632.852.432", "third", "KH", 4000, 7)
    high = _deals("AKQJ9.AK.AK2.532", "third", "7S", 4000, 7)
    assert net.predict(low, 2, 1, 0).mean() < 0.2 < 0.6 < net.predict(high, 2, 0, 0).mean()


def test_the_shipped_solo_predictor_ranks_hands():
    net = default_predictor("solo")
    low = _deals("AKJ94.K83.Q72.65", "second", "7S", 2000, 7)
    high = _deals("AKQJ9.AK.AK2.532", "third", "7S", 2000, 7)
    p_low, p_high = net.predict(low, 1, 0, 3), net.predict(high, 2, 0, 0)
    assert ((p_low > 0) & (p_low < 1)).all()
    assert p_low.mean() < 0.2 < 0.8 < p_high.mean()
    # the ordinary hand makes Solo more often when the opponents' eight spades split evenly
    spades = np.stack([(low[:, q] // 13 == 0).sum(axis=1) for q in (0, 2, 3)])
    assert p_low[spades.max(axis=0) <= 3].mean() > 2 * p_low[spades.max(axis=0) >= 5].mean()


def test_the_advice_gives_each_kind_its_own_rule():
    from solo_analysis.advice.request import Request
    from solo_analysis.advice.sampling import Sampling

    def sampling(model: str) -> Sampling:
        req = Request.build(
            HAND,
            seat="second",
            turnup="7S",
            rules="classic",
            samples=8,
            seed=1,
            over=None,
            constraints=None,
            tolerance=0.02,
            max_samples=2000,
            play_model=model,
            play_options=None,
            exact=None,
            contracts=["prop", "solo"],
            max_question_positions=5_000_000,
            control_variates=True,
            max_seconds=None,
            max_positions=None,
        )
        rows = build_rows(req.rules, req.seat, req.turnup_suit, req.only, req.cop_partner)
        return Sampling(req, rows)

    dd = sampling("double-dummy")
    assert dd.predicted == [("prop", 0, 0), ("prop", 0, 2), ("prop", 0, 3), ("solo", 0, 3)]
    assert dd.controls is not None and dd.controls.alone_below == {
        ("prop", 0, 0): CV_PREDICTOR_ALONE,
        ("prop", 0, 2): CV_PREDICTOR_ALONE,
        ("prop", 0, 3): CV_PREDICTOR_ALONE,
        ("solo", 0, 3): 0,
    }
    pimc = sampling("pimc")
    assert pimc.controls is not None and pimc.controls.alone_below == {}


def test_prop_solo_and_any_rows_take_predictor_columns():
    rules = load_rules("classic")
    rows = build_rows(rules, 1, 0, ["prop", "solo", "misere", "abundance"])
    keys = {i: predictor_keys(rows, i) for i in range(len(rows))}
    fixed = [i for i, r in enumerate(rows) if r.contract.name == "prop" and r.choice == "fixed"]
    prop = [("prop", 0, 0), ("prop", 0, 2), ("prop", 0, 3)]
    assert sorted(keys[i] for i in fixed) == [(k,) for k in prop]
    anyrow = [i for i, r in enumerate(rows) if r.choice == "any"]
    assert len(anyrow) == 1 and sorted(keys[anyrow[0]]) == prop
    solo = [i for i, r in enumerate(rows) if r.contract.name == "solo"]
    assert len(solo) == 1 and keys[solo[0]] == (("solo", 0, 3),)  # second's across: dealer
    others = [i for i, r in enumerate(rows) if r.contract.name not in ("prop", "solo")]
    assert others and all(keys[i] == () for i in others)


def _controls_with_column(rng, n_aux):
    """Controls of two features and one predictor column ``g``, and a sampler of deals."""
    cov = np.array([[1.0, 0.3], [0.3, 1.0]])
    chol = np.linalg.cholesky(cov)

    def draw(n):
        x = rng.normal(size=(n, 2)) @ chol.T
        g = 1.0 / (1.0 + np.exp(-(0.8 * x[:, 0] + rng.normal(0.0, 0.5, n))))
        return x, g

    xa, ga = draw(n_aux)
    sd = xa.std(axis=0, ddof=1)
    controls = Controls(
        x=np.zeros((0, 2)),
        mean=xa.mean(axis=0),
        cov=np.cov(xa, rowvar=False),
        n_aux=n_aux,
        za=((xa - xa.mean(axis=0)) / sd).astype(np.float32),
        scale=sd,
    )
    controls.pred_aux["k"] = ga
    controls.alone_below["k"] = CV_PREDICTOR_ALONE
    return controls, draw, xa


def test_a_predictor_column_alone_then_with_the_features():
    rng = np.random.default_rng(4)
    controls, draw, xa = _controls_with_column(rng, 1 << 16)
    truth = float(controls.pred_aux["k"].mean())
    x, g = draw(2000)
    controls.x, controls.pred["k"] = x, g
    y = (rng.random(2000) < g).astype(float)  # made with chance g: g is the perfect predictor
    few, one = controls.view(("k",), CV_PREDICTOR_ALONE - 1)
    assert few.shape == (CV_PREDICTOR_ALONE - 1, 1) and one.mean.tolist() == [pytest.approx(truth)]
    many, both = controls.view(("k",), 2000)
    assert many.shape == (2000, 3) and both.cov.shape == (3, 3) and both.za.shape[1] == 3
    # the stream's covariances of the features with the column, as computed directly
    direct = np.cov(np.column_stack([xa, controls.pred_aux["k"]]), rowvar=False)
    np.testing.assert_allclose(both.cov, direct, rtol=1e-4, atol=1e-6)
    assert controls.view(("k",), 2000)[1] is both  # kept
    controls.alone_below.clear()  # never alone: with the features on few deals too
    assert controls.view(("k",), 300)[0].shape == (300, 3)
    assert controls.view((), 10)[1] is controls and controls.view(("other",), 10)[1] is controls
    # the estimates: closer to the rate than the plain share, with a narrower interval
    est, se = cv_mean(y[: CV_PREDICTOR_ALONE - 1], few, one)
    plain = y[: CV_PREDICTOR_ALONE - 1]
    assert se < 0.95 * plain.std(ddof=1) / np.sqrt(plain.size)
    assert abs(est - truth) < 4 * se
    est, se = cv_mean(y, many, both)
    assert se < 0.95 * y.std(ddof=1) / np.sqrt(y.size) and abs(est - truth) < 4 * se
