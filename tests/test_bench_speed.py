"""benchmarks/bench_speed.py: only runs that converged can meet the advice targets."""

from script_loader import ROOT, load_script


def _bench():
    return load_script(ROOT / "benchmarks" / "bench_speed.py", beside=True)


def _result(warm: float, converged: bool, warm_converged: bool) -> dict:
    return {
        "samples": 500,
        "positions": 50_000_000,
        "stopped": "tolerance",
        "widest": 0.02,
        "cold": warm + 1.0,
        "warm": warm,
        "converged": converged,
        "warm_converged": warm_converged,
    }


def test_a_run_that_did_not_converge_misses_the_targets_whatever_its_time(monkeypatch, capsys):
    bench = _bench()
    # the ordinary hand to the tolerance fast but not converged; two random hands, one each way
    runs = iter(
        [
            _result(1.0, True, True),  # the ordinary hand at the defaults
            _result(1.5, True, False),  # ... to the tolerance: its warm run did not converge
            _result(1.2, True, True),
            _result(1.4, False, False),
        ]
    )
    monkeypatch.setattr(bench.bench_advise, "run_hand", lambda *a, **k: next(runs))
    monkeypatch.setattr(
        bench.bench_advise,
        "random_hands",
        lambda n, seed: [("random 1", "x", "eldest", "7S"), ("random 2", "y", "third", "7S")],
    )
    bench._advice_mode("rows", 2, 7, 60.0, None)
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert any(line.startswith("ordinary, to tolerance") and "yes/no" in line for line in lines)
    assert any(line.startswith("random 2") and "no/no" in line for line in lines)
    assert "the ordinary hand converged in <= 2 s warm: not converged -> not met" in out
    # the median of 1.2 s and a run that did not converge: not met, and the count said
    assert "median of 2 random hands converged <= 2 s warm: not converged" in out
    assert "1 not converged) -> not met" in out
