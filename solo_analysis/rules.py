"""Rule sets: the contract ladder and the settlement of a hand.

A rule set is data.  Three presets reproduce the three sources (see ``/work/shared/RULES.md``):

``classic`` (the default)
    The "How to play" text (seeds 000/002).  Units per defender 1/3/3/5/5/6/8; Prop-Cop settled
    *pairwise* (each partner +2, each defender -2); Abundance in a new suit (not the turn-up);
    Abundance Declared in a trump named by the declarer.
``parlett``
    The encyclopedia article (seed 001).  Units 1/1/2/3/3/4/6; Prop-Cop +/-1 to each partner;
    Abundance in any suit of the declarer's choice; Abundance Declared at no trump.
``french``
    The French rules card (seed 004).  Same values and trump rules as ``parlett``.

The presets live in ``solo_analysis/presets/*.toml``.  A rule set file may start from a preset and
override any option or unit value::

    base = "parlett"          # preset to start from (default "classic")
    name = "east-london"      # default: the file name without ".toml"
    prop_target = 7           # Morris Fagelson
    declared_trump = "declarer"
    stake = 5
    [units]                   # per-defender values, partial override; aliases accepted
    solo = 2

Load it with ``load_rules("east-london.toml")`` or ``solo-analysis score ... --rules east-london.toml``.

Options (fields of :class:`RuleSet`, also keys of a rule-set file and of
:meth:`RuleSet.with_options`)
----------------------------------------------------------------------------------------------
``units``
    Units per defender for each contract (table ``[units]`` in a file), before ``solo_base``
    scaling and ``stake``.  Every contract of the ladder needs a value.  No source gives values for
    Petit / Grand Slam: the presets use the Spread Misère value for Petit Slam (it ranks just below
    it) and the Abundance Declared value for Grand Slam (it replaces it).
``stake`` (default 1)
    Multiplier applied to every payment (5 for competitive play, 0.1 for beginners).  With a
    fractional stake the payments may be fractional floats; otherwise they are ints.
``prop`` (default true)
    False plays *Straight Solo*: Prop-and-Cop is removed from the ladder.
``prop_target`` (default 8)
    Tricks the Prop-Cop partners need together; 7 in the *Morris Fagelson* (East London) variant.
``prop_style``
    ``"pairwise"`` (classic): each partner settles separately with each defender, so on success each
    partner receives the unit from each of the two defenders (+2 units) and each defender pays it to
    each partner (-2).  ``"per-player"`` (parlett, french): each partner +1 unit, each defender -1.
``slams`` (default false)
    *Grand Slam Solo*: Abundance Declared is replaced by ``petit-slam`` (12 tricks, ranking above
    Royal Abundance and below Spread Misère) and ``grand-slam`` (13 tricks, the highest bid); the
    declarer names trump in both and, as in the Abundance Declared they replace, leads to the first
    trick (a choice: the source does not say who leads).
``turnup`` (default true)
    False plays *no turn-up*: the auction winner always names trump, so Prop-Cop, Solo and Abundance
    become ``"declarer"`` trump (any suit), and Royal Abundance, which only means "Abundance in the
    turn-up suit", disappears from the ladder ("simplifies the ladder", seed 000).
``abundance_trump``
    ``"declarer-new"`` (classic: a new suit, not the turn-up suit) or ``"declarer"`` (parlett,
    french: any suit, the declarer's choice); ``"declarer-or-none"`` is also accepted.
``declared_trump``
    Trump in Abundance Declared: ``"declarer"`` (classic, Morris Fagelson: the declarer names it),
    ``"none"`` (parlett, french), or ``"declarer-or-none"``.  The declarer leads in every source.
``overtricks`` (default ``"none"`` in every preset)
    Payment for tricks over or under the target, per defender (per partner-defender pair in
    Prop-Cop), added to the contract's value, before ``stake``:

    * ``"none"``: success or failure only (french: "no excess bonus"; classic: the over/under rule
      is only a house rule, so it is off by default).
    * ``"flat"``: the classic house rule, +1 per trick over the target, +1 more lost per trick
      under it.  It applies to every contract with a trick target to *reach*: Prop-Cop, Solo,
      Abundance, Royal Abundance, Abundance Declared, Petit / Grand Slam (only under-tricks are
      possible in a 13-trick contract).  Not to Misère or Spread Misère, whose target is a
      maximum of zero tricks, so "tricks over the target" make no sense.
    * ``"excess"``: the encyclopedia's variant: each over- or under-trick is worth 1 unit in
      Prop-Cop and Solo; in Abundance and Royal Abundance over-tricks earn 2 each and under-tricks
      cost 1 each; nothing in Misère, Spread Misère, Abundance Declared and the slams.
``solo_base`` (default none)
    Scale all unit values so that Solo is worth this many units per defender, the others in
    proportion; the excess-tricks variant suggests 4, 5 or 6.  The over/under-trick payments are
    not scaled (they are units of the new scale).

Settlement: on success the declarer receives the contract's value from each of the three defenders
(declarer +3v, each defender -v); on failure the reverse.  All payments sum to zero.  Misères
succeed when the declarer takes no trick.  Abundance in Trumps is called ``royal-abundance``.

Contract names (API, CLI, tables): ``prop``, ``solo``, ``misere``, ``abundance``,
``royal-abundance``, ``spread-misere``, ``declared``, and with ``slams``: ``petit-slam``,
``grand-slam``.  Aliases (case- and accent-insensitive; spaces and underscores read as hyphens):
``prop-and-cop``, ``cop``, ``misère``, ``abundance-in-trumps``, ``royal``, ``misere-ouverte``,
``spread``, ``open-misere``, ``abundance-declared``, ``slam`` (Declared, or Grand Slam with
``slams``), ``little-slam``, ... (see ``ALIASES``).

Not modelled here (no effect on settlement): the bidding procedures, renege penalties, session
length, dealing patterns and rotating/fixed trump suits.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from . import cards as _cards
from .errors import ContractError, RuleSetError, SeatError

__all__ = [
    "Contract",
    "RuleSet",
    "TrickCountError",
    "load_rules",
    "rules_from_toml",
    "PRESETS",
    "DEFAULT_PRESET",
    "CONTRACT_NAMES",
    "ALIASES",
    "SEATS",
    "parse_seat",
]

SEATS: tuple[str, ...] = ("N", "E", "S", "W")  # clockwise; a seat is one of these strings
DEFAULT_PRESET = "classic"
N_TRICKS = 13


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
_CATALOGUE: tuple[tuple[str, str, int, bool, str, str, bool, bool], ...] = (
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
CONTRACT_NAMES: tuple[str, ...] = tuple(row[0] for row in _CATALOGUE)

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
_TRICK_BONUS: dict[str, dict[str, tuple[float, float]]] = {
    "none": {},
    "flat": {
        name: (1.0, 1.0)
        for name in (
            "prop",
            "solo",
            "abundance",
            "royal-abundance",
            "petit-slam",
            "declared",
            "grand-slam",
        )
    },
    "excess": {
        "prop": (1.0, 1.0),
        "solo": (1.0, 1.0),
        "abundance": (2.0, 1.0),
        "royal-abundance": (2.0, 1.0),
    },
}

# Which option brings a contract back into the ladder (for error messages).
_ENABLE_HINT = {
    "prop": " (needs prop = true)",
    "royal-abundance": " (needs turnup = true)",
    "declared": " (needs slams = false)",
    "petit-slam": " (needs slams = true)",
    "grand-slam": " (needs slams = true)",
}


def _norm(text: str) -> str:
    """Lower-case, strip accents, read spaces/underscores/'+' as hyphens."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower().strip()
    for sep in (" ", "_", "+", "&", "/"):
        plain = plain.replace(sep, "-")
    while "--" in plain:
        plain = plain.replace("--", "-")
    return plain.strip("-")


def parse_seat(seat: str) -> str:
    """Parse a seat name (``N``/``E``/``S``/``W`` or ``north`` ..., case-insensitive).

    Raises
    ------
    SeatError
        If ``seat`` is not a seat name.
    """
    if isinstance(seat, str):  # the text forms of cards.parse_seat (not its 0..3)
        try:
            return _cards.SEATS[_cards.parse_seat(seat)]
        except SeatError:
            pass
    raise SeatError(f"unknown seat {seat!r}; expected one of N, E, S, W")


def _canonical(name: str, valid: tuple[str, ...] = CONTRACT_NAMES) -> tuple[str, ...]:
    """Canonical candidates for a contract name or alias; ContractError (listing ``valid``) if unknown."""
    if not isinstance(name, str):
        raise ContractError(f"contract name must be a string, got {name!r}")
    key = _norm(name)
    if key not in ALIASES:
        raise ContractError(f"unknown contract {name!r}; valid names: {', '.join(valid)}")
    return ALIASES[key]


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)


def _clean_number(value: float) -> int | float:
    """An int if ``value`` is integral (to 1e-9), else ``value`` rounded to 10 decimals."""
    rounded = round(float(value), 10)
    if abs(rounded - round(rounded)) < 1e-9:
        return int(round(rounded))
    return rounded


def _normalise_units(units: Any) -> tuple[tuple[str, float], ...]:
    if isinstance(units, Mapping):
        items = list(units.items())
    else:
        try:
            items = [tuple(pair) for pair in units]
        except TypeError:
            raise RuleSetError(
                f"units must be a table of contract = value, got {units!r}"
            ) from None
    table: dict[str, float] = {}
    for pair in items:
        if len(pair) != 2:
            raise RuleSetError(f"units must be a table of contract = value, got {pair!r}")
        key, value = pair
        try:
            name = _canonical(key)[0]
        except ContractError:
            raise RuleSetError(
                f"unknown contract {key!r} in units; valid names: {', '.join(CONTRACT_NAMES)}"
            ) from None
        if not _is_number(value) or value <= 0:
            raise RuleSetError(f"units for {name!r} must be a positive number, got {value!r}")
        table[name] = float(value)
    return tuple((name, table[name]) for name in CONTRACT_NAMES if name in table)


@dataclass(frozen=True)
class RuleSet:
    """A complete rule set: the contract ladder, unit values and settlement options.

    Construct one with :func:`load_rules` (a preset name or a TOML file) or
    :meth:`with_options`; the defaults of the fields are those of the ``classic`` preset.
    Every field is documented in the module docstring (:mod:`solo_analysis.rules`).

    Attributes
    ----------
    name : str
        Rule-set name (preset name or file stem).
    units : tuple of (str, float)
        Units per defender for each contract, before ``solo_base`` scaling and ``stake``
        (a mapping is accepted and normalised; see :attr:`unit_table`).
    stake : float
        Multiplier applied to every payment.
    prop : bool
        False: Straight Solo (no Prop-and-Cop).
    prop_target : int
        Tricks the Prop-Cop partners need (8, or 7 in Morris Fagelson).
    prop_style : str
        ``"pairwise"`` (each partner +2, each defender -2 units) or ``"per-player"`` (+1 / -1).
    slams : bool
        Grand Slam Solo: ``declared`` replaced by ``petit-slam`` and ``grand-slam``.
    turnup : bool
        False: no turn-up card; the declarer names trump in every trump contract.
    abundance_trump : str
        ``"declarer-new"``, ``"declarer"`` or ``"declarer-or-none"``.
    declared_trump : str
        ``"declarer"``, ``"none"`` or ``"declarer-or-none"``.
    overtricks : str
        ``"none"``, ``"flat"`` or ``"excess"``.
    solo_base : float or None
        If set, units are scaled so that Solo is worth this much per defender.
    source, description : str
        Free text shown by ``solo-analysis rules``.
    contracts : tuple of Contract
        The ladder, lowest first (derived from the options; not an argument).

    Raises
    ------
    RuleSetError
        If an option has an invalid value or a contract of the ladder has no unit value.
    """

    name: str = DEFAULT_PRESET
    units: tuple[tuple[str, float], ...] = (
        ("prop", 1.0),
        ("solo", 3.0),
        ("misere", 3.0),
        ("abundance", 5.0),
        ("royal-abundance", 5.0),
        ("petit-slam", 6.0),
        ("spread-misere", 6.0),
        ("declared", 8.0),
        ("grand-slam", 8.0),
    )
    stake: float = 1.0
    prop: bool = True
    prop_target: int = 8
    prop_style: str = "pairwise"
    slams: bool = False
    turnup: bool = True
    abundance_trump: str = "declarer-new"
    declared_trump: str = "declarer"
    overtricks: str = "none"
    solo_base: float | None = None
    source: str = ""
    description: str = ""
    contracts: tuple[Contract, ...] = field(init=False, repr=False, compare=False)

    # ------------------------------------------------------------------ construction
    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if not isinstance(self.name, str) or not self.name.strip():
            raise RuleSetError(f"rule-set name must be a non-empty string, got {self.name!r}")
        for key in ("source", "description"):
            if not isinstance(getattr(self, key), str):
                raise RuleSetError(f"{key} must be a string, got {getattr(self, key)!r}")
        for key in ("prop", "slams", "turnup"):
            if not isinstance(getattr(self, key), bool):
                raise RuleSetError(
                    f"option {key} must be true or false, got {getattr(self, key)!r}"
                )
        if not _is_number(self.stake) or self.stake <= 0:
            raise RuleSetError(f"stake must be a positive number, got {self.stake!r}")
        set_(self, "stake", float(self.stake))
        if (
            not isinstance(self.prop_target, int)
            or isinstance(self.prop_target, bool)
            or not (1 <= self.prop_target <= N_TRICKS)
        ):
            raise RuleSetError(f"prop_target must be an integer in 1..13, got {self.prop_target!r}")
        for key, allowed in (
            ("prop_style", PROP_STYLES),
            ("abundance_trump", ABUNDANCE_TRUMPS),
            ("declared_trump", DECLARED_TRUMPS),
            ("overtricks", OVERTRICK_SCHEMES),
        ):
            value = getattr(self, key)
            if value not in allowed:
                raise RuleSetError(f"{key} must be one of {', '.join(allowed)}; got {value!r}")
        if self.solo_base is not None and (not _is_number(self.solo_base) or self.solo_base <= 0):
            raise RuleSetError(f"solo_base must be a positive number, got {self.solo_base!r}")
        units = _normalise_units(self.units)
        set_(self, "units", units)
        table = dict(units)

        names = [
            name
            for name in CONTRACT_NAMES
            if not (name == "prop" and not self.prop)
            and not (name == "royal-abundance" and not self.turnup)
            and not (name == "declared" and self.slams)
            and not (name in ("petit-slam", "grand-slam") and not self.slams)
        ]
        missing = [name for name in names if name not in table]
        if missing:
            raise RuleSetError(f"rule set {self.name!r} has no units for {', '.join(missing)}")
        scale = self.solo_base / table["solo"] if self.solo_base is not None else 1.0
        rows = {row[0]: row for row in _CATALOGUE}
        contracts = []
        for rank, name in enumerate(names):
            _, title, target, misere, trump, leader, partnership, exposed = rows[name]
            if name == "prop":
                target = self.prop_target
            if trump == "abundance":
                trump = self.abundance_trump
            elif trump == "declared":
                trump = self.declared_trump
            if not self.turnup and trump in ("turnup", "declarer-new"):
                trump = "declarer"
            contracts.append(
                Contract(
                    name=name,
                    title=title,
                    rank=rank,
                    target=target,
                    misere=misere,
                    trump=trump,
                    leader=leader,
                    partnership=partnership,
                    units=table[name] * scale,
                    exposed=exposed,
                )
            )
        set_(self, "contracts", tuple(contracts))

    def with_options(self, **overrides: Any) -> RuleSet:
        """A copy of this rule set with some options changed.

        Parameters
        ----------
        **overrides
            Any field but ``contracts``.  ``units`` may be a partial mapping: it updates this rule
            set's values.  ``name`` defaults to the current name.

        Returns
        -------
        RuleSet

        Raises
        ------
        RuleSetError
            On an unknown option or an invalid value.

        Examples
        --------
        >>> load_rules("parlett").with_options(prop_target=7, declared_trump="declarer").prop_target
        7
        """
        valid = _OPTION_NAMES
        unknown = [key for key in overrides if key not in valid]
        if unknown:
            raise RuleSetError(
                f"unknown rule-set option {unknown[0]!r}; valid options: {', '.join(valid)}"
            )
        if "units" in overrides:
            merged = dict(self.units)
            merged.update(_normalise_units(overrides["units"]))
            overrides["units"] = tuple(merged.items())
        return dataclasses.replace(self, **overrides)

    # ------------------------------------------------------------------ queries
    @property
    def unit_table(self) -> dict[str, float]:
        """Units per defender by contract name (before ``solo_base`` scaling and stake)."""
        return dict(self.units)

    @property
    def contract_names(self) -> tuple[str, ...]:
        """Canonical names of the ladder, lowest first."""
        return tuple(c.name for c in self.contracts)

    def contract(self, name: str | Contract) -> Contract:
        """Look up a contract by name or alias (case- and accent-insensitive).

        Parameters
        ----------
        name : str or Contract
            A canonical name, an alias (``"misère"``, ``"Misere Ouverte"``, ``"slam"``, ...) or a
            :class:`Contract` (looked up by its name in this rule set).

        Returns
        -------
        Contract

        Raises
        ------
        ContractError
            If the name is unknown or the contract is not part of this rule set.
        """
        if isinstance(name, Contract):
            name = name.name
        candidates = _canonical(name, self.contract_names)
        for candidate in candidates:
            for contract in self.contracts:
                if contract.name == candidate:
                    return contract
        hint = _ENABLE_HINT.get(candidates[0], "")
        raise ContractError(
            f"contract {name!r} is not in rule set {self.name!r}{hint}; "
            f"valid names: {', '.join(self.contract_names)}"
        )

    def _bonus(self, contract: Contract) -> tuple[float, float]:
        return _TRICK_BONUS[self.overtricks].get(contract.name, (0.0, 0.0))

    def _multiplier(self, contract: Contract) -> int:
        """How many per-defender values the declarer (each partner in prop) wins."""
        if contract.partnership:
            return 2 if self.prop_style == "pairwise" else 1
        return 3

    def declarer_units(self, contract: str | Contract, tricks: Any) -> Any:
        """What the declarer (for ``prop``: *each* partner) wins (+) or pays (-).

        Parameters
        ----------
        contract : str or Contract
            Contract name, alias or :class:`Contract`.
        tricks : int or array_like of int
            Tricks taken by the declarer side (both partners together in ``prop``), 0..13.

        Returns
        -------
        float or numpy.ndarray
            Units after stake: a float for a scalar ``tricks``, a float64 array of the same shape
            for an array.  Each defender pays ``declarer_units * 3 / 3``: in a solo contract each
            of the three defenders pays a third; in ``prop`` each defender pays what each partner wins.

        Raises
        ------
        ContractError
            Unknown contract or not in this rule set.
        TrickCountError
            If a trick count is not an integer in 0..13.
        """
        c = self.contract(contract)
        t = _check_tricks(tricks)
        made = t <= c.target if c.misere else t >= c.target
        over_unit, under_unit = self._bonus(c)
        if c.misere:
            extra = np.zeros(t.shape)
        else:
            extra = np.where(made, (t - c.target) * over_unit, (c.target - t) * under_unit)
        value = (c.units + extra) * np.where(made, 1.0, -1.0) * self._multiplier(c) * self.stake
        if value.ndim == 0:
            return float(value)
        return value.astype(np.float64)

    def is_made(self, contract: str | Contract, tricks: Any) -> Any:
        """Whether ``tricks`` taken by the declarer side fulfil ``contract`` (bool or bool array)."""
        return self.contract(contract).is_made(_check_tricks(tricks))

    def settle(
        self, contract: str | Contract, declarer: str, tricks: int, partner: str | None = None
    ) -> dict[str, int | float]:
        """Units won (+) or paid (-) by each seat for one hand.

        Parameters
        ----------
        contract : str or Contract
            Contract name, alias or :class:`Contract`.
        declarer : str
            Declarer's seat, ``N``/``E``/``S``/``W`` (case-insensitive).
        tricks : int
            Tricks taken by the declarer side (both partners together in ``prop``), 0..13.
        partner : str, optional
            The accepter ("Cop") in ``prop``; required there and forbidden elsewhere.

        Returns
        -------
        dict
            ``{"N": ..., "E": ..., "S": ..., "W": ...}``, summing to zero: ints, or floats when a
            fractional stake makes some payment fractional.

        Raises
        ------
        ContractError, TrickCountError, SeatError

        Examples
        --------
        >>> load_rules("classic").settle("solo", "N", 5)
        {'N': 9, 'E': -3, 'S': -3, 'W': -3}
        """
        c = self.contract(contract)
        decl = parse_seat(declarer)
        if not isinstance(tricks, numbers.Integral) or isinstance(tricks, bool):
            raise TrickCountError(f"tricks must be an integer in 0..13, got {tricks!r}")
        if c.partnership:
            if partner is None:
                raise SeatError(f"contract {c.name!r} needs a partner seat (the Cop)")
            part = parse_seat(partner)
            if part == decl:
                raise SeatError(f"partner {partner!r} is the declarer's own seat")
            side = {decl, part}
        else:
            if partner is not None:
                raise SeatError(
                    f"a partner ({partner!r}) is only allowed in prop, not in {c.name!r}"
                )
            side = {decl}
        won = self.declarer_units(c, int(tricks))
        if c.partnership:
            raw = {seat: (won if seat in side else -won) for seat in SEATS}
        else:
            raw = {seat: (won if seat in side else -won / 3) for seat in SEATS}
        values = {seat: _clean_number(v) for seat, v in raw.items()}
        if any(isinstance(v, float) for v in values.values()):
            values = {seat: float(v) for seat, v in values.items()}
        return values

    # ------------------------------------------------------------------ printing
    def to_toml(self) -> str:
        """This rule set as a self-contained TOML document that :func:`load_rules` reads back."""

        def value(v: Any) -> str:
            if isinstance(v, bool):
                return "true" if v else "false"
            if isinstance(v, str):
                return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
            if isinstance(v, float) and v.is_integer():
                return str(int(v))
            return repr(v)

        lines = []
        for f in dataclasses.fields(self):
            if f.name in ("units", "contracts"):
                continue
            v = getattr(self, f.name)
            if v is None:
                continue
            lines.append(f"{f.name} = {value(v)}")
        lines.append("")
        lines.append("[units]")
        lines.extend(f"{name} = {value(v)}" for name, v in self.units)
        return "\n".join(lines) + "\n"


_OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(RuleSet) if f.init)


def _check_tricks(tricks: Any) -> np.ndarray:
    """Trick counts as an int64 array; TrickCountError unless all are integers in 0..13."""
    if isinstance(tricks, bool):
        raise TrickCountError(f"tricks must be an integer in 0..13, got {tricks!r}")
    try:
        arr = np.asarray(tricks)
    except Exception:  # pragma: no cover - exotic input
        raise TrickCountError(f"tricks must be an integer in 0..13, got {tricks!r}") from None
    if arr.dtype.kind not in "iu":
        if (
            arr.dtype.kind == "f"
            and arr.size
            and np.all(np.isfinite(arr))
            and np.all(arr == np.round(arr))
        ):
            arr = arr.astype(np.int64)
        elif arr.size == 0 and arr.dtype.kind == "f":
            arr = arr.astype(np.int64)
        else:
            raise TrickCountError(f"tricks must be an integer in 0..13, got {tricks!r}")
    if arr.size and (arr.min() < 0 or arr.max() > N_TRICKS):
        shown = tricks if arr.ndim == 0 else f"values {int(arr.min())}..{int(arr.max())}"
        raise TrickCountError(f"tricks must be an integer in 0..13, got {shown!r}")
    return arr.astype(np.int64)


# ---------------------------------------------------------------------- loading
def _from_mapping(
    data: Mapping[str, Any], origin: str, default_name: str | None, preset: bool = False
) -> RuleSet:
    """Build a rule set from a parsed TOML document (``base`` + overrides).

    A user file without ``base`` starts from ``classic``; a preset file (``preset=True``) starts
    from the :class:`RuleSet` field defaults and may not name a base.
    """
    data = dict(data)
    base_spec = data.pop("base", None)
    if preset and base_spec is not None:
        raise RuleSetError(f"{origin}: a preset file may not name a base")
    if base_spec is None:
        base = None if preset else PRESETS[DEFAULT_PRESET]
    else:
        if not isinstance(base_spec, str) or base_spec.strip().lower() not in PRESETS:
            raise RuleSetError(
                f"{origin}: unknown base {base_spec!r}; presets: {', '.join(sorted(PRESETS))}"
            )
        base = PRESETS[base_spec.strip().lower()]
    unknown = [key for key in data if key not in _OPTION_NAMES]
    if unknown:
        raise RuleSetError(
            f"{origin}: unknown key {unknown[0]!r}; valid keys: base, {', '.join(_OPTION_NAMES)}"
        )
    if "units" in data and not isinstance(data["units"], Mapping):
        raise RuleSetError(f"{origin}: units must be a table, got {data['units']!r}")
    if "name" not in data and default_name is not None:
        data["name"] = default_name
    try:
        if base is None:
            return RuleSet(**data)
        if base_spec is not None and "source" not in data:
            data["source"] = f"{base.source}, modified"
        return base.with_options(**data)
    except RuleSetError as exc:
        raise RuleSetError(f"{origin}: {exc}") from None
    except ContractError as exc:  # pragma: no cover - defensive
        raise RuleSetError(f"{origin}: {exc}") from None


def _read_toml(text: str, origin: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleSetError(f"{origin}: malformed TOML: {exc}") from None


def rules_from_toml(text: str, origin: str = "<string>") -> RuleSet:
    """A rule set from the text of a rule-set file (e.g. :meth:`RuleSet.to_toml`'s output).

    ``origin`` names the text in error messages.

    Raises
    ------
    RuleSetError
        Malformed TOML, an unknown key or base, or an invalid option.

    Examples
    --------
    >>> rules_from_toml(load_rules("parlett").to_toml()) == load_rules("parlett")
    True
    """
    return _from_mapping(_read_toml(text, origin), origin, default_name=None)


def _load_file(path: Path) -> RuleSet:
    origin = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RuleSetError(f"rule-set file {origin!r} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleSetError(f"cannot read rule-set file {origin!r}: {exc}") from None
    return _from_mapping(_read_toml(text, origin), origin, default_name=path.stem)


def _load_presets() -> dict[str, RuleSet]:
    presets: dict[str, RuleSet] = {}
    folder = resources.files(__package__).joinpath("presets")
    for preset in (DEFAULT_PRESET, "parlett", "french"):
        resource = folder.joinpath(f"{preset}.toml")
        data = _read_toml(resource.read_text(encoding="utf-8"), f"preset {preset}")
        presets[preset] = _from_mapping(data, f"preset {preset}", default_name=preset, preset=True)
    return presets


PRESETS: dict[str, RuleSet] = {}
PRESETS.update(_load_presets())


def load_rules(spec: str | Path | RuleSet | None = None) -> RuleSet:
    """Load a rule set.

    Parameters
    ----------
    spec : str, pathlib.Path, RuleSet or None
        ``None``: the default preset (``classic``); a preset name (``classic``, ``parlett``,
        ``french``, case-insensitive); a path to a ``.toml`` file (which may say
        ``base = "parlett"`` and override options and ``[units]``); or a :class:`RuleSet`,
        returned unchanged.

    Returns
    -------
    RuleSet

    Raises
    ------
    RuleSetError
        Unknown preset, missing or malformed file, unknown key or invalid value (one line).
    """
    if spec is None:
        return PRESETS[DEFAULT_PRESET]
    if isinstance(spec, RuleSet):
        return spec
    if isinstance(spec, Path):
        return _load_file(spec)
    if not isinstance(spec, str):
        raise RuleSetError(f"rule set must be a preset name or a .toml path, got {spec!r}")
    key = spec.strip().lower()
    if key in PRESETS:
        return PRESETS[key]
    path = Path(spec).expanduser()
    if spec.strip().lower().endswith(".toml") or path.is_file():
        return _load_file(path)
    raise RuleSetError(
        f"unknown rule set {spec!r}; presets: {', '.join(PRESETS)} (or a path to a .toml file)"
    )
