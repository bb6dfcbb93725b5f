"""The committed fidelity files (kernels/<game>/policies/fidelity-<scenario>.json, `sim fidelity --install`) speak for
the shipped policies: a retrained policy or a rules change fails here until `sim fidelity` is run again, as
tests/sim/test_learned.py does for the policies themselves; and the "At skill" block quotes only a current file."""

from __future__ import annotations

import json

import pytest

from sim.model.fidelity import fidelity_path, for_scenario, load_fidelity, policy_digest, stale
from sim.model.policy import load_policy
from sim.model.registry import get
from sim.model.scenario import load

pytestmark = pytest.mark.kernel  # the game specs import their kernel modules (nothing is compiled)

# every game's default 4-player table with a learned player at every seat (issue 38)
CHECKED = [
    ("moor", "scenarios/moor/4p.toml"),
    ("treasure_hunters", "scenarios/treasure_hunters/basic-4p.toml"),
    ("treasure_hunters", "scenarios/treasure_hunters/advanced-4p.toml"),
    ("treasure_hunters", "scenarios/treasure_hunters/head_haunter-4p.toml"),
    ("turnwall", "scenarios/turnwall/4p.toml"),
    ("galleon", "scenarios/galleon/4p.toml"),
]


@pytest.mark.parametrize("game, path", CHECKED, ids=[p.split("/", 1)[1] for _, p in CHECKED])
def test_shipped_fidelity_file_speaks_for_the_shipped_policies(game, path):
    sc = load(path)
    doc = load_fidelity(game, sc.name)
    assert doc is not None, f"{fidelity_path(game, sc.name)} is missing: run `sim fidelity {path} --install`"
    assert stale(doc, get(game)) is None  # type: ignore[arg-type]
    # every search seat as played, so that a search default moved since makes the file stale
    assert len(doc.get("search_played") or []) == len(doc["search_seats"]) == sc.players
    roles = set(sc.spec.roles(sc.params, sc.players))
    assert set(doc["policies"]) == roles, "every role at the table is tied to its policy's version"
    assert doc["command"].startswith(f"sim fidelity {path} ") and doc["games"] >= 30
    assert doc["figures"] and all(f["kind"] in ("agrees", "differs", "cannot_tell") for f in doc["figures"].values())
    assert fidelity_path(game, sc.name).with_suffix(".md").exists()
    said = for_scenario(sc)
    assert said["status"] == "current"
    # the games that would decide a figure it cannot tell yet, for the At-skill line
    assert {k: f["more_games"] for k, f in said["figures"].items()} == {
        k: f.get("more_games") for k, f in doc["figures"].items()
    }


def test_a_retrained_policy_or_a_rules_change_makes_the_file_stale(tmp_path, monkeypatch):
    game, path = CHECKED[0]
    spec = get(game)
    sc = load(path)
    doc = load_fidelity(game, sc.name)
    assert doc is not None
    assert "rules version" in (stale({**doc, "rules_version": spec.rules_version + 1}, spec) or "")  # type: ignore[union-attr, arg-type]
    role = next(iter(doc["policies"]))
    moved = {**doc, "policies": {role: {**doc["policies"][role], "digest": "0" * 16}}}
    assert "run it again" in (stale(moved, spec) or "")  # type: ignore[arg-type]
    # retraining changes the weights, so the digest: the same file with one weight moved no longer matches
    data = load_policy(game, role)
    assert data is not None
    w = dict(data["weights"])
    k = next(iter(w))
    w[k] += 0.5
    assert policy_digest({**data, "weights": w}) != policy_digest(data)
    assert policy_digest(json.loads(json.dumps(data))) == policy_digest(data)


def test_other_parameters_or_no_file_are_not_quoted():
    sc = load("scenarios/moor/3p.toml")
    said = for_scenario(sc)
    assert said["status"] == "none" and "moor-4p" in said["why"]
    four = load("scenarios/moor/4p.toml")
    changed = four.with_changes(params={**four.params, "track_len": int(four.params["track_len"]) + 1})
    assert for_scenario(changed)["status"] == "none"


def test_another_search_default_makes_the_file_stale():
    """A file records its search seats' parameters as played (`search_played`): where one the run left to its
    default now defaults to another value (Moor's search moved to halving with deviate 1 on 2026-12-07), the file
    speaks for another search and is stale; a parameter the run gave itself, and the tie-break, are not compared."""
    game, path = CHECKED[0]
    spec = get(game)
    doc = load_fidelity(game, load(path).name)
    assert doc is not None and len(doc["search_played"]) == len(doc["search_seats"])
    assert stale(doc, spec) is None  # type: ignore[arg-type]
    ucb1 = [{**p, "root": "ucb1"} for p in doc["search_played"]]
    said = stale({**doc, "search_played": ucb1}, spec) or ""  # type: ignore[arg-type]
    assert said.startswith("made with search@64 at root = ucb1, the game's search now plays root = halving")
    assert said.endswith("run it again (" + doc["command"] + ")")
    before = [{**p, "root": "ucb1", "deviate": 0.0} for p in doc["search_played"]]
    assert "now plays deviate = 1.0 by default" in (stale({**doc, "search_played": before}, spec) or "")  # type: ignore[arg-type]
    given = [{**s, "root": "ucb1", "deviate": 0.0} for s in doc["search_seats"]]
    assert stale({**doc, "search_seats": given, "search_played": before}, spec) is None  # type: ignore[arg-type]
    tb = [{**p, "tiebreak": "none"} for p in doc["search_played"]]
    assert stale({**doc, "search_played": tb}, spec) is None  # type: ignore[arg-type]
    old = {k: v for k, v in doc.items() if k != "search_played"}
    assert stale(old, spec) is None  # type: ignore[arg-type]  # a file made before the record: not judged on it
