"""Load a script of the repository (``benchmarks/``, ``tools/``, a test's own) as a module."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(path: Path, *, beside: bool = False) -> ModuleType:
    """Execute the script at ``path`` and return it as a module named after its file.

    The module is in ``sys.modules`` while it runs (dataclasses and pickling look their
    module up there) and taken out again afterwards.  With ``beside``, the script's own
    folder is on ``sys.path`` while it runs, for a script that imports its neighbours.
    """
    name = path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    folder = str(path.parent)
    if beside:
        sys.path.insert(0, folder)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(name, None)
        if beside:
            sys.path.remove(folder)
    return module
