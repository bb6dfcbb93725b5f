"""The move physics of The Ghosts of Castle Turnwall in plain Python: the reference ("oracle") for kernels/turnwall.

Written from kernels/turnwall/RULES.md (R1, R4..R8, R10, C2, C3, C6, C12, C13) with its own representation: ghosts
as (row, col) board coordinates, floor positions recomputed by turning coordinates step by step, pushing solved as
a fixed point (movers spread forward, then stops spread backward) instead of the kernel's two ordered passes, and
the sweep of a turn solved in closed form (the angle at which two circles of one cell meet) instead of the kernel's
sampled table; with solid ghosts (C12) a rider's contact with a stopped ghost is solved from where both actually
are when it stopped, not from their start cells. It imports nothing from `kernels`. Placement choices (R10) take the lowest-numbered option, as the kernel's planner
simulation does (`place_first_options`).

`Castle(board_arrays, ghosts, rot, sliders, opts)`; `move(kind, *args)` returns False when the move is illegal
(nothing changed), True after applying it.
"""

from __future__ import annotations

import math
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
    end_cell: bool = False
    pass_through: bool = False
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

    # C12: the sweep
    @staticmethod
    def _offset(fc):
        return (fc[1] - 3.0, fc[0] - 3.0)  # (x east, y south) from the plug

    @staticmethod
    def _touch_angle(m, s, sign, limit=math.pi / 2):
        """Smallest turn angle in [0, limit) at which a ghost riding from offset m (turning by sign * angle, clockwise
        on the page for sign = 1) comes within one cell of a ghost standing at offset s; None when it never does."""
        rm, rs = math.hypot(*m), math.hypot(*s)
        if rm == 0 or rs == 0:
            return None
        k = (rm * rm + rs * rs - 1.0) / (2 * rm * rs)  # |P - S| < 1  <=>  cos(angle between them) > k
        if k >= 1.0:
            return None
        beta = math.acos(k)
        gap = math.atan2(s[1], s[0]) - math.atan2(m[1], m[0])  # how far m must turn (sign +) to point at s
        # the riding ghost's direction after turning t: phi_m + sign * t; inside when it is within beta of phi_s
        best = None
        for base in (-2, -1, 0, 1, 2):
            for edge in (-beta, beta):
                t = sign * (gap + edge + 2 * math.pi * base)
                if -1e-9 <= t < limit - 1e-9:  # t = 0: neighbours, the rider turning towards it
                    t = max(t, 0.0)
                    mid = t + 1e-7
                    a = math.atan2(m[1], m[0]) + sign * mid
                    x, y = rm * math.cos(a), rm * math.sin(a)
                    if math.hypot(x - s[0], y - s[1]) < 1.0 and (best is None or t < best):
                        best = t
        return best

    @staticmethod
    def _turned(m, angle):
        a = math.atan2(m[1], m[0]) + angle
        r = math.hypot(*m)
        return (r * math.cos(a), r * math.sin(a))

    def _spaces(self, x, y, new_rot):
        """Board cells (not the plug) a ghost centred at floor offset (x, y) covers by at least 10% of their width."""
        return [
            to_board((row, col), new_rot)
            for row in range(SIZE)
            for col in range(SIZE)
            if abs(col - 3 - x) < 0.9 and abs(row - 3 - y) < 0.9 and (row, col) != CENTRE
        ]

    def turn_solid(self, d):
        """C12: solid ghosts. Event by event: the next contact of a moving rider with any ghost standing still (held
        from the start, or stopped) stops that rider where it is; afterwards one space = stays, several = lowest
        free, none = lowest empty corner (in that order, ghost order within each)."""
        sign = 1.0 if d == 0 else -1.0
        new_rot = (self.rot + (1 if d == 0 else -1)) % 4
        on = [g for g, rc in enumerate(self.ghosts) if rc is not None]
        start = {g: self._offset(to_floor(self.ghosts[g], self.rot)) for g in on}
        still = {g: (0.0, start[g]) for g in on if self.held(g)}  # g -> (angle it stands from, where)
        held = set(still)
        while True:
            best = None
            for m in on:
                if m in still:
                    continue
                for at, where in still.values():
                    t = self._touch_angle(self._turned(start[m], sign * at), where, sign, math.pi / 2 - at)
                    if t is not None and (best is None or at + t < best[0] - 1e-12):
                        best = (at + t, m)
            if best is None:
                break
            t, m = best
            still[m] = (t, self._turned(start[m], sign * t))
        self.rot = new_rot
        stopped = sorted(set(still) - held)
        for g in held:
            self.ghosts[g] = to_board((int(start[g][1] + 3), int(start[g][0] + 3)), new_rot)
        spaces = {g: self._spaces(still[g][1][0], still[g][1][1], new_rot) for g in stopped}
        for g in stopped:
            self.ghosts[g] = None
        corner = []
        for g in stopped:
            if len(spaces[g]) == 1:
                if self.occupied(spaces[g][0]):
                    corner.append(g)
                else:
                    self.ghosts[g] = spaces[g][0]
        for g in stopped:
            if len(spaces[g]) > 1:
                opts = [c for c in spaces[g] if not self.occupied(c)]
                if not opts:
                    opts = [x for x in self.corners if not self.occupied(x)]
                self.ghosts[g] = min(opts, key=lambda rc: rc[0] * SIZE + rc[1])
        for g in sorted(corner + [g for g in stopped if not spaces[g]]):
            self.ghosts[g] = min((x for x in self.corners if not self.occupied(x)), key=lambda rc: rc[0] * SIZE + rc[1])
        return True

    def turn_sweep(self, d):
        """C13 (version 3): riders pass through stopped riders and through held corner ghosts, which leave."""
        sign = 1.0 if d == 0 else -1.0
        held = {g for g in range(len(self.ghosts)) if self.held(g)}
        floor = {g: to_floor(rc, self.rot) for g, rc in enumerate(self.ghosts) if rc is not None}
        new_rot = (self.rot + (1 if d == 0 else -1)) % 4
        off = {g for g in held if math.hypot(*self._offset(floor[g])) > 3.5}
        waiting: list[tuple[int, list]] = []
        for g in sorted(floor):
            if g in held:
                if g in off:
                    waiting.append((g, []))
                else:
                    self.ghosts[g] = to_board(floor[g], new_rot)
                continue
            m = self._offset(floor[g])
            hits = []
            for h in held - off:
                t = self._touch_angle(m, self._offset(floor[h]), sign)
                if t is not None:
                    hits.append(t)
            if not hits:
                continue
            t = min(hits)
            a = math.atan2(m[1], m[0]) + sign * t
            r = math.hypot(*m)
            x, y = r * math.cos(a), r * math.sin(a)
            spaces = [
                to_board((row, col), new_rot)
                for row in range(SIZE)
                for col in range(SIZE)
                if abs(col - 3 - x) < 0.9 and abs(row - 3 - y) < 0.9
            ]
            waiting.append((g, spaces))
        self.rot = new_rot
        for g, _ in waiting:
            self.ghosts[g] = None
        for g, spaces in waiting:
            opts = [c for c in spaces if c != CENTRE and not self.occupied(c)]
            if not opts:
                opts = [x for x in self.corners if not self.occupied(x)]
            self.ghosts[g] = min(opts, key=lambda rc: rc[0] * SIZE + rc[1])
        return True

    # R8, C6, R10
    def turn(self, d):
        if not self.end_cell:
            return self.turn_sweep(d) if self.pass_through else self.turn_solid(d)
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
