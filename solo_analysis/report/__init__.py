"""Reports: an advice or an odds table as text, HTML and charts, in one style.

:mod:`~solo_analysis.report.text` (terminal tables), :mod:`~solo_analysis.report.html`
(Jupyter), :mod:`~solo_analysis.report.charts` (the advice and comparison charts),
:mod:`~solo_analysis.report.tricks` (trick distributions),
:mod:`~solo_analysis.report.odds` (heatmaps and lines of the odds tables) and
:mod:`~solo_analysis.report.style` (the shared look, writing figures).  matplotlib is imported
by the chart modules only.
"""

from .text import advice_text, deal_diagram, hand_text, text_table

__all__ = ["advice_text", "deal_diagram", "hand_text", "text_table"]
