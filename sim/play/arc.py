"""Win-probability timelines (issue 39): for a sample of a scenario's games, after each round, every seat's chance of
winning from that state, estimated by rollouts.

How a state is reached: game ``g`` of the run is played again with its turn cap set to the turns of the first r
rounds (``max_turns`` = r x players: the truncated game is the same game, stopped at the start of that turn; the
cap changes no decision), its state taken from the batch scratch. Per round rather than per turn: a designer speaks
of rounds, and a state per turn would cost ``players`` times as much (measured in docs/guide/arc.md).

How a state is rolled out: ``rollouts`` games resumed from a copy of it by the game's own loop (`play_batch` with
``resume``), the table's own strategies playing on. Whose view: a table-level chance is an outside observer's, who
sees only what is public: each rollout first re-deals, on its own chance stream, what each seat cannot see (every
seat's `sample_hidden` in seat order: what only some seats know is re-dealt by one that does not; kernels/loop.py,
`_arc_begin`), so no rollout knows the true face-down tiles. A seat's chance is its share of the rollouts' wins (a
win shared by k counts 1/k; a rollout stopped at the turn cap is no one's win).

Reproducible from (seed, scenario, game index): the replay is the run's game ``g``; rollout j of round r of game g
is game j of a batch seeded with a 64-bit digest of (seed, g, r).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from sim.model.policy import batch_scratch, uses_learned
from sim.model.scenario import Scenario
from sim.model.search import has_search
from sim.play.runner import resolve_threads
from sim.stats.aggregate import WIN_UNITS

MAX_ROUNDS = 200  # a game longer than this is cut here (its later rounds keep the last estimate)


def rollout_table(sc: Scenario) -> Scenario:
    """The table of skilled rollouts: every seat of ``sc`` on its role's learned player at its shipped defaults
    (`sim.model.skill_spec.skill_table`: the table of the report's "At skill"). Raises ValueError saying why there
    is none (a role without a learned player, or a policy that does not fit)."""
    from sim.model.skill_spec import skill_table

    t = skill_table(sc, 1)  # (its seats are what the rollouts need; a scenario's skill_games = 0 does not matter)
    if t.scenario is None:
        raise ValueError(t.why.replace(", so no figure is played at skill", ", so no skilled rollouts"))
    return t.scenario


def rollout_seed(seed: int, game: int, rnd: int) -> np.uint64:
    """The seed of the rollouts of round ``rnd`` of game ``game`` of a run with ``seed``."""
    h = hashlib.sha256(f"ghost-sim arc {int(seed)} {int(game)} {int(rnd)}".encode()).digest()
    return np.uint64(int.from_bytes(h[:8], "little"))


def game_timeline(sc: Scenario, k, g: int, rollouts: int, seed: int, roll: Scenario | None = None) -> dict:
    """Game ``g`` of ``sc`` (seed ``seed``): its rounds, winners bitmask, status, and p[r, seat] the estimated chance
    of each seat after round r + 1 (row 0: after the first round), its last row the game's own result; column
    ``players`` the chance that no seat wins (a cooperative game's house). A round is ``spec.arc_round_turns`` turns
    (default one per seat). ``roll``: the table whose strategies play the rollouts (None: ``sc``'s own; skilled
    rollouts: `rollout_table`)."""
    from kernels.batch import play_games

    spec = sc.spec
    n = sc.players
    prm = sc.prm()
    sids, sparams = sc.sids(), sc.sparams()
    rsids, rsparams = (sids, sparams) if roll is None else (roll.sids(), roll.sparams())
    n_extra, cshape = len(spec.extra_columns), (len(spec.curves), spec.curve_len)
    scratch = batch_scratch(spec, k, n, prm, uses_learned(spec, sids))
    rlearned = uses_learned(spec, rsids)  # (the learned policy is compiled only into a kernel that plays it)
    full = play_games(k.play_batch, scratch, np.uint64(seed), 0, g, 1, n, prm, sids, sparams, n_extra, cshape)
    winners, turns, rounds, status = (
        int(full.winners[0]),
        int(full.turns[0]),
        int(full.rounds[0]),
        int(full.status[0]),
    )
    probs, halves = [], []
    obs = np.zeros((rollouts, n + 2, 1), np.int32)  # the outside observer's rollouts (kernels/loop.py)
    values = dict(sc.params)
    per_round = n if spec.arc_round_turns is None else spec.arc_round_turns(values, n)
    for r in range(1, min(rounds, MAX_ROUNDS)):
        t = r * per_round
        if t >= turns:
            break
        values["max_turns"] = t
        prm_t = np.ascontiguousarray(spec.pack(values, n), dtype=np.int64)
        play_games(k.play_batch, scratch, np.uint64(seed), 0, g, 1, n, prm_t, sids, sparams, n_extra, cshape)
        state = k.step.parts.py_func(scratch)[0].copy()  # plain Python: the state vector of the batch scratch
        out = play_games(
            k.play_batch, batch_scratch(spec, k, n, prm, rlearned), rollout_seed(seed, g, r), 0, 0, rollouts, n, prm,
            rsids, rsparams, n_extra, cshape, resume=state, arc=obs,
        )  # fmt: skip
        probs.append(_shares(out.winners, out.status, n) / rollouts)
        h = rollouts // 2  # the first half's estimate apart: the reliability table bins by it (sim.stats.arc)
        halves.append(_shares(out.winners[:h], out.status[:h], n) / max(h, 1))
    final = _shares(np.array([winners]), np.array([status]), n)
    probs.append(final)
    halves.append(final)
    return {
        "game": g, "rounds": rounds, "winners": winners, "status": status, "p": np.array(probs),
        "p_half": np.array(halves),
    }  # fmt: skip


def _shares(winners: np.ndarray, status: np.ndarray, n: int) -> np.ndarray:
    """Wins per seat over games (a win shared by k counts 1/k; unfinished games count for no one), then in column n
    the finished games no seat won (a cooperative team's loss: the house's win in Treasure Hunters)."""
    w = winners[status == 0].astype(np.int64)
    bits = ((w[:, None] >> np.arange(n)[None, :]) & 1).astype(np.int64)
    k = np.maximum(bits.sum(axis=1), 1)
    seats = (bits * (WIN_UNITS // k)[:, None]).sum(axis=0) / WIN_UNITS
    return np.append(seats, np.count_nonzero(w == 0))


def timelines(
    sc: Scenario,
    sample: int,
    rollouts: int,
    seed: int | None = None,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    skilled: bool = False,
) -> list[dict]:
    """`game_timeline` of games 0 .. sample - 1 of ``sc`` (on ``threads`` threads: the kernel releases the GIL);
    progress(1) as each game is done. ``skilled``: the game's learned players play the rollouts (`rollout_table`),
    not the table's strategies. Raises ValueError for a scenario with a search seat (its rollouts would search at
    every decision) or skilled rollouts of a game without a learned player for every role (the reason in one line).
    Treasure Hunters' turn cap ends a game in its state: its `resume_game` starts the cut turn when the rollouts'
    cap is higher (kernels/treasure_hunters/step.py)."""
    if has_search(sc):
        raise ValueError("a scenario with a search seat has no arc timelines yet (each rollout would search)")
    k = sc.spec.kernel()
    s = sc.seed if seed is None else seed
    roll = rollout_table(sc) if skilled else None
    game_timeline(sc, k, 0, 1, s, roll)  # compile once, here, before the threads
    out: list[dict] = [{} for _ in range(sample)]

    def one(g: int) -> None:
        out[g] = game_timeline(sc, k, g, rollouts, s, roll)
        if progress is not None:
            progress(1)

    t = resolve_threads(threads)
    with ThreadPoolExecutor(max_workers=t, thread_name_prefix="sim-arc") as pool:
        futures = [pool.submit(one, g) for g in range(sample)]
        try:
            for f in futures:
                f.result()
        except BaseException:  # Ctrl-C or an error: the games not started are dropped, the running ones end
            for f in futures:
                f.cancel()
            raise
    return out
