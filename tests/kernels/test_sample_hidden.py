"""`sample_hidden(st, seat, prm, rng, row, ws)` of every game (its step.py): a search player's determinisation.
After a re-deal what the seat saw is unchanged, the hidden part is a valid re-deal (the same multiset of
components, the state's invariants), it draws only from stream ``row`` of the rng passed in, and it does re-deal
(different seeds give different hidden parts)."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

from kernels import loop
from kernels.rng import N_STREAMS_MAX, seed_game
from tests.kernels.search_kit import cut_game

REPO = Path(__file__).resolve().parents[2]
ROW = 3  # the searching seat's stream in these tests (any row)


def _scenario(path, random_seats=True):
    from sim.model.scenario import load

    sc = load(REPO / path)
    if random_seats:
        sc = sc.with_changes(seats=tuple(type(s)("random", {}) for s in sc.seats))
    return sc, importlib.import_module(sc.spec.kernel_module)


def _mid_game(sc, k, cap_slot, cap, g=3):
    """(batch scratch, prm) of game ``g`` cut at turn ``cap`` (a truncated game stops before the next turn)."""
    return cut_game(sc, k, cap_slot, cap, g)


def _streams(seed):
    rng = np.zeros((N_STREAMS_MAX, 4), np.uint64)
    seed_game(rng, np.uint64(seed), np.uint64(0), np.int64(0), np.int64(4))
    return rng


def _resample(step, st, seat, prm, seed, ws):
    """(re-dealt copy of ``st``, rng before, rng after) with streams of ``seed``."""
    rng = _streams(seed)
    before = rng.copy()
    st2 = st.copy()
    step.sample_hidden(st2, np.int64(seat), prm, rng, np.int64(ROW), ws)
    return st2, before, rng


def _only_row_moved(before, after):
    others = [r for r in range(N_STREAMS_MAX) if r != ROW]
    return np.array_equal(before[others], after[others]) and not np.array_equal(before[ROW], after[ROW])


# ---- Ghosts of the Moor -------------------------------------------------------------------------------------------
def test_moor_sample_hidden_reshuffles_only_the_sealed_covered_tiles():
    from kernels.moor import rules as R
    from kernels.moor import step

    sc, k = _scenario("scenarios/moor/4p.toml")
    batch, prm = _mid_game(sc, k, R.P_MAX_TURNS, 10)
    st = batch.st.copy()
    sealed = [s for s in range(1, R.GREEN_SPACES + 1) if (st[R.S_SEALED] >> s) & 1]
    assert 0 < len(sealed) < R.GREEN_SPACES  # some dealt stacks already opened, some still sealed
    assert all(st[R.S_HEIGHT + s] == 2 for s in sealed)
    places = [R.S_STACK + s * R.STACK for s in sealed]
    hidden = sorted(int(st[p]) for p in places)
    seen = np.ones(R.S_SIZE, bool)
    seen[places] = False
    seen[[R.S_TILE_LOC + t for t in hidden]] = False
    deals = set()
    for seed in range(8):
        st2, before, after = _resample(step, st, 0, prm, seed, batch)
        assert np.array_equal(st2[seen], st[seen])  # tops, heights, holdings, pawns: what every seat saw
        assert sorted(int(st2[p]) for p in places) == hidden  # the same tiles, re-dealt
        for s in sealed:
            t = st2[R.S_STACK + s * R.STACK]
            assert st2[R.S_TILE_LOC + t] == R.LOC_SPACE + s
        assert _only_row_moved(before, after)
        deals.add(tuple(int(st2[p]) for p in places))
        st3, _, _ = _resample(step, st, 2, prm, seed, batch)
        assert np.array_equal(st3, st2)  # every seat sees the same in Moor
    assert len(deals) > 1
    # a re-dealt state is a state the game can go on from: rollouts from it end normally
    st2, _, _ = _resample(step, st, 0, prm, 1, batch)
    from kernels.batch import play_games

    scratch, n_extra = k.batch_scratch(sc.players, prm), len(sc.spec.extra_columns)
    out = play_games(k.play_batch, scratch, 1, 0, 0, 4, sc.players, prm, sc.sids(), sc.sparams(), n_extra, resume=st2)
    assert (out.status == loop.ST_DONE).all()


def test_moor_a_tile_beneath_a_discarded_pair_is_not_hidden():
    """R4: only a dealt bottom tile is unseen; once its space's top is taken the space is unsealed for good, and a
    pair discarded there later (seen while held) is never re-dealt."""
    from kernels.moor import rules as R
    from kernels.moor import step
    from tests.kernels.moor._kit import new_state, put

    st, prm, _ = new_state(4)
    assert st[R.S_SEALED] == sum(1 << s for s in range(1, R.GREEN_SPACES + 1))
    R.pop_tile(st, 3)
    assert not (st[R.S_SEALED] >> 3) & 1 and (st[R.S_SEALED] >> 4) & 1
    R.pop_tile(st, 3)
    put(st, prm, 3, [0, 1])  # a pair lands on the emptied space
    ws = importlib.import_module("kernels.moor.play").batch_scratch(4)
    for seed in range(6):
        st2, _, _ = _resample(step, st, 0, prm, seed, ws)
        assert st2[R.S_STACK + 3 * R.STACK] == 0 and st2[R.S_STACK + 3 * R.STACK + 1] == 1


def _varies(deals):
    assert len(set(deals)) > 1, "every seed gave the same re-deal"


# ---- Treasure Hunters ---------------------------------------------------------------------------------------------
def _th_state(path, cap=12):
    from kernels.treasure_hunters import rules as R

    sc, k = _scenario(path)
    batch, prm = _mid_game(sc, k, R.P_MAX_TURNS, cap)
    return sc, batch, prm, batch.st.copy()


def test_treasure_hunters_sample_hidden_re_deals_face_down_jewels_and_the_pile():
    from kernels.treasure_hunters import rules as R
    from kernels.treasure_hunters import step

    sc, batch, prm, st = _th_state("scenarios/treasure_hunters/advanced-4p.toml")
    jewels = [j for j in range(R.N_JEWELS) if st[R.S_JREV + j] == 0 and st[R.S_JLOC + j] >= 0]
    pile = list(range(R.S_DRAW, R.S_DRAW + int(st[R.S_NDRAW])))
    assert len(jewels) >= 2 and len(pile) >= 2
    seen = np.ones(R.S_SIZE, bool)
    seen[[R.S_JNUM + j for j in jewels]] = False
    seen[pile] = False
    deals = []
    for seed in range(6):
        st2, before, after = _resample(step, st, 1, prm, seed, batch)
        assert np.array_equal(st2[seen], st[seen])  # card locations too: a pile card stays in the pile
        assert sorted(st2[[R.S_JNUM + j for j in jewels]]) == sorted(st[[R.S_JNUM + j for j in jewels]])
        assert sorted(st2[pile]) == sorted(st[pile])
        assert R.check_invariants(st2, prm) == 0
        assert _only_row_moved(before, after)
        deals.append(tuple(st2[[R.S_JNUM + j for j in jewels]]) + tuple(st2[pile]))
    _varies(deals)


def test_treasure_hunters_a_hunter_does_not_see_the_head_haunters_hand_and_the_haunter_does():
    from kernels.treasure_hunters import rules as R
    from kernels.treasure_hunters import step

    sc, batch, prm, st = _th_state("scenarios/treasure_hunters/head_haunter-4p.toml")
    hand = list(range(R.S_HAND, R.S_HAND + int(st[R.S_HAND_N])))
    pile = list(range(R.S_DRAW, R.S_DRAW + int(st[R.S_NDRAW])))
    assert hand and len(pile) >= 2
    cards = sorted(st[hand + pile])
    moved_hand = False
    for seed in range(8):
        haunter, _, _ = _resample(step, st, 0, prm, seed, batch)
        assert np.array_equal(haunter[hand], st[hand])  # seat 0 holds the hand: it stays
        hunter, _, _ = _resample(step, st, 2, prm, seed, batch)
        assert sorted(hunter[hand + pile]) == cards
        assert all(hunter[R.S_CLOC + c] == R.CL_HAND for c in hunter[hand])
        assert all(hunter[R.S_CLOC + c] == R.CL_DRAW for c in hunter[pile])
        assert R.check_invariants(hunter, prm) == 0
        moved_hand |= not np.array_equal(hunter[hand], st[hand])
    assert moved_hand


@pytest.mark.parametrize(
    "path, seat",
    [
        ("scenarios/treasure_hunters/advanced-4p.toml", 1),  # face-down numbers and the pile
        ("scenarios/treasure_hunters/head_haunter-4p.toml", 2),  # a hunter: the pile and the Head Haunter's hand
        ("scenarios/treasure_hunters/head_haunter-4p.toml", 0),  # the Head Haunter: the pile only
    ],
)
def test_treasure_hunters_sample_hidden_is_canonical(path, seat):
    """Two true states that differ only in what ``seat`` cannot see give the same re-deal on the same stream (the
    hidden items are gathered in an order read from the seat's view, not in their true order)."""
    from kernels.treasure_hunters import step

    sc, batch, prm, st = _th_state(path)
    other, _, _ = _resample(step, st, seat, prm, 99, batch)
    assert not np.array_equal(other, st)
    for seed in range(4):
        a, _, _ = _resample(step, st, seat, prm, seed, batch)
        b, _, _ = _resample(step, other, seat, prm, seed, batch)
        assert np.array_equal(a, b), seed


def test_treasure_hunters_sample_hidden_re_deals_face_down_numbers_off_the_board():
    """Basic game: a jewel is never turned up, so the numbers of carried and delivered jewels are as hidden as those
    lying in rooms: every number is re-dealt."""
    from kernels.treasure_hunters import rules as R
    from kernels.treasure_hunters import step

    sc, batch, prm, st = _th_state("scenarios/treasure_hunters/basic-4p.toml")
    st[R.S_JLOC + 0] = R.J_WAGON  # a delivered jewel, face down
    seen = set()
    for seed in range(8):
        st2, _, _ = _resample(step, st, 1, prm, seed, batch)
        assert sorted(st2[R.S_JNUM : R.S_JNUM + R.N_JEWELS]) == list(range(1, 9))
        seen.add(int(st2[R.S_JNUM + 0]))
    assert len(seen) > 1


# ---- Ghostly Galleon ----------------------------------------------------------------------------------------------
def test_galleon_sample_hidden_re_deals_what_a_seat_cannot_see():
    from kernels.galleon import rules as R
    from kernels.galleon import step

    sc, k = _scenario("scenarios/galleon/4p.toml")
    batch, prm = _mid_game(sc, k, R.P_MAX_TURNS, 12)
    st = batch.work.st.copy()
    seat = 1
    hidden = [t for t in range(R.N_TILES) if t != R.T_PARROT and st[R.S_LOC + t] != seat]
    cabins = [c for c in range(6) if not (st[R.S_PEEKED + seat] >> c) & 1 and not (st[R.S_EMPTY] >> c) & 1]
    seen = np.ones(R.S_SIZE, bool)
    seen[[R.S_LOC + t for t in hidden]] = False
    seen[R.S_STACK : R.S_STACK + R.N_TILES] = False
    seen[[R.S_STICKER + c for c in cabins]] = False
    deals, parrots = [], []
    for seed in range(6):
        st2, before, after = _resample(step, st, seat, prm, seed, batch)
        assert np.array_equal(st2[seen], st[seen])  # own tiles, the parrot, positions, opened chests, ...
        assert sorted(st2[[R.S_LOC + t for t in hidden]]) == sorted(st[[R.S_LOC + t for t in hidden]])
        stack = [int(x) for x in st2[R.S_STACK : R.S_STACK + st2[R.S_NSTACK]]]
        assert sorted(stack) == sorted(t for t in range(R.N_TILES) if st2[R.S_LOC + t] == R.LOC_STACK)
        if st[R.S_PARROT_SEEN]:  # H1: a parrot that flew back is the stack's top, in every world
            assert stack[-1] == R.T_PARROT
        parrots.append([i for i, t in enumerate(stack) if t == R.T_PARROT])
        assert sorted(st2[[R.S_STICKER + c for c in cabins]]) == sorted(st[[R.S_STICKER + c for c in cabins]])
        assert R.check_invariants(st2, prm) == 0
        assert _only_row_moved(before, after)
        deals.append(tuple(st2[R.S_LOC : R.S_LOC + R.N_TILES]))
    _varies(deals)
    if R.T_PARROT in st[R.S_STACK : R.S_STACK + st[R.S_NSTACK]] and not st[R.S_PARROT_SEEN]:
        assert len({tuple(p) for p in parrots}) > 1  # H1: a parrot never drawn: its place is hidden, re-dealt


# ---- The Ghosts of Castle Turnwall --------------------------------------------------------------------------------
def test_turnwall_sample_hidden_re_deals_the_deck_slots_the_seat_has_not_seen():
    from kernels.turnwall import rules as R
    from kernels.turnwall import step

    sc, k = _scenario("scenarios/turnwall/4p.toml")
    batch, prm = _mid_game(sc, k, R.P_MAX_TURNS, 24)
    st = batch.work.st.copy()
    seat = 2
    know = slice(R.S_KNOW + seat * R.N_DECKS * R.N_PARTS, R.S_KNOW + (seat + 1) * R.N_DECKS * R.N_PARTS)
    excl = slice(R.S_EXCL + seat * R.N_GARMENTS, R.S_EXCL + (seat + 1) * R.N_GARMENTS)

    def unseen(k, p):
        return st[R.S_DECK + k * R.N_PARTS + p] >= 0 and st[know.start + k * R.N_PARTS + p] == R.KNOW_UNSEEN

    slots = [R.S_DECK + k * R.N_PARTS + p for k in range(R.N_DECKS) for p in range(R.N_PARTS) if unseen(k, p)]
    assert len(slots) >= 4
    deals = []
    for seed in range(8):
        st2, before, after = _resample(step, st, seat, prm, seed, batch)
        for i in range(R.N_DECKS * R.N_PARTS):  # the slots it saw (or saw emptied) are as they were
            if R.S_DECK + i not in slots:
                assert st2[R.S_DECK + i] == st[R.S_DECK + i]
        assert np.array_equal(st2[know], st[know]) and np.array_equal(st2[excl], st[excl])  # its own memory
        for p in range(R.N_PARTS):  # each part's unseen cards re-dealt among that part's unseen slots
            ps = [s for s in slots if (s - R.S_DECK) % R.N_PARTS == p]
            assert sorted(st2[ps]) == sorted(st[ps])
        for s in slots:
            gm, deck = int(st2[s]), (s - R.S_DECK) // R.N_PARTS
            assert st2[R.S_CARD_LOC + gm] == deck
            assert not (st2[excl.start + gm] >> deck) & 1  # never where the seat knows it is not
        assert np.array_equal(st2[: R.S_DECK], st[: R.S_DECK])  # the castle, the ghosts, who wears what
        assert R.check_invariants(st2, prm) == 0
        assert _only_row_moved(before, after)
        deals.append(tuple(st2[slots]))
    _varies(deals)
