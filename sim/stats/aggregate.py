"""Integer aggregates of a run, merged chunk by chunk so ten million games run in bounded memory.

Everything here is an integer count or sum (int64); floats appear only when `sim.stats.summary` divides. Two runs of the
same (seed, scenario, games) therefore give identical aggregates whatever the threads or chunk size.
"""

from __future__ import annotations

import numpy as np

from sim.stats import arc, arc_tips

WIN_UNITS = 60  # a win shared by k players gives each 60 / k units: exact for k = 1..6


def _add_hist(acc: np.ndarray | None, values: np.ndarray) -> np.ndarray:
    """Add the counts of non-negative int ``values`` to a growing histogram ``acc`` (index = value)."""
    h = np.bincount(values.astype(np.int64, copy=False), minlength=1).astype(np.int64)
    if acc is None:
        return h
    if len(h) > len(acc):
        h[: len(acc)] += acc
        return h
    acc[: len(h)] += h
    return acc


PER_GAME = ("arc_paths",)  # per-game rows, not counts: left out of to_dict (summary.json, the exact checks)


class Aggregates:
    """Counts for one scenario run. ``players`` seats; ``extra_columns``/``n_curves``/``curve_len`` from the GameSpec.

    Fields (all int64): games, finished, truncated, errors; win_units[seat] (ties split, WIN_UNITS per game),
    sole_wins[seat], shared_wins[seat], pos_win_units[position] (position 0 = start player), shared_games;
    score_sum/score_sq[seat], score_hist[seat, score - score_lo]; turns_hist, rounds_hist (index = value);
    ahead[i, j] in half-games (2 when seat i outscored seat j, 1 on equal scores); extra_sum[col], extra_hist[col];
    curve_sum[c, r], curve_sq[c, r] (sum of squares, for the curves' interval bands), curve_games[c, r] (games still
    running after round r); the game's arc counts arc_* (`sim.stats.arc.new_fields`; empty when ``arc_len`` is 0).
    Scores, lengths and extras count finished games only; truncated games are counted, never scored.
    """

    def __init__(
        self,
        players: int,
        score_range: tuple[int, int],
        extra_columns: tuple[str, ...],
        n_curves: int = 0,
        curve_len: int = 0,
        arc_len: int = 0,
        arc_paths: bool = False,
    ):
        n = players
        self.players = n
        self.score_lo, self.score_hi = score_range
        self.extra_columns = tuple(extra_columns)
        self.games = 0
        self.finished = 0
        self.truncated = 0
        self.errors = 0
        self.shared_games = 0
        self.win_units = np.zeros(n, np.int64)
        self.sole_wins = np.zeros(n, np.int64)
        self.shared_wins = np.zeros(n, np.int64)
        self.pos_win_units = np.zeros(n, np.int64)
        self.score_sum = np.zeros(n, np.int64)
        self.score_sq = np.zeros(n, np.int64)
        self.score_hist = np.zeros((n, self.score_hi - self.score_lo + 1), np.int64)
        self.turns_hist = np.zeros(1, np.int64)
        self.rounds_hist = np.zeros(1, np.int64)
        self.ahead = np.zeros((n, n), np.int64)
        self.extra_sum = np.zeros(len(extra_columns), np.int64)
        self.extra_hist: list[np.ndarray] = [np.zeros(1, np.int64) for _ in extra_columns]
        self.curve_sum = np.zeros((n_curves, curve_len), np.int64)
        self.curve_games = np.zeros((n_curves, curve_len), np.int64)
        self.curve_sq = np.zeros((n_curves, curve_len), np.int64)
        a = arc.new_fields(n, arc_len, score_range)  # the game's arc (sim.stats.arc)
        self.arc_hist, self.arc_lead, self.arc_changes = a["arc_hist"], a["arc_lead"], a["arc_changes"]
        self.arc_half, self.arc_comeback = a["arc_half"], a["arc_comeback"]
        self.arc_clear, self.arc_share = a["arc_clear"], a["arc_share"]
        # a team game's fan-chart games one row each (`sim.stats.arc_tips`: when the house tips); never in to_dict
        self.arc_paths = arc_tips.new_paths(arc.FAN_GAMES if arc_paths and arc_len else 0, arc_len)

    def add(self, game0: int, scores, winners, turns, rounds, status, extra, curves) -> None:
        """Fold one chunk of kernel outputs (games game0 .. game0 + len(status) - 1) into the counts."""
        n = self.players
        k = len(status)
        self.games += k
        fin = status == 0
        self.truncated += int(np.count_nonzero(status == 1))
        self.errors += int(np.count_nonzero(status >= 2))
        self.finished += int(np.count_nonzero(fin))
        sc = scores[fin].astype(np.int64)
        w = winners[fin].astype(np.int64)
        bits = ((w[:, None] >> np.arange(n)[None, :]) & 1).astype(np.int64)  # [games, seats]
        nwin = bits.sum(axis=1)
        units = np.where(nwin > 0, WIN_UNITS // np.maximum(nwin, 1), 0)
        self.win_units += (bits * units[:, None]).sum(axis=0)
        self.sole_wins += (bits * (nwin == 1)[:, None]).sum(axis=0)
        self.shared_wins += (bits * (nwin > 1)[:, None]).sum(axis=0)
        self.shared_games += int(np.count_nonzero(nwin > 1))
        if "first_seat" in self.extra_columns:  # the kernel says who started (e.g. Head Haunter mode)
            first = extra[fin, self.extra_columns.index("first_seat")].astype(np.int64)
        else:  # the contract's default rotation
            first = (game0 + np.arange(k, dtype=np.int64))[fin] % n
        for q in range(n):  # turn position q sits in seat (first + q) % n
            seat = (first + q) % n
            self.pos_win_units[q] += int((bits[np.arange(len(seat)), seat] * units).sum())
        self.score_sum += sc.sum(axis=0)
        self.score_sq += (sc * sc).sum(axis=0)
        clipped = np.clip(sc, self.score_lo, self.score_hi) - self.score_lo
        for s in range(n):
            self.score_hist[s] += np.bincount(clipped[:, s], minlength=self.score_hist.shape[1])
        self.turns_hist = _add_hist(self.turns_hist, turns[fin])
        self.rounds_hist = _add_hist(self.rounds_hist, rounds[fin])
        self.ahead += 2 * (sc[:, :, None] > sc[:, None, :]).sum(axis=0) + (sc[:, :, None] == sc[:, None, :]).sum(axis=0)
        np.fill_diagonal(self.ahead, 0)
        ex = extra[fin].astype(np.int64)
        self.extra_sum += ex.sum(axis=0)
        for c in range(len(self.extra_columns)):
            self.extra_hist[c] = _add_hist(self.extra_hist[c], np.maximum(ex[:, c], 0))
        nc, cl = self.curve_sum.shape
        if self.curve_sum.size:
            cv = curves[fin, :nc, :cl].astype(np.int64)
            alive = cv >= 0
            self.curve_sum += np.where(alive, cv, 0).sum(axis=0)
            self.curve_sq += np.where(alive, cv * cv, 0).sum(axis=0)
            self.curve_games += alive.sum(axis=0)

    def add_arc(self, rows, status, rounds, winners, fan_rows=None, game0: int = 0) -> None:
        """Fold one chunk's arc record (its first game ``game0``) into the arc counts: ``rows`` every game's
        standings and figures (int32[games, rows, rounds], its last two rows; kernels/arc.py), ``fan_rows`` the full
        records of its first games of the fan chart (`sim.stats.arc.add`; None: none), also into a team game's path
        rows (`sim.stats.arc_tips.fold`)."""
        arc.add(self, rows, status == 0, rounds, winners, fan_rows)
        if self.arc_paths.size and fan_rows is not None and len(fan_rows):
            arc_tips.fold(self.arc_paths, game0, fan_rows, status == 0, rounds, winners, self.score_lo, self.score_hi)

    def to_dict(self) -> dict:
        """Plain-int dict of every count (the machine contract for exact regression checks)."""
        d = {}
        for k, v in self.__dict__.items():
            if k in PER_GAME:
                continue
            if isinstance(v, np.ndarray):
                d[k] = v.tolist()
            elif isinstance(v, list):
                d[k] = [x.tolist() for x in v]
            elif isinstance(v, tuple):
                d[k] = list(v)
            else:
                d[k] = v
        return d
