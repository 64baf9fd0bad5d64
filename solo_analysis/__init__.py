"""solo-analysis: double-dummy analysis and bidding advice for Solo Whist.

The public names below are imported lazily, so ``import solo_analysis`` is cheap and the
numba-compiled kernels load only when first used.

Layout (data flows one way: nothing imports from a layer above it; ``tests/test_layers.py``
checks it)::

    errors -> cards, hand, deal (notation) -> rules (contracts, settlement)
           -> bidding (auction, hand features, bidding policy) -> sampler -> solver
           -> play (play models) -> stats (intervals, control variates)
           -> report (text, HTML, charts) -> advice, tables -> cli
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from ._kernel_cache import clear_stale_caches

__version__ = "0.1.0"

# Before any kernel is compiled or loaded from numba's cache: drop the caches built from
# other kernel sources than these (numba would not notice a change to an inlined helper).
# The path as numba sees it (not resolved: numba names its folders from the unresolved one).
clear_stale_caches(Path(__file__).parent)

# public name -> submodule that defines it
_LAZY: dict[str, str] = {
    # notation
    "Hand": "hand",
    "Deal": "deal",
    "parse_card": "cards",
    "card_str": "cards",
    # rules
    "RuleSet": "rules",
    "Contract": "rules",
    "load_rules": "rules",
    "PRESETS": "rules",
    # bidding
    "Auction": "bidding",
    # solver
    "solve": "solver",
    "solve_batch": "solver",
    "solve_questions": "solver",
    "Question": "solver",
    # sampler
    "sample_deals": "sampler",
    "DealSampler": "sampler",
    "Constraints": "sampler",
    # advice
    "advise": "advice",
    "Advice": "advice",
    # play models
    "PlayModel": "play",
}

__all__ = sorted(_LAZY) + ["__version__"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'solo_analysis' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
