"""Charts (:mod:`solo_analysis.report`) and the tidy frames / display of :class:`Advice`.

Most tests use a cheap fake play model so the charts see varied numbers without the solver;
one test draws from a real double-dummy run on a hand the solver answers quickly.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from solo_analysis.advice import advise
from solo_analysis.errors import PlotError, SoloAnalysisError
from solo_analysis.play import PlayModel
from solo_analysis.report.charts import advice_chart, units_window
from solo_analysis.report.odds import heatmap, line_chart
from solo_analysis.report.style import (
    STYLE,
    ReportFigure,
    figure_format,
    figure_svg,
    save_figure,
    style,
)
from solo_analysis.report.tricks import tricks_chart

HAND = "AKJ94.K83.Q72.65"
SPADES = "AKQJT98765432..."


class HonoursModel(PlayModel):
    """A cheap fake whose trick count varies by deal.

    The declarer side takes one trick per ace, king and queen it holds, plus one per two such
    cards in the hand opposite its first seat.
    """

    name = "fake-honours"
    note = "fake model for tests"

    def tricks(self, deals, *, trump, leader, declarers, misere):
        honours = (deals % 13) >= 10
        own = honours[:, list(declarers), :].reshape(len(deals), -1).sum(axis=1)
        opposite = honours[:, (declarers[0] + 2) % 4, :].sum(axis=1) // 2
        return np.minimum(own + opposite, 13).astype(np.int8)


@pytest.fixture(scope="module")
def counted():
    """Every row's tricks counted, with a bid so far (some rows not allowed)."""
    return advise(
        HAND,
        seat="second",
        turnup="7S",
        samples=48,
        seed=3,
        play_model=HonoursModel(),
        exact=True,
        over="prop",
    )


@pytest.fixture(scope="module")
def uncounted():
    return advise(
        HAND, seat="second", turnup="7S", samples=24, seed=3, play_model=HonoursModel(), exact=False
    )


def _ytick_texts(ax):
    return [t.get_text() for t in ax.get_yticklabels()]


# --- advice chart ---------------------------------------------------------------------------


def test_advice_chart_two_panels_one_row_per_option(counted):
    fig = advice_chart(counted)
    assert isinstance(fig, Figure)
    ax_p, ax_e = fig.axes[:2]
    labels = _ytick_texts(ax_p)
    assert len(labels) == len(counted.table)
    assert "Abundance (best: " in " ".join(labels) and "Prop and Cop (any partner)" in labels
    assert "Abundance ♥" in labels  # suit symbols in the labels
    # the recommendation is bold; contracts not above the bid are grey, the others black
    best = int(counted.recommended["row"])
    ticks = ax_p.get_yticklabels()
    assert ticks[best].get_fontweight() == "bold"
    allowed = counted.table["allowed"].tolist()
    for tick, ok in zip(ticks, allowed, strict=False):
        assert (tick.get_color() == "0.0") == ok
    # one hatched bar per allowed option except the recommendation (black and white readable)
    bars = [p for p in ax_p.patches if isinstance(p, Rectangle)]
    assert len(bars) == len(counted.table)
    assert sum(bool(b.get_hatch()) for b in bars) == sum(allowed) - 1
    assert ax_e.get_xlabel().startswith("expected units")
    assert "fake model for tests" in fig.legends[0].get_title().get_text()


def test_advice_chart_candidates_only_and_axes(counted):
    fig = advice_chart(counted, candidates_only=True)
    assert len(_ytick_texts(fig.axes[0])) == int(counted.table["candidate"].sum())
    # a pair of axes
    host = Figure()
    pair = host.subplots(1, 2)
    assert advice_chart(counted, list(pair)) is host
    # one axes: the units go on a second x axis
    host = Figure()
    ax = host.subplots()
    assert advice_chart(counted, ax, title="mine") is host
    assert len(host.axes) == 2 and ax.get_title() == "mine"
    with pytest.raises(PlotError, match="pair"):
        advice_chart(counted, [ax, ax, ax])
    with pytest.raises(PlotError, match="Axes"):
        advice_chart(counted, "left")


def test_advice_method_and_html(counted):
    assert isinstance(counted.plot(), Figure)
    html = counted._repr_html_()
    assert "<table" in html and "<svg" in html and "<?xml" not in html


def test_save_png_and_svg(counted, tmp_path):
    fig = advice_chart(counted)
    png, svg = tmp_path / "a.png", tmp_path / "b.SVG"
    save_figure(fig, png)
    save_figure(fig, svg)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = svg.read_text()
    assert "<svg" in text and "Misère" in text  # SVG keeps text as text (svg.fonttype none)
    assert figure_format("x.Png") == "png" and figure_format(svg) == "svg"
    for bad in ("chart.pdf", "chart", "chart.png.txt"):
        with pytest.raises(PlotError, match=r"\.png or \.svg"):
            figure_format(bad)
        with pytest.raises(PlotError):
            save_figure(fig, tmp_path / bad)
    assert figure_svg(fig).startswith("<svg")


def test_style_is_a_context():
    import matplotlib as mpl

    before = mpl.rcParams["image.cmap"]
    with style():
        assert mpl.rcParams["image.cmap"] == STYLE["image.cmap"]
    assert mpl.rcParams["image.cmap"] == before


def test_importing_the_package_does_not_import_matplotlib():
    code = (
        "import sys, solo_analysis, solo_analysis.advice, solo_analysis.cli; "
        "print('matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --- trick distributions ----------------------------------------------------------------------


def test_tricks_chart_panels(counted):
    fig = tricks_chart(counted)
    visible = [a for a in fig.axes if a.get_visible()]
    assert len(visible) == counted.distribution["row"].nunique()
    fig = counted.plot_tricks(["misere", 4])
    visible = [a for a in fig.axes if a.get_visible()]
    assert [a.get_title(loc="left").split(":")[0] for a in visible] == ["Misère", "Solo"]
    # one panel on a given axes: 14 bars, the failing trick counts hatched
    host = Figure()
    ax = host.subplots()
    tricks_chart(counted, "solo", ax=ax)
    bars = ax.patches
    assert len(bars) == 14
    target = int(counted.table.set_index("contract").loc["solo", "target"])
    assert sum(bool(b.get_hatch()) for b in bars) == target  # 0..target-1 tricks fail


def test_tricks_chart_errors(counted, uncounted):
    assert uncounted.distribution.empty
    with pytest.raises(PlotError, match="exact=True"):
        tricks_chart(uncounted)
    with pytest.raises(PlotError, match="exact=True"):
        uncounted.plot_tricks()
    with pytest.raises(PlotError, match="'nonsense'"):
        tricks_chart(counted, "nonsense")
    with pytest.raises(PlotError, match="row 99"):
        tricks_chart(counted, 99)
    with pytest.raises(PlotError, match="rows were selected"):
        tricks_chart(counted, ax=Figure().subplots())
    with pytest.raises(PlotError, match="ncols"):
        tricks_chart(counted, ncols=0)
    with pytest.raises(PlotError):
        tricks_chart(counted, [1.5])


def test_tricks_frame_is_tidy(counted, uncounted):
    tf = counted.tricks_frame()
    assert list(tf.columns) == [
        "row",
        "contract",
        "title",
        "trump",
        "partner",
        "choice",
        "target",
        "misere",
        "tricks",
        "made",
        "count",
        "share",
    ]
    assert (tf.groupby("row")["count"].sum() == counted.samples).all()
    assert np.allclose(tf.groupby("row")["share"].sum(), 1.0)
    # the made column agrees with p_make of the table
    made_share = tf[tf["made"]].groupby("row")["share"].sum()
    p = counted.table.set_index("row")["p_make"]
    assert np.allclose(made_share, p.loc[made_share.index])
    mis = tf[tf["contract"] == "misere"]
    assert mis.loc[mis["made"], "tricks"].tolist() == [0]
    # pivots as documented
    wide = tf.pivot_table(index="tricks", columns="row", values="share")
    assert wide.shape == (14, tf["row"].nunique())
    empty = uncounted.tricks_frame()
    assert empty.empty and list(empty.columns) == list(tf.columns)


def test_json_and_csv_have_the_documented_shape(uncounted):
    doc = json.loads(uncounted.to_json())
    for key in (
        "hand",
        "seat",
        "turnup",
        "rules",
        "samples",
        "seed",
        "contracts",
        "recommendation",
    ):
        assert key in doc
    rows = doc["contracts"]
    assert len(rows) == len(uncounted.table)
    for key in (
        "contract",
        "trump",
        "partner",
        "target",
        "p_make",
        "ci_low",
        "ci_high",
        "ev_units",
        "tricks_mean",
    ):
        assert key in rows[0]
    assert {"contract", "ev_units"} <= set(doc["recommendation"])
    csv = pd.read_csv(__import__("io").StringIO(uncounted.to_csv()))
    assert list(csv.columns) == list(rows[0])  # the CSV header is the JSON row's keys
    assert len(csv) == len(rows)


# --- what the chart says ---------------------------------------------------------------------


def _footer(fig):
    return fig.legends[0].get_title().get_text()


def test_chart_names_its_intervals_and_unsolved_deals(uncounted):
    # 24 deals: too few for the control variates, every interval is Wilson's
    fig = advice_chart(uncounted)
    assert fig.axes[0].get_xlabel() == "chance of making (95% interval)"
    assert "95% intervals: Wilson" in _footer(fig) and "unsolved" not in _footer(fig)
    # 200 deals: the Prop and Cop and Solo rows are corrected, the rows never made are not
    many = advise(HAND, seat="second", turnup="7S", samples=200, seed=3, play_model=HonoursModel())
    corrected = int(many.table["corrected"].sum())
    assert 0 < corrected < len(many.table)
    text = _footer(advice_chart(many))
    assert f"control variates on {corrected} of {len(many.table)} rows" in text
    # deals the solver gave up on are in the footnote
    capped = advise(
        HAND,
        seat="second",
        turnup="7S",
        samples=16,
        seed=3,
        contracts=["prop", "solo"],
        max_question_positions=20_000,
    )
    assert capped.unresolved > 0
    assert (
        f"16 deals (seed 3), {capped.unresolved} of them unsolved for some rows within "
        "20,000 positions per question (their intervals cover both outcomes)"
    ) in _footer(advice_chart(capped))


def _units_texts(ax):
    """The values written on the units axes (rows off the scale)."""
    return [t.get_text() for t in ax.texts]


def test_units_axis_zooms_on_the_decision():
    # Solo (+5.7) against Prop and Cop (+0.2) and passing; rows at -9 to -24 far below
    a = advise(HAND, seat="second", turnup="7S", samples=200, seed=3, play_model=HonoursModel())
    assert a.recommendation == "solo" and a.runner_up["contract"] == "prop"
    fig = advice_chart(a)
    ax_e = fig.axes[1]
    left, right = ax_e.get_xlim()
    assert -3 < left < 0 < 6.3 < right < 8  # the decision fills the axis
    texts = _units_texts(ax_e)
    far = a.table[a.table["ev_units"] < left]
    assert len(far) == 12 and sorted(texts) == sorted(f"{v:+.1f}" for v in far["ev_units"])
    assert "off the scale" in ax_e.get_xlabel()
    # the same rows without the far ones: every row shown, nothing written
    near = advise(
        HAND,
        seat="second",
        turnup="7S",
        samples=200,
        seed=3,
        play_model=HonoursModel(),
        contracts=["prop", "solo"],
    )
    ax_e = advice_chart(near).axes[1]
    assert _units_texts(ax_e) == [] and "off the scale" not in ax_e.get_xlabel()
    assert units_window(near, near.table) is None


def test_figures_show_as_images_in_jupyter(counted, odds):
    ipython = pytest.importorskip("IPython.core.interactiveshell")
    shell = ipython.InteractiveShell.instance()
    frame = odds.assign(ci_low=odds["p_make"] - 0.1, ci_high=odds["p_make"] + 0.1, thin=False)
    figures = [
        advice_chart(counted),
        tricks_chart(counted),
        heatmap(odds, index="trumps", columns="seat", value="p_make"),
        line_chart(frame, x="trumps", hue="seat", value="p_make"),
    ]
    for fig in figures:
        assert isinstance(fig, ReportFigure)
        data, _ = shell.display_formatter.format(fig)
        assert data["image/png"][:8] == b"\x89PNG\r\n\x1a\n"  # not only "<Figure size ...>"


# --- progress -----------------------------------------------------------------------------


def test_progress_callback_reports_done_and_planned():
    calls = []
    a = advise(
        HAND,
        seat="second",
        turnup="7S",
        samples=40,
        seed=5,
        play_model=HonoursModel(),
        progress=lambda done, planned: calls.append((done, planned)),
    )
    assert calls[0] == (0, 40) and calls[-1] == (40, 40)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls) and len(calls) >= 3
    # solving in chunks for the progress report changes nothing
    b = advise(HAND, seat="second", turnup="7S", samples=40, seed=5, play_model=HonoursModel())
    pd.testing.assert_frame_equal(a.table, b.table)
    # adaptive: planned is the cap, the run may stop before it
    calls.clear()
    c = advise(
        HAND,
        seat="second",
        turnup="7S",
        seed=5,
        play_model=HonoursModel(),
        tolerance=0.3,
        max_samples=500,
        progress=lambda done, planned: calls.append((done, planned)),
    )
    assert all(p == 500 for _, p in calls) and calls[-1][0] == c.samples < 500


# --- heatmap --------------------------------------------------------------------------------


@pytest.fixture
def odds():
    return pd.DataFrame(
        {
            "trumps": [4, 4, 5, 5, 6],
            "seat": ["eldest", "dealer", "eldest", "dealer", "eldest"],
            "p_make": [0.31, 0.42, 0.55, 0.63, 0.9],
            "deals": [400, 12, 250, 90, 3],
        }
    )


def test_heatmap_marks_thin_cells(odds):
    fig = heatmap(odds, index="trumps", columns="seat", value="p_make", count="deals", thin=30)
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert sorted(texts) == sorted(
        ["31%", "42%†", "55%", "63%", "90%†"]
    )  # the 6/dealer cell is blank
    hatched = [p for p in ax.patches if p.get_hatch()]
    assert len(hatched) == 2
    assert "fewer than 30 deals" in ax.get_xlabel()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["4", "5", "6"]  # first-appearance order
    assert [t.get_text() for t in ax.get_xticklabels()] == ["eldest", "dealer"]
    assert len(fig.axes) == 2  # the colour bar
    # a higher threshold marks more; None marks nothing
    fig = heatmap(odds, index="trumps", columns="seat", value="p_make", count="deals", thin=100)
    assert sum(t.get_text().endswith("†") for t in fig.axes[0].texts) == 3
    fig = heatmap(
        odds,
        index="trumps",
        columns="seat",
        value="p_make",
        count="deals",
        thin=None,
        colorbar=False,
        fmt=lambda v: f"{v:.2f}",
    )
    assert not any("†" in t.get_text() for t in fig.axes[0].texts) and len(fig.axes) == 1
    assert "0.31" in [t.get_text() for t in fig.axes[0].texts]


def test_heatmap_on_given_axes(odds):
    host = Figure()
    ax = host.subplots()
    assert (
        heatmap(odds, index="seat", columns="trumps", value="p_make", ax=ax, title="odds") is host
    )
    assert ax.get_title() == "odds"


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"index": "nope"}, "index column 'nope'"),
        ({"count": "nope"}, "count column 'nope'"),
        ({"value": "seat"}, "numeric"),
        ({"thin": -1}, "thin"),
    ],
)
def test_heatmap_errors(odds, kwargs, match):
    args = {"index": "trumps", "columns": "seat", "value": "p_make", "count": "deals"} | kwargs
    with pytest.raises(PlotError, match=match):
        heatmap(odds, **args)


def test_heatmap_rejects_duplicates_and_empty(odds):
    with pytest.raises(PlotError, match="more than one"):
        heatmap(pd.concat([odds, odds.head(1)]), index="trumps", columns="seat", value="p_make")
    with pytest.raises(PlotError, match="empty"):
        heatmap(odds.head(0), index="trumps", columns="seat", value="p_make")
    with pytest.raises(PlotError, match="DataFrame"):
        heatmap(odds.to_dict(), index="trumps", columns="seat", value="p_make")
    assert issubclass(PlotError, SoloAnalysisError) and issubclass(PlotError, ValueError)


# --- one real run -----------------------------------------------------------------------------


def test_chart_of_a_real_double_dummy_run(tmp_path):
    a = advise(
        SPADES,
        seat="second",
        turnup="2H",
        samples=8,
        seed=5,
        exact=True,
        contracts=["solo", "abundance", "declared"],
    )
    save_figure(a.plot(), tmp_path / "real.png")
    save_figure(a.plot_tricks("declared"), tmp_path / "tricks.svg")
    assert (tmp_path / "real.png").stat().st_size > 1000
    assert "Abundance Declared" in (tmp_path / "tricks.svg").read_text()
