"""Golden files for Ghost Fightin' Treasure Hunters (tests/kernels/treasure_hunters/golden/).

* ``th_<name>_playthrough.json``: playthroughs in the OpenSpiel sense: the jewel numbers, every shuffle order, every
  die face / hand pick (chance outcomes) and every action (RULES.md "Encodings") of one game, with its final state.
  They are replayed through `rules.init` / `set_jewel_numbers` / `apply_shuffle` / `apply_chance` / `apply_action`
  only (no RNG, no strategy) and must reach the recorded final state; the kernel must still record the same steps.
* ``th_trace_<name>.txt``: the turn-by-turn words of `sim.games.treasure_hunters.replay` for one game; exact.

A change of rules, strategies or RNG contract that alters these games must bump RULES_VERSION / RNG_CONTRACT and
regenerate them on purpose:

    TH_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/kernels/treasure_hunters/test_golden.py

(the regenerating run rewrites the files and checks them; review the diff before committing).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from kernels.rng import RNG_CONTRACT
from kernels.treasure_hunters import play as PL
from kernels.treasure_hunters import rules as R
from sim.model.scenario import from_dict

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("TH_UPDATE_GOLDEN", "") not in ("", "0")

GAMES = {
    "basic_4p": (
        {
            "scenario": {
                "name": "golden-basic-4p",
                "game": "treasure_hunters",
                "players": 4,
                "games": 10,
                "seed": 20261129,
            },
            "params": {"mode": "basic"},
            "seats": [
                {"strategy": "weighted", "params": {"w_ghost2": 14.0}},
                {"strategy": "runners"},
                {"strategy": "busters"},
                {"strategy": "random"},
            ],
        },
        3,
    ),
    "advanced_3p": (
        {
            "scenario": {
                "name": "golden-advanced-3p",
                "game": "treasure_hunters",
                "players": 3,
                "games": 10,
                "seed": 7,
            },
            "params": {"mode": "advanced"},
            "seats": [{"strategy": "weighted"}, {"strategy": "runners"}, {"strategy": "busters"}],
        },
        5,
    ),
    "head_haunter_5p": (
        {
            "scenario": {"name": "golden-hh-5p", "game": "treasure_hunters", "players": 5, "games": 10, "seed": 11},
            "params": {"mode": "head_haunter"},
            "seats": [
                {"strategy": "haunter_trapper"},
                {"strategy": "weighted"},
                {"strategy": "busters"},
                {"strategy": "runners"},
                {"strategy": "random"},
            ],
        },
        2,
    ),
}


def record(name):
    doc, game = GAMES[name]
    sc = from_dict(doc)
    out = PL.trace_game(
        np.uint64(sc.seed), np.uint64(0), game, sc.players, sc.prm(), sc.sids(), sc.sparams(), 10, 50_000
    )
    steps = out.steps
    n = int(steps[0, 0])
    assert n + 1 < steps.shape[0]
    st = out.state.copy()
    st[R.S_DECISIONS] = 0  # counted by the play loop, not by the rules
    return (
        sc,
        game,
        {
            "what": "Ghost Fightin' Treasure Hunters playthrough (tests/kernels/treasure_hunters/test_golden.py)",
            "rules_version": R.RULES_VERSION,
            "rng_contract": RNG_CONTRACT,
            "scenario": doc,
            "game": game,
            "first_seat": int(PL.first_seat(sc.prm(), game, sc.players)),
            "steps": [[int(steps[i, 0]), int(steps[i, 1])] for i in range(1, n + 1)],
            "outcome": R.OUTCOME_LABELS[int(out.extra[PL.EXTRA_COLUMNS.index("outcome")])],
            "turns": out.turns,
            "rounds": out.rounds,
            "scores": [int(x) for x in out.scores],
            "winners": out.winners,
            "final_state": [int(x) for x in st],
        },
    )


def replay_steps(prm, players, first, steps):
    """Replay recorded steps with the rule functions only; returns the final state."""
    st = np.zeros(R.S_SIZE, dtype=np.int32)
    log = np.zeros((1, 6), dtype=np.int32)
    R.init(st, prm, players, first)
    i = 0
    while i < len(steps):
        kind, value = steps[i]
        if kind == PL.K_JEWELS:
            R.set_jewel_numbers(st, np.array([v for _, v in steps[i + 1 : i + 1 + value]], dtype=np.int32))
            i += 1 + value
        elif kind == PL.K_SHUFFLE:
            assert st[R.S_PHASE] == R.PH_SHUFFLE
            order = np.array([v for _, v in steps[i + 1 : i + 1 + value]], dtype=np.int32)
            pool = np.zeros(R.MAX_CARDS, dtype=np.int32)
            assert sorted(order.tolist()) == sorted(pool[: R.shuffle_pool(st, pool)].tolist())
            R.apply_shuffle(st, prm, order, value, log)
            i += 1 + value
        elif kind == PL.K_CHANCE:
            assert 0 <= value < R.chance_outcomes(st, prm)
            R.apply_chance(st, prm, value, log)
            i += 1
        else:
            assert kind == PL.K_ACTION
            mask = np.zeros(R.N_ACTIONS, dtype=np.int8)
            work = np.zeros(512, dtype=np.int32)
            R.legal_actions(st, prm, mask, work)
            assert mask[value] == 1, (i, value)
            R.apply_action(st, prm, value, log)
            i += 1
        assert R.check_invariants(st, prm) == 0
    assert st[R.S_PHASE] == R.PH_OVER
    return st


@pytest.mark.parametrize("name", sorted(GAMES))
def test_playthrough(name):
    path = GOLDEN / f"th_{name}_playthrough.json"
    sc, game, now = record(name)
    if UPDATE:
        path.write_text(json.dumps(now, separators=(",", ":")) + "\n")
    gold = json.loads(path.read_text())
    assert gold["rules_version"] == R.RULES_VERSION and gold["rng_contract"] == RNG_CONTRACT
    st = replay_steps(sc.prm(), sc.players, gold["first_seat"], gold["steps"])
    assert [int(x) for x in st] == gold["final_state"]
    assert R.OUTCOME_LABELS[int(st[R.S_OUTCOME])] == gold["outcome"]
    assert now["steps"] == gold["steps"], "the kernel no longer plays the recorded game"
    assert now["final_state"] == gold["final_state"] and now["winners"] == gold["winners"]


def test_trace_in_words():
    doc, game = GAMES["head_haunter_5p"]
    sc = from_dict(doc)
    text = "\n".join(sc.spec.replay(sc, game)) + "\n"
    path = GOLDEN / "th_trace_head_haunter_5p.txt"
    if UPDATE:
        path.write_text(text)
    assert text == path.read_text()
    doc, game = GAMES["advanced_3p"]
    sc = from_dict(doc)
    text = "\n".join(sc.spec.replay(sc, game)) + "\n"
    path = GOLDEN / "th_trace_advanced_3p.txt"
    if UPDATE:
        path.write_text(text)
    assert text == path.read_text()
