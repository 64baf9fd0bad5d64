"""Monte Carlo contract evaluation (:mod:`solo_analysis.advice`).

The double-dummy solver is slow on ordinary hands, so the real-solver tests use hands whose
answers are quick (very strong or very weak); the pipeline's logic (misère rows, ``over``,
adaptive stopping) is also checked with a cheap fake play model.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

import solo_analysis.advice.sampling as sampling_module
from solo_analysis.advice import FIRST_BATCH, Advice, AdviceError, advise
from solo_analysis.advice.sampling import WIDEN_SHARE
from solo_analysis.errors import (
    ContractError,
    PlayModelError,
    RuleSetError,
    SamplingError,
    SeatError,
    SoloAnalysisError,
    TurnupError,
)
from solo_analysis.play import DoubleDummy, PlayModel
from solo_analysis.report import advice_text
from solo_analysis.rules import load_rules
from solo_analysis.sampler import DealSampler
from solo_analysis.stats import N_FEATURES, deal_features, wilson_interval
from solo_analysis.stats.control import (
    CV_MIN_DEALS,
    Controls,
    cv_mean,
    logit_control,
    logit_fit,
)

SPADES = "AKQJT98765432..."  # thirteen spades
LOW = "5432.5432.432.32"  # only the lowest cards of each suit


class HighCardModel(PlayModel):
    """A cheap fake: the declarer side takes one trick per ace it holds.

    In misère it takes one trick per ace and per king it holds.
    """

    name = "fake-aces"
    note = "fake model for tests"

    def tricks(self, deals, *, trump, leader, declarers, misere):
        ranks = deals[:, list(declarers), :] % 13
        high = (ranks >= 11) if misere else (ranks == 12)
        return high.reshape(len(deals), -1).sum(axis=1).astype(np.int8)


@pytest.fixture(scope="module")
def spades():
    return advise(SPADES, seat="second", turnup="2H", samples=16, seed=7)


def test_thirteen_spades_known_answers(spades):
    t = spades.table
    fixed = t[t.choice == "fixed"]
    solo = fixed[fixed.contract == "solo"]
    assert list(solo.trump) == ["H"] and float(solo.p_make.iloc[0]) == 0.0  # every opponent ruffs
    ab = fixed[fixed.contract == "abundance"]
    # classic: a new suit, not the turn-up's
    assert sorted(ab.trump) == ["C", "D", "S"]
    assert float(ab[ab.trump == "S"].p_make.iloc[0]) == 1.0
    assert (ab[ab.trump != "S"].p_make == 0.0).all()
    dec = fixed[fixed.contract == "declared"]
    assert sorted(dec.trump) == ["C", "D", "H", "S"]
    assert set(dec.leader) == {"second"}  # the declarer leads in Declared
    assert float(dec[dec.trump == "S"].p_make.iloc[0]) == 1.0
    best = t[(t.choice == "best")].set_index("contract")
    assert best.loc["abundance", "trump"] == "S" and best.loc["declared", "trump"] == "S"
    assert (t[t.contract == "royal-abundance"].trump == "H").all()
    assert spades.recommendation == "declared"
    assert spades.recommended["trump"] == "S"
    # nobody else holds a spade, so at no trump he is never on play: Spread Misère always makes
    assert spades.runner_up["contract"] == "spread-misere"
    assert (t[t.misere].p_make == 1.0).all()
    # Declared beats Spread Misère by 6 units on each of the 16 deals; 16 deals cannot rule out
    # that 1 in 5 would go the other way (-42), so that margin is not exact, and not yet clear
    mean, low, high = spades.margin
    assert mean == 6.0 and low < 0.0 < 6.0 < high and spades.close_call
    assert spades.summary().startswith("Bid Abundance Declared (♠): 100%")
    sure = advise(SPADES, seat="second", turnup="2H", samples=64, seed=7, contracts=["declared"])
    assert sure.margin[0] == 24.0 and 0 < sure.margin[1] < 24.0 and not sure.close_call


def test_prop_rows_and_pairing(spades):
    t = spades.table
    prop = t[t.contract == "prop"]
    assert sorted(prop[prop.choice == "fixed"].partner) == ["dealer", "eldest", "third"]
    assert list(prop[prop.choice == "any"].partner) == ["any"]
    assert (t.samples == 16).all() and spades.samples == 16  # every row on the same deals
    assert (t.play_model == "double-dummy").all() and spades.play_model == "double-dummy"
    assert "pessimistic" in spades.play_note
    # one candidate per contract
    assert t[t.candidate].contract.is_unique


def test_ev_matches_p_make_and_units(spades):
    rules = spades.rules
    assert rules.overtricks == "none"
    for rec in spades.table.to_dict("records"):
        c = rules.contract(rec["contract"])
        win = rules.declarer_units(c, c.target)
        lose = rules.declarer_units(c, 1 if c.misere else c.target - 1)
        assert rec["ev_units"] == pytest.approx(rec["p_make"] * win + (1 - rec["p_make"]) * lose)
        assert rec["ev_low"] <= rec["ev_units"] <= rec["ev_high"]
        assert rec["ci_low"] <= rec["p_make"] <= rec["ci_high"]


def test_exact_mode_distribution_and_overtricks():
    rules = load_rules("classic").with_options(overtricks="flat")
    a = advise(
        SPADES,
        seat="eldest",
        turnup="2H",
        samples=8,
        seed=3,
        rules=rules,
        contracts=["solo", "abundance"],
    )
    t = a.table.set_index("row")
    assert t.exact.all()  # the flat scheme pays by the trick, so tricks are counted
    ab = t[(t.contract == "abundance") & (t.trump == "S") & (t.choice == "fixed")].iloc[0]
    assert ab.tricks_mean == 13.0
    assert ab.ev_units == pytest.approx(
        rules.declarer_units("abundance", 13)
    )  # 5 + 4 over-tricks, x3
    d = a.distribution
    assert set(d.columns) >= {"row", "contract", "trump", "partner", "tricks", "count", "share"}
    for row, grp in d.groupby("row"):
        assert list(grp.tricks) == list(range(14))
        assert grp["count"].sum() == 8 and grp.share.sum() == pytest.approx(1.0)
        # ev from the distribution agrees with the table
        c = rules.contract(grp.contract.iloc[0])
        ev = sum(
            rules.declarer_units(c, k) * s for k, s in zip(grp.tricks, grp.share, strict=False)
        )
        assert ev == pytest.approx(t.loc[row, "ev_units"])


def test_deterministic_from_seed():
    kw = dict(seat="second", turnup="2H", samples=12, contracts=["solo", "abundance"], exact=True)
    a = advise(SPADES, seed=11, **kw)
    b = advise(SPADES, seed=11, **kw)
    pd.testing.assert_frame_equal(a.table, b.table)
    c = advise(SPADES, seed=None, **kw)
    assert isinstance(c.seed, int)
    pd.testing.assert_frame_equal(advise(SPADES, seed=c.seed, **kw).table, c.table)


def test_fake_model_misere_over_and_pass():
    model = HighCardModel()
    # the low hand holds no ace or king: makes both misères, no trick contract
    a = advise(LOW, seat="third", turnup="KH", samples=32, seed=1, play_model=model)
    t = a.table
    mis = t[t.misere]
    assert sorted(mis.contract) == ["misere", "spread-misere"] and (mis.p_make == 1.0).all()
    assert (mis.trump == "NT").all() and (mis.leader == "eldest").all()
    assert list(mis.exposed) == [False, True]
    assert a.recommendation == "spread-misere"  # worth more than misère
    assert a.runner_up["contract"] == "misere"
    assert a.play_model == "fake-aces"
    # only contracts above the bid so far may be advised
    b = advise(
        LOW, seat="third", turnup="KH", samples=32, seed=1, play_model=model, over="spread-misere"
    )
    assert b.recommendation == "pass" and b.recommended is None
    assert not b.table.set_index("contract").loc["misere", "allowed"]
    assert b.table.set_index("contract").loc["declared", "allowed"].all()
    assert b.summary().startswith("Pass")
    assert b.to_dict()["recommendation"]["contract"] == "pass"
    c = advise(LOW, seat="third", turnup="KH", samples=32, seed=1, play_model=model, over="misere")
    assert c.recommendation == "spread-misere"


def test_adaptive_sampling_stops_at_tolerance_or_cap():
    model = HighCardModel()
    seen = []
    # p_make 0 or 1 on every row: 64 deals give a Wilson half-width of about 0.03
    a = advise(
        LOW,
        seat="third",
        turnup="KH",
        seed=2,
        play_model=model,
        tolerance=0.05,
        progress=lambda n, w: seen.append((n, w)),
    )
    assert a.samples == 64 and a.converged and a.tolerance == 0.05 and seen[-1][0] == 64
    b = advise(
        LOW, seat="third", turnup="KH", seed=2, play_model=model, tolerance=0.001, max_samples=200
    )
    assert b.samples == 200 and not b.converged
    assert (b.table.samples == 200).all()
    # batching does not change the deals: the adaptive run equals a fixed run of the same size
    c = advise(LOW, seat="third", turnup="KH", seed=2, play_model=model, samples=200)
    cols = ["p_make", "ev_units"]
    pd.testing.assert_frame_equal(b.table[cols], c.table[cols])


class CoinMisereModel(PlayModel):
    """A cheap fake: Misère makes on about half the deals (by a card's place).

    Every other contract always makes.
    """

    name = "fake-coin"
    note = "fake model for tests"

    def tricks(self, deals, *, trump, leader, declarers, misere):
        if misere:
            return (deals[:, 1, 0] % 2).astype(np.int8)  # 0 tricks (made) or 1 (failed)
        return np.full(len(deals), 13, dtype=np.int8)


def test_adaptive_sampling_stops_each_contract_on_its_own():
    model = CoinMisereModel()
    kw = dict(seat="third", turnup="KH", seed=4, play_model=model, tolerance=0.05)
    a = advise(LOW, max_samples=256, **kw)
    t = a.table
    mis = t.contract.isin(["misere", "spread-misere"])
    assert a.samples == 256 and not a.converged
    # the contracts that always make stop after the first batch; the misères (near 50 %) go on
    assert (t[~mis].samples == 64).all() and (t[mis].samples == 256).all()
    assert 0.3 < float(t[mis].p_make.iloc[0]) < 0.7
    # a contract's results are those of a fixed run of its own size: the same first deals
    first = advise(LOW, samples=64, **{k: v for k, v in kw.items() if k != "tolerance"})
    full = advise(LOW, samples=256, **{k: v for k, v in kw.items() if k != "tolerance"})
    cols = ["p_make", "ci_low", "ci_high", "ev_units"]
    pd.testing.assert_frame_equal(t[~mis][cols], first.table[~mis][cols])
    pd.testing.assert_frame_equal(t[mis][cols], full.table[mis][cols])
    # the paired margin of the top two is over the deals both were solved on: the first 64
    two = dict(kw, contracts=["prop", "misere"])
    c = advise(LOW, max_samples=256, **two)
    assert (c.recommendation, c.runner_up["contract"]) == ("prop", "misere")
    assert list(c.table.samples) == [64, 64, 64, 64, 256]
    d = advise(LOW, samples=64, **{k: v for k, v in two.items() if k != "tolerance"})
    assert c.margin == pytest.approx(d.margin)
    # with a wide enough tolerance everything stops together, and the run converges
    b = advise(LOW, max_samples=2000, **{**kw, "tolerance": 0.2})
    assert b.converged and b.samples == 64 and (b.table.samples == 64).all()


class PartnerCoinModel(PlayModel):
    """A cheap fake: Prop and Cop makes by a coin of the partner's lowest card; all else makes.

    The three partners' coins are independent, so the ``any`` row (their average) is about
    three times as precise as each partner's row.
    """

    name = "fake-partner-coin"
    note = "fake model for tests"

    def tricks(self, deals, *, trump, leader, declarers, misere):
        if misere:
            return np.zeros(len(deals), dtype=np.int8)
        if len(declarers) == 2:
            partner = next(s for s in declarers if s != 2)  # the player sits third
            return np.where(deals[:, partner, 0] % 2 == 1, 13, 0).astype(np.int8)
        return np.full(len(deals), 13, dtype=np.int8)


def test_stopping_on_the_bid_rows_leaves_each_partner_row_wider():
    kw = dict(seat="third", turnup="KH", seed=4, play_model=PartnerCoinModel())
    kw.update(tolerance=0.05, max_samples=2000)
    rows = advise(LOW, **kw)
    bid = advise(LOW, stop_on="bid", **kw)
    assert (rows.stop_on, bid.stop_on) == ("rows", "bid")
    assert rows.converged and bid.converged
    t, b = rows.table, bid.table
    half = lambda t: (t.ci_high - t.ci_low) / 2  # noqa: E731
    prop = t.contract == "prop"
    fixed = prop & (t.choice == "fixed")
    # each partner's row near 50 % needs about 400 deals for +-0.05; their average is about
    # three times as precise once the correction applies (from CV_MIN_DEALS = 128 deals)
    assert (t[prop].samples > 2 * CV_MIN_DEALS).all() and (half(t) <= 0.05).all()
    assert (b[prop].samples == CV_MIN_DEALS).all() and (b[~prop].samples == FIRST_BATCH).all()
    assert bid.samples == CV_MIN_DEALS and (half(b[b.candidate]) <= 0.05).all()
    assert (half(b[fixed]) > 0.05).all()
    # the same first deals: each row is the fixed run of its own size
    fixed_kw = {k: v for k, v in kw.items() if k not in ("tolerance", "max_samples")}
    first = advise(LOW, samples=CV_MIN_DEALS, **fixed_kw)
    cols = ["p_make", "ci_low", "ci_high", "ev_units"]
    pd.testing.assert_frame_equal(b[prop][cols], first.table[prop][cols])
    assert first.stop_on is None
    assert bid.to_dict()["stop_on"] == "bid" and json.loads(bid.to_json())["converged"]


class SurePartnerModel(PartnerCoinModel):
    """:class:`PartnerCoinModel`, except that Prop and Cop always makes with eldest."""

    name = "fake-sure-partner"

    def tricks(self, deals, *, trump, leader, declarers, misere):
        if not misere and len(declarers) == 2 and 0 in declarers:
            return np.full(len(deals), 13, dtype=np.int8)
        return super().tricks(deals, trump=trump, leader=leader, declarers=declarers, misere=misere)


def test_each_partner_row_stops_on_its_own():
    kw = dict(seat="third", turnup="KH", seed=4, play_model=SurePartnerModel())
    kw.update(contracts=["prop"], tolerance=0.05, max_samples=2000)
    a = advise(LOW, **kw)
    assert a.converged and a.stop_on == "rows"
    t = a.table.set_index("partner")
    # the sure partner's row is narrow after the first batch; the coins need about 400 deals
    assert t.loc["eldest", "samples"] == FIRST_BATCH and t.loc["eldest", "p_make"] == 1.0
    assert (t.loc[["second", "dealer"], "samples"] > 2 * CV_MIN_DEALS).all()
    assert a.samples == t.samples.max()
    # the (any) row averages the partners over the deals all three were solved on: it is
    # the fixed run's of that size
    assert t.loc["any", "samples"] == FIRST_BATCH
    fixed_kw = {k: v for k, v in kw.items() if k not in ("tolerance", "max_samples")}
    first = advise(LOW, samples=FIRST_BATCH, **fixed_kw).table.set_index("partner")
    cols = ["p_make", "ci_low", "ci_high", "ev_units"]
    pd.testing.assert_series_equal(t.loc["any", cols], first.loc["any", cols])
    pd.testing.assert_series_equal(t.loc["eldest", cols], first.loc["eldest", cols])
    # under "bid" the contract stops as a whole, every partner on the same deals
    bid = advise(LOW, stop_on="bid", **kw)
    assert bid.table.samples.nunique() == 1


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class TimedCoinModel(CoinMisereModel):
    """:class:`CoinMisereModel` taking 1 ms of a fake clock per question and deal."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock

    def tricks(self, deals, *, trump, leader, declarers, misere):
        self.clock.t += 0.001 * len(deals)
        return super().tricks(deals, trump=trump, leader=leader, declarers=declarers, misere=misere)


def test_time_limit_cuts_adaptive_sampling(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(sampling_module, "_clock", clock)
    kw = dict(
        seat="third",
        turnup="KH",
        seed=4,
        play_model=TimedCoinModel(clock),
        tolerance=0.01,
        max_samples=20000,
    )
    a = advise(LOW, max_seconds=2.0, **kw)
    # the misères (near 50 %) would need ~9,600 deals for +-1 %; the limit stops them first,
    # and the batches are cut to the time left, so the run does not overshoot it
    assert a.stopped == "max_seconds" and a.max_seconds == 2.0 and not a.converged
    assert FIRST_BATCH < a.samples < 2000 and clock.t <= 2.0
    assert a.to_dict()["stopped"] == "max_seconds"
    # the same seed with max_samples = the deals used repeats the run, without the clock
    clock.t = 0.0
    b = advise(LOW, **{**kw, "max_samples": a.samples})
    assert b.stopped == "max_samples" and b.samples == a.samples
    pd.testing.assert_frame_equal(a.table, b.table)
    # a limit that is never reached changes nothing
    c = advise(LOW, max_seconds=1e6, **{**kw, "tolerance": 0.05, "max_samples": 4000})
    d = advise(LOW, **{**kw, "tolerance": 0.05, "max_samples": 4000})
    assert c.stopped == d.stopped == "tolerance" and c.converged
    pd.testing.assert_frame_equal(c.table, d.table)
    # fixed samples say so
    assert (
        advise(
            LOW, samples=8, seat="third", turnup="KH", seed=4, play_model=HighCardModel()
        ).stopped
        == "samples"
    )


class CountingCoinModel(CoinMisereModel):
    """:class:`CoinMisereModel` that counts 1,000 positions per question and deal."""

    def __init__(self) -> None:
        self.positions = 0

    def tricks(self, deals, *, trump, leader, declarers, misere):
        self.positions += 1000 * len(deals)
        return super().tricks(deals, trump=trump, leader=leader, declarers=declarers, misere=misere)


def test_position_cap_cuts_adaptive_sampling_and_repeats_from_the_seed():
    kw = dict(seat="third", turnup="KH", seed=4, tolerance=0.01, max_samples=20000)
    model = CountingCoinModel()
    a = advise(LOW, play_model=model, max_positions=2_000_000, **kw)
    # the misères (near 50 %) would need ~9,600 deals for +-1 %; the cap stops them first, and
    # the last batch is cut to the positions left (the misères' pace predicts it exactly here)
    assert a.stopped == "max_positions" and a.max_positions == 2_000_000 and not a.converged
    assert FIRST_BATCH < a.samples < 20000 and a.positions == model.positions <= 2_000_000
    assert a.positions > 1_900_000  # the cap is used, not left idle
    doc = a.to_dict()
    assert doc["stopped"] == "max_positions" and doc["positions"] == a.positions
    assert "stopped at the cap of 2,000,000 search positions" in a._repr_html_()
    # positions do not depend on the machine: the same seed repeats the run exactly
    b = advise(LOW, play_model=CountingCoinModel(), max_positions=2_000_000, **kw)
    assert (b.samples, b.positions) == (a.samples, a.positions)
    pd.testing.assert_frame_equal(a.table, b.table)
    # no cap: the tolerance (or max_samples) ends the run; a model that does not count is not capped
    c = advise(LOW, play_model=CountingCoinModel(), max_positions=None, **{**kw, "tolerance": 0.05})
    assert c.stopped == "tolerance" and c.max_positions is None and c.positions > 0
    d = advise(LOW, play_model=CoinMisereModel(), max_positions=1, **{**kw, "tolerance": 0.05})
    assert d.stopped == "tolerance" and d.positions is None and d.max_positions is None
    pd.testing.assert_frame_equal(c.table, d.table)
    with pytest.raises(AdviceError, match="max_positions"):
        advise(LOW, play_model=CountingCoinModel(), max_positions=0, **kw)


class CostlyCoinModel(CoinMisereModel):
    """:class:`CoinMisereModel` whose questions cost 100,000 positions a deal."""

    def __init__(self) -> None:
        self.positions = 0

    def tricks(self, deals, *, trump, leader, declarers, misere):
        self.positions += 100_000 * len(deals)
        return super().tricks(deals, trump=trump, leader=leader, declarers=declarers, misere=misere)


def test_a_cap_below_the_first_batch_stops_it_after_one_chunk():
    from solo_analysis.advice import MIN_CUT_BATCH

    kw = dict(seat="third", turnup="KH", seed=4, contracts=["misere"])
    model = CostlyCoinModel()
    a = advise(LOW, play_model=model, max_positions=1_000_000, **kw)
    # the first batch (64 deals, 6.4 M positions) would overrun the cap sixfold: under a cap it
    # is solved 16 deals at a time, and the first chunk alone reaches the cap
    assert a.stopped == "max_positions" and a.samples == MIN_CUT_BATCH
    assert a.positions == model.positions == 100_000 * MIN_CUT_BATCH
    # the deals solved are those of a run of that many deals
    b = advise(LOW, play_model=CostlyCoinModel(), samples=MIN_CUT_BATCH, **kw)
    pd.testing.assert_frame_equal(a.table, b.table)
    # a cap the first chunks do not reach: the batch goes on while its pace says the next
    # chunk fits (3 chunks, 4.8 M positions; a fourth would end at 6.4 M)
    c = advise(LOW, play_model=CostlyCoinModel(), max_positions=5_000_000, **kw)
    assert c.stopped == "max_positions" and c.samples == 3 * MIN_CUT_BATCH
    assert c.positions == 100_000 * 3 * MIN_CUT_BATCH <= 5_000_000


def test_chunks_under_a_far_cap_grow_and_shrink_near_it():
    from solo_analysis.advice import CUT_SHARE, MIN_CUT_BATCH

    class SizesModel(CostlyCoinModel):
        def tricks(self, deals, **kw):
            if kw["misere"]:  # the misère question is asked of every deal of every chunk
                sizes.append(len(deals))
            return super().tricks(deals, **kw)

    sizes: list[int] = []
    kw = dict(seat="third", turnup="KH", seed=4, contracts=["misere"], tolerance=0.01)
    cap = 30_000_000  # 300 deals at 100,000 positions a deal
    a = advise(LOW, play_model=SizesModel(), max_positions=cap, **kw)
    # the first chunk has no pace to go by; the next take CUT_SHARE of what fits (at least
    # MIN_CUT_BATCH), the first batch's second one its remaining 48 deals
    assert sizes[0] == MIN_CUT_BATCH and sizes[1] == 64 - MIN_CUT_BATCH
    assert sizes[2] == int(CUT_SHARE * (cap - 64 * 100_000) / 100_000)
    # (here 16, 48 | 59, 5 | 43, 32, 24, 18, 11 | 16, 16, 12: batches of 64, 128, 256, 300)
    assert max(sizes) > 2 * MIN_CUT_BATCH and max(sizes[-3:]) <= MIN_CUT_BATCH
    assert a.stopped == "max_positions" and a.positions == 100_000 * a.samples <= cap
    assert a.samples > cap // 100_000 - 2 * MIN_CUT_BATCH  # the cap is used, not left idle
    # the chunks do not change the results: those of a run of that many deals
    b = advise(LOW, play_model=CostlyCoinModel(), samples=a.samples, **kw)
    pd.testing.assert_frame_equal(a.table, b.table)


def test_a_time_limit_stops_a_batch_after_the_chunk_that_reaches_it(monkeypatch):
    from solo_analysis.advice import PROGRESS_CHUNK

    class Clock:
        t = 0.0

    clock = Clock()
    monkeypatch.setattr(sampling_module, "_clock", lambda: clock.t)

    class SlowCoinModel(CoinMisereModel):
        def tricks(self, deals, **kw):
            clock.t += 0.1 * len(deals)  # 0.1 s a deal
            return super().tricks(deals, **kw)

    kw = dict(seat="third", turnup="KH", seed=4, contracts=["misere"])
    a = advise(LOW, play_model=SlowCoinModel(), max_seconds=2.0, **kw)
    # 64 deals would take 6.4 s: the first chunk (3.2 s) passes the limit and ends the run
    assert a.stopped == "max_seconds" and a.samples == PROGRESS_CHUNK
    assert clock.t == pytest.approx(0.1 * PROGRESS_CHUNK)


def test_position_cap_with_the_solver_repeats_whatever_the_threads():
    import numba

    # Solo on an ordinary hand makes about 3 % of the time: 64 deals leave it wider than +-2
    # points, and a cap of 1,500,000 positions stops it a batch later (96 deals, 7 of them
    # given up at 100,000 positions: measured)
    kw = dict(
        seat="second",
        turnup="7S",
        contracts=["solo"],
        max_question_positions=100_000,
        max_positions=1_500_000,
        seed=3,
    )
    a = advise("AKJ94.K83.Q72.65", **kw)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        b = advise("AKJ94.K83.Q72.65", **kw)
    finally:
        numba.set_num_threads(threads)
    assert a.stopped == b.stopped == "max_positions" and a.samples == b.samples > FIRST_BATCH
    assert a.positions == b.positions > 0
    pd.testing.assert_frame_equal(a.table, b.table)


class GiveUpMisereModel(PlayModel):
    """A cheap fake: Misère makes on about half the deals and is given up on (-1) on some.

    ``every``: about one deal in ``every`` is given up on.
    """

    name = "fake-give-up"
    note = "fake model for tests"

    def __init__(self, every: int = 8) -> None:
        super().__init__()
        self.every = every

    def tricks(self, deals, *, trump, leader, declarers, misere):
        if misere:
            d = np.asarray(deals).astype(np.int64)
            lost = d[:, 1, :].sum(axis=1) % self.every == 0
            return np.where(lost, -1, d[:, 3, :].sum(axis=1) % 2).astype(np.int8)
        return np.full(len(deals), 13, dtype=np.int8)


def _misere_row(a):
    mis = a.table[a.table.contract == "misere"].iloc[0]
    return mis, mis.unresolved / (mis.samples + mis.unresolved)


def test_adaptive_sampling_stops_on_the_sampling_error_where_unsolved_deals_widen_too_much():
    kw = dict(seat="third", turnup="KH", seed=4, contracts=["prop", "misere"])
    a = advise(LOW, tolerance=0.05, max_samples=4000, play_model=GiveUpMisereModel(8), **kw)
    mis, share = _misere_row(a)
    assert 0.07 < share < 0.2
    # the unresolved deals widen the half-width by about half their share, more than
    # WIDEN_SHARE of the tolerance: sampling stops on the sampling error (about 400 deals at
    # p = 0.5, 0.05), well before the cap, and the advice does not claim to have converged
    assert mis.samples + mis.unresolved < 1000
    assert (mis.ci_high - mis.ci_low) / 2 > 0.05 and not a.converged
    assert a.stopped == "tolerance"
    assert "too many deals not solved for more deals to bring them in" in advice_text(a)
    html = a._repr_html_()
    assert "too many deals unsolved" in html and f"({a.unresolved} unsolved)" in html
    # without unresolved deals the same run converges
    b = advise(LOW, tolerance=0.05, max_samples=4000, play_model=CoinMisereModel(), **kw)
    assert b.converged


def test_adaptive_sampling_goes_on_until_a_few_unsolved_deals_fit_in_the_tolerance(monkeypatch):
    kw = dict(seat="third", turnup="KH", seed=4, contracts=["prop", "misere"], tolerance=0.05)
    a = advise(LOW, max_samples=4000, play_model=GiveUpMisereModel(40), **kw)
    mis, share = _misere_row(a)
    # about one deal in 40 unsolved widens the half-width by about 1.2 points, within
    # WIDEN_SHARE of the tolerance: the row samples on until the widened interval fits
    assert 0.01 < share < 0.05 and share / 2 <= WIDEN_SHARE * 0.05
    assert a.converged and (mis.ci_high - mis.ci_low) / 2 <= 0.05
    # stopping on the sampling error alone (no widening allowed for) stops sooner, short of it
    monkeypatch.setattr(sampling_module, "WIDEN_SHARE", 0.0)
    b = advise(LOW, max_samples=4000, play_model=GiveUpMisereModel(40), **kw)
    old, _ = _misere_row(b)
    assert old.samples < mis.samples and (old.ci_high - old.ci_low) / 2 > 0.05
    assert not b.converged
    # a run the deal cap stops says so
    c = advise(LOW, max_samples=64, play_model=GiveUpMisereModel(40), **kw)
    assert c.stopped == "max_samples" and not c.converged
    assert "the cap of 64 deals came first (--max-samples)" in advice_text(c)


class NoisyHighCardModel(PlayModel):
    """A cheap fake whose results depend on the side's high cards and on deal-seeded noise."""

    name = "fake-noisy"
    note = "fake model for tests"

    def tricks(self, deals, *, trump, leader, declarers, misere):
        d = np.asarray(deals).astype(np.int64)
        score = np.maximum(d % 13 - 8, 0)[:, list(declarers), :].sum(axis=(1, 2)).astype(float)
        weights = np.arange(1, 14)[None, None, :] * np.array([7, 11, 13, 17])[None, :, None]
        noise = ((d * weights).sum(axis=(1, 2)) * 2654435761 % 1000) / 1000 * 8
        return np.where(score + noise > 25, 13, 0).astype(np.int8)


def test_control_variate_estimate_on_known_relations():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(400, 3))
    mu = np.array([0.5, 0.0, -0.2])
    controls = Controls(x=x, mean=mu, cov=np.eye(3), n_aux=10**9)
    # y exactly linear in the features: the corrected mean is exact and its error vanishes
    y = 2.0 + x @ np.array([1.0, -3.0, 0.5])
    est, se = cv_mean(y, x, controls)
    assert (
        est == pytest.approx(2.0 + mu @ np.array([1.0, -3.0, 0.5])) and se < 1e-3
    )  # only the means' error
    # features unrelated to y: about the plain mean and its standard error
    z = rng.normal(size=400)
    est, se = cv_mean(z, x, controls)
    assert abs(est - z.mean()) < 3 * z.std() / 20 and se == pytest.approx(
        z.std(ddof=1) / 20, rel=0.05
    )
    assert cv_mean(z[:50], x[:50], controls) is None  # too few deals
    # the features: high-card points per suit and three suit lengths of two other hands
    deals = np.asarray(DealSampler(LOW, seat="third", turnup="KH", seed=1).draw(5))
    f = deal_features(deals, 2)
    assert (
        f.shape == (5, N_FEATURES)
        and (f[:, :4].sum(axis=1) <= 37).all()
        and (f[:, 4:7].sum(axis=1) <= 13).all()
    )
    # the other hands' controls (ace 2, king 1): all 12 of the pack, since LOW holds none
    assert (f[:, 39:42].sum(axis=1) == 12).all()
    # with hearts trumps: the trump columns follow the other hands' heart lengths
    f = deal_features(deals, 2, trump=1)
    hearts = np.stack([((deals[:, q] // 13) == 1).sum(axis=1) for q in (0, 1, 3)], axis=1)
    assert (f[:, 42:45] == hearts**2).all() and (deal_features(deals, 2)[:, 42:] == 0).all()


def _features_reference(deals, seat, trump=None):
    """:func:`deal_features` in plain numpy, column by column as its docstring says."""
    n = deals.shape[0]
    others = [q for q in range(4) if q != seat]
    suit = deals[:, others, :] // 13
    rank = deals[:, others, :] % 13
    hcp = np.maximum(rank - 8, 0)
    length = np.stack([(suit == s).sum(axis=2) for s in range(4)], axis=2)
    points = np.stack([np.where(suit == s, hcp, 0).sum(axis=2) for s in range(4)], axis=2)
    shortest = length.min(axis=2)
    trumps = np.zeros_like(shortest) if trump is None else length[:, :, trump]
    cols = [
        points[:, :2, :].reshape(n, 8),
        length[:, :2, :3].reshape(n, 6),
        length.max(axis=1),
        length.min(axis=1),
        (length == 0).sum(axis=1),
        points.max(axis=1),
        points.sum(axis=2) ** 2,
        shortest,
        np.where(shortest <= 1, trumps, 0),
        2 * (rank == 12).sum(axis=2) + (rank == 11).sum(axis=2),
        trumps**2,
        np.maximum(trumps - 1, 0) * (3 - np.minimum(shortest, 3)),
    ]
    return np.concatenate(cols, axis=1).astype(float)


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_deal_features_match_their_definition(seat):
    hand = "AKJ94.K83.Q72.65"
    deals = np.asarray(DealSampler(hand, seat=seat, turnup=None, seed=seat).draw(300))
    assert deal_features(deals[:0], seat).shape == (0, N_FEATURES)
    for trump in (None, 0, 3):
        got = deal_features(deals, seat, trump)
        assert got.dtype == np.float64 and got.shape == (300, N_FEATURES)
        np.testing.assert_array_equal(got, _features_reference(deals, seat, trump))


def _synthetic_controls(rng, n_aux=100_000):
    """Controls whose stream is ``n_aux`` draws of three standard normal features."""
    xa = rng.normal(size=(n_aux, 3))
    mean, cov = xa.mean(axis=0), np.cov(xa, rowvar=False)
    scale = np.sqrt(np.diag(cov))
    return Controls(
        x=np.zeros((0, 3)),
        mean=mean,
        cov=cov,
        n_aux=n_aux,
        za=((xa - mean) / scale).astype(np.float32),
        scale=scale,
    )


def _saturating(x, rng):
    """A 0 / 1 result that a threshold on the features decides (a linear fit misses the bend)."""
    return (x[:, 0] + 0.6 * x[:, 1] + 0.3 * rng.normal(size=len(x)) > 0.9).astype(float)


def test_logistic_fit_recovers_a_logistic_relation():
    rng = np.random.default_rng(5)
    z = rng.normal(size=(20_000, 2))
    y = (rng.random(20_000) < 1 / (1 + np.exp(-(-0.5 + 2.0 * z[:, 0] - 1.0 * z[:, 1])))).astype(
        float
    )
    w = logit_fit(z, y)  # the ridge penalty barely matters with this many deals
    assert w == pytest.approx([-0.5, 2.0, -1.0], abs=0.1)


def test_logistic_control_is_cross_fitted_and_centred():
    rng = np.random.default_rng(6)
    controls = _synthetic_controls(rng)
    x = rng.normal(size=(400, 3))
    y = _saturating(x, rng)
    h, cov_xh, var_h = logit_control(y, x, controls)
    assert h.shape == (400,) and cov_xh.shape == (3,) and var_h > 0
    # the prediction follows the result (positively correlated) ...
    assert np.corrcoef(h, y)[0, 1] > 0.5
    # ... and each deal's comes from a model fitted without it: changing the results of fold 0
    # leaves fold 0's predictions as they were, and changes the others'
    y2 = y.copy()
    y2[::4] = 1 - y2[::4]
    h2, _, _ = logit_control(y2, x, controls)
    assert np.allclose(h2[::4], h[::4]) and not np.allclose(h2[1::4], h[1::4])
    assert logit_control(np.ones(400), x, controls) is None  # nothing to predict


def test_logistic_control_narrows_and_covers():
    """On a saturating 0 / 1 relation the logistic column narrows the linear intervals.

    The cross-fitted logistic column narrows the intervals of the linear correction, and about
    95 % of them still hold the exact rate (500 samples).
    """
    rng = np.random.default_rng(8)
    controls = _synthetic_controls(rng)
    linear = Controls(x=controls.x, mean=controls.mean, cov=controls.cov, n_aux=controls.n_aux)
    truth = float(_saturating(rng.normal(size=(2_000_000, 3)), rng).mean())
    hits, ratio = 0, []
    for _ in range(500):
        x = rng.normal(size=(500, 3))
        y = _saturating(x, rng)
        est, se = cv_mean(y, x, controls)
        _, se_linear = cv_mean(y, x, linear)
        hits += abs(est - truth) <= 1.96 * se
        ratio.append(se / se_linear)
    assert 0.925 <= hits / 500 <= 0.975
    assert np.mean(ratio) < 0.9


def test_control_variates_narrow_the_intervals_and_keep_the_rate():
    kw = dict(
        seat="second",
        turnup="7S",
        samples=512,
        seed=3,
        play_model=NoisyHighCardModel(),
        contracts=["prop"],
    )
    a = advise("AKJ94.K83.Q72.65", **kw)
    b = advise("AKJ94.K83.Q72.65", control_variates=False, **kw)
    fa, fb = a.table[a.table.choice == "fixed"], b.table[b.table.choice == "fixed"]
    assert a.control_variates and not b.control_variates
    assert (fa.p_raw.values == fb.p_make.values).all()  # p_raw is the plain rate either way
    assert ((fa.ci_high - fa.ci_low) < 0.85 * (fb.ci_high - fb.ci_low)).all()
    # against the exact rates (400,000 deals): inside every interval, and closer than the plain
    # rates
    big = DealSampler("AKJ94.K83.Q72.65", seat="second", turnup="7S", seed=999).draw(400_000)
    seats = {"eldest": 0, "third": 2, "dealer": 3}
    truth = np.array(
        [
            (
                NoisyHighCardModel().tricks(
                    big, trump=0, leader=0, declarers=tuple(sorted((1, seats[q]))), misere=False
                )
                == 13
            ).mean()
            for q in fa.partner
        ]
    )
    assert ((fa.ci_low.values <= truth) & (truth <= fa.ci_high.values)).all()
    assert abs(fa.p_make.values - truth).sum() < abs(fa.p_raw.values - truth).sum()
    assert json.loads(a.to_json())["control_variates"] is True


def test_control_variates_follow_the_constraints():
    from solo_analysis.sampler import Constraints

    # eldest holds 18+ points on every deal (about 2 % of candidates, so a smaller stream
    # estimates the features' means): it is drawn under the same constraint, else the
    # correction (the fake model goes by the side's points) would be far off
    cons = Constraints(hcp={"eldest": (18, None)})
    kw = dict(
        seat="second",
        turnup="7S",
        samples=256,
        seed=3,
        play_model=NoisyHighCardModel(),
        contracts=["prop"],
        constraints=cons,
    )
    a = advise("AKJ94.K83.Q72.65", **kw)
    fixed = a.table[a.table.choice == "fixed"]
    assert a.control_variates and (abs(fixed.p_make - fixed.p_raw) < 0.06).all()


@pytest.mark.slow
def test_control_variate_intervals_cover_the_true_rate():
    """About 95 % of the corrected intervals hold the exact rate (fake model, 3 rows x 150 runs)."""
    from solo_analysis.sampler import DealSampler

    hand, model = "AKJ94.K83.Q72.65", NoisyHighCardModel()
    big = DealSampler(hand, seat="second", turnup="7S", seed=999).draw(1_000_000)
    truth = {
        p: float(
            (
                model.tricks(big, trump=0, leader=0, declarers=tuple(sorted((1, p))), misere=False)
                == 13
            ).mean()
        )
        for p in (0, 2, 3)
    }
    names = {"eldest": 0, "third": 2, "dealer": 3}
    hits = total = 0
    for seed in range(150):
        a = advise(
            hand,
            seat="second",
            turnup="7S",
            samples=192,
            seed=seed,
            play_model=model,
            contracts=["prop"],
        )
        for _, r in a.table[a.table.choice == "fixed"].iterrows():
            hits += r.ci_low <= truth[names[r.partner]] <= r.ci_high
            total += 1
    assert 0.92 <= hits / total <= 0.98


def test_json_and_csv_structure(spades):
    doc = json.loads(spades.to_json())
    for key in (
        "hand",
        "seat",
        "turnup",
        "rules",
        "samples",
        "seed",
        "play_model",
        "contracts",
        "recommendation",
    ):
        assert key in doc
    assert doc["hand"] == SPADES and doc["turnup"] == "2H" and doc["samples"] == 16
    row = doc["contracts"][0]
    for key in (
        "contract",
        "trump",
        "partner",
        "target",
        "p_make",
        "ci_low",
        "ci_high",
        "ev_units",
        "tricks_mean",
        "samples",
    ):
        assert key in row
    assert (
        doc["recommendation"]["contract"] == "declared"
        and doc["recommendation"]["ev_units"] == 24.0
    )
    lines = spades.to_csv().strip().splitlines()
    assert len(lines) == 1 + len(spades.table)
    assert lines[0].split(",")[:2] == ["row", "contract"] and set(row) == set(lines[0].split(","))
    assert "<table" in spades._repr_html_()
    assert repr(spades).startswith("<Advice") and "declared" in repr(spades)
    assert spades.to_frame() is not spades.table


def test_wilson_matches_scipy():
    stats = pytest.importorskip("scipy.stats")
    for k, n in [(0, 16), (16, 16), (7, 20), (500, 1000)]:
        low, high = wilson_interval(k / n, n)
        ref = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        assert low == pytest.approx(ref.low, abs=1e-9) and high == pytest.approx(ref.high, abs=1e-9)


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(seat="nord"), SeatError),
        (dict(turnup="2S"), TurnupError),  # in the player's hand, not the dealer's
        (dict(turnup=None), TurnupError),
        (dict(turnup="ZZ"), SoloAnalysisError),
        (dict(rules="nosuch"), RuleSetError),
        (dict(over="nosuch"), ContractError),
        (dict(samples=0), AdviceError),
        (dict(tolerance=0), AdviceError),
        (dict(tolerance=0.9), AdviceError),
        (dict(max_samples=-1), AdviceError),
        (dict(play_model="psychic"), PlayModelError),
        (dict(seed=-1), SamplingError),
        (dict(contracts=["nosuch"]), ContractError),
        (dict(max_seconds=0), AdviceError),
        (dict(max_seconds="5"), AdviceError),
        (dict(max_seconds=float("nan")), AdviceError),
        (dict(max_seconds=5), AdviceError),  # with samples
        (dict(stop_on="bid"), AdviceError),  # with samples
        (dict(stop_on="sometimes", samples=None), AdviceError),
        (dict(stop_on=None, samples=None), AdviceError),
    ],
)
def test_bad_input_raises_one_line_errors(kwargs, error):
    args = dict(seat="second", turnup="2H", samples=4, seed=1, play_model=HighCardModel())
    args.update(kwargs)
    with pytest.raises(error) as info:
        advise(SPADES, **args)
    assert "\n" not in str(info.value)


def test_bad_hand():
    with pytest.raises(SoloAnalysisError):
        advise("AKQ", seat="second", turnup="2H", samples=4)


def test_misere_known_answer_with_the_solver():
    """The lowest cards make Misère and Spread Misère on every deal (real double-dummy solver)."""
    a = advise(
        LOW, seat="second", turnup="KH", samples=16, seed=1, contracts=["misere", "spread-misere"]
    )
    assert list(a.table.p_make) == [1.0, 1.0]
    assert a.recommendation == "spread-misere"


def test_double_dummy_is_the_default_model():
    assert isinstance(DoubleDummy(), PlayModel)
    assert Advice.__dataclass_fields__["play_model"]
    assert not math.isnan(wilson_interval(0.5, 10)[0])


class HonoursModel(PlayModel):
    """A cheap fake whose results vary by deal.

    One trick per ace, king and queen the declarer side holds, plus one per two of them in the
    hand opposite its first seat.
    """

    name = "fake-honours"
    note = "fake model for tests"

    def tricks(self, deals, *, trump, leader, declarers, misere):
        honours = (deals % 13) >= 10
        own = honours[:, list(declarers), :].reshape(len(deals), -1).sum(axis=1)
        opposite = honours[:, (declarers[0] + 2) % 4, :].sum(axis=1) // 2
        return np.minimum(own + opposite, 13).astype(np.int8)


def _prop_any(seed, samples=128):
    a = advise(
        LOW,
        seat="second",
        turnup="7S",
        samples=samples,
        seed=seed,
        play_model=HonoursModel(),
        contracts=["prop"],
    )
    return a, a.table[a.table.choice == "any"].iloc[0]


def test_units_of_prop_any_follow_its_rate():
    # seed 2: 9 1/3 makes in 128 deals, too few for the control variates, so the rate is the
    # plain one; the units were corrected all the same, and the row's two figures disagreed
    _, row = _prop_any(2)
    assert row.p_raw * 128 < 10 and row.p_make == row.p_raw
    # classic Prop and Cop: +2 / -2 to each partner, so units = -2 + 4 * rate, row by row
    assert row.ev_units == pytest.approx(-2 + 4 * row.p_make)
    assert (row.ev_low, row.ev_high) == pytest.approx((-2 + 4 * row.ci_low, -2 + 4 * row.ci_high))
    assert not row.corrected
    # seed 1: 12 1/3 makes, both corrected by the same control variates, still in step
    _, row = _prop_any(1)
    assert row.corrected and row.ev_units == pytest.approx(-2 + 4 * row.p_make)
    assert row.ev_low <= row.ev_units <= row.ev_high and -2 <= row.ev_low and row.ev_high <= 2


def test_few_deals_give_bounds_that_hold():
    # one deal: the units of Prop (any) were -inf .. +inf; four alike: of zero width
    for samples in (1, 4):
        a = advise(
            "AKQJT9.AK.AK2.32",
            seat="eldest",
            turnup="7H",
            samples=samples,
            seed=1,
            contracts=["prop"],
        )
        for rec in a.table.to_dict("records"):
            assert -2 <= rec["ev_low"] < rec["ev_high"] <= 2, rec
            assert 0 <= rec["ci_low"] < rec["ci_high"] <= 1, rec
            assert rec["ev_low"] <= rec["ev_units"] <= rec["ev_high"]
        row = a.table[a.table.choice == "any"].iloc[0]
        assert (row.ev_low, row.ev_high) == pytest.approx(
            (-2 + 4 * row.ci_low, -2 + 4 * row.ci_high)
        )
        assert all(math.isfinite(m) for m in a.margin) and a.margin[1] < a.margin[2]


def test_range_interval_and_mean_bounds():
    from solo_analysis.stats import alike_interval, mean_bounds, range_interval

    # a two-valued settlement: Wilson's interval of the rate, mapped onto the units
    low, high = wilson_interval(0.25, 8)
    assert range_interval(-1.0, 8, -2.0, 2.0) == pytest.approx((-2 + 4 * low, -2 + 4 * high))
    assert range_interval(math.nan, 0, -2.0, 2.0) == (-2.0, 2.0)  # no deals: the whole range
    assert range_interval(3.0, 5, 3.0, 3.0) == (3.0, 3.0)  # one possible value: exact
    # one deal, or every deal alike: Wilson on the range, never infinite or of zero width
    for y in (np.array([2.0]), np.full(4, 2 / 3)):
        mean, lo, hi, corrected = mean_bounds(y, None, None, -2.0, 2.0)
        assert not corrected and -2 < lo <= mean <= hi <= 2 and lo < hi
    # enough deals on both sides of the range: the plain normal interval, clipped to it
    rng = np.random.default_rng(1)
    y = rng.choice([-2.0, 2.0], size=400)
    mean, lo, hi, _ = mean_bounds(y, None, None, -2.0, 2.0)
    se = y.std(ddof=1) / math.sqrt(y.size)
    assert (lo, hi) == pytest.approx((mean - 1.959964 * se, mean + 1.959964 * se))
    assert mean_bounds(np.array([]), None, None, -9.0, 9.0)[1:3] == (-9.0, 9.0)
    # every deal alike: up to Wilson's share for none seen may take any value of the range
    q = wilson_interval(0.0, 16)[1]
    assert alike_interval(6.0, 16, -42.0, 42.0) == pytest.approx((6 - 48 * q, 6 + 36 * q))
    assert alike_interval(1.0, 0, -1.0, 2.0) == (-1.0, 2.0)


def test_recommended_trump_and_bid(spades):
    assert spades.recommendation == "declared"  # still the contract's name
    assert spades.recommended_trump == "S" and spades.recommended_bid == "declared (spades)"
    assert spades.table["recommended"].sum() == 1
    chosen = spades.table[spades.table["recommended"]].iloc[0]
    assert chosen["row"] == spades.recommended["row"] and bool(spades.recommended["recommended"])
    assert "declared (spades)" in repr(spades)
    doc = spades.to_dict()["recommendation"]
    assert doc["bid"] == "declared (spades)" and doc["runner_up"]["bid"] == "spread-misere"
    low = advise(LOW, seat="third", turnup="KH", samples=8, seed=1, play_model=HighCardModel())
    if low.recommended is None:
        assert low.recommended_trump is None and low.recommended_bid == "pass"
        assert not low.table["recommended"].any()
    solo = advise(
        SPADES, seat="second", turnup="2H", samples=4, seed=1, contracts=["solo", "misere"]
    )
    assert solo.recommended_bid in ("solo", "misere", "pass")  # a fixed trump is not named
