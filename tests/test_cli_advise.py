"""The ``advise`` command, run through ``solo_analysis.cli.main``."""

from __future__ import annotations

import csv
import io
import json

import pytest
from cli_helpers import assert_one_line_error, run

SPADES = "AKQJT98765432..."
BASE = [
    "advise",
    SPADES,
    "--seat",
    "second",
    "--turnup",
    "2H",
    "--samples",
    "8",
    "--seed",
    "5",
    "--contracts",
    "solo,abundance,declared",
]


def test_table(capsys):
    code, out, err = run(BASE, capsys)
    assert code == 0 and err == ""
    assert "♠ AKQJT98765432" in out  # the hand, with suit symbols
    assert "Bid Abundance Declared (♠): 100%" in out
    assert "Abundance (best)" in out and "68%-100%" in out
    assert "note: double-dummy" in out and "pessimistic" in out
    assert "deals: 8 (seed 5)" in out


def test_quiet(capsys):
    code, out, _err = run(BASE + ["--quiet"], capsys)
    assert (
        code == 0
        and out.strip().startswith("Bid Abundance Declared")
        and len(out.strip().splitlines()) == 1
    )


def test_json(capsys):
    code, out, _err = run(BASE + ["--format", "json"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert (
        doc["samples"] == 8
        and doc["seed"] == 5
        and doc["seat"] == "second"
        and doc["rules"] == "classic"
    )
    assert doc["recommendation"]["contract"] == "declared"
    assert {"contract", "trump", "partner", "p_make", "ci_low", "ci_high", "ev_units"} <= set(
        doc["contracts"][0]
    )


def test_control_variates_flag(capsys):
    code, out, _ = run(BASE + ["--format", "json"], capsys)
    assert code == 0 and json.loads(out)["control_variates"] is True
    code, out, _ = run(BASE + ["--format", "json", "--no-control-variates"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["control_variates"] is False
    assert all(r["p_make"] == r["p_raw"] for r in doc["contracts"])


def test_csv(capsys):
    code, out, _err = run(BASE + ["--format", "csv", "--over", "abundance"], capsys)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 10
    allowed = {r["contract"]: r["allowed"] for r in rows}
    assert allowed["solo"] == "False" and allowed["declared"] == "True"


@pytest.mark.parametrize(
    "argv",
    [
        ["advise", SPADES, "--seat", "nord", "--turnup", "2H"],
        ["advise", SPADES, "--seat", "second", "--turnup", "2S", "--samples", "4"],
        ["advise", SPADES, "--seat", "second", "--turnup", "XX", "--samples", "4"],
        ["advise", "AKQ", "--seat", "second", "--turnup", "2H", "--samples", "4"],
        ["advise", SPADES, "--seat", "second", "--turnup", "2H", "--rules", "nosuch"],
        ["advise", SPADES, "--seat", "second", "--turnup", "2H", "--over", "nosuch"],
        ["advise", SPADES, "--seat", "second", "--turnup", "2H", "--samples", "0"],
        ["advise", SPADES, "--seat", "second", "--turnup", "2H", "--tolerance", "2"],
        [
            "advise",
            SPADES,
            "--seat",
            "second",
            "--turnup",
            "2H",
            "--samples",
            "4",
            "--tolerance",
            "0.1",
        ],
        ["advise", SPADES, "--seat", "second", "--turnup", "2H", "--format", "xml"],
        [
            "advise",
            SPADES,
            "--seat",
            "second",
            "--turnup",
            "2H",
            "--samples",
            "4",
            "--max-seconds",
            "5",
        ],
        ["advise", SPADES, "--seat", "second", "--turnup", "2H", "--max-seconds", "0"],
        ["advise", SPADES, "--seat", "second", "--turnup", "2H", "--max-seconds", "soon"],
        [
            "advise",
            SPADES,
            "--seat",
            "second",
            "--turnup",
            "2H",
            "--samples",
            "4",
            "--max-positions",
            "9",
        ],
        ["advise", SPADES, "--seat", "second", "--turnup", "2H", "--max-positions", "-1"],
        ["advise", SPADES, "--turnup", "2H"],
    ],
)
def test_errors_are_one_line(argv, capsys):
    code, out, err = run(argv, capsys)
    assert_one_line_error(code, out, err)


def test_time_limit(capsys):
    # thirteen spades: every contract is settled by the first batch, long before the limit
    argv = [
        "advise",
        SPADES,
        "--seat",
        "second",
        "--turnup",
        "2H",
        "--seed",
        "5",
        "--max-seconds",
        "600",
        "--contracts",
        "solo,declared",
        "--format",
        "json",
    ]
    code, out, _ = run(argv, capsys)
    doc = json.loads(out)
    assert (
        code == 0
        and doc["max_seconds"] == 600
        and doc["stopped"] == "tolerance"
        and doc["converged"]
    )


def test_position_cap(capsys):
    from solo_analysis.advice import DEFAULT_MAX_POSITIONS

    # thirteen spades, Solo with hearts trumps: 0 of the first 64 deals make, an interval wider
    # than +-2 points (128 deals reach it, 1,680 positions); a cap of 500 positions stops it at 64
    argv = [
        "advise",
        SPADES,
        "--seat",
        "second",
        "--turnup",
        "2H",
        "--seed",
        "5",
        "--contracts",
        "solo",
        "--max-positions",
        "500",
    ]
    code, out, _ = run(argv, capsys)
    assert code == 0 and "deals: 64 (seed 5)" in out
    assert "the cap of 500 search positions came first (--max-positions 0: no cap)" in out
    code, out, _ = run(argv[:-1] + ["0", "--format", "json"], capsys)
    doc = json.loads(out)
    assert (
        code == 0
        and doc["stopped"] == "tolerance"
        and doc["max_positions"] is None
        and doc["samples"] > 64
    )
    code, out, _ = run(argv[:-2] + ["--format", "json"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["max_positions"] == DEFAULT_MAX_POSITIONS and doc["positions"] > 0
    code, out, _ = run(["advise", "--help"], capsys)
    assert code == 0 and f"default {DEFAULT_MAX_POSITIONS:,}" in " ".join(
        out.split()
    )  # the help tells the truth
