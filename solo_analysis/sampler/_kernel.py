"""Compiled core of the deal sampler (private; use :mod:`solo_analysis.sampler`).

Encodings (the kernel sees plain arrays only):

* a card is an int ``0..51``, ``code = suit*13 + rank_index`` with suits
  ``0..3 = S, H, D, C`` and ``rank_index 0..12 = 2..A``;
* a seat is an int ``0..3`` in play order ``eldest, second, third, dealer``;
* ``owner`` is an ``int8[52]`` array, ``owner[code]`` = seat holding the card,
  or ``-1`` for an unknown card still to be dealt;
* ``pool`` lists the unknown cards; ``nfree[seat]`` is how many of them each
  seat receives (``nfree.sum() == len(pool)``);
* the output ``out`` is ``int8[count, 4, 13]``: deal, seat (play order), card;
  each hand is in display order - spades first, then hearts, diamonds, clubs,
  highest rank first within a suit (the order of "AKQ.JT9.876.5432").

Random numbers: deal number ``i`` (the global candidate index) gets its own
xoshiro256** generator, seeded through splitmix64 from ``key = mix(seed) +
i * GOLDEN``.  Nothing depends on the thread that runs the deal or on how the
indices are split into batches, so the output is a pure function of
``(seed, index)``.  ``np.random`` is never used inside the kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = [
    "CHUNK",
    "below",
    "deal_batch",
    "mix64",
    "next_u64",
    "seed_key",
    "seed_state",
    "turnup_positions",
]

# every 64-bit constant is a np.uint64 so that numba never mixes uint64 with int64
# (which it would promote to float64)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_SEED_SALT = np.uint64(0x5D0A11C0FFEE5EED)
_TURNUP_SALT = np.uint64(0x7475726E7570C0DE)  # separates the turn-up hash from the deal streams
_U13 = np.uint64(13)
_U5 = np.uint64(5)
_U7 = np.uint64(7)
_U9 = np.uint64(9)
_U17 = np.uint64(17)
_U27 = np.uint64(27)
_U30 = np.uint64(30)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_U45 = np.uint64(45)
_U64 = np.uint64(64)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)

#: deals handled by one parallel task (scratch arrays are allocated once per chunk)
CHUNK = 256


@njit(cache=True, nogil=True, inline="always")
def mix64(z: np.uint64) -> np.uint64:
    """splitmix64 finaliser: a bijection of 64-bit words with good avalanche."""
    z = (z ^ (z >> _U30)) * _MIX1
    z = (z ^ (z >> _U27)) * _MIX2
    return z ^ (z >> _U31)


@njit(cache=True, nogil=True, inline="always")
def _rotl(x: np.uint64, k: np.uint64) -> np.uint64:
    return (x << k) | (x >> (_U64 - k))


@njit(cache=True, nogil=True, inline="always")
def next_u64(s: np.ndarray) -> np.uint64:
    """One xoshiro256** step on the state ``s`` (uint64[4]), in place."""
    result = _rotl(s[1] * _U5, _U7) * _U9
    t = s[1] << _U17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], _U45)
    return result


@njit(cache=True, nogil=True, inline="always")
def seed_state(s: np.ndarray, key: np.uint64, index: np.int64) -> None:
    """Seed ``s`` for deal ``index`` from the sampler key (splitmix64 sequence)."""
    x = key + np.uint64(index) * _GOLDEN
    for j in range(4):
        x += _GOLDEN
        s[j] = mix64(x)


@njit(cache=True, nogil=True, inline="always")
def below(s: np.ndarray, bound: np.int64) -> np.int64:
    """Uniform int in ``[0, bound)``, ``1 <= bound < 2**32``, unbiased (Lemire)."""
    b = np.uint64(bound)
    while True:
        m = (next_u64(s) >> _U32) * b
        low = m & _LOW32
        if low >= b:
            return np.int64(m >> _U32)
        if low >= (_TWO32 - b) % b:
            return np.int64(m >> _U32)


@njit(cache=True, nogil=True)
def seed_key(seed: np.uint64) -> np.uint64:
    """Scramble the user's seed into the key that all deal streams derive from."""
    return mix64(mix64(seed ^ _SEED_SALT) + _GOLDEN)


@njit(cache=True, nogil=True, parallel=True)
def deal_batch(
    key: np.uint64,
    start: np.int64,
    owner0: np.ndarray,
    pool: np.ndarray,
    nfree: np.ndarray,
    len_lo: np.ndarray,
    len_hi: np.ndarray,
    hcp_lo: np.ndarray,
    hcp_hi: np.ndarray,
    check: bool,
    out: np.ndarray,
    accept: np.ndarray,
) -> None:
    """Deal candidates ``start .. start+len(out)-1`` into ``out`` and flag them.

    Parameters
    ----------
    key : uint64
        From :func:`seed_key`.
    start : int64
        Global index of the first candidate (its random stream is a function
        of ``(key, index)`` only).
    owner0 : int8[52]
        Seat of every fixed card, ``-1`` for the unknown ones.
    pool : int8[m]
        The unknown cards (any fixed order).
    nfree : int64[4]
        Unknown cards each seat receives; sums to ``m``.
    len_lo, len_hi : int8[4, 4]
        Inclusive bounds on ``[seat, suit]`` length.
    hcp_lo, hcp_hi : int64[4]
        Inclusive bounds on each seat's Milton points (A4 K3 Q2 J1).
    check : bool
        Whether to evaluate the bounds at all (``False``: accept everything).
    out : int8[count, 4, 13]
        Filled with the deals.
    accept : bool[count]
        Set to whether each deal meets the bounds.
    """
    count = out.shape[0]
    m = pool.shape[0]
    # dealing order of the free slots: the last seat with free slots takes the
    # remainder, so the shuffle only needs m - nfree[last] swaps
    last = 3
    while last > 0 and nfree[last] == 0:
        last -= 1
    nswap = m - nfree[last]
    nchunks = (count + CHUNK - 1) // CHUNK
    for c in prange(nchunks):
        s = np.empty(4, dtype=np.uint64)
        cards = np.empty(m, dtype=np.int8)
        owner = np.empty(52, dtype=np.int8)
        fill = np.zeros(4, dtype=np.int64)
        lens = np.zeros((4, 4), dtype=np.int64)
        hcp = np.zeros(4, dtype=np.int64)
        lo = c * CHUNK
        hi = min(count, lo + CHUNK)
        for i in range(lo, hi):
            seed_state(s, key, start + i)
            for j in range(m):
                cards[j] = pool[j]
            for j in range(52):
                owner[j] = owner0[j]
            # partial Fisher-Yates: positions 0..nswap-1 become a uniform
            # random arrangement, the remainder goes to the last seat
            for j in range(nswap):
                r = j + below(s, m - j)
                t = cards[j]
                cards[j] = cards[r]
                cards[r] = t
            pos = 0
            for seat in range(4):
                for _ in range(nfree[seat]):
                    owner[cards[pos]] = seat
                    pos += 1
            for seat in range(4):
                fill[seat] = 0
                hcp[seat] = 0
                for suit in range(4):
                    lens[seat, suit] = 0
            # write each hand in display order: suit S..C, rank A..2
            for suit in range(4):
                for rank in range(12, -1, -1):
                    code = suit * 13 + rank
                    seat = owner[code]
                    out[i, seat, fill[seat]] = code
                    fill[seat] += 1
                    lens[seat, suit] += 1
                    if rank >= 9:
                        hcp[seat] += rank - 8
            ok = True
            if check:
                for seat in range(4):
                    if hcp[seat] < hcp_lo[seat] or hcp[seat] > hcp_hi[seat]:
                        ok = False
                    for suit in range(4):
                        if (
                            lens[seat, suit] < len_lo[seat, suit]
                            or lens[seat, suit] > len_hi[seat, suit]
                        ):
                            ok = False
            accept[i] = ok


@njit(cache=True, nogil=True)
def turnup_positions(seed: np.uint64, start: np.int64, n: np.int64) -> np.ndarray:
    """Where in the dealer's hand (0..12) the turn-up of deals ``start .. start+n-1`` lies.

    A splitmix64 hash of ``(seed, index)``, taken modulo 13: a pure function of the deal's
    index, uniform up to a bias below ``2**-59``, and independent of the deal streams.
    """
    base = (seed ^ _TURNUP_SALT) * _GOLDEN
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        x = base + np.uint64(start + i) * _GOLDEN
        out[i] = np.int64(mix64(mix64(x)) % _U13)
    return out
