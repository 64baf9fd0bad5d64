"""solo-analysis: double-dummy analysis and bidding advice for Solo Whist.

The public names below are imported lazily, so ``import solo_analysis`` is cheap
and the numba-compiled kernels load only when first used.

Layout (data flows one way, nothing imports from a layer above it)::

    errors -> cards (notation) -> rules (contracts, settlement)
           -> _sampler / sampler -> _solver / solver -> advice -> reports / plots -> cli
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# public name -> submodule that defines it
_LAZY: dict[str, str] = {
    # notation
    "Hand": "cards",
    "Deal": "cards",
    "parse_card": "cards",
    "card_str": "cards",
    # rules
    "RuleSet": "rules",
    "Contract": "rules",
    "load_rules": "rules",
    "PRESETS": "rules",
    # solver
    "solve": "solver",
    "solve_batch": "solver",
    # sampler
    "sample_deals": "sampler",
    "DealSampler": "sampler",
    # advice
    "advise": "advice",
    "Advice": "advice",
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
