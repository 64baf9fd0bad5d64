"""The solver's limit on positions (``max_positions``); how the advice reports deals given up."""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_helpers import assert_one_line_error, run

from solo_analysis import advise, sample_deals
from solo_analysis.advice import AdviceError
from solo_analysis.errors import DealError
from solo_analysis.solver import solve_batch

HAND, SEAT, TURNUP = "AKJ94.K83.Q72.65", "second", "7S"
# Solo (5 tricks in spades) for this hand needs a few thousand positions on some of these deals
QUESTION = {"trump": "S", "leader": "eldest", "declarers": ["second"]}


@pytest.fixture(scope="module")
def deals() -> np.ndarray:
    return sample_deals(HAND, seat=SEAT, turnup=TURNUP, n=12, seed=5)


def test_budget_marks_the_deals_given_up_and_keeps_the_rest_exact(deals):
    exact = solve_batch(deals, **QUESTION, target=5)
    capped = solve_batch(deals, **QUESTION, target=5, max_positions=300)
    assert capped.dtype == np.int8
    assert set(np.unique(capped)) <= {-1, 0, 1}
    assert (capped < 0).any()  # 300 positions are too few for some full deals
    solved = capped >= 0
    assert np.array_equal(capped[solved].astype(bool), exact[solved])


def test_budget_on_exact_counts():
    rng = np.random.default_rng(3)
    endings = np.array([rng.permutation(52)[:28].reshape(4, 7) for _ in range(40)], dtype=np.int8)
    question = {"trump": "H", "leader": "N", "declarers": "E"}
    exact = solve_batch(endings, **question)
    capped = solve_batch(endings, **question, max_positions=60)
    assert (capped < 0).any() and (capped >= 0).any()
    solved = capped >= 0
    assert np.array_equal(capped[solved], exact[solved])
    roomy = solve_batch(endings, **question, max_positions=10**9)
    assert np.array_equal(roomy, exact)


@pytest.mark.parametrize("bad", [0, -5, True, 2.5, "many"])
def test_bad_budget_is_a_deal_error(deals, bad):
    with pytest.raises(DealError, match="max_positions"):
        solve_batch(deals, **QUESTION, target=5, max_positions=bad)


@pytest.fixture(scope="module")
def advices():
    kw = {
        "seat": SEAT,
        "turnup": TURNUP,
        "samples": 16,
        "seed": 5,
        "contracts": ["solo", "misere", "abundance"],
    }
    return (
        advise(HAND, max_question_positions=None, **kw),
        advise(HAND, max_question_positions=2000, **kw),
    )


def test_advice_counts_unresolved_deals_per_row(advices):
    exact, capped = advices
    assert exact.unresolved == 0 and (exact.table["unresolved"] == 0).all()
    assert capped.unresolved > 0 and capped.max_question_positions == 2000
    assert ((capped.table["samples"] + capped.table["unresolved"]) == 16).all()
    per_row = capped.table["unresolved"]
    assert per_row.max() <= capped.unresolved <= per_row.sum()
    assert "unsolved" in capped.summary()
    doc = json.loads(capped.to_json())
    assert doc["unresolved"] == capped.unresolved and doc["max_question_positions"] == 2000
    assert all("unresolved" in row for row in doc["contracts"])


def test_widened_intervals_cover_the_exact_answer(advices):
    exact, capped = advices
    for (_, e), (_, c) in zip(exact.table.iterrows(), capped.table.iterrows(), strict=False):
        assert c["ci_low"] - 1e-12 <= e["p_make"] <= c["ci_high"] + 1e-12, c["contract"]
        assert c["ev_low"] - 1e-9 <= e["ev_units"] <= c["ev_high"] + 1e-9, c["contract"]
        if c["unresolved"]:
            # wider than the interval of the same number of solved deals would be
            assert c["ci_high"] - c["ci_low"] > 0


def test_advise_rejects_a_bad_budget():
    with pytest.raises(AdviceError, match="max_question_positions"):
        advise(HAND, seat=SEAT, turnup=TURNUP, samples=4, max_question_positions=0)


def test_cli_budget(capsys):
    base = ["advise", HAND, "--seat", SEAT, "--turnup", TURNUP, "--samples", "16", "--seed", "5",
            "--contracts", "solo,misere"]  # fmt: skip
    code, out, err = run([*base, "--max-question-positions", "2000"], capsys)
    assert code == 0
    assert "not solved within 2,000 positions per question" in out
    code, out, err = run([*base, "--max-question-positions", "0"], capsys)  # no limit
    assert code == 0 and "not solved" not in out
    code, out, err = run([*base, "--max-question-positions", "-1"], capsys)
    assert_one_line_error(code, out, err, "--max-question-positions")


def test_budget_outcome_depends_on_the_deal_alone(deals):
    """Same answers (given up or not) whatever the order, batch size or thread of the deals."""
    question = dict(**QUESTION, target=5, max_positions=2000)
    together = solve_batch(deals, **question)
    one_by_one = np.concatenate(
        [solve_batch(deals[i : i + 1], **question) for i in range(len(deals))]
    )
    reversed_ = solve_batch(deals[::-1], **question)[::-1]
    assert (together < 0).any() and (together >= 0).any()
    assert np.array_equal(together, one_by_one)
    assert np.array_equal(together, reversed_)
