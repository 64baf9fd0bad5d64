"""The hand features the odds tables are cut by: points, honours, lengths, trumps.

Each feature is a small int per hand (:data:`FEATURES` says what it counts); the trump
features read the turn-up's suit, and are -1 without a turn-up.
"""

from __future__ import annotations

import numpy as np

__all__ = ["FEATURES", "JACK", "hand_features"]

JACK = 9  # rank index of the jack (ranks 0..12 = 2..A)


_SIX = 4  # rank index of the six


#: hand features (per seat), all small ints; the trump ones are -1 without a turn-up
FEATURES: dict[str, str] = {
    "hcp": "Milton points, A4 K3 Q2 J1",
    "high_cards": "cards J or higher (A, K, Q, J)",
    "low_cards": "cards 6 or lower (2 to 6)",
    "aces": "aces",
    "kings": "kings",
    "voids": "suits with no card",
    "singletons": "suits with one card",
    "long_len": "length of the longest suit",
    "long_suit": "the longest suit, 0..3 = S H D C (ties: more A/K/Q/J, then S H D C)",
    "long_honours": "A, K, Q, J held in the longest suit",
    "second_len": "length of the second-longest suit",
    "trump_len": "cards of the turn-up suit",
    "trump_honours": "A, K, Q, J of the turn-up suit held",
    "trump_top": "unbroken top trumps from the ace (0 without the ace, 2 for AK...)",
}


def hand_features(deals: np.ndarray, turnups: np.ndarray | None) -> dict[str, np.ndarray]:
    """The :data:`FEATURES` of every hand.

    Parameters
    ----------
    deals : numpy.ndarray
        ``int[n, 4, 13]`` card codes (any order within a hand).
    turnups : numpy.ndarray or None
        ``int[n]`` turn-up card codes, or ``None`` (no turn-up: trump features are -1).

    Returns
    -------
    dict of str to numpy.ndarray
        Feature name -> ``int8[n, 4]``.
    """
    d = np.asarray(deals).astype(np.int64)
    n = d.shape[0]
    suit = d // 13
    rank = d % 13
    lengths = np.stack([(suit == s).sum(axis=-1) for s in range(4)], axis=-1)  # [n,4,4]
    honours = np.stack([((suit == s) & (rank >= JACK)).sum(axis=-1) for s in range(4)], axis=-1)
    # longest suit: length first, then honours, then the lower suit index
    score = lengths * 100 + honours * 10 + (3 - np.arange(4))
    long_suit = score.argmax(axis=-1)
    pick = np.take_along_axis
    out = {
        "hcp": np.maximum(rank - 8, 0).sum(axis=-1),
        "high_cards": (rank >= JACK).sum(axis=-1),
        "low_cards": (rank <= _SIX).sum(axis=-1),
        "aces": (rank == 12).sum(axis=-1),
        "kings": (rank == 11).sum(axis=-1),
        "voids": (lengths == 0).sum(axis=-1),
        "singletons": (lengths == 1).sum(axis=-1),
        "long_len": lengths.max(axis=-1),
        "long_suit": long_suit,
        "long_honours": pick(honours, long_suit[..., None], axis=-1)[..., 0],
        "second_len": np.sort(lengths, axis=-1)[..., 2],
    }
    if turnups is None:
        for name in ("trump_len", "trump_honours", "trump_top"):
            out[name] = np.full((n, 4), -1)
    else:
        ts = (np.asarray(turnups).astype(np.int64) // 13)[:, None, None]  # [n,1,1]
        in_trump = suit == ts
        out["trump_len"] = in_trump.sum(axis=-1)
        out["trump_honours"] = (in_trump & (rank >= JACK)).sum(axis=-1)
        held = np.zeros((n, 4, 13), dtype=bool)
        nn, ss, _ = np.nonzero(in_trump)
        held[nn, ss, rank[in_trump]] = True
        # unbroken run from the ace down: count leading True from rank 12
        run = np.cumprod(held[..., ::-1], axis=-1).sum(axis=-1)
        out["trump_top"] = run
    return {k: np.asarray(v, dtype=np.int8) for k, v in out.items()}
