"""Golden files for Ghosts of the Moor.

* ``tests/golden/moor_4p_game7.txt``: the turn-by-turn trace of game 7 of GOLDEN_4P written by
  `sim.games.moor.replay` (the words a designer reads); compared exactly.
* ``tests/golden/moor_<n>p_playthrough.json``: playthroughs in the OpenSpiel sense: the dealt order and every die
  roll (chance outcomes) and every decision (action ids, RULES.md "Encodings") of one game, with its final scores.
  They are replayed with `rules.new_game` / `rules.apply_chance` / `rules.apply_action` only (no RNG, no
  strategy), and again with the pure-Python oracle; both must reach the recorded final scores and winner.

A change of rules, strategies or RNG contract that alters these games must bump RULES_VERSION / RNG_CONTRACT and
regenerate the files, on purpose:

    MOOR_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/kernels/moor/test_golden.py

(the regenerating run rewrites the files and checks them; review the diff before committing).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from kernels.moor import play as PL
from kernels.moor import rules as R
from kernels.moor import strategies as S
from kernels.rng import N_STREAMS_MAX, RNG_CONTRACT, bounded, seed_stream, shuffle
from sim.model.scenario import from_dict
from sim.oracle import moor as O

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
UPDATE = os.environ.get("MOOR_UPDATE_GOLDEN", "") not in ("", "0")

GOLDEN_4P = {
    "scenario": {"name": "golden-4p", "game": "moor", "players": 4, "games": 10, "seed": 20261129},
    "seats": [
        {"strategy": "random"},
        {"strategy": "collector"},
        {"strategy": "cautious"},
        {"strategy": "weighted", "params": {"w_goal": 2.0, "w_rear": 0.3}},
    ],
}
TRACE_GAME = 7

PLAYTHROUGHS = {
    # file stem: (scenario dict, game index)
    "moor_5p_playthrough": (
        {
            "scenario": {"name": "golden-5p", "game": "moor", "players": 5, "games": 10, "seed": 7},
            "seats": [{"strategy": s} for s in ("random", "collector", "runner", "cautious", "weighted")],
        },
        3,
    ),
    "moor_2p_playthrough": (
        {
            "scenario": {"name": "golden-2p", "game": "moor", "players": 2, "games": 10, "seed": 11},
            "params": {"discard_fallback": "ignore_pawns", "ghost_before_two": True},
            "seats": [{"strategy": "random"}, {"strategy": "runner"}],
        },
        4,
    ),
}


def _check_or_write(path: Path, text: str):
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} missing: regenerate with MOOR_UPDATE_GOLDEN=1 (see this module's docstring)"
    assert path.read_text(encoding="utf-8") == text, (
        f"{path.name} differs from this run; if the change is intended, bump the version and regenerate"
    )


# ---- the turn-by-turn trace -------------------------------------------------------------------------------------
def test_golden_trace_4p_game7():
    from sim.games.moor import replay

    sc = from_dict(GOLDEN_4P)
    text = "\n".join(replay(sc, TRACE_GAME)) + "\n"
    _check_or_write(GOLDEN / "moor_4p_game7.txt", text)


# ---- playthroughs -------------------------------------------------------------------------------------------------
def record(sc, g: int) -> dict:
    """Step game ``g`` of ``sc`` exactly as play.play_one does and record every chance outcome and action."""
    n = sc.players
    prm, sids, sp = sc.prm(), sc.sids(), sc.sparams()
    rng = np.zeros((N_STREAMS_MAX, 4), dtype=np.uint64)
    for r in range(1 + n):
        seed_stream(rng, r, np.uint64(sc.seed), np.uint64(0), np.uint64(g), np.uint64(r))
    st = np.zeros(R.S_SIZE, dtype=np.int32)
    order = np.zeros(R.N_DEALT, dtype=np.int32)
    R.init(st, prm, n)
    R.deal_pool(st, order)
    shuffle(rng, 0, order, R.N_DEALT)
    log = np.zeros((1, R.LOG_W), dtype=np.int32)
    R.new_game(st, prm, n, order, log)
    mask = np.zeros(R.N_ACTIONS, dtype=np.int8)
    legal = np.zeros(R.N_ACTIONS, dtype=np.int8)
    first = g % n
    steps = []
    while st[R.S_PHASE] != R.PH_OVER:
        assert st[R.S_TURNS] < prm[R.P_MAX_TURNS]
        if st[R.S_PHASE] == R.PH_ROLL:
            roll = 1 + int(bounded(rng, 0, prm[R.P_DIE_FACES]))
            steps.append(["roll", roll])
            R.apply_chance(st, roll, log)
            continue
        nl = R.legal_actions(st, prm, mask, legal)
        if nl == 1:
            a = int(np.flatnonzero(mask)[0])
        else:
            seat = (first + int(st[R.S_CUR])) % n
            a = int(S.decide(sids[seat], sp[seat], st, prm, mask, nl, rng, 1 + seat, legal))
        steps.append(["action", a])
        R.apply_action(st, prm, a, log)
    sc_pos = np.zeros(R.MAX_PLAYERS, dtype=np.int32)
    wpos = int(R.returns(st, prm, sc_pos))
    return {
        "game": "moor",
        "rules_version": R.RULES_VERSION,
        "rng_contract": RNG_CONTRACT,
        "scenario": sc.to_dict(),
        "game_index": g,
        "players": n,
        "start_seat": first,
        "deal": [int(x) for x in order],
        "steps": steps,
        "final": {
            "scores_by_position": [int(x) for x in sc_pos[:n]],
            "winners_by_position": wpos,
            "turns": int(st[R.S_TURNS]),
            "rounds": int(st[R.S_ROUNDS]),
        },
    }


def dumps(doc: dict) -> str:
    """JSON with one top-level key per line and one step per line (diff-friendly)."""
    lines = [f" {json.dumps(k)}: {json.dumps(v)}" for k, v in doc.items() if k != "steps"]
    steps = ",\n".join("  " + json.dumps(s) for s in doc["steps"])
    return "{\n" + ",\n".join(lines) + ',\n "steps": [\n' + steps + "\n ]\n}\n"


def replay_kernel(doc: dict):
    """Replay a playthrough with the kernel's rule functions only: forced chance, recorded actions, no RNG."""
    sc = from_dict(
        {
            "scenario": {k: doc["scenario"][k] for k in ("name", "game", "players", "games", "seed")},
            "params": doc["scenario"]["params"],
            "seats": doc["scenario"]["seats"],
        }
    )
    prm = sc.prm()
    n = doc["players"]
    st = np.zeros(R.S_SIZE, dtype=np.int32)
    log = np.zeros((1, R.LOG_W), dtype=np.int32)
    R.new_game(st, prm, n, np.array(doc["deal"], dtype=np.int32), log)
    mask = np.zeros(R.N_ACTIONS, dtype=np.int8)
    legal = np.zeros(R.N_ACTIONS, dtype=np.int8)
    for i, (kind, v) in enumerate(doc["steps"]):
        if kind == "roll":
            assert st[R.S_PHASE] == R.PH_ROLL, f"step {i}: a roll where a decision is due"
            assert 1 <= v <= prm[R.P_DIE_FACES]
            R.apply_chance(st, v, log)
        else:
            assert st[R.S_PHASE] not in (R.PH_ROLL, R.PH_OVER), f"step {i}: an action at a chance node"
            R.legal_actions(st, prm, mask, legal)
            assert mask[v], f"step {i}: action {v} is not legal"
            R.apply_action(st, prm, v, log)
    assert st[R.S_PHASE] == R.PH_OVER
    sc_pos = np.zeros(R.MAX_PLAYERS, dtype=np.int32)
    w = int(R.returns(st, prm, sc_pos))
    return [int(x) for x in sc_pos[:n]], w, int(st[R.S_TURNS]), int(st[R.S_ROUNDS])


def replay_oracle(doc: dict):
    """The same playthrough through the pure-Python oracle's rule methods."""
    g = O.Moor(O.Rules(doc["scenario"]["params"]), doc["players"], doc["deal"])
    for i, (kind, v) in enumerate(doc["steps"]):
        if kind == "roll":
            g.apply_roll(v)
        else:
            assert v in g.legal_actions(), f"step {i}: action {v} is not legal for the oracle"
            g.apply_action(v)
    assert g.phase == O.OVER
    return [g.score(p) for p in range(g.n)], g.winners(), g.turns, g.rounds


@pytest.mark.parametrize("stem", sorted(PLAYTHROUGHS))
def test_golden_playthrough(stem):
    path = GOLDEN / f"{stem}.json"
    scd, g = PLAYTHROUGHS[stem]
    sc = from_dict(scd)
    if UPDATE:
        doc = record(sc, g)
        _check_or_write(path, dumps(doc))
    assert path.exists(), f"{path} missing: regenerate with MOOR_UPDATE_GOLDEN=1"
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["rules_version"] == R.RULES_VERSION and doc["rng_contract"] == RNG_CONTRACT
    fin = doc["final"]
    want = (fin["scores_by_position"], fin["winners_by_position"], fin["turns"], fin["rounds"])
    assert replay_kernel(doc) == want
    assert replay_oracle(doc) == want
    # and it is the very game the batch kernel plays for that scenario and game index
    assert record(sc, g) == doc
    tr = PL.trace_game(np.uint64(sc.seed), np.uint64(0), g, sc.players, sc.prm(), sc.sids(), sc.sparams(), 2)
    n, first = sc.players, g % sc.players
    assert [int(tr.scores[(first + q) % n]) for q in range(n)] == fin["scores_by_position"]
    assert tr.status == PL.ST_DONE and tr.turns == fin["turns"] and tr.rounds == fin["rounds"]
