"""tools/size_gap.py: our search sizes against DDS's, deal by deal."""

import pytest
from script_loader import ROOT, load_script

pytest.importorskip("endplay")

SCRIPT = ROOT / "tools" / "size_gap.py"


def test_sizes_deal_by_deal_and_the_largest_excess_listed(capsys):
    tool = load_script(SCRIPT)
    rows = tool.size_gaps(seed=1, deals=6, trump="NT", target=8)
    assert [r[0] for r in rows] == list(range(6))
    assert all(r[1] >= 0 and r[2] >= 0 and r[3].startswith("N:") for r in rows)
    assert sum(r[1] for r in rows) > 0 and sum(r[2] for r in rows) > 0
    assert tool.main(["--seed", "1", "--deals", "6", "--show", "6"]) == 0
    out = capsys.readouterr().out.splitlines()
    ours = sum(r[1] for r in rows)
    assert f"ours {ours:,} against" in out[0]
    listed = [line for line in out[1:] if line.strip().startswith("deal")]
    assert len(listed) == sum(r[1] > r[2] for r in rows)
    gaps = [int(line.split("(+")[1].split(")")[0].replace(",", "")) for line in listed]
    assert gaps == sorted(gaps, reverse=True)


def test_a_bad_option_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as info:
        load_script(SCRIPT).main(["--target", "14"])
    assert info.value.code == 2
    assert "--target within 1..13" in capsys.readouterr().err
