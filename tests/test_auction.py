"""The auction's procedure, the bidding policy, and the advice inside an auction."""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_helpers import assert_one_line_error, run

from solo_analysis import advise
from solo_analysis.bidding import COP, PASS, Auction, Call, parse_auction
from solo_analysis.bidding.policy import (
    POLICY_FEATURES,
    FittedPolicy,
    auction_predicate,
    consistent,
    default_policy,
    finish,
)
from solo_analysis.errors import AdviceError, AuctionError, PolicyError
from solo_analysis.rules import load_rules
from solo_analysis.sampler import Constraints, DealSampler

CLASSIC = load_rules("classic")
FRENCH = load_rules("french")
HAND = "AKJ94.K83.Q72.65"
TURNUP_7S = 5  # the seven of spades: suit 0, rank index 5


# ---------------------------------------------------------------------------- the procedure
def test_first_call_may_be_anything() -> None:
    a = Auction(CLASSIC)
    assert a.next_seat == 0 and not a.over
    assert a.legal_calls() == [PASS, *CLASSIC.contract_names]


def test_calls_go_clockwise_and_only_higher() -> None:
    a = Auction(CLASSIC, "eldest:solo")
    assert a.next_seat == 1
    assert a.legal_calls() == [PASS] + [
        n for n in CLASSIC.contract_names if n not in ("prop", "solo")
    ]


def test_cop_accepts_an_open_prop_of_another_player() -> None:
    a = Auction(CLASSIC, "eldest:prop second:pass")
    assert a.next_seat == 2 and a.proposer == 0
    assert COP in a.legal_calls() and "prop" not in a.legal_calls()
    a.add(Call(2, COP))
    assert a.holders == (0, 2) and not a.open_prop
    assert a.next_seat == 3 and COP not in a.legal_calls()
    a.add(Call(3, PASS))
    assert a.over
    contract, side = a.result()
    assert contract is not None and contract.name == "prop" and side == (0, 2)


def test_holders_are_skipped_and_an_overcall_reopens_them() -> None:
    a = Auction(CLASSIC, "eldest:prop second:cop third:solo dealer:pass")
    # eldest and second held Prop and Cop; Solo overcalls it, so eldest calls again
    assert a.next_seat == 0
    a.add(Call(0, PASS))
    assert a.next_seat == 1
    a.add(Call(1, PASS))
    assert a.over and a.result()[1] == (2,)


def test_unaccepted_prop_and_four_passes_throw_the_hand_in() -> None:
    assert Auction(CLASSIC, "eldest:prop second:pass third:pass dealer:pass").result() == (None, ())
    assert Auction(CLASSIC, "eldest:pass second:pass third:pass dealer:pass").result() == (None, ())
    with pytest.raises(AuctionError, match="not over"):
        Auction(CLASSIC, "eldest:pass").result()


def test_passing_is_final() -> None:
    a = Auction(CLASSIC, "eldest:pass second:solo third:pass dealer:misere")
    assert a.next_seat == 1  # eldest and third passed
    with pytest.raises(AuctionError, match="out of turn: second is to call"):
        a.add(Call(0, "abundance"))


def test_french_late_cop_and_raise() -> None:
    a = Auction(FRENCH, "eldest:pass second:prop third:pass dealer:pass")
    assert a.next_seat == 0 and a.legal_calls() == [PASS, COP]
    b = a.then([Call(0, COP)])
    assert b.over and b.result()[1] == (0, 1)
    c = a.then([Call(0, PASS)])
    # nobody accepted: the proposer may raise to Solo or higher
    assert c.next_seat == 1 and c.legal_calls()[:2] == [PASS, "solo"] and COP not in c.legal_calls()
    d = c.then([Call(1, "solo")])
    assert d.over and d.result()[0] is not None and d.result()[0].name == "solo"
    assert c.then([Call(1, PASS)]).result() == (None, ())
    # the classic procedure has neither exception
    assert Auction(CLASSIC, "eldest:pass second:prop third:pass dealer:pass").over


@pytest.mark.parametrize(
    ("calls", "message"),
    [
        ("second:pass", "out of turn: eldest is to call"),
        ("eldest:solo second:prop", "second:prop is not allowed: the highest bid is solo"),
        ("eldest:cop", "no open Prop"),
        ("eldest:prop second:pass third:pass dealer:pass eldest:solo", "already over"),
        ("eldest:grand", "unknown call 'grand'"),
        ("eldest", "must be seat:call"),
        ("north-west:pass", "unknown seat"),
    ],
)
def test_bad_auctions_are_one_line_errors(calls: str, message: str) -> None:
    with pytest.raises(AuctionError, match=message) as err:
        Auction(CLASSIC, calls)
    assert "\n" not in str(err.value)


def test_auction_forms_and_spellings() -> None:
    text = parse_auction("N:Misère, E:p;S:misere-ouverte", CLASSIC)
    pairs = parse_auction([("eldest", "misere"), (1, "pass"), ("third", "spread misere")], CLASSIC)
    assert text == pairs == [Call(0, "misere"), Call(1, PASS), Call(2, "spread-misere")]
    assert parse_auction(None, CLASSIC) == []
    with pytest.raises(AuctionError, match="without Prop"):
        parse_auction("eldest:cop", CLASSIC.with_options(prop=False))


def test_the_auction_option_is_checked_and_round_trips() -> None:
    from solo_analysis.errors import RuleSetError

    with pytest.raises(RuleSetError, match="auction must be one of"):
        CLASSIC.with_options(auction="german")
    assert 'auction = "french"' in FRENCH.to_toml()
    assert "auction" not in CLASSIC.to_toml()  # the default is left out of stored tables' text


# ---------------------------------------------------------------------------- the policy
def _deals(n: int = 400, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    deals = DealSampler(HAND, seat="third", turnup="7S", seed=seed).draw(n)
    return deals, np.full(n, TURNUP_7S)


def test_default_policy_has_a_model_per_contract_and_its_fit() -> None:
    policy = default_policy()
    assert set(policy.coefficients) >= {"prop", "solo", "misere", "abundance"}
    for name, stats in policy.source["models"].items():
        assert stats["hands_fitted"] > 10_000, name
        assert stats["log_loss"] <= stats["log_loss_intercept_only"] + 1e-6, name
    deals, turnups = _deals(50)
    rates = policy.make_rates(deals, turnups)
    for p in rates.values():
        assert p.shape == (50, 4) and np.all((p >= 0) & (p <= 1))


def test_policy_files_are_checked(tmp_path) -> None:
    bad = tmp_path / "p.json"
    bad.write_text("{not json")
    with pytest.raises(PolicyError, match="cannot read"):
        FittedPolicy.from_file(bad)
    bad.write_text(json.dumps({"features": ["hcp"], "models": {}}))
    with pytest.raises(PolicyError, match="fitted on features"):
        FittedPolicy.from_file(bad)
    bad.write_text(
        json.dumps({"features": list(POLICY_FEATURES), "models": {"solo": {"coefficients": [1]}}})
    )
    with pytest.raises(PolicyError, match="bad coefficients"):
        FittedPolicy.from_file(bad)


def _toy(solo_above_hcp: int) -> FittedPolicy:
    """Solo made for sure above an HCP level, never below; nothing else."""
    coef = [0.0] * (len(POLICY_FEATURES) + 1)
    coef[0] = -20.0 * (solo_above_hcp + 0.5)
    coef[1 + POLICY_FEATURES.index("hcp")] = 20.0
    return FittedPolicy("toy", {"solo": tuple(coef)}, {})


def test_policy_calls_the_best_positive_contract_and_passes_otherwise() -> None:
    policy = _toy(12)
    deals, turnups = _deals(300)
    rates = policy.make_rates(deals, turnups)
    options, chosen = policy.calls(rates, Auction(CLASSIC), 0)
    hcp = np.array([[max(c % 13 - 8, 0) for c in deal[0]] for deal in deals]).sum(axis=1)
    assert np.array_equal(np.array(options)[chosen] == "solo", hcp > 12)
    assert set(np.array(options)[chosen]) <= {PASS, "solo"}


def test_a_seat_that_passed_never_holds_a_hand_the_policy_bids_with() -> None:
    policy = default_policy()
    auction = Auction(CLASSIC, "eldest:pass second:pass")
    pred = auction_predicate(policy, auction, 2, TURNUP_7S)
    deals = DealSampler(
        HAND, seat="third", turnup="7S", seed=5, constraints=Constraints(predicate=pred)
    ).draw(300)
    rates = policy.make_rates(deals, np.full(300, TURNUP_7S))
    for seat, before in ((0, Auction(CLASSIC)), (1, Auction(CLASSIC, "eldest:pass"))):
        options, chosen = policy.calls(rates, before, seat)
        assert all(options[k] == PASS for k in chosen)


def test_conditioned_deals_match_rejection_sampling() -> None:
    """Chi-square: second's suit-length pattern after 'eldest:pass second:pass', two ways."""
    policy = _toy(10)
    auction = Auction(CLASSIC, "eldest:pass second:pass")
    pred = auction_predicate(policy, auction, 2, TURNUP_7S)
    n = 3000
    conditioned = DealSampler(
        HAND, seat="third", turnup="7S", seed=11, constraints=Constraints(predicate=pred)
    ).draw(n)
    raw = DealSampler(HAND, seat="third", turnup="7S", seed=12).draw(4 * n)
    kept = raw[consistent(policy, raw, np.full(raw.shape[0], TURNUP_7S), auction, 2)]
    assert kept.shape[0] > n // 2

    def hcp_bins(deals: np.ndarray) -> np.ndarray:
        hcp = np.maximum(deals[:, 1, :] % 13 - 8, 0).sum(axis=1)
        return np.bincount(np.minimum(hcp, 10) // 2, minlength=6)

    a, b = hcp_bins(conditioned), hcp_bins(kept)
    # no more than 10 HCP for a seat that passed (the toy policy calls Solo with 11 or more)
    assert np.maximum(conditioned[:, 1, :] % 13 - 8, 0).sum(axis=1).max() <= 10
    table = np.array([a, b], dtype=float)
    table = table[:, table.sum(axis=0) > 0]
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0) / table.sum()
    chi2 = float(((table - expected) ** 2 / expected).sum())
    dof = table.shape[1] - 1
    # the 0.999 quantile of chi-square with up to 5 degrees of freedom is below 20.6
    assert chi2 < 20.6, (chi2, dof, table)


def test_finish_plays_the_rest_of_the_auction() -> None:
    policy = _toy(14)
    deals, turnups = _deals(64)
    rates = policy.make_rates(deals, turnups)
    ends = finish(policy, rates, Auction(CLASSIC, "eldest:pass second:pass"), [PASS])
    assert all(a.over for a in ends)
    dealer_hcp = np.maximum(deals[:, 3, :] % 13 - 8, 0).sum(axis=1)
    for a, h in zip(ends, dealer_hcp, strict=True):
        contract, side = a.result()
        assert (contract is not None and side == (3,)) == (h > 14)


# ---------------------------------------------------------------------------- the advice
def test_empty_auction_leaves_the_advice_unchanged() -> None:
    kwargs = {
        "seat": "eldest",
        "turnup": "7S",
        "seed": 4,
        "samples": 24,
        "contracts": ["solo", "misere"],
    }
    plain = advise(HAND, **kwargs)
    first = advise(HAND, auction=[], **kwargs)
    cols = ["contract", "p_make", "ci_low", "ci_high", "ev_units", "ev_low", "ev_high"]
    assert plain.table[cols].equals(first.table[cols])
    assert first.auction == "no calls yet" and first.acceptance is None
    assert first.passing is not None and first.passing.deals == 24
    assert first.proposing is None  # Prop was not asked for


def test_proposing_counts_the_chance_nobody_accepts() -> None:
    a = advise(HAND, seat="eldest", turnup="7S", seed=1, samples=32, auction=[], contracts=["prop"])
    p = a.proposing
    assert p is not None and p.call == "prop" and p.deals == 32
    keys = zip(p.outcomes["contract"], p.outcomes["declarer"], strict=True)
    shares = dict(zip(keys, p.outcomes["share"], strict=True))
    assert abs(sum(shares.values()) - 1) < 1e-9
    # thrown in (nobody accepted) is worth 0; an accepted Prop is played with its partner
    thrown = p.outcomes[p.outcomes["contract"] == "thrown in"]
    assert thrown.empty or float(thrown["units"].iloc[0]) == 0.0
    assert p.thrown_in == shares.get(("thrown in", "-"), 0.0)
    assert p.ev_low <= p.ev_units <= p.ev_high


def test_after_solo_prop_is_not_an_answer() -> None:
    a = advise(HAND, seat="second", turnup="7S", seed=2, samples=16, auction="eldest:solo")
    assert "prop" not in set(a.table["contract"]) and "solo" not in set(a.table["contract"])
    assert a.recommendation not in ("prop", "cop", "solo")
    assert a.legal_calls is not None and COP not in a.legal_calls
    assert a.acceptance is not None and 0 < a.acceptance < 1


def test_after_abundance_only_higher_calls_or_pass() -> None:
    a = advise(
        HAND,
        seat="second",
        turnup="7S",
        seed=2,
        samples=8,
        auction="eldest:abundance",
        auction_evidence=False,
    )
    rank = CLASSIC.contract("abundance").rank
    assert all(CLASSIC.contract(c).rank > rank for c in a.table["contract"])
    assert a.recommendation == "pass" or CLASSIC.contract(a.recommendation).rank > rank


def test_cop_is_prop_with_the_proposer() -> None:
    a = advise(
        HAND, seat="third", turnup="7S", seed=1, samples=24, auction="eldest:prop second:pass"
    )
    prop = a.table[a.table["contract"] == "prop"]
    assert list(prop["partner"]) == ["eldest"]
    if a.recommended is not None and a.recommended["contract"] == "prop":
        assert a.recommendation == "cop" and a.recommended_bid.startswith("cop")


def test_advice_auction_errors() -> None:
    with pytest.raises(AuctionError, match="not the next to call"):
        advise(HAND, seat="second", turnup="7S", samples=4, auction="eldest:pass second:pass")
    with pytest.raises(AuctionError, match="is over"):
        advise(
            HAND,
            seat="eldest",
            turnup="7S",
            samples=4,
            auction="eldest:solo second:pass third:pass dealer:pass",
        )
    with pytest.raises(AdviceError, match="not both"):
        advise(HAND, seat="second", turnup="7S", samples=4, over="solo", auction="eldest:solo")
    with pytest.raises(AuctionError, match="none of the contracts"):
        advise(HAND, seat="second", turnup="7S", samples=4, auction="eldest:solo", contracts="prop")


def test_too_rare_an_auction_fails_clearly() -> None:
    never = FittedPolicy("never", {"solo": tuple([-50.0] + [0.0] * len(POLICY_FEATURES))}, {})
    with pytest.raises(PolicyError, match="too rare to sample"):
        advise(HAND, seat="second", turnup="7S", samples=4, auction="eldest:solo", policy=never)


def test_cli_auction(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["advise", HAND, "--seat", "third", "--turnup", "7S", "--seed", "1", "--samples", "16"]
    code, out, err = run([*base, "--auction", "eldest:prop second:pass"], capsys)
    assert code == 0, err
    assert "auction: eldest:prop second:pass" in out and "if you pass" in out
    code, out, err = run([*base, "--auction", "eldest:prop third:pass"], capsys)
    assert_one_line_error(code, out, err, "out of turn")
    code, out, err = run(
        [*base, "--auction", "eldest:prop second:pass", "--format", "json"], capsys
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["auction"] == "eldest:prop second:pass" and "cop" in data["legal_calls"]
    assert data["passing"]["deals"] == 16


def test_inside_an_auction_realistic_defenders_read_the_bid_through_the_policy() -> None:
    from solo_analysis.advice.request import Request

    common = {
        "seat": "second",
        "turnup": "7S",
        "rules": "classic",
        "samples": 4,
        "seed": 1,
        "over": None,
        "constraints": None,
        "tolerance": 0.02,
        "max_samples": 100,
        "exact": None,
        "contracts": None,
        "max_question_positions": None,
        "control_variates": False,
        "max_seconds": None,
        "max_positions": None,
    }
    inside = Request.build(
        HAND, play_model="pimc", play_options=None, auction="eldest:pass", **common
    )
    assert inside.model.prior is default_policy()
    chosen = Request.build(
        HAND, play_model="pimc", play_options={"prior": "none"}, auction="eldest:pass", **common
    )
    assert chosen.model.prior == "none"
    outside = Request.build(HAND, play_model="pimc", play_options=None, **common)
    assert outside.model.prior == "default"


def test_compare_play_inside_an_auction_shows_it() -> None:
    from solo_analysis.advice import compare_play
    from solo_analysis.report.text import comparison_text

    comparison = compare_play(
        HAND,
        seat="second",
        turnup="7S",
        seed=2,
        samples=2,
        contracts=["solo"],
        auction="eldest:pass",
    )
    text = comparison_text(comparison)
    assert "auction: eldest:pass" in text and "deals agree" in text


def test_the_notebook_display_shows_the_auction_and_passing() -> None:
    a = advise(
        HAND,
        seat="third",
        turnup="7S",
        seed=1,
        samples=8,
        auction="eldest:prop second:pass",
        contracts=["prop"],
    )
    html = a._repr_html_()
    assert "auction: eldest:prop second:pass" in html and "if you pass" in html


def test_an_interrupt_while_passing_is_valued_keeps_the_advice(monkeypatch) -> None:
    from solo_analysis.advice import evaluate
    from solo_analysis.errors import Interrupted

    def stop(request, calls):
        raise KeyboardInterrupt

    monkeypatch.setattr(evaluate, "values_of_calls", stop)
    with pytest.raises(Interrupted) as info:
        advise(
            HAND,
            seat="second",
            turnup="7S",
            seed=1,
            samples=8,
            auction="eldest:pass",
            contracts=["solo"],
        )
    partial = info.value.partial
    assert partial is not None and partial.samples == 8 and partial.passing is None
    assert partial.stopped == "interrupted"


def test_policy_options_need_an_auction() -> None:
    with pytest.raises(AdviceError, match="inside an auction only"):
        advise(HAND, seat="second", turnup="7S", samples=4, policy="default")
    with pytest.raises(AdviceError, match="inside an auction only"):
        advise(HAND, seat="second", turnup="7S", samples=4, auction_evidence=False)
