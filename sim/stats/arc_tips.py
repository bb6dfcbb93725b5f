"""When does the house tip? A team game's sides' chances by round without rollouts (issue 39): every default report
of a team game (Treasure Hunters) says when the game tips, from the run's own games.

A side's chance after round r is estimated as the share of the run's *other* games that were in the same place
after round r (the same round and every seat's same score so far: the hunters' jewels in the wagon, the Head
Haunter's hauntings) and that this side went on to win: the win probability an observer has who sees the scores
only (a coarser view than the rollouts of `sim arc --sample`, which see the whole public state; it needs no game
played beyond the run's). Honest by construction: cross-fitted, so no game's chance is estimated from its own
result (the fan chart's games, index below `sim.stats.arc.FAN_GAMES`, in two halves by the parity of their index:
each half's chances come from the other half's counts). A place the other half never reached, or reached in few
games, leans on that round's share over all places (PRIOR_GAMES pseudo-games of it).

*Tips at*: the round after which the winning side's chance stays above 50% to the end (`sim.stats.arc._for_good`,
the rollout timelines' definition); its median over the games with a distribution-free 95% interval, and the same
for the games each side won (in the basic game: when the house tips, and when the hunters do).
"""

from __future__ import annotations

from typing import Any

import numpy as np

PRIOR_GAMES = 4  # pseudo-games of the round's overall share behind a place's own count (a rare place leans on it)
MIN_GAMES = 100  # fewer finished fan-chart games: no figure (its interval would say little)
COLUMNS = 2  # a path row: 1 + winners bitmask (0: no finished game here), the game's rounds, then a code per round


def team_groups(spec: Any, params: dict, players: int) -> dict[str, list[int]] | None:
    """A team game's sides ({label: seats}; one chance per side), None for a competitive one. When one team holds
    every seat, its opponent is the game itself ({spec.nobody_wins: []}: a finished game no seat won, Treasure
    Hunters' house)."""
    if not spec.team_roles:
        return None
    roles = spec.roles(params, players)
    out: dict[str, list[int]] = {}
    for s, r in enumerate(roles):
        out.setdefault(f"the {spec.role_title(r)} team" if r in spec.team_roles else spec.role_title(r), []).append(s)
    if len(out) == 1:
        out[spec.nobody_wins] = []
    return out


def attach(block: dict | None, paths: np.ndarray, spec: Any, params: dict, players: int) -> None:
    """Put `tips` of a team game's path rows into its summary's ``arc`` block (as ``tips``); nothing for a run
    without the arc, a competitive game, or too few games."""
    sides = team_groups(spec, params, players) if block is not None and paths.size else None
    t = tips(paths, sides) if sides else None
    if block is not None and t is not None:
        block["tips"] = t


def new_paths(games: int, arc_len: int) -> np.ndarray:
    """The zeroed path rows int64[games, COLUMNS + arc_len] of the fan chart's games (see `fold`)."""
    return np.zeros((games, COLUMNS + arc_len), np.int64)


def fold(paths: np.ndarray, game0: int, fan_rows: np.ndarray, fin, rounds, winners, lo: int, hi: int) -> None:
    """Write the path rows of games game0 .. game0 + k - 1 (``fan_rows``: their full arc records, int32[k, players
    + 2, rounds]; ``fin``, ``rounds``, ``winners`` of the chunk from its first game): 1 + winners (0 for a game that
    did not finish), its rounds, and after each round every seat's score so far (clipped into lo..hi) as one code
    (mixed radix, seat 0 lowest). Each game's row is written once, by its own chunk: rows add up across chunks."""
    k = len(fan_rows)
    n = fan_rows.shape[1] - 2
    v = hi - lo + 1
    prog = np.clip(fan_rows[:, :n, :], lo, hi).astype(np.int64) - lo
    code = (prog * (v ** np.arange(n, dtype=np.int64))[None, :, None]).sum(axis=1)
    f = np.asarray(fin[:k], bool)
    rows = paths[game0 : game0 + k]
    rows[:, 0] = np.where(f, 1 + winners[:k].astype(np.int64), 0)
    rows[:, 1] = np.where(f, rounds[:k], 0)
    rows[:, COLUMNS:] = np.where(f[:, None], code[:, : rows.shape[1] - COLUMNS], 0)


def _won(winners: np.ndarray, seats: list[int]) -> np.ndarray:
    """Whether each game was won by the side of ``seats`` (none: a finished game no seat won, the house)."""
    if not seats:
        return winners == 0
    return (winners & sum(1 << s for s in seats)) != 0


def _chances(ids, alive, won, fit, rounds_idx, places: int) -> np.ndarray:
    """The side's chance at every state (float[games, rounds]; read where ``alive``) from the counts of the games of
    mask ``fit`` (the other half): their states of the same place (``ids``: a place's index, 0 .. places - 1) that
    the side won (``won`` per game), with PRIOR_GAMES of the round's overall share among them."""
    length = ids.shape[1]
    sel = alive & fit[:, None]
    w = np.broadcast_to(won[:, None], ids.shape)[sel].astype(float)
    cnt = np.bincount(ids[sel], minlength=places).astype(float)
    wins = np.bincount(ids[sel], weights=w, minlength=places)
    r_all = np.bincount(rounds_idx[sel], minlength=length).astype(float)
    r_won = np.bincount(rounds_idx[sel], weights=w, minlength=length)
    base = np.divide(r_won, r_all, out=np.full(length, 0.5), where=r_all > 0)
    at = np.maximum(ids, 0)
    return (wins[at] + PRIOR_GAMES * base[rounds_idx]) / (cnt[at] + PRIOR_GAMES)


def tips(paths: np.ndarray, sides: dict[str, list[int]]) -> dict | None:
    """The ``arc.tips`` block of a team game's summary from its path rows (`fold`), None with fewer than MIN_GAMES
    finished: ``games``; ``tipped`` (median round, its 95% interval, quartiles, as a share of the game:
    `sim.stats.arc._median_block`) over every game; ``by_side`` {label: the same over the games that side won,
    with its ``games``}; ``prior_games``."""
    from sim.stats.arc import _median_block

    g = np.flatnonzero(paths[:, 0] > 0)
    if len(g) < MIN_GAMES:
        return None
    winners = paths[g, 0] - 1
    rounds = np.maximum(paths[g, 1], 1)
    length = paths.shape[1] - COLUMNS
    r = np.arange(length)
    alive = (r[None, :] + 1) < np.minimum(rounds, length + 1)[:, None]  # after round r + 1 the game went on
    keys = r[None, :] * (int(paths[g, COLUMNS:].max()) + 1) + paths[g, COLUMNS:]
    rounds_idx = np.broadcast_to(r[None, :], keys.shape)
    ids = np.full(keys.shape, -1, np.int64)  # each state's place (round and scores), numbered once for both halves
    places, ids[alive] = np.unique(keys[alive], return_inverse=True)
    odd = (g % 2).astype(bool)
    labels = list(sides)
    won = np.stack([_won(winners, sides[lab]) for lab in labels], axis=1)  # [games, sides]
    pw = np.zeros(keys.shape)  # the winning side's chance (any winner's, were a win shared)
    for i in range(len(labels)):
        ch = np.where(  # each half's chances from the other half's counts
            odd[:, None],
            _chances(ids, alive, won[:, i], ~odd, rounds_idx, len(places)),
            _chances(ids, alive, won[:, i], odd, rounds_idx, len(places)),
        )
        pw = np.where(won[:, i][:, None], np.maximum(pw, ch), pw)
    below = alive & (pw <= 0.5)
    last = np.where(below.any(axis=1), length - 1 - np.argmax(below[:, ::-1], axis=1), -1)
    tipped = np.minimum(last + 2, rounds)
    out: dict = {"games": len(g), "prior_games": PRIOR_GAMES, "tipped": _median_block(tipped.tolist(), rounds.tolist())}
    out["by_side"] = {}
    for i, lab in enumerate(labels):
        m = won[:, i]
        if m.sum() >= 2:
            out["by_side"][lab] = {"games": int(m.sum()), **_median_block(tipped[m].tolist(), rounds[m].tolist())}
    return out
