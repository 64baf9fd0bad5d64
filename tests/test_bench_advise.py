"""benchmarks/bench_advise.py --against: two packages' advice, run in turn, compared."""

import re
from pathlib import Path

import pytest
from script_loader import ROOT, load_script

import solo_analysis


def _bench():
    return load_script(ROOT / "benchmarks" / "bench_advise.py")


def test_against_runs_each_hand_both_ways_and_prints_the_ratio(capsys):
    root = Path(solo_analysis.__file__).resolve().parents[1]
    args = ["--hands", "1", "--contracts", "solo", "--against", str(root), "--repeats", "1"]
    _bench().main(args)
    out = capsys.readouterr().out
    # the same package both ways: the same deals and positions
    row = next(line for line in out.splitlines() if line.startswith("thirteen spades"))
    deals, mpos = row.split()[2:4]
    new, old = deals.split("/")
    assert new == old and int(new) > 0 and mpos.split("/")[0] == mpos.split("/")[1]
    assert re.search(r"warm new / old: median \d+\.\d\d .* over 1 hands", out)


def test_against_a_directory_without_the_package_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        _bench().main(["--against", str(tmp_path)])
    assert info.value.code == 2
    assert "no solo_analysis package there" in capsys.readouterr().err
