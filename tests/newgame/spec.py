"""Dice Race: its GameSpec (what `sim` knows of it) and its replay in words. `SPEC` is not registered on import:
the test registers it (`sim.model.registry.register`) and forgets it afterwards."""

from __future__ import annotations

from newgame import play as K
from newgame.columns import EXTRA_COLUMNS
from sim.model.catalogue import counter, score
from sim.model.registry import GameSpec, ParamSpec, StrategySpec

WEIGHTS = tuple(ParamSpec(n, "float", d, (0.0, 1.0), h) for n, d, h in K.WEIGHT_SPECS)


def replay(scenario, game: int) -> list[str]:
    """Game ``game`` of ``scenario`` turn by turn in words, identical to that game of a batch run."""
    tr = K.trace_game(scenario.seed, 0, game, scenario.players, scenario.prm(), scenario.sids(), scenario.sparams())
    log = [tuple(int(x) for x in tr.log[r]) for r in range(1, int(tr.log[0, 0]) + 1)]  # (seat, roll, moved, reached)
    lines = [f"Game {game} of {scenario.name}: {scenario.players} players, seat {game % scenario.players} starts"]
    for t, (seat, roll, moved, reached) in enumerate(log):
        slow = "" if moved == roll else f", dawdles: moves {moved}"
        lines.append(
            f"turn {t + 1}: seat {seat} ({scenario.seats[seat].strategy}) rolls {roll}{slow}, reaches space {reached}"
        )
    won = [s for s in range(scenario.players) if (tr.winners >> s) & 1]
    return lines + [f"winner: seat {won[0]}" if tr.status == 0 else "winner: none (truncated at the turn cap)"]


def _check(values: dict, players: int, given: frozenset = frozenset()) -> str | None:
    return None


SPEC = GameSpec(
    name="dice_race",
    title="Dice Race (a test game)",
    rules_version=K.RULES_VERSION,
    min_players=2,
    max_players=6,
    params=tuple(ParamSpec(*p) for p in K.PARAM_SPECS),
    strategies=tuple(StrategySpec(n, i, h, "player", WEIGHTS if i == K.S_DAWDLER else ()) for n, i, h in K.STRATEGIES),
    kernel_module="newgame.play",
    check=_check,
    pack=K.pack,
    replay=replay,
    extra_columns=EXTRA_COLUMNS,
    score_range=(0, 200),
    n_sparams=K.N_SPARAMS,
    measures=(
        score("seat {seat}'s score", "spaces", "The space seat {seat}'s pawn reached (the track's length: won)."),
        counter(
            "decisions",
            "dawdler choices",
            "Turns a dawdler seat chose between its roll and one space, per game.",
            "choices per game",
        ),
        counter("top_rolls", "top-face rolls", "Rolls showing the die's top face, per game.", "rolls per game"),
    ),
    check_sizes=(200, 2_000, 400),
)
