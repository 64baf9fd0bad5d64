"""tools/ab_time.py: a revision's package beside the working tree's, timed interleaved."""

import numpy as np
import pytest
from script_loader import ROOT, load_script

SCRIPT = ROOT / "tools" / "ab_time.py"


def _script():
    return load_script(SCRIPT)


def test_rename_package_renames_whole_words_only():
    rename = _script().rename_package
    text = "from solo_analysis.solver import x\nimport solo_analysis\nsolo_analysis_extra = 1\n"
    assert rename(text) == (
        "from solo_analysis_base.solver import x\nimport solo_analysis_base\n"
        "solo_analysis_extra = 1\n"
    )


def test_copy_revision_renames_imports_and_keeps_data(tmp_path):
    script = _script()
    commit = script.resolve("HEAD")
    parent = script.copy_revision(commit, tmp_path)
    root = parent / "solo_analysis_base"
    # every module is the revision's with the package's name changed (HEAD's files are the
    # working tree's in a clean checkout; a module naming the package is compared as renamed)
    named = [
        p.relative_to(ROOT / "solo_analysis")
        for p in (ROOT / "solo_analysis").rglob("*.py")
        if "from solo_analysis." in p.read_text()
    ]
    assert named
    for rel in named:
        copied = (root / rel).read_text()
        assert "from solo_analysis_base." in copied and "from solo_analysis." not in copied
    # data files are copied as they are
    data = sorted(p.relative_to(root) for p in root.rglob("*.npz"))
    assert data, "the predictors' weights are package data"
    assert all((root / p).read_bytes() == (ROOT / "solo_analysis" / p).read_bytes() for p in data)
    # nothing else is left in the folder (the temporary copy was renamed into place)
    assert sorted(p.name for p in tmp_path.iterdir()) == [commit]
    # a second call reuses the copy
    stamp = (root / "__init__.py").stat().st_mtime_ns
    assert script.copy_revision(commit, tmp_path) == parent
    assert (root / "__init__.py").stat().st_mtime_ns == stamp


def test_unknown_revision_is_an_error():
    with pytest.raises(SystemExit, match="is not a commit"):
        _script().resolve("no-such-revision-anywhere")


def test_interleaved_alternates_the_first_version_and_checks_answers():
    script = _script()
    order = []

    def version(v):
        def call(pbn, target):
            order.append(v)
            return target > 5

        return call

    qs = [("a", 8), ("b", 5), ("c", 9)]
    times = script.interleaved([version(0), version(1)], qs, rounds=2)
    assert times.shape == (2, 2, 3) and (times >= 0).all()
    # round 0: questions 0, 1, 2 start with version 0, 1, 0; round 1 the other way
    assert order == [0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0]

    def wrong(pbn, target):
        return target <= 5

    with pytest.raises(SystemExit, match="differently"):
        script.interleaved([version(0), wrong], qs, rounds=1)


def test_ratio_interval():
    ratio_interval = _script().ratio_interval
    base = np.array([1.0, 2.0, 3.0, 4.0])
    assert ratio_interval(2 * base, base) == (2.0, 2.0, 2.0)
    rng = np.random.default_rng(1)
    new = base * rng.uniform(0.8, 1.2, size=4)
    ratio, low, high = ratio_interval(new, base)
    assert low <= ratio <= high and 0.8 <= low and high <= 1.2


@pytest.mark.parametrize(
    "args, message",
    [
        (["--targets", "8,x"], "integers separated by commas"),
        (["--targets", "14"], "within 1..13"),
        (["--deals", "0"], "at least 1"),
    ],
)
def test_bad_arguments(args, message, capsys):
    with pytest.raises(SystemExit):
        _script().main(args)
    assert message in capsys.readouterr().err


def test_side_error_names_a_bad_seat_and_passes_good_ones():
    side_error = _script().side_error
    assert side_error("NT", "E", "NS") is None
    assert side_error("H", "N", "S") is None  # a lone declarer, as Solo
    assert "declarer" in side_error("H", "N", "Q")
    assert "seat" in side_error("H", "X", "S").lower()


def test_advice_questions_hold_the_hand_in_its_seat():
    qs = _script().advice_questions("AKJ94.K83.Q72.65", "second", "7S", 1, 3, [5, 9])
    assert [t for _, t in qs] == [5, 5, 5, 9, 9, 9]
    assert qs[0][0] == qs[3][0] and len({p for p, _ in qs}) == 3
    for pbn, _ in qs:
        # N: eldest, E: second (the hand), S: third, W: dealer (who holds the turn-up)
        assert pbn.startswith("N:") and pbn.split()[1] == "AKJ94.K83.Q72.65"
        assert "7" in pbn.split()[3].split(".")[0]
