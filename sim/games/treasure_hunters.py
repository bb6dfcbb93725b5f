"""Ghost Fightin' Treasure Hunters (Anniversary Edition): its GameSpec and turn-by-turn replay in words."""

from __future__ import annotations

from kernels.treasure_hunters import board as B
from kernels.treasure_hunters import features as F
from kernels.treasure_hunters import haunter_features as HF
from kernels.treasure_hunters import params as P
from kernels.treasure_hunters import rules as R
from kernels.treasure_hunters import strategies as S
from kernels.treasure_hunters.columns import CURVE_LEN, CURVES, EXTRA_COLUMNS
from kernels.treasure_hunters.play import LOST_JEWELS_LABELS
from sim.games._th_measures import MEASURES
from sim.games._trace import trace
from sim.model.policy import learned_strategy
from sim.model.registry import (
    BenchMode,
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
from sim.model.search import RECORD_LEN, SEARCH_HELP, SearchNotes, search_scratch, search_strategy
from sim.model.words import count

# what pages call each parameter, in a player's words (sim.model.registry.ParamSpec label, unit)
WORDS = {
    "mode": "way to play",
    "board": "house board",
    "max_turns": ("turn limit", "hunter turns"),
    "move_die": ("movement die faces", "spaces"),
    "move_die_ghost": "ghost icons on the movement die",
    "fight_die": "fight die faces",
    "ghost_cards": ("green ghost cards", "cards"),
    "hh_cards": ("black Head Haunter cards", "cards"),
    "hh_single_use": "single-use black cards",
    "hand_size": ("Head Haunter hand size", "cards"),
    "hauntings": ("haunting pieces", "pieces"),
    "reroll_cards": "reroll cards",
    "spook_range": ("Spook card reach", "spaces"),
    "fight_optional": "fighting is optional",
    "nested_draw_counts": "a Shuffle drawn in Draw 2/3 counts",
    "reveal_jewel_on_enter": "jewels turned up on entering a room",
    "carrier_may_pass_haunted": "a jewel carrier may pass haunted rooms",
    "pickup_requires_clear_room": "jewels picked up only in ghost-free rooms",
    "fight_when_staying": "a hunter that stays put fights",
    "move_ghost_wraps": "Move Ghost wraps round past A and L",
    "carrier_may_wait_outside": "a jewel carrier may wait outside",
    "pickup_in_haunted_room": "jewels picked up in haunted rooms",
    "pickup_when_staying": "a hunter that stays put picks up",
    "group_ghosts_distinct": "letter-group ghosts end in different rooms",
    "helper_decides_reroll": "the helper decides its reroll",
    "w_dist": "weight against distance",
    "w_jewel": "weight on its jewel's room",
    "w_reveal": "weight on face-down jewels",
    "w_ghost1": "weight on one-ghost rooms",
    "w_ghost2": "weight on two-ghost rooms",
    "w_help": "weight on fighting beside a hunter",
    "w_unhaunt": "weight on unhaunting with a partner",
    "w_unhaunt_alone": "weight on waiting in a haunted room",
    "w_rescue": "weight on rescuing a stuck carrier",
    "w_exit": "weight on going outside",
    "reroll_move_haunts": ("hauntings out before a movement reroll", "hauntings"),
    "reroll_fight_ghosts": ("ghosts in the room before a fight reroll", "ghosts"),
    "reroll_unhaunt": "reroll a failed unhaunting (0.5 or more: yes)",
    "w_haunt": "weight on hauntings",
    "w_sq": "weight on crowding ghosts",
    "w_trap": "weight on trapped carriers",
    "w_carrier_room": "weight on ghosts beside a carrier",
    "w_jewel_room": "weight on ghosts beside a jewel",
    "w_spook": "weight on spooking carriers back",
    "w_draw": "weight on Draw cards",
}
HUNTER_WEIGHTS = worded(tuple(ParamSpec(n, "float", d, (-1000.0, 1000.0), h) for n, d, h in S.WEIGHT_SPECS), WORDS)
HAUNTER_WEIGHTS = worded(tuple(ParamSpec(n, "float", d, (-1000.0, 1000.0), h) for n, d, h in S.HH_WEIGHT_SPECS), WORDS)
# a search seat's rollout strategies, the default first (the strongest team and Head Haunter on the ladder:
# docs/guide/ladder.md, `issues stops`); the Head Haunter's search is `haunter_search` (strategy names are unique)
# the hunters' search rolls out with their learned team by default: at 64 rollouts 52.5% against 33.0% with weighted
# rollouts, +19.5 points [+13.1, +25.9], 400 paired basic games (docs/guide/learned.md)
HUNTER_ROLLOUTS = ("learned", "weighted", "runners", "busters", "random", "passive")
# the Head Haunter's search rolls out with its learned player by default, with sequential halving and deviate 1: at
# 64 rollouts 96.0% against 86.7% with haunter_weighted rollouts and ucb1 (the former default), -9.3 points [-13.7,
# -4.9] for that one, 300 paired games (docs/guide/learned.md)
HAUNTER_ROLLOUTS = ("haunter_learned", "haunter_weighted", "haunter_trapper", "haunter_builder", "haunter_random")
# the learned players (`sim train treasure_hunters --role hunter|haunter`, docs/guide/learned.md). The hunters: one
# policy for the basic and the advanced game, trained as a team (every hunter seat searching, the team's win the
# reward) with the hunters' own search settings (sequential halving, deviate 2: a team of UCB1 searchers overrules the
# team's plan on noise), fitted to the rollouts' action values (the search's choices leave weighted's move in 2% of
# decisions, and searched again on other rollouts only 12% of those repeat: no model imitates them) and judged by
# the team's win rate against the weighted team's; in the advanced game the
# weighted team plays its tuned w_jewel (advanced-4p.toml) as reference and first rollouts, the row the policy's
# `script` feature plays there (features.ADVANCED_JEWEL). The Head Haunter: against
# weighted hunters, judged against the builder (the best scripted Head Haunter on the ladder).
LEARNERS = (
    Learner(
        "hunter",
        "kernels.treasure_hunters.features",
        "learned",
        "weighted",
        4,
        target="action_values",
        bootstrap="weighted",
        deviate=2.0,
        root="halving",
        team=True,
        variants=((("mode", "basic"),), (("mode", "advanced"),)),
        scripted=((), (("w_jewel", F.ADVANCED_JEWEL),)),
        window=1,
        steps=(0.1, 0.2, 0.5),
    ),
    Learner(
        "haunter",
        "kernels.treasure_hunters.haunter_features",
        "haunter_learned",
        "haunter_builder",
        4,
        bootstrap="haunter_builder",
        opponent="weighted",
        variants=((("mode", "head_haunter"),),),
    ),
)
# the box: about 30 min for 2-5 players; a default basic 4-player game is about 90 hunter turns
# (reports/baselines/treasure_hunters/basic-4p.json)
BOX = (
    (30, 30),
    "publisher (Mattel) and reviews: 2-5 players, 30 min (https://opinionatedgamers.com/2024/09/22/"
    "dale-yu-ghost-fightin-treasure-hunters-anniversary-edition-essen-spiel-2024/)",
)
SECONDS = seconds_per_turn(
    20.0,
    "20 s a hunter turn (roll, move, fight, draw a ghost card) puts a default basic "
    "4-player game (about 90 turns) at about 30 min, the box's time (publisher)",
)
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
        return "/".join(LETTERS[g * 4 : g * 4 + 4]) + " card"
    if R.CT_MOVE <= ct < R.CT_MOVE + 3:
        return f"Move Ghost {ct - R.CT_MOVE + 1}"
    return {
        R.CT_SHUFFLE: "Shuffle",
        R.CT_DRAW2: "Draw 2 + Shuffle",
        R.CT_DRAW3: "Draw 3 + Shuffle",
        R.CT_DOOR_BLUE: "blue Door",
        R.CT_DOOR_GREEN: "green Door",
        R.CT_ADD1: "Add 1 Ghost",
        R.CT_ADD2: "Add 2 Ghosts",
        R.CT_SPOOK: "Spook",
    }[ct]


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


def action_name(a: int, prm, node=None) -> str:
    """Treasure Hunters action ``a`` (RULES.md "Actions") in a player's words: 'end the move on room C', 'pick up
    the jewel from room A', 'play hand card 2', 'Move Ghost from room D down the alphabet'. ``node(v)`` names a
    board node (default 'node v'); an action's meaning is fixed by its id, its card by the state (not named)."""
    name = node or (lambda v: f"node {v}")
    if a < R.A_PASS:
        return f"end the move on {name(a - R.A_MOVE)}"
    if a == R.A_PASS:
        return "pass (keep the die, leave the jewel, do not fight)"
    if a < R.A_FIGHT:
        return f"pick up the jewel from room {LETTERS[int(prm[R.P_JEWEL_ROOMS + a - R.A_PICK])]}"
    if a == R.A_FIGHT:
        return "fight"
    if a == R.A_REROLL0:
        return "use the reroll card (the movement die, or its own fight die)"
    if a == R.A_REROLL1:
        return "use the reroll card on the helper's fight die"
    if a < R.A_ROOM:
        return f"play hand card {a - R.A_SLOT + 1}"
    if a < R.A_PAIR:
        return f"target room {LETTERS[a - R.A_ROOM]}"
    if a < R.A_MOVEG:
        i, j = R.PAIRS[a - R.A_PAIR]
        return f"target the group's rooms {i + 1} and {j + 1}"
    if a < R.A_SPOOK:
        code = a - R.A_MOVEG
        return f"Move Ghost from room {LETTERS[code // 2]} {'up' if code % 2 == 0 else 'down'} the alphabet"
    return f"spook hunter {a - R.A_SPOOK + 1}"


def replay(scenario, game: int) -> list[str]:
    """Game ``game`` of ``scenario`` turn by turn in words, identical to that game of a batch run."""
    from kernels.treasure_hunters import play

    n = scenario.players
    values = scenario.params
    prm = scenario.prm()
    board = B.load_board(values["board"])
    node = board.node_name
    search = search_scratch(scenario, play, RECORD_LEN)
    tr = trace(scenario, game, play, 200_000, 2, search)
    mode = values["mode"]
    nh = int(prm[R.P_N_HUNTERS])
    st = tr.state
    seat_of = [int(st[R.S_HSEAT + h]) for h in range(nh)]
    hunter = lambda h: f"hunter {h + 1} (seat {seat_of[h]}, {scenario.seats[seat_of[h]].strategy})"  # noqa: E731
    lines = [f"Game {game} of {scenario.name}: {mode}, {n} players, {count(nh, 'hunter')}, board {board.name}"]
    if mode == "head_haunter":
        lines.append(f"  the Head Haunter is seat 0 ({scenario.seats[0].strategy})")
    lines.append("  turn order: " + ", ".join(hunter(h) for h in range(nh)))
    jr = ", ".join(LETTERS[int(prm[R.P_JEWEL_ROOMS + j])] for j in range(8))
    if mode == "advanced":
        nums = ", ".join(f"{LETTERS[int(prm[R.P_JEWEL_ROOMS + j])]}={int(st[R.S_JNUM + j])}" for j in range(8))
        lines.append(f"  jewels in rooms {jr}; numbers face down: {nums}")
    else:
        lines.append(
            f"  jewels in rooms {jr}; ghosts in rooms "
            + ", ".join(LETTERS[int(prm[R.P_START_ROOMS + i])] for i in range(int(prm[R.P_N_START])))
        )
    jname = lambda j: f"the jewel from room {LETTERS[int(prm[R.P_JEWEL_ROOMS + j])]}"  # noqa: E731
    seat_name = lambda s: f"seat {s} ({scenario.seats[s].strategy})"  # noqa: E731
    hand: list[int] = []  # the Head Haunter's hand, card ids by slot, as the log has it so far

    def named(a: int) -> str:  # an action at a search decision, a hand card named by what the slot holds then
        slot = a - R.A_SLOT
        if a >= R.A_ROOM or not 0 <= slot < len(hand):
            return action_name(a, prm, node)
        return f"{action_name(a, prm, node)} ({card_name(int(prm[R.P_CARD_TYPE + hand[slot]]))})"

    def hand_remove(card: int) -> None:  # rules.hand_remove: the last card fills the slot
        if card in hand:
            hand[hand.index(card)] = hand[-1]
            hand.pop()

    notes = SearchNotes(search, seat_name, named)
    for r in range(1, int(tr.log[0, 0]) + 1):
        searched = notes.until(r - 1)  # a search decision, where it was made
        lines += searched
        e, a, b, c, d, t = (int(x) for x in tr.log[r])
        if e == R.E_TURN:
            lines.append(f"turn {t} (round {c}): {hunter(a)}")
        elif e == R.E_ROLL:
            lines.append(f"  {'rerolls' if d else 'rolls'} {b}{' with the ghost icon' if c else ''}")
        elif e == R.E_CARD:
            if d:
                hand_remove(a)
            who = "the Head Haunter plays" if d else ("draws as part of the Draw" if c else "flips")
            lines.append(f"  {who} {card_name(b)}")
        elif e == R.E_GHOST:
            past = f" (room {LETTERS[a]} is haunted: it moves on)" if a != b else ""
            verb = "a ghost arrives in" if d else "the ghost lands in"
            lines.append(f"  {verb} room {LETTERS[b]}{past}: {c} there")
        elif e == R.E_HAUNT:
            lines.append(f"  room {LETTERS[a]} is HAUNTED ({count(b, 'haunting')} on the board)")
        elif e == R.E_SHUFFLE:
            lines.append(f"  the deck is shuffled ({count(a, 'card')}){': every door unlocks' if b else ''}")
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
            lines.append(f"  fights{helper}: {_dice(c)} -> {count(d, 'ghost')} removed")
        elif e == R.E_UNHAUNT:
            lines.append(
                f"  tries to unhaunt with hunter {b + 1}: {_dice(c)} -> "
                f"{'the haunting is removed' if d else 'no haunting icon'}"
            )
        elif e == R.E_REROLL:
            what = ("the movement die", "its fight die", "the helper's fight die")[b]
            lines.append(f"  hunter {a + 1} uses its reroll card on {what}")
        elif e == R.E_HAND:
            hand.append(a)
            lines.append(f"  the Head Haunter draws {card_name(b)} into its hand")
        elif e == R.E_SIX:
            hand_remove(b)
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
            # a search block between a card and its target (the target was the decision) names the card again
            lines.append(f"    {card_name(b) + ' ' if searched else ''}on {_target(b, c)}")
        elif e == R.E_END:
            why = (
                f" (all {int(prm[R.P_HAUNTINGS])} haunting pieces on the board)"
                if a in (R.OUT_SIX, R.OUT_HH_SIX)
                else ""
            )  # the label keeps the rulebook's name (RULES.md)
            lines.append(f"END: {R.OUTCOME_LABELS[a]}{why}")
    lines.append(
        f"final after {count(tr.turns, 'hunter turn')}, {count(tr.rounds, 'round')}: "
        f"{count(int(st[R.S_DELIVERED]), 'jewel')} in the wagon, {count(int(st[R.S_HAUNTS]), 'haunting')}, "
        f"{count(int(st[R.S_GHOSTS_ON]), 'ghost')} on the board"
    )
    lines += notes.rest()
    winners = [s for s in range(n) if (tr.winners >> s) & 1]
    lines.append(
        "winner: "
        + (
            ", ".join(f"seat {s} ({scenario.seats[s].strategy})" for s in winners)
            if winners
            else ("none (truncated)" if tr.status == 1 else "none: the house wins")
        )
    )
    return lines


def _check(values: dict, players: int, given: frozenset = frozenset()) -> str | None:
    return P.check(values, players, given)


def _roles(values: dict, players: int) -> list[str]:
    if values.get("mode") == "head_haunter":
        return ["haunter"] + ["hunter"] * (players - 1)
    return ["hunter"] * players


def _strategy(name: str, sid: int, h: str, role: str) -> StrategySpec:
    if sid == S.S_LEARNED:
        return learned_strategy("treasure_hunters", "hunter", sid, h, F)
    if sid == S.S_HH_LEARNED:
        return learned_strategy("treasure_hunters", "haunter", sid, h, HF, name=name)
    return StrategySpec(name, sid, h, role, _strategy_params(name, sid))


def _hunters(values: dict, players: int) -> int:
    """Hunter turns a round (the unit of ``max_turns``): every seat but the Head Haunter's."""
    return players - 1 if values.get("mode") == "head_haunter" else players


def _strategy_params(name: str, sid: int) -> tuple:
    if sid == S.S_WEIGHTED:
        return HUNTER_WEIGHTS
    if sid == S.S_HH_WEIGHTED:
        return HAUNTER_WEIGHTS
    return ()


# `sim bench` (issue 9): each mode compiles its own kernel (docs/dev/performance.md, "Cold compile"), so the
# advanced and Head Haunter games' cold compiles and all three modes in one process are shown beside the basic game's
_MODES = {
    "basic": "scenarios/treasure_hunters/basic-4p.toml",
    "advanced": "scenarios/treasure_hunters/advanced-4p.toml",
    "head_haunter": "scenarios/treasure_hunters/head_haunter-4p.toml",
}
BENCH = BenchSpec(
    _MODES["basic"],
    {"games_per_s_2_threads": 20_000, "cold_compile_s": 15, "first_game_warm_s": 2},
    rank=1,
    compile_rank=1,
    short="Treasure Hunters",
    arc=_MODES["basic"],
    arc_rank=2,
    modes=(
        BenchMode("head_haunter", "a Head Haunter game", _MODES["head_haunter"]),
        BenchMode("advanced", "an advanced game", _MODES["advanced"]),
    ),
    all_modes=(_MODES["head_haunter"], _MODES["basic"], _MODES["advanced"]),
    compiles=tuple(_MODES.values()),
)


SPEC = register(
    GameSpec(
        name="treasure_hunters",
        title="Ghost Fightin' Treasure Hunters (Anniversary Edition)",
        rules_version=R.RULES_VERSION,
        min_players=2,
        max_players=5,
        params=worded(
            tuple(
                ParamSpec(
                    name,
                    kind,
                    default,
                    domain,
                    text,
                    fields=P.FIELDS.get(name, ()),
                    labels=P.LABELS.get(name, ()),
                    parts=P.PARTS.get(name, ()),
                )
                for name, kind, default, domain, text in P.PARAM_SPECS
            ),
            WORDS,
        )
        + (SECONDS,),
        strategies=tuple(_strategy(name, sid, h, role) for name, sid, h, role in S.STRATEGIES)
        + (
            # a team of searchers each overruling the team's plan on noise never won (docs/guide/search.md): a
            # hunter spreads its rollouts by sequential halving and leaves its rollout strategy only for a move
            # better by 2 standard errors on paired worlds (measured best of 1, 2, 3 at 256 rollouts)
            search_strategy("hunter", HUNTER_ROLLOUTS, deviate=2.0, root="halving"),
            search_strategy(
                "haunter",
                HAUNTER_ROLLOUTS,
                help="Head Haunter: " + SEARCH_HELP.removeprefix("search: "),
                name="haunter_search",
                deviate=1.0,
                root="halving",
            ),
        ),
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
        arc_len=CURVE_LEN,
        arc_round_turns=_hunters,  # the turn cap counts hunter turns; the Head Haunter takes none (R5, R31)
        team_roles=("hunter",),
        nobody_wins="the house",  # the hunters lose to the house (its hauntings, a stuck team, R21-R23)
        n_sparams=max(S.N_SPARAMS, F.N_LEARNED_PARAMS, HF.N_LEARNED_PARAMS),
        search_check_sizes=(20, 500, 20),  # a Head Haunter search game at 64 rollouts costs about 0.5 CPU s
        rules_file="kernels/treasure_hunters/RULES.md",
        role_titles={"haunter": "Head Haunter"},
        # hunters win about one Head Haunter game in seven: the score tie-break (jewels delivered) lets their search
        # tell moves apart there (+7.0 points at 256 rollouts); in the basic and advanced games it did not help
        # (docs/guide/search.md)
        search_tiebreak=lambda values, role: (
            "score" if role == "hunter" and values["mode"] == "head_haunter" else "none"
        ),
        role_seats={"haunter": 'seat 0 of a mode = "head_haunter" game', "hunter": "the hunter seats"},
        measures=MEASURES,
        board=BoardSpec(
            marks=("board.hallway",),
            tables="a Treasure Hunters house has [board] with hallway and doors",
            module="kernels.treasure_hunters.board",
            figure="sim.pages.board_svg:house_figure",
            noun="the house",
        ),
        box_minutes=BOX[0],
        box_source=BOX[1],
        learners=LEARNERS,
        bench=BENCH,
        compile_s=655,  # tests/warm_kernels.py of every scenario file, cold cache, busy 2-core machine, 2026-12-06
    )
)
