"""Pieces the charts share: row labels, the heading of an advice, finite values, whiskers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..cards import SUIT_SYMBOLS, card_str, trump_symbol
from .view import AdviceView

__all__ = ["calls_text", "finite", "heading", "row_labels", "whiskers"]


def row_labels(table: pd.DataFrame) -> list[str]:
    """``"Solo"``; ``"Abundance (best: ♠)"``; ``"Abundance ♦"``; ``"Prop and Cop ♥, third"``."""
    per_contract = table.groupby("contract")["row"].transform("size")
    labels = []
    for rec, many in zip(table.to_dict("records"), per_contract, strict=False):
        title = str(rec["title"])
        if rec["choice"] == "best":
            labels.append(f"{title} (best: {trump_symbol(rec['trump'])})")
        elif rec["choice"] == "any":
            labels.append(f"{title} (any partner)")
        elif many == 1:
            labels.append(title)
        else:
            text = f"{title} {trump_symbol(rec['trump'])}"
            if rec["partner"]:
                text += f", {rec['partner']}"
            labels.append(text)
    return labels


def heading(advice: AdviceView) -> str:
    """The chart title's hand, seat, turn-up, rules and bid so far."""
    parts = str(advice.hand).split(".")
    hand = "  ".join(f"{SUIT_SYMBOLS[i]}{p or '-'}" for i, p in enumerate(parts))
    turnup = (
        "no turn-up"
        if advice.turnup is None
        else f"turn-up {card_str(advice.turnup, symbols=True)}"
    )
    over = f", over {advice.over}" if advice.over else ""
    auction = advice.auction
    if auction is not None:
        over += f"\nafter {auction or 'no calls'}; calls open: {calls_text(advice.legal_calls)}"
    return f"{hand}    {advice.seat}, {turnup}, {advice.rules.name} rules{over}"


def calls_text(calls: tuple[str, ...] | None) -> str:
    """The calls open to a player, short: ``"pass, cop, solo ... declared"`` for a long list."""
    calls = calls or ()
    if len(calls) <= 4:
        return ", ".join(calls)
    return f"{', '.join(calls[:3])} ... {calls[-1]}"


def finite(values: Any) -> np.ndarray:
    """``values`` as floats, infinities made NaN (matplotlib skips NaN)."""
    arr = np.asarray(values, dtype=float)
    return np.where(np.isfinite(arr), arr, np.nan)


def whiskers(mid: float, low: float, high: float) -> list[list[float]]:
    """Error-bar lengths below and above ``mid`` (never negative: rounding can cross ``mid``)."""
    return [[max(mid - low, 0.0)], [max(high - mid, 0.0)]]
