"""Rule sets and settlement.

Reference data, with their sources (the documents are described in ``docs/rules.md``):

* the "How to play" guide (Spanish and Portuguese texts, Scoring section): units per defender
  Prop 1 (each partner settles with each defender), Solo 3, Misère 3, Abundance 5, Royal
  Abundance 5, Spread Misère 6, Abundance Declared 8; worked example "a successful 5-trick Solo
  pays +3 units from each defender (total +9 for the soloist, -3 from each defender)", a failed
  one costs 3 to each defender.
* the encyclopedia article "Solo whist" (its table, "Puntos del proponente"): Prop +/-1 (both
  proposer and accepter score), Solo +/-3 (1 unit from each), Misère +/-6 (2), Abundance +/-9
  (3), Royal Abundance +/-9 (3), Misère Ouverte +/-12 (4), Abundance Declared +/-18 (6).
* the French rules card "Solo Whist" (sections 02 and 05): unité Prop+Cop 1 (+1 each caller, -1
  each defender), Solo 1, Misère 2, Abundance 3, Abundance in Trumps 3, Misère Ouverte 4,
  Abundance Declared 6; worked example (section 06): Abundance 3 per opponent, 10 tricks ->
  declarer +9, each opponent -3; 8 tricks -> declarer -9, each opponent +3.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from solo_analysis.cards import SEATS
from solo_analysis.errors import ContractError, RuleSetError, SeatError, SoloAnalysisError
from solo_analysis.rules import (
    PRESETS,
    Contract,
    RuleSet,
    TrickCountError,
    load_rules,
)

LADDER = ("prop", "solo", "misere", "abundance", "royal-abundance", "spread-misere", "declared")

# (preset, contract) -> units per defender, as printed in each source.
SOURCE_UNITS = {
    "classic": dict(zip(LADDER, (1, 3, 3, 5, 5, 6, 8), strict=False)),
    "parlett": dict(zip(LADDER, (1, 1, 2, 3, 3, 4, 6), strict=False)),
    "french": dict(zip(LADDER, (1, 1, 2, 3, 3, 4, 6), strict=False)),
}
# the encyclopedia's table gives the bidder's points: +/-1, 3, 6, 9, 9, 12, 18
PARLETT_BIDDER_POINTS = dict(zip(LADDER, (1, 3, 6, 9, 9, 12, 18), strict=False))
# Prop-Cop on success: (each partner, each defender)
PROP_SUCCESS = {"classic": (2, -2), "parlett": (1, -1), "french": (1, -1)}


def solo_rows():
    for preset, table in SOURCE_UNITS.items():
        for name, units in table.items():
            if name != "prop":
                yield preset, name, units


def success_tricks(contract: Contract) -> int:
    return contract.target


def failure_tricks(contract: Contract) -> int:
    return contract.target + 1 if contract.misere else contract.target - 1


# ----------------------------------------------------------------------------- source tables
@pytest.mark.parametrize(("preset", "name", "units"), list(solo_rows()))
@pytest.mark.parametrize("declarer", SEATS)
def test_source_table_solo_contracts(preset, name, units, declarer):
    rules = load_rules(preset)
    c = rules.contract(name)
    assert c.units == units
    won = rules.settle(name, declarer, success_tricks(c))
    lost = rules.settle(name, declarer, failure_tricks(c))
    assert won == {s: (3 * units if s == declarer else -units) for s in SEATS}
    assert lost == {s: (-3 * units if s == declarer else units) for s in SEATS}


@pytest.mark.parametrize("preset", list(SOURCE_UNITS))
@pytest.mark.parametrize(("declarer", "partner"), list(itertools.permutations(SEATS, 2)))
def test_source_table_prop(preset, declarer, partner):
    rules = load_rules(preset)
    assert rules.contract("prop").units == SOURCE_UNITS[preset]["prop"]
    partner_wins, defender_pays = PROP_SUCCESS[preset]
    won = rules.settle("prop", declarer, 8, partner=partner)
    lost = rules.settle("prop", declarer, 7, partner=partner)
    for seat in SEATS:
        expected = partner_wins if seat in (declarer, partner) else defender_pays
        assert won[seat] == expected
        assert lost[seat] == -expected


@pytest.mark.parametrize(("name", "points"), list(PARLETT_BIDDER_POINTS.items()))
def test_parlett_bidder_points_column(name, points):
    rules = load_rules("parlett")
    c = rules.contract(name)
    assert rules.declarer_units(name, success_tricks(c)) == points
    assert rules.declarer_units(name, failure_tricks(c)) == -points


def test_worked_example_seed_004_abundance():
    rules = load_rules("french")
    assert rules.contract("abundance").units == 3
    assert rules.settle("abundance", "N", 10) == {"N": 9, "E": -3, "S": -3, "W": -3}
    assert rules.settle("abundance", "N", 8) == {"N": -9, "E": 3, "S": 3, "W": 3}
    # "the extra trick gives no bonus"
    assert rules.settle("abundance", "N", 10) == rules.settle("abundance", "N", 9)


def test_worked_example_seed_000_solo():
    rules = load_rules()  # classic, the default
    assert rules.settle("solo", "S", 5) == {"N": -3, "E": -3, "S": 9, "W": -3}
    assert rules.settle("solo", "S", 4) == {"N": 3, "E": 3, "S": -9, "W": 3}


def test_misere_success_means_zero_tricks():
    rules = load_rules()
    assert rules.is_made("misere", 0)
    assert not rules.is_made("misere", 1)
    assert rules.settle("misere", "E", 0)["E"] == 9
    for t in range(1, 14):
        assert rules.settle("misere", "E", t)["E"] == -9
        assert rules.settle("spread-misere", "E", t)["E"] == -18


# ----------------------------------------------------------------------------- ladders
def test_presets_exist_and_default():
    assert set(PRESETS) == {"classic", "parlett", "french"}
    assert load_rules() is PRESETS["classic"]
    assert load_rules(None).name == "classic"
    assert load_rules("PARLETT") is PRESETS["parlett"]
    assert load_rules(PRESETS["french"]) is PRESETS["french"]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_ladder_common_ground(preset):
    rules = load_rules(preset)
    assert rules.contract_names == LADDER
    assert [c.rank for c in rules.contracts] == list(range(len(LADDER)))
    targets = {c.name: c.target for c in rules.contracts}
    assert targets == {
        "prop": 8,
        "solo": 5,
        "misere": 0,
        "abundance": 9,
        "royal-abundance": 9,
        "spread-misere": 0,
        "declared": 13,
    }
    for c in rules.contracts:
        assert c.misere == (c.name in ("misere", "spread-misere"))
        assert c.partnership == (c.name == "prop")
        assert c.leader == ("declarer" if c.name == "declared" else "eldest")
        assert c.exposed == (c.name == "spread-misere")
    assert rules.contract("prop").trump == "turnup"
    assert rules.contract("solo").trump == "turnup"
    assert rules.contract("royal-abundance").trump == "turnup"
    assert rules.contract("misere").trump == "none"
    assert rules.contract("spread-misere").trump == "none"
    assert rules.overtricks == "none"
    assert rules.stake == 1


@pytest.mark.parametrize(
    ("preset", "abundance", "declared", "style"),
    [
        ("classic", "declarer-new", "declarer", "pairwise"),
        ("parlett", "declarer", "none", "per-player"),
        ("french", "declarer", "none", "per-player"),
    ],
)
def test_source_specific_trumps(preset, abundance, declared, style):
    rules = load_rules(preset)
    assert rules.contract("abundance").trump == abundance
    assert rules.contract("declared").trump == declared
    assert rules.prop_style == style


def test_contract_is_frozen():
    c = load_rules().contract("solo")
    with pytest.raises(AttributeError):
        c.units = 7  # type: ignore[misc]
    r = load_rules()
    with pytest.raises(AttributeError):
        r.stake = 7  # type: ignore[misc]


# ----------------------------------------------------------------------------- names
@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("solo", "solo"),
        ("SOLO", "solo"),
        ("misère", "misere"),
        ("Misère", "misere"),
        ("MISERE", "misere"),
        ("prop and cop", "prop"),
        ("Prop-and-Cop", "prop"),
        ("prop+cop", "prop"),
        ("cop", "prop"),
        ("abundance", "abundance"),
        ("bundle", "abundance"),
        ("royal abundance", "royal-abundance"),
        ("royal_abundance", "royal-abundance"),
        ("abundance-in-trumps", "royal-abundance"),
        ("Abundance in Trumps", "royal-abundance"),
        ("royal", "royal-abundance"),
        ("spread misère", "spread-misere"),
        ("misere-ouverte", "spread-misere"),
        ("Misère Ouverte", "spread-misere"),
        ("open misere", "spread-misere"),
        ("declared", "declared"),
        ("Abundance Declared", "declared"),
        ("abundance déclarée", "declared"),
        ("slam", "declared"),
        ("  solo  ", "solo"),
    ],
)
def test_aliases(alias, name):
    assert load_rules().contract(alias).name == name


def test_contract_accepts_contract_object():
    classic = load_rules()
    c = classic.contract("solo")
    assert classic.contract(c) is c
    # a Contract is looked up by name in the rule set used
    assert load_rules("parlett").settle(c, "N", 5)["N"] == 3


@pytest.mark.parametrize("bad", ["foo", "", "solo5", "misere-ouverte-x"])
def test_unknown_contract(bad):
    with pytest.raises(ContractError) as info:
        load_rules().contract(bad)
    message = str(info.value)
    assert repr(bad) in message
    assert "solo" in message and "royal-abundance" in message
    assert "\n" not in message


def test_unknown_contract_is_value_error():
    with pytest.raises(ValueError):
        load_rules().settle("nope", "N", 3)


def test_contract_not_in_rule_set():
    with pytest.raises(ContractError, match="petit-slam"):
        load_rules().contract("petit-slam")
    with pytest.raises(ContractError, match="'prop' is not in rule set"):
        load_rules().with_options(prop=False).contract("prop")


# ----------------------------------------------------------------------------- options
def test_straight_solo():
    rules = load_rules().with_options(prop=False, name="straight")
    assert rules.contract_names == LADDER[1:]
    assert rules.contract("solo").rank == 0
    assert rules.name == "straight"


def test_prop_target_seven_morris_fagelson():
    rules = load_rules("parlett").with_options(prop_target=7, declared_trump="declarer")
    assert rules.contract("prop").target == 7
    assert rules.settle("prop", "N", 7, partner="S") == {"N": 1, "E": -1, "S": 1, "W": -1}
    assert rules.settle("prop", "N", 6, partner="S") == {"N": -1, "E": 1, "S": -1, "W": 1}
    assert rules.contract("declared").trump == "declarer"
    # the preset itself is unchanged
    assert load_rules("parlett").contract("prop").target == 8


def test_grand_slam_solo():
    rules = load_rules().with_options(slams=True)
    assert rules.contract_names == (
        "prop",
        "solo",
        "misere",
        "abundance",
        "royal-abundance",
        "petit-slam",
        "spread-misere",
        "grand-slam",
    )
    petit, grand = rules.contract("petit-slam"), rules.contract("grand-slam")
    assert (petit.target, grand.target) == (12, 13)
    assert petit.trump == grand.trump == "declarer"
    assert petit.rank > rules.contract("royal-abundance").rank
    assert petit.rank < rules.contract("spread-misere").rank
    assert grand.rank == len(rules.contracts) - 1
    assert rules.contract("slam") is grand
    assert rules.contract("little slam") is petit
    with pytest.raises(ContractError):
        rules.contract("declared")
    # units: petit as spread misere, grand as declared (no source gives values)
    assert rules.settle("petit-slam", "W", 12)["W"] == 18
    assert rules.settle("petit-slam", "W", 11)["W"] == -18
    assert rules.settle("grand-slam", "W", 13)["W"] == 24


def test_no_turnup():
    for preset in PRESETS:
        rules = load_rules(preset).with_options(turnup=False)
        assert "royal-abundance" not in rules.contract_names
        for c in rules.contracts:
            assert c.trump in ("declarer", "none", "declarer-or-none")
        assert rules.contract("solo").trump == "declarer"
        assert rules.contract("prop").trump == "declarer"
        assert rules.contract("abundance").trump == "declarer"
        assert rules.contract("misere").trump == "none"
        with pytest.raises(ContractError):
            rules.contract("abundance in trumps")


def test_declared_and_abundance_trump_options():
    rules = load_rules().with_options(abundance_trump="declarer", declared_trump="none")
    assert rules.contract("abundance").trump == "declarer"
    assert rules.contract("declared").trump == "none"
    rules = load_rules().with_options(declared_trump="declarer-or-none")
    assert rules.contract("declared").trump == "declarer-or-none"


def test_prop_style_option():
    classic = load_rules().with_options(prop_style="per-player")
    assert classic.settle("prop", "N", 9, partner="E") == {"N": 1, "E": 1, "S": -1, "W": -1}
    parlett = load_rules("parlett").with_options(prop_style="pairwise")
    assert parlett.settle("prop", "N", 9, partner="E") == {"N": 2, "E": 2, "S": -2, "W": -2}


@pytest.mark.parametrize("stake", [5, 2.0])
def test_integer_stake(stake):
    rules = load_rules().with_options(stake=stake)
    result = rules.settle("solo", "N", 5)
    assert result == {"N": 9 * stake, "E": -3 * stake, "S": -3 * stake, "W": -3 * stake}
    assert all(type(v) is int for v in result.values())


def test_fractional_stake():
    rules = load_rules().with_options(stake=0.1)
    result = rules.settle("solo", "N", 5)
    assert all(type(v) is float for v in result.values())
    assert result["N"] == pytest.approx(0.9)
    assert result["E"] == pytest.approx(-0.3)
    assert math.fsum(result.values()) == pytest.approx(0, abs=1e-12)
    # half units that add up to integers stay ints
    half = load_rules("parlett").with_options(stake=0.5)
    assert half.settle("misere", "N", 0) == {"N": 3, "E": -1, "S": -1, "W": -1}
    assert half.settle("solo", "N", 5) == {"N": 1.5, "E": -0.5, "S": -0.5, "W": -0.5}


def test_flat_overtricks_classic_house_rule():
    rules = load_rules().with_options(overtricks="flat")
    # Solo, 7 tricks: 3 + 2 over-tricks per defender
    assert rules.settle("solo", "N", 7) == {"N": 15, "E": -5, "S": -5, "W": -5}
    # Solo, 3 tricks: 3 + 2 under-tricks per defender
    assert rules.settle("solo", "N", 3) == {"N": -15, "E": 5, "S": 5, "W": 5}
    assert rules.settle("solo", "N", 5)["N"] == 9
    # Prop pairwise, 10 tricks: each pair exchanges 1 + 2
    assert rules.settle("prop", "N", 10, partner="S") == {"N": 6, "E": -6, "S": 6, "W": -6}
    # Abundance and Royal Abundance
    assert rules.settle("abundance", "N", 11)["N"] == 3 * 7
    assert rules.settle("royal-abundance", "N", 6)["N"] == -3 * 8
    # Declared: only under-tricks possible
    assert rules.settle("declared", "N", 11)["N"] == -3 * 10
    assert rules.settle("declared", "N", 13)["N"] == 24
    # not in misères
    assert rules.settle("misere", "N", 5)["N"] == -9
    assert rules.settle("spread-misere", "N", 3)["N"] == -18


def test_excess_tricks_encyclopedia():
    rules = load_rules("parlett").with_options(overtricks="excess", solo_base=4)
    units = {c.name: c.units for c in rules.contracts}
    assert units == dict(zip(LADDER, (4, 4, 8, 12, 12, 16, 24), strict=False))
    # Solo: 1 per over/under trick
    assert rules.settle("solo", "N", 7) == {"N": 18, "E": -6, "S": -6, "W": -6}
    assert rules.settle("solo", "N", 2) == {"N": -21, "E": 7, "S": 7, "W": 7}
    # Prop-Cop (per player): 1 per over/under trick
    assert rules.settle("prop", "N", 9, partner="W") == {"N": 5, "E": -5, "S": -5, "W": 5}
    assert rules.settle("prop", "N", 5, partner="W") == {"N": -7, "E": 7, "S": 7, "W": -7}
    # Abundance: over-tricks 2 each, under-tricks only 1 each
    assert rules.declarer_units("abundance", 11) == 3 * (12 + 4)
    assert rules.declarer_units("abundance", 7) == -3 * (12 + 2)
    assert rules.declarer_units("royal-abundance", 10) == 3 * (12 + 2)
    # none in misère, spread misère, declared
    assert rules.declarer_units("misere", 4) == -24
    assert rules.declarer_units("spread-misere", 2) == -48
    assert rules.declarer_units("declared", 10) == -72


@pytest.mark.parametrize("base", [4, 5, 6])
def test_solo_base_scales_in_proportion(base):
    rules = load_rules("classic").with_options(solo_base=base)
    classic = load_rules("classic")
    for c in rules.contracts:
        assert c.units == pytest.approx(classic.contract(c.name).units * base / 3)
    assert rules.contract("solo").units == base


def test_excess_without_scaling_on_classic():
    rules = load_rules().with_options(overtricks="excess")
    assert rules.settle("solo", "E", 6)["E"] == 3 * 4
    assert rules.settle("abundance", "E", 10)["E"] == 3 * 7
    assert rules.settle("abundance", "E", 8)["E"] == -3 * 6
    assert rules.settle("declared", "E", 12)["E"] == -24


def test_units_override_partial_and_alias():
    rules = load_rules().with_options(units={"Misère": 4, "abundance in trumps": 6})
    assert rules.contract("misere").units == 4
    assert rules.contract("royal-abundance").units == 6
    assert rules.contract("solo").units == 3


@pytest.mark.parametrize(
    "overrides",
    [
        {"stake": 0},
        {"stake": -1},
        {"stake": "5"},
        {"stake": float("nan")},
        {"prop_target": 14},
        {"prop_target": 7.5},
        {"prop_style": "both"},
        {"overtricks": "bonus"},
        {"abundance_trump": "none"},
        {"declared_trump": "turnup"},
        {"solo_base": 0},
        {"turnup": "no"},
        {"units": {"solo": -1}},
        {"units": {"bogus": 1}},
        {"units": "solo=3"},
        {"name": ""},
        {"colour": "red"},
        {"contracts": ()},
    ],
)
def test_bad_options(overrides):
    with pytest.raises(RuleSetError) as info:
        load_rules().with_options(**overrides)
    assert "\n" not in str(info.value)


def test_missing_units_for_ladder():
    with pytest.raises(RuleSetError, match="no units"):
        RuleSet(units={"solo": 1})


# ----------------------------------------------------------------------------- settlement
VARIANTS = [
    load_rules(p).with_options(**o)
    for p in PRESETS
    for o in (
        {},
        {"overtricks": "flat"},
        {"overtricks": "excess", "solo_base": 5},
        {"stake": 0.1},
        {"stake": 3, "slams": True, "prop_target": 7},
        {"turnup": False, "prop_style": "per-player", "overtricks": "flat", "stake": 0.25},
    )
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.name}-{r.overtricks}-{r.stake}")
def test_zero_sum_and_vectorised(rules):
    tricks = np.arange(14)
    for c in rules.contracts:
        vector = rules.declarer_units(c, tricks)
        assert isinstance(vector, np.ndarray) and vector.shape == (14,)
        for t in range(14):
            for declarer in SEATS:
                partners = [p for p in SEATS if p != declarer] if c.partnership else [None]
                for partner in partners:
                    result = rules.settle(c.name, declarer, t, partner=partner)
                    assert list(result) == list(SEATS)
                    assert math.fsum(result.values()) == pytest.approx(0, abs=1e-9)
                    assert result[declarer] == pytest.approx(vector[t])
                    if partner is not None:
                        assert result[partner] == result[declarer]
                    made = rules.is_made(c, t)
                    assert (result[declarer] > 0) == made


def test_declarer_units_scalar_and_shapes():
    rules = load_rules()
    value = rules.declarer_units("solo", 5)
    assert isinstance(value, float) and value == 9
    grid = rules.declarer_units("solo", np.array([[0, 5], [13, 4]]))
    assert grid.shape == (2, 2)
    np.testing.assert_array_equal(grid, [[-9, 9], [9, -9]])
    assert rules.declarer_units("prop", [8, 7]).tolist() == [2, -2]
    assert rules.declarer_units("solo", np.array([], dtype=np.int64)).shape == (0,)
    np.testing.assert_array_equal(rules.is_made("misere", np.array([0, 1])), [True, False])


@pytest.mark.parametrize("tricks", [-1, 14, 5.5, True, "5", None])
def test_bad_trick_counts(tricks):
    with pytest.raises(TrickCountError):
        load_rules().settle("solo", "N", tricks)
    with pytest.raises(ContractError):
        load_rules().declarer_units("solo", tricks)


def test_bad_trick_array():
    with pytest.raises(TrickCountError):
        load_rules().declarer_units("solo", np.array([3, 14]))


@pytest.mark.parametrize(
    ("declarer", "partner", "contract"),
    [
        ("X", None, "solo"),
        ("", None, "solo"),
        (None, None, "solo"),
        ("N", None, "prop"),
        ("N", "n", "prop"),
        ("N", "Q", "prop"),
        ("N", "S", "solo"),
    ],
)
def test_bad_seats(declarer, partner, contract):
    with pytest.raises(SeatError) as info:
        load_rules().settle(contract, declarer, 5, partner=partner)
    assert "\n" not in str(info.value)


def test_settle_reads_every_seat_name():
    assert load_rules().settle("solo", "e", 5)["E"] == 9
    assert load_rules().settle("solo", " West ", 5)["W"] == 9
    # the play-order names are the same seats: eldest N, second E, third S, dealer W
    assert load_rules().settle("solo", "second", 5) == load_rules().settle("solo", "E", 5)
    assert load_rules().settle("prop", "eldest", 8, partner="dealer")["W"] == 2


# ----------------------------------------------------------------------------- files
def write(tmp_path, text, name="house.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_toml_overrides_preset(tmp_path):
    path = write(
        tmp_path,
        'base = "parlett"\nprop_target = 7\nstake = 5\ndeclared_trump = "declarer"\n'
        '[units]\nsolo = 2\n"misère" = 3\n',
    )
    rules = load_rules(str(path))
    assert rules.name == "house"
    assert rules.prop_style == "per-player"
    assert rules.contract("prop").target == 7
    assert rules.contract("solo").units == 2
    assert rules.contract("misere").units == 3
    assert rules.contract("abundance").units == 3
    assert rules.settle("solo", "N", 5) == {"N": 30, "E": -10, "S": -10, "W": -10}
    assert load_rules(path) == rules


def test_toml_without_base_uses_classic(tmp_path):
    rules = load_rules(str(write(tmp_path, 'name = "x"\novertricks = "flat"\n')))
    assert rules.name == "x"
    assert rules.overtricks == "flat"
    assert rules.unit_table == PRESETS["classic"].unit_table


@pytest.mark.parametrize(
    "text",
    [
        "base = \n",
        "stake = [1\n",
        'base = "nope"\n',
        "colour = 1\n",
        "stake = -2\n",
        "units = 3\n",
        "[units]\nbogus = 1\n",
        'overtricks = "lots"\n',
    ],
)
def test_bad_toml(tmp_path, text):
    with pytest.raises(RuleSetError) as info:
        load_rules(str(write(tmp_path, text)))
    assert "\n" not in str(info.value)


def test_missing_file_and_unknown_name(tmp_path):
    with pytest.raises(RuleSetError, match="not found"):
        load_rules(str(tmp_path / "absent.toml"))
    with pytest.raises(RuleSetError, match="unknown rule set 'nope'"):
        load_rules("nope")
    with pytest.raises(RuleSetError):
        load_rules(42)  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.name}-{r.overtricks}-{r.stake}")
def test_to_toml_round_trip(tmp_path, rules):
    path = write(tmp_path, rules.to_toml(), name="round.toml")
    again = load_rules(str(path))
    assert again == rules
    assert again.contracts == rules.contracts


def test_errors_are_package_errors():
    for exc in (TrickCountError,):
        assert issubclass(exc, ContractError)
        assert issubclass(exc, SoloAnalysisError)


def test_repr_round_trip():
    from solo_analysis.rules import Contract as C
    from solo_analysis.rules import RuleSet as R

    for rules in VARIANTS:
        again = eval(repr(rules), {"RuleSet": R})
        assert again == rules and again.contracts == rules.contracts
        for c in rules.contracts:
            assert eval(repr(c), {"Contract": C}) == c


def test_not_in_rule_set_hint():
    with pytest.raises(ContractError, match="slams = true"):
        load_rules().contract("grand slam")
