"""Clear numba's on-disk caches of the package's kernels when a kernel module has changed.

The package does this itself whenever it is imported (``solo_analysis/_kernel_cache.py``);
this script does it for any copy of the package without importing it, for instance the
older revision that ``tools/ab_time.py`` copies, with the rules of the working tree.

Usage::

    python tools/numba_cache.py [PACKAGE_ROOT]    # default: the solo_analysis beside tools/
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parents[1] / "solo_analysis"


def _kernel_cache() -> ModuleType:
    """The working tree's ``solo_analysis/_kernel_cache.py``, loaded without the package."""
    spec = importlib.util.spec_from_file_location(
        "solo_analysis_kernel_cache", PACKAGE / "_kernel_cache.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    """Clear the stale caches of the package at ``argv[0]`` (default: the working tree's)."""
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0]) if args else PACKAGE
    if not (root / "__init__.py").is_file():
        print(f"error: {root} is not a package folder", file=sys.stderr)
        return 2
    cleared = _kernel_cache().clear_stale_caches(root)
    for folder in cleared:
        print(f"kernel sources changed: numba caches in {folder} cleared")
    if not cleared:
        print("numba caches up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
