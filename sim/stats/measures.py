"""Per-game measures and their integer sums: the common ground of `sim compare` (paired, common random numbers) and
the statistical tier of `sim check` (fresh seed against a baseline).

A *measure* is one number per game (win share of seat 0, turns, the winner's margin, ...). Each is kept as an
integer numerator over a fixed ``scale`` (a win shared by k players is 60/k units of 60), so every sum below is an
exact integer whatever the chunking; floats appear only when a test divides. Memory is bounded: per-game values live
for one chunk, only (n, sum, sum of squares) per measure survive.

What each measure is (its label, unit, kind and one-line definition, the games and modes it applies to) is declared
once in the catalogue of measures, `sim.model.catalogue`; this module only computes them. Names (finished games only,
unless said otherwise):
  win.seat<i>, win.<strategy>, first_player.win, tie, margin    [competitive games]
  team.<role>                                                   [team games]
  score.seat<i>, length.turns, length.rounds
  extra.<col>        a game counter (mean); extra.<col>=<value>: share of games with that categorical value
  truncated          1 when the game hit the turn cap (over all games played)

`measures(sc)` is every measure the kernel outputs define (the regression baselines' `Sums` keep them all, so the
committed baselines and their exact tier stay as they are); `shown(sc)` is those the reports show and `sim compare`
compares: the ones the catalogue says apply to the scenario (no Head Haunter counter in a basic game), without
bookkeeping (`first_seat`, the seat rotation: a kernel output kept in games.parquet, not a game statistic).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.model import catalogue
from sim.model.scenario import Scenario
from sim.stats.aggregate import WIN_UNITS
from sim.stats.spread_compare import JointWins

BOOKKEEPING = catalogue.BOOKKEEPING_COLUMNS  # ("first_seat",): declared shown=False in the catalogue


def is_bookkeeping(name: str) -> bool:
    """Whether measure ``name`` is a bookkeeping column (extra.first_seat), not a game statistic to compare."""
    return name.startswith("extra.") and name[len("extra.") :].split("=")[0] in BOOKKEEPING


@dataclass(frozen=True)
class Measure:
    name: str
    label: str
    kind: str  # "rate" (a share in [0, 1]) or "mean"
    scale: int  # value = numerator / scale
    binary: bool  # numerators are 0 or scale only (an indicator)
    over: str = "finished"  # "finished" games, "all" games played, or "defined": finished where its value is >= 0
    unit: str = ""  # from the catalogue (sim.model.catalogue)


def _strategy_seats(sc: Scenario) -> dict[str, list[int]]:
    d: dict[str, list[int]] = {}
    for i, s in enumerate(sc.seats):
        d.setdefault(s.strategy, []).append(i)
    return d


def _per_strategy(strat: dict, n: int) -> bool:
    """Strategy measures only add something when strategies are mixed and one of them holds several seats
    (with one seat per strategy they repeat the seat measures)."""
    return 1 < len(strat) < n


def is_cooperative(sc: Scenario) -> bool:
    return bool(sc.spec.team_roles)


def measures(sc: Scenario, arc: bool = False) -> list[Measure]:
    """Every measure the kernel outputs define for scenario ``sc`` (in report order), labelled from the catalogue;
    ``arc``: with the arc measures (a run that recorded the game's arc: RunContext.arc)."""
    spec = sc.spec
    n = sc.players
    cat = catalogue.for_scenario(sc)
    out: list[Measure] = []

    def add(name: str, kind: str, scale: int, binary: bool, over: str = "finished"):
        e = cat.entry(name)
        out.append(Measure(name, e.label, kind, scale, binary, over, e.unit))

    coop = is_cooperative(sc)
    roles = spec.roles(sc.params, n)
    if coop:
        for role in dict.fromkeys(roles):
            add(f"team.{role}", "rate", 1, True)
    else:
        for s in range(n):
            add(f"win.seat{s}", "rate", WIN_UNITS, False)
        strat = _strategy_seats(sc)
        if _per_strategy(strat, n):
            for name, seats in strat.items():
                add(f"win.{name}", "rate", WIN_UNITS * len(seats), False)
        add("first_player.win", "rate", WIN_UNITS, False)
        add("tie", "rate", 1, True)
        add("margin", "mean", 1, False)
    for s in range(n):
        add(f"score.seat{s}", "mean", 1, False)
    add("length.turns", "mean", 1, False)
    add("length.rounds", "mean", 1, False)
    for col in spec.extra_columns:
        if col in spec.categorical:
            for label in spec.categorical[col]:
                add(f"extra.{col}={label}", "rate", 1, True)
        elif cat.entry(f"extra.{col}").kind == "rate":  # a 0/1 counter declared a share (tiebreak_decided)
            add(f"extra.{col}", "rate", 1, True)
        else:
            add(f"extra.{col}", "mean", 1, False)
    if arc and spec.arc_len and not coop:  # the game's arc, from the kernel's per-round curves (sim.stats.arc)
        add("arc.lead_changes", "mean", 1, False)
        add("arc.decided_by_score", "mean", 1, False)
        add("arc.decided_by_score_share", "mean", ARC_SHARE_SCALE, False)
        add("arc.comeback", "rate", 1, True)
        add("arc.leader_at_half_wins", "rate", 1, True, "defined")
        add("arc.last_at_half_wins", "rate", 1, True, "defined")
    add("truncated", "rate", 1, True, "all")
    return out


ARC_SHARE_SCALE = 1000  # arc.decided_by_score_share: per mille of the game's rounds
ARC_PREFIX = "arc."  # the arc measures' names: a run that reports one records the game's arc


def needs_arc(names) -> bool:
    """Whether any of the measure names ``names`` is an arc measure (its run must record the game's arc)."""
    return any(str(n).startswith(ARC_PREFIX) for n in names)


def arc_values(sc: Scenario, out, w: np.ndarray) -> dict[str, np.ndarray]:
    """Per-game numerators of the arc measures from a chunk's arc figures (the last row of every game's arc record,
    full or compact; `sim.games._arc`): a conditional measure (over "defined") is -1 where its condition fails."""
    # (imported here: the kernels package imports numba, which `import sim` must not)
    from sim.games._arc import ARC_CHANGES, ARC_CLEAR, ARC_EVER_LAST, ARC_HALF_LAST, ARC_HALF_LEAD, figures

    fig = figures(out.arc)
    rounds = np.maximum(out.rounds.astype(np.int64), 1)
    clear = fig[:, ARC_CLEAR]
    hl, hb = fig[:, ARC_HALF_LEAD], fig[:, ARC_HALF_LAST]
    return {
        "arc.lead_changes": fig[:, ARC_CHANGES],
        "arc.decided_by_score": clear,
        "arc.decided_by_score_share": (ARC_SHARE_SCALE * clear + rounds // 2) // rounds,
        "arc.comeback": ((fig[:, ARC_EVER_LAST] & w) != 0).astype(np.int64),
        "arc.leader_at_half_wins": np.where(hl != 0, (hl & w) != 0, -1).astype(np.int64),
        "arc.last_at_half_wins": np.where(hb != 0, (hb & w) != 0, -1).astype(np.int64),
    }


def selected(m: Measure, x: np.ndarray, fin: np.ndarray) -> np.ndarray:
    """The games measure ``m`` is taken over, of per-game numerators ``x``: all games played (over "all"), the
    finished ones, or (over "defined", a conditional measure) the finished ones where it is defined (x >= 0)."""
    if m.over == "all":
        return np.ones(len(x), bool)
    return fin & (x >= 0) if m.over == "defined" else fin


def shown(sc: Scenario, arc: bool = False) -> list[Measure]:
    """The measures the reports show and `sim compare` compares for ``sc``: those the catalogue says apply to it
    (its game, mode, team or competitive), bookkeeping left out."""
    cat = catalogue.for_scenario(sc)
    return [m for m in measures(sc, arc) if cat.shown(m.name)]


def game_values(sc: Scenario, out) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Per-game integer numerators of every measure for one chunk of kernel outputs (`runner.ChunkOutputs`).

    Returns (values by measure name, finished mask). Values of unfinished games are meaningless for measures
    over finished games; callers mask them."""
    spec = sc.spec
    n = sc.players
    k = len(out.status)
    fin = out.status == 0
    w = out.winners.astype(np.int64)
    bits = (w[:, None] >> np.arange(n, dtype=np.int64)[None, :]) & 1
    nwin = bits.sum(axis=1)
    units = np.where(nwin > 0, WIN_UNITS // np.maximum(nwin, 1), 0)
    share = bits * units[:, None]
    scores = out.scores.astype(np.int64)
    v: dict[str, np.ndarray] = {}
    roles = spec.roles(sc.params, n)
    if is_cooperative(sc):
        for role in dict.fromkeys(roles):
            v[f"team.{role}"] = bits[:, roles.index(role)]
    else:
        for s in range(n):
            v[f"win.seat{s}"] = share[:, s]
        strat = _strategy_seats(sc)
        if _per_strategy(strat, n):
            for name, seats in strat.items():
                v[f"win.{name}"] = share[:, seats].sum(axis=1)
        g = out.game0 + np.arange(k, dtype=np.int64)
        v["first_player.win"] = share[np.arange(k), g % n]
        v["tie"] = (nwin > 1).astype(np.int64)
        v["margin"] = winner_margin(bits, nwin, scores)
    for s in range(n):
        v[f"score.seat{s}"] = scores[:, s]
    v["length.turns"] = out.turns.astype(np.int64)
    v["length.rounds"] = out.rounds.astype(np.int64)
    for c, col in enumerate(spec.extra_columns):
        x = out.extra[:, c].astype(np.int64)
        if col in spec.categorical:
            for code, label in enumerate(spec.categorical[col]):
                v[f"extra.{col}={label}"] = (x == code).astype(np.int64)
        else:
            v[f"extra.{col}"] = x
    v["truncated"] = (out.status == 1).astype(np.int64)
    if getattr(out, "arc", None) is not None and not is_cooperative(sc):
        v.update(arc_values(sc, out, w))
    return v, fin


def winner_margin(bits: np.ndarray, nwin: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Per game: best score among the winners minus the best score among the others (0 when all or none won)."""
    n = bits.shape[1]
    big = np.int64(1) << 40
    best_win = np.where(bits == 1, scores, -big).max(axis=1)
    best_other = np.where(bits == 0, scores, -big).max(axis=1)
    return np.where((nwin > 0) & (nwin < n), best_win - best_other, 0)


CLOSE_MARGIN = 1


class Decisiveness:
    """Histogram of the winner's margin over finished games of a competitive game, for the balance report
    (use as an on_chunk collector). Cooperative games have no margin: `summary()` is None."""

    def __init__(self, sc: Scenario):
        self.sc = sc
        self.active = not is_cooperative(sc)
        lo, hi = sc.spec.score_range
        self.lo = -(hi - lo)
        self.hist = np.zeros(2 * (hi - lo) + 1, np.int64)

    def add(self, out) -> None:
        if not self.active:
            return
        n = self.sc.players
        fin = out.status == 0
        w = out.winners[fin].astype(np.int64)
        bits = (w[:, None] >> np.arange(n, dtype=np.int64)[None, :]) & 1
        m = winner_margin(bits, bits.sum(axis=1), out.scores[fin].astype(np.int64))
        idx = np.clip(m - self.lo, 0, len(self.hist) - 1)
        self.hist += np.bincount(idx, minlength=len(self.hist))

    def summary(self) -> dict | None:
        """{definition, margin (distribution), mean_ci95, close (rate of games won by <= CLOSE_MARGIN points)}."""
        if not self.active:
            return None
        from sim.stats.metrics import distribution, rate, z_value

        d = distribution(self.hist, self.lo)
        n = d["n"]
        h = z_value() * d["std"] / np.sqrt(n) if n > 1 else 0.0
        close = int(self.hist[: CLOSE_MARGIN - self.lo + 1].sum())
        return {
            "definition": catalogue.describe("margin", self.sc.game).definition,
            "margin": d,  # no finished game: n = 0, no mean and no interval
            "mean_ci95": [d["mean"] - float(h), d["mean"] + float(h)] if n else None,
            "close_margin": CLOSE_MARGIN,
            "close": rate(close, n),
        }


def _isum(x: np.ndarray) -> int:
    return int(x.sum(dtype=np.int64)) if len(x) else 0


class Sums:
    """Per measure over the games of one run: n, sum, sum of squares, games with a non-zero value (integers), and
    the sum of cubes (a float: only used to judge the skewness, i.e. whether a normal test is trustworthy)."""

    def __init__(self, sc: Scenario, arc: bool = False):
        self.sc = sc
        self.measures = measures(sc, arc)
        self.n = {m.name: 0 for m in self.measures}
        self.s = {m.name: 0 for m in self.measures}
        self.q = {m.name: 0 for m in self.measures}
        self.nz = {m.name: 0 for m in self.measures}
        self.cu = {m.name: 0.0 for m in self.measures}

    def add(self, out) -> None:
        """Fold one chunk of kernel outputs in (use as ``sim.play.work.run(..., on_chunk=sums.add)``)."""
        v, fin = game_values(self.sc, out)
        for m in self.measures:
            x = v[m.name][selected(m, v[m.name], fin)]
            self.n[m.name] += len(x)
            self.s[m.name] += _isum(x)
            self.q[m.name] += _isum(x * x)
            self.nz[m.name] += int(np.count_nonzero(x))
            xf = x.astype(np.float64)
            self.cu[m.name] += float((xf * xf * xf).sum())

    @classmethod
    def of(cls, sc: Scenario, sums: dict, cubes: dict) -> Sums:
        """The sums of merged units (`sim.play.work.UnitResult` ``sums`` {n, s, q, nz} and ``cubes``)."""
        out = cls(sc, arc=needs_arc(sums["n"]))
        out.n, out.s, out.q, out.nz = (dict(sums[k]) for k in ("n", "s", "q", "nz"))
        out.cu = dict(cubes)
        return out

    def to_dict(self) -> dict:
        return {
            m.name: {
                "n": self.n[m.name],
                "sum": self.s[m.name],
                "sq": self.q[m.name],
                "nonzero": self.nz[m.name],
                "cubes": self.cu[m.name],
                "scale": m.scale,
                "kind": m.kind,
                "binary": m.binary,
                "label": m.label,
            }
            for m in self.measures
        }


def _label_both(m: Measure, sa: Scenario, sb: Scenario) -> Measure:
    """``m`` (labelled from A) labelled for both sides where B changed what its label says: a seat whose strategy B
    changed is 'seat 0 (A weighted, B search) wins', not A's 'seat 0 (weighted) wins'."""
    from dataclasses import replace

    view = catalogue.for_scenario(sa)
    view.seats = [
        x.strategy if x.strategy == y.strategy else f"A {x.strategy}, B {y.strategy}"
        for x, y in zip(sa.seats, sb.seats)
    ]
    return replace(m, label=view.label(m.name))


def label_over(name: str, scenarios: list[Scenario]) -> str:
    """Measure ``name``'s label said of every scenario in ``scenarios`` (a sweep's points, the first one's
    catalogue): a seat whose strategy differs between them is 'seat 3 (as swept) wins' (each point names its own
    strategy), not the first point's 'seat 3 (runner) wins' said of every point."""
    view = catalogue.for_scenario(scenarios[0])
    seats = []
    for i in range(len(scenarios[0].seats)):
        here = {sc.seats[i].strategy for sc in scenarios if i < len(sc.seats)}
        seats.append(scenarios[0].seats[i].strategy if len(here) == 1 else "as swept")
    view.seats = seats
    return view.label(name)


class PairedSums:
    """Sums over games paired by index between scenarios A and B (same seed: common random numbers).

    Per measure: n (games finished in both, or all games for measures over all games), sums and sums of squares
    of a, of b and of d = b - a. ``joint``: the games finished in both by (A's winners, B's winners), for the
    seat spread's paired bootstrap (`sim.stats.spread_compare`); None unless both sides are competitive."""

    FIELDS = ("n", "sa", "qa", "sb", "qb", "sd", "qd")

    def __init__(self, sa: Scenario, sb: Scenario, arc: bool = False):
        self.a, self.b = sa, sb
        ma = shown(sa, arc)  # what applies to each side (the seat rotation, a Head Haunter counter in a basic
        mbl = shown(sb, arc)  # game: not compared); ``arc``: the arc measures too (a run recording the arc)
        names_b = {m.name for m in mbl}
        self.measures = [m for m in ma if m.name in names_b]
        mb = {m.name: m for m in mbl}
        # a measure is comparable only with the same meaning (same scale) on both sides
        self.measures = [m for m in self.measures if mb[m.name].scale == m.scale]
        self.measures = [m if mb[m.name].label == m.label else _label_both(m, sa, sb) for m in self.measures]
        self.only_a = [m.name for m in ma if m.name not in {x.name for x in self.measures}]
        self.only_b = [m.name for m in mbl if m.name not in {x.name for x in self.measures}]
        self.acc = {m.name: dict.fromkeys(self.FIELDS, 0) for m in self.measures}
        self.games = 0
        both_compete = not (is_cooperative(sa) or is_cooperative(sb))
        self.joint = JointWins(sa.players, sb.players) if both_compete else None

    def add(self, out_a, out_b) -> None:
        va, fa = game_values(self.a, out_a)
        vb, fb = game_values(self.b, out_b)
        both = fa & fb
        self.games += len(out_a.status)
        if self.joint is not None:
            self.joint.add(out_a.winners, out_b.winners, both)
        for m in self.measures:
            a, b = va[m.name], vb[m.name]
            if m.over != "all":
                keep = selected(m, a, both) & selected(m, b, both)
                a, b = a[keep], b[keep]
            d = b - a
            acc = self.acc[m.name]
            acc["n"] += len(a)
            acc["sa"] += _isum(a)
            acc["qa"] += _isum(a * a)
            acc["sb"] += _isum(b)
            acc["qb"] += _isum(b * b)
            acc["sd"] += _isum(d)
            acc["qd"] += _isum(d * d)
