"""Execute every notebook in ``notebooks/`` at a small sample size, so they never rot.

The kernel imports the package from this checkout (``PYTHONPATH``), and the notebooks read
``SOLO_NB_SAMPLES`` in their parameter cell.  Outputs are not compared, only that every cell
runs without an error.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
#: deals per evaluation inside the notebooks while testing
SMALL = "8"
#: seconds any one cell may take before the run fails
CELL_TIMEOUT = 300


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


def test_there_are_notebooks():
    names = {p.name for p in NOTEBOOKS}
    assert {"should_i_bid_misere.ipynb", "solver_on_a_full_deal.ipynb"} <= names
