"""Runner, aggregates and determinism: results depend only on (seed, scenario, game index)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from sim.api import core as api
from sim.play import runner, work
from sim.play.context import RunContext
from sim.stats.aggregate import WIN_UNITS


def _chunks(sc, games, chunk, threads):
    outs = []
    work.run(sc, games, threads=threads, chunk=chunk, on_chunk=outs.append)
    return {
        k: np.concatenate([getattr(o, k) for o in outs])
        for k in ("scores", "winners", "turns", "rounds", "status", "extra")
    }


@pytest.mark.kernel
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_same_seed_identical_for_threads_and_chunk_sizes(moor_sc, players):
    sc = moor_sc(players, ("random", "collector", "runner", "cautious", "weighted"))
    a = _chunks(sc, 3000, 3000, 1)
    b = _chunks(sc, 3000, 257, 2)
    c = _chunks(sc, 3000, 1000, 2)
    for k in a:
        assert np.array_equal(a[k], b[k]), k
        assert np.array_equal(a[k], c[k]), k


@pytest.mark.kernel
def test_aggregates_identical_for_threads_and_chunks(moor_sc):
    sc = moor_sc(4, ("random", "weighted"))
    r1 = work.run(sc, 5000, threads=1, chunk=5000)
    r2 = work.run(sc, 5000, threads=2, chunk=333)
    assert r1.agg.to_dict() == r2.agg.to_dict()


@pytest.mark.kernel
def test_game_index_not_position_in_run_decides_outcome(moor_sc):
    """Game g played alone (game0 = g) equals game g inside a longer run."""
    sc = moor_sc(3, ("random",))
    whole = runner.play_chunk(sc, 0, 500)
    part = runner.play_chunk(sc, 321, 10)
    assert np.array_equal(whole.scores[321:331], part.scores)
    assert np.array_equal(whole.winners[321:331], part.winners)


@pytest.mark.kernel
def test_other_seed_changes_results(moor_sc):
    sc = moor_sc(4)
    a = runner.play_chunk(sc, 0, 200)
    b = runner.play_chunk(sc, 0, 200, seed=sc.seed + 1)
    assert not np.array_equal(a.scores, b.scores)


@pytest.mark.kernel
def test_changing_one_seat_strategy_keeps_the_dice(moor_sc):
    """Common random numbers: chance has its own stream, so the dealt tiles and first roll do not change."""
    from kernels.moor import play

    a = moor_sc(4, ("weighted",))
    b = moor_sc(4, ("random", "weighted", "weighted", "weighted"))
    for g in range(20):
        ta = play.trace_game(np.uint64(a.seed), np.uint64(0), g, 4, a.prm(), a.sids(), a.sparams(), 50)
        tb = play.trace_game(np.uint64(b.seed), np.uint64(0), g, 4, b.prm(), b.sids(), b.sparams(), 50)
        assert np.array_equal(ta.deal, tb.deal)
        assert ta.log[1, 2] == tb.log[1, 2]  # first event is the first roll


@pytest.mark.kernel
def test_win_units_sum_to_finished_games(moor_sc):
    sc = moor_sc(5, ("random",), tiebreak="shared")
    agg = work.run(sc, 4000).agg
    assert agg.win_units.sum() == WIN_UNITS * agg.finished
    assert agg.shared_games > 0  # shared tie-break variant really produces shared wins
    assert agg.pos_win_units.sum() == agg.win_units.sum()


@pytest.mark.kernel
def test_rulebook_tiebreak_never_shares(moor_sc):
    agg = work.run(moor_sc(5, ("random",)), 4000).agg
    assert agg.shared_games == 0 and agg.sole_wins.sum() == agg.finished


@pytest.mark.kernel
def test_turn_cap_truncates_and_is_never_scored(moor_sc):
    sc = moor_sc(4, ("random",), max_turns=40)
    agg = work.run(sc, 500).agg
    assert agg.truncated == 500 and agg.finished == 0 and agg.win_units.sum() == 0


@pytest.mark.kernel
def test_memory_bounded_by_chunk(moor_sc):
    """Per-game arrays exist one chunk at a time and the aggregates do not grow with the number of games."""
    sc = moor_sc(4, ("random",))
    sizes = []
    for games in (1000, 20000):
        seen = []
        res = work.run(sc, games, chunk=1000, on_chunk=lambda o: seen.append(len(o.status)))  # noqa: B023 (called in this loop)
        assert max(seen) == 1000
        sizes.append(sum(np.asarray(v).size for v in res.agg.__dict__.values() if isinstance(v, np.ndarray)))
    assert sizes[1] <= sizes[0] + 64  # only histogram tails may grow, by a few bins


@pytest.mark.kernel
def test_symmetric_seats_have_no_seat_effect_beyond_noise(moor_sc):
    """Identical strategies in every seat: seats rotate the start, so seat win rates agree within noise."""
    s, _ = api.run_scenario(moor_sc(4, ("weighted",), games=20000), write=False)
    rates = [r["win"]["rate"] for r in s["seats"]]
    assert max(rates) - min(rates) < 0.03
    assert abs(sum(rates) - 1.0) < 1e-9


@pytest.mark.kernel
def test_summary_fields(moor_sc):
    s, _ = api.run_scenario(moor_sc(3, ("collector", "runner", "cautious")), games=3000, write=False)
    assert s["games"]["finished"] == 3000
    for key in ("seats", "strategies", "first_player", "ties", "length", "matchups", "provenance"):
        assert key in s
    seat = s["seats"][0]
    lo, hi = seat["win"]["ci95"]
    assert lo <= seat["win"]["rate"] <= hi
    assert set(seat["score"]["quantiles"]) == {"p05", "p25", "p50", "p75", "p95"}
    assert sum(seat["score"]["hist"]["counts"]) == 3000
    assert sum(s["length"]["turns"]["hist"]["counts"]) == 3000
    assert s["provenance"]["rng_contract"] == 1 and s["provenance"]["rules_version"] >= 1


class _FakeKernel:
    """A stand-in batch kernel: writes each row's game index into ``turns`` and notes which thread played it."""

    def __init__(self, fail_at: int | None = None):
        import threading

        self.calls: list[tuple[int, int, str]] = []
        self.fail_at = fail_at
        self._lock = threading.Lock()
        kernel = self

        def play_batch(
            seed,
            point,
            game0,
            n_games,
            n,
            prm,
            sids,
            sparams,
            scores,
            winners,
            turns,
            rounds,
            status,
            extra,
            curves,
            scratch,
            check=None,
            resume=None,
            search=None,
        ):
            import threading
            import time

            if kernel.fail_at is not None and game0 <= kernel.fail_at < game0 + n_games:
                raise RuntimeError("block failed")
            time.sleep(0.002)  # long enough for the pool to hand blocks to several threads
            turns[:] = np.arange(game0, game0 + n_games)
            with kernel._lock:
                kernel.calls.append((int(game0), int(n_games), threading.current_thread().name))

        self.play_batch = play_batch
        self.batch_scratch = lambda n, prm=None: None


def _outputs(m: int) -> runner.ChunkOutputs:
    z = np.zeros
    return runner.ChunkOutputs(
        0,
        z((m, 2), np.int32),
        z(m, np.int32),
        z(m, np.int32),
        z(m, np.int32),
        z(m, np.int32),
        z((m, 1), np.int32),
        z((m, 0, 0), np.int32),
    )


def test_blocks_cover_every_row_once_on_several_threads(monkeypatch):
    monkeypatch.setattr(runner, "available_threads", lambda: 4)
    k, out = _FakeKernel(), _outputs(800)
    told: list[int] = []
    runner._play_blocks(k, (0, 0, None, None, None), 5000, 777, 2, out, told.append, RunContext(threads=3))
    assert (out.turns[:777] == np.arange(5000, 5777)).all()  # row i is game game0 + i
    assert (out.turns[777:] == 0).all()
    first, blocks = k.calls[0], k.calls[1:]
    assert first == (5000, 0, threading.main_thread().name)  # the compile call: no game, main thread
    spans = sorted((g, n) for g, n, _ in blocks)
    assert spans[0][0] == 5000 and all(a[0] + a[1] == b[0] for a, b in zip(spans, spans[1:]))
    assert sum(n for _, n in spans) == 777 == sum(told) and told[0] == 0 and len(told) == len(spans) + 1  # 0: start
    assert spans[0][1] == runner.MIN_BLOCK and len(spans) > 3
    assert len({name for *_, name in blocks}) > 1  # the blocks really ran on several threads


def test_an_error_in_one_block_reaches_the_caller(monkeypatch):
    monkeypatch.setattr(runner, "available_threads", lambda: 4)
    with pytest.raises(RuntimeError, match="block failed"):
        runner._play_blocks(
            _FakeKernel(fail_at=321), (0, 0, None, None, None), 0, 1000, 2, _outputs(1000), ctx=RunContext(threads=2)
        )


@pytest.mark.kernel
def test_three_threads_play_the_games_of_one(moor_sc, monkeypatch):
    """The real kernel on more threads than this machine may have: the same games, game for game."""
    monkeypatch.setattr(runner, "available_threads", lambda: 3)
    sc = moor_sc(4, ("random", "weighted"))
    a = _chunks(sc, 2000, 2000, 1)
    b = _chunks(sc, 2000, 1999, 3)
    for key in a:
        assert np.array_equal(a[key], b[key]), key


def test_threads_warning_names_numba_num_threads_when_it_is_the_limit(monkeypatch):
    import numba

    from sim.play import runner

    monkeypatch.setattr(numba.config, "NUMBA_DEFAULT_NUM_THREADS", 2)
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 1)
    monkeypatch.setenv("NUMBA_NUM_THREADS", "1")
    said = []
    assert runner.resolve_threads(64, said.append) == 1
    assert said == [
        "warning: --threads 64: NUMBA_NUM_THREADS=1 allows 1 thread (the machine has 2 cores; unset it "
        "or raise it to use more); using 1 thread"
    ]
    monkeypatch.delenv("NUMBA_NUM_THREADS")
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 2)
    said.clear()
    assert runner.resolve_threads(64, said.append) == 2
    assert said == ["warning: --threads 64: only 2 cores available; using 2 threads"]
