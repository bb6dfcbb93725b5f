"""Regression checks against committed baselines (`sim check`, `sim baselines`, `make check`, `make baselines`).

One baseline JSON per default scenario: ``reports/baselines/<game folder>/<scenario stem>.json`` for
``scenarios/<game folder>/<scenario stem>.toml``; a scenario file anywhere else (one's own) gets
``reports/baselines/user/<folder>-<stem>-<hash of its absolute path>.json``, so it never maps onto a shipped one. It is stamped with the game's rules version and the RNG contract
version and holds two parts:

* exact: the integer aggregates (sim.stats.aggregate) and measure sums (sim.stats.measures) of the first ``exact.games`` games
  at the scenario's seed. The exact tier replays them; any difference means the code's behaviour changed
  ("behaviour changed: review and regenerate with make baselines"). A changed stamp says which game's rules (or the
  RNG contract) changed; a changed scenario file is reported as such.
* statistical: measure sums and histograms over ``statistical.games`` games at the same seed. The statistical tier
  plays ``check_games`` games at a *fresh* seed and tests every measure against the baseline (z-test of the means,
  with the variance and skewness pooled over both samples, as under "nothing changed", where the difference is
  nearly symmetric; Fisher's exact test for indicators and, on the share of games
  where it is non-zero, for skewed rare-event counters; chi-square on the game-length and per-seat score histograms),
  Holm-corrected over every test of every scenario in the run at family-wise alpha (0.005 by default). It fails only
  on a significant shift, naming the metric, both values and the p-value.

Format 2 (2026-12) adds ``resolved``: the scenario as played (every rule parameter by name with its value and where
it came from, the content digest of every file a parameter reads such as a board, each seat's strategy with every
parameter as played, the rules version), so a check of a changed scenario names what differs
(``params.track_len: 30 -> 31 (the rule's default changed)``). A baseline of format 1 still loads and is checked as
before; the check says to regenerate it for cause naming.

The statistical tier also judges the headline figures (catalogue ``headline``) in the three verdicts of
`sim.stats.verdict` (unchanged within a margin / changed / cannot tell yet; the difference and the equivalence
p-values each Holm-adjusted over every headline figure of the run, at the check's family-wise alpha:
`judge_headline`), and a run is *inconclusive* when no regression was found but a headline figure moved (its
difference significant so) without being shown to stay within its margin. The fresh seed is derived from the
baselines checked and the commit (`derived_seed`) unless given.

Exit codes (sim.cli.main): 0 pass, 1 regression, 2 usage, 3 bad input (missing/corrupt baseline, another game's
baseline), 4 inconclusive (`STATUS`).

About 700 lines, on purpose: making, reading and the two tiers of checking share the baseline's constants and
records; the resolved scenario (`sim.stats.baseline_scenario`) and the result in words (`sim.stats.check_report`)
are rooms of their own.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from sim.model import catalogue
from sim.model.errors import SimError
from sim.model.paths import BASELINES, REPO, SCENARIOS
from sim.model.scenario import Scenario
from sim.model.words import count, p_value
from sim.stats import metrics
from sim.stats import verdict as V

FORMAT = 2  # 2: the resolved scenario (`resolved`); 1: without it (still read and checked, without cause naming)
FORMATS_READ = (1, 2)
# Games per scenario (exact tier, statistical baseline, fresh statistical check) by game: each game's
# `GameSpec.check_sizes`, sized so that `sim check` over every default scenario stays around a minute on a 2-core
# machine (Moor plays about 60k games/s there, Treasure Hunters about 10k); a game without them gets DEFAULT_SIZES
# (sized for Treasure Hunters). Every statistical baseline has 25x the games of a check, so its own noise is a
# small part of each test's variance: with 5x, a committed Galleon baseline's own noise left one counter
# (duels_won_pistol, 3p) 2.4 of its standard errors low, and that counter alone raised 2 false alarms (one CI run,
# 1 of 35 fresh-seed runs) where the family-wise level allows 0.5% (2026-12-01); every game went to 25x on
# 2026-12-02.
DEFAULT_SIZES = (5_000, 500_000, 20_000)


# A scenario with a search seat plays each of its decisions' rollouts (hundreds of games' worth of play per game):
# its exact tier replays 100 games (every search decision bit for bit), its fresh check 100 games against a
# baseline of 25x that (a game whose search games cost seconds each sets smaller `GameSpec.search_check_sizes`).
SEARCH_SIZES = (100, 2_500, 100)


def sizes(game: str, search: bool = False) -> tuple[int, int, int]:
    """(exact-tier games, statistical-baseline games, fresh check games) for a scenario of ``game``; ``search``: the
    scenario has a search seat (SEARCH_SIZES)."""
    from sim.model import registry

    spec = registry.get(game)
    if search:
        return SEARCH_SIZES if spec is None or spec.search_check_sizes is None else spec.search_check_sizes
    return DEFAULT_SIZES if spec is None or spec.check_sizes is None else spec.check_sizes


# Family-wise false-alarm level of the statistical tier (Holm over every test of a run). Holm at alpha keeps the
# false-alarm rate at or below alpha averaged over baselines; for one fixed, committed baseline it scatters around
# that (its own sampling noise shifts some metrics), so we run at half the 1% budget.
ALPHA = 0.005
# The tests must hold far in the tail (Holm's smallest threshold is alpha / m, about 1e-5 with hundreds of tests):
MAX_SKEW = 0.1  # a z-test only where the difference of means is nearly symmetric, else an exact test
CHI2_MIN_EXPECTED = 50.0  # chi-square bins merged until every expected count is at least this
REGENERATE = "review and regenerate with make baselines"
MORE_BASELINE = "make the baseline again with more: sim baselines --stat-games"  # a figure it bounds (`judge_headline`)
OLD_FORMAT = (
    "(players, params or seats: a baseline of format 1 records no resolved scenario to name which; regenerate it "
    "for the check to name the cause)"
)


class BadBaseline(SimError, ValueError):
    """A baseline that cannot be used (missing, corrupt, another game's); one line; exit code 3."""


def rng_contract() -> int:
    from sim.games import rng_contract as contract

    return contract()


def digest(sc: Scenario) -> str:
    """Hash of what defines a scenario's behaviour: game, players, every parameter a rule reads, every seat (not
    games/seed, nor an estimate no rule reads such as seconds_per_turn: ParamSpec.rules)."""
    d = sc.to_dict()
    key = {k: d[k] for k in ("game", "players", "params", "seats")}
    key["params"] = {k: v for k, v in key["params"].items() if (ps := sc.spec.param(k)) is None or ps.rules}
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]


from sim.stats.baseline_scenario import (  # noqa: E402, F401  (re-exported: the format-2 part of a baseline)
    DEFAULT,
    FILE,
    SET,
    SET_CAUSE,
    _rel,
    changes_since,
    resolved,
    scenario_changes,
)

USER_DIR = "user"  # baselines of scenario files outside scenarios/ live in <root>/user/


def is_default_scenario(scenario_file: str | Path) -> bool:
    """Whether the file is a default scenario: scenarios/<game folder>/<stem>.toml of this repository."""
    return Path(scenario_file).resolve().parent.parent == SCENARIOS.resolve()


def baseline_path(scenario_file: str | Path, root: Path = BASELINES) -> Path:
    """<root>/<game folder>/<stem>.json for the default scenario scenarios/<game folder>/<stem>.toml; for any other
    file <root>/user/<folder>-<stem>-<8 hex digits of its absolute path>.json, so a file of one's own named like a
    shipped one (.../moor/4p.toml) never reads or overwrites the shipped baseline."""
    p = Path(scenario_file)
    if is_default_scenario(p):
        return Path(root) / p.parent.name / f"{p.stem}.json"
    h = hashlib.sha256(str(p.resolve()).encode()).hexdigest()[:8]
    return Path(root) / USER_DIR / f"{p.resolve().parent.name}-{p.stem}-{h}.json"


def default_scenarios(game: str | None = None) -> list[Path]:
    """Every default scenario file (scenarios/*/*.toml), optionally of one game folder."""
    return sorted(p for p in SCENARIOS.glob("*/*.toml") if game is None or p.parent.name == game)


def stale_baselines(game: str | None = None, root: Path = BASELINES) -> list[Path]:
    """Baseline files whose default scenario no longer exists (delete them, or rename the scenario back)."""
    have = {baseline_path(f, root) for f in default_scenarios(game)}
    return sorted(
        p
        for p in Path(root).glob("*/*.json")
        if p.parent.name != USER_DIR and (game is None or p.parent.name == game) and p not in have
    )


def _hists(agg) -> dict:
    """Histograms tested by chi-square: game length in turns, and each seat's score. (One observation per game in
    each: scores pooled over seats would count a game several times, and seats of one game are correlated.)"""
    out = {"length.turns": {"lo": 0, "counts": [int(x) for x in agg.turns_hist]}}
    for s, h in enumerate(agg.score_hist):
        out[f"score.seat{s}"] = {"lo": agg.score_lo, "counts": [int(x) for x in h]}
    return out


# --- making baselines ---------------------------------------------------------------------------------------------


def baseline_doc(
    sc: Scenario,
    exact_agg: dict,
    exact_sums: dict,
    exact_games: int,
    stat_games: int,
    check_games: int,
    stat_sums: dict,
    agg,
) -> dict:
    """The baseline document of ``sc`` (what `sim baselines` writes): the exact part (``exact_games`` games at the
    scenario's seed: their aggregates ``exact_agg`` and integer measure sums ``exact_sums``) and the statistical part
    (``stat_games`` games: measure sums ``stat_sums``, histograms of ``agg``), tested later on ``check_games``."""
    return {
        "format": FORMAT,
        "what": "ghost-sim regression baseline (sim check); regenerate with make baselines",
        "game": sc.game,
        "scenario": sc.name,
        "scenario_file": _rel(sc.path) if sc.path else "",
        "scenario_digest": digest(sc),
        "players": sc.players,
        "resolved": resolved(sc),
        "rules_version": sc.spec.rules_version,
        "rng_contract": rng_contract(),
        "exact": {
            "seed": sc.seed,
            "games": exact_games,
            "aggregates": without_arc(exact_agg),
            "measures": _integers(exact_sums),
        },
        "statistical": {
            "seed": sc.seed,
            "games": stat_games,
            "check_games": check_games,
            "measures": stat_sums,
            "hists": _hists(agg),
        },
    }


PRESENTATION = ("cubes", "label")


def without_arc(agg: dict) -> dict:
    """Aggregates without the game's arc counts (arc_*: its fan chart's histograms, thousands of integers): the arc
    measures' integer sums hold what the exact tier compares of the arc."""
    return {k: v for k, v in agg.items() if not k.startswith("arc_")}


def records_arc(b: dict) -> bool:
    """Whether baseline ``b`` holds arc measures (made with the game's arc recorded: its check records it too)."""
    from sim.stats.measures import needs_arc

    return needs_arc(b["exact"]["measures"])


def _integers(measures: dict) -> dict:
    """The exact (integer) part of measure sums: the float sum of cubes is left out of exact comparisons, and so is
    the label (words from the catalogue of measures, sim.model.catalogue: a better label is no change of behaviour)."""
    return {k: {f: v for f, v in d.items() if f not in PRESENTATION} for k, d in measures.items()}


def _flat(obj) -> bool:
    """A dict of scalars and lists of scalars (a resolved parameter: {"value": 30, "from": "default"})."""
    return isinstance(obj, dict) and all(
        not isinstance(v, dict) and not (isinstance(v, list) and any(isinstance(x, (dict, list)) for x in v))
        for v in obj.values()
    )


def dumps(obj, indent: int = 0, compact: bool = False) -> str:
    """JSON with one key per line but lists of numbers on one line (readable diffs, small files); under
    ``compact`` (the resolved scenario) a dict of scalars also on one line."""
    pad = "  " * indent
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        if compact and _flat(obj):
            return json.dumps(obj, separators=(", ", ": "))
        items = [
            f"{pad}  {json.dumps(k)}: {dumps(v, indent + 1, compact or (indent == 0 and k == 'resolved'))}"
            for k, v in obj.items()
        ]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(obj, list) and any(isinstance(x, (dict, list)) for x in obj):
        if all(isinstance(x, list) and not any(isinstance(y, (dict, list)) for y in x) for x in obj):
            return "[" + f",\n{pad} ".join(json.dumps(x, separators=(",", ":")) for x in obj) + "]"
        return "[\n" + ",\n".join(f"{pad}  {dumps(x, indent + 1, compact)}" for x in obj) + f"\n{pad}]"
    if isinstance(obj, list):
        return json.dumps(obj, separators=(",", ":"))
    return json.dumps(obj)


def owner_clash(path: Path, scenario_file: str | Path) -> str | None:
    """When the baseline at ``path`` was made for another scenario file than ``scenario_file``, that file (as the
    baseline records it); None when it is the same file, there is no readable baseline, or it names no file."""
    try:
        b = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    old = b.get("scenario_file") if isinstance(b, dict) else None
    if not isinstance(old, str) or not old:
        return None
    old_abs = Path(old) if Path(old).is_absolute() else REPO / old
    return None if old_abs.resolve() == Path(scenario_file).resolve() else old


def write_baseline(b: dict, path: Path) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    try:
        tmp.write_text(dumps(b) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError:  # a full disk: no half-written .json.tmp left (the CLI says it in one line)
        tmp.unlink(missing_ok=True)
        raise


def own_command(sc: Scenario | None, path: Path | None = None) -> str | None:
    """The command that (re)makes the baseline of ``sc`` at ``path`` when `make baselines` does not: `make baselines`
    remakes only the default scenarios (scenarios/*/*.toml) into reports/baselines/; a scenario of one's own (or a
    baseline kept elsewhere) needs `sim baselines FILE`, with --out. None for a default scenario at home."""
    if sc is None or not sc.path:
        return None
    f = Path(sc.path)
    root = Path(path).parent.parent if path is not None else BASELINES
    at_home = path is None or Path(path).resolve() == baseline_path(f, root).resolve()
    default = is_default_scenario(f)
    home = root.resolve() == BASELINES.resolve()
    if default and home and at_home:
        return None
    if not at_home:
        where = baseline_path(f, Path("DIR")).as_posix()
        return f"`sim baselines {f} --out DIR` (it writes {where}; check with --baselines DIR)"
    return f"`sim baselines {f}{'' if home else f' --out {root}'}`"


def make_command(sc: Scenario | None, path: Path | None = None) -> str:
    """How to (re)make the baseline of ``sc`` at ``path``, one phrase for a message."""
    own = own_command(sc, path)
    return "make baselines" if own is None else f"{own} (make baselines remakes only the default scenarios)"


# --- reading baselines --------------------------------------------------------------------------------------------


def read_baseline(path: Path, sc: Scenario | None = None) -> dict:
    """Load and validate a baseline; raises BadBaseline with one line."""
    path = Path(path)
    how = make_command(sc, path)
    if not path.exists():
        where = f" for {_rel(sc.path)}" if sc is not None and sc.path else ""
        raise BadBaseline(f"{_rel(path)}: no baseline{where}; make it with {how}")
    try:
        b = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise BadBaseline(f"{_rel(path)}: corrupt baseline, not valid JSON ({e}); regenerate with {how}") from None
    if not isinstance(b, dict) or b.get("format") not in FORMATS_READ:
        raise BadBaseline(
            f"{_rel(path)}: not a ghost-sim baseline of format {' or '.join(map(str, FORMATS_READ))}; "
            f"regenerate with {how}"
        )
    need = {
        "game": str,
        "scenario": str,
        "rules_version": int,
        "rng_contract": int,
        "players": int,
        "scenario_digest": str,
        "exact": dict,
        "statistical": dict,
    }
    for k, t in need.items():
        if not isinstance(b.get(k), t):
            raise BadBaseline(
                f"{_rel(path)}: corrupt baseline, '{k}' missing or not a {t.__name__}; regenerate with {how}"
            )
    if b["format"] >= 2 and not isinstance(b.get("resolved"), dict):
        raise BadBaseline(f"{_rel(path)}: corrupt baseline, 'resolved' missing or not a dict; regenerate with {how}")
    for part, keys in (
        ("exact", ("seed", "games", "aggregates", "measures")),
        ("statistical", ("games", "check_games", "measures", "hists")),
    ):
        for k in keys:
            if k not in b[part]:
                raise BadBaseline(f"{_rel(path)}: corrupt baseline, '{part}.{k}' missing; regenerate with {how}")
    if sc is not None:
        if b["game"] != sc.game:
            raise BadBaseline(
                f"{_rel(path)}: baseline of game '{b['game']}' ({b['scenario']}), but the scenario "
                f"{sc.name} is game '{sc.game}'"
            )
        if b["players"] != sc.players:
            raise BadBaseline(f"{_rel(path)}: baseline for {b['players']} players, but {sc.name} has {sc.players}")
    return b


# --- checking -----------------------------------------------------------------------------------------------------


@dataclass
class Finding:
    scenario: str
    tier: str  # "exact" | "stamp" | "statistical"
    message: str


@dataclass
class ScenarioCheck:
    file: str
    scenario: str
    game: str
    baseline: str
    exact: dict | None = None
    tests: list = field(default_factory=list)  # statistical tests (dicts), before the joint Holm correction
    findings: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    wall_s: float = 0.0
    format: int = FORMAT  # the baseline's
    changes: list | None = None  # what differs from the baseline's resolved scenario (None: format 1, unknown)
    digest_differs: bool = False
    headline: list = field(default_factory=list)  # the headline figures' verdicts (`headline_verdicts`)


def _diff_fields(a: dict, b: dict, prefix: str = "") -> list[str]:
    out = []
    for k in sorted(set(a) | set(b)):
        if k not in a or k not in b:
            out.append(prefix + k)
        elif isinstance(a[k], dict) and isinstance(b[k], dict):
            out += _diff_fields(a[k], b[k], prefix + k + ".")
        elif a[k] != b[k]:
            out.append(prefix + k)
    return out


def exact_findings(sc: Scenario, b: dict, agg: dict, sums: dict, path: Path | None = None) -> tuple[dict, list]:
    """Compare the replay of the baseline's exact games (their aggregates ``agg`` and measure sums ``sums``, as
    dicts) with baseline ``b``; returns (result dict, [(tier, regression message)]). A changed stamp or scenario is
    reported instead of the (then expected) differing aggregates. ``path``: where the baseline is (for the advice on
    regenerating it)."""
    msgs: list[tuple[str, str]] = []
    own = own_command(sc, path)
    regen = REGENERATE if own is None else f"{REGENERATE} (default scenarios only; for this one: {own})"
    if b["rules_version"] != sc.spec.rules_version:
        msgs.append(
            (
                "stamp",
                f"rules of {sc.game} changed: baseline made with rules v{b['rules_version']}, code is "
                f"v{sc.spec.rules_version}; {regen}",
            )
        )
    if b["rng_contract"] != rng_contract():
        msgs.append(
            (
                "stamp",
                f"RNG contract changed: baseline made with v{b['rng_contract']}, code is v{rng_contract()}; {regen}",
            )
        )
    changes = changes_since(sc, b)
    if changes:
        fix = regen
        if all(f"({SET_CAUSE})" in c for c in changes):  # `sim baselines` takes no --set: the file must say it
            fix = (
                "that is this check's --set (leave it out to check the file as it is); to make it the baseline, "
                "write it into the scenario file and regenerate" + ("" if own is None else f" ({own})")
            )
        msgs.append(("stamp", f"scenario {sc.name} differs from its baseline: {'; '.join(changes)}; {fix}"))
    elif b["scenario_digest"] != digest(sc):
        why = OLD_FORMAT if changes is None else "(players, params or seats)"
        msgs.append(("stamp", f"scenario {sc.name} changed since its baseline {why}; {regen}"))
    ex = b["exact"]
    agg = without_arc(agg)  # (the arc's counts are never in a baseline; its measures are)
    # an aggregate the code added since the baseline was made (e.g. curve_sq) has nothing to be compared with: it is
    # named, not counted as a change of behaviour; every aggregate the baseline has is compared exactly
    new = sorted(k for k in agg if k not in ex["aggregates"])
    new_m = sorted(k for k in sums if k not in ex["measures"])  # (the arc measures, issue 39)
    now = {
        "aggregates": {k: v for k, v in agg.items() if k not in new},
        "measures": _integers({k: v for k, v in sums.items() if k not in new_m}),
    }
    diff = _diff_fields({"aggregates": ex["aggregates"], "measures": _integers(ex["measures"])}, now)
    out = {
        "seed": ex["seed"],
        "games": ex["games"],
        "identical": not diff,
        "differs": diff,
        "not_in_baseline": [f"aggregates.{k}" for k in new] + [f"measures.{k}" for k in new_m],
    }
    if diff and not msgs:
        shown = ", ".join(diff[:6]) + (f" and {len(diff) - 6} more" if len(diff) > 6 else "")
        msgs.append(
            (
                "exact",
                f"behaviour changed: {regen} ({len(diff)} integer aggregate"
                f"{'s differ' if len(diff) > 1 else ' differs'} from the baseline at seed {ex['seed']}, "
                f"{count(ex['games'], 'game')}: {shown})",
            )
        )
    return out, msgs


def _value(d: dict) -> float:
    return d["sum"] / d["scale"] / d["n"] if d["n"] else 0.0


def stat_findings(sc: Scenario, b: dict, now: dict, agg) -> tuple[list[dict], list[str]]:
    """Test each measure (sums ``now``, as `Sums.to_dict`) and histogram (of aggregates ``agg``) of fresh games
    against baseline ``b``. Returns (tests with raw p-values, notes). Tests of measures constant and equal on both
    sides are left out."""
    st = b["statistical"]
    tests, notes = [], []
    for name, cur in now.items():
        base = st["measures"].get(name)
        if base is None:
            notes.append(f"{name}: not in the baseline (new measure), not tested")
            continue
        if base["scale"] != cur["scale"]:
            notes.append(f"{name}: scale changed, not tested")
            continue
        k = cur["scale"]
        n1, n2 = base["n"], cur["n"]
        if n1 == 0 or n2 == 0:
            continue
        w = metrics.welch_test(base["sum"] / k, base["sq"] / (k * k), n1, cur["sum"] / k, cur["sq"] / (k * k), n2)
        if w["se"] == 0 and w["diff"] == 0:
            continue  # constant and equal on both sides: nothing to test
        se = w["se"]
        if cur["binary"]:
            p, method = metrics.fisher_test(base["sum"] // k, n1, cur["sum"] // k, n2), "fisher"
        else:
            # under "nothing changed" both sides follow one distribution, so its moments pooled over both samples
            # stand for each: a small fresh sample's own variance and skewness can be 0 (CI, 2026-12-05)
            z = metrics.null_z_test(
                (base["sum"] / k, base["sq"] / k**2, base["cubes"] / k**3, n1),
                (cur["sum"] / k, cur["sq"] / k**2, cur["cubes"] / k**3, n2),
            )
            se = z["se"]
            if abs(z["skew"]) <= MAX_SKEW:
                p, method = z["p"], "z (pooled variance)"
            elif base["nonzero"] < n1 or cur["nonzero"] < n2:  # rare-event counter: exact test of how often it happens
                p = metrics.fisher_test(base["nonzero"], n1, cur["nonzero"], n2)
                method = f"fisher on the non-zero share (skewness {z['skew']:.2f})"
            else:  # never 0 (a length): its share of 0s says nothing; skewed, or two samples far apart pooled
                p, method = z["p"], f"z (pooled variance; never 0, skewness {z['skew']:.2f})"
        tests.append(
            {
                "scenario": sc.name,
                "metric": name,
                "label": cur["label"],
                "kind": cur["kind"],
                "baseline": w["mean1"],
                "now": w["mean2"],
                "diff": w["diff"],
                "se": se,
                "n_baseline": n1,
                "n_now": n2,
                "method": method,
                "p": p,
            }
        )
    hs = _hists(agg)
    for name, h in hs.items():
        bh = st["hists"].get(name)
        if bh is None:
            continue
        c = metrics.chi2_hist(bh["counts"], bh["lo"], h["counts"], h["lo"], CHI2_MIN_EXPECTED)
        if c["dof"] == 0:
            continue
        m1 = _hist_mean(bh)
        m2 = _hist_mean(h)
        label = catalogue.for_scenario(sc).label(name)
        tests.append(
            {
                "scenario": sc.name,
                "metric": f"{name} distribution",
                "label": f"distribution of {label}",
                "kind": "distribution",
                "baseline": m1,
                "now": m2,
                "diff": m2 - m1,
                "se": None,
                "n_baseline": sum(bh["counts"]),
                "n_now": sum(h["counts"]),
                "method": f"chi-square ({c['dof']} dof)",
                "p": c["p"],
            }
        )
    return tests, notes


def _hist_mean(h: dict) -> float:
    n = sum(h["counts"])
    return sum((h["lo"] + i) * c for i, c in enumerate(h["counts"])) / n if n else 0.0


def _fmt_value(t: dict, v: float) -> str:
    return f"{100 * v:.2f}%" if t["kind"] == "rate" else f"{v:.3f}"


def holm_findings(tests: list[dict], alpha: float) -> list[Finding]:
    """Apply Holm jointly over ``tests`` (adds p_holm and significant to each); one Finding per significant test."""
    adj = metrics.holm([t["p"] for t in tests])
    found = []
    for t, q in zip(tests, adj):
        t["p_holm"] = q
        t["significant"] = q <= alpha
        if t["significant"]:
            if t["kind"] == "distribution":
                what = (
                    f"{t['label']} shifted (mean: baseline {_fmt_value(t, t['baseline'])} -> now "
                    f"{_fmt_value(t, t['now'])})"
                )
            else:
                what = (
                    f"{t['label']} ({t['metric']}) shifted: baseline {_fmt_value(t, t['baseline'])} -> now "
                    f"{_fmt_value(t, t['now'])}"
                )
            found.append(
                Finding(
                    t["scenario"],
                    "statistical",
                    f"{what}, p = {p_value(t['p'], 3)} (Holm-adjusted {p_value(q, 3)} <= alpha {alpha}; {t['method']})",
                )
            )
    return found


# --- headline figures in the three verdicts (sim.stats.verdict) ----------------------------------------------------

PASS, REGRESSION, INCONCLUSIVE = "pass", "regression", "inconclusive"
# `sim check`'s exit code of each outcome (sim.cli.common; 2 usage and 3 bad baseline are the CLI's own)
STATUS = {PASS: 0, REGRESSION: 1, INCONCLUSIVE: 4}
# a headline figure whose margin may also be given under another key (the first-player advantage is the start
# player's win rate less the fair share 1/players: the same difference, the same verdict)
MARGIN_ALIASES = {"first_player.win": ("first_player_advantage",)}


def headline_keys(sc: Scenario) -> list[str]:
    """The measures of ``sc`` that are headline figures (the catalogue's ``headline``, shown for this scenario)."""
    from sim.stats.measures import measures

    view = catalogue.for_scenario(sc)
    return [m.name for m in measures(sc) if view.shown(m.name) and view.entry(m.name).headline]


def margin_keys(sc: Scenario) -> list[str]:
    """The keys `--margin KEY=VALUE` may name for ``sc``: its headline figures and their aliases."""
    keys = headline_keys(sc)
    return keys + [a for k in keys for a in MARGIN_ALIASES.get(k, ())]


def _margin(key: str, kind: str, margins: dict[str, float] | None) -> V.Margin:
    for alias in MARGIN_ALIASES.get(key, ()):
        if margins and key not in margins and alias in margins:
            return V.margin_for(alias, kind, margins)
    return V.margin_for(key, kind, margins)


def delta_format(kind: str, unit: str):
    """``fmt(value, signed)`` of `verdict.words` for a measure of catalogue ``kind``: a rate's in percentage points."""

    def fmt(x: float, signed: bool = True) -> str:
        if kind == "rate":
            v = 100 * x
            text = f"{v:+.2f}" if signed else f"{v:.3g}"
            return f"{text} point" + ("" if not signed and text == "1" else "s")
        return (f"{x:+.3g}" if signed else f"{x:.3g}") + (f" {unit}" if unit else "")

    return fmt


def headline_rows(sc: Scenario, tests: list[dict], margins: dict[str, float] | None = None) -> list[dict]:
    """The headline figures of ``sc`` among its statistical ``tests`` (`stat_findings`), not yet judged: one row
    each (scenario, metric, label, kind, unit, baseline, now, diff, se, n_now, margin, margin_source, p_diff,
    p_equiv) with its equivalence margin by catalogue kind (`verdict.margin_for`; ``margins`` override by key), the
    test's own p-value for the difference and TOST's for the equivalence (`verdict.tost_p`)."""
    view = catalogue.for_scenario(sc)
    rows = []
    for t in tests:
        if t["kind"] == "distribution" or t.get("se") is None or not view.shown(t["metric"]):
            continue
        e = view.entry(t["metric"])
        if not e.headline:
            continue
        mg = _margin(t["metric"], e.kind, margins)
        m = mg.value(t["baseline"])
        rows.append(
            {
                "scenario": t["scenario"],
                "metric": t["metric"],
                "label": e.label,
                "kind": e.kind,
                "unit": e.unit,
                "baseline": t["baseline"],
                "now": t["now"],
                "diff": t["diff"],
                "se": t["se"],
                "n_now": t["n_now"],
                "n_baseline": t["n_baseline"],
                "margin": m,
                "margin_source": mg.source,
                "p_diff": t["p"],
                "p_equiv": V.tost_p(t["diff"], t["se"], m),
            }
        )
    return rows


def judge_headline(rows: list[dict], alpha: float = ALPHA) -> list[dict]:
    """Judge the headline figures ``rows`` (`headline_rows`, every scenario of a run together) in the three
    verdicts (`verdict.judge`) at the check's family-wise ``alpha``, the difference and the equivalence p-values
    each Holm-adjusted over all of them: a check that passes never says "changed", and "unchanged within +/-m" is
    claimed with a family-wise error of at most ``alpha``. Adds p_diff_holm, p_equiv_holm, moved (p_diff_holm <=
    alpha), verdict, ci95, more_games (at the level the Holm-adjusted p-values meet, alpha over the figures) and
    words to each row; returns ``rows``."""
    pd = metrics.holm([r["p_diff"] for r in rows]) if rows else []
    pe = metrics.holm([r["p_equiv"] for r in rows]) if rows else []
    for r, a, b in zip(rows, pd, pe):
        n = int(r["n_now"])
        v = V.judge(r["diff"], r["se"], r["margin"], n, a, b, alpha)
        bound = False  # the baseline's games alone are too few to decide it
        if v.more_games is not None:
            nb = int(r.get("n_baseline") or 0)
            total = V.games_to_decide(r["diff"], r["se"], r["margin"], n, alpha / len(rows), n_base=nb)
            bound = total == 0
            v = dataclasses.replace(v, more_games=None if not total else max(total - n, 1))
        words = V.words(v, delta_format(r["kind"], r["unit"]))
        if bound:
            words += (
                f": the baseline's {int(r['n_baseline']):,} games are too few to decide it, however many the check "
                f"plays ({MORE_BASELINE})"
            )
        r.update(
            p_diff_holm=a,
            p_equiv_holm=b,
            moved=a <= alpha,
            verdict=v.kind,
            ci95=list(v.ci95),
            more_games=v.more_games,
            baseline_bound=bound,
            words=words,
        )
    return rows


def headline_verdicts(
    sc: Scenario, tests: list[dict], margins: dict[str, float] | None = None, alpha: float = ALPHA
) -> list[dict]:
    """`judge_headline` of one scenario's headline figures alone (a run of several judges them together)."""
    return judge_headline(headline_rows(sc, tests, margins), alpha)


def inconclusive(rows: list[dict]) -> list[dict]:
    """The judged headline figures (`judge_headline`) that make a run without a regression inconclusive: moved
    (their difference significant after Holm over every headline figure of the run at the check's alpha: at most
    alpha of the runs of unchanged code find one) and not shown unchanged within their margin (changed, or cannot
    tell yet)."""
    return [r for r in rows if r["moved"] and r["verdict"] != V.UNCHANGED]


def derived_seed(baseline_files: list[Path], commit: str | None = None) -> int:
    """The statistical tier's fresh seed when none is given: a hash of the checked baselines' contents (their
    SHA-256, in sorted order) and the commit (None: without git), so a rerun of one commit against the same
    baselines plays the same games and gives the same verdict, while a new commit or baseline draws new games."""
    h = hashlib.sha256(b"ghost-sim check seed 1\n")
    for d in sorted(hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in baseline_files):
        h.update(d.encode() + b"\n")
    if commit:
        h.update(b"commit " + commit.encode())
    return int.from_bytes(h.digest()[:8], "big") >> 1


def _scenario_seed(seed: int, i: int) -> int:
    return (seed + 0x9E3779B97F4A7C15 * i) % (1 << 64) if i else seed
