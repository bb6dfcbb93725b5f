"""A scenario "at skill": the same rules, seed and game indices with every seat on the game's learned player.

The report's "At skill" section (`sim run --at-skill`, every default scenario of `make run`) plays this table beside
the scenario's own and says whether each headline figure holds at skill. What it needs from the game is only
`GameSpec.learners` (one `Learner` per role that has a learned player) and the shipped policy file of each
(`sim.model.policy`): a game or role gains the table as soon as its learned player lands, and one without says so.

Size. The table plays ``[scenario] skill_games`` games when the scenario sets it (0: never at skill), else
`target_games`: enough for a 95% interval of +/-1 percentage point on a win rate at the fair share (1/players; a
team's win rate at 50%, the widest), rounded up to a multiple of the players so the start player rotates evenly,
and never more games than the scenario plays itself (its own count says what the game affords: Galleon's 2,000
scripted games cost what 200,000 of Moor's do). The table plays games 0 .. n-1 with the scenario's seed and RNG point
0, the games of the scenario's own first n: the same dice wherever the rules draw the same (common random numbers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sim.model.registry import GameSpec, Learner
from sim.model.scenario import Scenario, Seat

SKILL_GAMES_KEY = "skill_games"  # the [scenario] key that sizes the table (0: off)
HALF_WIDTH = 0.01  # the interval the default size aims for: +/-1 percentage point (95%)
Z95 = 1.959963984540054


@dataclass(frozen=True)
class SkillTable:
    """What a scenario at skill plays: ``scenario`` (every seat on its role's learned player, ``games`` games; None
    when it cannot be played), ``target`` the games +/-1 point needs, ``why`` one line saying why there is no table
    or how its size was chosen, and ``players`` the table size the learned players were trained at."""

    scenario: Scenario | None
    games: int
    target: int
    why: str
    trained_players: tuple[int, ...] = ()


def target_games(players: int, team: bool) -> int:
    """Games for a 95% interval of +/-`HALF_WIDTH` on a win rate at p = 1/players (team games: p = 0.5), rounded up
    to a multiple of ``players``: 2p 9,604, 3p 8,538, 4p 7,204, 5p 6,150."""
    p = 0.5 if team else 1.0 / players
    n = math.ceil((Z95 / HALF_WIDTH) ** 2 * p * (1 - p))
    return -(-n // players) * players


def learner_of(spec: GameSpec, role: str) -> Learner | None:
    """The learned player of ``role`` in ``spec`` (None when the role has none)."""
    return next((lr for lr in spec.learners if lr.role == role), None)


def missing_policy(spec: GameSpec, lr: Learner) -> str | None:
    """Why ``lr``'s shipped policy cannot play (no file, or one that does not fit the kernel: `check_policy`), in
    one line; None when it can. Imports the game's features module (numba; nothing compiled)."""
    from sim.model import policy

    data = policy.load_policy(spec.name, lr.role)
    title = spec.role_title(lr.role)
    if data is None:
        return f"{spec.title} has no trained {title} policy yet (sim train {spec.name} --role {lr.role} makes one)"
    err = policy.check_policy(data, lr.module(), spec.rules_version)
    return None if err is None else f"the {title} policy does not fit the kernel: {err}"


def skill_table(sc: Scenario, games: int | None = None) -> SkillTable:
    """The table of ``sc`` at skill (`SkillTable`): ``games`` when given (0: none), else the scenario's
    ``skill_games``, else `target_games` capped at the scenario's games (module docstring). Every seat gets its role's
    learned strategy at its shipped defaults; a role without one, or without a policy that fits, leaves no table and
    says so."""
    spec = sc.spec
    roles = spec.roles(sc.params, sc.players)
    target = target_games(sc.players, bool(spec.team_roles))
    chosen = games if games is not None else sc.skill_games
    if chosen == 0:
        return SkillTable(None, 0, target, f"switched off ({SKILL_GAMES_KEY} = 0)")
    learners: dict[str, Learner] = {}
    for role in dict.fromkeys(roles):
        lr = learner_of(spec, role)
        if lr is None:
            who = f"the {spec.role_title(role)} role" if len(set(roles)) > 1 or role != "player" else "its players"
            return SkillTable(
                None, 0, target, f"{spec.title} has no learned player for {who} yet, so no figure is played at skill"
            )
        why = missing_policy(spec, lr)
        if why is not None:
            return SkillTable(None, 0, target, why + ", so no figure is played at skill")
        learners[role] = lr
    if chosen is not None:
        n, how = chosen, f"{SKILL_GAMES_KEY} = {chosen:,} in the scenario" if games is None else "as asked"
    elif sc.games >= target:
        n, how = target, "enough for a ±1-point interval on a win rate; a verdict at that margin may need more"
    else:
        n, how = sc.games, f"the scenario's own {sc.games:,}: what it affords; a +/-1-point interval needs {target:,}"
    seats = tuple(Seat(learners[r].strategy, {}) for r in roles)
    table = sc.with_changes(name=f"{sc.name}-at-skill", games=n, seats=seats)
    trained = tuple(sorted({lr.players for lr in learners.values()}))
    return SkillTable(table, n, target, how, trained)
