"""tools/compare_dds.py: our search sizes and answers against DDS's after a prefix of plays."""

import pytest
from script_loader import ROOT, load_script

pytest.importorskip("endplay")

SCRIPT = ROOT / "tools" / "compare_dds.py"
# a 5-card ending, N+S need 2 of the 5 tricks at no trump with North on lead
PBN = "N:AK.Q.2.3 Q2.A.3.K 43.K.A.2 J5.2.K.A"


def _script():
    return load_script(SCRIPT)


def test_moves_answers_agree_with_dds(capsys):
    args = ["--trump", "NT", "--leader", "N", "--declarers", "NS", "--need", "2"]
    assert _script().main([PBN, *args]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("N to play, NS need 2 of the last 5 tricks")
    # North's five cards, one line each, each with both counts and no disagreement
    assert [line.split(":")[0].strip() for line in lines[1:]] == ["SA", "SK", "HQ", "D2", "C3"]
    assert all("DDS" in line and "differ" not in line for line in lines)
    # where our search tries each card: the spade king is the ace's run, the other four
    # cards are the four moves of the search's order, each once
    assert lines[2].endswith("as SA")
    places = sorted(line.split("tried ")[1] for line in lines[1:] if "tried" in line)
    assert places == ["1 of 4", "2 of 4", "3 of 4", "4 of 4"]


def test_prefix_follows_and_counts_the_trick(capsys):
    # North leads the spade ace, East follows: South (third hand) has two spades to choose from
    assert (
        _script().main(
            [PBN, "SA", "S2", "--trump", "NT", "--leader", "N", "--declarers", "NS", "--need", "2"]
        )
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("S to play, NS need 2 of the last 5 tricks")
    assert [line.split(":")[0].strip() for line in lines[1:]] == ["S4", "S3"]
    assert lines[1].endswith("tried 1 of 1") and lines[2].endswith("as S4")
    assert all("differ" not in line for line in lines)


def test_bad_prefix_and_side_are_errors():
    args = ["--trump", "NT", "--leader", "N", "--declarers", "NS", "--need", "2"]
    with pytest.raises(SystemExit, match="not in"):
        _script().main([PBN, "HA", *args])
    with pytest.raises(SystemExit, match="follow suit"):
        _script().main([PBN, "SA", "HA", *args])
    with pytest.raises(SystemExit, match="malformed card"):
        _script().main([PBN, "ZZ", *args])
    with pytest.raises(SystemExit, match="malformed deal"):
        _script().main(["N:AK.Q", *args])
    with pytest.raises(SystemExit, match="partnerships"):
        _script().main([PBN, "--trump", "NT", "--leader", "N", "--declarers", "N", "--need", "2"])
