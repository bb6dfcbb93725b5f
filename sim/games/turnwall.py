"""The Ghosts of Castle Turnwall: its GameSpec and turn-by-turn replay in words (with the board after each move)."""

from __future__ import annotations

from kernels.turnwall import board as B
from kernels.turnwall import features as F
from kernels.turnwall import params as P
from kernels.turnwall import rules as R
from kernels.turnwall import strategies as S
from kernels.turnwall.columns import EXTRA_COLUMNS
from sim.games._trace import trace
from sim.model.catalogue import counter, score
from sim.model.policy import learned_params
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
    "board": "castle board",
    "max_turns": ("turn limit", "turns"),
    "moves_per_turn": "moves per turn",
    "must_use_all_moves": "every move must be used",
    "slider_off_board": "a slider pushing a ghost off the board",
    "turn_collision": "which ghost a board turn moves aside",
    "turn_physics": "how a board turn moves the ghosts",
    "ghost_width_pct": ("a ghost's width", "% of a space"),
    "magnet_polarity": "which magnets grip a ghost",
    "ghost_poles": "ghosts' magnet poles",
    "decks_moved": "a searched deck changes places",
    "decks_moved_seen": "everyone sees where a moved deck goes",
    "deck_view": "what everyone sees of a deck",
    "recall_own": "memory of its own searches",
    "recall_table": "memory of what the table saw of searches",
    "knows_magnets": "knows where the magnets grip (1: yes)",
    "w_find": "weight on finding a garment",
    "w_near": "weight on ending near a garment",
    "w_rival": "weight against rivals on its garments",
    "w_moves": "weight against moves used",
    "w_full": "try every slide (1: yes)",
    "w_shift": "try moving sliders to other tunnels (1: yes)",
}
MEMORY = worded(tuple(ParamSpec(n, "float", d, (0.0, 1.0), h) for n, d, h in S.MEMORY_SPECS), WORDS)
# a search seat's memory (its row's columns from kernels.search.N_SEARCH_PARAMS on; strategies.effective_rows reads
# them), the planner's by default: what it remembers decides what its rollouts re-deal (step.sample_hidden)
SEARCH_MEMORY = MEMORY[:2]
# a search seat's rollout strategies, the default first: the learned ghost, with sequential halving and deviate 1 (at 64
# rollouts +28.7 points [+20.2, +37.3] head to head over the planner's rollouts with ucb1, the former default, at
# 256 +16.5 [+3.3, +29.7]; at 64 it beats that search at 256 by +12.5 [+2.5, +22.5]: docs/guide/learned.md);
# kernels/turnwall/RULES.md X3
ROLLOUTS = ("learned", "planner", "weighted", "spoiler", "random")
WEIGHTS = MEMORY + worded(tuple(ParamSpec(n, "float", d, (-1000.0, 1000.0), h) for n, d, h in S.WEIGHT_SPECS), WORDS)
# the box: about 20 min for 2-4 players; a default 4-player game is about 24 turns (reports/baselines/turnwall/4p.json)
BOX = (
    (20, 20),
    "publisher (Zoch): 2-4 players, about 20 min (https://www.reich-der-spiele.de/kritiken/ab-durch-die-mauer, "
    "https://unser-spieleabend.de/2019/05/10/ab-durch-die-mauer-von-zoch/)",
)
SECONDS = seconds_per_turn(
    54.0,
    "54 s (three magical moves on a turning board, then a search) puts a default "
    "4-player game (about 22 turns at rules version 4) at about 20 min, the box's time (publisher)",
)
COLOURS = ("green", "red", "yellow", "blue")
DIRS = ("north", "east", "south", "west")


def move_words(a: int) -> str:
    """Readable name of magical move ``a``."""
    if a < R.A_SLIDE:
        return f"drags its ghost {DIRS[a - R.A_DRAG]}"
    if a < R.A_SHIFT:
        k = a - R.A_SLIDE
        return f"{'pulls slider' if k % 2 else 'pushes slider'} {k // 2} {'out' if k % 2 else 'in'} one segment"
    if a < R.A_TURN:
        k = a - R.A_SHIFT
        s, t, depth = k // R.SHIFT_PER_SLIDER, (k % R.SHIFT_PER_SLIDER) // R.DEPTHS, k % R.DEPTHS
        return f"moves slider {s} to tunnel {t}, {count(depth, 'segment')} out"
    return f"turns the board {'clockwise' if a == R.A_TURN else 'anticlockwise'}"


def action_name(a: int, prm=None) -> str:
    """Turnwall action ``a`` (RULES.md "State, actions, chance") in a player's words: 'drag north', 'turn the board
    clockwise', 'search deck 2', 'end the turn'. ``prm`` unused (the contract's signature)."""
    if a < R.A_SLIDE:
        return f"drag {DIRS[a - R.A_DRAG]}"
    if a < R.A_SHIFT:
        k = a - R.A_SLIDE
        return f"{'pull' if k % 2 else 'push'} slider {k // 2} {'out' if k % 2 else 'in'}"
    if a < R.A_TURN:
        k = a - R.A_SHIFT
        s, t, depth = k // R.SHIFT_PER_SLIDER, (k % R.SHIFT_PER_SLIDER) // R.DEPTHS, k % R.DEPTHS
        return f"move slider {s} to tunnel {t}, {count(depth, 'segment')} out"
    if a < R.A_PLACE:
        return f"turn the board {'clockwise' if a == R.A_TURN else 'anticlockwise'}"
    if a < R.A_SEARCH:
        c = a - R.A_PLACE
        return f"place the ghost on [{c // 7}, {c % 7}]"
    if a < R.A_END:
        return f"search deck {a - R.A_SEARCH}"
    return "end the turn"


def board_lines(board: B.Board, cells: list[int], rot: int, sliders: list[tuple[int, int]]) -> list[str]:
    """The board as text in its own coordinates (as printed): walls '|' and '-', plug 'O', garment spaces '*',
    ghosts by colour initial (G R Y B), then the orientation and where the sliders are."""
    grid = [[" "] * 15 for _ in range(15)]
    for i in range(15):
        grid[0][i] = grid[14][i] = "-"
        grid[i][0] = grid[i][14] = "|"
    for r, c in ((0, 0), (0, 14), (14, 0), (14, 14)):
        grid[r][c] = "+"
    for c in range(B.N_CELLS):
        r, k = divmod(c, 7)
        ch = "O" if c == B.PLUG else ("*" if c in board.garment_cells else ".")
        grid[2 * r + 1][2 * k + 1] = ch
        if board.walls[c] & B.WALL_E and k < 6:
            grid[2 * r + 1][2 * k + 2] = "|"
        if board.walls[c] & B.WALL_S and r < 6:
            grid[2 * r + 2][2 * k + 1] = "-"
    for g, c in enumerate(cells):
        if c >= 0:
            r, k = divmod(c, 7)
            grid[2 * r + 1][2 * k + 1] = COLOURS[g][0].upper()
    out = ["    " + "".join(row) for row in grid]
    out.append(
        f"    board turned {rot * 90} degrees clockwise; sliders (tunnel, pulled out): "
        + ", ".join(f"{s}: ({t}, {p})" for s, (t, p) in enumerate(sliders))
    )
    return out


def _words(ev, gname, who) -> str:
    """One logged event (kernels.turnwall.rules E_*) in words."""
    e, a, b, c, d, _ = (int(x) for x in ev)
    if e == R.E_MOVE:
        return f"  {move_words(a)} ({count(c, 'move')} left)"
    if e == R.E_PLACE:
        return (
            f"    the {COLOURS[a]} ghost {'is put on the empty corner' if c else 'is displaced to'} [{b // 7}, {b % 7}]"
        )
    if e == R.E_SEARCH:
        res = ("does not find it", "FINDS it", "cannot find it: that card is already taken")[d]
        return f"  searches deck {b} for {gname(c)}: {res}"
    if e == R.E_END:
        return "  ends the turn" + (f" with {count(b, 'move')} unused" if b else "")
    if e == R.E_WIN:
        return f"END: {who(a)} has a garment for every body part"
    return f"  event {e}"


def replay(scenario, game: int, show_board: bool = True) -> list[str]:
    """Game ``game`` of ``scenario`` turn by turn in words, identical to that game of a batch run; the board is
    drawn after every magical move (R1..R14 of kernels/turnwall/RULES.md)."""
    import numpy as np

    from kernels.turnwall import play

    n = scenario.players
    prm = scenario.prm()
    board = B.load_board(scenario.params["board"])
    search = search_scratch(scenario, play, RECORD_LEN, prm)
    tr = trace(scenario, game, play, 200_000, 200_000, search)
    gname = lambda gm: f"the {board.garment_names[gm]} ({board.parts[gm // 4]})"  # noqa: E731
    who = lambda s: f"seat {s} ({COLOURS[s]}, {scenario.seats[s].strategy})"  # noqa: E731
    lines = [f"Game {game} of {scenario.name}: {n} players, board {board.name}, seat {game % n} starts"]
    steps = tr.steps
    deal = [int(v) for k, v in steps[1 : int(steps[0, 0]) + 1] if k == play.K_DEAL]
    for k in range(4):
        lines.append(f"  deck {k}: " + ", ".join(board.garment_names[deal[p * 4 + k]] for p in range(5)))
    # the recorded actions again, one at a time, on a fresh state: each action's own events, then the board
    pos = np.zeros(R.S_SIZE, np.int32)
    R.init(pos, prm, n, game % n)
    R.deal(pos, np.asarray(deal, np.int32))
    rec = [(j, int(k), int(v)) for j, (k, v) in enumerate(steps[1 : int(steps[0, 0]) + 1], 1) if k != play.K_DEAL]
    ghosts = lambda: [int(pos[R.S_GPOS + g]) for g in range(n)]  # noqa: E731
    sliders = lambda: [(int(pos[R.S_STUN + s]), int(pos[R.S_SPOS + s])) for s in range(3)]  # noqa: E731
    if show_board:
        lines += board_lines(board, ghosts(), 0, sliders())
    turn = -1
    notes = SearchNotes(search, who, lambda a: action_name(a, prm))
    for j, kind, v in rec:
        if kind == play.K_SWAP:
            lines.append(f"  decks {int(pos[R.S_LAST_DECK])} and {v} change places")
            R.swap_decks(pos, int(pos[R.S_LAST_DECK]), v)
            continue
        if int(pos[R.S_TURNS]) != turn:
            turn = int(pos[R.S_TURNS])
            lines.append(f"turn {turn + 1} (round {turn // n + 1}): {who(int(pos[R.S_CUR]))}")
        lines += notes.until(j - 1)  # a search decision, where it was made (log_mark: the steps recorded before it)
        log = np.zeros((16, 6), np.int32)
        R.apply_action(pos, prm, v, log)
        lines += [_words(log[r], gname, who) for r in range(1, int(log[0, 0]) + 1)]
        if show_board and v < R.A_SEARCH and pos[R.S_NPEND] == 0:
            lines += board_lines(board, ghosts(), int(pos[R.S_ROT]), sliders())
    lines += notes.rest()
    return lines + ending(tr.status, tr.turns, tr.rounds, tr.scores[:n], tr.winners, who, lambda v: count(v, "part"))


PARTS = ("head", "face", "body", "legs", "hand")
# the catalogue of measures (sim.model.catalogue): what each counter column of kernels/turnwall/columns.py counts
MEASURES = (
    score("seat {seat}'s score", "body parts", "Body parts seat {seat}'s ghost has dressed at the end (5 wins)."),
    counter(
        "searches_found",
        "searches that found the garment",
        "Searches (R12/R13) that found the garment sought, per game.",
        "searches per game",
    ),
    counter(
        "searches_not_found",
        "searches that missed",
        "Searches whose deck did not hold the garment sought, per game.",
        "searches per game",
    ),
    counter(
        "searches_wasted",
        "searches for a garment already taken",
        "Searches for a garment another ghost had already taken, per game.",
        "searches per game",
    ),
    counter(
        "drags", "ghost drags", "Magical moves that dragged the mover's ghost one space, per game.", "moves per game"
    ),
    counter(
        "slides",
        "slider pushes and pulls",
        "Magical moves that pushed or pulled a slider one segment, per game.",
        "moves per game",
    ),
    counter(
        "shifts", "slider shifts", "Magical moves that moved a slider to another tunnel, per game.", "moves per game"
    ),
    counter(
        "searches_part_gone",
        "searches of a deck with no card of that body part left",
        "Searches of a deck that no longer held any card of the body part sought (a seat that sees or remembers "
        "the decks avoids them), per game.",
        "searches per game",
    ),
    counter("rotations", "board turns", "Magical moves that turned the board, per game.", "moves per game"),
    counter(
        "ghosts_displaced",
        "ghosts displaced by a board turn",
        "Ghosts a board turn stopped on the way (C12: against a held or stopped ghost; they stand still while the "
        "board turns on beneath them), per game.",
        "ghosts per game",
    ),
    counter(
        "ghosts_ejected",
        "ghosts ejected",
        "Ghosts put on an empty corner after a board turn: pushed off the board (on no space after the turn), or "
        "every space they stand on taken, per game.",
        "ghosts per game",
    ),
    counter("ghosts_pushed", "ghosts pushed by a slider", "Ghosts a slider pushed along, per game.", "ghosts per game"),
    counter("plug_stops", "slides stopped by the plug", "Slider moves the plug stopped, per game.", "slides per game"),
    counter(
        "turns_ended_early",
        "turns ended with moves left",
        "Turns a player ended before using every magical move, per game.",
        "turns per game",
    ),
) + tuple(
    counter(f"taken_{p}", f"{p} garments taken", f"Garments for the {p} taken over the game.", "garments per game")
    for p in PARTS
)


def _strategy_params(sid: int) -> tuple:
    if sid == S.S_RANDOM:
        return ()
    if sid == S.S_LEARNED:  # temperature and weights (the shipped policy), then the memory (features.MEMORY_COL)
        return learned_params("turnwall", "player", F) + MEMORY
    return WEIGHTS if sid == S.S_WEIGHTED else MEMORY


# `sim bench` (issue 10): the 4-player planner table (target >= 2,000 games/s on 2 threads) and 4 random players,
# kernel only (the start-up timings are the shared machinery's, measured on Moor and Treasure Hunters); a planner
# game costs about 100 Moor games
BENCH = BenchSpec(
    "scenarios/turnwall/4p.toml",
    {"games_per_s_2_threads": 2_000},
    rank=3,
    compile_rank=2,
    short="Turnwall",
    arc="scenarios/turnwall/4p.toml",
    arc_rank=3,
    share=20,
    reps=3,
    startup=False,
    random_share=4,
    compiles=("scenarios/turnwall/4p.toml",),
)


SPEC = register(
    GameSpec(
        name="turnwall",
        title="The Ghosts of Castle Turnwall",
        rules_version=R.RULES_VERSION,
        min_players=2,
        max_players=4,
        params=worded(tuple(ParamSpec(*p) for p in P.PARAM_SPECS), WORDS) + (SECONDS,),
        strategies=tuple(StrategySpec(name, sid, h, "player", _strategy_params(sid)) for name, sid, h in S.STRATEGIES)
        + (search_strategy("player", ROLLOUTS, extra=SEARCH_MEMORY, deviate=1.0, root="halving"),),
        kernel_module="kernels.turnwall.play",
        check=P.check,
        pack=P.pack,
        replay=replay,
        extra_columns=EXTRA_COLUMNS,
        score_range=(0, 5),
        arc_len=24,
        n_sparams=max(S.N_SPARAMS, F.N_ROW),
        rules_file="kernels/turnwall/RULES.md",
        measures=MEASURES,
        ladder_rungs=("planner:recall_own=0.5,recall_table=0.5",),  # one memory level as a rung of its own
        seat_scope=(
            "each seat starts on its own corner of the castle in every game (the start player rotates, the "
            "corners do not), so a seat's figures include its corner's place on this board"
        ),
        board=BoardSpec(
            marks=("floor",),
            tables="a Turnwall castle has [board] and [floor]",
            module="kernels.turnwall.board",
            figure="sim.pages.board_svg:castle_figure",
            noun="the castle",
        ),
        check_sizes=(500, 25_000, 1_000),  # a planner game costs ~100 Moor games
        search_check_sizes=(24, 600, 24),  # a search game at 16 rollouts costs about 0.16 CPU s
        box_minutes=BOX[0],
        box_source=BOX[1],
        # search labels the move it plays (a decision offers 5-30 moves, more than 64 rollouts tell apart by visits)
        # the first rollouts are the planner's, as the shipped policy's were (the search's default is now the policy)
        learners=(
            Learner("player", "kernels.turnwall.features", "learned", "planner", 4, "chosen", bootstrap="planner"),
        ),
        bench=BENCH,
        compile_s=232,  # tests/warm_kernels.py of every scenario file, cold cache, busy 2-core machine, 2026-12-06
    )
)
