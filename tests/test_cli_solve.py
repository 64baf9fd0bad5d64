"""The ``solve``, ``leads`` and ``deal`` commands, run through ``solo_analysis.cli.main``.

Endings of 4-6 cards a hand keep the solver cheap.
"""

from __future__ import annotations

import json

import pytest
from cli_helpers import assert_one_line_error, run

from solo_analysis.cards import card_str
from solo_analysis.deal import Deal
from solo_analysis.sampler import random_deals
from solo_analysis.solver import solve, solve_leads

# 5-card endings whose opening leads do not all give the same result
ENDING = "N:5.K32..5 .J754..3 A.T.8.42 T7.8.QJ."  # ♥, N+S, E leads: 3C holds them to 1
MISERE = "N:K..9832. A8..4.65 2..Q.AQT T76.Q.6."  # NT misère by N, E leads: 4D gives N 4
SIX = "N:752.KJ8.. K843.Q9.. AQ9.AT.T. JT6.65.K."  # 6 cards each
FOUR = "N:QJT5... A92.Q.. 8743... K6.J2.."  # 4 cards each


# --- solve ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pbn", "trump", "leader", "declarers", "misere"),
    [
        (ENDING, "H", "E", "NS", False),
        (ENDING, "NT", "N", "N", False),
        (ENDING, "S", "W", "NE", False),
        (MISERE, "NT", "E", "N", True),
        (SIX, "H", "E", "NS", False),
        (FOUR, "C", "S", "W", False),
    ],
)
def test_solve_json_matches_solver(pbn, trump, leader, declarers, misere, capsys):
    argv = [
        "solve",
        pbn,
        "--trump",
        trump,
        "--leader",
        leader,
        "--declarers",
        declarers,
        "--format",
        "json",
    ]
    code, out, err = run(argv + (["--misere"] if misere else []), capsys)
    assert code == 0 and err == ""
    expected = solve(pbn, trump=trump, leader=leader, declarers=declarers, misere=misere)
    assert json.loads(out) == {"tricks": expected}


@pytest.mark.parametrize("misere", [False, True])
def test_solve_target_json(misere, capsys):
    pbn, declarers, trump = (MISERE, "N", "NT") if misere else (ENDING, "NS", "H")
    for target in range(6):
        argv = [
            "solve",
            pbn,
            "-t",
            trump,
            "-l",
            "E",
            "-d",
            declarers,
            "--target",
            str(target),
            "--format",
            "json",
        ]
        code, out, _err = run(argv + (["--misere"] if misere else []), capsys)
        assert code == 0
        expected = solve(
            pbn, trump=trump, leader="E", declarers=declarers, misere=misere, target=target
        )
        assert json.loads(out) == {"makes": expected}


def test_solve_table(capsys):
    code, out, err = run(
        ["solve", ENDING, "--trump", "H", "--leader", "E", "--declarers", "NS"], capsys
    )
    assert code == 0 and err == ""
    tricks = solve(ENDING, trump="H", leader="E", declarers="NS")
    assert tricks == 1
    assert "N+S take 1 trick in ♥ with E leading" in out
    assert "♥ K32" in out and "♦ -" in out  # N's hand laid out with suit symbols
    assert "Declarers N+S, trump ♥, E leads (5 cards each)" in out


def test_solve_table_misere_and_target(capsys):
    code, out, _ = run(["solve", MISERE, "-t", "NT", "-l", "E", "-d", "N", "--misere"], capsys)
    tricks = solve(MISERE, trump="NT", leader="E", declarers="N", misere=True)
    assert code == 0 and f"Misère by N: declarer takes {tricks} tricks" in out
    code, out, _ = run(["solve", ENDING, "-t", "H", "-l", "E", "-d", "NS", "--target", "2"], capsys)
    makes = solve(ENDING, trump="H", leader="E", declarers="NS", target=2)
    assert code == 0 and f"N+S can make 2: {'yes' if makes else 'no'}" in out


# --- leads ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pbn", "trump", "leader", "declarers", "misere", "maximise"),
    [
        (ENDING, "H", "E", "NS", False, False),  # defender leads: fewest declarer tricks
        (ENDING, "H", "N", "NS", False, True),  # declarer side leads: most
        (MISERE, "NT", "E", "N", True, True),  # misère, defender leads: most of N's tricks
        (MISERE, "NT", "N", "N", True, False),  # misère, declarer leads: fewest
        (SIX, "S", "W", "NE", False, False),
    ],
)
def test_leads_json(pbn, trump, leader, declarers, misere, maximise, capsys):
    argv = [
        "leads",
        pbn,
        "--trump",
        trump,
        "--leader",
        leader,
        "--declarers",
        declarers,
        "--format",
        "json",
    ]
    code, out, err = run(argv + (["--misere"] if misere else []), capsys)
    assert code == 0 and err == ""
    doc = json.loads(out)
    expected = solve_leads(pbn, trump=trump, leader=leader, declarers=declarers, misere=misere)
    best = (max if maximise else min)(expected.values())
    assert doc["leader"] == leader
    assert doc["leads"] == [
        {"card": card_str(c), "tricks": t, "best": t == best} for c, t in expected.items()
    ]
    assert list(expected) == list(Deal.from_pbn(pbn)[leader].codes)


def test_leads_best_cards(capsys):
    code, out, _ = run(
        ["leads", ENDING, "-t", "H", "-l", "E", "-d", "NS", "--format", "json"], capsys
    )
    best = [lead["card"] for lead in json.loads(out)["leads"] if lead["best"]]
    assert code == 0 and best == ["3C"]
    code, out, _ = run(
        ["leads", MISERE, "-t", "NT", "-l", "E", "-d", "N", "--misere", "--format", "json"], capsys
    )
    best = [lead["card"] for lead in json.loads(out)["leads"] if lead["best"]]
    assert code == 0 and best == ["4D"]


def test_leads_table(capsys):
    code, out, err = run(["leads", ENDING, "-t", "H", "-l", "E", "-d", "NS"], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert any(line.split() == ["*", "3♣", "1"] for line in lines)
    assert any(line.split() == ["J♥", "2"] for line in lines)
    assert any(line.split() == ["7♥", "3"] for line in lines)
    assert "best for E (defender): fewest tricks for N+S" in out


# --- deal -------------------------------------------------------------------------------


def test_deal_reproducible(capsys):
    code, out, err = run(["deal", "--seed", "7", "--n", "3"], capsys)
    assert code == 0 and err == ""
    lines = out.strip().splitlines()
    expected = [Deal.from_array(a).to_pbn() for a in random_deals(3, 7)]
    assert lines == expected
    for line in lines:
        deal = Deal.from_pbn(line)
        assert line.startswith("N:") and deal.n_cards == 13
    _, again, _ = run(["deal", "--seed", "7", "--n", "3"], capsys)
    assert again == out


def test_deal_default_and_json(capsys):
    code, out, err = run(["deal"], capsys)
    assert code == 0 and err == "" and len(out.strip().splitlines()) == 1
    assert Deal.from_pbn(out.strip()).n_cards == 13
    code, out, _ = run(["deal", "--seed", "3", "-n", "2", "--format", "json"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["seed"] == 3
    assert doc["deals"] == [Deal.from_array(a).to_pbn() for a in random_deals(2, 3)]


# --- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "garbage", "-t", "H", "-l", "E", "-d", "NS"],  # bad PBN
        [
            "solve",
            "N:5.K32..5 .J754..3 A.T.8.4Z T7.8.QJ.",
            "-t",
            "H",
            "-l",
            "E",
            "-d",
            "NS",
        ],  # bad card
        [
            "solve",
            "N:5.K32..5 .J754..3 A.T.8.42 T7.8.QJ.5",
            "-t",
            "H",
            "-l",
            "E",
            "-d",
            "NS",
        ],  # duplicate
        [
            "solve",
            "N:5.K32..5 .J754..3 A.T.8.42 T7.8.QJ.2",
            "-t",
            "H",
            "-l",
            "E",
            "-d",
            "NS",
        ],  # unequal hands
        ["solve", ENDING, "-t", "X", "-l", "E", "-d", "NS"],  # unknown trump
        ["solve", ENDING, "-t", "H", "-l", "Q", "-d", "NS"],  # bad leader
        ["solve", ENDING, "-t", "H", "-l", "E", "-d", "NX"],  # bad declarer seat
        ["solve", ENDING, "-t", "H", "-l", "E", "-d", "NN"],  # repeated seat
        ["solve", ENDING, "-t", "H", "-l", "E", "-d", "NES"],  # three seats
        [
            "solve",
            ENDING,
            "-t",
            "H",
            "-l",
            "E",
            "-d",
            "NS",
            "--misere",
        ],  # misère with two declarers
        ["solve", ENDING, "-t", "H", "-l", "E", "-d", "NS", "--target", "6"],  # target out of range
        ["solve", ENDING, "-t", "H", "-l", "E", "-d", "NS", "--target", "-1"],
        ["solve", ENDING, "-t", "H", "-l", "E", "-d", "NS", "--target", "x"],  # not an int
        ["solve", ENDING, "-l", "E", "-d", "NS"],  # missing trump
        ["solve", ENDING, "-t", "H", "-l", "E", "-d", "NS", "--format", "xml"],
        ["leads", "garbage", "-t", "H", "-l", "E", "-d", "NS"],
        ["leads", ENDING, "-t", "H", "-l", "E", "-d", "NS", "--misere"],
        ["leads", ENDING, "-t", "Z", "-l", "E", "-d", "N"],
        ["deal", "--seed", "-1"],
        ["deal", "--n", "0"],
        ["deal", "--format", "table"],
    ],
)
def test_bad_input_one_line(argv, capsys):
    assert_one_line_error(*run(argv, capsys))
