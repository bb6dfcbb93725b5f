"""Ghostly Galleon: its GameSpec and turn-by-turn replay in words."""

from __future__ import annotations

import re

from kernels.galleon import board as B
from kernels.galleon import features as F
from kernels.galleon import params as P
from kernels.galleon import rules as R
from kernels.galleon import strategies as S
from kernels.galleon.columns import EXTRA_COLUMNS
from sim.games._trace import trace
from sim.model.catalogue import RATE_UNIT, Entry, counter, score
from sim.model.policy import learned_strategy
from sim.model.registry import (
    BenchSpec,
    BoardSpec,
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

# what pages call each parameter, in a player's words (sim.model.registry.ParamSpec label, unit)
WORDS = {
    "board": "bay and ship board",
    "max_turns": ("turn limit", "turns"),
    "gold_target": ("gold to win", "gold"),
    "ghost_die": "what a 6 moves (ghost only, or ghost and pirate)",
    "blocked_move": "a pirate with no path of its roll",
    "terror_adjacency": "where the ghost frightens pirates",
    "cannon_reuse": "how often a cannon fires",
    "water_duel_safe": "no duels in a whirlpool or on a rock",
    "rock_exit": "the step from the rock onto the shore",
    "cannon_standup": "a turn standing up after a cannon",
    "ghost_reach": ("the ghost's reach", "steps"),
    "chest_keys": "key stickers under the chests",
    "key_tiles": "key tiles in the captain's cabin",
    "w_goal": "weight on the next goal",
    "w_raid": "weight on raiding rivals",
    "w_ghost": "weight against the ghost's reach",
    "w_rival": "weight against rivals nearby",
    "w_duel": "win chance needed to duel",
    "w_cave": "weight on moves through the caves",
}
WEIGHTS = worded(tuple(ParamSpec(n, "float", d, (-1000.0, 1000.0), h) for n, d, h in S.WEIGHT_SPECS), WORDS)
# no playing time is stated: not in the rulebook (shared/rulebooks/ghostly-galleon.txt), nor in the sources of
# shared/design/games/galleon.md; a default 4-player game is about 200 turns (reports/baselines/galleon/4p.json:
# 10,052,182 turns over 50,000 games, 201.0 a game)
BOX = (None, "none stated (rulebook and design sources name no playing time)")
SECONDS = seconds_per_turn(
    8.0,
    "ASSUMPTION: no playing time is stated anywhere; 8 s a turn (roll two dice and "
    "move; duels and tile look-ups are rarer) puts a default 4-player game (about 200 turns) "
    "at about 27 min",
)
COLOURS = ("red", "yellow", "green", "blue")
WEAPONS = ("no weapon", "a sabre", "a pistol")
# the search player's rollout strategies, the default first: the learned pirate (feature set 3), with sequential
# halving and a one-standard-error margin, at 64 rollouts +38.0 points [+30.9, +45.1] head to head over the former
# default (`raider` rollouts, ucb1; docs/guide/learned.md); then the scripted ones, the strongest first (the
# version-3 ladder: raider, treasure, weighted at its defaults, cautious; docs/guide/ladder.md), then random
ROLLOUTS = ("learned", "raider", "treasure", "weighted", "cautious", "random")


def tile_name(t: int, prm=None) -> str:
    """Readable name of tile id ``t`` (kernels/galleon/rules.py)."""
    if t < 0:
        return "nothing"
    if t < R.T_PISTOL:
        return "a sabre"
    if t < R.T_GOLD:
        return "a pistol"
    if t < R.T_BOTTLE:
        return f"gold {t - R.T_GOLD + 1}"
    if t == R.T_BOTTLE:
        return "the bottle"
    if t == R.T_PARROT:
        return "the parrot"
    k = int(prm[R.P_KEY_TILES + t - R.T_KEY]) if prm is not None else -1
    return "the broken key" if k == 0 else f"key {k}"


def action_name(a: int, prm, board: B.Board | None = None) -> str:
    """Galleon action ``a`` (RULES.md "State, actions, chance") in a player's words: 'move to D12', 'ghost to C3',
    'whirlpool 2', 'challenge seat 1', 'no duel', 'fight with a sabre', 'roll again', 'stop', 'swap places',
    'stay', 'parrot: steal from seat 2', 'parrot: top tile', 'parrot: peek at cabin 4'. Spaces by their board id
    when ``board`` is given, else by number."""
    sp = (lambda v: board.ids[v]) if board is not None else (lambda v: f"space {v}")  # noqa: E731
    if a < R.A_GHOST:
        return f"move to {sp(a - R.A_MOVE)}"
    if a < R.A_WHIRL:
        return f"ghost to {sp(a - R.A_GHOST)}"
    if a < R.A_DUEL:
        return f"whirlpool {a - R.A_WHIRL}"
    if a < R.A_PASS:
        return f"challenge seat {a - R.A_DUEL}"
    if a == R.A_PASS:
        return "no duel"
    if a < R.A_ROLL:
        return f"fight with {WEAPONS[a - R.A_WEAPON]}"
    names = {R.A_ROLL: "roll again", R.A_STOP: "stop rolling", R.A_SWAP: "swap places", R.A_NOSWAP: "stay put"}
    if a in names:
        return names[a]
    if a < R.A_PTOP:
        return f"parrot: steal from seat {a - R.A_PSTEAL}"
    if a == R.A_PTOP:
        return "parrot: top tile of the stack"
    if a < R.N_ACTIONS:
        return f"parrot: peek at cabin {a - R.A_PPEEK}"
    return f"action {a}"


def space_key(board: B.Board) -> str:
    """What the board's space codes stand for, from its file: each code's letters and the kinds of space they name
    ('C cabin, CC captain's cabin, DA deck arrow, F/M/Q deck, ...'), so a replay reads 'move to C3' as a cabin."""
    kinds: dict[str, set[str]] = {}
    for sid, k in zip(board.ids, board.kinds, strict=True):
        m = re.match(r"[A-Za-z]+", sid)
        word = B.KINDS[int(k)].replace("_", " ")
        kinds.setdefault(m.group(0) if m else sid, set()).add("captain's cabin" if word == "captain" else word)
    by_kinds: dict[str, list[str]] = {}  # in the order of each kind's first code (the codes sorted)
    for prefix in sorted(kinds):
        by_kinds.setdefault(" or ".join(sorted(kinds[prefix])), []).append(prefix)
    return ", ".join(f"{'/'.join(p)} {k}" for k, p in by_kinds.items())


def _sticker(k: int) -> str:
    return "blank (no key needed)" if k == 0 else f"key {k}"


def _words(ev, board: B.Board, who, prm) -> str | None:
    """One logged event (kernels.galleon.rules E_*) in words."""
    e, a, b, c, d, _ = (int(x) for x in ev)
    sp = board.ids
    if e == R.E_TURN:
        return None
    if e == R.E_DICE:
        six = " - a 6: the ghost moves" if 6 in (a, b) else ""
        return f"  rolls {a} + {b}{six}"
    if e == R.E_MOVE:
        return f"  {who(a)} moves {sp[b]} -> {sp[c]} (rolled {d})"
    if e == R.E_BLOCKED:
        return f"  {who(a)} is blocked and stays"
    if e == R.E_NO_GHOST:
        return "  the ghost cannot move"
    if e == R.E_GHOST:
        return f"  the ghost moves {sp[a]} -> {sp[b]}"
    if e == R.E_OVERBOARD:
        return f"  {who(a)} goes overboard into whirlpool {b} ({who(c)} chose it)"
    if e == R.E_LOSE:
        return f"    {who(a)} loses {tile_name(b, prm)} to the large cave"
    if e == R.E_CANNON:
        return f"  the ghost fires cannon {a} into the {B.QUARTERS[b]} quarter: {count(c, 'pirate')} knocked down"
    if e == R.E_KNOCKED:
        return f"    {who(a)} takes cover"
    if e == R.E_STANDUP:
        return f"  {who(a)} stands up again"
    if e == R.E_ROCK:
        return f"  {who(a)} climbs onto rock {sp[b]}"
    if e == R.E_CAVE_TILE:
        return f"    takes {tile_name(b, prm)} from the large cave"
    if e == R.E_PEEK:
        return f"    peeks under the chest of cabin {b}: {_sticker(c)}"
    if e == R.E_OPEN:
        return f"    opens the chest of cabin {b}: {tile_name(c, prm)}" + (f" (shows key {d})" if d else "")
    if e == R.E_CAPTAIN:
        return f"    takes the top tile of the captain's cabin: {tile_name(b, prm)}"
    if e == R.E_PARROT:
        if b == 0:
            return f"    the parrot: takes a tile from {who(c)}"
        if b == 1:
            return f"    the parrot: takes the top tile of the captain's cabin: {tile_name(d, prm)}"
        return f"    the parrot: peeks under the chest of cabin {c}: {_sticker(d)}"
    if e == R.E_PARROT_BACK:
        return f"    the parrot of {who(a)} flies back to the captain's cabin"
    if e == R.E_DUEL:
        return f"  {who(a)} challenges {who(b)} to a duel"
    if e == R.E_WEAPON:
        return f"    {who(a)} fights with {WEAPONS[b]}"
    if e == R.E_DIE:
        return f"    {who(a)} rolls {b}" + (f" ({count(c, 'roll')} left)" if c else "")
    if e == R.E_DUEL_END:
        return f"    {who(a)} wins the duel and takes {tile_name(c, prm) if c >= 0 else 'nothing'} from {who(b)}"
    if e == R.E_SWAP:
        return f"    {who(a)} swaps places with {who(b)}"
    if e == R.E_WIN:
        return f"END: {who(a)} brings gold worth {b} into its hideout"
    if e == R.E_HOME:
        return f"    {who(a)} is home with gold worth only {b}"
    return f"  event {e}"


def replay(scenario, game: int) -> list[str]:
    """Game ``game`` of ``scenario`` turn by turn in words, identical to that game of a batch run (R1..R24 of
    kernels/galleon/RULES.md)."""
    from kernels.galleon import play

    n = scenario.players
    prm = scenario.prm()
    board = B.load_board(scenario.params["board"])
    search = search_scratch(scenario, play, RECORD_LEN)
    tr = trace(scenario, game, play, 400_000, 400_000, search)
    who = lambda s: f"seat {s} ({COLOURS[s]}, {scenario.seats[s].strategy})"  # noqa: E731
    lines = [f"Game {game} of {scenario.name}: {n} players, board {board.name}, seat {game % n} starts"]
    lines.append(f"  spaces: {space_key(board)}")
    steps = tr.steps
    deal = [int(v) for k, v in steps[1 : int(steps[0, 0]) + 1] if k == play.K_DEAL]
    keys = [int(prm[R.P_CHEST_KEYS + deal[6 + c]]) for c in range(6)]
    lines.append("  chests: " + ", ".join(f"cabin {c} {tile_name(deal[c])} ({_sticker(keys[c])})" for c in range(6)))
    lines.append("  captain's cabin stack, top first: " + ", ".join(tile_name(t, prm) for t in deal[:11:-1]))
    turn = -1
    notes = SearchNotes(search, who, lambda a: action_name(a, prm, board))
    for r in range(1, int(tr.log[0, 0]) + 1):
        lines += notes.until(r - 1)  # a search decision, where it was made
        ev = tr.log[r]
        if int(ev[0]) == R.E_TURN:
            t = int(ev[5])
            if t != turn:
                turn = t
                lines.append(f"turn {t + 1} (round {t // n + 1}): {who(int(ev[1]))}")
            continue
        w = _words(ev, board, who, prm)
        if w is not None:
            lines.append(w)
    lines += notes.rest()
    return lines + ending(tr.status, tr.turns, tr.rounds, tr.scores[:n], tr.winners, who, lambda v: f"gold {v}")


# the catalogue of measures (sim.model.catalogue): what each counter column of kernels/galleon/columns.py counts
MEASURES = (
    score("seat {seat}'s score", "gold", "Gold (1..5 a tile) seat {seat} holds at the end (5 brought home wins)."),
    # a win is gold brought home, not the most gold held: a rival may hold more without having brought it home
    Entry(
        "margin",
        "winner's margin (decisiveness)",
        "gold",
        "points",
        "Gold the winner holds minus the most gold a non-winner holds at the end, finished games; negative when "
        "a rival held more gold but had not brought it home (a win is gold brought home, not the most gold).",
        applies="competitive",
    ),
    Entry(
        "close_games",
        "close games",
        RATE_UNIT,
        "rate",
        "Share of finished games whose winner's margin is at most 1 gold: a rival held as much gold as the winner "
        "less 1, or more (95% Wilson interval).",
        level="batch",
        applies="competitive",
    ),
    counter(
        "ghost_moves", "ghost moves", "Times a 6 moved Captain Flint's ghost (R9/R10), per game.", "moves per game"
    ),
    counter(
        "overboard",
        "pirates overboard",
        "Pirates the ghost frightened into a whirlpool, or that stopped next to it (R11/R12), per game.",
        "pirates per game",
    ),
    counter("cannon_fires", "cannon shots", "Cannons the ghost fired (R14), per game.", "shots per game"),
    counter(
        "cannon_hits",
        "pirates knocked down by cannons",
        "Pirates on land in a fired cannon's quarter (R14), per game.",
        "pirates per game",
    ),
    counter("duels", "duels fought", "Duels challenged (R20), per game.", "duels per game"),
    counter(
        "duels_won_no_weapon",
        "duels won without a weapon",
        "Duels whose winner fought with no weapon, per game.",
        "duels per game",
    ),
    counter(
        "duels_won_sabre",
        "duels won with a sabre",
        "Duels whose winner fought with a sabre, per game.",
        "duels per game",
    ),
    counter(
        "duels_won_pistol",
        "duels won with a pistol",
        "Duels whose winner fought with a pistol, per game.",
        "duels per game",
    ),
    counter(
        "tiles_stolen",
        "tiles stolen",
        "Tiles taken from another player by a duel's winner or the parrot (R19/R23), per game.",
        "tiles per game",
    ),
    counter("chests_opened", "chests opened", "Chests opened with a key or blank (R16), per game.", "chests per game"),
    counter(
        "bottles_found", "bottles found", "Chests opened that held the worthless bottle, per game.", "bottles per game"
    ),
    counter("parrot_uses", "parrot actions", "Parrot actions taken (R19), per game.", "actions per game"),
    counter(
        "cave_tiles",
        "tiles taken from the large cave",
        "Moves through the caves that took a tile (R7), per game.",
        "tiles per game",
    ),
    counter(
        "captain_tiles",
        "tiles taken in the captain's cabin",
        "Top tiles taken on entering the captain's cabin (R15), per game.",
        "tiles per game",
    ),
    counter(
        "blocked_turns", "turns blocked", "Move turns a pirate could not move at all (R6), per game.", "turns per game"
    ),
    counter(
        "home_too_poor",
        "visits home with too little gold",
        "Times a pirate entered its hideout holding less than the gold needed (R17), per game.",
        "visits per game",
    ),
    counter(
        "captain_visits",
        "visits to the captain's cabin",
        "Times a pirate entered the captain's cabin (R15), per game.",
        "visits per game",
    ),
    counter(
        "captain_parrot_draws",
        "parrot drawn in the captain's cabin",
        "Visits to the captain's cabin that drew the parrot (R15/R19), per game.",
        "draws per game",
    ),
    counter(
        "captain_useless_visits",
        "visits to a stack known to be useless",
        "Visits to the captain's cabin when the table could see the stack held nothing or only the parrot that "
        "had flown back (H1), per game.",
        "visits per game",
    ),
    counter(
        "duels_by_no_weapon",
        "duels challenged without a weapon",
        "Duels whose attacker fought with no weapon (R21), per game.",
        "duels per game",
    ),
    counter(
        "duels_by_sabre",
        "duels challenged with a sabre",
        "Duels whose attacker fought with a sabre (R21), per game.",
        "duels per game",
    ),
    counter(
        "duels_by_pistol",
        "duels challenged with a pistol",
        "Duels whose attacker fought with a pistol (R21), per game.",
        "duels per game",
    ),
    counter(
        "water_turns",
        "turns begun in the water",
        "Turns a pirate began in a whirlpool or on a rock (R13), per game.",
        "turns per game",
    ),
    counter(
        "standup_turns",
        "turns standing up after a cannon",
        "Turns a pirate spent standing up after a cannon knocked it down (R14, C19), per game.",
        "turns per game",
    ),
    counter(
        "whirlpool_0",
        "pirates put into whirlpool 0",
        "Frightened pirates put into whirlpool 0 (the board file's order) by the chooser (R13, C5), per game.",
        "pirates per game",
        shown=False,
    ),
    counter(
        "whirlpool_1",
        "pirates put into whirlpool 1",
        "Frightened pirates put into whirlpool 1 (the board file's order) by the chooser (R13, C5), per game.",
        "pirates per game",
        shown=False,
    ),
    counter(
        "whirlpool_2",
        "pirates put into whirlpool 2",
        "Frightened pirates put into whirlpool 2 (the board file's order) by the chooser (R13, C5), per game.",
        "pirates per game",
        shown=False,
    ),
    counter(
        "whirlpool_3",
        "pirates put into whirlpool 3",
        "Frightened pirates put into whirlpool 3 (the board file's order) by the chooser (R13, C5), per game.",
        "pirates per game",
        shown=False,
    ),
)


# `sim bench`: 2-thread target of issue 11, no start-up targets set; a timing plays 1/20 of --games (a Galleon game
# costs about 50 Moor games)
BENCH = BenchSpec(
    "scenarios/galleon/4p.toml",
    {"games_per_s_2_threads": 5_000, "cold_compile_s": None, "first_game_warm_s": None},
    rank=2,
    compile_rank=3,
    short="Galleon",
    arc="scenarios/galleon/2p.toml",
    arc_rank=1,
    share=20,
    reps=3,
    compiles=("scenarios/galleon/4p.toml",),
)


SPEC = register(
    GameSpec(
        name="galleon",
        title="Ghostly Galleon",
        rules_version=R.RULES_VERSION,
        min_players=2,
        max_players=4,
        params=worded(tuple(ParamSpec(*p) for p in P.PARAM_SPECS), WORDS) + (SECONDS,),
        strategies=tuple(
            learned_strategy("galleon", "player", sid, h, F)
            if sid == S.S_LEARNED
            else StrategySpec(name, sid, h, "player", WEIGHTS if sid == S.S_WEIGHTED else ())
            for name, sid, h in S.STRATEGIES
        )
        + (search_strategy("player", ROLLOUTS, deviate=1.0, root="halving"),),
        kernel_module="kernels.galleon.play",
        check=P.check,
        pack=P.pack,
        replay=replay,
        extra_columns=EXTRA_COLUMNS,
        score_range=(0, 15),
        arc_len=96,
        n_sparams=max(S.N_SPARAMS, F.N_LEARNED_PARAMS),
        rules_file="kernels/galleon/RULES.md",
        measures=MEASURES,
        seat_scope=(
            "each seat starts from its own hideout in every game (the start player rotates, the hideouts "
            "do not), so a seat's figures include its hideout's place on this board"
        ),
        board=BoardSpec(
            marks=("cannons", "whirlpools"),
            tables="a Galleon bay has [board] with [[cannons]] and [[whirlpools]]",
            module="kernels.galleon.board",
            figure="sim.pages.board_svg:galleon_figure",
            noun="the bay and ship",
        ),
        check_sizes=(500, 50_000, 2_000),  # a few hundred turns a game (~3,000 games/s a thread)
        search_check_sizes=(20, 500, 20),  # a search game at 64 rollouts costs about 0.5 CPU s
        box_minutes=BOX[0],
        box_source=BOX[1],
        # fitted to the rollouts' action values, not the search's choices: at 64 rollouts over ~20 destinations the
        # search plays the same move again on other rollouts in 15% of its decisions (docs/guide/learned.md)
        learners=(
            Learner(
                "player",
                "kernels.galleon.features",
                "learned",
                "raider",
                4,
                target="action_values",
                bootstrap="raider",  # the shipped policy's first rollouts; the search's default is now the policy itself
                window=1,
                steps=(0.1, 0.2, 0.5),
            ),
        ),
        bench=BENCH,
        compile_s=218,  # tests/warm_kernels.py of every scenario file, cold cache, busy 2-core machine, 2026-12-06
    )
)
