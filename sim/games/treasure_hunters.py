"""Ghost Fightin' Treasure Hunters (Anniversary Edition): its GameSpec and turn-by-turn replay in words."""
from __future__ import annotations

from pathlib import Path

from sim.registry import GameSpec, ParamSpec, StrategySpec, register
from sim import boards
from sim.scenario import FILE_PARAMS, FILE_PATHS
from kernels.treasure_hunters import board as B
from kernels.treasure_hunters import params as P
from kernels.treasure_hunters import rules as R
from kernels.treasure_hunters import strategies as S
from kernels.treasure_hunters.play import CURVE_LEN, CURVES, EXTRA_COLUMNS, LOST_JEWELS_LABELS

HUNTER_WEIGHTS = tuple(ParamSpec(n, "float", d, (-1000.0, 1000.0), h) for n, d, h in S.WEIGHT_SPECS)
HAUNTER_WEIGHTS = tuple(ParamSpec(n, "float", d, (-1000.0, 1000.0), h) for n, d, h in S.HH_WEIGHT_SPECS)
LETTERS = R.ROOM_LETTERS
DIE = ("blank", "ghost", "haunting")


def card_name(ct: int) -> str:
    """Readable name of card type ``ct``."""
    if ct < R.CT_SHUFFLE:
        return f"room card {LETTERS[ct]}"
    if R.CT_HROOM <= ct < R.CT_HROOM + R.N_ROOMS:
        return f"black room card {LETTERS[ct - R.CT_HROOM]}"
    if R.CT_GROUP <= ct < R.CT_GROUP + 3:
        g = ct - R.CT_GROUP
        return "/".join(LETTERS[g * 4:g * 4 + 4]) + " card"
    if R.CT_MOVE <= ct < R.CT_MOVE + 3:
        return f"Move Ghost {ct - R.CT_MOVE + 1}"
    return {R.CT_SHUFFLE: "Shuffle", R.CT_DRAW2: "Draw 2 + Shuffle", R.CT_DRAW3: "Draw 3 + Shuffle",
            R.CT_DOOR_BLUE: "blue Door", R.CT_DOOR_GREEN: "green Door", R.CT_ADD1: "Add 1 Ghost",
            R.CT_ADD2: "Add 2 Ghosts", R.CT_SPOOK: "Spook"}[ct]


def _dice(code: int) -> str:
    if code < 0:
        return DIE[-1 - code]
    return f"{DIE[code // 3]} + {DIE[code % 3]}"


def _target(ct: int, a: int) -> str:
    if R.A_ROOM <= a < R.A_ROOM + 12:
        return f"room {LETTERS[a - R.A_ROOM]}"
    if R.A_PAIR <= a < R.A_PAIR + 6:
        g = ct - R.CT_GROUP
        i, j = R.PAIRS[a - R.A_PAIR]
        return f"rooms {LETTERS[g * 4 + i]} and {LETTERS[g * 4 + j]}"
    if R.A_MOVEG <= a < R.A_MOVEG + 24:
        code = a - R.A_MOVEG
        return f"the ghost in room {LETTERS[code // 2]} {'up' if code % 2 == 0 else 'down'} the alphabet"
    if R.A_SPOOK <= a < R.A_SPOOK + 4:
        return f"hunter {a - R.A_SPOOK + 1}"
    return str(a)


def replay(scenario, game: int) -> list[str]:
    """Game ``game`` of ``scenario`` turn by turn in words, identical to that game of a batch run."""
    import numpy as np
    from kernels.treasure_hunters import play
    n = scenario.players
    values = scenario.params
    prm = scenario.prm()
    board = B.load_board(values["board"])
    node = board.node_name
    log, steps, scores, wseat, status, turns, rounds, extra, st = play.trace_game(
        np.uint64(scenario.seed), np.uint64(0), game, n, prm, scenario.sids(), scenario.sparams(), 200_000, 2)
    mode = values["mode"]
    nh = int(prm[R.P_N_HUNTERS])
    seat_of = [int(st[R.S_HSEAT + h]) for h in range(nh)]
    hunter = lambda h: f"hunter {h + 1} (seat {seat_of[h]}, {scenario.seats[seat_of[h]].strategy})"  # noqa: E731
    lines = [f"Game {game} of {scenario.name}: {mode}, {n} players, {nh} hunters, board {board.name}"]
    if mode == "head_haunter":
        lines.append(f"  the Head Haunter is seat 0 ({scenario.seats[0].strategy})")
    lines.append("  turn order: " + ", ".join(hunter(h) for h in range(nh)))
    jr = ", ".join(LETTERS[int(prm[R.P_JEWEL_ROOMS + j])] for j in range(8))
    if mode == "advanced":
        nums = ", ".join(f"{LETTERS[int(prm[R.P_JEWEL_ROOMS + j])]}={int(st[R.S_JNUM + j])}" for j in range(8))
        lines.append(f"  jewels in rooms {jr}; numbers face down: {nums}")
    else:
        lines.append(f"  jewels in rooms {jr}; ghosts in rooms "
                     + ", ".join(LETTERS[int(prm[R.P_START_ROOMS + i])] for i in range(int(prm[R.P_N_START]))))
    jname = lambda j: f"the jewel from room {LETTERS[int(prm[R.P_JEWEL_ROOMS + j])]}"  # noqa: E731
    for r in range(1, int(log[0, 0]) + 1):
        e, a, b, c, d, t = (int(x) for x in log[r])
        if e == R.E_TURN:
            lines.append(f"turn {t} (round {c}): {hunter(a)}")
        elif e == R.E_ROLL:
            lines.append(f"  {'rerolls' if d else 'rolls'} {b}{' with the ghost icon' if c else ''}")
        elif e == R.E_CARD:
            who = "the Head Haunter plays" if d else ("draws as part of the Draw" if c else "flips")
            lines.append(f"  {who} {card_name(b)}")
        elif e == R.E_GHOST:
            past = f" (room {LETTERS[a]} is haunted: it moves on)" if a != b else ""
            verb = "a ghost arrives in" if d else "the ghost lands in"
            lines.append(f"  {verb} room {LETTERS[b]}{past}: {c} there")
        elif e == R.E_HAUNT:
            lines.append(f"  room {LETTERS[a]} is HAUNTED ({b} hauntings on the board)")
        elif e == R.E_SHUFFLE:
            lines.append(f"  the deck is shuffled ({a} cards){': every door unlocks' if b else ''}")
        elif e == R.E_LOCK:
            lines.append(f"  the {('', 'blue', 'green')[a]} doors lock")
        elif e == R.E_MOVE:
            lines.append(f"  moves from {node(b)} to {node(c)}")
        elif e == R.E_REVEAL:
            lines.append(f"  turns up {jname(a)}: number {b}")
        elif e == R.E_PICK:
            lines.append(f"  picks up {jname(b)}")
        elif e == R.E_DELIVER:
            lines.append(f"  drops {jname(b)} into the wagon ({d} of 8)")
        elif e == R.E_WAIT:
            lines.append(f"  waits outside with jewel number {c}: it cannot leave before the lower numbers")
        elif e == R.E_FIGHT:
            helper = f" with hunter {b + 1} helping" if b >= 0 else " alone"
            lines.append(f"  fights{helper}: {_dice(c)} -> {d} ghost(s) removed")
        elif e == R.E_UNHAUNT:
            lines.append(f"  tries to unhaunt with hunter {b + 1}: {_dice(c)} -> "
                         f"{'the haunting is removed' if d else 'no haunting icon'}")
        elif e == R.E_REROLL:
            what = ("the movement die", "its fight die", "the helper's fight die")[b]
            lines.append(f"  hunter {a + 1} uses its reroll card on {what}")
        elif e == R.E_SIX:
            lines.append(f"  the 6 discards a random Head Haunter card: {card_name(c)}")
        elif e == R.E_SPOOK:
            drop = f", dropping {jname(b)}" if b >= 0 else ""
            lines.append(f"  spooks hunter {a + 1} in {node(c)}{drop}")
        elif e == R.E_SPOOK_MOVE:
            lines.append(f"  hunter {a + 1} is chased from {node(b)} to {node(c)}")
        elif e == R.E_MOVE_GHOST:
            lines.append(f"  moves a ghost from room {LETTERS[a]} toward room {LETTERS[b]}")
        elif e == R.E_STUCK:
            lines.append(f"  hunter {a + 1} is STUCK holding a jewel in haunted room {LETTERS[b]}")
        elif e == R.E_NO_EFFECT:
            lines.append(f"  {card_name(b)} has nothing to act on")
        elif e == R.E_NESTED:
            lines.append(f"  {card_name(b)} {'counts as a drawn card but does nothing' if c else 'is skipped'}")
        elif e == R.E_TARGET:
            lines.append(f"    on {_target(b, c)}")
        elif e == R.E_END:
            why = (f" (all {int(prm[R.P_HAUNTINGS])} haunting pieces on the board)"
                   if a in (R.OUT_SIX, R.OUT_HH_SIX) else "")    # the label keeps the rulebook's name (RULES.md)
            lines.append(f"END: {R.OUTCOME_LABELS[a]}{why}")
    lines.append(f"final after {turns} hunter turns, {rounds} rounds: {int(st[R.S_DELIVERED])} jewels in the wagon, "
                 f"{int(st[R.S_HAUNTS])} hauntings, {int(st[R.S_GHOSTS_ON])} ghosts on the board")
    winners = [s for s in range(n) if (wseat >> s) & 1]
    lines.append("winner: " + (", ".join(f"seat {s} ({scenario.seats[s].strategy})" for s in winners)
                               if winners else ("none (truncated)" if status == 1 else "none: the house wins")))
    return lines


def resolve_board(ref: str, here: Path) -> str:
    """The board a scenario file in folder ``here`` means by ``board = ref`` (sim.boards.resolve: beside the
    scenario first, then scenarios/treasure_hunters/boards/)."""
    return boards.resolve(ref, here, B.BOARDS_DIR)


FILE_PARAMS[("treasure_hunters", "board")] = resolve_board
FILE_PATHS[("treasure_hunters", "board")] = B.resolve_path


def _check(values: dict, players: int, given: frozenset = frozenset()) -> str | None:
    return P.check(values, players, given)


def _roles(values: dict, players: int) -> list[str]:
    if values.get("mode") == "head_haunter":
        return ["haunter"] + ["hunter"] * (players - 1)
    return ["hunter"] * players


def _strategy_params(name: str, sid: int) -> tuple:
    if sid == S.S_WEIGHTED:
        return HUNTER_WEIGHTS
    if sid == S.S_HH_WEIGHTED:
        return HAUNTER_WEIGHTS
    return ()


SPEC = register(GameSpec(
    name="treasure_hunters",
    title="Ghost Fightin' Treasure Hunters (Anniversary Edition)",
    rules_version=R.RULES_VERSION,
    min_players=2,
    max_players=5,
    params=tuple(ParamSpec(*p, fields=P.FIELDS.get(p[0], ()), labels=P.LABELS.get(p[0], ()),
                             parts=P.PARTS.get(p[0], ())) for p in P.PARAM_SPECS),
    strategies=tuple(StrategySpec(name, sid, h, role, _strategy_params(name, sid))
                     for name, sid, h, role in S.STRATEGIES),
    kernel_module="kernels.treasure_hunters.play",
    check=_check,
    pack=lambda values, players: P.pack(values, players),
    replay=replay,
    extra_columns=EXTRA_COLUMNS,
    score_range=(0, 8),
    roles=_roles,
    categorical={"outcome": R.OUTCOME_LABELS, "lost_jewels_out": LOST_JEWELS_LABELS},
    curves=CURVES,
    curve_len=CURVE_LEN,
    team_roles=("hunter",),
    n_sparams=S.N_SPARAMS,
    rules_file="kernels/treasure_hunters/RULES.md",
    role_titles={"haunter": "Head Haunter"},
    role_seats={"haunter": 'seat 0 of a mode = "head_haunter" game', "hunter": "the hunter seats"},
))
