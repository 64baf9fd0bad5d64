"""Draw ``docs/advice.png``, the advice chart shown in the README, from a real ``advise`` run.

The run is the same as this command (it writes the same chart)::

    solo-analysis advise AKQJT9.AK.AK2.32 --seat eldest --turnup 7H --rules classic \
        --samples 64 --seed 1 --plot docs/advice.png

(the README's example run, every contract of the rule set).  Usage, from the repository root::

    python tools/make_readme_chart.py            # writes docs/advice.png at 100 dpi
    python tools/make_readme_chart.py --samples 64 --out /tmp/chart.svg
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

HAND = "AKQJT9.AK.AK2.32"
SEAT = "eldest"
TURNUP = "7H"
RULES = "classic"
SEED = 1
CONTRACTS = None  # every contract of the rule set


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=64)
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parents[1] / "docs" / "advice.png"
    )
    parser.add_argument("--dpi", type=float, default=100)
    args = parser.parse_args(argv)

    from solo_analysis import advise
    from solo_analysis.report.charts import advice_chart
    from solo_analysis.report.style import save_figure

    start = time.perf_counter()
    advice = advise(
        HAND,
        seat=SEAT,
        turnup=TURNUP,
        rules=RULES,
        samples=args.samples,
        seed=SEED,
        contracts=CONTRACTS,
    )
    seconds = time.perf_counter() - start
    args.out.parent.mkdir(parents=True, exist_ok=True)
    save_figure(advice_chart(advice), args.out, dpi=args.dpi)
    print(advice.summary())
    print(
        f"{advice.samples} deals in {seconds:.1f} s; "
        f"wrote {args.out} ({args.out.stat().st_size} bytes)"
    )


if __name__ == "__main__":
    main()
