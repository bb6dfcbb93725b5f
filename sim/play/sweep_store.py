"""Finished sweep points kept on disk (``<sweep folder>/points/``), so an interrupted sweep plays only what is
missing and gives the same result as an uninterrupted one.

A point is stored under a key hashing everything its numbers depend on: the point's scenario (game, players, every
parameter, every seat's strategy and weights), the seed, the games, the RNG point id (0 under common random
numbers), the game's rules version, the RNG contract version, a hash of the kernels' source (a strategy edit changes results
without a rules version) and this store's format. Two files per point:
``<key>.npz`` (per-game numerators of the paired measures, int32, and the finished mask) and ``<key>.json``
(aggregates, margin histogram, measure sums, the paired measure names); the JSON is written last, by rename, and
marks the point complete. A point stored without a measure now asked to be paired is played again.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from sim.model.scenario import Scenario
from sim.play.work import UnitResult
from sim.stats.aggregate import Aggregates

FORMAT = 1


def point_key(sc: Scenario, seed: int, games: int, point: int) -> str:
    """The key of a point's stored result (see module docstring): 20 hex characters."""
    from kernels._jit import source_hash
    from kernels.rng import RNG_CONTRACT

    d = sc.to_dict()
    what = {
        "game": d["game"],
        "players": d["players"],
        "params": d["params"],
        "seats": d["seats"],
        "seed": seed,
        "games": games,
        "point": point,
        "rules": sc.spec.rules_version,
        "rng": RNG_CONTRACT,
        "kernels": source_hash(),  # a strategy's code (search) changes results without a rules version
        "format": FORMAT,
    }
    return hashlib.sha256(json.dumps(what, sort_keys=True, default=str).encode()).hexdigest()[:20]


class Store:
    """The points/ folder of one sweep."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def _json(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def has(self, key: str, paired: tuple[str, ...], arc: bool = False) -> bool:
        """Whether point ``key`` is stored complete with (at least) the ``paired`` measures and, with ``arc``, the arc
        measures (a point played without the game's arc is played again)."""
        p = self._json(key)
        if not p.exists():
            return False
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
            names = doc["paired_names"]
            sums = doc["sums"]["n"]
        except (OSError, ValueError, KeyError, TypeError):
            return False
        return set(paired) <= set(names) and (not arc or any(k.startswith("arc.") for k in sums))

    def save(self, key: str, r: UnitResult, meta: dict) -> None:
        """Store a point's merged result (npz first, then the JSON by rename: the JSON marks it complete)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / f".{key}.{os.getpid()}.npz"
        tj = self.folder / f".{key}.{os.getpid()}.json"
        try:
            self._save(key, r, meta, tmp, tj)
        except BaseException:  # Ctrl-C while saving: no temporary file left (the point is played again)
            tmp.unlink(missing_ok=True)
            tj.unlink(missing_ok=True)
            raise

    def _save(self, key: str, r: UnitResult, meta: dict, tmp: Path, tj: Path) -> None:
        np.savez(
            tmp,
            paired=r.paired if r.paired is not None else np.zeros((r.games, 0), np.int32),
            finished=r.finished if r.finished is not None else np.zeros(r.games, bool),
        )
        os.replace(tmp, self.folder / f"{key}.npz")
        doc = {
            "format": FORMAT,
            "meta": meta,
            "games": r.games,
            "aggregates": r.agg.to_dict(),
            "margin": r.margin.tolist(),
            "sums": r.sums,
            "paired_names": list(r.paired_names),
        }
        tj.write_text(json.dumps(doc), encoding="utf-8")
        os.replace(tj, self._json(key))

    def read(self, key: str) -> dict:
        """The stored point's document as written: {meta, games, aggregates (`Aggregates.to_dict`), margin, sums,
        paired_names}."""
        return json.loads(self._json(key).read_text(encoding="utf-8"))

    def load(self, key: str) -> dict:
        """{games, agg (Aggregates), margin, sums, meta, paired_names}."""
        doc = self.read(key)
        doc["agg"] = aggregates_from_dict(doc["aggregates"])
        doc["margin"] = np.asarray(doc["margin"], np.int64)
        return doc

    def load_paired(self, key: str, doc: dict | None = None) -> dict:
        """{names, paired: int32[games, k], finished: bool[games]} of a stored point (``doc``: its `read`, when
        the caller has it already: a table's document is most of its reading time)."""
        doc = self.read(key) if doc is None else doc
        with np.load(self.folder / f"{key}.npz") as z:
            return {"names": doc["paired_names"], "paired": z["paired"], "finished": z["finished"]}


def aggregates_from_dict(d: dict) -> Aggregates:
    """The `Aggregates` that ``Aggregates.to_dict`` wrote (exact: every count is an integer)."""
    cs = np.asarray(d["curve_sum"], np.int64)
    a = Aggregates(
        d["players"], (d["score_lo"], d["score_hi"]), tuple(d["extra_columns"]), *(cs.shape if cs.ndim == 2 else (0, 0))
    )
    for k, v in d.items():
        cur = getattr(a, k, None)
        if isinstance(cur, np.ndarray):
            # 2-D fields have the shape the constructor gives them; histograms grow
            setattr(a, k, np.asarray(v, np.int64).reshape(cur.shape) if cur.ndim > 1 else np.asarray(v, np.int64))
        elif isinstance(cur, list):
            setattr(a, k, [np.asarray(x, np.int64) for x in v])
        elif k not in ("extra_columns",):
            setattr(a, k, v)
    return a
