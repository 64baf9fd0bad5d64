"""``solo-analysis advise``: ``--plot``, the progress line and the compile notice on stderr."""

from __future__ import annotations

import io

import pytest
from cli_helpers import assert_one_line_error, run

import solo_analysis.advice
from solo_analysis.cli import advise_cmd
from solo_analysis.cli.advise_cmd import ProgressLine

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


@pytest.mark.parametrize(("name", "magic"), [("chart.png", b"\x89PNG"), ("chart.svg", b"<?xml")])
def test_plot_file_written(name, magic, tmp_path, capsys):
    path = tmp_path / name
    code, out, err = run(BASE + ["--plot", str(path)], capsys)
    assert code == 0 and err == ""
    assert "Bid Abundance Declared (♠): 100%" in out  # the report is unchanged
    assert path.read_bytes()[: len(magic)] == magic


def test_plot_with_json_keeps_stdout_machine_readable(tmp_path, capsys):
    import json

    path = tmp_path / "c.svg"
    code, out, _err = run(BASE + ["--format", "json", "--plot", str(path)], capsys)
    assert code == 0 and json.loads(out)["samples"] == 8 and path.exists()


@pytest.fixture
def no_compute(monkeypatch):
    """Make any call of advise() fail loudly: errors must come before the computation."""

    def boom(*args, **kwargs):
        raise AssertionError("advise() ran")

    monkeypatch.setattr(solo_analysis.advice, "advise", boom)


@pytest.mark.parametrize("name", ["chart.pdf", "chart", "chart.png.bak"])
def test_bad_plot_extension_is_one_line_before_any_work(name, tmp_path, capsys, no_compute):
    code, out, err = run(BASE + ["--plot", str(tmp_path / name)], capsys)
    assert_one_line_error(code, out, err)
    assert ".png or .svg" in err and out == ""


def test_plot_into_missing_folder_is_one_line(tmp_path, capsys, no_compute):
    code, out, err = run(BASE + ["--plot", str(tmp_path / "nope" / "chart.png")], capsys)
    assert_one_line_error(code, out, err)
    assert "does not exist" in err


def test_unwritable_plot_file_is_one_line(tmp_path, capsys):
    target = tmp_path / "chart.png"
    target.mkdir()  # a folder where the file should go
    code, out, err = run(BASE + ["--plot", str(target)], capsys)
    assert_one_line_error(code, out, err)


# --- progress and notices on stderr -----------------------------------------------------------


@pytest.fixture
def terminal(monkeypatch):
    """Pretend stderr is a terminal and show progress at once."""
    monkeypatch.setattr(advise_cmd, "_stderr_is_terminal", lambda: True)
    monkeypatch.setattr(advise_cmd, "PROGRESS_DELAY", 0.0)


def test_progress_on_a_terminal(terminal, monkeypatch, capsys):
    monkeypatch.setattr(advise_cmd, "_needs_compiling", lambda: False)
    code, out, err = run(BASE, capsys)
    assert code == 0 and "Bid Abundance Declared" in out
    assert "\rsolving: [" in err and "8/8 deals" in err
    assert err.endswith("\r") and "compiling" not in err  # the line is erased at the end


def test_compile_notice_once(terminal, monkeypatch, capsys):
    monkeypatch.setattr(advise_cmd, "_needs_compiling", lambda: True)
    code, _out, err = run(BASE, capsys)
    assert code == 0 and err.count("compiling the solver") == 1


def test_quiet_silences_stderr(terminal, monkeypatch, capsys):
    monkeypatch.setattr(advise_cmd, "_needs_compiling", lambda: True)
    code, out, err = run(BASE + ["--quiet"], capsys)
    assert code == 0 and err == ""
    assert out.startswith("Bid Abundance Declared")


def test_nothing_on_stderr_when_it_is_not_a_terminal(monkeypatch, capsys):
    monkeypatch.setattr(advise_cmd, "_needs_compiling", lambda: True)
    monkeypatch.setattr(advise_cmd, "PROGRESS_DELAY", 0.0)
    code, _out, err = run(BASE, capsys)  # capsys: stderr is not a terminal
    assert code == 0 and err == ""


def test_needs_compiling_answers_a_bool():
    assert advise_cmd._needs_compiling() in (True, False)


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_progress_line_waits_then_rewrites_in_place():
    stream, clock = io.StringIO(), FakeClock()
    line = ProgressLine(stream, adaptive=False, tolerance=None, delay=1.0, clock=clock)
    line(0, 64)
    assert stream.getvalue() == ""  # a quick run prints nothing
    clock.now += 2
    line(16, 64)
    line(64, 64)
    text = stream.getvalue()
    assert text.count("\r") == 2 and "16/64 deals" in text and "[" + "#" * 20 + "]" in text
    line.close()
    assert stream.getvalue().endswith("\r") and line.width == 0
    adaptive = ProgressLine(io.StringIO(), adaptive=True, tolerance=0.02, delay=0.0, clock=clock)
    assert (
        adaptive.text(128, 2000)
        == "solving: 128 deals (at most 2000 until every interval is within ±2%)  0 s"
    )
    capped = ProgressLine(
        io.StringIO(),
        adaptive=True,
        tolerance=0.02,
        delay=0.0,
        clock=clock,
        max_positions=60_000_000,
    )
    assert capped.text(128, 2000) == (
        "solving: 128 deals (at most 2000 or 60,000,000 search positions "
        "until every interval is within ±2%)  0 s"
    )


@pytest.mark.parametrize(
    ("argv", "kernels"),
    [
        (
            [
                "solve",
                "N:A... K... Q... J...",
                "--trump",
                "NT",
                "--leader",
                "N",
                "--declarers",
                "N",
            ],
            ("solver.solve_position",),
        ),
        (
            [
                "leads",
                "N:A... K... Q... J...",
                "--trump",
                "NT",
                "--leader",
                "N",
                "--declarers",
                "N",
            ],
            ("solver.solve_after_lead",),
        ),
    ],
)
def test_solve_and_leads_say_once_that_they_compile(argv, kernels, monkeypatch, capsys):
    from solo_analysis.cli import _console

    asked = []
    monkeypatch.setattr(_console, "stderr_is_terminal", lambda: True)
    monkeypatch.setattr(_console, "needs_compiling", lambda *names: asked.append(names) or True)
    code, _out, err = run(argv, capsys)
    assert code in (0, None)
    assert asked == [kernels]
    assert err.count("compiling the solver") == 1
    monkeypatch.setattr(_console, "needs_compiling", lambda *names: False)
    code, _out, err = run(argv, capsys)
    assert err == ""


def test_needs_compiling_names_real_kernels():
    from solo_analysis.cli import _console
    from solo_analysis.sampler import _kernel as sampler_kernels
    from solo_analysis.solver import _kernels as solver_kernels
    from solo_analysis.stats import _features as stats_kernels

    modules = {"solver": solver_kernels, "sampler": sampler_kernels, "stats": stats_kernels}
    for names in (
        ("solver.solve_position",),
        ("solver.solve_after_lead",),
        ("solver.solve_many", "sampler.deal_batch"),
        ("solver.solve_many", "sampler.deal_batch", "stats.features_into"),
    ):
        for name in names:
            module, attr = name.split(".")
            assert hasattr(getattr(modules[module], attr), "_cache"), name  # a cached kernel
        assert _console.needs_compiling(*names) in (True, False)
    assert _console.needs_compiling("solver.no_such_kernel") is False


# --- --stop-on --------------------------------------------------------------------------------

ADAPTIVE = BASE[: BASE.index("--samples")] + BASE[BASE.index("--seed") :]


def test_stop_on_bid_stops_on_the_rows_the_bid_reads(capsys):
    import json

    argv = ADAPTIVE + ["--tolerance", "0.2", "--stop-on", "bid", "--format", "json"]
    code, out, _err = run(argv, capsys)
    advice = json.loads(out)
    assert code == 0 and advice["stop_on"] == "bid" and advice["converged"]
    assert advice["stopped"] == "tolerance"
    code, out, _err = run(argv[:-2], capsys)
    assert code == 0 and "stops once the intervals the bid reads are within ±20%" in out


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--samples", "8", "--stop-on", "bid"], ("--stop-on", "not both")),
        (["--stop-on", "sometimes"], ("sometimes",)),
    ],
)
def test_stop_on_bad_use_is_one_line(extra, words, capsys, no_compute):
    code, out, err = run(ADAPTIVE + extra, capsys)
    assert_one_line_error(code, out, err, *words)


def test_progress_line_names_the_bid_rows():
    line = ProgressLine(io.StringIO(), adaptive=True, tolerance=0.02, bid_only=True)
    assert "until the bid's intervals are within ±2%" in line.text(64, 2000)
