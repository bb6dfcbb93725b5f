"""Ghostly Galleon figures of issue 21: seat win rates, first-player advantage, length and the counters.

    PYTHONPATH=. python docs/examples/galleon_figures.py 4 20000 [name=value ...] [seat=strategy,strategy,...]

Plays ``games`` games of scenarios/galleon/<n>p.toml (seed as the file has it, one thread) with the parameters given
overriding the file's, and prints one table row: each seat's win rate with its 95% Wilson interval, the chi-square
p-value of "every seat wins equally often", the first player's win rate minus 1/n, mean rounds and the counters per
finished game. ``board=FILE`` takes a board file (a path or a name in scenarios/galleon/boards/).
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import numpy as np
from scipy.stats import chi2_contingency

from kernels.galleon.columns import EXTRA_COLUMNS
from sim.model.scenario import from_dict
from sim.play import runner
from sim.stats.metrics import wilson

REPO = Path(__file__).resolve().parents[2]


def _value(text: str):
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text, text)


def figures(n: int, games: int, overrides: dict, seats: list[str] | None = None) -> dict:
    """The figures of ``games`` games of the n-player default scenario with ``overrides``."""
    doc = tomllib.loads((REPO / f"scenarios/galleon/{n}p.toml").read_text())
    doc["scenario"]["games"] = games
    doc["params"] = {**doc.get("params", {}), **overrides}
    if seats:
        doc["seats"] = [{"strategy": seats[i % len(seats)]} for i in range(n)]
    sc = from_dict(doc, path=str(REPO / f"scenarios/galleon/{n}p.toml"))
    out = runner.play_chunk(sc, 0, games)
    done = out.status == 0
    col = {c: i for i, c in enumerate(EXTRA_COLUMNS)}
    ex = out.extra[done]
    fin = int(done.sum())
    wins = np.array([((out.winners[done] >> s) & 1).sum() for s in range(n)])
    first = ex[:, col["first_seat"]]
    first_wins = int(sum((out.winners[done] >> first) & 1))
    p = chi2_contingency(np.array([wins, fin - wins]))[1]
    per = {c: float(ex[:, i].mean()) for c, i in col.items()}
    wt = ex[:, col["water_turns"]].sum() / out.turns[done].sum()
    return {
        "n": n,
        "games": games,
        "finished": fin,
        "wins": wins,
        "p": p,
        "first": first_wins / fin - 1 / n,
        "first_ci": tuple(x - 1 / n for x in wilson(first_wins, fin)),
        "rounds": float(out.rounds[done].mean()),
        "water_share": float(wt),
        "per": per,
    }


def row(f: dict) -> str:
    n, fin = f["n"], f["finished"]
    seats = " ".join(
        f"{100 * w / fin:.2f} [{100 * wilson(w, fin)[0]:.2f}, {100 * wilson(w, fin)[1]:.2f}]" for w in f["wins"]
    )
    pc = f["per"]
    whirl = "/".join(f"{pc[f'whirlpool_{w}']:.2f}" for w in range(4))
    return (
        f"{n}p {fin}/{f['games']} | seats {seats} | p {f['p']:.2g} | first {100 * f['first']:+.2f} "
        f"[{100 * f['first_ci'][0]:+.2f}, {100 * f['first_ci'][1]:+.2f}] | rounds {f['rounds']:.1f} | "
        f"duels {pc['duels']:.2f} (by none/sabre/pistol {pc['duels_by_no_weapon']:.2f}/{pc['duels_by_sabre']:.2f}/"
        f"{pc['duels_by_pistol']:.2f}) | captain visits {pc['captain_visits']:.2f} useless "
        f"{pc['captain_useless_visits']:.2f} parrot {pc['captain_parrot_draws']:.2f} | overboard "
        f"{pc['overboard']:.2f} whirlpools {whirl} | water turns {100 * f['water_share']:.1f}% | standups "
        f"{pc['standup_turns']:.2f} | ghost moves {pc['ghost_moves']:.1f}"
    )


def main(argv: list[str]) -> None:
    n, games = int(argv[0]), int(argv[1])
    over = {}
    seats = None
    for a in argv[2:]:
        k, v = a.split("=", 1)
        if k == "seat":
            seats = v.split(",")
        else:
            over[k] = _value(v)
    print(row(figures(n, games, over, seats)), " ".join(argv[2:]))


if __name__ == "__main__":
    main(sys.argv[1:])
