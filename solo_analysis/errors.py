"""Exception hierarchy.

Every error raised for bad *input* is a subclass of :class:`SoloAnalysisError`,
which is itself a :class:`ValueError`, so callers can catch either.  Messages are
one line, quote the offending input and name the problem.  :class:`Interrupted` is not
an error: a :class:`KeyboardInterrupt` that says which signal stopped the work and carries
what was finished.
"""

from __future__ import annotations

import signal
from typing import Any

__all__ = [
    "AdviceError",
    "AuctionError",
    "CardCountError",
    "CardError",
    "ConstraintError",
    "ContractError",
    "DealError",
    "DuplicateCardError",
    "HandError",
    "Interrupted",
    "PlayModelError",
    "PlotError",
    "PolicyError",
    "RuleSetError",
    "SamplingError",
    "SeatError",
    "SoloAnalysisError",
    "TableError",
    "TrumpError",
    "TurnupError",
    "interrupt_behind",
    "signal_of",
]


class SoloAnalysisError(ValueError):
    """Base class of every input error raised by solo-analysis."""


class CardError(SoloAnalysisError):
    """A card could not be parsed: unknown rank or suit, or malformed text."""


class DuplicateCardError(SoloAnalysisError):
    """The same card appears twice (in one hand, or in two hands of a deal)."""


class CardCountError(SoloAnalysisError):
    """A hand or deal holds the wrong number of cards."""


class HandError(SoloAnalysisError):
    """A hand's text could not be parsed for a reason other than a bad card."""


class DealError(SoloAnalysisError):
    """A deal's text or arrays are malformed."""


class SeatError(SoloAnalysisError):
    """An unknown seat name, or an invalid combination of seats."""


class TrumpError(SoloAnalysisError):
    """An unknown trump suit / denomination."""


class ContractError(SoloAnalysisError):
    """An unknown contract name, or a contract the rule set does not have."""


class RuleSetError(SoloAnalysisError):
    """An unknown rule-set preset, or an invalid rule-set file or option."""


class TurnupError(SoloAnalysisError):
    """The turned-up trump card contradicts the player's hand or seat."""


class ConstraintError(SoloAnalysisError):
    """A sampling constraint is invalid, impossible, or too rare to sample."""


class SamplingError(SoloAnalysisError):
    """A bad sampling request: a negative deal count, or a seed that is not an int in [0, 2**64)."""


class PlotError(SoloAnalysisError):
    """A chart cannot be drawn from the data given.

    For example a missing column, an empty frame, or no trick counts.
    """


class TableError(SoloAnalysisError):
    """A bad odds-table run.

    A bad deal count, chunk size or output directory, or a run that cannot resume.
    """


class PlayModelError(SoloAnalysisError):
    """An unknown play model, or a play-model option out of range."""


class AdviceError(SoloAnalysisError):
    """A bad advice request: tolerance, sample counts, caps, or a hand/turn-up mismatch."""


class AuctionError(SoloAnalysisError):
    """An auction that cannot be: a call out of turn, one the rules forbid, an unknown call."""


class PolicyError(SoloAnalysisError):
    """A bidding policy that cannot be read, or an auction its deals are too rare to sample."""


class Interrupted(KeyboardInterrupt):
    """A signal stopped the work: Ctrl-C (SIGINT) or SIGTERM.

    A :class:`KeyboardInterrupt`, so whatever handles Ctrl-C handles it too.  The command
    line raises it from its SIGTERM handler, and :func:`~solo_analysis.advice.advise` raises it
    with the advice from the deals solved before the interrupt.

    Attributes
    ----------
    signum : int
        The signal: ``signal.SIGINT`` (2) or ``signal.SIGTERM`` (15); the command line exits
        with ``128 + signum`` (130, 143).
    partial : object or None
        What was finished before it (an :class:`~solo_analysis.advice.Advice` marked
        ``stopped == "interrupted"``), or ``None``.
    detail : str
        What ``partial`` is, in a few words (``""`` without one); the command line adds it to
        its one line.
    """

    def __init__(self, signum: int = signal.SIGINT, partial: Any = None, detail: str = "") -> None:
        super().__init__(detail or signal.Signals(signum).name)
        self.signum = int(signum)
        self.partial = partial
        self.detail = detail


def signal_of(interrupt: KeyboardInterrupt) -> int:
    """The signal an interrupt stands for: an :class:`Interrupted`'s, else SIGINT (Ctrl-C).

    Examples
    --------
    >>> signal_of(KeyboardInterrupt()) == signal.SIGINT
    True
    >>> signal_of(Interrupted(signal.SIGTERM)) == signal.SIGTERM
    True
    """
    return int(getattr(interrupt, "signum", signal.SIGINT))


def interrupt_behind(exc: BaseException) -> KeyboardInterrupt | None:
    """The interrupt (Ctrl-C, or a signal's :class:`Interrupted`) behind ``exc``, or ``None``.

    ``exc`` itself if it is one, else the first interrupt down its chain of causes and
    contexts.  numba turns an exception that a signal handler raises while it loads or runs
    a compiled function on the calling thread into a ``SystemError`` caused by it; this
    finds the signal behind such an error.

    Examples
    --------
    >>> try:
    ...     try:
    ...         raise KeyboardInterrupt
    ...     except KeyboardInterrupt as inner:
    ...         raise SystemError("returned a result with an exception set") from inner
    ... except SystemError as exc:
    ...     type(interrupt_behind(exc)).__name__
    'KeyboardInterrupt'
    >>> interrupt_behind(ValueError("bad")) is None
    True
    """
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, KeyboardInterrupt):
            return cur
        cur = cur.__cause__ or cur.__context__
    return None
