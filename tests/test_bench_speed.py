"""benchmarks/bench_speed.py: the targets' verdicts, and bench_solver's interleaved timing."""

import time

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


def _question(dds: float, ours: float, dds_cpu: float, ours_cpu: float) -> dict:
    return {
        "dds": dds,
        "ours": ours,
        "slowest": 0.1,
        "over_0_2": 0,
        "dds_nodes": 1000.0,
        "our_tricks": 1100.0,
        "dds_cpu": dds_cpu,
        "ours_cpu": ours_cpu,
        "dds_slowest": 0.25,
        "dds_over_0_2": 1,
    }


def test_the_solver_summary_gives_the_verdict_by_each_timing(capsys):
    bench = _bench()
    # set 1 slower than DDS by wall time in blocks but not by interleaved CPU time; set 2
    # within both
    sets = [
        {"questions": {"8 H": _question(1.0, 1.1, 1.0, 0.9)}, "one": {}},
        {"questions": {"8 H": _question(2.0, 1.0, 2.0, 1.5)}, "one": {}},
    ]
    assert bench.print_solver_summary([1, 2], sets) == 1.0
    out = capsys.readouterr().out
    assert "no deal over 0.2 s -> not met" in out
    assert "DDS's own: slowest answer 0.250 s, 2 answers over 0.2 s" in out
    assert "interleaved, thread CPU time: DDS 3.00 s, ours 2.40 s, ratio 0.80" in out
    assert "(per set 0.90 0.75); ratio <= 1.00 on every set -> met" in out
    row = next(line for line in out.splitlines() if line.startswith("NS 8 H"))
    assert row.split()[-1] == "0.80"


def test_interleaved_timing_alternates_the_order_and_times_each_call():
    solver = load_script(ROOT / "benchmarks" / "bench_solver.py", beside=True)
    calls = []

    def busy(who):
        def call(i):
            calls.append((who, i))
            end = time.thread_time() + (0.02 if who == "ours" else 0.0)
            while time.thread_time() < end:
                pass

        return call

    d_cpu, o_cpu = solver.interleaved_cpu(busy("dds"), busy("ours"), 3)
    assert calls == [
        ("dds", 0),
        ("ours", 0),
        ("ours", 1),
        ("dds", 1),
        ("dds", 2),
        ("ours", 2),
    ]
    assert (o_cpu >= 0.02).all() and (d_cpu < 0.01).all()


def test_the_scripts_stop_on_ctrl_c_or_a_closed_pipe_without_a_traceback(monkeypatch, capsys):
    speed = _bench()
    solver = load_script(ROOT / "benchmarks" / "bench_solver.py", beside=True)
    advice = load_script(ROOT / "benchmarks" / "bench_advice_dds.py", beside=True)
    for script, argv in ((speed, ["--no-advice"]), (solver, []), (advice, [])):
        for exc, code in ((KeyboardInterrupt, 130), (BrokenPipeError, 141)):

            def interrupted(args, exc=exc):
                raise exc

            monkeypatch.setattr(script, "run", interrupted)
            assert script.main(argv) == code
            err = capsys.readouterr().err
            assert err == ("interrupted\n" if code == 130 else "")
