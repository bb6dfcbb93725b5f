"""Ghost Fightin' Treasure Hunters' catalogue of measures (`sim.model.catalogue`), apart from its GameSpec for the
length of the list: what each counter column of kernels/treasure_hunters/columns.py counts, and in which modes it can
be non-zero (a counter of the Head Haunter game is not shown in a basic game)."""

from __future__ import annotations

from sim.model.catalogue import category, counter, curve, score, share, team


def _jewels(k: int) -> str:
    return f"{k} jewel{'' if k == 1 else 's'}"


HH = ("head_haunter",)
DOORS = ("advanced", "head_haunter")
COOP = ("basic", "advanced")
MEASURES = (
    (
        team(
            "hunter",
            "hunters win",
            "Share of finished games the hunters win: every jewel in the wagon (one result for the whole team).",
        ),
        team(
            "haunter",
            "the Head Haunter wins",
            "Share of finished games the Head Haunter wins (fills the house or traps every hunter).",
            modes=HH,
        ),
        score(
            "seat {seat}'s score",
            "jewels",
            "Jewels in the wagon at the end (the same for every hunter seat; the "
            "Head Haunter's seat 0: hauntings on the board).",
            role_units={"haunter": "hauntings"},
        ),
        category(
            "outcome",
            "how the game ended",
            "Share of finished games ending each way: the hunters' win (the team "
            "win rate) or one of the ways they lose.",
        ),
        share(
            "outcome",
            "win",
            "the hunters bring out every jewel",
            "Head Haunter game: share of finished games the "
            "hunters win, one of its three ends (in a co-op game this is the team win rate, shown once as such).",
            modes=HH,
        ),
        share(
            "outcome",
            "six_hauntings",
            "the house fills with hauntings",
            "Share of finished games lost because every haunting piece is on the board (the rulebook's six hauntings).",
            modes=COOP,
        ),
        share(
            "outcome",
            "hunters_stuck",
            "every hunter stuck with a jewel",
            "Share of finished games lost because every "
            "hunter is stuck holding a jewel, each in a different haunted room.",
            modes=COOP,
        ),
        share(
            "outcome",
            "jewels_cannot_leave",
            "no carried jewel can leave",
            "Advanced game: share of finished games "
            "lost because no jewel being carried can leave the house in numerical order.",
            modes=("advanced",),
        ),
        share(
            "outcome",
            "haunter_win_hauntings",
            "the Head Haunter fills the house",
            "Share of finished games the Head Haunter wins with every haunting piece on the board.",
            modes=HH,
        ),
        share(
            "outcome",
            "haunter_win_stuck",
            "the Head Haunter traps every hunter",
            "Share of finished games the Head Haunter wins because every hunter is stuck holding a jewel.",
            modes=HH,
        ),
        share(
            "outcome",
            "truncated",
            "stopped at the turn cap",
            "Games stopped at the turn cap (reported as truncated, never among the finished games).",
            shown=False,
        ),
        category(
            "lost_jewels_out",
            "jewels still in the house when the hunters lost",
            "Of the finished games, the "
            "share the hunters lose with 8, 7, ..., 0 jewels still in the house (how close the losses came).",
        ),
        share(
            "lost_jewels_out",
            "not lost",
            "hunters did not lose",
            "Share of finished games the hunters did not lose (the team win rate).",
            shown=False,
        ),
    )
    + tuple(
        share(
            "lost_jewels_out",
            f"lost with {k} out",
            f"hunters lose with {_jewels(8 - k)} still in the house",
            f"Share of finished games the hunters lose with {_jewels(k)} in the wagon and {8 - k} still in the house.",
        )
        for k in range(9)
    )
    + (
        counter(
            "hauntings_end", "hauntings at the end", "Hauntings on the board when the game ends.", "hauntings per game"
        ),
        counter(
            "hauntings_max",
            "most hauntings at once",
            "Most hauntings on the board at any time of the game.",
            "hauntings per game",
        ),
        counter(
            "jewels_out_end",
            "jewels in the wagon at the end",
            "Jewels in the wagon when the game ends.",
            "jewels per game",
        ),
        counter(
            "fights", "fights", "Fights against the ghosts in a room (fight dice rolled), per game.", "fights per game"
        ),
        counter(
            "fights_won",
            "fights that removed a ghost",
            "Fights that removed at least one ghost, per game.",
            "fights per game",
        ),
        counter("ghosts_removed", "ghosts removed", "Ghosts removed by fights, per game.", "ghosts per game"),
        counter(
            "unhaunt_attempts",
            "tries to remove a haunting",
            "Tries to remove a haunting (two hunters in a haunted room), per game.",
            "tries per game",
        ),
        counter(
            "unhauntings", "hauntings removed", "Hauntings removed from the board, per game.", "hauntings per game"
        ),
        counter(
            "shuffles", "deck shuffles", "Shuffles of the ghost deck after the setup, per game.", "shuffles per game"
        ),
        counter(
            "locked_door_turns",
            "moves behind a locked door colour",
            "Hunter moves made while a door colour was locked, per game.",
            "moves per game",
            modes=DOORS,
        ),
        counter("ghosts_end", "ghosts at the end", "Ghosts on the board when the game ends.", "ghosts per game"),
        counter(
            "ghosts_placed",
            "ghosts brought in",
            "Ghosts brought onto the board from the supply, per game.",
            "ghosts per game",
        ),
        counter(
            "hauntings_made",
            "rooms haunted",
            "Times three ghosts in a room became a haunting, per game.",
            "hauntings per game",
        ),
        counter(
            "overflows",
            "ghosts moved on past a haunted room",
            "Ghosts that landed in a haunted room and moved on to the next free one, per game.",
            "ghosts per game",
        ),
        counter(
            "rerolls_used",
            "reroll cards used",
            "Head Haunter game: hunters' single-use reroll cards used, per game.",
            "cards per game",
            modes=HH,
        ),
        counter(
            "hh_cards_played",
            "Head Haunter cards played",
            "Cards the Head Haunter played, per game.",
            "cards per game",
            modes=HH,
        ),
        counter(
            "six_discards",
            "Head Haunter cards lost to a 6",
            "Head Haunter hand cards discarded because a hunter rolled a 6, per game.",
            "cards per game",
            modes=HH,
        ),
        counter("spooks", "hunters spooked", "Spook cards played on a hunter, per game.", "spooks per game", modes=HH),
        counter(
            "jewels_dropped",
            "jewels dropped when spooked",
            "Jewels a spooked hunter dropped, per game.",
            "jewels per game",
            modes=HH,
        ),
        counter(
            "ghosts_moved",
            "ghosts moved by Move Ghost cards",
            "Ghosts the Head Haunter moved with Move Ghost cards, per game.",
            "ghosts per game",
            modes=HH,
        ),
        counter(
            "stuck_events",
            "times a carrier got stuck",
            "Times a hunter carrying a jewel got stuck in a haunted room, per game.",
            "times per game",
        ),
        counter(
            "stuck_end",
            "hunters stuck at the end",
            "Hunters stuck holding a jewel in a haunted room when the game ends.",
            "hunters per game",
        ),
        counter(
            "jewels_carried_end",
            "jewels being carried at the end",
            "Jewels in the hunters' hands when the game ends.",
            "jewels per game",
        ),
        curve(
            "hauntings",
            "hauntings on the board",
            "hauntings",
            "Hauntings on the board after each round, mean over the games still running.",
        ),
        curve(
            "ghosts",
            "ghosts on the board",
            "ghosts",
            "Ghosts on the board after each round, mean over the games still running.",
        ),
    )
)
