"""What a job is: its spec (a JSON-ready dict saying exactly what to play), its permanent key and its title.

Kinds and their spec fields (scenario paths relative to the scenarios folder; ``sets``: ``NAME=VALUE`` overrides
as ``--set`` takes them; games and seed always resolved, so a spec plays the same games wherever it is played):

    run       scenario, sets, games, seed; arc, at_skill when asked (the game's arc, the table at skill)
    compare   scenario, sets (A), scenario_b, sets_b (B), games, seed
    sweep     scenario, sets (every point), axis ("NAME=VALUES": "track_len=20..40 step 10"), target, games, seed
    ladder    game, players, games (per table; None: the ladder's default), seed
    tune      scenario (a tune file, scenarios/<game>/tunes/*.toml), trials, games (per trial), seed

``code`` (the git commit of the code that plays it, `sim.play.provenance.git_commit`) is part of every spec, so the
key (`result_key`) names one result: the same key is the same figures.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

KINDS = ("run", "compare", "sweep", "ladder", "tune")
SPEC_KEYS = {
    "run": ("scenario", "sets", "games", "seed"),
    "compare": ("scenario", "sets", "scenario_b", "sets_b", "games", "seed"),
    "sweep": ("scenario", "sets", "axis", "target", "games", "seed"),
    "ladder": ("game", "players", "strategies", "games", "balance_games", "margin", "seed"),
    "tune": ("scenario", "params", "targets", "trials", "games", "seed"),
}
# fields a spec carries only when set (true), so the keys of the specs without them stay what they were
OPTIONAL_KEYS = {"run": ("arc", "at_skill")}


def make_spec(kind: str, code: str, **fields: Any) -> dict[str, Any]:
    """The spec of a job of ``kind`` with ``fields`` (exactly `SPEC_KEYS`' of that kind; missing ones None) and
    the ``code`` version. Raises ValueError for an unknown kind or field."""
    if kind not in SPEC_KEYS:
        raise ValueError(f"kind: unknown kind {kind!r}; allowed: {', '.join(KINDS)}")
    optional = OPTIONAL_KEYS.get(kind, ())
    extra = set(fields) - set(SPEC_KEYS[kind]) - set(optional)
    if extra:
        raise ValueError(f"{kind}: unknown spec field {sorted(extra)[0]!r}")
    spec: dict[str, Any] = {"kind": kind, "code": code}
    for k in SPEC_KEYS[kind]:
        v = fields.get(k)
        spec[k] = list(v) if isinstance(v, (list, tuple)) else v
    spec.update({k: True for k in optional if fields.get(k)})
    return spec


def result_key(spec: Mapping[str, Any]) -> str:
    """The permanent key of a spec: 16 hex digits of the SHA-256 of its canonical JSON (kind, scenario, overrides,
    seed, games, code version, ...)."""
    text = json.dumps(dict(spec), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def folder_name(spec: Mapping[str, Any]) -> str:
    """The job's report folder under reports/web/: ``<kind>-<key>``."""
    return f"{spec['kind']}-{result_key(spec)}"


def describe(spec: Mapping[str, Any]) -> str:
    """One line naming what the job plays ("run moor/4p.toml track_len=40, 20,000 games, seed 7")."""
    kind = spec["kind"]
    games = f"{spec['games']:,} games" if spec.get("games") else "default games"
    seed = f"seed {spec['seed']}" if spec.get("seed") is not None else "default seed"
    if kind == "ladder":
        rungs = ", ".join(spec["strategies"]) if spec.get("strategies") else "the default rungs"
        balance = f", {spec['balance_games']:,} balance games a rung" if spec.get("balance_games") else ""
        return f"ladder {spec['game']} {spec['players']}p ({rungs}), {games} a table{balance}, {seed}"
    if kind == "tune":
        trials = f", {spec['trials']} trials" if spec.get("trials") else ""
        return f"tune {spec['scenario']}{trials}, {seed}"
    sets = _sets(spec.get("sets") or ())
    if kind == "compare":
        a = f"{spec['scenario']}{sets}"
        b = f"{spec['scenario_b']}{_sets(spec.get('sets_b') or ())}"
        return f"compare {a} with {b}, {games}, {seed}"
    if kind == "sweep":
        target = f", target {spec['target']}" if spec.get("target") else ""
        return f"sweep {spec['scenario']}{sets}: {spec['axis']}{target}, {games} a point, {seed}"
    also = "".join(w for k, w in (("arc", ", with the game's arc"), ("at_skill", ", at skill too")) if spec.get(k))
    return f"run {spec['scenario']}{sets}, {games}, {seed}{also}"


def _sets(sets: Sequence[str]) -> str:
    return (" " + " ".join(sets)) if sets else ""
