"""Statistics of the estimates: intervals for shares and means, and control variates.

:mod:`~solo_analysis.stats.intervals` holds the Wilson interval (of a share, and of a bounded
mean on few deals) and the widening for deals the solver could not settle;
:mod:`~solo_analysis.stats.control` the control-variate estimates that the advice uses to reach
a tolerance with fewer deals, and :mod:`~solo_analysis.stats.predictor` the networks fitted in
advance that predict Prop and Cop's and Solo's results, one more control variate each.
"""

from .control import (
    N_FEATURES,
    Controls,
    cv_mean,
    deal_features,
    mean_bounds,
    rate_bounds,
    rate_interval,
)
from .intervals import (
    PAIRED_MIN_EACH,
    Z95,
    alike_interval,
    paired_difference,
    range_interval,
    widen,
    wilson_interval,
)

__all__ = [
    "N_FEATURES",
    "PAIRED_MIN_EACH",
    "Z95",
    "Controls",
    "alike_interval",
    "cv_mean",
    "deal_features",
    "mean_bounds",
    "paired_difference",
    "range_interval",
    "rate_bounds",
    "rate_interval",
    "widen",
    "wilson_interval",
]
