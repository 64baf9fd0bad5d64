"""The ``rules`` and ``score`` commands, run through ``solo_analysis.cli.main``."""

from __future__ import annotations

import json

import pytest
from cli_helpers import assert_one_line_error, run


def test_rules_lists_presets(capsys):
    code, out, err = run(["rules"], capsys)
    assert code == 0 and err == ""
    for name in ("classic", "parlett", "french"):
        assert name in out
    assert "(default)" in out


def test_rules_list_json(capsys):
    code, out, _ = run(["rules", "--format", "json"], capsys)
    assert code == 0
    assert set(json.loads(out)) == {"classic", "parlett", "french"}


def test_rules_shows_ladder(capsys):
    code, out, _ = run(["rules", "classic"], capsys)
    assert code == 0
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("rank"))
    assert "trump" in header and "units" in header
    solo = next(line for line in lines if " solo " in line)
    assert "5+" in solo and "turnup" in solo and "+9" in solo
    abundance = next(line for line in lines if " abundance " in line)
    assert "declarer-new" in abundance
    # aligned columns: every table row as long as its header or shorter and the column starts
    # line up
    table = lines[lines.index(header) :]
    start = header.index("contract")
    assert all(row[start - 2 : start] == "  " for row in table[2:])


def test_rules_ladder_json(capsys):
    code, out, _ = run(["rules", "parlett", "--format", "json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert [c["name"] for c in data["contracts"]] == [
        "prop",
        "solo",
        "misere",
        "abundance",
        "royal-abundance",
        "spread-misere",
        "declared",
    ]
    assert data["contracts"][-1]["trump"] == "none"
    assert data["contracts"][1]["declarer_wins"] == 3


def test_rules_from_file(tmp_path, capsys):
    path = tmp_path / "gss.toml"
    path.write_text('base = "parlett"\nslams = true\n', encoding="utf-8")
    code, out, _ = run(["rules", str(path)], capsys)
    assert code == 0
    assert "petit-slam" in out and "grand-slam" in out and "declared " not in out


def test_score_table(capsys):
    code, out, err = run(["score", "solo", "--tricks", "6", "--declarer", "n"], capsys)
    assert code == 0 and err == ""
    assert "made" in out
    rows = {
        line.split()[0]: line.split()
        for line in out.splitlines()
        if line[:1] in "NESW" and len(line.split()) == 3
    }
    assert rows["N"] == ["N", "declarer", "+9"]
    assert rows["E"] == ["E", "defender", "-3"]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["score", "solo", "--tricks", "5", "--declarer", "N"],
            {"N": 9, "E": -3, "S": -3, "W": -3},
        ),
        (
            ["score", "abundance", "--tricks", "10", "--declarer", "S", "--rules", "french"],
            {"N": -3, "E": -3, "S": 9, "W": -3},
        ),
        (
            ["score", "abundance", "--tricks", "8", "--declarer", "S", "--rules", "french"],
            {"N": 3, "E": 3, "S": -9, "W": 3},
        ),
        (
            ["score", "prop", "--tricks", "8", "--declarer", "w", "--partner", "e"],
            {"N": -2, "E": 2, "S": -2, "W": 2},
        ),
        (
            ["score", "prop-and-cop", "-t", "7", "-d", "W", "-p", "N", "--rules", "parlett"],
            {"N": -1, "E": 1, "S": 1, "W": -1},
        ),
        (
            ["score", "Misère Ouverte", "-t", "0", "-d", "E", "--rules", "PARLETT"],
            {"N": -4, "E": 12, "S": -4, "W": -4},
        ),
    ],
)
def test_score_json(argv, expected, capsys):
    code, out, err = run(argv + ["--format", "json"], capsys)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data == expected
    assert list(data) == ["N", "E", "S", "W"]
    assert all(type(v) is int for v in data.values())


def test_score_fractional_stake_file(tmp_path, capsys):
    path = tmp_path / "beginners.toml"
    path.write_text("stake = 0.1\n", encoding="utf-8")
    code, out, _ = run(
        ["score", "solo", "-t", "5", "-d", "N", "--rules", str(path), "--format", "json"], capsys
    )
    assert code == 0
    data = json.loads(out)
    assert all(type(v) is float for v in data.values())
    assert data["N"] == pytest.approx(0.9) and data["W"] == pytest.approx(-0.3)


@pytest.fixture
def bad_toml(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("stake = [1\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "foo", "--tricks", "5", "--declarer", "N"],
        ["score", "solo", "--tricks", "5", "--declarer", "N", "--rules", "nope"],
        ["score", "solo", "--tricks", "5", "--declarer", "X"],
        ["score", "solo", "--tricks", "5", "--declarer", "N", "--partner", "S"],
        ["score", "prop", "--tricks", "8", "--declarer", "N"],
        ["score", "prop", "--tricks", "8", "--declarer", "N", "--partner", "n"],
        ["score", "prop", "--tricks", "8", "--declarer", "N", "--partner", "Z"],
        ["score", "solo", "--tricks", "14", "--declarer", "N"],
        ["score", "solo", "--tricks", "-1", "--declarer", "N"],
        ["score", "solo", "--tricks", "five", "--declarer", "N"],
        ["score", "solo", "--declarer", "N"],
        ["score", "solo", "--tricks", "5"],
        ["score", "solo", "--tricks", "5", "--declarer", "N", "--format", "xml"],
        ["score", "declared", "--tricks", "13", "--declarer", "N", "--rules", "BAD_TOML"],
        ["score", "solo", "--tricks", "5", "--declarer", "N", "--rules", "missing.toml"],
        ["rules", "nope"],
        ["rules", "BAD_TOML"],
    ],
)
def test_bad_arguments(argv, bad_toml, capsys):
    argv = [bad_toml if a == "BAD_TOML" else a for a in argv]
    assert_one_line_error(*run(argv, capsys))


def test_bad_contract_message_lists_names(capsys):
    _code, _, err = run(["score", "foo", "-t", "5", "-d", "N"], capsys)
    assert "'foo'" in err and "royal-abundance" in err


def test_contract_missing_from_rule_set(tmp_path, capsys):
    path = tmp_path / "straight.toml"
    path.write_text("prop = false\n", encoding="utf-8")
    code, out, err = run(
        ["score", "prop", "-t", "8", "-d", "N", "-p", "S", "--rules", str(path)], capsys
    )
    assert_one_line_error(code, out, err)
    assert "not in rule set" in err


def test_score_takes_seat_names_as_well_as_letters(capsys):
    code, out, err = run(["score", "solo", "--tricks", "5", "--declarer", "eldest"], capsys)
    assert code == 0 and err == ""
    assert "Solo (classic): 5 tricks, needs 5: made" in out
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[3:]}
    assert rows["N"] == ["declarer", "+9"] and rows["W"] == ["defender", "-3"]  # eldest is N
    code, out, _ = run(
        ["score", "prop", "-t", "8", "-d", "dealer", "-p", "second", "--format", "json"], capsys
    )
    assert code == 0 and json.loads(out) == {"N": -2, "E": 2, "S": -2, "W": 2}


def test_score_says_one_trick(capsys):
    code, out, _ = run(["score", "misere", "--tricks", "1", "--declarer", "S"], capsys)
    assert code == 0 and "1 trick, needs at most 0: defeated" in out


# every command's line in ``solo-analysis --help``: its whole short help, not cut at "(e.g."
COMMANDS = ["advise", "deal", "leads", "rules", "score", "solve", "table"]


@pytest.mark.parametrize("name", COMMANDS)
def test_help_gives_each_command_a_whole_line(name, capsys):
    code, out, _ = run(["--help"], capsys)
    assert code == 0
    line = next(x.strip() for x in out.splitlines() if x.strip().startswith(name + " "))
    text = line[len(name) :].strip()
    assert text.endswith(".") and not text.endswith("...") and "(e.g." not in text, line
    assert text[0].isupper() and len(line) <= 78


def test_help_lists_every_command():
    from solo_analysis.cli import COMMANDS as registered

    assert sorted(registered) == sorted(COMMANDS)
