"""Predictors fitted in advance for Prop and Cop and for Solo: one control variate a row.

Small neural networks, fitted by ``tools/fit_predictor.py`` on the double-dummy results of
many hands (classic rules), give for each sampled deal the chance that the player and a given
partner make Prop and Cop, or that the player makes Solo alone (:data:`PREDICTORS`: one
weights file and trick target a kind).  A predictor's mean under the sampling distribution is
taken on the advice's auxiliary stream like the other features' means, so as a control variate
(:meth:`~solo_analysis.stats.control.Controls.view`) it keeps the estimate unbiased whatever
the network's quality: where the deals differ from its training (another rule set's target,
realistic play, an auction's constraints) it only explains less of the variance.

The inputs (:func:`encode`, ``N_INPUTS`` a deal) name who holds each card by role (the player,
the partner, the opponent after the player, the other opponent; for Solo, where there is no
partner, the seat across the table takes the partner's role), the trump suit first and the
side suits by the player's holding, highest first; then each role's length and points in each
suit and in all; then where the partner and the eldest hand sit; then each role's length in
each suit as one of 14 indicators (a void, a singleton, ... thirteen cards), which give the
network the shapes that decide ruffs without building them from the linear lengths; last, which
of the suit's ace, king, queen and jack each role holds, as one of 16 indicators a role and suit
(the honours that win tricks together, which a sum over single cards does not see); then two
joint indicators a suit (:func:`encode_parts`): who holds its ace, king, queen and jack, one of
256 (where the top cards lie against each other: a king behind the ace or in front of it), and
how its cards split between the two other roles, one of 49.  The network is one ReLU layer and
a logistic output.  The seating aside, every input is a sum over the cards or an indicator of
one role's holding in one suit or of one suit's holders, so its first layer folds into rows of
a role's holding in a suit, one for its cards of 2 to 8, one for its cards of 9 to ace and its
honours, one for its length, and two rows a suit for its joint indicators
(:meth:`Predictor.fold`): a deal costs 3 x 12 + 2 x 4 row additions, compiled
(:func:`~solo_analysis.stats._predictor.predict_into`).  A predictor fitted without the joint
indicators (a first layer of :data:`N_BASE` rows) still loads, and reads none of them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

import numpy as np

from ._predictor import LOW_RANKS, predict_into
from .control import CV_PREDICTOR_ALONE, sigmoid

__all__ = [
    "N_BASE",
    "N_INPUTS",
    "N_JOINT",
    "N_SPLIT",
    "N_TOP",
    "PREDICTORS",
    "Folded",
    "Predictor",
    "default_predictor",
    "encode",
    "encode_parts",
    "roles",
    "solo_partner",
    "suit_order",
]

#: inputs a deal: holder by role of each card (4 suits x 13 ranks x 4 roles), each role's
#: length and points a suit (16 + 16), each role's points (4), the seating (3 + 4 + 1 spare),
#: each role's length a suit as indicators (4 roles x 4 suits x 14 lengths), each role's
#: honours (ace, king, queen, jack) a suit as indicators (4 roles x 4 suits x 16 holdings)
N_BASE: int = 732
#: joint indicators a suit: who holds its ace, king, queen and jack (4 roles each), and how
#: its cards split between the two other roles (each one's length, at most 6)
N_TOP: int = 256
N_SPLIT: int = 49
#: joint indicators that are 1 a deal: two a suit
N_JOINT: int = 8
#: every input: the :data:`N_BASE`, then each suit's :data:`N_TOP`, then each suit's
#: :data:`N_SPLIT` joint indicators.  A predictor fitted before the joint indicators existed
#: has :data:`N_BASE` rows in its first layer and reads none of them.
N_INPUTS: int = N_BASE + 4 * N_TOP + 4 * N_SPLIT
#: the predictors shipped with the package by kind (the contract's name): the weights file
#: (written by ``tools/fit_predictor.py fit``), the trick target whose double-dummy results it
#: was fitted on, and below how many deals its column stands alone (0: never; Solo's explains
#: less than the run's own 48 features do, docs/statistics.md)
PREDICTORS: dict[str, tuple[str, int, int]] = {
    "prop": ("prop_predictor.npz", 8, CV_PREDICTOR_ALONE),
    "solo": ("solo_predictor.npz", 5, 0),
}
_HCP = np.maximum(np.arange(13) - 8, 0)
_ONEHOT, _LENGTH, _POINTS, _TOTAL, _PARTNER, _ELDEST, _SHAPE = 0, 208, 224, 240, 244, 248, 252
_HONOURS = 476
_TOP = N_BASE
_SPLIT = _TOP + 4 * N_TOP
_SPLIT_CAP = 6
#: the ranks whose holder makes a suit's honours indicator (bit 0 the ace's)
_HONOUR_RANKS = (12, 11, 10, 9)


def solo_partner(seat: int) -> int:
    """The seat whose role a Solo predictor gives the partner's: the one across the table."""
    return (seat + 2) % 4


def roles(seat: int, partner: int) -> np.ndarray:
    """Role of each play seat: 0 the player, 1 the partner, 2 and 3 the others in play order."""
    if partner == seat or not (0 <= seat < 4 and 0 <= partner < 4):
        raise ValueError(f"the partner's seat {partner} must differ from the player's {seat}")
    out = np.empty(4, np.int64)
    out[seat], out[partner] = 0, 1
    k = 2
    for j in range(1, 4):
        if (seat + j) % 4 != partner:
            out[(seat + j) % 4] = k
            k += 1
    return out


def suit_order(hand: np.ndarray, trump: int) -> list[int]:
    """The suits in input order (``hand``: the player's 13 card codes).

    ``trump`` first (if 0..3), then the side suits, the player's longest first, ties by the
    player's highest cards.
    """
    codes = np.asarray(hand, dtype=np.int64)
    weight = 1 << (codes % 13)

    def key(s: int) -> tuple[int, int]:
        mine = codes // 13 == s
        return int(mine.sum()), int(weight[mine].sum())

    side = sorted((s for s in range(4) if s != trump), key=key, reverse=True)
    return ([trump] if 0 <= trump < 4 else []) + side


def _card_roles(deals: np.ndarray, seat: int, trump: int, partner: int) -> np.ndarray:
    """The role holding each card, ``int64[n, 4, 13]``: suits in input order, ranks from the two."""
    n = deals.shape[0]
    d = np.asarray(deals, dtype=np.int64)
    owner = np.empty((n, 52), np.int64)
    rows = np.repeat(np.arange(n), 13)
    for q in range(4):
        owner[rows, d[:, q, :].ravel()] = q
    role: np.ndarray = roles(seat, partner)[owner].reshape(n, 4, 13)
    return role[:, suit_order(d[0, seat] if n else np.zeros(0, np.int64), trump), :]


def _joint_columns(role: np.ndarray) -> np.ndarray:
    top = role[:, :, 12] * 64 + role[:, :, 11] * 16 + role[:, :, 10] * 4 + role[:, :, 9]
    l2 = np.minimum((role == 2).sum(axis=2), _SPLIT_CAP)
    l3 = np.minimum((role == 3).sum(axis=2), _SPLIT_CAP)
    split = l2 * (_SPLIT_CAP + 1) + l3
    suits = np.arange(4)
    out: np.ndarray = np.concatenate(
        [_TOP + suits * N_TOP + top, _SPLIT + suits * N_SPLIT + split], axis=1
    )
    return out


def encode_parts(
    deals: np.ndarray, seat: int, trump: int, partner: int
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`encode`'s inputs in two parts, without the memory of its dense joint indicators.

    Returns the first :data:`N_BASE` inputs (``float32[n, N_BASE]``) and the columns of the
    joint indicators that are 1 (``int64[n, N_JOINT]``): for each suit in input order, one of
    the :data:`N_TOP` holdings of its ace, king, queen and jack by role (``64 r(A) + 16 r(K) +
    4 r(Q) + r(J)``), then for each suit one of the :data:`N_SPLIT` splits between the two
    other roles (each one's length, at most 6: ``7 l2 + l3``).
    """
    role = _card_roles(deals, seat, trump, partner)
    return _base(role, seat, partner), _joint_columns(role)


def _base(role: np.ndarray, seat: int, partner: int) -> np.ndarray:
    n = role.shape[0]
    onehot = np.zeros((n, 4, 13, 4), np.float32)
    np.put_along_axis(onehot, role[..., None], 1.0, axis=3)
    length = np.stack([(role == r).sum(axis=2) for r in range(4)], axis=1)
    points = np.stack([((role == r) * _HCP).sum(axis=2) for r in range(4)], axis=1)
    where = np.zeros((n, 8), np.float32)
    where[:, (partner - seat) % 4 - 1] = 1.0
    where[:, 4 + (0 - seat) % 4] = 1.0  # the eldest hand (first leader) from the player
    parts: list[np.ndarray] = [onehot.reshape(n, -1), length.reshape(n, -1) / 4.0]
    parts += [points.reshape(n, -1) / 4.0, points.sum(axis=2) / 10.0, where]
    shape = np.zeros((n, 4, 4, 14), np.float32)
    np.put_along_axis(shape, length[..., None], 1.0, axis=3)
    parts.append(shape.reshape(n, -1))
    held = np.zeros((n, 4, 4), np.int64)  # role, suit: the honours held, bit 0 the ace
    for bit, rank in enumerate(_HONOUR_RANKS):
        held += (role[:, None, :, rank] == np.arange(4)[None, :, None]) << bit
    honours = np.zeros((n, 4, 4, 16), np.float32)
    np.put_along_axis(honours, held[..., None], 1.0, axis=3)
    parts.append(honours.reshape(n, -1))
    return np.concatenate(parts, axis=1).astype(np.float32)


def encode(deals: np.ndarray, seat: int, trump: int, partner: int) -> np.ndarray:
    """The network's inputs with ``partner`` (Solo's: :func:`solo_partner`), ``float32[n, 1952]``.

    ``deals`` are card codes ``(n, 4, 13)`` in play order, every deal with the player's hand at
    ``seat``; ``trump`` a suit 0..3, or -1 for none.  This is the reference the fitting uses;
    the advice evaluates the same network through :meth:`Predictor.predict`.  The first
    :data:`N_BASE` and the joint indicators as :func:`encode_parts` gives them.
    """
    base, cols = encode_parts(deals, seat, trump, partner)
    x = np.zeros((base.shape[0], N_INPUTS), np.float32)
    x[:, :N_BASE] = base
    np.put_along_axis(x, cols, 1.0, axis=1)
    return x


@dataclass(frozen=True)
class Predictor:
    """The fitted network: ``sigmoid(relu(x @ w1 + b1) @ w2 + b2)`` on :func:`encode`'s inputs.

    Parameters
    ----------
    w1, b1 : numpy.ndarray
        First layer, ``(N_INPUTS, hidden)`` and ``(hidden,)``.
    w2, b2 : numpy.ndarray
        Output layer, ``(hidden, 1)`` and ``(1,)``.
    """

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    def __post_init__(self) -> None:
        hidden = self.b1.shape[0] if self.b1.ndim == 1 else -1
        if (
            self.w1.shape not in ((N_INPUTS, hidden), (N_BASE, hidden))
            or self.w2.shape != (hidden, 1)
            or self.b2.shape != (1,)
        ):
            raise ValueError(
                f"a predictor needs weights ({N_INPUTS} or {N_BASE}, h), (h,), (h, 1), (1,); got "
                f"{self.w1.shape}, {self.b1.shape}, {self.w2.shape}, {self.b2.shape}"
            )

    @classmethod
    def load(cls, path: str) -> Predictor:
        """Weights from a ``.npz`` file of ``tools/fit_predictor.py fit``."""
        with np.load(path) as z:
            arrays = {k: z[k] for k in z.files}
        if any(k not in arrays for k in ("w0", "b0", "w1", "b1")) or "w2" in arrays:
            raise ValueError(f"{path}: not a one-hidden-layer predictor")
        return cls(arrays["w0"], arrays["b0"], arrays["w1"], arrays["b1"])

    def forward(self, x: np.ndarray) -> np.ndarray:
        """The chance of making, from :func:`encode`'s inputs (the reference computation)."""
        h = np.maximum(x[:, : self.w1.shape[0]] @ self.w1 + self.b1, 0.0)
        return sigmoid((h @ self.w2 + self.b2)[:, 0].astype(float))

    def fold(self, hand: np.ndarray, seat: int, trump: int, partner: int) -> Folded:
        """The network for one hand, seat, trump suit and partner, its first layer folded.

        A deal's first-layer sum is ``bias`` plus, for each other role ``r`` and suit ``s``,
        ``low[r, s, a]`` (``a`` the bit mask of the ranks 2 to 8 it holds in the suit: those
        cards' shares of the one-hot, length and points inputs), ``high[r, s, b]`` (``b`` the
        mask of the ranks 9 to ace: those cards' shares and the honours indicator) and
        ``shape[r, s, k]`` (the length indicator of its ``k`` cards); then for each suit
        ``top[s, t]`` and ``split[s, u]``, the joint indicators' rows (:func:`encode_parts`;
        empty for a predictor fitted without them); the player's own cards (``hand``, 13 card
        codes), lengths, honours and the seating are in ``bias``.
        """
        w1 = self.w1.astype(np.float64)
        hidden = w1.shape[1]
        position = np.empty(4, np.int64)
        for i, s in enumerate(suit_order(hand, trump)):
            position[s] = i
        # a card's row by role: its shares of the one-hot, length and points inputs
        card = np.arange(52)[:, None]
        role = np.arange(4)[None, :]
        sp, ranks = position[card // 13], card % 13
        hcp = _HCP[ranks][..., None]
        table = w1[_ONEHOT + sp * 52 + ranks * 4 + role] + 0.25 * w1[_LENGTH + role * 4 + sp]
        table += hcp / 4.0 * w1[_POINTS + role * 4 + sp] + hcp / 10.0 * w1[_TOTAL + role]
        # the length and honours indicators' rows by role, suit (in card order) and length or
        # honours held
        shape = w1[_SHAPE:_HONOURS].reshape(4, 4, 14, -1)[:, position]
        honours = w1[_HONOURS:N_BASE].reshape(4, 4, 16, -1)[:, position]
        # the joint indicators' rows by suit (in card order); none for a predictor without them
        top = np.zeros((4, 0, hidden))
        split = top
        if w1.shape[0] == N_INPUTS:
            top = w1[_TOP:_SPLIT].reshape(4, N_TOP, hidden)[position]
            split = w1[_SPLIT:].reshape(4, N_SPLIT, hidden)[position]
        # a suit's cards by rank: the rows of every holding of the low and of the high ranks
        cards = table.reshape(4, 13, 4 * hidden).transpose(1, 0, 2)  # rank, suit, role x hidden
        low_bits = (np.arange(1 << LOW_RANKS)[:, None] >> np.arange(LOW_RANKS)) & 1
        high_ranks = 13 - LOW_RANKS
        high_bits = (np.arange(1 << high_ranks)[:, None] >> np.arange(high_ranks)) & 1

        def holdings(bits: np.ndarray, ranks: np.ndarray) -> np.ndarray:
            rows: np.ndarray = bits.astype(np.float64) @ ranks.reshape(ranks.shape[0], -1)
            return rows.reshape(-1, 4, 4, hidden).transpose(2, 1, 0, 3)  # role, suit, holding

        low = holdings(low_bits, cards[:LOW_RANKS])
        high = holdings(high_bits, cards[LOW_RANKS:])
        held = np.zeros(high_bits.shape[0], np.int64)
        for bit, rank in enumerate(_HONOUR_RANKS):
            held |= high_bits[:, rank - LOW_RANKS] << bit
        high += honours[:, :, held]
        # the player's cards, lengths and honours, and the seating
        codes = np.asarray(hand, dtype=np.int64)
        suits, ranks_held = codes // 13, codes % 13
        is_low = ranks_held < LOW_RANKS
        mine_low = np.bincount(suits, np.where(is_low, 1 << ranks_held, 0), 4).astype(np.int64)
        mine_high = np.bincount(
            suits, np.where(is_low, 0, 1 << (ranks_held - LOW_RANKS)), 4
        ).astype(np.int64)
        each = np.arange(4)
        bias = self.b1.astype(np.float64) + w1[_PARTNER + (partner - seat) % 4 - 1]
        bias += w1[_ELDEST + (0 - seat) % 4]
        bias += low[0, each, mine_low].sum(axis=0) + high[0, each, mine_high].sum(axis=0)
        bias += shape[0, each, np.bincount(suits, minlength=4)].sum(axis=0)
        f32 = np.float32
        return Folded(
            roles(seat, partner),
            np.ascontiguousarray(low, dtype=f32),
            np.ascontiguousarray(high, dtype=f32),
            np.ascontiguousarray(shape, dtype=f32),
            np.ascontiguousarray(top, dtype=f32),
            np.ascontiguousarray(split, dtype=f32),
            bias.astype(f32),
            self.w2[:, 0].astype(f32),
            float(self.b2[0]),
        )

    def predict(self, deals: np.ndarray, seat: int, trump: int, partner: int) -> np.ndarray:
        """The chance that the row makes (Prop and Cop with ``partner``, or Solo), on each deal.

        ``deals`` as for :func:`encode`; compiled, the first layer folded (:meth:`fold`).
        Returns ``float64[n]``.
        """
        d = np.ascontiguousarray(deals, dtype=np.int8)
        if not d.shape[0]:
            return np.empty(0)
        return self.fold(d[0, seat], seat, trump, partner)(d)


@dataclass(frozen=True)
class Folded:
    """A predictor for one hand, seat, trump suit and partner (:meth:`Predictor.fold`)."""

    role: np.ndarray
    low: np.ndarray
    high: np.ndarray
    shape: np.ndarray
    top: np.ndarray
    split: np.ndarray
    bias: np.ndarray
    w2: np.ndarray
    b2: float

    def __call__(self, deals: np.ndarray) -> np.ndarray:
        """The predictions on ``deals`` (card codes ``(n, 4, 13)``, the hand's), ``float64[n]``."""
        d = np.ascontiguousarray(deals, dtype=np.int8)
        out = np.empty(d.shape[0])
        if d.shape[0]:
            predict_into(
                d,
                self.role,
                self.low,
                self.high,
                self.shape,
                self.top,
                self.split,
                self.bias,
                self.w2,
                self.b2,
                out,
            )
        return out


@functools.cache
def default_predictor(kind: str) -> Predictor:
    """The predictor of ``kind`` (a key of :data:`PREDICTORS`) shipped with the package.

    Loaded once a process.
    """
    name = PREDICTORS[kind][0]
    with resources.as_file(resources.files(__package__) / name) as path:
        return Predictor.load(str(path))
