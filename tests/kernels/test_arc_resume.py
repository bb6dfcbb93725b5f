"""The game's arc (issue 39): a Treasure Hunters game cut at its turn cap (the cap ends the game inside its state,
R5) is resumed by the search machinery's resume path as the same game when the rollouts' cap is higher, and stays
cut under the same cap: what lets `sim arc` roll out from the state after round r of a team game."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.batch import play_games
from sim.model.scenario import load

pytestmark = pytest.mark.kernel


def _play(sc, prm, g, resume=None, n_games=1, seed=7):
    k = sc.spec.kernel()
    scratch = k.batch_scratch(sc.players, prm)
    out = play_games(
        k.play_batch, scratch, np.uint64(seed), 0, g, n_games, sc.players, prm, sc.sids(), sc.sparams(),
        len(sc.spec.extra_columns), (len(sc.spec.curves), sc.spec.curve_len), resume=resume,
    )  # fmt: skip
    return out, scratch.st.copy()  # a Treasure Hunters batch scratch


@pytest.mark.parametrize(
    "path", ["scenarios/treasure_hunters/basic-4p.toml", "scenarios/treasure_hunters/head_haunter-4p.toml"]
)
def test_a_game_cut_at_its_cap_resumes_under_a_higher_cap(path):
    from kernels.treasure_hunters import rules as R

    sc = load(path)
    per_round = sc.spec.arc_round_turns(sc.params, sc.players)
    assert per_round == (sc.players - 1 if "head_haunter" in path else sc.players)
    full = sc.prm()
    out, _ = _play(sc, full, 3)
    turns, status = out.turns, out.status
    assert status[0] == 0 and turns[0] > 3 * per_round
    t = 3 * per_round  # the start of round 4: hunter 0's turn
    capped = sc.with_changes(params={**sc.params, "max_turns": t}).prm()
    out, cut = _play(sc, capped, 3)
    tt, st = out.turns, out.status
    assert st[0] == 1 and tt[0] == t and cut[R.S_PHASE] == R.PH_OVER and cut[R.S_OUTCOME] == R.OUT_TRUNC
    # under the same cap it stays cut: no step is played
    out, again = _play(sc, capped, 0, resume=cut)
    tt2, st2 = out.turns, out.status
    assert st2[0] == 1 and tt2[0] == t and np.array_equal(again, cut)
    # under the full cap the cut turn starts as it would have: only the turn's own slots change, then it plays on
    out, _ = _play(sc, full, 0, resume=cut, n_games=8)
    tt3, st3 = out.turns, out.status
    assert (st3 == 0).sum() >= 6 and (tt3 > t).all()  # games go on past the cut (a rare one hits the cap again)
    from kernels.treasure_hunters import step

    scratch = sc.spec.kernel().batch_scratch(sc.players, full)
    resumed = cut.copy()
    first = step.resume_game(resumed, cut, full, sc.players, 0, scratch.rng, scratch)
    assert first == cut[R.S_FIRST]
    changed = set(np.flatnonzero(resumed != cut).tolist())
    assert changed <= {R.S_PHASE, R.S_OUTCOME, R.S_TURNS, R.S_ROUNDS}, changed
    assert resumed[R.S_PHASE] == R.PH_ROLL and resumed[R.S_OUTCOME] == R.OUT_NONE
    assert resumed[R.S_TURNS] == t + 1 and resumed[R.S_ROUNDS] == cut[R.S_ROUNDS] + 1  # hunter 0 opens round 4
