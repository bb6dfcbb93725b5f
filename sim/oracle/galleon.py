"""Pirate and ghost movement of Ghostly Galleon in plain Python: the reference ("oracle") for kernels/galleon.

Written from kernels/galleon/RULES.md (B2, R3..R7, R10, C2, C3) with its own representation: the board read straight
from its TOML file into dictionaries of neighbour names, and every path enumerated by plain recursion over lists of
space names (the kernel walks an explicit stack over integer arrays and keeps 128-bit sets of spaces). It imports
nothing from `kernels`.

`Bay(path)`; `pirate_moves(pieces, seat, start, pips, passing)` and `ghost_moves(pieces, start)` return
{destination name: set of flags} with flags "cave" (a path of the chosen class went through the caves) and "short"
(legal only to challenge a duel).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

LAND = {"land", "land_arrow", "cave", "hideout"}
SHIP = {"deck", "deck_arrow", "plank", "cabin", "captain"}
ROOMS = {"cabin", "captain"}
NO_DUEL = {"cabin", "captain", "cave", "hideout", "whirlpool", "rock"}


class Bay:
    """The board of a Galleon board file, as names."""

    def __init__(self, path):
        doc = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        b = doc["board"]
        self.kind = {s["id"]: s["kind"] for s in b["spaces"]}
        self.owner = {s["id"]: s.get("owner", -1) for s in b["spaces"]}
        self.order = [s["id"] for s in b["spaces"]]
        self.near: dict[str, list[str]] = {v: [] for v in self.kind}  # "next to": edges and stairs
        self.ways: dict[str, list[tuple[str, bool]]] = {v: [] for v in self.kind}  # (neighbour, through the caves?)
        for a, c in list(b["edges"]) + list(b.get("stairs", [])):
            self.near[a].append(c)
            self.near[c].append(a)
            self.ways[a].append((c, False))
            self.ways[c].append((a, False))
        groups = b.get("cave_groups", [[v for v, k in self.kind.items() if k == "cave"]])
        for g in groups:
            for a in g:
                for c in g:
                    if a != c:
                        self.ways[a].append((c, True))
        for w in doc["whirlpools"]:
            self.ways[w["rock"]].append((w["shore"], False))
            self.near[w["rock"]].append(w["shore"])

    def _adjacent(self, a, c):
        return c in self.near[a] or a in self.near[c]

    def duel_spot(self, pieces, seat, v, water_safe=True):
        """R20: seat standing on v could challenge someone."""
        if self.kind[v] in NO_DUEL:
            return False
        for t, u in pieces.items():
            if t in ("ghost", seat) or u == v:
                continue
            ku = self.kind[u]
            if ku in {"cabin", "captain", "cave", "hideout"}:
                continue
            if ku in {"whirlpool", "rock"} and water_safe:
                continue
            if self._adjacent(v, u):
                return True
        return False

    def pirate_moves(self, pieces, seat, start, pips, passing=False, longest=True):
        """Legal destinations of seat's pirate on ``start`` rolling ``pips`` (R3..R7, C2, C3). ``pieces``: {seat:
        space, "ghost": space}."""
        taken = {v for k, v in pieces.items() if k != seat}
        found = []  # (end, length, through the caves)

        def go(path, cave, passed):
            here = path[-1]
            if len(path) - 1 == pips:
                return
            for nxt, cv in self.ways[here]:
                if nxt in path:
                    continue
                k = self.kind[nxt]
                c = cave or cv
                if k == "hideout":
                    if self.owner[nxt] == seat:
                        found.append((nxt, len(path), c))
                    continue
                if k in ROOMS:
                    if nxt not in taken:
                        found.append((nxt, len(path), c))
                    continue
                if k in {"whirlpool", "rock"}:
                    continue
                if nxt in taken:
                    if passing and not passed and len(path) < pips:
                        go(path + [nxt], c, True)
                    continue
                found.append((nxt, len(path), c))
                go(path + [nxt], c, passed)

        go([start], False, False)
        out: dict[str, set] = {}
        for v, n, c in found:
            k = self.kind[v]
            if k in ROOMS or k == "hideout":
                cls = "room"
            elif n == pips:
                cls = "exact"
            elif self.duel_spot(pieces | {seat: v}, seat, v):
                cls = "short"
            else:
                continue
            flags = out.setdefault(v, set())
            flags.add(cls)
            if c:
                flags.add("cave:" + cls)
        res = {}
        for v, f in out.items():
            if "room" in f or "exact" in f:
                cls = "room" if "room" in f else "exact"
                res[v] = {"cave"} if ("cave:" + cls) in f else set()
            else:
                res[v] = {"short"} | ({"cave"} if "cave:short" in f else set())
        full = any("room" in f or "exact" in f for f in out.values())
        if full or not longest or not found:
            return res
        best = max(n for _, n, _ in found)  # C2: stop in front of the obstacle; a duel there is optional
        for v, n, c in found:
            if n == best:
                f = res.setdefault(v, set())
                if "longest" not in f:  # the longest way decides the flags, not a shorter one
                    f.clear()
                    f.add("longest")
                if c:
                    f.add("cave")
        for f in res.values():
            f.discard("longest")
        return res

    def ghost_moves(self, pieces, start):
        """R10: destinations of the ghost from ``start`` (up to 6 steps on the ship, jumping pirates)."""
        pirates = {v for k, v in pieces.items() if k != "ghost"}
        res = set()

        def go(path):
            if len(path) - 1 == 6:
                return
            for nxt, _ in self.ways[path[-1]]:
                if nxt in path or self.kind[nxt] not in SHIP:
                    continue
                if self.kind[nxt] in ROOMS:
                    res.add(nxt)
                    continue
                if nxt not in pirates:
                    res.add(nxt)
                go(path + [nxt])

        go([start])
        return {v: set() for v in res}
