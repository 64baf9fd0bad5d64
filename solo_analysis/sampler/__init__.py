"""Deal sampler: uniform random deals consistent with what one player knows.

:class:`DealSampler` is a reproducible stream of deals (candidate ``i`` depends on the seed
and ``i`` alone, whatever the thread count); :func:`sample_deals` and :func:`random_deals`
draw from one.  :class:`Constraints` condition the deals (suit lengths, high-card points,
cards placed, a predicate).  The layout of the ``int8[n, 4, 13]`` arrays is described in
:mod:`solo_analysis.sampler.deals`; the compiled kernel is :mod:`solo_analysis.sampler._kernel`.
"""

from .constraints import DEFAULT_MIN_ACCEPTANCE, DEFAULT_TRIAL_BUDGET, Constraints
from .deals import (
    MAX_BATCH,
    DealSampler,
    check_seed,
    deals_at,
    high_card_points,
    random_deals,
    sample_deals,
    suit_lengths,
    turnup_cards,
)

__all__ = [
    "DEFAULT_MIN_ACCEPTANCE",
    "DEFAULT_TRIAL_BUDGET",
    "MAX_BATCH",
    "Constraints",
    "DealSampler",
    "check_seed",
    "deals_at",
    "high_card_points",
    "random_deals",
    "sample_deals",
    "suit_lengths",
    "turnup_cards",
]
