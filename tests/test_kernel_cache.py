"""numba's caches of the kernels are dropped when any kernel module changes.

numba checks a cached function against its own source file only; the package's import
clears the caches built from other kernel sources (``solo_analysis/_kernel_cache.py``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from script_loader import ROOT, load_script

from solo_analysis import _kernel_cache

PACKAGE = ROOT / "solo_analysis"


def _fake_package(root: Path) -> None:
    for folder in ("solver", "sampler", "solver/__pycache__", "sampler/__pycache__"):
        (root / folder).mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "solver" / "_search.py").write_text("x = 1\n")
    (root / "solver" / "batch.py").write_text("")  # not a kernel module
    (root / "sampler" / "_kernel.py").write_text("")


def _cache_files(root: Path) -> list[Path]:
    files = [
        root / "solver/__pycache__/_search.search-87.py311.nbi",
        root / "solver/__pycache__/_search.search-87.py311.1.nbc",
        root / "sampler/__pycache__/_kernel.deal_batch-9.py311.nbi",
    ]
    for f in files:
        f.write_text("")
    return files


@pytest.mark.jit_off
def test_the_caches_are_cleared_when_a_kernel_module_changes_and_only_then(tmp_path):
    root = tmp_path / "solo_analysis"
    _fake_package(root)
    other = root / "solver/__pycache__/batch.cpython-311.pyc"
    other.write_text("")
    files = _cache_files(root)
    folders = {root / "solver/__pycache__", root / "sampler/__pycache__"}
    assert set(_kernel_cache.clear_stale_caches(root)) == folders  # no stamp yet: cleared
    assert not any(f.exists() for f in files) and other.exists()
    files = _cache_files(root)
    assert _kernel_cache.clear_stale_caches(root) == []  # nothing changed: kept
    assert all(f.exists() for f in files)
    (root / "solver" / "batch.py").write_text("changed = True\n")
    assert _kernel_cache.clear_stale_caches(root) == []  # not a kernel module
    (root / "sampler" / "_kernel.py").write_text("y = 2\n")  # one module, every folder
    assert set(_kernel_cache.clear_stale_caches(root)) == folders
    assert not any(f.exists() for f in files) and other.exists()
    for folder in folders:
        stamp = (folder / _kernel_cache.STAMP).read_text().strip()
        assert stamp == _kernel_cache.sources_digest(root)


@pytest.mark.jit_off
def test_the_caches_under_numba_cache_dir_are_cleared_too(tmp_path, monkeypatch):
    root = tmp_path / "pkg" / "solo_analysis"
    _fake_package(root)
    user = tmp_path / "numba-cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(user))
    # named as numba names it: the source folder's name and a hash of its path
    folder = user / _kernel_cache._numba_subfolder(root / "solver" / "_search.py")
    assert folder.name.startswith("solver_")
    folder.mkdir(parents=True)
    cached = folder / "_search.search-87.py311.nbi"
    cached.write_text("")
    assert folder in _kernel_cache.clear_stale_caches(root)
    assert not cached.exists()
    cached.write_text("")
    assert _kernel_cache.clear_stale_caches(root) == []
    assert cached.exists()


@pytest.mark.jit_off
@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="needs folder permissions")
def test_a_folder_that_cannot_be_written_is_left_alone(tmp_path):
    root = tmp_path / "solo_analysis"
    _fake_package(root)
    files = _cache_files(root)
    folder = root / "solver/__pycache__"
    folder.chmod(0o555)
    try:
        cleared = _kernel_cache.clear_stale_caches(root)  # must not raise
    finally:
        folder.chmod(0o755)
    assert root / "sampler/__pycache__" in cleared
    assert not files[2].exists()


@pytest.mark.jit_off
def test_every_module_that_defines_a_numba_function_is_a_kernel_module():
    kernels = set(_kernel_cache.kernel_sources(PACKAGE))
    defines = re.compile(r"^\s*@(?:numba\.)?(?:njit|jit|vectorize|guvectorize)\b", re.M)
    compiled = {p for p in PACKAGE.rglob("*.py") if defines.search(p.read_text())}
    assert compiled, "no kernels found: the pattern is wrong"
    assert compiled <= kernels, sorted(str(p) for p in compiled - kernels)


@pytest.mark.jit_off
def test_the_tool_clears_a_copy_of_the_package_and_says_so(tmp_path, capsys):
    tool = load_script(ROOT / "tools" / "numba_cache.py")
    root = tmp_path / "solo_analysis"
    _fake_package(root)
    files = _cache_files(root)
    assert tool.main([str(root)]) == 0
    assert "cleared" in capsys.readouterr().out
    assert not any(f.exists() for f in files)
    assert tool.main([str(root)]) == 0
    assert capsys.readouterr().out.strip() == "numba caches up to date"
    assert tool.main([str(tmp_path / "nowhere")]) == 2
    assert "not a package folder" in capsys.readouterr().err


_CALLER = """
from numba import njit
from ._helper import helper

@njit(cache=True)
def answer():
    return helper() + 1
"""

_HELPER = """
from numba import njit

@njit(cache=True)
def helper():
    return {value}
"""


def _python(code: str, cwd: Path, **env: str) -> str:
    """What ``code`` prints, run by a fresh Python in ``cwd``, without NUMBA_ settings."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return done.stdout.strip()


def _answer(root: Path) -> str:
    return _python("from kc_demo.solver._caller import answer; print(answer())", root)


@pytest.mark.parametrize("check", [False, True], ids=["without the check", "with it"])
def test_a_changed_helper_reaches_a_cached_caller(tmp_path, check):
    """The hazard itself, with numba: a cached kernel calling a changed helper of another file.

    Without the check numba loads the caller's old machine code (this part shows that the
    test can fail); with the package's check on import, the new helper's answer.
    """
    package = tmp_path / "kc_demo"
    (package / "solver").mkdir(parents=True)
    shutil.copy(PACKAGE / "_kernel_cache.py", package / "_kernel_cache.py")
    init = "from pathlib import Path\n"
    if check:
        init += "from ._kernel_cache import clear_stale_caches\n"
        init += "clear_stale_caches(Path(__file__).parent)\n"
    (package / "__init__.py").write_text(init)
    (package / "solver" / "__init__.py").write_text("")
    (package / "solver" / "_caller.py").write_text(_CALLER)
    (package / "solver" / "_helper.py").write_text(_HELPER.format(value=1))
    assert _answer(tmp_path) == "2"
    assert list((package / "solver" / "__pycache__").glob("_caller.*.nbi"))
    (package / "solver" / "_helper.py").write_text(_HELPER.format(value=41))
    assert _answer(tmp_path) == ("42" if check else "2")


@pytest.mark.jit_off
def test_the_folders_are_where_numba_itself_caches(tmp_path, monkeypatch):
    """Each folder named as numba's own cache locators name it, in numba's order of choice."""
    from numba.core import caching, config

    source = PACKAGE / "solver" / "_search.py"

    def kernel():  # a function for numba's locators (they read its first line only)
        pass

    def numba_path(locator: type, path: Path = source) -> Path:
        return Path(locator(kernel, str(path)).get_cache_path())

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert _kernel_cache.cache_dirs(source) == [numba_path(caching.InTreeCacheLocator)]
    # __pycache__ cannot be written: numba's user-wide folder too
    monkeypatch.setattr(_kernel_cache.os, "access", lambda path, mode: False)
    assert _kernel_cache.cache_dirs(source) == [
        numba_path(caching.InTreeCacheLocator),
        numba_path(caching.UserWideCacheLocator),
    ]
    monkeypatch.undo()
    user = tmp_path / "numba-cache"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(user))
    monkeypatch.setattr(config, "CACHE_DIR", str(user))
    assert _kernel_cache.cache_dirs(source)[0] == numba_path(caching.UserProvidedCacheLocator)
    # reached through a symbolic link: named from the path as given, as numba does
    link = tmp_path / "link"
    link.symlink_to(PACKAGE.parent, target_is_directory=True)
    linked = link / "solo_analysis" / "solver" / "_search.py"
    named = numba_path(caching.UserProvidedCacheLocator, linked)
    assert named != numba_path(caching.UserProvidedCacheLocator)
    assert _kernel_cache.cache_dirs(linked)[0] == named


@pytest.mark.jit_off
def test_a_read_only_install_does_not_import_numba_on_import(tmp_path):
    """Finding numba's user-wide folder loads its ``appdirs`` file alone, not numba."""
    code = (
        "import os, sys\n"
        "os.access = lambda *args, **kwargs: False  # every folder read-only\n"
        "import solo_analysis\n"
        "print('numba' in sys.modules)\n"
    )
    # XDG_CACHE_HOME: numba's user-wide folder on Linux
    assert _python(code, tmp_path, XDG_CACHE_HOME=str(tmp_path / "cache")) == "False"
    if sys.platform.startswith("linux"):  # the stamps went to numba's user-wide folders
        stamps = list((tmp_path / "cache" / "numba").glob(f"*/{_kernel_cache.STAMP}"))
        assert {p.parent.name.split("_")[0] for p in stamps} == {
            "solver",
            "sampler",
            "play",
            "stats",
        }
