"""Rule sets: the contract ladder, unit values and the settlement of a hand.

The sources disagree on units, Prop and Cop settlement, Abundance and Declared trumps and
over/under tricks; each reading is a preset (``classic``, ``parlett``, ``french``, in
``presets/``) and every variant is an option of :class:`RuleSet`.  ``docs/rules.md`` describes
the options and the documents each preset follows.
"""

from .contracts import ALIASES, CONTRACT_NAMES, Contract, TrickCountError
from .loading import PRESETS, load_rules, rules_from_toml
from .ruleset import DEFAULT_PRESET, RuleSet

__all__ = [
    "ALIASES",
    "CONTRACT_NAMES",
    "DEFAULT_PRESET",
    "PRESETS",
    "Contract",
    "RuleSet",
    "TrickCountError",
    "load_rules",
    "rules_from_toml",
]
