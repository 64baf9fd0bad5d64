"""The files of a run: atomic writes, chunks, the manifest that makes a run resumable.

Chunk ``k`` covers the deal indices ``[k*size, (k+1)*size)`` (the last one may be shorter).
Each finished chunk is written to ``OUT/chunks/chunk-KKKKKK.parquet`` through a temporary file
that is flushed, ``fsync``-ed and renamed over the final name (``os.replace``, atomic), so a
killed run leaves either a complete chunk file or a temporary file that is never read.
``OUT/manifest.json`` records the seed, the rule set, the contracts, the chunk size and the
play model; a later run into the same directory resumes, skipping finished chunks, and refuses
(with a :class:`~solo_analysis.errors.TableError`) to mix in chunks of another run.  The deal
count is not part of a run's identity: asking the same directory for more deals extends the
run (only a short last chunk is redone).
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..cards import PLAY_SEATS
from ..errors import TableError
from ..rules import RuleSet, rules_from_toml

__all__ = [
    "FORMAT",
    "check_manifest",
    "chunk_done",
    "chunk_path",
    "chunk_timings",
    "load_run",
    "manifest",
    "merge_chunks",
    "prepare_out",
    "reuse_chunk",
    "reuse_source",
    "write_parquet",
    "write_text",
]

#: version of the chunk / manifest layout; a run directory of another layout is refused
FORMAT: int = 1


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _atomic_write(path: Path, write: Callable[[Any], None], binary: bool) -> None:
    """Write through ``path``'s temporary sibling, fsync it, then rename it over ``path``."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") if binary else open(tmp, "w", encoding="utf-8", newline="") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    _fsync_dir(path.parent)


def write_parquet(path: Path, frame: pd.DataFrame, meta: dict[str, Any] | None = None) -> None:
    """Write ``frame`` to ``path`` as Parquet, atomically; ``meta`` goes into its metadata."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    if meta:
        merged = dict(table.schema.metadata or {})
        merged[b"solo_analysis"] = json.dumps(meta, sort_keys=True).encode()
        table = table.replace_schema_metadata(merged)
    _atomic_write(path, lambda fh: pq.write_table(table, fh), binary=True)


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8), atomically."""
    _atomic_write(path, lambda fh: fh.write(text), binary=False)


def chunk_path(out: Path, k: int) -> Path:
    """The file of chunk ``k`` of the run in ``out``."""
    return out / "chunks" / f"chunk-{k:06d}.parquet"


def chunk_done(path: Path, n: int) -> bool:
    """Whether ``path`` is a complete chunk of ``n`` deals (a shorter last chunk is redone)."""
    if not path.is_file():
        return False
    import pyarrow.parquet as pq

    try:
        return bool(pq.read_metadata(path).num_rows == 4 * n)
    except Exception:  # an unreadable file, whatever the error, is not a finished chunk
        return False


def manifest(
    seed: int,
    rules: RuleSet,
    names: Sequence[str],
    chunk_size: int,
    model: str,
    max_question_positions: int | None = None,
    play_options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The identity of a run: what a resume must match (the deal count is not part of it).

    ``play_options`` are the play model's own settings (:meth:`PlayModel.options`).
    """
    return {
        "play_model": model,
        "play_options": dict(play_options or {}),
        "max_question_positions": max_question_positions,
        "format": FORMAT,
        "seed": seed,
        "rules": rules.name,
        "rules_toml": rules.to_toml(),
        "contracts": list(names),
        "chunk_size": chunk_size,
    }


def _read_manifest(path: Path) -> dict[str, Any]:
    """A run's manifest, in today's keys.

    Older runs named the per-question cap ``max_nodes``, and recorded no play-model options.
    """
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    data.setdefault("play_options", {})
    if "max_nodes" in data and "max_question_positions" not in data:
        data["max_question_positions"] = data.pop("max_nodes")
    return data


def check_manifest(out: Path, manifest: dict[str, Any]) -> bool:
    """Compare with an existing manifest; True if there is one (a resume)."""
    path = out / "manifest.json"
    if not path.exists():
        return False
    try:
        old = _read_manifest(path)
    except (OSError, ValueError) as exc:
        raise TableError(f"cannot read the run manifest {str(path)!r}: {exc}") from None
    diffs = []
    for key in (
        "format",
        "seed",
        "rules",
        "chunk_size",
        "contracts",
        "play_model",
        "play_options",
        "max_question_positions",
        "rules_toml",
    ):
        if old.get(key) != manifest[key]:
            if key == "rules_toml":
                diffs.append("rule-set options")
            else:
                diffs.append(f"{key} {old.get(key)!r} there, {manifest[key]!r} here")
    if diffs:
        raise TableError(
            f"{str(out)!r} holds chunks of another run ({'; '.join(diffs)}): "
            "use another output directory or delete it"
        )
    return True


def prepare_out(out: Path) -> None:
    """Create the run directory, check it is writable, and remove a killed run's temporary files.

    Raises
    ------
    TableError
        If ``out`` cannot be written.
    """
    try:
        (out / "chunks").mkdir(parents=True, exist_ok=True)
        probe = out / f".write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise TableError(
            f"cannot write to output directory {str(out)!r}: {exc.strerror or exc}"
        ) from None
    # temporary files of a killed run are never complete: remove them
    for stale in list((out / "chunks").glob(".*.tmp-*")) + list(out.glob(".*.tmp-*")):
        try:
            stale.unlink()
        except OSError:  # pragma: no cover - another process may own it
            pass


def reuse_source(path: Path, manifest: dict[str, Any]) -> tuple[Path, RuleSet]:
    """Check that ``path`` is a run whose answers this run may reuse; its directory and rules."""
    try:
        other = _read_manifest(path / "manifest.json")
    except (OSError, ValueError) as exc:
        raise TableError(f"cannot reuse {str(path)!r}: no readable run manifest ({exc})") from None
    diffs = [
        f"{key} {other.get(key)!r} there, {manifest[key]!r} here"
        for key in (
            "format",
            "seed",
            "chunk_size",
            "play_model",
            "play_options",
            "max_question_positions",
        )
        if other.get(key) != manifest[key]
    ]
    if diffs:
        raise TableError(f"cannot reuse {str(path)!r}: another kind of run ({'; '.join(diffs)})")
    try:
        rules = rules_from_toml(other["rules_toml"], str(path / "manifest.json"))
    except (KeyError, TypeError):
        raise TableError(f"cannot reuse {str(path)!r}: its manifest names no rule set") from None
    return path, rules


def reuse_chunk(
    donor: tuple[Path, RuleSet] | None, k: int, n: int
) -> tuple[pd.DataFrame, RuleSet] | None:
    """Chunk ``k`` of the run to reuse, if that run has finished it."""
    if donor is None or not chunk_done(chunk_path(donor[0], k), n):
        return None
    return pd.read_parquet(chunk_path(donor[0], k)), donor[1]


def chunk_timings(out: Path, spans: Sequence[tuple[int, int, int]]) -> dict[str, Any]:
    """Solver time over every chunk of the run (this invocation's and earlier ones')."""
    import pyarrow.parquet as pq

    seconds: dict[str, float] = defaultdict(float)
    busy = 0.0
    for k, _, _ in spans:
        raw = (pq.read_schema(chunk_path(out, k)).metadata or {}).get(b"solo_analysis")
        timing = json.loads(raw).get("timing", {}) if raw else {}
        for q, v in timing.get("seconds", {}).items():
            seconds[q] += v
        busy += timing.get("wall", 0.0)
    deals = sum(n for _, _, n in spans)
    return {
        "deals": deals,
        "chunk_seconds": round(busy, 3),
        "deals_per_chunk_second": deals / busy if busy > 0 else None,
        "solver_seconds_by_question": {q: round(v, 3) for q, v in sorted(seconds.items())},
        "note": "summed over chunks: with several workers this is compute time, not wall time",
    }


def merge_chunks(out: Path, spans: Sequence[tuple[int, int, int]]) -> pd.DataFrame:
    """The per-deal frame of the whole run: its chunks (``(k, start, n)`` spans), in order."""
    frames = [pd.read_parquet(chunk_path(out, k)) for k, _, _ in spans]
    frame = pd.concat(frames, ignore_index=True)
    frame["seat"] = pd.Categorical(frame["seat"].astype(str), categories=list(PLAY_SEATS))
    return frame


def load_run(out: str | os.PathLike[str]) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The merged per-deal frame and the metadata of a finished run directory.

    Raises
    ------
    TableError
        If ``out`` holds no finished run.
    """
    path = Path(out)
    try:
        meta = json.loads((path / "metadata.json").read_text(encoding="utf-8"))
        frame = pd.read_parquet(path / "deals.parquet")
    except (OSError, ValueError) as exc:
        raise TableError(f"{str(path)!r} holds no finished table run: {exc}") from None
    return frame, meta
