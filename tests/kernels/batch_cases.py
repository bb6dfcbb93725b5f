"""The batch cases whose outputs `test_batch_digests.py` pins: every default scenario file, every strategy of every
role at the fewest and the most players, several seeds, the invariant-checking specialisation where a game has one,
and the Dice Race test game. A case's digest is sha256 over all of `play_batch`'s outputs (scores, winners, turns,
rounds, status, extra, curves), so a change of any kernel output of any case changes it.

`python tests/kernels/batch_cases.py --add` pins the cases not pinned yet (refusing when any pinned one differs);
`--write` rewrites data/batch_digests.json (only when a kernel change is meant to
change results: a rules or strategy version bump).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data" / "batch_digests.json"
SEEDS = (1, 20261203)
# games per case: a Galleon or Turnwall planner game costs ~50-100 Moor games
GAMES = {"moor": 300, "treasure_hunters": 120, "turnwall": 12, "galleon": 16, "dice_race": 200}
BASES = {
    "moor": ("scenarios/moor/4p.toml",),
    "treasure_hunters": (
        "scenarios/treasure_hunters/basic-4p.toml",
        "scenarios/treasure_hunters/advanced-4p.toml",
        "scenarios/treasure_hunters/head_haunter-4p.toml",
    ),
    "turnwall": ("scenarios/turnwall/4p.toml",),
    "galleon": ("scenarios/galleon/4p.toml",),
}
# games per case with a search seat (its rollouts cost hundreds of games each); a strategy case seats search with
# SEARCH_BUDGET rollouts a decision (every search strategy: `search`, Treasure Hunters' `haunter_search`)
SEARCH_GAMES = {"moor": 12, "treasure_hunters": 6, "turnwall": 2, "galleon": 3}
SEARCH_BUDGET = 8
CHECKED = ("treasure_hunters", "turnwall", "galleon")  # play_batch takes a check argument


def _dice_race():
    """The Dice Race test game's scenario (registered for the call, as tests/sim/test_new_game.py does)."""
    sys.path.insert(0, str(REPO / "tests"))
    from newgame.spec import SPEC

    from sim.model import registry, scenario

    known = registry.get(SPEC.name) is not None
    if not known:
        registry.register(SPEC)
    sc = scenario.from_dict(
        {
            "scenario": {"game": "dice_race", "players": 3, "games": 10, "seed": 3},
            "seats": [
                {"strategy": "runner"},
                {"strategy": "dawdler", "params": {"w_slow": 0.3}},
                {"strategy": "dawdler"},
            ],
        },
        name="dice-race",
    )
    if not known:  # forgotten again: a test game must not leak into the other tests' game list
        registry.unregister(SPEC.name)
    return sc


def cases():
    """(name, scenario, check) for every pinned case (names unique)."""
    from sim.model.scenario import Seat, load
    from sim.model.search import SEARCH_SID

    out = []
    for p in sorted((REPO / "scenarios").glob("*/*.toml")):
        sc = load(p)
        out.append((p.relative_to(REPO).as_posix(), sc, False))
    for game, paths in BASES.items():
        for path in paths:
            base = load(REPO / path)
            spec = base.spec
            valid = [p for p in range(spec.min_players, spec.max_players + 1) if spec.check(base.params, p) is None]
            for players in sorted({valid[0], valid[-1]}):  # the fewest and the most players this mode allows
                roles = spec.roles(base.params, players)
                default = {r: base.seats[roles.index(r)] if r in roles[: base.players] else None for r in set(roles)}
                for st in spec.strategies:
                    if st.role not in roles:
                        continue
                    seats = []
                    for r in roles:
                        if r == st.role:
                            seats.append(Seat(st.name, {"budget": SEARCH_BUDGET} if st.sid == SEARCH_SID else {}))
                        else:
                            d = default[r]
                            seats.append(
                                d if d is not None else Seat(next(s.name for s in spec.strategies if s.role == r))
                            )
                    sc = base.with_changes(players=players, seats=tuple(seats))
                    out.append((f"{path}:{players}p:{st.role}={st.name}", sc, False))
        if game in CHECKED:
            out.append((f"{paths[0]}:check", load(REPO / paths[0]), True))
    out.append(("dice_race:3p", _dice_race(), False))
    return out


def digest(sc, seed: int, check: bool) -> str:
    """sha256 of every output of `play_batch` over the case's games (seed ``seed``, point 0, game0 0)."""
    with _registered(sc.game):
        return _digest(sc, seed, check)


@contextlib.contextmanager
def _registered(game: str):
    """The test game registered while its case plays (the shipped games are always there)."""
    from sim.model import registry

    if game != "dice_race" or registry.get(game) is not None:
        yield
        return
    sys.path.insert(0, str(REPO / "tests"))
    from newgame.spec import SPEC

    registry.register(SPEC)
    try:
        yield
    finally:
        registry.unregister(SPEC.name)


def _digest(sc, seed: int, check: bool) -> str:
    from kernels.batch import play_games
    from sim.model.policy import batch_scratch
    from sim.model.search import has_search, search_scratch, table_uses_learned

    spec = sc.spec
    k = importlib.import_module(spec.kernel_module)
    n = SEARCH_GAMES[sc.game] if has_search(sc) else GAMES[sc.game]
    prm = sc.prm()
    batch = batch_scratch(spec, k, sc.players, prm, table_uses_learned(sc))  # a learned seat: the learned marker
    args = (k.play_batch, batch, seed, 0, 0, n, sc.players, prm, sc.sids(), sc.sparams())
    search = search_scratch(sc, k, prm=prm)
    out = play_games(*args, len(spec.extra_columns), (len(spec.curves), spec.curve_len), check=check, search=search)
    h = hashlib.sha256()
    for a in out:
        h.update(np.ascontiguousarray(a, np.int32).tobytes())
        h.update(str(a.shape).encode())
    return h.hexdigest()


def all_digests() -> dict:
    return {f"{name}@{seed}": digest(sc, seed, check) for name, sc, check in cases() for seed in SEEDS}


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    if "--add" in sys.argv:  # pin the cases not pinned yet (new scenarios, strategies); every pinned one must agree
        old = json.loads(DATA.read_text())
        d = all_digests()
        changed = [k for k in old if k in d and old[k] != d[k]]
        if changed:
            sys.exit(f"{len(changed)} pinned digests differ (e.g. {changed[0]}); nothing written")
        DATA.write_text(json.dumps(d, indent=1, sort_keys=True) + "\n")
        print(f"{len(set(d) - set(old))} digests added, {len(set(old) - set(d))} dropped -> {DATA}")
    elif "--write" in sys.argv:
        d = all_digests()
        DATA.write_text(json.dumps(d, indent=1, sort_keys=True) + "\n")
        print(f"{len(d)} digests -> {DATA}")
    else:
        print(len(cases()), "cases")
