"""The catalogue of contracts: names, aliases, targets, trumps and who leads.

Every contract any rule set may have is a row of :data:`CATALOGUE`; a rule set
(:class:`~solo_analysis.rules.RuleSet`) picks its ladder from it and fills in the options.
Names (API, command line, tables): ``prop``, ``solo``, ``misere``, ``abundance``,
``royal-abundance``, ``spread-misere``, ``declared``, and with the Grand Slam variant
``petit-slam`` and ``grand-slam``; :data:`ALIASES` maps the other spellings players use
(``prop-and-cop``, ``misère``, ``abundance-in-trumps``, ``misere-ouverte``, ``slam``, ...).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ContractError

__all__ = [
    "ABUNDANCE_TRUMPS",
    "ALIASES",
    "AUCTIONS",
    "CATALOGUE",
    "CONTRACT_NAMES",
    "DECLARED_TRUMPS",
    "ENABLE_HINT",
    "LEADERS",
    "N_TRICKS",
    "OVERTRICK_SCHEMES",
    "PROP_STYLES",
    "TRICK_BONUS",
    "TRUMP_RULES",
    "Contract",
    "TrickCountError",
    "canonical_names",
    "normalise_name",
]

N_TRICKS = 13  # tricks in a hand


class TrickCountError(ContractError):
    """A trick count that is not an integer in 0..13."""


# Trump rules of a contract (comment each encoding once):
#   "turnup"           the suit of the turned-up card
#   "none"             no trump
#   "declarer"         any suit, named by the declarer
#   "declarer-new"     a suit named by the declarer, other than the turn-up suit
#   "declarer-or-none" a suit or no trump, named by the declarer
TRUMP_RULES = ("turnup", "none", "declarer", "declarer-new", "declarer-or-none")
LEADERS = ("eldest", "declarer")  # who leads to the first trick
PROP_STYLES = ("pairwise", "per-player")
OVERTRICK_SCHEMES = ("none", "flat", "excess")
AUCTIONS = ("classic", "french")  # bidding procedures (see solo_analysis.bidding.auction)
ABUNDANCE_TRUMPS = ("declarer-new", "declarer", "declarer-or-none")
DECLARED_TRUMPS = ("declarer", "none", "declarer-or-none")


@dataclass(frozen=True)
class Contract:
    """One contract of a rule set's ladder.

    Attributes
    ----------
    name : str
        Canonical name, e.g. ``"royal-abundance"``.
    title : str
        Display name, e.g. ``"Royal Abundance"``, ``"Misère"``.
    rank : int
        Position in the ladder, 0 = lowest.
    target : int
        Tricks the declarer side must take; for misères the most tricks allowed (0).
    misere : bool
        True if the declarer must take at most ``target`` tricks.
    trump : str
        ``"turnup"``, ``"none"``, ``"declarer"`` (any suit, declarer's choice), ``"declarer-new"``
        (a suit other than the turn-up) or ``"declarer-or-none"``.
    leader : str
        Who leads to the first trick: ``"eldest"`` or ``"declarer"``.
    partnership : bool
        True only for ``prop`` (two partners against two).
    units : float
        Units per defender at the rule set's base (after ``solo_base`` scaling), before stake.
    exposed : bool
        True if the declarer's hand is laid face up after the first trick (Spread Misère).
    """

    name: str
    title: str
    rank: int
    target: int
    misere: bool
    trump: str
    leader: str
    partnership: bool
    units: float
    exposed: bool = False

    def is_made(self, tricks: Any) -> Any:
        """Whether the declarer side's ``tricks`` fulfil the contract (bool or boolean array)."""
        t = np.asarray(tricks)
        made = t <= self.target if self.misere else t >= self.target
        return bool(made) if made.ndim == 0 else made


# The catalogue: every contract any rule set may have, in ladder order (lowest first).
# (name, title, target, misere, trump, leader, partnership, exposed); a trump of "abundance" or
# "declared" is filled in from the rule set's abundance_trump / declared_trump option.
CATALOGUE: tuple[tuple[str, str, int, bool, str, str, bool, bool], ...] = (
    ("prop", "Prop and Cop", 8, False, "turnup", "eldest", True, False),
    ("solo", "Solo", 5, False, "turnup", "eldest", False, False),
    ("misere", "Misère", 0, True, "none", "eldest", False, False),
    ("abundance", "Abundance", 9, False, "abundance", "eldest", False, False),
    ("royal-abundance", "Royal Abundance", 9, False, "turnup", "eldest", False, False),
    ("petit-slam", "Petit Slam", 12, False, "declarer", "declarer", False, False),
    ("spread-misere", "Spread Misère", 0, True, "none", "eldest", False, True),
    ("declared", "Abundance Declared", 13, False, "declared", "declarer", False, False),
    ("grand-slam", "Grand Slam", 13, False, "declarer", "declarer", False, False),
)
CONTRACT_NAMES: tuple[str, ...] = tuple(row[0] for row in CATALOGUE)

# Aliases (normalised form) -> canonical candidates, the first one in the rule set wins.
ALIASES: dict[str, tuple[str, ...]] = {
    **{name: (name,) for name in CONTRACT_NAMES},
    "prop-and-cop": ("prop",),
    "prop-cop": ("prop",),
    "propcop": ("prop",),
    "prop-n-cop": ("prop",),
    "cop": ("prop",),
    "proposal": ("prop",),
    "proposal-and-acceptance": ("prop",),
    "misery": ("misere",),
    "miseria": ("misere",),
    "nullo": ("misere",),
    "abondance": ("abundance",),
    "abundancia": ("abundance",),
    "bundle": ("abundance",),
    "royal": ("royal-abundance",),
    "abundance-in-trumps": ("royal-abundance",),
    "abundance-in-trump": ("royal-abundance",),
    "abundance-royal": ("royal-abundance",),
    "abundance-royale": ("royal-abundance",),
    "abundancia-real": ("royal-abundance",),
    "spread": ("spread-misere",),
    "spread-misery": ("spread-misere",),
    "misere-ouverte": ("spread-misere",),
    "misere-ouvert": ("spread-misere",),
    "open-misere": ("spread-misere",),
    "misere-open": ("spread-misere",),
    "miseria-abierta": ("spread-misere",),
    "abundance-declared": ("declared",),
    "abundance-declaree": ("declared",),
    "abondance-declaree": ("declared",),
    "abundancia-declarada": ("declared",),
    "slam": ("declared", "grand-slam"),
    "little-slam": ("petit-slam",),
    "small-slam": ("petit-slam",),
    "petit-chelem": ("petit-slam",),
    "grand-chelem": ("grand-slam",),
}

# Over/under-trick payments per scheme: contract -> (units per over-trick, units per under-trick).
TRICK_BONUS: dict[str, dict[str, tuple[float, float]]] = {
    "none": {},
    "flat": dict.fromkeys(
        ("prop", "solo", "abundance", "royal-abundance", "petit-slam", "declared", "grand-slam"),
        (1.0, 1.0),
    ),
    "excess": {
        "prop": (1.0, 1.0),
        "solo": (1.0, 1.0),
        "abundance": (2.0, 1.0),
        "royal-abundance": (2.0, 1.0),
    },
}

# Which option brings a contract back into the ladder (for error messages).
ENABLE_HINT = {
    "prop": " (needs prop = true)",
    "royal-abundance": " (needs turnup = true)",
    "declared": " (needs slams = false)",
    "petit-slam": " (needs slams = true)",
    "grand-slam": " (needs slams = true)",
}


def normalise_name(text: str) -> str:
    """A contract name as the aliases are keyed: lower case, no accents, words joined by hyphens.

    Spaces, underscores, ``+``, ``&`` and ``/`` read as hyphens.
    """
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower().strip()
    for sep in (" ", "_", "+", "&", "/"):
        plain = plain.replace(sep, "-")
    while "--" in plain:
        plain = plain.replace("--", "-")
    return plain.strip("-")


def canonical_names(name: str, valid: tuple[str, ...] = CONTRACT_NAMES) -> tuple[str, ...]:
    """The canonical contract names an alias may stand for, the first one preferred.

    Raises
    ------
    ContractError
        If ``name`` is no contract name or alias (the message lists ``valid``).
    """
    if not isinstance(name, str):
        raise ContractError(f"contract name must be a string, got {name!r}")
    key = normalise_name(name)
    if key not in ALIASES:
        raise ContractError(f"unknown contract {name!r}; valid names: {', '.join(valid)}")
    return ALIASES[key]
