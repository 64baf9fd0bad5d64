"""Execute every notebook in ``notebooks/`` at a small sample size, so they never rot.

The kernel imports the package from this checkout (``PYTHONPATH``), and the notebooks read
``SOLO_NB_SAMPLES`` in their parameter cell.  Outputs are not compared, only that every cell
runs without an error and that every cell whose value is a figure shows it as an image (the
library's figures are made without pyplot, which no backend displays by itself), in the run
and in the outputs stored in the repository.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
#: deals per evaluation inside the notebooks while testing
SMALL = "8"
#: seconds any one cell may take before the run fails
CELL_TIMEOUT = 300


#: how IPython shows a figure as text (its ``text/plain``): ``<Figure size 520x446 with 2 Axes>``,
#: ``<ReportFigure size ...>`` for the library's own
FIGURE_TEXT = re.compile(r"<\w*Figure size \d+x\d+ with \d+ Axes>")
IMAGES = ("image/png", "image/svg+xml")


def figures_without_image(nb) -> list[int]:
    """Indexes of the code cells that output a Figure but no image of it."""
    bad = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        data = [o.get("data", {}) for o in cell.get("outputs", [])]
        figures = sum(bool(FIGURE_TEXT.search(str(d.get("text/plain", "")))) for d in data)
        images = sum(any(kind in d for kind in IMAGES) for d in data)
        if images < figures:
            bad.append(i)
    return bad


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_stored_notebooks_show_their_charts(path):
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(path, as_version=4)
    assert not figures_without_image(nb), f"cells with a Figure but no image: {path.name}"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("SOLO_NB_SAMPLES", SMALL)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    )
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()  # raises CellExecutionError naming the failing cell
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    # a figure made without pyplot must still show as an image, even headless (MPLBACKEND=Agg)
    assert not figures_without_image(nb), "cells whose Figure shows as text only"
    if (
        path.name == "odds_tables.ipynb"
        and (ROOT / "data" / "classic-pimc" / "metadata.json").is_file()
    ):
        # with the realistic-play tables committed, the last chart sets both models side by side
        last = [c for c in nb.cells if c.cell_type == "code"][-1]
        assert any("image/png" in o.get("data", {}) for o in last.get("outputs", []))


def test_there_are_notebooks():
    names = {p.name for p in NOTEBOOKS}
    assert {"should_i_bid_misere.ipynb", "solver_on_a_full_deal.ipynb"} <= names
