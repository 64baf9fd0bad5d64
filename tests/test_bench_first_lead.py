"""benchmarks/bench_first_lead.py: the first-lead figures and the labelled data it dumps."""

import json

import pytest
from script_loader import ROOT, load_script

from solo_analysis.solver import move_order, search_positions

pytest.importorskip("endplay")


def _bench():
    # it imports bench_solver from its own folder
    return load_script(ROOT / "benchmarks" / "bench_first_lead.py", beside=True)


def test_dump_holds_every_question_and_each_lead(tmp_path, capsys):
    out = tmp_path / "leads.jsonl"
    args = ["--seed", "3", "--deals", "4", "--target", "7", "--trump", "H", "--dump", str(out)]
    assert _bench().main(args) == 0
    printed = capsys.readouterr().out
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 4
    total = 0
    for rec in records:
        kw = {
            "trump": rec["trump"],
            "leader": rec["leader"],
            "declarers": tuple(rec["declarers"]),
            "target": rec["target"],
        }
        assert (rec["leader"], rec["declarers"], rec["target"]) == (1, [0, 2], 7)
        makes, _, positions = search_positions(rec["pbn"], **kw)
        assert rec["positions"] == positions
        assert rec["lead_side_succeeds"] == (not makes)  # East's side on lead
        total += positions
        if rec["lead_side_succeeds"]:
            # every lead of the search's order, the ones that succeed among them
            assert [lead["card"] for lead in rec["leads"]] == move_order(
                rec["pbn"], trump=rec["trump"], leader=1, declarers=(0, 2)
            )
            assert any(lead["succeeds"] for lead in rec["leads"])
            for lead in rec["leads"][:2]:
                ok, _, n = search_positions(rec["pbn"], trick=[lead["card"]], **kw)
                assert (lead["succeeds"], lead["positions"]) == (not ok, n)
        else:
            assert rec["leads"] == []
    assert f"ours {total:,}" in printed
    # a second run appends
    assert _bench().main(args) == 0
    assert len(out.read_text().splitlines()) == 8
