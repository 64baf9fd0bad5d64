"""Transposition table of the search: keys, hashes, signatures, probes and stores.

Layout
------
Entries are found by the hand-suit lengths of a trick-boundary position and its leader
(hashed to a bucket of ``TT_WAYS`` ways: one key can have many patterns), and hold a
*pattern*: for each suit, the owners of its top ``k`` remaining cards, the cards whose ranks
mattered to the result (DDS's "winning ranks").  A stored bound applies to every position
with the same lengths and leader whose top cards have the same owners, whatever happens
below them.  A table is a pair of int64 arrays ``(info, index)``:

* ``index[b, 0]``: the ways of bucket ``b`` written by the current solve (reset to 0 when a
  solve starts): its entries are the first ``min(index[b, 0], TT_WAYS)`` ways (``_fill``);
  past ``TT_WAYS`` it picks the way to overwrite, round-robin.
* ``index[b, 1 + w]``: the index word of way ``w``, ``(hash << 40) | (signature << 8) |
  (lower << 4) | upper``: a 22-bit hash of the position's key (:func:`tt_key`,
  ``_key_hash``), the pattern's signature and the bounds on the counted side's remaining
  tricks (0 and 13 when nothing is known).
* ``info[b * TT_WAYS + w] = [pattern S | pattern H << 32, pattern D | pattern C << 32, key]``.
* pattern: ``(k << 26) | owners`` of a suit's top ``k`` live cards, highest first, 2 bits
  each (up to 13 cards: 26 bits).
* owner sequence (:func:`suit_seq`, the search stack's ``ST_SEQ`` columns): the owners of
  all the live cards of a suit, 2 bits each, highest first.
* signature: the owners of each suit's top card (bits 0-7, 2 a suit) and second card
  (bits 8-15) where the pattern fixes them, and in bits 16-31 a mask of 3s saying where it
  does.

A probe scans the index words of a bucket, which lie together, and reads a way's row only
where the hash matches, the signature agrees with the position's top two owners of every
suit and the bounds decide the question.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..cards import SUIT_MASK
from ._bits import ST_KEY, ST_NEED, ST_NLIVE, ST_SEQ, ST_SIG, lowbit, pop13, top_cards_mask

#: a table of 2**19 entries a thread (32 bytes an entry: 16.8 MB)
TT_BITS_DEFAULT = 19
#: ways of a bucket: a probe scans only the ways written by the current solve, so many ways
#: cost little while the table keeps more patterns of a key
TT_WAYS = 256
#: True: store whole positions (every live card relevant) instead of winning-rank patterns.
#: A debugging switch: the patterns are exact (checked against the oracle).
EXACT_TT = False
HASH_SHIFT = 40  # an index word: key hash << 40, signature << 8, lower bound << 4, upper bound
OWN26 = (1 << 26) - 1  # the owners part of a pattern
# multipliers of the bucket hash (of the lengths and leader) and of the key hash
HASH_A = 0x1F3D5B79A3C4E2B5 & 0x7FFFFFFFFFFFFFFF
HASH_B = 0x2545F4914F6CDD1D
HASH_C = 0x1E3779B97F4A7C15


@njit(cache=True, inline="always")
def suit_seq(h, live_s, base):
    """Owners (2 bits each, highest card first) of the live cards of one suit."""
    seq = 0
    r = 12
    while r >= 0:
        if live_s & (1 << r):
            b = 1 << (base + r)
            if h[0] & b:
                o = 0
            elif h[1] & b:
                o = 1
            elif h[2] & b:
                o = 2
            else:
                o = 3
            seq = (seq << 2) | o
        r -= 1
    return seq


@njit(cache=True, inline="always")
def _fill(index, b):
    """How many ways of bucket ``b`` hold entries of the current solve."""
    n = index[b, 0]
    return n if n < TT_WAYS else TT_WAYS


@njit(cache=True, inline="always")
def _key_hash(key):
    """22 bits of a table key for the index words (the rows hold the whole key)."""
    return ((key * HASH_C) >> 42) & 0x3FFFFF


@njit(cache=True, inline="always")
def sig_owners(seq, n, s):
    """Signature bits of suit ``s``, and the mask of the bits they fill.

    The owners of the top one or two of the ``n`` cards whose owner sequence is ``seq``.
    """
    own = 0
    mask = 0
    if n >= 1:
        own |= ((seq >> (2 * (n - 1))) & 3) << (2 * s)
        mask |= 3 << (2 * s)
    if n >= 2:
        own |= ((seq >> (2 * (n - 2))) & 3) << (8 + 2 * s)
        mask |= 3 << (8 + 2 * s)
    return own, mask


@njit(cache=True, inline="always")
def _pattern(info, slot, s):
    """Suit ``s``'s pattern in row ``slot`` (two patterns a word)."""
    return (info[slot, s >> 1] >> (32 * (s & 1))) & 0xFFFFFFFF


@njit(cache=True, inline="always")
def tt_key(lens, rem, leader):
    """A trick-boundary position's table key: its hand-suit lengths, cards a hand, leader.

    ``lens`` holds 16 lengths of 4 bits, suit by suit (S first), each suit's four hands in
    seat order; the clubs of each hand follow from its other suits and ``rem``, so the key
    keeps the other 48 bits, ``rem`` and the leader (54 bits).
    """
    return (((lens >> 16) & 0xFFFFFFFFFFFF) << 6) | (rem << 2) | leader


@njit(cache=True, inline="always")
def tt_probe(info, index, b, key, st, d, need, live):
    """Look for a decisive entry in bucket ``b``; returns (found, value, relevant-mask).

    A bucket's entries of the current solve are its first ``index[b, 0]`` ways (all of them
    once that passes ``TT_WAYS``): every solve starts with the counts at zero, and
    :func:`tt_store` fills the ways in order, then overwrites round-robin.  They are scanned
    newest first: where several entries decide, the first one found gives the relevant cards
    passed up, and the newest tend to rely on fewer.  The signature has checked the top two
    owners of each suit, so only patterns of more cards are compared in full.
    """
    hk = _key_hash(key)
    psig = st[d, ST_SIG]
    for w in range(_fill(index, b) - 1, -1, -1):
        word = index[b, 1 + w]
        if (word >> HASH_SHIFT) != hk:
            continue
        sg = word >> 8
        if ((sg ^ psig) & (sg >> 16) & 0xFFFF) != 0:
            continue
        lb = (word >> 4) & 15
        ub = word & 15
        if lb < need and ub >= need:
            continue
        slot = b * TT_WAYS + w
        if info[slot, 2] != key:
            continue
        ok = True
        for s in range(4):
            pat = _pattern(info, slot, s)
            k = pat >> 26
            if k > 2:
                n = st[d, ST_NLIVE + s]
                if (st[d, ST_SEQ + s] >> (2 * (n - k))) != (pat & OWN26):
                    ok = False
                    break
        if not ok:
            continue
        rel = 0
        for s in range(4):
            k = _pattern(info, slot, s) >> 26
            if k > 0:
                rel |= top_cards_mask((live >> (13 * s)) & SUIT_MASK, k, 13 * s)
        return True, lb >= need, rel
    return False, False, 0


@njit(cache=True, inline="always")
def tt_store(info, index, b, st, d, h, value, rel, exact):
    """Store the result of the boundary position at depth ``d`` in bucket ``b``.

    The entry's pattern is that of the position's relevant cards ``rel``.

    With ``exact`` the pattern is the whole position (every live card relevant).
    """
    key = st[d, ST_KEY]
    need = st[d, ST_NEED]
    live = h[0] | h[1] | h[2] | h[3]
    if exact:
        rel = live
    p01 = 0  # patterns S and H, two to a word
    p23 = 0  # D and C
    esig = 0
    for s in range(4):
        rs = (rel >> (13 * s)) & SUIT_MASK
        if rs != 0:
            k = pop13(((live >> (13 * s)) & SUIT_MASK) >> lowbit(rs))
            n = st[d, ST_NLIVE + s]
            own = st[d, ST_SEQ + s] >> (2 * (n - k))
            if s < 2:
                p01 |= ((k << 26) | own) << (32 * s)
            else:
                p23 |= ((k << 26) | own) << (32 * (s - 2))
            o, mk = sig_owners(own, k, s)
            esig |= o | (mk << 16)
    hk = _key_hash(key)
    head = (hk << HASH_SHIFT) | (esig << 8)
    base = b * TT_WAYS
    way = -1
    for w in range(_fill(index, b) - 1, -1, -1):
        slot = base + w
        if (
            (index[b, 1 + w] & ~np.int64(255)) == head
            and info[slot, 2] == key
            and info[slot, 0] == p01
            and info[slot, 1] == p23
        ):
            way = w
            break
    if way < 0:
        way = index[b, 0] % TT_WAYS
        index[b, 0] += 1
        index[b, 1 + way] = head | 13  # bounds 0 and 13: nothing known yet
        slot = base + way
        info[slot, 0] = p01
        info[slot, 1] = p23
        info[slot, 2] = key
    word = index[b, 1 + way]
    if value:
        if need > ((word >> 4) & 15):
            index[b, 1 + way] = (word & ~np.int64(0xF0)) | (need << 4)
    else:
        if need - 1 < (word & 15):
            index[b, 1 + way] = (word & ~np.int64(15)) | (need - 1)
