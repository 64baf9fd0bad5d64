"""The stop flag's read in compiled code: an atomic load, which the compiler keeps in the loop.

A kernel run by :func:`~solo_analysis.solver.batch.run_stoppable` is told to stop by another
thread writing ``stop[0] = 1``.  A plain read of ``stop[0]`` in a loop that never writes it
may be hoisted out of the loop by the compiler and the write never seen (measured: a batch
told to stop after 0.3 s ran all its 400 tasks, 3.2 s).  :func:`stop_set` reads it with an
atomic (monotonic) load in compiled code, and plainly in Python (``NUMBA_DISABLE_JIT=1``).
"""

from __future__ import annotations

from numba import types
from numba.extending import intrinsic, overload

__all__ = ["stop_set"]


def stop_set(stop):
    """Whether the stop flag ``stop[0]`` (``int64[1]``) is set."""
    return stop[0] != 0


@intrinsic
def _load_first(typingctx, arr):
    """``arr[0]`` of an ``int64`` array, read by an atomic (monotonic) load."""
    if not isinstance(arr, types.Array) or arr.dtype != types.int64:
        return None

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        return builder.load_atomic(ary.data, "monotonic", 8)

    return types.int64(arr), codegen


@overload(stop_set, inline="always")
def _stop_set(stop):
    def impl(stop):
        return _load_first(stop) != 0

    return impl
