"""Independent audit of Ghostly Galleon: replays kernel games from their recorded deal, chance outcomes and event log
and checks every event against the rulebook (../shared/rulebooks/ghostly-galleon.txt) as the auditor reads it.

The checker keeps its own state (pieces, statuses, the 18 tiles, the stack, the stickers) from the deal and the events
alone, reads the board straight from its TOML file and enumerates paths by plain recursion; from the kernel it takes
only the log format (event codes), the tile ids of the module docstring and the recorded steps. At the end of every
game its state must equal the kernel's final state (tiles conserved, nothing moved without an event).

Checks (rulebook section in brackets):
- turn order, a roll every turn except in the water / knocked down [1, 4.1, 4.2];
- a pirate move: the roll in full over free spaces without entering a space twice and without jumping, except into a
  cabin / the captain's cabin / the own hideout, to challenge a duel, or when no path of the full length exists
  (C2: the longest), or passing one piece when blocked twice [1, 3]; never another's hideout; blocked only when no
  step is possible [1];
- the ghost: only on a 6, up to 6 steps on the ship, no revisit, jumping pirates only, stopping on a free space or in a
  room; the victims are exactly the pirates next to its stop (or in the room it entered) and the pirate that ended its
  own move next to it; the choosers [4, 4.1]; cannons fire exactly when the ghost stops behind one (not twice in a row)
  and knock down exactly the pirates on land in its quarter [4.2];
- overboard: a free whirlpool, the parrot back on the stack, one tile of the victim to the large cave; the rock on the
  next turn [4.1];
- caves: a tile only after a move through the caves, one per visit [2]; chests peeked and opened with a working key or
  blank [6]; the captain's cabin gives the top tile [5]; the parrot's three actions and its return when its holder is
  off the ship [7];
- duels: after moving at least one space, adjacent, nobody in a room / cave / hideout / the water, weapons held, the
  number of rolls per weapon, the last roll counts, ties repeat, the winner takes a tile of the loser [8];
- the win: entering the own hideout with gold >= 5 [End of the game].

`python -m tests.kernels.galleon.test_audit_events GAMES` runs the full audit over every strategy mix.
"""

from __future__ import annotations

import sys
import tomllib
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from kernels.galleon import play as PL
from kernels.galleon import rules as R  # the log format only (E_* codes, LOC_* places in the final state)
from sim.model.scenario import from_dict

REPO = Path(__file__).resolve().parents[3]
ROOMS = {"cabin", "captain"}
SHIP = {"deck", "deck_arrow", "plank", "cabin", "captain"}
NO_DUEL = {"cabin", "captain", "cave", "hideout", "whirlpool", "rock"}
# tiles (rules.py docstring): 0-3 sabres, 4-5 pistols, 6-10 gold 1..5, 11 bottle, 12 parrot, 13-17 keys
PARROT = 12
STACK_TILES = (4, 5, 12, 13, 14, 15, 16, 17)


class Bay:
    """The board file read as plain lists (space numbers = order of the file's spaces)."""

    def __init__(self, path):
        doc = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        b = doc["board"]
        sp = b["spaces"]
        self.ids = [s["id"] for s in sp]
        ix = {v: i for i, v in enumerate(self.ids)}
        self.n = len(sp)
        self.kind = [s["kind"] for s in sp]
        self.quarter = [s.get("quarter", -1) for s in sp]
        self.owner = [s.get("owner", -1) for s in sp]
        self.near = [set() for _ in sp]  # "next to": edges and stairs
        self.ways = [[] for _ in sp]  # (neighbour, is a cave link)
        for a, c in list(b["edges"]) + list(b.get("stairs", [])):
            a, c = ix[a], ix[c]
            self.near[a].add(c)
            self.near[c].add(a)
            self.ways[a].append((c, False))
            self.ways[c].append((a, False))
        groups = b.get("cave_groups", [[v for v, k in zip(self.ids, self.kind) if k == "cave"]])
        for g in groups:
            for a in g:
                for c in g:
                    if a != c:
                        self.ways[ix[a]].append((ix[c], True))
        self.whirl = [(ix[w["whirlpool"]], ix[w["rock"]], ix[w["shore"]]) for w in doc["whirlpools"]]
        for _, r, s in self.whirl:  # rock -> shore: the rescued pirate's way on [4.1 (C)]
            self.ways[r].append((s, False))
        self.cannon_at = {ix[c["behind"]]: (i, c["quarter"]) for i, c in enumerate(doc["cannons"])}
        self.cabins = [v for v in range(self.n) if self.kind[v] == "cabin"]
        self.captain = self.kind.index("captain")
        self.hideout = {self.owner[v]: v for v in range(self.n) if self.kind[v] == "hideout"}

    def pirate_paths(self, start, seat, pips, occupied, passing):
        """{dest: {(length, used a cave link, used a link after standing outside the caves)}} over every path of
        at most ``pips`` steps that never enters a space twice (the start included)."""
        out = {}
        kind = self.kind

        def add(w, k, c, f):
            out.setdefault(w, set()).add((k, c, f))

        def rec(u, k, c, f, outside, passed, vis):
            if k == pips:
                return
            for w, link in self.ways[u]:
                if w in vis:
                    continue
                c2 = c or link
                f2 = f or (link and outside)
                kw = kind[w]
                if kw in ("whirlpool", "rock"):
                    continue
                if kw == "hideout":
                    if self.owner[w] == seat:
                        add(w, k + 1, c2, f2)
                    continue
                if kw in ROOMS:
                    if w not in occupied:
                        add(w, k + 1, c2, f2)
                    continue
                p = passed
                if w in occupied:
                    if not passing or passed or k + 1 >= pips:
                        continue
                    p = True
                else:
                    add(w, k + 1, c2, f2)
                vis.add(w)
                rec(w, k + 1, c2, f2, outside or kw != "cave", p, vis)
                vis.discard(w)

        rec(start, 0, False, False, kind[start] != "cave", False, {start})
        return out

    def ghost_paths(self, start, pirates):
        """{dest: {length}}: up to 6 steps over ship spaces, no revisit, jumping pirates, rooms end the way."""
        out = {}

        def rec(u, k, vis):
            if k == 6:
                return
            for w, link in self.ways[u]:
                if w in vis or link or self.kind[w] not in SHIP:
                    continue
                if self.kind[w] in ROOMS:
                    out.setdefault(w, set()).add(k + 1)
                    continue
                if w not in pirates:
                    out.setdefault(w, set()).add(k + 1)
                vis.add(w)
                rec(w, k + 1, vis)
                vis.discard(w)

        rec(start, 0, {start})
        return out


class Audit:
    """Check one recorded game. ``problems`` collects (event index, message)."""

    def __init__(self, bay, n, first, opts, log, steps, final_st, status):
        self.bay, self.n, self.opts = bay, n, opts
        self.problems = []
        self.classes = Counter()  # how the moves were legal (coverage of the checks)
        self.log = [tuple(int(x) for x in log[r]) for r in range(1, int(log[0, 0]) + 1)]
        rows = [(int(k), int(v)) for k, v in steps[1 : int(steps[0, 0]) + 1]]
        deal = [v for k, v in rows if k == PL.K_DEAL]
        self.chance = [v for k, v in rows if k == PL.K_CHANCE]
        self.ci = 0
        self.final_st, self.status = final_st, status
        self.first = first
        # own state
        self.pos = [bay.hideout[s] for s in range(n)]
        self.ghost = bay.captain
        self.status_of = ["ok"] * n
        self.whirl_of = [-1] * n
        self.blocked = [False] * n
        self.loc = {}
        for t in range(4):
            self.loc[t] = t if t < n else "cave"
        self.sticker = [0] * 6
        for c in range(6):
            self.loc[deal[c]] = ("chest", c)
            self.sticker[c] = opts["chest_keys"][deal[6 + c]]
        self.stack = list(deal[12:20])
        for t in self.stack:
            self.loc[t] = "stack"
        self.key_type = {13 + i: k for i, k in enumerate(opts["key_tiles"])}
        self.last_cannon = -1
        self.fired = set()
        self.cave_visit_tile = [False] * n

    # ---- helpers --------------------------------------------------------------------------------------------
    def bad(self, i, msg):
        self.problems.append((i, msg))

    def draw(self, i):
        if self.ci >= len(self.chance):
            self.bad(i, "a chance outcome is missing")
            return 0
        o = self.chance[self.ci]
        self.ci += 1
        return o

    def tiles(self, holder):
        return sorted(t for t, where in self.loc.items() if where == holder)

    def gold(self, s):
        return sum(t - 5 for t in self.tiles(s) if 6 <= t <= 10)

    def occupied(self, seat):
        occ = {self.pos[o] for o in range(self.n) if o != seat and self.pos[o] >= 0}
        occ.add(self.ghost)
        return occ

    def challengeable(self, s):
        k = self.bay.kind[self.pos[s]]
        if k in ("cabin", "captain", "cave", "hideout"):
            return False
        if k in ("whirlpool", "rock"):
            return not self.opts["water_duel_safe"]
        return True

    def duel_targets(self, s, v):
        if self.bay.kind[v] in NO_DUEL:
            return set()
        out = set()
        for t in range(self.n):
            u = self.pos[t]
            if t != s and u != v and self.challengeable(t) and (u in self.bay.near[v] or self._rock_shore(u, v)):
                out.add(t)
        return out

    def _rock_shore(self, u, v):
        return any(r == u and sh == v for _, r, sh in self.bay.whirl)

    def can_open(self, s, c):
        if not any(where == ("chest", c) for where in self.loc.values()):
            return False
        k = self.sticker[c]
        if k == 0:
            return True
        return any(self.loc[t] == s and self.key_type[t] == k for t in range(13, 18))

    # ---- the replay -----------------------------------------------------------------------------------------
    def run(self):
        bay, n = self.bay, self.n
        ev = self.log
        cur = None
        turn_ix = -1
        dice = None
        moved = False
        ghost_turn = False
        pend = []  # expected victims, in seat order
        chooser = None
        expect = []  # events that must come before the turn ends: (kind, args)
        cave_ok = None  # the last move's path classes through the caves: None no move, else (any, fresh)
        took_cave = False
        visit_had_tile = False
        duel = None
        parrot_due = None
        duel_ends = 0
        acted = False
        standing = False  # C19: this turn's roll is one of a pirate standing up (it does not move)
        for i, e in enumerate(ev):
            k, a, b, c, d, turn = e
            if k == R.E_TURN:
                if (
                    cur is not None
                    and ghost_turn
                    and self.opts["ghost_die"] != "pirate_stays"
                    and not acted
                    and self.status_of[cur] in ("ok", "rock")
                    and not standing
                ):
                    self.bad(i, f"reading B: seat {cur} did not move the other die after the ghost [4, C1]")
                acted = False
                if expect:
                    self.bad(i, f"turn ended without {expect}")
                    expect = []
                if pend:
                    self.bad(i, f"victims {pend} never went overboard")
                    pend = []
                want = self.first if cur is None else (cur + 1) % n
                if a != want:
                    self.bad(i, f"seat {a} on turn, expected {want}")
                if turn != turn_ix + 1:
                    self.bad(i, f"turn counter {turn} after {turn_ix}")
                turn_ix = turn
                ph = self.loc.get(PARROT)
                if isinstance(ph, int) and bay.kind[self.pos[ph]] not in SHIP:
                    self.bad(i, f"seat {ph} holds the parrot off the ship at {bay.ids[self.pos[ph]]} [7]")
                cur = a
                dice, moved, ghost_turn, cave_ok, took_cave, duel, parrot_due = (
                    None,
                    False,
                    False,
                    None,
                    False,
                    None,
                    None,
                )
                duel_ends = 0
                st = self.status_of[a]
                standing = st == "knocked"
                nxt = ev[i + 1][0] if i + 1 < len(ev) else None
                if st == "water" and nxt != R.E_ROCK:
                    self.bad(i, "a pirate in the water did not climb onto its rock [4.1 (B)]")
                elif st == "knocked" and nxt != R.E_STANDUP:
                    self.bad(i, "a knocked-down pirate did not stand up [4.2]")
                elif st in ("ok", "rock") and nxt not in (R.E_DICE, None):
                    self.bad(i, f"no roll on a normal turn (next event {nxt}) [1]")
            elif k == R.E_DICE:
                o = self.draw(i)
                if (a, b) != (o // 6 + 1, o % 6 + 1):
                    self.bad(i, f"dice {a},{b} differ from the chance outcome {o}")
                dice = (a, b)
                nxt = ev[i + 1][0] if i + 1 < len(ev) else None
                if 6 in dice:
                    ghost_turn = True
                    if nxt not in (R.E_GHOST, R.E_NO_GHOST):
                        self.bad(i, f"a 6 without the ghost (next event {nxt}) [4]")
                elif standing:
                    if nxt not in (R.E_TURN, None):
                        self.bad(i, f"a pirate standing up moved (next event {nxt}) [4.2, C19]")
                elif nxt not in (R.E_MOVE, R.E_BLOCKED):
                    self.bad(i, f"a roll without a move (next event {nxt}) [1]")
            elif k in (R.E_MOVE, R.E_BLOCKED):
                seat = a
                if seat != cur:
                    self.bad(i, f"seat {seat} moves on seat {cur}'s turn")
                if dice is None:
                    self.bad(i, "a move without a roll")
                    continue
                if ghost_turn:
                    if self.opts["ghost_die"] == "pirate_stays":
                        self.bad(i, "the pirate moved on a 6 (reading A: the ghost moves instead) [4]")
                    pips = dice[1] if dice[0] == 6 else dice[0]
                else:
                    pips = dice[0] + dice[1]
                if self.status_of[seat] not in ("ok", "rock"):
                    self.bad(i, f"a pirate with status {self.status_of[seat]} moves")
                frm = self.pos[seat]
                occ = self.occupied(seat)
                paths = bay.pirate_paths(frm, seat, pips, occ, False)
                acted = True
                if k == R.E_BLOCKED:
                    if self.opts["blocked_move"] == "stay":  # C2 option: no full-length destination = blocked
                        paths = {v: x for v, x in paths.items() if self.classify(paths, seat, v, pips)}
                    if paths:
                        self.bad(
                            i,
                            f"seat {seat} 'blocked' at {bay.ids[frm]} but could step to "
                            f"{sorted(bay.ids[v] for v in paths)[:4]} [1]",
                        )
                    pp = bay.pirate_paths(frm, seat, pips, occ, True) if self.blocked[seat] else {}
                    if self.opts["blocked_move"] == "stay":
                        pp = {v: x for v, x in pp.items() if self.classify(pp, seat, v, pips)}
                    if pp:
                        self.bad(i, f"seat {seat} blocked twice but passing was possible [1]")
                    self.blocked[seat] = True
                    continue
                to = c
                if b != frm:
                    self.bad(i, f"move from {b}, the pirate stood on {frm}")
                if d != pips:
                    self.bad(i, f"logged pips {d}, the roll gives {pips}")
                cls = self.classify(paths, seat, to, pips)
                if cls is None and self.blocked[seat] and not self.legal_any(paths, seat, pips):
                    cls = self.classify(bay.pirate_paths(frm, seat, pips, occ, True), seat, to, pips)
                    if cls is not None:
                        cls = (cls[0] + "+passing", cls[1])
                if cls is None:
                    self.bad(i, f"seat {seat} {bay.ids[frm]} -> {bay.ids[to]} with {pips} pips: no legal way [1, 3]")
                    cls = ("?", set())
                kind_, variants = cls
                self.classes[kind_] += 1
                cave_ok = (any(v[1] for v in variants), any(v[2] for v in variants))
                if kind_.startswith("duel"):
                    expect.append(("duel", seat))
                self.blocked[seat] = False
                if self.status_of[seat] == "rock":
                    self.status_of[seat] = "ok"
                self.pos[seat] = to
                moved = True
                kt = bay.kind[to]
                visit_had_tile = self.cave_visit_tile[seat] and bay.kind[frm] == "cave"
                self.cave_visit_tile[seat] = False
                if kt == "cabin":
                    expect.append(("peek", seat))
                if kt == "captain":
                    expect.append(("captain", seat))
                if kt == "hideout":
                    expect.append(("home", seat))
                if self.loc.get(PARROT) == seat and kt not in SHIP:
                    expect.append(("parrot_back", seat))
                g = self.ghost
                if kt not in ROOMS and kt != "hideout" and bay.kind[g] not in ROOMS and (g in bay.near[to]):
                    pend = [seat]
                    chooser = (cur + 1) % n
                    if ("duel", seat) in expect:
                        expect.remove(("duel", seat))  # gone overboard before it could challenge
            elif k == R.E_GHOST:
                if not ghost_turn:
                    self.bad(i, "the ghost moved without a 6 [4]")
                if a != self.ghost:
                    self.bad(i, f"ghost from {a}, it stood on {self.ghost}")
                pir = {self.pos[s] for s in range(n) if self.pos[s] >= 0}
                gp = bay.ghost_paths(self.ghost, pir)
                if b not in gp:
                    self.bad(i, f"ghost {bay.ids[self.ghost]} -> {bay.ids[b]}: not a legal ghost move [4]")
                self.ghost = b
                kg = bay.kind[b]
                vict = []
                for s in range(n):
                    v = self.pos[s]
                    if v == b:
                        vict.append(s)
                    elif kg not in ROOMS and bay.kind[v] not in ROOMS and v in bay.near[b]:
                        if self.opts["terror_adjacency"] == "ship_only" and bay.kind[v] not in SHIP:
                            continue
                        vict.append(s)
                pend = vict
                chooser = cur
                cq = bay.cannon_at.get(b)
                last = self.last_cannon
                self.last_cannon = cq[0] if cq else -1
                fire = cq is not None and cq[0] != last
                if fire and self.opts["cannon_reuse"] == "once_per_game" and cq[0] in self.fired:
                    fire = False
                if fire:
                    self.fired.add(cq[0])
                    hits = [
                        s
                        for s in range(n)
                        if bay.kind[self.pos[s]] in ("land", "land_arrow")
                        and bay.quarter[self.pos[s]] == cq[1]
                        and self.status_of[s] == "ok"
                    ]
                    j = i + 1
                    seen = []
                    while j < len(ev) and ev[j][0] == R.E_KNOCKED:
                        seen.append(ev[j][1])
                        j += 1
                    if j >= len(ev) or ev[j][0] != R.E_CANNON or ev[j][1:4] != (cq[0], cq[1], len(hits)):
                        self.bad(i, f"cannon {cq[0]} should fire into quarter {cq[1]} hitting {hits} [4.2]")
                    if sorted(seen) != hits:
                        self.bad(i, f"knocked down {seen}, expected {hits} [4.2]")
                    for s in hits:
                        self.status_of[s] = "knocked"
                else:
                    j = i + 1
                    while j < len(ev) and ev[j][0] not in (R.E_TURN, R.E_GHOST):
                        if ev[j][0] in (R.E_CANNON, R.E_KNOCKED):
                            self.bad(j, "a cannon fired without the ghost stopping behind it (or twice in a row)")
                        j += 1
            elif k == R.E_NO_GHOST:
                pir = {self.pos[s] for s in range(n) if self.pos[s] >= 0}
                if bay.ghost_paths(self.ghost, pir):
                    self.bad(i, "the ghost could move [4]")
            elif k in (R.E_KNOCKED, R.E_CANNON):
                pass  # checked with the ghost's stop
            elif k == R.E_OVERBOARD:
                s, w, ch = a, b, c
                if not pend or pend[0] != s:
                    self.bad(i, f"seat {s} overboard, expected victims {pend} [4.1]")
                else:
                    pend.pop(0)
                if ch != chooser:
                    self.bad(i, f"whirlpool chosen by {ch}, expected {chooser} [4.1]")
                wv, rv, _ = bay.whirl[w]
                if any(self.pos[o] in (wv, rv) for o in range(n) if o != s):
                    self.bad(i, f"whirlpool {w} or its rock is taken")
                self.pos[s] = wv
                self.whirl_of[s] = w
                self.status_of[s] = "water"
                self.blocked[s] = False
                self.cave_visit_tile[s] = False
                if self.loc.get(PARROT) == s:
                    if i + 1 >= len(ev) or ev[i + 1][:2] != (R.E_PARROT_BACK, s):
                        self.bad(i, "the parrot did not fly back when its holder fell into the water [7]")
                nt = len(self.tiles(s)) - (1 if self.loc.get(PARROT) == s else 0)
                if nt > 0:
                    j = i + 1
                    while j < len(ev) and ev[j][0] == R.E_PARROT_BACK:
                        j += 1
                    if j >= len(ev) or ev[j][:2] != (R.E_LOSE, s):
                        self.bad(i, "the victim lost no tile [4.1]")
            elif k == R.E_PARROT_BACK:
                s = a
                if self.loc.get(PARROT) != s:
                    self.bad(i, f"parrot back from seat {s}, which does not hold it")
                if bay.kind[self.pos[s]] in SHIP:
                    self.bad(i, "the parrot flew back while its holder is on the ship [7]")
                self.loc[PARROT] = "stack"
                self.stack.append(PARROT)
                if ("parrot_back", s) in expect:
                    expect.remove(("parrot_back", s))
            elif k == R.E_LOSE:
                s, t = a, b
                o = self.draw(i)
                have = self.tiles(s)
                if not have or have[o % len(have)] != t or o >= len(have):
                    self.bad(i, f"lost tile {t}, the outcome {o} of {have} says otherwise")
                self.loc[t] = "cave"
            elif k == R.E_ROCK:
                s = a
                if self.status_of[s] != "water" or s != cur:
                    self.bad(i, f"seat {s} climbs onto a rock, status {self.status_of[s]}")
                rv = bay.whirl[self.whirl_of[s]][1]
                if b != rv:
                    self.bad(i, f"rock {b}, expected {rv} [4.1]")
                self.pos[s] = rv
                self.status_of[s] = "rock"
            elif k == R.E_STANDUP:
                if self.status_of[a] != "knocked" or a != cur:
                    self.bad(i, f"seat {a} stands up, status {self.status_of[a]}")
                self.status_of[a] = "ok"
                nxt = ev[i + 1][0] if i + 1 < len(ev) else None
                want = R.E_DICE if self.opts["cannon_standup"] == "roll_for_ghost" else R.E_TURN
                if nxt not in (want, None):
                    self.bad(i, f"standing up: next event {nxt}, expected {want} [4.2, C19]")
            elif k == R.E_CAVE_TILE:
                s, t = a, b
                o = self.draw(i)
                have = self.tiles("cave")
                if o >= len(have) or have[o] != t:
                    self.bad(i, f"cave tile {t}, the outcome {o} of {have} says otherwise")
                if cave_ok is None or not cave_ok[0]:
                    self.bad(i, "a cave tile without a move through the caves [2]")
                elif visit_had_tile and not cave_ok[1]:
                    self.bad(
                        i,
                        f"seat {s} takes a second tile in one visit of the caves (it stood in the caves "
                        f"after taking one and did not leave them) [2]",
                    )
                if took_cave:
                    self.bad(i, "two cave tiles in one move [2]")
                took_cave = True
                self.loc[t] = s
                if bay.kind[self.pos[s]] == "cave":
                    self.cave_visit_tile[s] = True  # still in the caves: this visit has had its tile
            elif k == R.E_PEEK:
                s, cab, stk = a, b, c
                if self.pos[s] != bay.cabins[cab]:
                    self.bad(i, "peek from outside the cabin [6]")
                if stk != self.sticker[cab]:
                    self.bad(i, f"sticker {stk}, the deal says {self.sticker[cab]}")
                if ("peek", s) in expect:
                    expect.remove(("peek", s))
                can = self.can_open(s, cab)
                opened = i + 1 < len(ev) and ev[i + 1][0] == R.E_OPEN
                if can != opened:
                    self.bad(i, f"chest of cabin {cab}: can open {can}, opened {opened} [6]")
            elif k == R.E_OPEN:
                s, cab, t, kk = a, b, c, d
                if not self.can_open(s, cab):
                    self.bad(i, f"seat {s} opened chest {cab} (sticker {self.sticker[cab]}) without a working key [6]")
                if self.loc.get(t) != ("chest", cab):
                    self.bad(i, f"tile {t} was not in chest {cab}")
                if kk != self.sticker[cab]:
                    self.bad(i, "shown key type differs from the sticker")
                self.loc[t] = s
            elif k == R.E_CAPTAIN:
                s, t = a, b
                if self.pos[s] != bay.captain:
                    self.bad(i, "captain's tile taken outside the captain's cabin [5]")
                want = self.stack[-1] if self.stack else -1
                if t != want:
                    self.bad(i, f"captain's cabin gave {t}, the top is {want} [5]")
                if self.stack:
                    self.stack.pop()
                    self.loc[t] = s
                if ("captain", s) in expect:
                    expect.remove(("captain", s))
                if t == PARROT:
                    parrot_due = s
            elif k == R.E_PARROT:
                s, kind_, arg, t = a, b, c, d
                if parrot_due != s:
                    self.bad(i, f"seat {s} used the parrot without just getting it [7]")
                parrot_due = None
                if kind_ == 0:
                    o = self.draw(i)
                    have = self.tiles(arg)
                    if arg == s or not have or o >= len(have):
                        self.bad(i, f"parrot steal from seat {arg} holding {have} [7]")
                    else:
                        self.loc[have[o]] = s
                elif kind_ == 1:
                    if not self.stack or t != self.stack[-1]:
                        self.bad(i, "parrot top tile is not the top of the stack [7]")
                    else:
                        self.stack.pop()
                        self.loc[t] = s
                else:
                    if t != self.sticker[arg]:
                        self.bad(i, "parrot peek shows a wrong sticker")
            elif k == R.E_DUEL:
                att, dfn = a, b
                if att != cur or not moved or ghost_turn and self.opts["ghost_die"] == "pirate_stays":
                    self.bad(i, f"duel by seat {att} without moving at least one space this turn [8]")
                if dfn not in self.duel_targets(att, self.pos[att]):
                    self.bad(
                        i,
                        f"seat {att} at {bay.ids[self.pos[att]]} cannot challenge seat {dfn} at "
                        f"{bay.ids[self.pos[dfn]]} [8]",
                    )
                if ("duel", att) in expect:
                    expect.remove(("duel", att))
                duel = {"att": att, "def": dfn, "w": {}, "dice": []}
            elif k == R.E_WEAPON:
                s, w = a, b
                if duel is None:
                    self.bad(i, "a weapon without a duel")
                    continue
                lo, hi = {0: (0, 0), 1: (0, 4), 2: (4, 6)}[w]
                if w and not any(self.loc.get(t) == s for t in range(lo, hi)):
                    self.bad(i, f"seat {s} fights with weapon {w} it does not hold [8]")
                if s in duel["w"] or (not duel["w"] and s != duel["att"]):
                    self.bad(i, "weapons chosen out of order")
                duel["w"][s] = w
            elif k == R.E_DIE:
                o = self.draw(i)
                if b != o + 1:
                    self.bad(i, "duel die differs from the chance outcome")
                if duel is None:
                    self.bad(i, "a duel die without a duel")
                    continue
                duel["dice"].append((a, b, c))
            elif k == R.E_DUEL_END:
                w, los, t = a, b, c
                if duel is None:
                    self.bad(i, "a duel end without a duel")
                    continue
                duel_ends += 1
                if duel_ends > 1:
                    self.bad(i, f"a second E_DUEL_END for one duel (tile {t}) [replay log]")
                    continue
                want = self.duel_winner(i, duel)
                if want is not None and w != want:
                    self.bad(i, f"duel winner {w}, the dice say {want} [8]")
                have = self.tiles(los)
                if have:
                    o = self.draw(i)
                    if o >= len(have) or have[o] != t:
                        self.bad(i, f"spoils {t}, outcome {o} of {have}")
                    else:
                        self.loc[t] = w
                elif t != -1:
                    self.bad(i, "spoils from a loser without tiles")
                if t == PARROT:
                    parrot_due = w
            elif k == R.E_SWAP:
                w, los = a, b
                self.pos[w], self.pos[los] = self.pos[los], self.pos[w]
                for s in (w, los):
                    if self.loc.get(PARROT) == s and bay.kind[self.pos[s]] not in SHIP:
                        expect.append(("parrot_back", s))
            elif k in (R.E_WIN, R.E_HOME):
                s, g = a, b
                if self.pos[s] != bay.hideout[s]:
                    self.bad(i, "home event outside the own hideout")
                mine = self.gold(s)
                if g != mine:
                    self.bad(i, f"gold {g}, the tiles give {mine}")
                target = self.opts["gold_target"]
                if (k == R.E_WIN) != (mine >= target):
                    self.bad(i, f"seat {s} home with gold {mine}: win event {k == R.E_WIN} [End of the game]")
                if ("home", s) in expect:
                    expect.remove(("home", s))
                if k == R.E_WIN and i != len(ev) - 1:
                    self.bad(i, "events after the win")
            else:
                self.bad(i, f"unknown event {k}")
        # the end: own state == the kernel's final state
        st = self.final_st
        if self.ci != len(self.chance):
            self.bad(len(ev), f"{len(self.chance) - self.ci} chance outcomes not explained by events")
        for t in range(18):
            kl = int(st[R.S_LOC + t])
            mine = self.loc[t]
            want = (
                mine
                if isinstance(mine, int)
                else (
                    R.LOC_CHEST + mine[1] if isinstance(mine, tuple) else R.LOC_STACK if mine == "stack" else R.LOC_CAVE
                )
            )
            if kl != want:
                self.bad(len(ev), f"tile {t}: the kernel has it at {kl}, the events at {mine}")
        ks = [int(x) for x in st[R.S_STACK : R.S_STACK + int(st[R.S_NSTACK])]]
        if ks != self.stack:
            self.bad(len(ev), f"stack {ks} vs events {self.stack}")
        for s in range(self.n):
            if int(st[R.S_POS + s]) != self.pos[s]:
                self.bad(len(ev), f"seat {s} at {int(st[R.S_POS + s])}, the events say {self.pos[s]}")
        if int(st[R.S_GHOST]) != self.ghost:
            self.bad(len(ev), "the ghost is elsewhere")
        if self.status == PL.ST_DONE and (not ev or ev[-1][0] != R.E_WIN):
            self.bad(len(ev), "a finished game without a win event")
        return self.problems

    def legal_any(self, paths, seat, pips):
        """Some destination is legal without passing (R6: only a blocked pirate passes a piece)."""
        return any(self.classify(paths, seat, v, pips) for v in paths)

    def classify(self, paths, seat, to, pips):
        """How the move to ``to`` is legal: ("exact"|"room"|"duel"|"longest", variants) or None."""
        bay = self.bay
        kt = bay.kind[to]
        if to not in paths:
            return None
        var = paths[to]
        if kt in ROOMS or kt == "hideout":
            return ("room", var)
        exact = {v for v in var if v[0] == pips}
        if exact:
            return ("exact", exact)
        # C2 / rulebook 1: no destination at the full length and no room: stop in front of the obstacle (the longest
        # way); a duel there is optional
        full = any(
            bay.kind[v2] in ROOMS or bay.kind[v2] == "hideout" or any(x[0] == pips for x in vv)
            for v2, vv in paths.items()
        )
        if not full and self.opts["blocked_move"] == "longest_move":
            best = max(x[0] for vv in paths.values() for x in vv)
            longest = {v for v in var if v[0] == best}
            if longest:
                return ("longest", longest)
        # rulebook 8: stopping short only to challenge a duel
        short = {v for v in var if v[0] < pips}
        if short and self.duel_targets(seat, to):
            return ("duel", short)
        return None

    def duel_winner(self, i, duel):
        wa = duel["w"].get(duel["att"], 0)
        wd = duel["w"].get(duel["def"], 0)
        runs = []
        for s, v, left in duel["dice"]:
            if runs and runs[-1][0] == s:
                runs[-1][1].append((v, left))
            else:
                runs.append((s, [(v, left)]))
        res = None
        for j, (s, rolls) in enumerate(runs):
            want_s = duel["att"] if j % 2 == 0 else duel["def"]
            allowed = (wa if s == duel["att"] else wd) + 1
            if s != want_s:
                self.bad(i, f"duel rolls out of order: seat {s} rolled as run {j} [8]")
            if len(rolls) > allowed:
                self.bad(i, f"seat {s} rolled {len(rolls)} times with weapon allowing {allowed} [8]")
            if [x[1] for x in rolls] != list(range(allowed - 1, allowed - 1 - len(rolls), -1)):
                self.bad(i, "rolls-left counter wrong")
        if len(runs) % 2:
            self.bad(i, "the defender never rolled")
            return None
        for j in range(0, len(runs), 2):
            av, dv = runs[j][1][-1][0], runs[j + 1][1][-1][0]
            last = j + 2 == len(runs)
            if av == dv and last:
                self.bad(i, "a tie ended the duel [8]")
            if av != dv and not last:
                self.bad(i, "the duel went on after a winner [8]")
            if last and av != dv:
                res = duel["att"] if av > dv else duel["def"]
        return res


DEFAULT_OPTS = {
    "ghost_die": "pirate_stays",
    "blocked_move": "longest_move",
    "terror_adjacency": "graph",
    "cannon_reuse": "not_twice_in_a_row",
    "water_duel_safe": True,
    "chest_keys": [0, 1, 2, 3, 4, 4],
    "key_tiles": [1, 2, 3, 4, 0],
    "gold_target": 5,
    "cannon_standup": "roll_for_ghost",
}

MIXES = [
    (4, ("treasure",), {}),
    (4, ("treasure", "raider", "cautious", "random"), {}),
    (4, ("random",), {}),
    (4, ("raider",), {}),
    (4, ("cautious",), {}),
    (4, ("weighted", "raider", "treasure", "cautious"), {}),
    (3, ("raider", "random", "treasure"), {}),
    (2, ("treasure",), {}),
    (2, ("random", "raider"), {}),
    (2, ("cautious", "treasure"), {}),
    (3, ("raider", "random"), {"ghost_die": "pirate_moves_other_die", "terror_adjacency": "ship_only"}),
    (2, ("cautious", "raider"), {"blocked_move": "stay", "cannon_reuse": "once_per_game", "water_duel_safe": False}),
    (4, ("random",), {"ghost_die": "pirate_moves_other_die"}),
    (4, ("treasure", "raider"), {"cannon_standup": "no_roll", "ghost_die": "pirate_moves_other_die"}),
]


def scenario(n, strats, params, seed=20261201):
    return from_dict(
        {
            "scenario": {"name": f"audit-{n}p", "game": "galleon", "players": n, "games": 10, "seed": seed},
            "params": {"max_turns": 1500, **params},
            "seats": [{"strategy": strats[i % len(strats)]} for i in range(n)],
        }
    )


def audit_games(n, strats, params, games, seed=20261201, game0=0):
    """Audit games game0.. of one mix; returns (problems [(game, event, message)], Counter of event kinds)."""
    sc = scenario(n, strats, params, seed)
    prm, sids, sp = sc.prm(), sc.sids(), sc.sparams()
    opts = {**DEFAULT_OPTS, **params}
    bay = Bay(REPO / "scenarios" / "galleon" / "boards" / "default.toml")
    out, kinds = [], Counter()
    for g in range(game0, game0 + games):
        tr = PL.trace_game(np.uint64(seed), np.uint64(0), g, n, prm, sids, sp, 200_000, 200_000, 0)
        assert tr.status in (PL.ST_DONE, PL.ST_TRUNCATED), (g, tr.status)
        a = Audit(bay, n, g % n, opts, tr.log, tr.steps, tr.state, tr.status)
        for i, m in a.run():
            out.append((g, i, m))
        kinds.update(e[0] for e in a.log)
        kinds.update(a.classes)
    return out, kinds


@pytest.mark.parametrize("n,strats,params", MIXES)
def test_audit_every_event_of_recorded_games_follows_the_rulebook(n, strats, params):
    problems, kinds = audit_games(n, strats, params, 10)
    assert not problems, problems[:10]


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    only = sys.argv[2] if len(sys.argv) > 2 else None
    for mi, (n, strats, params) in enumerate(MIXES):
        if only is not None and str(mi) not in only.split(","):
            continue
        probs, kinds = audit_games(n, strats, params, games)
        by = Counter(m.split(":")[0][:70] for _, _, m in probs)
        ev = sum(v for k, v in kinds.items() if isinstance(k, int))
        names = {getattr(R, x): x[2:] for x in dir(R) if x.startswith("E_")}
        print(f"mix {mi} n={n} {strats} {params}: {games} games, {ev} events, {len(probs)} problems", flush=True)
        print("   " + ", ".join(f"{names.get(k, k)} {v}" for k, v in sorted(kinds.items(), key=str)), flush=True)
        for msg, cnt in by.most_common(12):
            ex = next((g, i, m) for g, i, m in probs if m.split(":")[0][:70] == msg)
            print(f"   {cnt:6d} x {msg!r}  e.g. game {ex[0]} event {ex[1]}: {ex[2]}", flush=True)
