"""Turnwall's search player: what it sees (sample_hidden, kernels/turnwall/hidden.py), its memory parameters, and the
hidden-information permutation test of the search decision (issue 22: "Turnwall's search respects the seat's memory
parameters"; the test fails on a deliberate leak)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kernels.rng import N_STREAMS_MAX, seed_game
from kernels.search import N_SEARCH_PARAMS
from kernels.turnwall import play, step
from kernels.turnwall import rules as R
from kernels.turnwall import strategies as S
from kernels.turnwall.hidden import knows_order
from tests.kernels.search_kit import cut_game, leaky

REPO = Path(__file__).resolve().parents[3]
ROW = 3  # the re-deal's stream in these tests (any row)
KNOW = R.N_DECKS * R.N_PARTS


def _streams(seed):
    rng = np.zeros((N_STREAMS_MAX, 4), np.uint64)
    seed_game(rng, np.uint64(seed), np.uint64(0), np.int64(0), np.int64(4))
    return rng


def _scenario(seats):
    """scenarios/turnwall/4p.toml with these seats ([(strategy, params)] x 4)."""
    from sim.model.scenario import Seat, load

    sc = load(REPO / "scenarios/turnwall/4p.toml")
    return sc.with_changes(seats=tuple(Seat(s, dict(p)) for s, p in seats))


def _mid_game(sc, cap, g=5):
    """(state, batch scratch, prm) of game ``g`` of ``sc`` cut at the start of turn ``cap``."""
    batch, prm = cut_game(sc, play, R.P_MAX_TURNS, cap, g, seed=11)
    return batch.work.st.copy(), batch, prm


def _redeal(st, seat, seed, ws):
    st2 = st.copy()
    assert step.sample_hidden(st2, np.int64(seat), None, _streams(seed), np.int64(ROW), ws) > 0
    return st2


def _hidden_swap(st, seat):
    """``st`` with two garments of one part exchanged between two deck slots the seat has not seen (the other
    seats' memories following them) and the order under its top reversed of each deck the seat did not search: a
    state that differs from ``st`` only in what ``seat`` does not know."""
    st2 = st.copy()
    for p in range(R.N_PARTS):
        ks = [
            k
            for k in range(R.N_DECKS)
            if st[R.S_DECK + k * R.N_PARTS + p] >= 0 and st[R.S_KNOW + seat * KNOW + k * R.N_PARTS + p] == R.KNOW_UNSEEN
        ]
        for a in ks:
            for b in ks:
                ga, gb = int(st[R.S_DECK + a * R.N_PARTS + p]), int(st[R.S_DECK + b * R.N_PARTS + p])
                ex = R.S_EXCL + seat * R.N_GARMENTS
                if a < b and not (st[ex + ga] >> b) & 1 and not (st[ex + gb] >> a) & 1:
                    st2[R.S_DECK + a * R.N_PARTS + p], st2[R.S_DECK + b * R.N_PARTS + p] = gb, ga
                    st2[R.S_CARD_LOC + ga], st2[R.S_CARD_LOC + gb] = b, a
                    for o in range(4):
                        for k, g in ((a, gb), (b, ga)):
                            kn = R.S_KNOW + o * KNOW + k * R.N_PARTS + p
                            if o != seat and st2[kn] >= 0:
                                st2[kn] = g
                    for k in range(R.N_DECKS):  # the order under the top, reversed (not one the seat saw: X1)
                        if knows_order(st, seat, k):
                            continue
                        held = [q for q in range(R.N_PARTS) if st2[R.S_DECK + k * R.N_PARTS + q] >= 0]
                        held.sort(key=lambda q: st2[R.S_RANK + k * R.N_PARTS + q])
                        for i, q in enumerate(held[:1] + held[1:][::-1]):
                            st2[R.S_RANK + k * R.N_PARTS + q] = i
                    return st2
    raise AssertionError("no two unseen slots of one part to exchange")


PLANNERS = [("planner", {})] * 4


def test_sample_hidden_is_canonical_two_states_differing_only_in_hidden_arrangement_give_the_same_re_deal():
    st, ws, prm = _mid_game(_scenario(PLANNERS), 8)
    seat = int(st[R.S_CUR])
    other = _hidden_swap(st, seat)
    assert not np.array_equal(other, st)
    for seed in range(4):
        assert np.array_equal(_redeal(st, seat, seed, ws), _redeal(other, seat, seed, ws))


def test_sample_hidden_of_a_seat_that_forgot_the_table_re_deals_which_decks_hold_each_part_as_the_view_allows():
    """M4/M6: a seat with recall (0, 0) remembers no search; it sees only the deck sizes, their top backs and the
    cards taken, so the holding pattern (which decks lost which parts) is re-dealt, within what the view shows."""
    seats = [("planner", {"recall_own": 0.0, "recall_table": 0.0})] + PLANNERS[1:]
    seat = 0
    undecided = 0  # positions whose view leaves more than one holding pattern (the view decides some of them)
    for g in (5, 6, 7):
        st, ws, prm = _mid_game(_scenario(seats), 12, g)
        assert (st[R.S_KNOW + seat * KNOW : R.S_KNOW + (seat + 1) * KNOW] == R.KNOW_UNSEEN).all()
        patterns = set()
        for seed in range(12):
            st2 = _redeal(st, seat, seed, ws)
            for k in range(R.N_DECKS):  # what the table shows now is kept
                assert R.deck_size(st2, k) == R.deck_size(st, k)
                assert R.top_back(st2, k) == R.top_back(st, k)
            assert np.array_equal(
                st2[R.S_CARD_LOC : R.S_CARD_LOC + 20] >= R.LOC_SEAT, st[R.S_CARD_LOC : R.S_CARD_LOC + 20] >= R.LOC_SEAT
            )
            assert R.check_invariants(st2, prm) == 0
            patterns.add(tuple(st2[R.S_DECK : R.S_DECK + 20] >= 0))
        undecided += len(patterns) > 1
    assert undecided > 0


def test_sample_hidden_other_seats_keep_only_the_exclusions_the_seat_s_memory_implies():
    """The gap named in issue 22: another seat's exclusions that the searching seat forgot must not survive the
    re-deal (they would tell it what it cannot know); those its memory implies stay."""
    seats = [("planner", {"recall_own": 0.0, "recall_table": 0.0})] + PLANNERS[1:]
    st, ws, prm = _mid_game(_scenario(seats), 16)
    assert st[R.S_EXCL + R.N_GARMENTS : R.S_EXCL + 4 * R.N_GARMENTS].any()  # the others remember failed searches
    st2 = _redeal(st, 0, 1, ws)
    assert not st2[R.S_EXCL + R.N_GARMENTS : R.S_EXCL + 4 * R.N_GARMENTS].any()  # seat 0 knows none of them
    st, ws, prm = _mid_game(_scenario(PLANNERS), 16)
    st2 = _redeal(st, 0, 1, ws)
    for o in (1, 2, 3):  # a seat that remembers the table knows each failed search they know (or the deck itself)
        ex = slice(R.S_EXCL + o * R.N_GARMENTS, R.S_EXCL + (o + 1) * R.N_GARMENTS)
        assert np.array_equal(st2[ex], st[ex])


def test_effective_rows_a_search_seat_s_memory_comes_from_its_search_extras():
    sids = np.array([S.SEARCH_SID, S.S_PLANNER], np.int64)
    sp = np.zeros((2, S.N_SPARAMS))
    sp[0, :3] = (64, 0.7, 0)  # budget, explore, rollout
    sp[0, N_SEARCH_PARAMS : N_SEARCH_PARAMS + 2] = (0.25, 0.5)  # recall_own, recall_table
    sp[1, :3] = (1.0, 1.0, 1.0)
    out = np.zeros((2, S.N_SPARAMS))
    S.effective_rows(sids, sp, out)
    assert list(out[0, :3]) == [0.25, 0.5, 1.0] and not out[0, 3:].any()
    assert out[1, 0] == 1.0


def test_rollout_seats_a_search_seat_s_rollout_planner_has_the_seat_s_memory():
    from sim.model.search import rollout_seats

    sc = _scenario([("search", {"recall_own": 0.5, "recall_table": 0.0, "rollout": "spoiler"})] + PLANNERS[1:])
    sids, sp = rollout_seats(sc)
    assert sids[0] == S.S_SPOILER and list(sp[0, :3]) == [0.5, 0.0, 1.0]


def test_a_search_seat_s_bad_memory_value_is_one_clear_line():
    from sim.model.errors import ScenarioError
    from sim.model.scenario import from_dict

    seats = [{"strategy": "search", "params": {"budget": 8, "recall_table": 1.5}}] + [{"strategy": "planner"}] * 3
    doc = {"scenario": {"game": "turnwall", "players": 4, "games": 1, "seed": 1}, "seats": seats}
    good = [{"strategy": "search", "params": {"budget": 8, "recall_table": 0.5, "rollout": "spoiler"}}] + seats[1:]
    assert from_dict({**doc, "seats": good}, name="ok").seats[0].params["recall_table"] == 0.5
    with pytest.raises(ScenarioError) as e:
        from_dict(doc, name="bad")
    assert "recall_table" in str(e.value) and "\n" not in str(e.value)


# ---- the hidden-information permutation test of the search decision ----------------------------------------------
def _leaky_play_batch():
    """Turnwall's loop bound with a `sample_hidden` that re-deals nothing: rollouts read the true decks."""
    return leaky(play, step, "turnwall_leak").play_batch


def _decide(pb, sc, st, prm, budget=24):
    """(chosen action, visits, wins) of the search decision of the seat to act in ``st`` (fresh scratch)."""
    from sim.model.search import search_scratch

    n = sc.players
    seat = int(st[R.S_CUR])
    seats = list(sc.seats)
    seats[seat] = type(seats[seat])("search", {"budget": budget})
    sc2 = sc.with_changes(seats=tuple(seats))
    ws = play.batch_scratch(n, prm)
    st2 = ws.work.st
    st2[:] = st
    nl = step.legal_actions(st2, prm, ws)
    assert nl > 1
    search = search_scratch(sc2, play, 1, prm)
    a = pb.search_decide(search, st2, prm, n, seat, sc2.sparams(), seed=77, game=0)
    return int(a), search.visits.copy(), search.wins.copy()


@pytest.mark.parametrize("memory", [{}, {"recall_own": 0.5, "recall_table": 0.5}], ids=["perfect", "half"])
def test_search_decision_depends_only_on_what_the_seat_knows_and_a_leak_breaks_it(memory):
    sc = _scenario([("planner", memory)] * 4)
    leaky = _leaky_play_batch()
    caught = 0  # positions where the leak changes the decision (it need not in every one)
    for g in (5, 6):
        st, ws, prm = _mid_game(sc, 9, g)
        seat = int(st[R.S_CUR])
        other = _redeal(st, seat, 12345, ws)  # the same table, the same memory of ``seat``; the rest re-dealt
        assert not np.array_equal(other[R.S_DECK : R.S_DECK + 20], st[R.S_DECK : R.S_DECK + 20])
        a1, v1, w1 = _decide(play.play_batch, sc, st, prm)
        a2, v2, w2 = _decide(play.play_batch, sc, other, prm)
        assert v1.sum() == 24 and (a1, list(v1), list(w1)) == (a2, list(v2), list(w2))
        b1 = _decide(leaky, sc, st, prm)
        b2 = _decide(leaky, sc, other, prm)
        caught += (b1[0], list(b1[1]), list(b1[2])) != (b2[0], list(b2[1]), list(b2[2]))
    assert caught > 0


def test_action_name_names_every_action_kind_as_rules_md_lists_them():
    from sim.games.turnwall import action_name

    names = [action_name(a) for a in range(R.N_ACTIONS)]
    assert len(set(names)) == R.N_ACTIONS
    assert names[R.A_DRAG + 1] == "drag east" and names[R.A_SLIDE + 3] == "pull slider 1 out"
    assert names[R.A_SHIFT + R.SHIFT_PER_SLIDER + 2 * R.DEPTHS + 1] == "move slider 1 to tunnel 2, 1 segment out"
    assert names[R.A_TURN + 1] == "turn the board anticlockwise" and names[R.A_PLACE + 8] == "place the ghost on [1, 1]"
    assert names[R.A_SEARCH + 2] == "search deck 2" and names[R.A_END] == "end the turn"


# ---- issue 35: what the seat saw survives the re-deal; what the rivals remember is not copied --------------------
def _ordered(st, k):
    """Deck ``k``'s garments from the top down."""
    held = [q for q in range(R.N_PARTS) if st[R.S_DECK + k * R.N_PARTS + q] >= 0]
    return [int(st[R.S_DECK + k * R.N_PARTS + q]) for q in sorted(held, key=lambda q: st[R.S_RANK + k * R.N_PARTS + q])]


def test_x1_a_seat_knows_the_order_of_a_deck_only_when_it_saw_every_card_it_holds():
    """`knows_order` (M2, C8): a seat whose memory of a deck holds a garment searched that deck and saw every card it
    still holds (cards only leave a deck), so it knows their order."""
    known = 0
    for cap in (8, 12, 16):
        st, ws, prm = _mid_game(_scenario(PLANNERS), cap)
        for s in range(4):
            for k in range(R.N_DECKS):
                if knows_order(st, s, k):
                    known += 1
                    for p in range(R.N_PARTS):
                        g = st[R.S_DECK + k * R.N_PARTS + p]
                        if g >= 0:
                            assert st[R.S_KNOW + s * KNOW + k * R.N_PARTS + p] == g
    assert known >= 6


def test_x1_the_order_of_a_deck_the_seat_searched_survives_the_re_deal():
    """M2, C8: the searcher saw the deck's order and the deck goes back unchanged: every re-deal keeps the order of
    a deck it searched (before issue 35 all but the top were shuffled); the order of the others is re-dealt."""
    kept = 0
    shuffled = set()
    for cap in (12, 16):
        st, ws, prm = _mid_game(_scenario(PLANNERS), cap)
        seat = int(st[R.S_CUR])
        mine = [k for k in range(R.N_DECKS) if knows_order(st, seat, k) and R.deck_size(st, k) >= 2]
        others = [k for k in range(R.N_DECKS) if not knows_order(st, seat, k) and R.deck_size(st, k) >= 3]
        for seed in range(8):
            st2 = _redeal(st, seat, seed, ws)
            for k in mine:
                kept += 1
                assert _ordered(st2, k) == _ordered(st, k)
            shuffled.update((cap, k, tuple(_ordered(st2, k))) for k in others)
    assert kept >= 8
    assert len(shuffled) > len({(c, k) for c, k, _ in shuffled})  # some unseen deck's order varied


def test_x2_rivals_that_forget_get_a_memory_drawn_from_the_public_record_not_the_true_one():
    """Issue 35: with imperfect memory (recall 0.5) which slots a rival remembers is its own random draw, unknown to
    the searching seat; the re-deal must not copy it. Two states differing only in the rivals' memories give the
    same re-deal, and a rival remembers only slots of decks the table saw it search (S_SEARCHED) or slots the seat
    knows empty, and only exclusions the seat's memory implies."""
    half = {"recall_own": 0.5, "recall_table": 0.5}
    st, ws, prm = _mid_game(_scenario([("planner", half)] * 4), 16)
    seat = int(st[R.S_CUR])
    rivals = [o for o in range(4) if o != seat]
    assert any((st[R.S_KNOW + o * KNOW : R.S_KNOW + (o + 1) * KNOW] != R.KNOW_UNSEEN).any() for o in rivals)
    assert st[R.S_SEARCHED] != 0
    other = st.copy()  # the rivals remember nothing at all: a state the seat cannot tell from st
    for o in rivals:
        other[R.S_KNOW + o * KNOW : R.S_KNOW + (o + 1) * KNOW] = R.KNOW_UNSEEN
        other[R.S_EXCL + o * R.N_GARMENTS : R.S_EXCL + (o + 1) * R.N_GARMENTS] = 0
    remembered = 0
    for seed in range(8):
        a = _redeal(st, seat, seed, ws)
        assert np.array_equal(a, _redeal(other, seat, seed, ws))
        for o in rivals:
            for k in range(R.N_DECKS):
                searched = (st[R.S_SEARCHED] >> (o * R.N_DECKS + k)) & 1
                for p in range(R.N_PARTS):
                    v = a[R.S_KNOW + o * KNOW + k * R.N_PARTS + p]
                    if v != R.KNOW_UNSEEN:
                        remembered += 1
                        assert searched or st[R.S_KNOW + seat * KNOW + k * R.N_PARTS + p] == R.KNOW_EMPTY
    assert remembered > 0


def test_m3_the_table_records_who_searched_which_deck_and_moves_it_with_the_decks():
    """S_SEARCHED (M3, the re-deal's record): a seat with perfect memory that the table saw search a deck remembers
    every slot of it; a moved deck (C11) takes the record along when the table follows it, else the record is lost."""
    from kernels.turnwall.memory import observe_swap

    seen = 0
    for cap in (10, 16):
        st, ws, prm = _mid_game(_scenario(PLANNERS), cap)
        for o in range(4):
            for k in range(R.N_DECKS):
                if (st[R.S_SEARCHED] >> (o * R.N_DECKS + k)) & 1:
                    seen += 1
                    assert (
                        st[R.S_KNOW + o * KNOW + k * R.N_PARTS : R.S_KNOW + o * KNOW + (k + 1) * R.N_PARTS] != -2
                    ).all()
    assert seen >= 4
    st = st.copy()
    st[R.S_SEARCHED] = 1 << (2 * R.N_DECKS + 0)  # seat 2 searched deck 0
    st[R.S_TRACKED] = 1
    observe_swap(st, 1, 0, 3)
    assert st[R.S_SEARCHED] == 1 << (2 * R.N_DECKS + 3)
    st[R.S_TRACKED] = 0
    observe_swap(st, 1, 3, 1)
    assert st[R.S_SEARCHED] == 0
