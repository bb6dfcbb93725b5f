"""Ghosts of the Moor: its GameSpec and turn-by-turn replay in words."""

from __future__ import annotations

from kernels.moor import features as F
from kernels.moor import params as P
from kernels.moor import rules as R
from kernels.moor import strategies as S
from kernels.moor.columns import EXTRA_COLUMNS
from sim.games._trace import trace
from sim.model.catalogue import counter, score
from sim.model.policy import learned_strategy
from sim.model.registry import (
    BenchSpec,
    GameSpec,
    Learner,
    ParamSpec,
    StrategySpec,
    register,
    seconds_per_turn,
    worded,
)
from sim.model.search import RECORD_LEN, SearchNotes, search_scratch, search_strategy
from sim.model.words import count, ending

# what pages call each parameter, in a player's words (sim.model.registry.ParamSpec label, unit); the score is in
# "score points" (the rulebook's own word, R15), never bare "points": that is a difference of two rates on every page
SCORE_POINTS = "score points"
WORDS = {
    "track_len": ("track length", "spaces"),
    "die_faces": "die faces",
    "max_turns": ("turn limit", "turns"),
    "space_symbols": "treasure symbols along the path",
    "ghost_values": ("ghost tile values", SCORE_POINTS),
    "goal_values": ("goal token values", SCORE_POINTS),
    "set_points": ("points for 1 to 5 matching treasures", SCORE_POINTS),
    "discard_fallback": "where discards go when no space is free",
    "ghost_before_two": "a held ghost goes before two other tiles",
    "planks_discardable": "planks may be discarded",
    "vacated_origin_counts": "the space just left takes discards",
    "tiebreak": "tie-break",
    "w_tile": "weight on tile points",
    "w_ghost": "extra weight on ghost points",
    "w_discard": "weight on discards",
    "w_goal": "weight on goal tokens",
    "w_progress": "weight on spaces moved",
    "w_rear": "weight on moving back pawns",
    "w_empty_dest": "weight against stopping on an empty space",
    "plank_use": "plank use (0.5 or more: lay planks)",
}
WEIGHTS = worded(tuple(ParamSpec(n, "float", d, (-100.0, 100.0), h) for n, d, h in S.WEIGHT_SPECS), WORDS)
# a search seat's rollout strategies, the default first: the learned player, stronger than `runner` (the strongest
# scripted one on the ladder) at equal budget: at 256 rollouts +8.0 points [+4.9, +11.1] of seat 0's win rate, at 64
# 84.1% against 72.0% (issue 38; docs/guide/learned.md)
ROLLOUTS = ("learned", "runner", "weighted", "cautious", "collector", "random")
# the box: 20-30 min for 2-5 players; a default 4-player game is about 112 turns (reports/baselines/moor/4p.json)
BOX = (
    (20, 30),
    "publisher: 2-5 players, 20-30 min (https://icv2.com/articles/news/view/41382/ghosts-moor, "
    "https://www.cardhaus.com/ghosts-of-the-moor/)",
)
SECONDS = seconds_per_turn(
    13.0, "13 s puts a default 4-player game (about 112 turns) at about 24 min, inside the box's 20-30 min (publisher)"
)


def tile_name(t: int, prm) -> str:
    """Readable name of tile id ``t``: 'Axe', 'Ghost(4)', 'Plank'."""
    k = R.tile_kind(t)
    if k < R.N_TYPES:
        return R.TREASURE_NAMES[k]
    if k == R.K_GHOST:
        return f"Ghost({int(prm[R.P_GHOST_VALUES + t - R.GHOST0])})"
    return "Plank"


def action_name(a: int, prm) -> str:
    """Moor action ``a`` (RULES.md "Actions") in a player's words: 'move pawn 2', 'lay the plank', 'discard Axe + Plank'."""
    if a < R.A_PLANK_YES:
        return f"move pawn {a - R.A_MOVE}"
    if a == R.A_PLANK_YES:
        return "lay the plank"
    if a == R.A_PLANK_NO:
        return "keep the plank"
    if a == R.A_DISCARD_MATCH:
        return "discard the matching treasure"
    if a < R.A_DISCARD_PAIR:
        return f"discard {tile_name(R.GHOST0 + a - R.A_DISCARD_GHOST, prm)}"
    kind = lambda k: R.TREASURE_NAMES[k] if k < R.N_TYPES else "Plank"  # noqa: E731
    if a < R.A_DISCARD_ONE:
        bottom, top = divmod(a - R.A_DISCARD_PAIR, 6)
        return f"discard {kind(bottom)} + {kind(top)}"
    return f"discard {kind(a - R.A_DISCARD_ONE)}"


def replay(scenario, game: int) -> list[str]:
    """Game ``game`` of ``scenario`` turn by turn in words, identical to that game of a batch run."""
    from kernels.moor import play

    n = scenario.players
    prm = scenario.prm()
    search = search_scratch(scenario, play, RECORD_LEN)
    tr = trace(scenario, game, play, 200_000, search=search)
    first = game % n
    seat = lambda q: (first + q) % n  # noqa: E731
    who = lambda q: f"seat {seat(q)} ({scenario.seats[seat(q)].strategy})"  # noqa: E731
    end = int(prm[R.P_TRACK_LEN]) + 1
    sym = lambda s: R.TREASURE_NAMES[int(prm[R.P_SYMBOLS + s])] if 0 < s < end else "-"  # noqa: E731
    lines = [f"Game {game} of {scenario.name}: {n} players, seat {first} starts; track 1..{end - 1}, End = {end}"]
    i = 0
    for s in range(1, R.DEALT_SPACES + 1):
        k = 2 if s <= R.GREEN_SPACES else 1
        names = [tile_name(int(t), prm) for t in tr.deal[i : i + k]]  # dealt bottom first
        lines.append(f"  deal space {s} ({sym(s)}): " + (f"{names[1]} on top of {names[0]}" if k == 2 else names[0]))
        i += k
    notes = SearchNotes(search, lambda s: who((s - first) % n), lambda a: action_name(a, prm))
    for r in range(1, int(tr.log[0, 0]) + 1):
        lines += notes.until(r - 1)  # a search decision, where it was made
        e, a, b, c, d, t = (int(x) for x in tr.log[r])
        if e == R.E_ROLL:
            lines.append(f"turn {t + 1}: {who(a)} rolls {b}")
        elif e == R.E_MOVE:
            dest = "End" if d == end else f"space {d}"
            org = "Start" if c == 0 else f"space {c} ({sym(c)})"
            lines.append(f"  moves pawn {b} from {org} to {dest}")
        elif e == R.E_PLANK:
            lines.append(f"  lays a plank under the pawn on space {c}")
        elif e == R.E_TAKE:
            lines.append(f"  takes {tile_name(b, prm)} from space {c}")
        elif e == R.E_DISCARD:
            where = f"onto space {c}" if c >= 0 else "out of the game (no empty space)"
            lines.append(f"  discards {tile_name(b, prm)} {where}")
        elif e == R.E_NO_DISCARD:
            lines.append("  has nothing to discard")
        elif e == R.E_GOAL:
            lines.append(f"  reaches End and takes goal token {b}")
        elif e == R.E_SKIP:
            lines.append(f"  {who(a)} has every pawn home: skipped")
    lines += notes.rest()
    planks = [int(tr.state[R.S_HOLD + q * R.N_KINDS + R.K_PLANK]) for q in range(n)]  # by turn position
    decided = tiebreak_lines(tr.scores[:n], planks, first, int(prm[R.P_TIEBREAK])) if tr.status == 0 else []
    return lines + ending(
        tr.status,
        tr.turns,
        tr.rounds,
        tr.scores[:n],
        tr.winners,
        lambda s: f"seat {s} ({scenario.seats[s].strategy})",
        lambda v: count(v, "point"),
        decided,
    )


def tiebreak_lines(scores, planks, first: int, rule: int) -> list[str]:
    """How a tied top score was settled, in one line (none when one seat scored most). ``scores``: int per seat;
    ``planks``: plank tiles held per turn position (position q is seat (first + q) mod n); ``rule``: P_TIEBREAK
    (0 rulebook R17: most planks, then the tied player latest in turn order; 1 shared, C9: every tied seat wins)."""
    n = len(scores)
    best = max(int(x) for x in scores)
    tied = [(first + q) % n for q in range(n) if int(scores[(first + q) % n]) == best]  # in turn order
    if len(tied) < 2:
        return []
    names = ", ".join(str(s) for s in tied[:-1]) + f" and {tied[-1]}"
    head = f"tie: seats {names} have {count(best, 'point')} each"
    if rule == 1:
        return [f"{head}; tiebreak = shared (C9): they share the win"]
    held = {s: planks[(s - first) % n] for s in tied}
    most = max(held.values())
    top = [s for s in tied if held[s] == most]
    plank_text = ", ".join(f"seat {s}: {held[s]}" for s in tied)
    if len(top) == 1:
        return [f"{head}; tie-break (R17): most plank tiles wins ({plank_text}): seat {top[0]}"]
    return [
        f"{head}; tie-break (R17): most plank tiles ({plank_text}), still tied, so the tied player latest in "
        f"turn order wins (seat {first} started): seat {top[-1]}"
    ]


# the catalogue of measures (sim.model.catalogue): what each counter column of kernels/moor/columns.py counts
MEASURES = (
    score(
        "seat {seat}'s score",
        SCORE_POINTS,
        "Seat {seat}'s points at the end: its goal tokens' values, plus for each "
        "of the five treasure types 1/3/6/10/15 points for 1/2/3/4/5 tiles of that type, minus its ghost tiles' "
        "values (planks score nothing; rule R15).",
    ),
    counter("discard_events", "discards", "Times a player had to discard (R10/R11), per game.", "discards per game"),
    counter(
        "tiles_discarded",
        "tiles discarded",
        "Tiles put back on the track or out of the game by discards, per game.",
        "tiles per game",
    ),
    counter(
        "tiles_lost",
        "tiles lost",
        "Discarded tiles that left the game because no empty space was left, per game.",
        "tiles per game",
    ),
    counter("planks_laid", "planks laid", "Planks laid under a pawn, per game.", "planks per game"),
    counter(
        "tiebreak_decided",
        "top score tied, settled by the tie-break",
        "Share of finished games whose top "
        "score was tied and settled by the rulebook's tie-break (0 with tiebreak = shared).",
        "% of finished games",
        "rate",
    ),
)


# `sim bench`: targets of issue 9 (games/s on 2 threads, cold compile s, warm start s) and issue 38 (the learned
# table's games/s on one thread); the start-up timings of the shared machinery, the oracle and the C yardstick (sim.api.bench_c) are measured on Moor, and the sweep overhead
BENCH = BenchSpec(
    "scenarios/moor/4p.toml",
    {
        "games_per_s_2_threads": 100_000,
        "cold_compile_s": 15,
        "first_game_warm_s": 2,
        "learned_games_per_s_1_thread": 8_000,
    },
    rank=0,
    compile_rank=0,
    short="Moor",
    arc="scenarios/moor/4p.toml",
    arc_rank=0,
    timelines=True,
    oracle="sim.oracle.moor",
    c_yardstick=True,
    compiles=("scenarios/moor/4p.toml",),
    sweep=("track_len", 21),
)


def _check(values: dict, players: int, given: frozenset = frozenset()) -> str | None:
    return P.check(values)


SPEC = register(
    GameSpec(
        name="moor",
        title="Ghosts of the Moor",
        rules_version=R.RULES_VERSION,
        min_players=2,
        max_players=5,
        params=worded(
            tuple(
                ParamSpec(name, kind, default, domain, text, labels=P.LABELS.get(name, ()))
                for name, kind, default, domain, text in P.PARAM_SPECS
            ),
            WORDS,
        )
        + (SECONDS,),
        strategies=tuple(
            learned_strategy("moor", "player", i, h, F)
            if i == S.S_LEARNED
            else StrategySpec(n, i, h, "player", WEIGHTS if i == S.S_WEIGHTED else ())
            for n, i, h in S.STRATEGIES
        )
        # sequential halving with a one-standard-error margin over the learned rollouts (issue 38): at 64 rollouts
        # +17.1 points [+14.1, +20.0] head to head over ucb1 with deviate 0, at 256 +1.6 [-1.5, +4.6] (both orders of
        # 2,000 games each; docs/guide/learned.md). With scripted rollouts the margin anchors the search to a weaker
        # move: give root = "ucb1", deviate = 0 there (scenarios/moor/search-4p.toml).
        + (search_strategy("player", ROLLOUTS, deviate=1.0, root="halving"),),
        kernel_module="kernels.moor.play",
        check=_check,
        pack=lambda values, players: P.pack(values),
        replay=replay,
        extra_columns=EXTRA_COLUMNS,
        score_range=(-60, 120),
        arc_len=48,
        n_sparams=max(S.N_SPARAMS, F.N_LEARNED_PARAMS),
        rules_file="kernels/moor/RULES.md",
        measures=MEASURES,
        check_sizes=(20_000, 2_500_000, 100_000),  # about 60k games/s on a 2-core machine
        box_minutes=BOX[0],
        box_source=BOX[1],
        learners=(
            # (the first iteration's rollouts: the best scripted strategy, so training starts from no policy)
            Learner("player", "kernels.moor.features", "learned", "weighted", 4, bootstrap="runner"),
        ),
        bench=BENCH,
        compile_s=196,  # tests/warm_kernels.py of every scenario file, cold cache, busy 2-core machine, 2026-12-06
    )
)
