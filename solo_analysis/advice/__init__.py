"""Monte Carlo contract evaluation and bidding advice: :func:`advise` and its :class:`Advice`.

:func:`advise` samples deals consistent with the player's hand, seat and the turn-up, plays
every contract of the rule set on the *same* deals with a play model, and settles each result
with the rule set, so the differences between contracts are paired.  The work is split into
:mod:`~solo_analysis.advice.request` (the inputs, checked), :mod:`~solo_analysis.advice.sampling`
(the adaptive loop over batches of deals), :mod:`~solo_analysis.advice.table` (estimates,
intervals and the recommendation) and :mod:`~solo_analysis.advice.result` (the :class:`Advice`).

Rows of the table, one per contract option: one row for a contract with a fixed trump; one
per eligible suit plus a ``best`` row (the suit with the highest expected units over all the
deals: the declarer names trumps before seeing the other hands) where the declarer names
trumps; one per partner plus an ``any`` row (the average over the three) for Prop and Cop.
The ``candidate`` column marks the row that stands for its contract in the recommendation.
``docs/statistics.md`` explains the estimates, intervals and caps.
"""

from ..errors import AdviceError
from .compare import PlayComparison, compare_play
from .evaluate import advise
from .request import (
    DEFAULT_MAX_POSITIONS,
    DEFAULT_MAX_QUESTION_POSITIONS,
    DEFAULT_MAX_SAMPLES,
    DEFAULT_TOLERANCE,
    STOP_ON,
)
from .result import Advice
from .sampling import CUT_SHARE, FIRST_BATCH, MIN_CUT_BATCH, MIN_STEP, PROGRESS_CHUNK

__all__ = [
    "CUT_SHARE",
    "DEFAULT_MAX_POSITIONS",
    "DEFAULT_MAX_QUESTION_POSITIONS",
    "DEFAULT_MAX_SAMPLES",
    "DEFAULT_TOLERANCE",
    "FIRST_BATCH",
    "MIN_CUT_BATCH",
    "MIN_STEP",
    "PROGRESS_CHUNK",
    "STOP_ON",
    "Advice",
    "AdviceError",
    "PlayComparison",
    "advise",
    "compare_play",
]
