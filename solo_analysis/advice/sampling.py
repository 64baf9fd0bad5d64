"""Solving the contract options on sampled deals, in batches, until the estimates are sharp enough.

Every contract is solved on the first deals of the stream; after each batch the rows whose
intervals reached the tolerance stop (each fixed row on its own, or each contract as a whole
when the run stops on the rows the bid reads, :func:`still_open`), and the others go on to the
next deals of the same stream, so all rows share their first deals and paired comparisons stay
paired. A run stops at the tolerance, at ``max_samples`` deals, at a cap on the search's work
(``max_positions``: each batch is cut to what the previous batch's positions per deal say fits,
and the run stops when fewer than :data:`MIN_CUT_BATCH` deals do) or at a time limit
(``max_seconds``). Under a positions cap a batch is solved in chunks of :data:`CUT_SHARE` of
the deals its pace says fit in what is left (at least :data:`MIN_CUT_BATCH`), and stops when
that pace says the next :data:`MIN_CUT_BATCH` would not fit; under a time limit,
:data:`PROGRESS_CHUNK` at a time, stopping once the time is up. A batch whose deals are much
harder than the last one's (or the first batch, whose first chunk has no pace to go by)
overruns a cap by at most one chunk. Positions are counted by the search itself (a question
given up on counts what it spent), so a capped run repeats from its seed on any machine; a
timed one does not.

However large a batch, its deals are drawn and solved :data:`SOLVE_CHUNK` at a time (or
:data:`PROGRESS_CHUNK` with a ``progress`` callback): the memory of a batch stays bounded, and
the results are those of one piece, since every deal's answers depend on that deal alone.  An
interrupt (``KeyboardInterrupt``) drops the chunk it stopped and leaves the rows as they were
after the chunks before it, so that :attr:`Sampling.solved` deals make a consistent partial
advice.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass

import numpy as np

from ..play.questions import Row, solve_rows
from ..sampler import DealSampler
from ..stats.control import CV_AUX_DEALS, N_FEATURES, Controls, deal_features, rate_bounds
from ..stats.predictor import PREDICTORS, Folded, default_predictor, solo_partner
from .request import Request

__all__ = [
    "CUT_SHARE",
    "FIRST_BATCH",
    "MIN_CUT_BATCH",
    "MIN_STEP",
    "PROGRESS_CHUNK",
    "SOLVE_CHUNK",
    "WIDEN_SHARE",
    "Outcome",
    "Sampling",
    "all_results",
    "bid_rows",
    "predictor_keys",
    "row_results",
    "still_open",
]

#: size of the first batch of an adaptive run; later batches aim at the tolerance, take at
#: least :data:`MIN_STEP` more deals and at most double the total so far
FIRST_BATCH: int = 64
#: the smallest later batch of an adaptive run
MIN_STEP: int = 32
#: a row whose unresolved deals widen its reported half-width by at most this share of the
#: tolerance samples on until the reported interval fits (its sampling half-width at the
#: tolerance less the widening: at most four times the deals at 0.5); a wider widening stops
#: it on the sampling half-width alone, and the advice says it did not converge
WIDEN_SHARE: float = 0.5
#: the smallest batch a run capped by ``max_positions`` goes on to (fewer fit: it stops)
MIN_CUT_BATCH: int = 16
#: under a positions cap, a batch's later chunks take at most this share of what the batch's
#: pace says fits in what is left of the cap (so that a chunk overruns the cap only if its
#: deals cost 1 / CUT_SHARE times the pace so far)
CUT_SHARE: float = 0.25
#: with a ``progress`` callback, deals are solved in chunks of this many (results unchanged;
#: the threads wait for a chunk's slowest question, so smaller chunks cost time)
PROGRESS_CHUNK: int = 32
#: the most deals drawn and solved at a time without a callback (results unchanged): a batch's
#: deals (52 bytes each) and solver tasks (about 50 bytes a question) stay a few MB
SOLVE_CHUNK: int = 1024
#: the clock of ``max_seconds`` (a module attribute so that tests can replace it)
_clock: Callable[[], float] = time.perf_counter


def row_results(rows: list[Row], i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(made as float 0..1, payoff per deal, tricks or -1) of row ``i`` over all deals so far.

    ``made`` and ``payoff`` are NaN on the deals the play model gave up on.
    """
    row = rows[i]
    made = np.concatenate(row.made).astype(float) if row.made else np.zeros(0)
    tricks = np.concatenate(row.tricks) if row.tricks else np.zeros(0, dtype=np.int8)
    unknown = np.isnan(made)
    if row.binary and np.any((tricks < 0) & ~unknown):
        success = row.values[row.contract.is_made(np.arange(14))][0]
        failure = row.values[~row.contract.is_made(np.arange(14))][0]
        payoff = np.where(made > 0, success, failure)
    else:
        payoff = row.values[np.maximum(tricks, 0).astype(np.int64)]
    payoff = np.where(unknown, np.nan, payoff)
    return made, payoff, tricks


def _nanmean(x: np.ndarray) -> float:
    """Mean over the non-NaN entries (NaN if there are none)."""
    x = x[~np.isnan(x)]
    return float(x.mean()) if x.size else math.nan


Results = tuple[np.ndarray, np.ndarray, np.ndarray]


def all_results(rows: list[Row]) -> tuple[dict[int, Results], dict[int, int]]:
    """Every row's :func:`row_results`, the derived rows' included, and each ``best`` row's choice.

    A ``best`` row (the declarer's choice of trumps) is its source row of the highest expected
    units (then make rate, then the first), chosen on the means so far; an ``any`` row (Prop
    and Cop, whoever accepts) averages its partners' rows deal by deal (``made`` is then the
    share of the partners with whom the contract makes; NaN where one of them was given up
    on) over the first deals, those every partner was solved on, and counts no tricks.
    Returns the arrays by row index and, for each ``best`` row, the index of the source row it
    took.
    """
    arrays: dict[int, Results] = {}
    for i, row in enumerate(rows):
        if row.choice == "fixed":
            arrays[i] = row_results(rows, i)
    chosen: dict[int, int] = {}
    for i, row in enumerate(rows):
        if row.choice == "best":
            evs = [_nanmean(arrays[j][1]) for j in row.sources]
            rates = [_nanmean(arrays[j][0]) for j in row.sources]
            k = max(range(len(evs)), key=lambda m: (evs[m], rates[m], -m))
            chosen[i] = row.sources[k]
            arrays[i] = arrays[row.sources[k]]
        elif row.choice == "any":
            parts = [arrays[j] for j in row.sources]
            n = min(a[0].size for a in parts)  # the deals every partner was solved on
            made = np.mean([a[0][:n] for a in parts], axis=0)
            payoff = np.mean([a[1][:n] for a in parts], axis=0)
            arrays[i] = (made, payoff, np.full(made.shape, -1, dtype=np.int8))
    return arrays, chosen


def bid_rows(rows: list[Row]) -> list[int]:
    """The rows a recommendation reads: each contract's derived row, or its only row."""
    derived = {row.contract.name for row in rows if row.choice != "fixed"}
    return [
        i for i, row in enumerate(rows) if row.choice != "fixed" or row.contract.name not in derived
    ]


#: a predictor column: (kind, trump, partner), the kind a key of
#: :data:`~solo_analysis.stats.predictor.PREDICTORS`
Column = tuple[str, int, int]


def predictor_keys(rows: list[Row], i: int) -> tuple[Column, ...]:
    """The predictor columns that correct row ``i``'s estimates.

    A fixed Prop and Cop or Solo row in a trump suit has its own; Prop and Cop's ``any`` row
    the columns of its partners' rows (their average predicts the share of partners with whom
    it makes); any other row none (the features alone,
    :meth:`~solo_analysis.stats.control.Controls.view`).
    """
    row = rows[i]
    if row.choice == "fixed":
        c = row.contract
        if c.misere or not 0 <= row.trump < 4:
            return ()
        if c.partnership and row.partner is not None:
            return (("prop", row.trump, row.partner),)
        if c.name == "solo" and len(row.declarers) == 1:
            return (("solo", row.trump, solo_partner(row.declarers[0])),)
        return ()
    if row.choice == "any":
        keys = [predictor_keys(rows, j) for j in row.sources]
        if all(keys):
            return tuple(k for part in keys for k in part)
    return ()


def _halfwidths(
    made: np.ndarray, controls: Controls | None, keys: tuple[Column, ...] = ()
) -> tuple[float, float]:
    """Half-widths of the ``p_make`` interval of a row whose per-deal results are ``made``.

    ``keys`` are the row's predictor columns (:func:`predictor_keys`).  Returns the half-width
    as reported (unresolved deals included) and the one from sampling alone.
    """
    x, use = (None, None) if controls is None else controls.view(keys, made.size)
    _, lo, hi, _, sampling = rate_bounds(made, x, use)
    return (hi - lo) / 2, sampling


def still_open(
    rows: list[Row], tolerance: float, controls: Controls | None, stop_on: str = "rows"
) -> tuple[list[Row], float, bool]:
    """The rows to solve on the next deals: those some watched row keeps wider than ``tolerance``.

    The watched rows are every fixed row (``stop_on="rows"``: each Prop and Cop partner, each
    trump suit) or the rows the recommendation reads (``"bid"``, :func:`bid_rows`: a
    contract's ``any`` or ``best`` row where it has one, else its only row).  A watched row is
    open while its reported half-width exceeds the tolerance.  Its unresolved deals widen the
    reported interval by about half their share of the deals, which more deals do not shrink:
    where that widening is at most :data:`WIDEN_SHARE` of the tolerance, the row samples on
    until its sampling half-width is the tolerance less the widening, so that the reported
    interval fits; where it is more, fitting would take too many deals (or none would do), and
    the row stops once its sampling half-width is within the tolerance.  Whether the reported
    intervals fit is returned apart, and the advice says so.

    Under ``"rows"`` each fixed row stops on its own interval (a Prop and Cop partner's row,
    a trump suit's row, once it is narrow enough), so each row's stopping rule depends on its
    own results alone; a derived row is estimated over the first deals, those all its source
    rows were solved on (:func:`all_results`).  Under ``"bid"`` a contract stops as a whole,
    since its watched ``any`` or ``best`` row needs its fixed rows on the same deals.  Also
    returns the narrowest sampling half-width among the open units (rows, or contracts under
    ``"bid"``, a contract's the widest of its watched rows; 0 when none is left), scaled to
    the tolerance (a row aiming below it for its widening counts as that much wider, so
    :func:`_next_total` aims at its own goal), and whether every watched row's reported
    interval (widening included) is within the tolerance.
    """
    if stop_on == "bid":
        arrays, _ = all_results(rows)
        watched = {i: arrays[i][0] for i in bid_rows(rows)}
    else:
        watched = {
            i: row_results(rows, i)[0] for i, row in enumerate(rows) if row.choice == "fixed"
        }

    def unit(i: int) -> Hashable:  # what stops as one: a contract, or a row
        return rows[i].contract.name if stop_on == "bid" else i

    wide: dict[Hashable, float] = {}
    within = True
    for i, made in watched.items():
        reported, sampling = _halfwidths(made, controls, predictor_keys(rows, i))
        within = within and reported <= tolerance
        widening = max(reported - sampling, 0.0)
        aim = tolerance - widening if widening <= WIDEN_SHARE * tolerance else tolerance
        if sampling > aim:
            wide[unit(i)] = max(sampling * tolerance / aim, wide.get(unit(i), 0.0))
    open_rows = [row for i, row in enumerate(rows) if unit(i) in wide]
    return open_rows, min(wide.values(), default=0.0), within


def _next_total(total: int, halfwidth: float, tolerance: float, max_samples: int) -> int:
    """Deals to have solved after the next batch of an adaptive run.

    A half-width shrinks as one over the square root of the deals: aim at the count that
    brings ``halfwidth``, the narrowest open interval, to the tolerance (if it falls short,
    the next batch is small), at least :data:`MIN_STEP` more deals and at most twice as
    many as now.  Aiming at the narrowest stops each row soon after it gets there; the wider
    rows take more batches, each aimed anew.
    """
    aim = math.ceil(total * (halfwidth / tolerance) ** 2)
    return min(max(aim, total + MIN_STEP), 2 * total, max_samples)


def _affordable(total: int, goal: int, batch_deals: int, batch_cost: float, left: float) -> int:
    """The next total of an adaptive run cut to the work left (``total`` if none is affordable).

    The last batch's cost per deal (seconds or positions) predicts the next one's (an
    over-estimate, since fewer contracts stay open), so the next batch is cut to the deals that
    fit in ``left``.
    """
    if left <= 0:
        return total
    per_deal = batch_cost / max(batch_deals, 1)
    if per_deal <= 0:
        return goal
    return min(goal, total + int(left / per_deal))


def _aux_seed(seed: int) -> int:
    """Seed of the stream that estimates the feature means (a fixed mix of the main seed)."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % 2**64


@dataclass
class Outcome:
    """How a run ended: deals used, whether every interval fits, why it stopped, unsolved deals."""

    total: int
    converged: bool
    stopped: str
    unresolved: int


class Sampling:
    """One advice's deals and the solving of its rows on them.

    Parameters
    ----------
    request : Request
        What was asked.
    rows : list of Row
        The contract options; their results are appended as the deals are solved.
    progress : callable, optional
        ``progress(deals_done, deals_planned)``, called after every :data:`PROGRESS_CHUNK` deals.
    """

    def __init__(
        self,
        request: Request,
        rows: list[Row],
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.request = request
        self.rows = rows
        self.progress = progress
        self.sampler = DealSampler(
            request.hand,
            seat=request.seat,
            turnup=request.turnup,
            seed=request.seed,
            constraints=request.constraints,
        )
        #: the predictor columns the rows use (:func:`predictor_keys`), computed on every deal
        self.predicted = sorted({k for i in range(len(rows)) for k in predictor_keys(rows, i)})
        self._folded: dict[Hashable, Folded] = {}
        self.controls: Controls | None = None
        if request.control_variates:
            self.controls = Controls(
                x=np.zeros((0, N_FEATURES)),
                mean=np.zeros(N_FEATURES),
                cov=np.eye(N_FEATURES),
                n_aux=0,
            )
            if self._as_fitted():
                self.controls.alone_below = {k: PREDICTORS[k[0]][2] for k in self.predicted}
        self.unresolved = 0
        #: the cap that stopped the last batch before its end (see :meth:`solve`)
        self.cut_by: str | None = None
        #: deals drawn and solved so far, for the rows still open when the last chunk was
        self.solved = 0
        self.model = request.model
        self._positions0 = self.model.positions or 0
        if request.samples is not None:
            self.planned = request.samples
        else:
            self.planned = request.stopping.max_samples

    @property
    def counts_positions(self) -> bool:
        """Whether the play model counts its search positions (only then can a cap apply)."""
        return self.model.positions is not None

    def spent(self) -> int:
        """Positions the model has searched for this advice so far."""
        return (self.model.positions or 0) - self._positions0

    def _estimate_means(self, controls: Controls) -> None:
        """The features' means under the same sampling distribution, from a separate stream.

        With rare constraints the stream is smaller (its error is part of every standard error).
        """
        req = self.request
        rate = self.sampler.acceptance_rate if self.sampler.filtering else None
        size = (
            CV_AUX_DEALS
            if rate is None
            else min(CV_AUX_DEALS, max(2048, round(CV_AUX_DEALS * 20 * rate)))
        )
        aux = DealSampler(
            req.hand,
            seat=req.seat,
            turnup=req.turnup,
            seed=_aux_seed(req.seed),
            constraints=req.constraints,
        )
        deals = aux.draw(size)
        controls.pred_aux = self._predict(deals)
        controls.views.clear()
        xa = deal_features(deals, req.seat, req.turnup_suit)
        controls.mean, controls.cov, controls.n_aux = (
            xa.mean(axis=0),
            np.cov(xa, rowvar=False),
            size,
        )
        sd = np.sqrt(np.diag(controls.cov))
        controls.scale = np.where(sd > 0, sd, 1.0)
        # standardised in place: the stream's features are not needed again
        xa -= controls.mean
        xa /= controls.scale
        controls.za = xa.astype(np.float32)

    def _as_fitted(self) -> bool:
        """Whether the predictor's rows ask what it was fitted on (alone on few deals if so).

        Each was fitted on double-dummy play and its contract's usual target.
        """
        if self.request.model.name != "double-dummy":
            return False
        for i, row in enumerate(self.rows):
            keys = predictor_keys(self.rows, i) if row.choice == "fixed" else ()
            if keys and row.contract.target != PREDICTORS[keys[0][0]][1]:
                return False
        return True

    def _predict(self, deals: np.ndarray) -> dict[Hashable, np.ndarray]:
        """The predictor's columns on ``deals``, by key (:attr:`predicted`)."""
        if not self.predicted:
            return {}
        if not self._folded:
            hand = np.asarray(self.request.hand.to_array(), dtype=np.int64)
            for kind, t, p in self.predicted:
                fold = default_predictor(kind).fold(hand, self.request.seat, t, p)
                self._folded[(kind, t, p)] = fold
        return {key: fold(deals) for key, fold in self._folded.items()}

    def solve(
        self,
        active: list[Row],
        n: int,
        done: int,
        positions_cap: int | None = None,
        deadline: float | None = None,
    ) -> int:
        """Draw the next ``n`` deals and solve the ``active`` rows on them, chunk by chunk.

        ``done`` deals came before them.  Chunks of :data:`SOLVE_CHUNK` deals; of
        :data:`PROGRESS_CHUNK` with a ``progress`` callback (called after each) or a
        ``deadline``; under a ``positions_cap``, sized by :meth:`_cut_chunk` (at least
        :data:`MIN_CUT_BATCH`).  The batch stops after a chunk once the clock is past
        ``deadline``, or once the batch's pace so far says the next :data:`MIN_CUT_BATCH`
        deals would not fit in what is left of ``positions_cap``.  Returns the deals solved
        (``n`` unless a cap stopped the batch).
        """
        step = PROGRESS_CHUNK if self.progress is not None or deadline is not None else SOLVE_CHUNK
        begin = self.spent()
        solved = 0
        self.cut_by = None
        while solved < n:
            if positions_cap is not None:
                size = self._cut_chunk(positions_cap, begin, solved, done)
            else:
                size = step
            deals = self.sampler.draw(min(size, n - solved))
            self._solve_chunk(active, deals)
            solved += deals.shape[0]
            self.solved = done + solved
            if self.progress is not None:
                self.progress(self.solved, self.planned)
            if solved >= n:
                break
            if deadline is not None and _clock() >= deadline:
                self.cut_by = "max_seconds"
                break
            if positions_cap is not None:
                left = positions_cap - self.spent()
                per_deal = (self.spent() - begin) / solved
                if left <= 0 or per_deal * min(MIN_CUT_BATCH, n - solved) > left:
                    self.cut_by = "max_positions"
                    break
        return solved

    def _cut_chunk(self, positions_cap: int, begin: int, solved: int, done: int) -> int:
        """Deals in the next chunk of a batch under a positions cap.

        ``solved`` deals of the batch are done, ``done`` before it.  The chunk is
        :data:`CUT_SHARE` of the deals that fit in what is left of the cap at the batch's
        positions per deal so far (for its first chunk, the run's: an over-estimate, since
        fewer contracts stay open in later batches), at least :data:`MIN_CUT_BATCH` (the
        first batch's first chunk, with no pace to go by) and at most :data:`SOLVE_CHUNK`
        (a quarter of it with a ``progress`` callback).  The workers wait for each chunk's
        slowest question, so the chunks are large where the cap is far and small near it.
        """
        spent = self.spent()
        if solved:
            per_deal = (spent - begin) / solved
        elif done:
            per_deal = spent / done
        else:
            return MIN_CUT_BATCH
        most = SOLVE_CHUNK if self.progress is None else 4 * PROGRESS_CHUNK
        if per_deal <= 0:
            return most
        return max(MIN_CUT_BATCH, min(most, int(CUT_SHARE * (positions_cap - spent) / per_deal)))

    def _solve_chunk(self, active: list[Row], deals: np.ndarray) -> None:
        """Solve the ``active`` rows on ``deals``; on any exception, leave no trace of them."""
        req = self.request
        kept = [(row, len(row.made), len(row.tricks)) for row in self.rows]
        controls = self.controls
        x_rows = 0 if controls is None else controls.x.shape[0]
        means = controls is not None and controls.n_aux > 0
        positions = self.model.positions
        try:
            if controls is not None:
                features = deal_features(deals, req.seat, req.turnup_suit)
                controls.x = np.concatenate([controls.x, features])
                for key, g in self._predict(deals).items():
                    controls.pred[key] = np.concatenate([controls.pred.get(key, g[:0]), g])
                if controls.n_aux == 0:
                    self._estimate_means(controls)
            turnups = np.full(deals.shape[0], -1 if req.turnup is None else req.turnup)
            given_up = solve_rows(active, deals, self.model, req.exact, turnups)
            self.unresolved += int(given_up.sum())
        except BaseException:
            # an interrupt inside solve_rows may leave some rows with this chunk's results
            for row, made, tricks in kept:
                del row.made[made:]
                del row.tricks[tricks:]
            if controls is not None:
                controls.x = controls.x[:x_rows]
                for column, g in controls.pred.items():
                    controls.pred[column] = g[:x_rows]
                if not means:
                    controls.n_aux = 0
            self.model.positions = positions
            raise

    def run(self) -> Outcome:
        """Solve every row on ``samples`` deals, or adaptively (see the module docstring)."""
        if self.progress is not None:
            self.progress(0, self.planned)
        samples = self.request.samples
        if samples is not None:
            self.solve(self.rows, samples, 0)
            return Outcome(samples, True, "samples", self.unresolved)
        return self._adaptive()

    def _adaptive(self) -> Outcome:
        stop = self.request.stopping
        positions_cap = stop.max_positions if self.counts_positions else None
        total = 0
        converged = False
        stopped = "max_samples"
        active = self.rows
        goal = min(FIRST_BATCH, stop.max_samples)
        start = _clock()
        cut = False  # this batch was cut to the time left: the last one
        deadline = None if stop.max_seconds is None else start + stop.max_seconds
        while total < stop.max_samples:
            before, before_positions = _clock(), self.spent()
            batch = self.solve(active, goal - total, total, positions_cap, deadline)
            batch_seconds = _clock() - before
            batch_positions = self.spent() - before_positions
            short = batch < goal - total  # a cap stopped the batch after one of its chunks
            total += batch
            active, nearest, converged = still_open(
                self.rows, stop.tolerance, self.controls, stop.stop_on
            )
            if not active:
                stopped = "tolerance"
                break
            if short:
                stopped = self.cut_by or "max_positions"
                break
            if cut:
                stopped = "max_seconds"
                break
            goal = _next_total(total, nearest, stop.tolerance, stop.max_samples)
            if positions_cap is not None:
                # each batch is cut to the deals the last one's positions per deal say fit, and
                # the run goes on while a batch of MIN_CUT_BATCH deals does
                fits = _affordable(
                    total, goal, batch, batch_positions, positions_cap - self.spent()
                )
                if fits < min(goal, total + MIN_CUT_BATCH):
                    stopped = "max_positions"
                    break
                goal = fits
            if stop.max_seconds is not None:
                # only the last batch is cut, so the same seed with max_samples = the final
                # total repeats the run (that cap leaves every earlier batch as it was)
                left = stop.max_seconds - (_clock() - start)
                timed = _affordable(total, goal, batch, batch_seconds, left)
                if timed <= total:
                    stopped = "max_seconds"
                    break
                cut = timed < goal
                goal = timed
        return Outcome(total, converged, stopped, self.unresolved)
