"""Fidelity files: does the learned table tell the same balance story as a table of `search` players?

`sim fidelity SCENARIO` (sim.api.fidelity) plays a scenario's "At skill" table (`sim.model.skill_spec`: every seat on
its role's learned player) and the same seats on `search` with learned rollouts, on the same seeds, and writes the
verdicts beside the shipped policies: ``kernels/<game>/policies/fidelity-<scenario>.json`` (and ``.md``). The file
names the rules version and each policy it played (`policy_versions`: feature set and version, rules version and a
digest of the weights) and the search seats' parameters as played (``search_played``), so a retrained policy, a
rules change or another search default makes it stale (`stale`): a test checks every shipped file, and the report's "At skill" section names a stale file instead of quoting it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

from sim.model.paths import REPO
from sim.model.registry import GameSpec

if TYPE_CHECKING:
    from sim.model.scenario import Scenario

FIDELITY_FORMAT = 1


def fidelity_path(game: str, scenario: str) -> Path:
    """The committed fidelity file of scenario ``scenario`` (its name) of ``game``:
    kernels/<game>/policies/fidelity-<scenario>.json."""
    return REPO / "kernels" / game / "policies" / f"fidelity-{scenario}.json"


def policy_digest(data: dict) -> str:
    """A policy's version for the fidelity tie: the first 16 hex digits of the SHA-256 of its weights and temperature
    (canonical JSON, sorted keys), so retraining changes it and re-serialising the file does not."""
    body = json.dumps({"weights": data.get("weights"), "temperature": data.get("temperature")}, sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def policy_versions(spec: GameSpec, roles: list[str] | tuple[str, ...]) -> dict[str, dict]:
    """{role: {strategy, feature_set, feature_version, rules_version, digest}} of each of ``roles``' shipped learned
    policy (roles without a learner or a file are left out)."""
    from sim.model.policy import load_policy

    out: dict[str, dict] = {}
    for lr in spec.learners:
        if lr.role not in roles:
            continue
        data = load_policy(spec.name, lr.role)
        if data is None:
            continue
        out[lr.role] = {
            "strategy": lr.strategy,
            "feature_set": data.get("feature_set"),
            "feature_version": data.get("feature_version"),
            "rules_version": data.get("rules_version"),
            "digest": policy_digest(data),
        }
    return out


def stale(doc: dict, spec: GameSpec) -> str | None:
    """Why fidelity file ``doc`` no longer speaks for the shipped policies of ``spec`` (another rules version, a
    policy retrained or another feature version since), in one line; None when it still does."""
    if doc.get("format") != FIDELITY_FORMAT:
        return f"fidelity format {doc.get('format')!r}, this sim reads format {FIDELITY_FORMAT}"
    if doc.get("rules_version") != spec.rules_version:
        return (
            f"made at rules version {doc.get('rules_version')}, the game is at rules version {spec.rules_version}: "
            f"run it again ({doc.get('command', 'sim fidelity')})"
        )
    made = doc.get("policies") or {}
    now = policy_versions(spec, list(made))
    for role, v in made.items():
        cur = now.get(role)
        if cur != v:
            what = (
                "no shipped policy"
                if cur is None
                else f"policy {cur['digest']} ({cur['feature_set']} v{cur['feature_version']})"
            )
            return (
                f"made with the {role} policy {v.get('digest')} ({v.get('feature_set')} v{v.get('feature_version')}), "
                f"the game now ships {what}: run it again ({doc.get('command', 'sim fidelity')})"
            )
    return search_default_changed(doc, spec)


def search_default_changed(doc: dict, spec: GameSpec) -> str | None:
    """Why ``doc``'s search table is no longer what the game's search plays by default (a parameter the run left
    to its default, recorded as played in ``search_played``, now defaults to another value), in one line; None when
    every such default stands or the file predates the record (no ``search_played``). The tie-break is skipped: its
    "auto" is resolved per table, and the root it follows is compared."""
    for given, played in zip(doc.get("search_seats") or [], doc.get("search_played") or [], strict=False):
        st = spec.strategy(given.get("strategy", ""))
        if st is None:
            continue
        now = {p.name: p.default for p in st.params}
        for k, v in played.items():
            if k in given or k == "tiebreak" or k not in now or now[k] == v:
                continue
            return (
                f"made with {doc.get('search', 'search')} at {k} = {v}, the game's {st.name} now plays {k} = {now[k]} "
                f"by default: run it again ({doc.get('command', 'sim fidelity')})"
            )
    return None


def load_fidelity(game: str, scenario: str, path: Path | None = None) -> dict | None:
    """The parsed fidelity file of ``scenario`` of ``game`` (``path``: another file); None when there is none."""
    p = path or fidelity_path(game, scenario)
    if not p.exists():
        return None
    data: dict = json.loads(p.read_text())
    return data


def shipped(game: str) -> list[Path]:
    """Every committed fidelity file of ``game``, sorted."""
    return sorted((REPO / "kernels" / game / "policies").glob("fidelity-*.json"))


def _same(a: object, b: object) -> bool:
    """Equal as JSON (a file's lists against a scenario's tuples)."""
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def for_scenario(sc: Scenario) -> dict:
    """What the "At skill" section says of the learned table's fidelity to search for scenario ``sc``: {status:
    "current" (the committed file of this scenario, its players and parameters, still speaking for the shipped
    policies) | "stale" | "none", why (one line, for stale / none), file (relative to the repository), search
    ("search@64"), games, figures {key: {words, kind, estimate, ci95, margin, more_games (about how many games
    each would decide a cannot_tell; None otherwise), n (the games its verdict counts), learned_value and
    search_value (each table's figure)}}}."""
    spec = sc.spec
    p = fidelity_path(sc.game, sc.name)
    doc = load_fidelity(sc.game, sc.name)
    rel = str(p.relative_to(REPO))
    if doc is None:
        made = [q.stem.removeprefix("fidelity-") for q in shipped(sc.game)]
        elsewhere = f" ({spec.title}'s: {', '.join(made)})" if made else ""
        return {"status": "none", "why": f"no fidelity run for {sc.name}{elsewhere}; sim fidelity makes one"}
    if doc.get("players") != sc.players or not _same(doc.get("params"), sc.params):
        return {
            "status": "none",
            "file": rel,
            "why": f"the fidelity run of {sc.name} played other parameters than this run's",
        }
    why = stale(doc, spec)
    if why is not None:
        return {"status": "stale", "file": rel, "why": why}
    keep = ("words", "kind", "estimate", "ci95", "margin", "more_games")
    return {
        "status": "current",
        "file": rel,
        "search": doc["search"],
        "games": doc["games"],
        "figures": {
            k: {
                **{f: v.get(f) for f in keep},
                "n": (v.get("learned") or {}).get("n", doc["games"]),
                "learned_value": (v.get("learned") or {}).get("value"),
                "search_value": (v.get("search") or {}).get("value"),
            }
            for k, v in doc["figures"].items()
        },
    }
