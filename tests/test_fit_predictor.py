"""tools/fit_predictor.py: solved hands saved and resumed, the inputs, a fit and its measure."""

import numpy as np
import pytest
from script_loader import ROOT, load_script

from solo_analysis.stats.predictor import encode

SPECS = ["AKJ94.K83.Q72.65:second:7S", "Q7.KJ93.A864.T52:dealer:4D"]


def _tool():
    return load_script(ROOT / "tools" / "fit_predictor.py")


def test_solve_fit_and_measure(tmp_path, capsys):
    fp = _tool()
    data, model = tmp_path / "data", tmp_path / "net.npz"
    argv = ["solve", str(data), *SPECS, "--deals", "144", "--seed", "2"]
    assert fp.main(argv) == 0
    first = capsys.readouterr().out
    assert len(first.splitlines()) == 2 and sorted(p.name for p in data.iterdir()) == [
        "hand_0000.npz",
        "hand_0001.npz",
    ]
    assert fp.main(argv) == 0  # resumed: nothing left to solve
    assert capsys.readouterr().out == ""
    hands = fp.load(str(data))
    assert [h.spec for h in hands] == SPECS
    assert all(len(h.partners) == 3 and h.deals.shape == (144, 4, 13) for h in hands)
    fit = [
        "fit",
        str(data),
        "--out",
        str(model),
        "--hidden",
        "8",
        "--epochs",
        "2",
        "--validate",
        "1",
    ]
    assert fp.main(fit) == 0
    assert "validation log loss" in capsys.readouterr().out
    net = fp.Net.load(str(model))
    assert [w.shape for w in net.weights] == [(fp.N_INPUTS, 8), (8, 1)]
    p = net.predict(encode(hands[0].deals, hands[0].seat, hands[0].trump, 0))
    assert p.shape == (144,) and ((p > 0) & (p < 1)).all()
    # the joint indicators as columns give the dense inputs' predictions
    split = net.predict(*fp.encode_parts(hands[0].deals, hands[0].seat, hands[0].trump, 0))
    np.testing.assert_allclose(split, p, rtol=1e-5)
    # and the package's compiled predictor the same
    folded = fp.Predictor.load(str(model)).predict(hands[0].deals, hands[0].seat, hands[0].trump, 0)
    np.testing.assert_allclose(folded, p, atol=2e-6)
    assert fp.main(["measure", str(model), str(data), "--blocks", "144"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + 6 + 2 and lines[-1].startswith("median")
    today, alone, both = (float(v) for v in lines[1].split()[-3:])
    # one column fitted by one slope cannot leave more variance than the plain rate's (but
    # for the error of its mean); the 48 features on 144 deals pay for their fitted slopes
    assert 0 < alone < 1.05 and 0 < today < 3 and 0 < both < 3
    # the fitted weights, timed as the advice runs them
    assert fp.main(["time", str(model), "--deals", "64", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("4 columns (Prop and Cop 8 hidden units) on 64 deals: ")
    assert out.rstrip().endswith(" ms")


def test_fit_refuses_a_validation_set_of_every_hand(tmp_path):
    fp = _tool()
    fp.solve(str(tmp_path), SPECS[:1], 16, 1)
    with pytest.raises(SystemExit, match="leaves no hand to fit on"):
        fp.main(["fit", str(tmp_path), "--out", str(tmp_path / "x.npz"), "--validate", "1"])


def test_solo_rows_and_solo_plausible_hands(tmp_path):
    fp = _tool()
    from solo_analysis.cards import parse_card
    from solo_analysis.hand import parse_hand

    specs = fp._random_specs(6, 5, solo_score=16)
    assert len(specs) == 6
    for spec in specs:
        hand, _, turnup = spec.split(":")
        cards = np.array(list(parse_hand(hand)))
        trumps = int((cards // 13 == parse_card(turnup) // 13).sum())
        assert int(fp.HCP[cards % 13].sum()) + 3 * (trumps - 4) >= 16
    fp.solve(str(tmp_path), SPECS[:1], 32, 1, contracts=("solo",))
    (solo,) = fp.load(str(tmp_path), "solo")
    assert solo.partners == [3] and solo.made[0].shape == (32,)  # second's across: dealer
    with pytest.raises(SystemExit, match="no solved hands with prop rows"):
        fp.load(str(tmp_path), "prop")
