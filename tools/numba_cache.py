"""Clear numba's on-disk caches of the package's kernels when a kernel module has changed.

numba's cache (``cache=True``) is checked against the source file of the cached function
only: a kernel that inlines or calls a function of *another* file (the search inlines the
move generation of ``_moves.py``, for one) keeps its old compiled code when only that other
file changes.  :func:`clear_stale_caches` hashes the source of every kernel module, compares
the digest with a stamp file, and when they differ deletes the cache files of all of them
and writes the new stamp; the next call of a kernel compiles it afresh.

Usage::

    python tools/numba_cache.py [PACKAGE_ROOT]    # default: the solo_analysis beside tools/
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

#: the kernel modules, relative to the package root
KERNEL_GLOBS = ("solver/_*.py", "sampler/_kernel.py", "play/_*.py", "stats/_features.py")
#: the digest of the sources the caches were built from, relative to the package root
STAMP = Path("__pycache__") / "kernel-sources.sha1"


def kernel_sources(package_root: Path) -> list[Path]:
    """The kernel modules under ``package_root``, sorted."""
    return sorted(p for pattern in KERNEL_GLOBS for p in package_root.glob(pattern))


def sources_digest(package_root: Path) -> str:
    """SHA-1 of the kernel modules' relative paths and contents."""
    sha = hashlib.sha1()
    for path in kernel_sources(package_root):
        sha.update(path.relative_to(package_root).as_posix().encode() + b"\0")
        sha.update(path.read_bytes() + b"\0")
    return sha.hexdigest()


def cache_dirs(source: Path) -> list[Path]:
    """The folders where numba keeps the cache files of ``source``.

    Its ``__pycache__`` folder, and the folder under ``NUMBA_CACHE_DIR`` if that is set
    (named as numba names it: the source's folder name and a hash of its path).
    """
    dirs = [source.parent / "__pycache__"]
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        parent = str(source.resolve().parent)
        name = f"{Path(parent).name}_{hashlib.sha1(parent.encode()).hexdigest()}"
        dirs.append(Path(user) / name)
    return dirs


def cache_files(source: Path) -> list[Path]:
    """The index (``.nbi``) and data (``.nbc``) files numba cached for ``source``."""
    found: list[Path] = []
    for folder in cache_dirs(source):
        for suffix in ("nbi", "nbc"):
            found.extend(folder.glob(f"{source.stem}.*.{suffix}"))
    return sorted(found)


def clear_stale_caches(package_root: Path) -> bool:
    """Delete numba's cache files of every kernel module if any kernel module has changed.

    Parameters
    ----------
    package_root : Path
        The ``solo_analysis`` package folder.

    Returns
    -------
    bool
        True if the sources differed from the stamp (or there was none) and the caches were
        deleted and the stamp rewritten; False if the caches are up to date.
    """
    package_root = Path(package_root)
    digest = sources_digest(package_root)
    stamp = package_root / STAMP
    try:
        if stamp.read_text().strip() == digest:
            return False
    except OSError:
        pass
    for source in kernel_sources(package_root):
        for path in cache_files(source):
            path.unlink(missing_ok=True)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    partial = stamp.with_name(f"{stamp.name}.{os.getpid()}")
    partial.write_text(digest + "\n")
    partial.replace(stamp)
    return True


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0]) if args else Path(__file__).resolve().parents[1] / "solo_analysis"
    if not (root / "__init__.py").is_file():
        print(f"error: {root} is not a package folder", file=sys.stderr)
        return 2
    if clear_stale_caches(root):
        print(f"kernel sources changed: numba caches under {root} cleared")
    else:
        print("numba caches up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
