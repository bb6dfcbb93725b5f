"""Ghosts of the Moor in plain Python: the reference ("oracle") for the Numba kernel in kernels/moor/.

Written from kernels/moor/RULES.md (clauses R*, assumptions A*, ambiguity choices C*) and the RNG contract; it
imports nothing from `kernels`. It uses the same *public encodings* as the kernel (tile ids, action ids, event
codes: RULES.md "Encodings") so the two can be compared game by game and event by event, and the same strategy
arithmetic (same float expressions in the same order) so every decision matches exactly.

Entry points:

* `Moor(rules, n_players, order)`: a game after setup (R1–R4) with the dealt ``order``; then `apply_roll(r)` at a
  chance node, `legal_actions()` / `apply_action(a)` at a decision node, until ``phase == OVER``.
* `play_game(scenario, game_index)`: game ``game_index`` of a scenario, seeded exactly like the kernel's batch run;
  returns ``dict(scores=[per seat], winners=seat bitmask, status, turns, rounds)`` like
  `kernels.moor.play.trace_game`.
* `games_per_second(scenario, n)`: how fast this oracle plays (for the benchmark's kernel/oracle speed ratio).
"""

from __future__ import annotations

import time

from sim.oracle.rng import Xoshiro256

# ---- tiles (R2): ids 0..24 treasures (type = id // 5), 25..31 ghosts, 32..37 planks ---------------------------
TREASURE_NAMES = ("Bone", "Axe", "Coin", "Mask", "Urn")
N_TYPES = 5
PER_TYPE = 5
GHOST0 = 25
PLANK0 = 32
N_TILES = 38
GHOST = 5  # tile kind of a ghost (kinds 0..4 are the treasure types)
PLANK = 6  # tile kind of a plank
N_GOALS = 5
GREEN, BROWN = 14, 5  # R4: 2 tiles on each of 14 green spaces, 1 on each of the next 5 brown ones
PAWNS = {2: 5, 3: 4, 4: 3, 5: 2}  # R1
MAX_PAWNS = 5


def kind(t: int) -> int:
    """0..4 treasure type, GHOST or PLANK."""
    if t < GHOST0:
        return t // PER_TYPE
    return GHOST if t < PLANK0 else PLANK


# ---- actions (RULES.md "Action encoding") ----------------------------------------------------------------------
MOVE = 0  # + pawn index
PLANK_YES = 5
PLANK_NO = 6
DISCARD_MATCH = 7
DISCARD_GHOST = 8  # + j: ghost tile GHOST0 + j
DISCARD_PAIR = 15  # + bottom * 6 + top; pair kinds 0..4 treasure, 5 plank
DISCARD_ONE = 51  # + pair kind
N_ACTIONS = 57

# ---- phases and events -------------------------------------------------------------------------------------------
ROLL, MOVING, PLANKING, DISCARDING, OVER = 0, 1, 2, 3, 4
E_ROLL, E_MOVE, E_PLANK, E_TAKE, E_DISCARD, E_GOAL, E_SKIP, E_NO_DISCARD = 1, 2, 3, 4, 5, 6, 7, 8

# ---- strategies: names, ids, fixed weight rows of the scripted ones (same columns as the weighted strategy) -----
STRATEGY_IDS = {"random": 0, "collector": 1, "runner": 2, "cautious": 3, "weighted": 4}
SCRIPTED_WEIGHTS = {
    1: (2.0, 0.5, 1.0, 0.3, 0.0, 0.2, 0.3, 1.0),  # collector
    2: (0.3, 0.2, 0.3, 4.0, 1.0, -0.5, 0.0, 1.0),  # runner
    3: (0.5, 3.0, 3.0, 0.5, 0.05, 0.0, 2.0, 1.0),  # cautious
}
W_TILE, W_GHOST, W_DISCARD, W_GOAL, W_PROGRESS, W_REAR, W_EMPTY_DEST, PLANK_USE = range(8)


class Rules:
    """The rule parameters of one variant (RULES.md A*, C*), from a scenario's ``params`` dict."""

    def __init__(self, params: dict):
        self.track_len = int(params["track_len"])
        self.end = self.track_len + 1  # A1: Start = 0, path 1..track_len, End = track_len + 1
        self.die_faces = int(params["die_faces"])
        self.max_turns = int(params["max_turns"])
        syms = list(params["space_symbols"]) or [(s - 1) % N_TYPES for s in range(1, self.end)]  # A2
        self.symbol = [None] + [int(x) for x in syms] + [None]  # A6
        self.ghost_value = [int(v) for v in params["ghost_values"]]  # A3
        self.goal_values = [int(v) for v in params["goal_values"]]  # A4, top first
        self.set_points = [0] + [int(v) for v in params["set_points"]]  # R15
        self.discard_fallback = params["discard_fallback"]  # C1
        self.vacated_origin_counts = bool(params["vacated_origin_counts"])  # C2
        self.ghost_before_two = bool(params["ghost_before_two"])  # C3
        self.planks_discardable = bool(params["planks_discardable"])  # C3
        self.tiebreak = params["tiebreak"]  # C9


def pair_kind(k: int) -> int:
    """Kind in a pair/one discard action (0..4 treasure, 5 plank) -> tile kind."""
    return PLANK if k == 5 else k


class Moor:
    """One game of Ghosts of the Moor. Players are turn positions: 0 is the start player."""

    def __init__(self, rules: Rules, n_players: int, order, log: list | None = None):
        assert 2 <= n_players <= 5 and len(order) == 2 * GREEN + BROWN
        self.r = rules
        self.n = n_players
        self.n_pawns = PAWNS[n_players]  # R1
        self.log = log
        self.pawns = [[0] * self.n_pawns for _ in range(n_players)]  # R1: every pawn on Start
        self.stacks: list[list[int]] = [[] for _ in range(rules.end + 1)]  # tile ids, bottom first
        self.held: list[list[int]] = [[] for _ in range(n_players)]  # face-up tiles (ids)
        self.count = [[0] * 7 for _ in range(n_players)]  # held tiles by kind
        self.goals: list[list[int]] = [[] for _ in range(n_players)]  # goal token values taken
        self.goals_left = list(rules.goal_values)  # R2: highest on top (index 0)
        for p in range(n_players):  # R3: one plank each
            self._give(PLANK0 + p, p)
        self.boxed = [PLANK0 + i for i in range(n_players + 1, 6)]  # R3: extras (not the dealt one) boxed
        i = 0
        for s in range(1, GREEN + BROWN + 1):  # R4: deal, first dealt at the bottom
            for _ in range(2 if s <= GREEN else 1):
                self.stacks[s].append(int(order[i]))
                i += 1
        self.lost: list[int] = []
        self.turns = 0
        self.rounds = 0
        self.cur = 0
        self.last_cur = n_players  # any value >= n - 1: the first turn opens round 1
        self.roll = 0
        self.pawn = self.origin = self.dest = -1
        self.decisions = 0
        self.discard_events = self.tiles_discarded = self.planks_laid = 0
        self.phase = ROLL
        self._start_turn()

    # ---- helpers ------------------------------------------------------------------------------------------------
    def _event(self, *e):
        if self.log is not None:
            self.log.append((*e, 0, 0, 0, 0)[:5] + (self.turns,))

    def _give(self, t, p):
        self.held[p].append(t)
        self.count[p][kind(t)] += 1

    def _take_from_hand(self, p, t):
        self.held[p].remove(t)
        self.count[p][kind(t)] -= 1

    def _lowest_held(self, p, k):
        return min(t for t in self.held[p] if kind(t) == k)

    def pawns_on(self, s: int) -> int:
        return sum(row.count(s) for row in self.pawns)

    def home(self, p: int) -> bool:
        return all(x == self.r.end for x in self.pawns[p])

    def symbol(self, s: int):
        return self.r.symbol[s]

    # ---- turn sequence ------------------------------------------------------------------------------------------
    def _start_turn(self):
        """R13/R14: the next player (clockwise) with a pawn not home takes the turn; nobody left: game over."""
        skipped: list[int] = []  # players passed over
        p = self.cur
        for _ in range(self.n):
            if not self.home(p):
                for q in skipped:  # passed-over players are logged only when someone still plays
                    self._event(E_SKIP, q)
                if p <= self.last_cur:
                    self.rounds += 1
                self.last_cur = p
                self.cur = p
                self.phase = ROLL
                return
            skipped.append(p)
            p = (p + 1) % self.n
        self.phase = OVER

    def apply_roll(self, roll: int):
        """R5: the die shows ``roll``."""
        assert self.phase == ROLL and 1 <= roll <= self.r.die_faces
        self.roll = roll
        self.phase = MOVING
        self._event(E_ROLL, self.cur, roll)

    def discard_actions(self, p: int, symbol) -> list:
        """R10 (+C3): the discards open to ``p`` after leaving a tile-less space showing ``symbol``."""
        c = self.count[p]
        if symbol is not None and c[symbol] > 0:
            return [DISCARD_MATCH]  # a matching treasure must be given
        kinds = [0, 1, 2, 3, 4] + ([5] if self.r.planks_discardable else [])
        avail = {k: c[pair_kind(k)] for k in kinds}
        others = sum(avail.values())
        ghosts = sorted(t for t in self.held[p] if kind(t) == GHOST)
        acts = [DISCARD_GHOST + (t - GHOST0) for t in ghosts]
        if others >= 2 and not (ghosts and self.r.ghost_before_two):
            for b in kinds:
                for t in kinds:
                    if avail[b] >= 1 and avail[t] - (b == t) >= 1:
                        acts.append(DISCARD_PAIR + b * 6 + t)
        if not ghosts and others == 1:  # "discard as many tiles as you can"
            acts += [DISCARD_ONE + k for k in kinds if avail[k]]
        return acts

    def legal_actions(self) -> list:
        """Legal action ids, ascending; [] at a chance node or when the game is over."""
        p = self.cur
        if self.phase == MOVING:  # R6: any own pawn not yet home
            return [MOVE + k for k in range(self.n_pawns) if self.pawns[p][k] != self.r.end]
        if self.phase == PLANKING:  # R7
            return [PLANK_YES, PLANK_NO]
        if self.phase == DISCARDING:
            return self.discard_actions(p, self.symbol(self.origin))
        return []

    def apply_action(self, a: int):
        """Apply the current player's decision ``a`` (must be legal) and advance to the next node."""
        p = self.cur
        if self.phase == MOVING:
            k = a - MOVE
            o = self.pawns[p][k]
            d = min(o + self.roll, self.r.end)  # R6, R12: reaching or passing End
            self.pawns[p][k] = d
            self.pawn, self.origin, self.dest = k, o, d
            self._event(E_MOVE, p, k, o, d)
            if d != self.r.end and not self.stacks[d] and self.count[p][PLANK] > 0:
                self.phase = PLANKING  # R7: the choice is the player's
            else:
                self._resolve_origin()
        elif self.phase == PLANKING:
            if a == PLANK_YES:
                t = self._lowest_held(p, PLANK)
                self._take_from_hand(p, t)
                self.stacks[self.dest].append(t)
                self.planks_laid += 1
                self._event(E_PLANK, p, t, self.dest)
            self._resolve_origin()
        elif self.phase == DISCARDING:
            self._discard(p, a)
            self._finish_turn()
        else:
            raise ValueError(f"no decision in phase {self.phase}")

    def _resolve_origin(self):
        """R8 take / R9 discard, judged on the space the pawn left."""
        p, o = self.cur, self.origin
        if o == 0:  # R9: leaving Start never costs a discard
            self._finish_turn()
            return
        if self.stacks[o]:
            if self.pawns_on(o) == 0:  # R8: alone there (C5: own pawns count too)
                t = self.stacks[o].pop()
                self._give(t, p)
                self._event(E_TAKE, p, t, o)
            self._finish_turn()
            return
        if self.discard_actions(p, self.symbol(o)):
            self.phase = DISCARDING
        else:
            self._event(E_NO_DISCARD, p)
            self._finish_turn()

    def discard_target(self):
        """R11 (+C1, C2): the space closest to Start with no tile and no pawn; None when no space qualifies."""
        ok_origin = self.r.vacated_origin_counts
        for s in range(1, self.r.end):
            if not self.stacks[s] and self.pawns_on(s) == 0 and (ok_origin or s != self.origin):
                return s
        if self.r.discard_fallback == "ignore_pawns":
            for s in range(1, self.r.end):
                if not self.stacks[s] and (ok_origin or s != self.origin):
                    return s
        return None

    def _discard(self, p, a):
        target = self.discard_target()
        self.discard_events += 1
        if a == DISCARD_MATCH:
            tiles = [self._lowest_held(p, self.symbol(self.origin))]
        elif a < DISCARD_PAIR:
            tiles = [GHOST0 + a - DISCARD_GHOST]
        elif a < DISCARD_ONE:
            code = a - DISCARD_PAIR
            bottom = self._lowest_held(p, pair_kind(code // 6))
            self._take_from_hand(p, bottom)  # so that a pair of one kind gives two different tiles
            top = self._lowest_held(p, pair_kind(code % 6))
            self._give(bottom, p)
            tiles = [bottom, top]
        else:
            tiles = [self._lowest_held(p, pair_kind(a - DISCARD_ONE))]
        for t in tiles:  # bottom first: the order the player chose
            self._take_from_hand(p, t)
            if target is None:
                self.lost.append(t)
            else:
                self.stacks[target].append(t)
            self.tiles_discarded += 1
            self._event(E_DISCARD, p, t, -1 if target is None else target)

    def _finish_turn(self):
        """R12 goal token, then R13 pass the die."""
        p = self.cur
        if self.dest == self.r.end and self.goals_left:
            v = self.goals_left.pop(0)
            self.goals[p].append(v)
            self._event(E_GOAL, p, v, N_GOALS - 1 - len(self.goals_left))
        self.turns += 1
        self.cur = (p + 1) % self.n
        self._start_turn()

    # ---- scoring --------------------------------------------------------------------------------------------------
    def score(self, p: int) -> int:
        """R15: goal tokens + set points per treasure type − ghost values; planks 0."""
        c = self.count[p]
        ghosts = sum(self.r.ghost_value[t - GHOST0] for t in self.held[p] if kind(t) == GHOST)
        return sum(self.goals[p]) + sum(self.r.set_points[c[k]] for k in range(N_TYPES)) - ghosts

    def winners(self) -> int:
        """R16/R17 (+C9): bitmask over turn positions."""
        scores = [self.score(p) for p in range(self.n)]
        best = max(scores)
        tied = [p for p in range(self.n) if scores[p] == best]
        if self.r.tiebreak == "shared":
            return sum(1 << p for p in tied)
        most = max(self.count[p][PLANK] for p in tied)
        return 1 << max(p for p in tied if self.count[p][PLANK] == most)


# ---- strategies (same arithmetic as kernels/moor/strategies.py; see RULES.md "Strategies") ----------------------
def visible_top(g: Moor, s: int):
    """The face-up top tile of space ``s`` (None when empty): the only board tile a strategy reads."""
    return g.stacks[s][-1] if g.stacks[s] else None


def take_delta(g: Moor, p: int, t: int) -> int:
    k = kind(t)
    if k == GHOST:
        return -g.r.ghost_value[t - GHOST0]
    if k == PLANK:
        return 0
    c = g.count[p][k]
    if c >= 5:
        return 0
    return g.r.set_points[c + 1] - g.r.set_points[c]


def lose_delta(g: Moor, count: int) -> int:
    return g.r.set_points[count - 1] - g.r.set_points[count]


def discard_delta(g: Moor, p: int, a: int) -> int:
    c = g.count[p]
    if a == DISCARD_MATCH:
        return 0
    if a < DISCARD_PAIR:
        return g.r.ghost_value[a - DISCARD_GHOST]
    if a < DISCARD_ONE:
        code = a - DISCARD_PAIR
        ka, kb = pair_kind(code // 6), pair_kind(code % 6)
        d = 0
        if ka < N_TYPES:
            d += lose_delta(g, c[ka])
        if kb < N_TYPES:
            d += lose_delta(g, c[kb] - (1 if ka == kb else 0))
        return d
    k = pair_kind(a - DISCARD_ONE)
    return lose_delta(g, c[k]) if k < N_TYPES else 0


def best_discard(g: Moor, p: int, symbol):
    """(score change, action) of the best discard; (0, -1) when there is nothing to give."""
    if symbol is not None and g.count[p][symbol] > 0:
        return lose_delta(g, g.count[p][symbol]), DISCARD_MATCH
    best, best_a = -(1 << 30), -1
    for a in g.discard_actions(p, symbol):
        d = discard_delta(g, p, a)
        if d > best:
            best, best_a = d, a
    if best_a < 0:
        return 0, -1
    return best, best_a


def move_value(g: Moor, p: int, k: int, w) -> float:
    o = g.pawns[p][k]
    end = g.r.end
    d = min(o + g.roll, end)
    v = w[W_PROGRESS] * (d - o) + w[W_REAR] * (end - o) / end
    if d == end and g.goals_left:
        v += w[W_GOAL] * g.goals_left[0]
    if o > 0:
        if g.stacks[o]:
            if g.pawns_on(o) == 1:  # only this pawn there: it will take the top tile
                dt = take_delta(g, p, visible_top(g, o))
                v += w[W_TILE] * dt
                if dt < 0:
                    v += w[W_GHOST] * dt
        else:
            dd, _ = best_discard(g, p, g.symbol(o))
            v += w[W_DISCARD] * dd
    if d != end and not g.stacks[d]:
        if g.count[p][PLANK] == 0 or w[PLANK_USE] < 0.5:
            v -= w[W_EMPTY_DEST]
    return v


def decide(sid: int, w, g: Moor, legal: list, rng: Xoshiro256) -> int:
    """Strategy ``sid``'s choice among ``legal`` (ascending ids, more than one) for the current player."""
    if sid == 0:  # random: uniform over the legal actions
        return legal[rng.bounded(len(legal))]
    if sid != 4:
        w = SCRIPTED_WEIGHTS[sid]
    p = g.cur
    if g.phase == MOVING:
        best, best_a = -1e300, -1
        for a in legal:
            v = move_value(g, p, a - MOVE, w)
            if v > best:
                best, best_a = v, a
        return best_a
    if g.phase == PLANKING:
        return PLANK_YES if w[PLANK_USE] >= 0.5 else PLANK_NO
    best, best_a = -(1 << 30), -1
    for a in legal:
        d = discard_delta(g, p, a)
        if d > best:
            best, best_a = d, a
    return best_a


# ---- whole games --------------------------------------------------------------------------------------------------
def deal_pool(n_players: int) -> list:
    """R3/R4: the 33 tiles to shuffle, in canonical order: 25 treasures, 7 ghosts, plank PLANK0 + n_players."""
    return list(range(GHOST0 + 7)) + [PLANK0 + n_players]


def play(rules: Rules, n: int, sids, weights, seed: int, point: int, game: int, log: list | None = None):
    """Play game ``game`` of a run; returns (game, status, winners bitmask over seats, scores per seat)."""
    chance = Xoshiro256.stream(seed, point, game, 0)
    srng = [Xoshiro256.stream(seed, point, game, 1 + s) for s in range(n)]
    order = deal_pool(n)
    chance.shuffle(order)
    g = Moor(rules, n, order, log)
    first = game % n
    while g.phase != OVER:
        if g.phase == ROLL:
            if g.turns >= rules.max_turns:
                return g, 1, 0, [0] * n
            g.apply_roll(1 + chance.bounded(rules.die_faces))
            continue
        legal = g.legal_actions()
        if len(legal) == 1:
            a = legal[0]
        else:
            seat = (first + g.cur) % n
            a = decide(sids[seat], weights[seat], g, legal, srng[seat])
            g.decisions += 1
            if a not in legal:
                return g, 2, 0, [0] * n
        g.apply_action(a)
    wpos = g.winners()
    scores = [0] * n
    wseat = 0
    for q in range(n):
        seat = (first + q) % n
        scores[seat] = g.score(q)
        if (wpos >> q) & 1:
            wseat |= 1 << seat
    return g, 0, wseat, scores


def _setup(scenario):
    rules = Rules(scenario.params)
    sids = [STRATEGY_IDS[s.strategy] for s in scenario.seats]
    weights = [tuple(float(x) for x in row) for row in scenario.sparams()]
    return rules, sids, weights


def play_game(scenario, game_index: int, point: int = 0, log: list | None = None) -> dict:
    """Game ``game_index`` of ``scenario`` (seeded like the kernel's batch run).

    Returns dict(scores=[per seat], winners=bitmask over seats, status (0 done, 1 truncated, 2 bad action),
    turns, rounds). Pass a list as ``log`` to receive the events (kind, a, b, c, d, turn) in the kernel's format.
    """
    rules, sids, weights = _setup(scenario)
    g, status, wseat, scores = play(rules, scenario.players, sids, weights, int(scenario.seed), point, game_index, log)
    return dict(scores=scores, winners=wseat, status=status, turns=g.turns, rounds=g.rounds)


def games_per_second(scenario, n: int = 200) -> float:
    """Games per second of this pure-Python oracle on ``scenario`` (games 0..n-1, one thread)."""
    rules, sids, weights = _setup(scenario)
    t0 = time.perf_counter()
    for i in range(n):
        play(rules, scenario.players, sids, weights, int(scenario.seed), 0, i)
    return n / (time.perf_counter() - t0)
