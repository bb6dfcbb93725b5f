"""The move physics of The Ghosts of Castle Turnwall in plain Python: the reference ("oracle") for kernels/turnwall.

Written from kernels/turnwall/RULES.md (R1, R4..R8, R10, C2, C3, C6) with its own representation: ghosts as
(row, col) board coordinates, floor positions recomputed by turning coordinates step by step, and pushing solved as
a fixed point (movers spread forward, then stops spread backward) instead of the kernel's two ordered passes. It
imports nothing from `kernels`. Placement choices (R10) take the lowest-numbered option, as the kernel's planner
simulation does (`place_first_options`).

`Castle(board_arrays, ghosts, rot, sliders, opts)`; `move(kind, *args)` returns False when the move is illegal
(nothing changed), True after applying it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SIZE = 7
CENTRE = (3, 3)
STEPS = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}  # N, E, S, W
WALL_BIT = {0: 1, 1: 2, 2: 4, 3: 8}


def quarter_cw(rc):
    r, c = rc
    return (c, SIZE - 1 - r)


def to_floor(rc, rot):
    for _ in range(rot % 4):
        rc = quarter_cw(rc)
    return rc


def to_board(fc, rot):
    for _ in range((4 - rot % 4) % 4):
        fc = quarter_cw(fc)
    return fc


@dataclass
class Castle:
    """walls[cell] bits (N1 E2 S4 W8); tunnels: floor column per tunnel; grip[s][g]: set of gripping slider cells;
    corners: 4 (row, col); ghosts: list of (row, col) or None; sliders: list of [tunnel, pulled_out]."""

    walls: list
    tunnels: list
    grip: list
    corners: list
    max_out: int
    ghosts: list
    rot: int
    sliders: list
    off_board_stops: bool = False
    held_displaced: bool = False
    log: list = field(default_factory=list)

    def occupied(self, rc):
        return any(g == rc for g in self.ghosts if g is not None)

    def slider_under(self, floor_col):
        for s, (t, _p) in enumerate(self.sliders):
            if self.tunnels[t] == floor_col:
                return s
        return None

    def held(self, g):
        rc = self.ghosts[g]
        if rc is None:
            return False
        fr, fc = to_floor(rc, self.rot)
        s = self.slider_under(fc)
        if s is None:
            return False
        return (fr - self.sliders[s][1]) in self.grip[s][g]

    # R5
    def drag(self, g, d):
        r, c = self.ghosts[g]
        if self.walls[r * SIZE + c] & WALL_BIT[d]:
            return False
        dr, dc = STEPS[d]
        to = (r + dr, c + dc)
        if not (0 <= to[0] < SIZE and 0 <= to[1] < SIZE) or to == CENTRE or self.occupied(to):
            return False
        self.ghosts[g] = to
        return True

    # R6, C2, C3
    def slide(self, s, d):
        t, p = self.sliders[s]
        step = 1 if d == 1 else -1
        if not 0 <= p + step <= self.max_out:
            return False
        col = self.tunnels[t]
        floor = {g: to_floor(rc, self.rot) for g, rc in enumerate(self.ghosts) if rc is not None}
        at = {fl: g for g, fl in floor.items() if fl[1] == col}
        movers = {g for g in at.values() if self.held(g)}
        grew = True
        while grew:  # movers push whoever stands right ahead
            grew = False
            for g in list(movers):
                ahead = (floor[g][0] + step, col)
                h = at.get(ahead)
                if h is not None and h not in movers:
                    movers.add(h)
                    grew = True
        for g in movers:
            if not 0 <= floor[g][0] + step < SIZE and not self.off_board_stops:
                return False
        stopped: set[int] = set()  # ghost indices
        changed = True
        while changed:  # stops spread backward
            changed = False
            for g in movers - stopped:
                ahead = (floor[g][0] + step, col)
                blocked = (
                    not 0 <= ahead[0] < SIZE
                    or ahead == CENTRE
                    or (ahead in at and (at[ahead] not in movers or at[ahead] in stopped))
                )
                if blocked:
                    stopped.add(g)
                    changed = True
        for g in movers - stopped:
            fr, fc = floor[g]
            self.ghosts[g] = to_board((fr + step, fc), self.rot)
        self.sliders[s][1] = p + step
        return True

    # R7
    def corridor_free(self, t):
        col = self.tunnels[t]
        return all(to_floor(rc, self.rot)[1] != col for rc in self.ghosts if rc is not None)

    def shift(self, s, t, depth):
        if depth > self.max_out or any(u[0] == t for u in self.sliders):
            return False
        if not (self.corridor_free(self.sliders[s][0]) and self.corridor_free(t)):
            return False
        self.sliders[s] = [t, depth]
        return True

    # R8, C6, R10
    def turn(self, d):
        held = {g for g in range(len(self.ghosts)) if self.held(g)}
        new_rot = (self.rot + (1 if d == 0 else -1)) % 4
        floor = {g: to_floor(self.ghosts[g], self.rot) for g in held}
        self.rot = new_rot
        for g in held:
            self.ghosts[g] = to_board(floor[g], new_rot)
        waiting = []
        for h in sorted(held):
            for m in range(len(self.ghosts)):
                if m not in held and self.ghosts[m] is not None and self.ghosts[m] == self.ghosts[h]:
                    loser = h if self.held_displaced else m
                    waiting.append((loser, self.ghosts[h]))
        for loser, _ in waiting:
            self.ghosts[loser] = None
        for loser, (r, c) in waiting:
            opts = []
            for dr, dc in STEPS.values():
                to = (r + dr, c + dc)
                if 0 <= to[0] < SIZE and 0 <= to[1] < SIZE and to != CENTRE and not self.occupied(to):
                    opts.append(to)
            if not opts:
                opts = [x for x in self.corners if not self.occupied(x)]
            self.ghosts[loser] = min(opts, key=lambda rc: rc[0] * SIZE + rc[1])
        return True
