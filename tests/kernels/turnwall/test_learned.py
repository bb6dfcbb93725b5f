"""The learned ghost of The Ghosts of Castle Turnwall (`learned`, kernels/turnwall/features.py; RULES.md S7): the
hidden-information permutation test (M1) covers it with random weights at every memory rung and without the
magnets, and fails on a deliberate leak; it plays legal actions only; its weights and its memory come from the seat's
parameter row; a kernel without the learned marker refuses it; search plays its rollouts with it."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.batch import play_games
from kernels.turnwall import features as F
from kernels.turnwall import play as PL
from kernels.turnwall import rules as R
from kernels.turnwall import strategies as S
from tests.kernels.turnwall.test_play import scenario
from tests.kernels.turnwall.test_strategies import LADDER, decide_any, hidden_check

pytestmark = pytest.mark.kernel


def _weights(gen, temperature=0.0):
    """A learned row's temperature and weights: random, the plan feature kept dominant so that games end."""
    w = gen.uniform(-1.0, 1.0, F.N_FEATURES)
    w[0] = 10.0
    return {"temperature": temperature, **{f"w_{n}": float(x) for n, x in zip(F.FEATURE_NAMES, w)}}


def _table(gen, n, memory, params=None, temperature=0.0):
    seats = [{**_weights(gen, temperature if i % 2 else 0.0), **m} for i, m in enumerate(memory)]
    return scenario(n, ("learned",) * (n - 1) + ("planner",), seat_params=seats + [{}], params=params)


@pytest.mark.parametrize(
    "memory, params",
    [
        ([{}, {}, {}], None),
        (LADDER[:3], {"decks_moved": True}),
        (LADDER[1:], {"deck_view": "size", "decks_moved": True, "decks_moved_seen": False}),
        ([{"knows_magnets": 0.0}, {"recall_own": 0.5, "recall_table": 0.5}, {"knows_magnets": 0.0}], None),
    ],
)
def test_m1_learned_never_reads_what_its_seat_has_not_seen(memory, params):
    gen = np.random.default_rng(7)
    sc = _table(gen, 4, memory, params, temperature=0.5)
    checked, changed = hidden_check(sc, gen, games=6)
    assert checked > 200 and changed == 0


def leaky(sid, sp_row, row_w, st, prm, mask, nl, rng, seat, scratch, marker):
    """The learned choice plus a deliberate leak: searching the deck that really holds the garment (S_DECK, which no
    seat sees) is always chosen."""
    if sid == S.S_LEARNED:
        b = st[R.S_GPOS + seat]
        gm = prm[R.P_GARMENT_AT + b] if b >= 0 else -1
        if gm >= 0 and mask[R.A_SEARCH]:
            for k in range(R.N_DECKS):
                if st[R.S_DECK + k * R.N_PARTS + gm // R.PER_PART] == gm:
                    return R.A_SEARCH + k
    return decide_any(sid, sp_row, row_w, st, prm, mask, nl, rng, seat, scratch, marker)


def test_m1_the_permutation_test_fails_on_a_deliberate_leak():
    gen = np.random.default_rng(7)
    sc = _table(gen, 4, [{}, {}, {}])
    checked, changed = hidden_check(sc, gen, decide=leaky, games=6)
    assert checked > 200 and changed > 0


class FeatureProbe:
    """A `decide` for `hidden_check` that records, at every learned decision, the features of each legal action
    (`features._fill`, the kernel's own code) before deciding: hidden_check asks on the re-dealt copy first, then on
    the true state, so consecutive records are pairs that must be equal. ``leak(st, seat)``: a deliberately leaky
    value added to the last feature (to show the probe catches one)."""

    def __init__(self, leak=None):
        self.rows: list = []
        self.leak = leak

    def __call__(self, sid, sp_row, row_w, st, prm, mask, nl, rng, seat, scratch, marker):
        if sid == S.S_LEARNED:
            out = np.zeros((R.N_ACTIONS, F.N_FEATURES))
            sc = scratch
            F._fill(st, prm, row_w, mask, out, marker, sc.work, sc.base, sc.cur, sc.keys, sc.probs, sc.near)
            if self.leak is not None:
                out[mask != 0, -1] += self.leak(st, seat)
            self.rows.append(out)
        return decide_any(sid, sp_row, row_w, st, prm, mask, nl, rng, seat, scratch, marker)

    def changed(self) -> int:
        """Pairs (re-dealt, true) whose features differ anywhere."""
        return sum(not np.array_equal(a, b) for a, b in zip(self.rows[0::2], self.rows[1::2]))


@pytest.mark.parametrize(
    "memory, params",
    [
        ([{}, {}, {}], None),
        ([{"knows_magnets": 0.0}, LADDER[3], LADDER[2]], {"deck_view": "size", "decks_moved": True}),
    ],
)
def test_m1_no_learned_feature_reads_what_its_seat_has_not_seen(memory, params):
    """Stricter than the decision, which a feature with a small weight rarely changes: every feature of every legal
    action is the same when what the seat has not seen is dealt again."""
    gen = np.random.default_rng(11)
    probe = FeatureProbe()
    hidden_check(_table(gen, 4, memory, params), gen, decide=probe, games=4)
    assert len(probe.rows) // 2 > 100 and probe.changed() == 0


def test_m1_the_feature_probe_fails_on_a_deliberate_leak():
    """A feature that reads which garments lie in the deck at place 0 (S_CARD_LOC's deck, which no seat sees until
    it searches there) changes under the re-deal."""

    def leak(st, seat):
        return sum(gm for gm in range(R.N_GARMENTS) if st[R.S_CARD_LOC + gm] == 0)

    gen = np.random.default_rng(11)
    probe = FeatureProbe(leak)
    hidden_check(_table(gen, 4, [{}, {}, {}]), gen, decide=probe, games=2)
    assert len(probe.rows) > 40 and probe.changed() > 0


def _play(sc, sp=None, learned=True, games=30):
    n = sc.players
    scratch = PL.batch_scratch(n, sc.prm(), learned=learned)
    return play_games(
        PL.play_batch, scratch, 1, 0, 0, games, n, sc.prm(), sc.sids(), sc.sparams() if sp is None else sp, PL.N_EXTRA
    )


@pytest.mark.parametrize("n", [2, 4])
def test_s7_learned_plays_only_legal_actions_with_any_weights(n):
    """Every game of a learned table with random weights (greedy and sampled) ends done or truncated at the turn cap:
    an illegal action would be status ST_BAD_ACTION."""
    gen = np.random.default_rng(n)
    sc = scenario(n, ("learned",), params={"max_turns": 120})
    sp = sc.sparams()
    for i in range(n):
        sp[i, : F.N_LEARNED_PARAMS] = [0.5 * (i % 2)] + list(gen.uniform(-3.0, 3.0, F.N_FEATURES))
    status = _play(sc, sp).status
    assert set(np.unique(status)) <= {PL.ST_DONE, PL.ST_TRUNCATED}


def test_s7_learned_weights_and_memory_come_from_the_parameter_row():
    """Two weight rows play different games, the same row the same games (nothing compiled in); the memory columns
    after the weights reach the seat's effective row (memory.py draws what it remembers from them) and change play."""
    gen = np.random.default_rng(1)
    a, b = _weights(gen), _weights(gen)
    ra = _play(scenario(4, ("learned",), seat_params=[a] * 4))
    rb = _play(scenario(4, ("learned",), seat_params=[b] * 4))
    ra2 = _play(scenario(4, ("learned",), seat_params=[dict(a)] * 4))
    assert not np.array_equal(ra.scores, rb.scores)
    assert all(np.array_equal(x, y) for x, y in zip(ra, ra2))
    forget = scenario(4, ("learned",), seat_params=[{**a, "recall_own": 0.0, "recall_table": 0.0}] * 4)
    rows = np.zeros((4, S.N_SPARAMS))
    S.effective_rows(forget.sids(), forget.sparams(), rows)
    F.learned_rows(forget.sids(), forget.sparams(), rows)
    assert (rows[:, :2] == 0.0).all() and (rows[:, S.W_MAGNETS] == 1.0).all()
    assert (rows[:, S.W_FIND : S.W_FIND + len(S.PLANNER_W)] == S.PLANNER_W).all()
    assert not np.array_equal(_play(forget).scores, ra.scores)


def test_s7_a_scratch_without_the_learned_marker_refuses_a_learned_seat():
    """A kernel compiled without the learned policy (every scenario without a learned seat) never plays a learned
    seat silently: its decision is refused (ST_BAD_ACTION)."""
    out = _play(scenario(4, ("learned",)), learned=False, games=3)
    assert (out.status == PL.ST_BAD_ACTION).all()


def test_x3_search_with_learned_rollouts_plays():
    """`rollout = "learned"` is one of search's rollout choices: its rollout rows carry the learned weights and the
    search seat's memory after them, and it plays whole games."""
    from sim.model.scenario import from_dict
    from sim.model.search import rollout_seats, search_scratch

    sc = from_dict(
        {
            "scenario": {"game": "turnwall", "players": 4, "games": 2, "seed": 1},
            "seats": [{"strategy": "search", "params": {"budget": 4, "rollout": "learned", "recall_own": 0.5}}]
            + [{"strategy": "planner"}] * 3,
        }
    )
    sids, sparams = rollout_seats(sc)
    assert sids[0] == S.S_LEARNED and sparams[0, F.MEMORY_COL] == 0.5 and sparams[0, F.MEMORY_COL + 1] == 1.0
    prm = sc.prm()
    out = play_games(
        PL.play_batch, PL.batch_scratch(4, prm, learned=True), 1, 0, 0, 2, 4, prm, sc.sids(), sc.sparams(),
        PL.N_EXTRA, search=search_scratch(sc, PL, prm=prm),
    )  # fmt: skip
    assert set(np.unique(out.status)) <= {PL.ST_DONE, PL.ST_TRUNCATED}


class NextProbe:
    """A `decide` for `hidden_check` (greedy learned seats: with a weight on ``next`` 0 their decisions skip computing
    it, otherwise they compute it only where it may change the pick, `features.greedy_ahead`): at every learned
    decision, every feature of every legal action (`features._fill`, ``next`` always computed), the decision those
    features and the seat's weights give (summed in feature order, ties to the lower action), and, where the seat may
    end its turn, the planner's best whole turn from where it stands (S2, S3, the search never cut short)."""

    def __init__(self):
        self.decisions = self.differ = self.ends = self.wrong_next = 0

    def __call__(self, sid, sp_row, row_w, st, prm, mask, nl, rng, seat, scratch, marker):
        a = decide_any(sid, sp_row, row_w, st, prm, mask, nl, rng, seat, scratch, marker)
        if sid != S.S_LEARNED:
            return a
        sc = scratch
        out = np.zeros((R.N_ACTIONS, F.N_FEATURES))
        F._fill(st, prm, row_w, mask, out, marker, sc.work, sc.base, sc.cur, sc.keys, sc.probs, sc.near)
        best, best_a = -np.inf, -1
        for b in np.flatnonzero(mask):
            s = 0.0
            for i in range(F.N_FEATURES):
                s += sp_row[1 + i] * out[b, i]
            if s > best:
                best, best_a = s, int(b)
        self.decisions += 1
        self.differ += best_a != a
        if mask[R.A_END] and st[R.S_PHASE] != R.PH_PLACE:
            end = st.copy()
            end[R.S_MOVES_LEFT] = prm[R.P_MOVES]
            v = S.plan_search(end, prm, row_w, sc.work, sc.base, sc.cur, sc.keys, sc.probs, sc.near, np.inf)[0]
            if v < -1e17:
                v = S.score(end, end, 0, prm, int(st[R.S_CUR]), row_w, sc.probs, sc.near, 0)
            self.ends += 1
            self.wrong_next += out[R.A_END, -1] != max(v, F.PLAN_FLOOR)
        return a


@pytest.mark.parametrize("w_next", [0.0, 0.7, -0.7, 3.0])
def test_s7_next_is_the_best_next_turn_and_a_greedy_policy_decides_as_the_full_features(w_next):
    """Feature ``next`` of ending the turn is the planner's value of the best whole turn from where the ghost
    stands (its search stopped early at `features.top_cell` gives the same value); a greedy policy decides exactly as
    the full features say, whether its weight on ``next`` is 0 (it does not compute it: `learned_choice`'s
    ``ahead``) or not (it computes it only for the actions whose bound may still beat the best score)."""
    gen = np.random.default_rng(5)
    seats = [{**_weights(gen), "w_next": w_next} for _ in range(3)]
    sc = scenario(4, ("learned",) * 3 + ("planner",), seat_params=seats + [{}])
    probe = NextProbe()
    hidden_check(sc, gen, decide=probe, games=3)
    assert probe.decisions > 100 and probe.differ == 0
    assert probe.ends > 10 and probe.wrong_next == 0
