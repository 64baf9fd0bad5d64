"""The advice as HTML, for Jupyter: the recommendation, the table and the chart."""

from __future__ import annotations

import html
import math

from ..cards import trump_symbol
from .text import auction_lines, passing_lines, percent, question_budget_text, signed_units
from .view import AdviceView

__all__ = ["advice_html", "trump_html"]

_RED = "#c00000"


def trump_html(trump: str) -> str:
    """A trump as HTML: its symbol, hearts and diamonds in red; ``NT`` as it is."""
    if trump == "NT":
        return "NT"
    symbol = trump_symbol(trump)
    return f'<span style="color:{_RED}">{symbol}</span>' if trump in "HD" else symbol


def _stop_text(advice: AdviceView) -> str:
    """Why an adaptive run stopped short of its tolerance ("" if it did not)."""
    if advice.stopped == "interrupted":
        return " (interrupted: the deals solved before it)"
    if advice.stopped == "max_positions":
        return (
            f" (stopped at the cap of {advice.max_positions:,} search positions: "
            "max_positions=None runs on)"
        )
    if advice.stopped == "max_seconds":
        return f" (stopped at the time limit of {advice.max_seconds:g} s)"
    if advice.stopped == "max_samples" and not advice.converged:
        return " (stopped at max_samples)"
    if advice.stopped == "tolerance" and not advice.converged:
        return " (not all within the tolerance: too many deals unsolved for more deals to help)"
    return ""


def _unresolved_text(advice: AdviceView) -> str:
    if not advice.unresolved:
        return ""
    return f" ({advice.unresolved} unsolved{question_budget_text(advice)})"


def advice_html(advice: AdviceView, chart_svg: str = "") -> str:
    """The advice as an HTML fragment: summary, table, a footnote and ``chart_svg`` below."""
    head = ["contract", "trump", "partner", "p_make", "95% CI", "ev units", "ev 95% CI", "tricks"]
    best_row = None if advice.recommended is None else int(advice.recommended["row"])
    lines = []
    for rec in advice.table.to_dict("records"):
        style = []
        if rec["row"] == best_row:
            style.append("font-weight:bold;background:#e8f4e8")
        if not rec["allowed"]:
            style.append("color:#999")
        if rec["choice"] != "fixed":
            style.append("font-style:italic")
        tm = rec["tricks_mean"]
        cells = [
            html.escape(rec["title"] + ("" if rec["choice"] == "fixed" else f" ({rec['choice']})")),
            trump_html(rec["trump"]),
            html.escape(rec["partner"] or ""),
            percent(rec["p_make"]),
            f"{percent(rec['ci_low'])}–{percent(rec['ci_high'])}",
            signed_units(rec["ev_units"]),
            f"{signed_units(rec['ev_low'])} … {signed_units(rec['ev_high'])}",
            "" if not math.isfinite(tm) else f"{tm:.2f}",
        ]
        tds = "".join(f'<td style="padding:2px 8px;text-align:right">{c}</td>' for c in cells)
        lines.append(f'<tr style="{";".join(style)}">{tds}</tr>')
    ths = "".join(f'<th style="padding:2px 8px">{h}</th>' for h in head)
    table = (
        '<table style="border-collapse:collapse;font-family:monospace">'
        f"<tr>{ths}</tr>{''.join(lines)}</table>"
    )
    auction = "".join(
        f"<p><small>{html.escape(line)}</small></p>" for line in auction_lines(advice)
    )
    passing = "".join(
        f"<p><small>{html.escape(line)}</small></p>" for line in passing_lines(advice)
    )
    return (
        f"<div>{auction}<p>{html.escape(advice.summary())}</p>{table}{passing}"
        f"<p><small>{advice.samples} deals{_unresolved_text(advice)}, seed {advice.seed}"
        f"{_stop_text(advice)}; {html.escape(advice.play_note)}</small></p>"
        f"{chart_svg}</div>"
    )
