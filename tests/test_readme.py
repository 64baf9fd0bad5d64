"""The README's Python example runs, and says what it gives.

Each statement of the README's ``python`` block is run in order; where one is an expression whose
line ends in a comment that is a Python literal (``# 13``, ``# 'abundance'``), its value must
equal that literal.  Other comments are prose and are not checked.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def _expected(line: str) -> tuple[bool, object]:
    """``(True, value)`` if the line ends in a comment that is a Python literal."""
    if "#" not in line:
        return False, None
    comment = line[line.rindex("#") + 1 :].strip()
    try:
        return True, ast.literal_eval(comment)
    except (ValueError, SyntaxError):
        return False, None


def test_readme_python_example_runs_and_its_comments_hold():
    blocks = _python_blocks()
    assert blocks, "the README has no python block"
    checked = 0
    for block in blocks:
        lines = block.splitlines()
        scope: dict[str, object] = {}
        for node in ast.parse(block).body:
            if not isinstance(node, ast.Expr):
                exec(compile(ast.Module(body=[node], type_ignores=[]), "README.md", "exec"), scope)
                continue
            value = eval(compile(ast.Expression(node.value), "README.md", "eval"), scope)
            has, want = _expected(lines[node.end_lineno - 1])
            if has:
                assert value == want, f"README line {lines[node.end_lineno - 1]!r} gives {value!r}"
                checked += 1
    assert checked >= 3  # the solve, the recommendation, the capped advice
