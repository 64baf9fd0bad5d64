"""A rule set: the contract ladder, the unit values and the settlement of a hand.

A :class:`RuleSet` is data: its options (the fields) choose the contracts of the ladder from
the catalogue (:mod:`solo_analysis.rules.contracts`) and how each is paid.  The presets and
rule-set files that build one are read by :mod:`solo_analysis.rules.loading`; every option and
the source that plays it is described in ``docs/rules.md``.

Settlement: on success the declarer receives the contract's value from each of the three
defenders (declarer +3v, each defender -v); on failure the reverse.  Prop and Cop pays each
partner separately (``prop_style``).  All payments sum to zero.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..cards import SEATS, parse_seat, seat_str
from ..errors import ContractError, RuleSetError, SeatError
from .contracts import (
    ABUNDANCE_TRUMPS,
    AUCTIONS,
    CATALOGUE,
    CONTRACT_NAMES,
    DECLARED_TRUMPS,
    ENABLE_HINT,
    N_TRICKS,
    OVERTRICK_SCHEMES,
    PROP_STYLES,
    TRICK_BONUS,
    Contract,
    TrickCountError,
    canonical_names,
)

__all__ = ["DEFAULT_PRESET", "OPTION_NAMES", "RuleSet", "check_tricks"]

DEFAULT_PRESET = "classic"


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)


def _clean_number(value: float) -> int | float:
    """An int if ``value`` is integral (to 1e-9), else ``value`` rounded to 10 decimals."""
    rounded = round(float(value), 10)
    if abs(rounded - round(rounded)) < 1e-9:
        return round(rounded)
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
            name = canonical_names(key)[0]
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
    Every option is described in ``docs/rules.md``, with the sources that play it.

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
    auction : str
        The bidding procedure: ``"classic"`` (the guide's: round and round, passing final, Cop
        by any later bidder) or ``"french"`` (the French card's two exceptions besides); see
        :mod:`solo_analysis.bidding.auction`.
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
    auction: str = "classic"
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
            ("auction", AUCTIONS),
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
        rows = {row[0]: row for row in CATALOGUE}
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
        valid = OPTION_NAMES
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
        candidates = canonical_names(name, self.contract_names)
        for candidate in candidates:
            for contract in self.contracts:
                if contract.name == candidate:
                    return contract
        hint = ENABLE_HINT.get(candidates[0], "")
        raise ContractError(
            f"contract {name!r} is not in rule set {self.name!r}{hint}; "
            f"valid names: {', '.join(self.contract_names)}"
        )

    def _bonus(self, contract: Contract) -> tuple[float, float]:
        return TRICK_BONUS[self.overtricks].get(contract.name, (0.0, 0.0))

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
            of the three defenders pays a third; in ``prop`` each defender pays what each partner
            wins.

        Raises
        ------
        ContractError
            Unknown contract or not in this rule set.
        TrickCountError
            If a trick count is not an integer in 0..13.
        """
        c = self.contract(contract)
        t = check_tricks(tricks)
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
        """Whether ``tricks`` taken by the declarer side fulfil ``contract``.

        Returns a bool for a scalar ``tricks``, a bool array for an array.
        """
        return self.contract(contract).is_made(check_tricks(tricks))

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
        decl = seat_str(parse_seat(declarer))
        if not isinstance(tricks, numbers.Integral) or isinstance(tricks, bool):
            raise TrickCountError(f"tricks must be an integer in 0..13, got {tricks!r}")
        if c.partnership:
            if partner is None:
                raise SeatError(f"contract {c.name!r} needs a partner seat (the Cop)")
            part = seat_str(parse_seat(partner))
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
        """Return the rule set as a self-contained TOML document.

        :func:`load_rules` reads it back.
        """

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
            if v is None or (f.name == "auction" and v == "classic"):
                # the default bidding procedure is left out, so that the rule-set text of a
                # table run made before the option existed still matches when it resumes
                continue
            lines.append(f"{f.name} = {value(v)}")
        lines.append("")
        lines.append("[units]")
        lines.extend(f"{name} = {value(v)}" for name, v in self.units)
        return "\n".join(lines) + "\n"


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(RuleSet) if f.init)


def check_tricks(tricks: Any) -> np.ndarray:
    """Trick counts as an int64 array.

    Raises
    ------
    TrickCountError
        Unless every count is an integer in 0..13.
    """
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
