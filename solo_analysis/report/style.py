"""The shared look of every chart, and writing charts to files.

Every chart is drawn on a :class:`ReportFigure`, a :class:`matplotlib.figure.Figure` created
without ``pyplot`` (no global state: nothing is left open), inside :func:`style`.  No backend
knows such a figure, so it shows itself in Jupyter: as a PNG image wherever it is the value of a
cell, with or without ``%matplotlib inline``.  Categories are told apart by fill, hatching and
marker shape, never by colour alone, so the charts survive a black-and-white printer.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import matplotlib as mpl
from cycler import cycler
from matplotlib.figure import Figure

from ..errors import PlotError

__all__ = [
    "FORMATS",
    "STYLE",
    "ReportFigure",
    "figure_format",
    "figure_png",
    "figure_svg",
    "save_figure",
    "style",
]

#: rcParams applied by :func:`style`: greys, light dotted grid, a colour map whose lightness
#: rises monotonically (so it also reads in greyscale), text kept as text in SVG output
STYLE: dict[str, Any] = {
    "font.family": "DejaVu Sans",  # has the suit symbols
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "axes.edgecolor": "0.2",
    "axes.linewidth": 0.8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.color": "0.8",
    "grid.linestyle": ":",
    "grid.linewidth": 0.6,
    "axes.prop_cycle": cycler(color=["0.1", "0.35", "0.55", "0.75"]),
    "legend.frameon": False,
    "legend.fontsize": 8,
    "hatch.linewidth": 0.6,
    "hatch.color": "0.15",
    "image.cmap": "cividis",
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "savefig.bbox": "tight",
    "svg.fonttype": "none",
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
}


#: file extension -> matplotlib format written by :func:`save_figure`
FORMATS: dict[str, str] = {".png": "png", ".svg": "svg"}


@contextmanager
def style() -> Iterator[None]:
    """Apply :data:`STYLE` to the figures created (and saved) inside the ``with`` block.

    Examples
    --------
    >>> from solo_analysis.report.style import style
    >>> with style():
    ...     pass  # draw here
    """
    with mpl.rc_context(STYLE):  # type: ignore[arg-type]  # the stubs type rc keys as literals
        yield


def figure_format(path: str | os.PathLike[str]) -> str:
    """The output format of ``path`` by its extension: ``"png"`` or ``"svg"``.

    Raises
    ------
    PlotError
        For any other extension.
    """
    ext = os.path.splitext(os.fspath(path))[1].lower()
    if ext not in FORMATS:
        raise PlotError(
            f"cannot write a chart to {os.fspath(path)!r}: the file name must end in .png or .svg"
        )
    return FORMATS[ext]


def save_figure(fig: Figure, path: str | os.PathLike[str], *, dpi: float | None = None) -> None:
    """Write ``fig`` to ``path`` as PNG or SVG (by the extension), in the shared style.

    Raises
    ------
    PlotError
        An extension other than ``.png`` / ``.svg``.
    OSError
        The file cannot be written.
    """
    fmt = figure_format(path)
    with style():
        fig.savefig(path, format=fmt, dpi=dpi)


class ReportFigure(Figure):
    """A Figure that Jupyter (IPython's display) shows as a PNG image.

    A figure made by ``pyplot`` is shown by the notebook's backend; one made directly, as the
    charts of this package are, is not, and would print as ``<Figure size 520x446 with 2 Axes>``.
    :meth:`_repr_png_` draws it in the shared style instead.  Where ``%matplotlib inline`` has
    registered its own printer for figures, that printer is used (IPython prefers it), and the
    cell still shows one image.
    """

    def _repr_png_(self) -> bytes:
        return figure_png(self)


def figure_png(fig: Figure) -> bytes:
    """The figure as PNG bytes, cropped to what is drawn (as the notebook's inline images)."""
    buf = io.BytesIO()
    with style():
        fig.savefig(buf, format="png", bbox_inches="tight")
    return buf.getvalue()


def figure_svg(fig: Figure) -> str:
    """The figure as an inline ``<svg>`` element (XML declaration and doctype dropped)."""
    buf = io.StringIO()
    with style():
        fig.savefig(buf, format="svg")
    text = buf.getvalue()
    start = text.find("<svg")
    return text[start:] if start >= 0 else text
