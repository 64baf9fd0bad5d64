"""Loading rule sets: the presets shipped in ``presets/*.toml`` and rule-set files.

A rule-set file is TOML: it may start from a preset (``base = "parlett"``, default
``classic``) and override any option of :class:`~solo_analysis.rules.RuleSet` and any unit
value::

    base = "parlett"          # preset to start from (default "classic")
    name = "east-london"      # default: the file name without ".toml"
    prop_target = 7           # Morris Fagelson
    declared_trump = "declarer"
    stake = 5
    [units]                   # per-defender values, partial override; aliases accepted
    solo = 2

:func:`load_rules` reads a preset name, a file or a rule set; :func:`rules_from_toml` reads the
text of a file (:meth:`RuleSet.to_toml` writes one).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import ContractError, RuleSetError
from .ruleset import DEFAULT_PRESET, OPTION_NAMES, RuleSet

__all__ = ["PRESETS", "load_rules", "rules_from_toml"]


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
    unknown = [key for key in data if key not in OPTION_NAMES]
    if unknown:
        raise RuleSetError(
            f"{origin}: unknown key {unknown[0]!r}; valid keys: base, {', '.join(OPTION_NAMES)}"
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
