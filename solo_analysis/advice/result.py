"""The result of an advice: the table of contract options, the recommendation, and its views.

:class:`Advice` holds what :func:`~solo_analysis.advice.advise` found and gives it as data
(:meth:`Advice.to_frame`, :meth:`Advice.to_dict`, :meth:`Advice.to_json`, :meth:`Advice.to_csv`,
:meth:`Advice.tricks_frame`), as text (:meth:`Advice.summary`, :meth:`Advice.to_text`), as charts
(:meth:`Advice.plot`, :meth:`Advice.plot_tricks`) and as HTML in Jupyter; the views are drawn
by :mod:`solo_analysis.report`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..cards import NT, SUIT_NAMES, card_str, parse_trump, trump_symbol
from ..hand import Hand
from ..report.html import advice_html
from ..report.text import advice_text, percent, signed_units
from ..rules import RuleSet

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .passing import PassValue

__all__ = ["JSON_COLUMNS", "Advice"]

JSON_COLUMNS = (
    "row",
    "contract",
    "title",
    "rank",
    "trump",
    "partner",
    "choice",
    "candidate",
    "allowed",
    "recommended",
    "target",
    "misere",
    "leader",
    "exposed",
    "solved",
    "unsolved",
    "samples",
    "unresolved",
    "p_make",
    "ci_low",
    "ci_high",
    "p_raw",
    "corrected",
    "ev_units",
    "ev_low",
    "ev_high",
    "tricks_mean",
    "exact",
    "play_model",
)


def _plain(value: Any) -> Any:
    """A JSON-ready Python value (numpy scalars unwrapped, NaN -> None)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


@dataclass(frozen=True, eq=False)
class Advice:
    """The evaluation of every contract option for one hand, and the bidding recommendation.

    Attributes
    ----------
    hand : Hand
        The player's 13 cards.
    seat : str
        The player's seat (``"eldest"``, ``"second"``, ``"third"``, ``"dealer"``).
    turnup : int or None
        The turn-up card code (``None`` without a turn-up).
    rules : RuleSet
    samples : int
        Deals sampled.  With a fixed ``samples`` every row is evaluated on all of them; an
        adaptive run evaluates every row on the first deals and stops each contract once its
        own intervals reach the tolerance, so a row may use fewer.  A row's estimates leave out
        the deals the solver gave up on for it; the table's ``solved`` and ``unsolved`` columns
        add up to the deals that row was evaluated on (``samples`` and ``unresolved`` are the
        same two counts under their former names).
    seed : int
        Seed of the deal stream; ``advise(..., seed=advice.seed)`` repeats the run.
    play_model : str
        Name of the play model (``"double-dummy"``); :attr:`play_note` is its caveat.
    table : pandas.DataFrame
        One row per contract option, with the columns of :data:`JSON_COLUMNS`: among them
        ``solved`` / ``unsolved`` (the deals behind the row), ``p_make`` with ``ci_low`` /
        ``ci_high``, ``ev_units`` with ``ev_low`` / ``ev_high``, ``corrected`` (the estimates
        are the control-variate ones; else the plain rate, Wilson's interval) and
        ``recommended`` (the row bid; none for a pass).
    distribution : pandas.DataFrame
        Long table: ``row, contract, trump, partner, choice, tricks, count, share`` for every row
        whose tricks were counted (all rows with ``exact=True``); :meth:`tricks_frame` adds the
        title, target and a ``made`` column.
    recommendation : str
        The contract name to bid, or ``"pass"``; :attr:`recommended_trump` and
        :attr:`recommended_bid` add the trump the declarer names.
    recommended : pandas.Series or None
        The table row of the recommendation (``None`` for a pass).
    runner_up : pandas.Series or None
        The next best allowed candidate (``None`` if passing is second best or nothing else is
        allowed).
    close_call : bool
        True if the top two choices (passing counts as a choice worth 0) cannot be told apart:
        the 95 % interval of their paired difference (:attr:`margin`) reaches 0.
    margin : tuple of float
        Paired difference of expected units, best minus second best: ``(mean, low, high)``.
    over : str or None
        The highest bid so far (only higher contracts are ``allowed``).
    tolerance : float or None
        Target half-width of the ``p_make`` intervals (``None`` when ``samples`` was fixed).
    stop_on : str or None
        The rows adaptive sampling brought to the tolerance: ``"rows"`` (every fixed row) or
        ``"bid"`` (the ``candidate`` rows alone); ``None`` when ``samples`` was fixed.
    converged : bool
        True if the reported ``p_make`` interval (widened for its unresolved deals) of every
        row that ``stop_on`` names is within the tolerance (always True with fixed
        ``samples``).
    unresolved : int
        Deals on which at least one question took the solver more than
        :attr:`max_question_positions` positions (each row's own count is its ``unresolved``
        column; its intervals cover every outcome those deals could have had).
    max_question_positions : int or None
        The solver's cap per question (``None``: none, every deal solved exactly).
    control_variates : bool
        Whether the estimates were corrected by the deals' features (see :func:`advise`).
    stopped : str
        Why sampling stopped: ``"samples"`` (a fixed number of deals), ``"tolerance"`` (every
        contract's intervals reached it), ``"max_samples"`` (the cap on deals) or
        ``"max_seconds"`` (the time limit; ``advise(..., seed=advice.seed,
        max_samples=advice.samples)`` repeats the run without it) or ``"max_positions"``
        (the cap on the search's work; the same seed repeats the run).
    max_seconds : float or None
        The time limit of the run (``None``: none).
    positions : int or None
        Search positions the play model spent on this advice (``None`` if it does not count).
    max_positions : int or None
        The cap on them (``None``: none, or a fixed ``samples`` run).
    outcomes : dict of int to numpy.ndarray
        Per table row (its ``row``): whether the contract made on each deal the row was asked
        on, in the deals' order (1.0 / 0.0; NaN where the play model gave up; for an ``any``
        row the share of the partners with whom it made).  Two advices of the same hand and
        seed share their deals, so these pair them (:func:`~solo_analysis.advice.compare_play`).
    auction : str or None
        The calls before the player's (``advise(..., auction=...)``; ``None`` if none was given,
        ``""`` for the first call of the hand).
    legal_calls : tuple of str or None
        The calls the player may make now (``"pass"``, ``"cop"``, contracts): the only ones
        evaluated.  :attr:`recommendation` is ``"cop"`` when accepting the open Prop is best.
    policy : str or None
        The bidding policy that read the other calls and plays the rest of the auction.
    acceptance : float or None
        The share of the drawn deals that agree with the other players' calls under the policy
        (``None`` when the deals were not conditioned on the auction).
    passing : PassValue or None
        What passing is worth now (:mod:`solo_analysis.advice.passing`): the chance the hand is
        thrown in, the final contracts, the expected units with their interval.  The
        recommendation itself weighs passing as 0, the result of a hand nobody plays, and shows
        this value beside it.
    proposing : PassValue or None
        Where Prop is a call open to the player: what proposing is worth with the rest of the
        auction the policy's, the chance nobody accepts (the hand thrown in) included, which the
        ``any`` row's plain average over the three partners leaves out.

    Notes
    -----
    Views: :meth:`summary` (one line), :meth:`to_frame` / :meth:`to_json` / :meth:`to_csv`,
    :meth:`tricks_frame`, the charts :meth:`plot` and :meth:`plot_tricks`
    (:mod:`solo_analysis.report`, matplotlib imported on first use), and in Jupyter the table with
    the chart as inline SVG.
    """

    hand: Hand
    seat: str
    turnup: int | None
    rules: RuleSet
    samples: int
    seed: int
    play_model: str
    play_note: str
    table: pd.DataFrame
    distribution: pd.DataFrame
    recommendation: str
    recommended: pd.Series | None
    runner_up: pd.Series | None
    close_call: bool
    margin: tuple[float, float, float]
    over: str | None = None
    tolerance: float | None = None
    stop_on: str | None = None
    converged: bool = True
    unresolved: int = 0
    max_question_positions: int | None = None
    control_variates: bool = False
    stopped: str = "samples"
    max_seconds: float | None = None
    positions: int | None = None
    max_positions: int | None = None
    outcomes: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    auction: str | None = None
    legal_calls: tuple[str, ...] | None = None
    policy: str | None = None
    acceptance: float | None = None
    passing: PassValue | None = field(default=None, repr=False)
    proposing: PassValue | None = field(default=None, repr=False)

    # -- text -------------------------------------------------------------------------------

    @staticmethod
    def _label(row: pd.Series, symbols: bool = True) -> str:
        """``"Solo"``, or ``"Abundance (♠)"`` for a declarer's-choice row."""
        text = str(row["title"])
        if row["choice"] == "best":
            trump = row["trump"]
            text += f" ({trump_symbol(trump) if symbols else trump})"
        return text

    @property
    def recommended_trump(self) -> str | None:
        """The trump of the recommended bid (``"S"``, ``"H"``, ``"D"``, ``"C"``, ``"NT"``).

        ``None`` for a pass.  For a contract whose trump the declarer names (Abundance,
        Abundance Declared), the one he should name.
        """
        if self.recommended is None:
            return None
        return str(self.recommended["trump"])

    @property
    def recommended_bid(self) -> str:
        """The bid to make, in words: ``"solo"``, ``"abundance (spades)"``, ``"pass"``.

        The contract name, with the trump where the declarer names it.
        """
        if self.recommended is None:
            return "pass"
        if self.recommendation == "cop":
            return f"cop (Prop and Cop with {self.recommended['partner']})"
        return self._bid(self.recommended)

    def _bid(self, row: pd.Series) -> str:
        """``"abundance (spades)"`` for a declarer's choice of trumps, else the contract name."""
        name = str(row["contract"])
        if not self.rules.contract(name).trump.startswith("declarer"):
            return name
        trump = parse_trump(str(row["trump"]))
        return f"{name} ({'no trump' if trump == NT else SUIT_NAMES[trump]})"

    def summary(self) -> str:
        """One line, e.g. ``"Bid Misère: 71% (68–74%), +3.8 units; Solo is second at +1.2"``."""
        line = self._summary()
        if self.passing is not None:
            p = self.passing
            line += (
                f"; passing is worth {signed_units(p.ev_units)} "
                f"({signed_units(p.ev_low)} to {signed_units(p.ev_high)}) under the policy"
            )
        if self.unresolved:
            line += (
                f"; {self.unresolved} of {self.samples} deals unsolved, "
                "counted both ways in the intervals"
            )
        return line

    def _summary(self) -> str:
        best, second = self.recommended, self.runner_up
        if best is None:
            line = "Pass: no allowed contract is expected to win"
            top = self._best_allowed()
            if top is not None:
                line += f" (best: {self._label(top)} at {signed_units(top['ev_units'])})"
            else:
                line += " (nothing above the bid so far)"
            if self.close_call and top is not None:
                line += "; close call"
            return line
        said = (
            f"Call {self.recommended_bid}"
            if self.recommendation == "cop"
            else f"Bid {self._label(best)}"
        )
        line = (
            f"{said}: {percent(best['p_make'])} "
            f"({percent(best['ci_low'])}–{percent(best['ci_high'])}), "
            f"{signed_units(best['ev_units'])} units"
        )
        if second is not None:
            line += f"; {self._label(second)} is second at {signed_units(second['ev_units'])}"
        else:
            line += "; passing is second at 0.0"
        if self.close_call:
            line += " (close call: the difference is within the noise)"
        return line

    def _best_allowed(self) -> pd.Series | None:
        cands = self.table[self.table["candidate"] & self.table["allowed"]]
        if cands.empty:
            return None
        best: pd.Series = cands.iloc[int(np.argmax(cands["ev_units"].to_numpy()))]
        return best

    def __repr__(self) -> str:
        turnup = None if self.turnup is None else card_str(self.turnup)
        return (
            f"<Advice {str(self.hand)!r} seat={self.seat} turnup={turnup} rules={self.rules.name} "
            f"samples={self.samples} seed={self.seed}: {self.recommended_bid}>"
        )

    # -- data -------------------------------------------------------------------------------

    def to_frame(self) -> pd.DataFrame:
        """A copy of :attr:`table`."""
        return self.table.copy()

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of :meth:`to_json` as Python objects."""
        contracts = [
            {col: _plain(rec[col]) for col in JSON_COLUMNS} for rec in self.table.to_dict("records")
        ]
        if self.recommended is None:
            rec: dict[str, Any] = {
                "contract": "pass",
                "bid": "pass",
                "title": "Pass",
                "trump": None,
                "ev_units": 0.0,
            }
        else:
            r = self.recommended
            rec = {
                "contract": r["contract"],
                "bid": self._bid(r),
                "title": r["title"],
                "trump": r["trump"],
                "row": _plain(r["row"]),
                "p_make": _plain(r["p_make"]),
                "ci_low": _plain(r["ci_low"]),
                "ci_high": _plain(r["ci_high"]),
                "ev_units": _plain(r["ev_units"]),
                "ev_low": _plain(r["ev_low"]),
                "ev_high": _plain(r["ev_high"]),
            }
        rec["close_call"] = bool(self.close_call)
        rec["runner_up"] = (
            None
            if self.runner_up is None
            else {
                "contract": self.runner_up["contract"],
                "bid": self._bid(self.runner_up),
                "trump": self.runner_up["trump"],
                "ev_units": _plain(self.runner_up["ev_units"]),
            }
        )
        rec["margin"] = [_plain(float(x)) for x in self.margin]
        rec["call"] = self.recommendation  # "cop" where the contract is an accepted Prop
        rec["summary"] = self.summary()
        return {
            "hand": str(self.hand),
            "seat": self.seat,
            "turnup": None if self.turnup is None else card_str(self.turnup),
            "rules": self.rules.name,
            "samples": int(self.samples),
            "seed": int(self.seed),
            "play_model": self.play_model,
            "play_note": self.play_note,
            "over": self.over,
            "tolerance": self.tolerance,
            "stop_on": self.stop_on,
            "converged": bool(self.converged),
            "unresolved": int(self.unresolved),
            "max_question_positions": (
                None if self.max_question_positions is None else int(self.max_question_positions)
            ),
            "control_variates": bool(self.control_variates),
            "stopped": self.stopped,
            "max_seconds": self.max_seconds,
            "positions": None if self.positions is None else int(self.positions),
            "max_positions": None if self.max_positions is None else int(self.max_positions),
            "contracts": contracts,
            "recommendation": rec,
            "auction": self.auction,
            "legal_calls": None if self.legal_calls is None else list(self.legal_calls),
            "policy": self.policy,
            "acceptance": _plain(self.acceptance),
            "passing": None if self.passing is None else self._value_dict(self.passing),
            "proposing": None if self.proposing is None else self._value_dict(self.proposing),
        }

    @staticmethod
    def _value_dict(p: PassValue) -> dict[str, Any]:
        return {
            "deals": p.deals,
            "ev_units": _plain(p.ev_units),
            "ev_low": _plain(p.ev_low),
            "ev_high": _plain(p.ev_high),
            "thrown_in": _plain(p.thrown_in),
            "thrown_in_low": _plain(p.thrown_in_low),
            "thrown_in_high": _plain(p.thrown_in_high),
            "unresolved": p.unresolved,
            "outcomes": [
                {k: _plain(v) for k, v in rec.items()} for rec in p.outcomes.to_dict("records")
            ],
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The advice as a JSON document (:meth:`to_dict` serialised).

        Its keys include ``hand, seat, turnup, rules, samples, seed, play_model,
        contracts: [...], recommendation: {...}``.
        """
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def to_csv(self, path: Any = None) -> str | None:
        """Header + one line per contract option (the columns of the JSON ``contracts``).

        The ``recommended`` column marks the row to bid (no row for a pass).  Returns the
        text, or writes it to ``path`` and returns ``None``.
        """
        text: str | None = self.table.loc[:, list(JSON_COLUMNS)].to_csv(path, index=False)
        return text

    def tricks_frame(self) -> pd.DataFrame:
        """The trick-count distributions as a long frame, one line per (row, tricks).

        Columns: ``row, contract, title, trump, partner, choice, target, misere, tricks, made,
        count, share``; ``made`` says whether the contract makes with that many tricks.  Empty
        (with these columns) when no tricks were counted: run ``advise(..., exact=True)``.
        Group or pivot it freely, e.g.
        ``advice.tricks_frame().pivot_table(index="tricks", columns="contract", values="share")``.
        """
        cols = [
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
        dist = self.distribution
        if dist.empty:
            return pd.DataFrame(columns=cols)
        extra = self.table.set_index("row")[["title", "target", "misere"]]
        out = dist.join(extra, on="row")
        out["made"] = [
            bool(self.rules.contract(c).is_made(np.asarray([t]))[0])
            for c, t in zip(out["contract"], out["tricks"], strict=False)
        ]
        return out.loc[:, cols].reset_index(drop=True)

    def to_text(self) -> str:
        """The advice as the command line prints it.

        See :func:`solo_analysis.report.text.advice_text`.
        """
        return advice_text(self)

    def plot(self, ax: Any = None, **kwargs: Any) -> Figure:
        """Draw the advice chart and return the Figure.

        See :func:`solo_analysis.report.charts.advice_chart`.
        """
        from ..report.charts import advice_chart

        return advice_chart(self, ax, **kwargs)

    def plot_tricks(self, rows: Any = None, **kwargs: Any) -> Figure:
        """The trick-count distributions (:func:`solo_analysis.report.tricks.tricks_chart`).

        Raises
        ------
        PlotError
            When no tricks were counted (run ``advise(..., exact=True)``).
        """
        from ..report.tricks import tricks_chart

        return tricks_chart(self, rows, **kwargs)

    def _chart_svg(self) -> str:
        """The advice chart as inline SVG, or "" if it cannot be drawn (the table still shows)."""
        try:
            from ..report.charts import advice_chart
            from ..report.style import figure_svg

            return figure_svg(advice_chart(self))
        except Exception:  # a display helper must never break the notebook
            return ""

    def _repr_html_(self) -> str:
        return advice_html(self, self._chart_svg())
