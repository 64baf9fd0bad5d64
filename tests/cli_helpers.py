"""Shared helpers of the CLI tests: run ``solo_analysis.cli.main`` and check one-line errors."""

from __future__ import annotations

import pytest

from solo_analysis.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int | str | None, str, str]:
    """Run the CLI in-process; return (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    return info.value.code, out, err


def assert_one_line_error(code: int | str | None, out: str, err: str, *words: str) -> None:
    """A failing exit, no traceback, exactly one ``solo-analysis: error:`` line naming ``words``."""
    assert code not in (0, None)
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("solo-analysis: error:"), err
    for word in words:
        assert word in lines[0], (word, lines[0])
