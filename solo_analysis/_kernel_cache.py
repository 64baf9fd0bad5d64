"""Numba's on-disk caches of the package's kernels, cleared when any kernel module changes.

numba (``cache=True``) checks a cached function against the source file of that function
only.  The search inlines and calls functions of other kernel modules (the bounds of
``solver/_bounds.py``, the move generation of ``solver/_moves.py``), so after an edit, a
``git pull`` or an upgrade that changes one of those files alone, numba would load the
search's old machine code: old answers, silently.  :func:`clear_stale_caches` runs when the
package is imported, before any kernel is compiled or loaded: it hashes the sources of all
kernel modules and, in every folder where numba may keep their caches, compares the digest
with a stamp file; where they differ it deletes the kernels' cache files there and writes the
new stamp, and numba compiles afresh on the next call.

It costs about a millisecond when nothing has changed, never raises (a folder that cannot
be read or written is left as it is: numba does not cache there either), and is safe when
several processes import the package at once (each deletes before it writes the stamp, so a
process that finds the stamp current finds no stale cache file).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import os
from pathlib import Path
from types import ModuleType

#: the kernel modules (every module that defines a numba-compiled function), relative to
#: the package root; ``tests/test_kernel_cache.py`` checks that no kernel lies outside them
KERNEL_GLOBS = ("solver/_*.py", "sampler/_*.py", "play/_*.py", "stats/_*.py")
#: the name of the stamp file, in each cache folder: the digest of the sources its caches
#: were built from
STAMP = "kernel-sources.sha1"


def kernel_sources(package_root: Path) -> list[Path]:
    """The kernel modules under ``package_root``, sorted."""
    return sorted(p for pattern in KERNEL_GLOBS for p in package_root.glob(pattern))


def sources_digest(package_root: Path, sources: list[Path] | None = None) -> str:
    """SHA-1 of the kernel modules' paths (relative to ``package_root``) and contents.

    ``sources``: the kernel modules if already listed (:func:`kernel_sources`).
    """
    sha = hashlib.sha1()
    for path in kernel_sources(package_root) if sources is None else sources:
        sha.update(path.relative_to(package_root).as_posix().encode() + b"\0")
        sha.update(path.read_bytes() + b"\0")
    return sha.hexdigest()


def _numba_subfolder(source: Path) -> str:
    """The folder name numba gives a source file's caches outside its tree."""
    parent = os.path.dirname(os.path.abspath(source))
    return f"{os.path.basename(parent)}_{hashlib.sha1(parent.encode()).hexdigest()}"


def _numba_appdirs() -> ModuleType:
    """The module ``numba/misc/appdirs.py`` (standalone), loaded without importing numba.

    Importing ``numba.misc.appdirs`` would import numba itself, a quarter of a second or
    more at every ``import solo_analysis`` on a read-only install; where the file is not
    found, it is imported the usual way.
    """
    spec = importlib.util.find_spec("numba")
    if spec is not None and spec.origin is not None:
        path = Path(spec.origin).parent / "misc" / "appdirs.py"
        found = importlib.util.spec_from_file_location("_solo_analysis_numba_appdirs", path)
        if path.is_file() and found is not None and found.loader is not None:
            module = importlib.util.module_from_spec(found)
            found.loader.exec_module(module)
            return module
    return importlib.import_module("numba.misc.appdirs")


@functools.cache
def _user_cache_root() -> Path | None:
    """The user-wide cache folder of numba (used where ``__pycache__`` is read-only)."""
    try:
        appdirs = _numba_appdirs()
        return Path(appdirs.AppDirs(appname="numba", appauthor=False).user_cache_dir)
    except Exception:  # numba missing or reorganised: nothing cached there to clear
        return None


def cache_dirs(source: Path) -> list[Path]:
    """The folders where numba may keep the cache files of ``source``.

    The folder under ``NUMBA_CACHE_DIR`` if that is set, the source's ``__pycache__``
    folder, and, if that one cannot be written, numba's user-wide cache folder: numba's own
    order of choice (named as numba names them).
    """
    dirs: list[Path] = []
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        dirs.append(Path(user) / _numba_subfolder(source))
    in_tree = source.parent / "__pycache__"
    dirs.append(in_tree)
    writable = in_tree if in_tree.is_dir() else source.parent
    if not os.access(writable, os.W_OK):
        root = _user_cache_root()
        if root is not None:
            dirs.append(root / _numba_subfolder(source))
    return dirs


def cache_files(source: Path, folder: Path) -> list[Path]:
    """The index (``.nbi``) and data (``.nbc``) files numba cached in ``folder`` for ``source``."""
    found: list[Path] = []
    for suffix in ("nbi", "nbc"):
        found.extend(folder.glob(f"{source.stem}.*.{suffix}"))
    return sorted(found)


def _stamp_matches(stamp: Path, digest: str) -> bool:
    try:
        return stamp.read_text().strip() == digest
    except (OSError, UnicodeDecodeError):
        return False


def _write_stamp(stamp: Path, digest: str) -> None:
    """Write the stamp atomically (a concurrent reader sees the old one or the new one)."""
    partial = stamp.with_name(f"{stamp.name}.{os.getpid()}")
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(digest + "\n")
        partial.replace(stamp)
    except OSError:
        partial.unlink(missing_ok=True)


def clear_stale_caches(package_root: Path) -> list[Path]:
    """Delete numba's cache files of every kernel module wherever they predate a change.

    Parameters
    ----------
    package_root : Path
        The ``solo_analysis`` package folder.

    Returns
    -------
    list of Path
        The cache folders whose stamp did not match the kernel sources (or that had none):
        their kernel cache files were deleted and the new stamp written.  Empty if every
        folder was up to date.  Folders that cannot be read or written are skipped.
    """
    package_root = Path(package_root)
    try:
        sources = kernel_sources(package_root)
        if not sources:
            return []
        digest = sources_digest(package_root, sources)
        folders: dict[Path, list[Path]] = {}
        for source in sources:
            for folder in cache_dirs(source):
                folders.setdefault(folder, []).append(source)
    except OSError:
        return []
    cleared: list[Path] = []
    for folder, in_folder in folders.items():
        stamp = folder / STAMP
        if _stamp_matches(stamp, digest):
            continue
        try:
            for source in in_folder:
                for path in cache_files(source, folder):
                    path.unlink(missing_ok=True)
        except OSError:
            continue  # not ours to clear: numba cannot cache there either
        _write_stamp(stamp, digest)
        cleared.append(folder)
    return cleared
