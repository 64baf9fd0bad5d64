"""What the reports read of an advice: the attributes of :class:`~solo_analysis.advice.Advice`.

The reports are drawn from these attributes alone (a structural type), so this layer needs
nothing from the advice's own modules, and an object from elsewhere with the same attributes
(a loaded JSON document wrapped up, say) draws the same way.
"""

from __future__ import annotations

from typing import Any, Protocol

import pandas as pd

from ..hand import Hand
from ..rules import RuleSet

__all__ = ["AdviceView", "ComparisonView"]


class AdviceView(Protocol):
    """The attributes of an advice that its text, HTML and charts show (all read-only)."""

    @property
    def hand(self) -> Hand:
        """The player's 13 cards."""

    @property
    def seat(self) -> str:
        """The player's seat in play order (eldest, second, third, dealer)."""

    @property
    def turnup(self) -> int | None:
        """The turn-up card code (``None`` without one)."""

    @property
    def rules(self) -> RuleSet:
        """The rule set the contracts were settled under."""

    @property
    def samples(self) -> int:
        """Deals sampled."""

    @property
    def seed(self) -> int:
        """Seed of the deal stream."""

    @property
    def play_model(self) -> str:
        """The name of the play model."""

    @property
    def play_note(self) -> str:
        """A one-line caveat of the play model."""

    @property
    def table(self) -> pd.DataFrame:
        """One row per contract option."""

    @property
    def distribution(self) -> pd.DataFrame:
        """The trick-count distributions (long form)."""

    @property
    def recommended(self) -> pd.Series | None:
        """The table row of the recommendation (``None``: pass)."""

    @property
    def runner_up(self) -> pd.Series | None:
        """The table row of the next best allowed option (``None``: passing, or nothing)."""

    @property
    def over(self) -> str | None:
        """The highest bid so far (``None``: none)."""

    @property
    def tolerance(self) -> float | None:
        """Target half-width of adaptive sampling (``None``: fixed samples)."""

    @property
    def stop_on(self) -> str | None:
        """The rows adaptive sampling watched: ``"rows"``, ``"bid"`` (``None``: fixed samples)."""

    @property
    def converged(self) -> bool:
        """Whether every reported interval is within the tolerance."""

    @property
    def stopped(self) -> str:
        """Why sampling stopped."""

    @property
    def unresolved(self) -> int:
        """Deals some question was given up on."""

    @property
    def max_question_positions(self) -> int | None:
        """The search positions allowed per question (``None``: no cap)."""

    @property
    def max_seconds(self) -> float | None:
        """The time limit of the run (``None``: none)."""

    @property
    def max_positions(self) -> int | None:
        """The cap on the search positions of the run (``None``: none)."""

    @property
    def auction(self) -> str | None:
        """The calls before the player's (``None``: no auction given)."""

    @property
    def legal_calls(self) -> tuple[str, ...] | None:
        """The calls the player may make now (``None``: no auction given)."""

    @property
    def policy(self) -> str | None:
        """The bidding policy's name (``None``: no auction given)."""

    @property
    def acceptance(self) -> float | None:
        """The share of drawn deals that agree with the others' calls (``None``: unconditioned)."""

    @property
    def passing(self) -> Any:
        """What passing is worth (an ``advice.passing.PassValue``; ``None``: no auction)."""

    @property
    def proposing(self) -> Any:
        """What proposing is worth, acceptance included (``None``: no auction, or no Prop)."""

    def summary(self) -> str:
        """The recommendation in one line."""
        ...


class ComparisonView(Protocol):
    """What the reports read of a comparison of two play models (:class:`PlayComparison`)."""

    @property
    def first(self) -> AdviceView:
        """The advice under the first play model."""

    @property
    def second(self) -> AdviceView:
        """The advice under the second, on the same deals."""

    @property
    def table(self) -> pd.DataFrame:
        """Each contract option's share made under both and their paired difference."""
