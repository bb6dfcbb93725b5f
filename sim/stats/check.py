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

Exit codes (sim.cli.main): 0 pass, 1 regression, 2 usage, 3 bad input (missing/corrupt baseline, another game's baseline).
"""

from __future__ import annotations

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

FORMAT = 1
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


class BadBaseline(SimError, ValueError):
    """A baseline that cannot be used (missing, corrupt, another game's); one line; exit code 3."""


def rng_contract() -> int:
    from kernels.rng import RNG_CONTRACT

    return RNG_CONTRACT


def digest(sc: Scenario) -> str:
    """Hash of what defines a scenario's behaviour: game, players, every parameter a rule reads, every seat (not
    games/seed, nor an estimate no rule reads such as seconds_per_turn: ParamSpec.rules)."""
    d = sc.to_dict()
    key = {k: d[k] for k in ("game", "players", "params", "seats")}
    key["params"] = {k: v for k, v in key["params"].items() if (ps := sc.spec.param(k)) is None or ps.rules}
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]


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


def _rel(p: str | Path) -> str:
    p = Path(p).resolve()
    try:
        return p.relative_to(REPO).as_posix()
    except ValueError:
        return str(p)


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
        "rules_version": sc.spec.rules_version,
        "rng_contract": rng_contract(),
        "exact": {"seed": sc.seed, "games": exact_games, "aggregates": exact_agg, "measures": _integers(exact_sums)},
        "statistical": {
            "seed": sc.seed,
            "games": stat_games,
            "check_games": check_games,
            "measures": stat_sums,
            "hists": _hists(agg),
        },
    }


PRESENTATION = ("cubes", "label")


def _integers(measures: dict) -> dict:
    """The exact (integer) part of measure sums: the float sum of cubes is left out of exact comparisons, and so is
    the label (words from the catalogue of measures, sim.model.catalogue: a better label is no change of behaviour)."""
    return {k: {f: v for f, v in d.items() if f not in PRESENTATION} for k, d in measures.items()}


def dumps(obj, indent: int = 0) -> str:
    """JSON with one key per line but lists of numbers on one line (readable diffs, small files)."""
    pad = "  " * indent
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f"{pad}  {json.dumps(k)}: {dumps(v, indent + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(obj, list) and any(isinstance(x, (dict, list)) for x in obj):
        if all(isinstance(x, list) and not any(isinstance(y, (dict, list)) for y in x) for x in obj):
            return "[" + f",\n{pad} ".join(json.dumps(x, separators=(",", ":")) for x in obj) + "]"
        return "[\n" + ",\n".join(f"{pad}  {dumps(x, indent + 1)}" for x in obj) + f"\n{pad}]"
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
    if not isinstance(b, dict) or b.get("format") != FORMAT:
        raise BadBaseline(f"{_rel(path)}: not a ghost-sim baseline of format {FORMAT}; regenerate with {how}")
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
    if b["scenario_digest"] != digest(sc):
        msgs.append(("stamp", f"scenario {sc.name} changed since its baseline (players, params or seats); {regen}"))
    ex = b["exact"]
    # an aggregate the code added since the baseline was made (e.g. curve_sq) has nothing to be compared with: it is
    # named, not counted as a change of behaviour; every aggregate the baseline has is compared exactly
    new = sorted(k for k in agg if k not in ex["aggregates"])
    now = {"aggregates": {k: v for k, v in agg.items() if k not in new}, "measures": _integers(sums)}
    diff = _diff_fields({"aggregates": ex["aggregates"], "measures": _integers(ex["measures"])}, now)
    out = {
        "seed": ex["seed"],
        "games": ex["games"],
        "identical": not diff,
        "differs": diff,
        "not_in_baseline": [f"aggregates.{k}" for k in new],
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
            else:  # rare-event counter: exact test of how often it happens
                p = metrics.fisher_test(base["nonzero"], n1, cur["nonzero"], n2)
                method = f"fisher on the non-zero share (skewness {z['skew']:.2f})"
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


def _scenario_seed(seed: int, i: int) -> int:
    return (seed + 0x9E3779B97F4A7C15 * i) % (1 << 64) if i else seed


def _line(r: ScenarioCheck) -> str:
    parts = []
    if r.exact is not None:
        parts.append(f"exact {'identical' if r.exact['identical'] else 'DIFFERS'} ({count(r.exact['games'], 'game')})")
    if r.tests:
        parts.append(count(len(r.tests), "statistical test"))
    return ", ".join(parts) + f" [{r.wall_s:.1f} s]"


def render(res: dict) -> str:
    """Human-readable result of a check."""
    out = []
    tiers = " and ".join(res["tiers"])
    for s in res["scenarios"]:
        status = "FAIL" if s["findings"] else "ok"
        ex = ""
        if s["exact"] is not None:
            ex = f"exact: {'identical' if s['exact']['identical'] else 'differs'} ({count(s['exact']['games'], 'game')}); "
        st = count(s["n_tests"], "statistical test") if "statistical" in res["tiers"] else ""
        out.append(f"{status:4} {s['file']} vs {s['baseline']}: {ex}{st}".rstrip("; "))
        for f in s["findings"]:
            out.append(f"     [{f['tier']}] {f['message']}")
        for n in s["notes"]:
            out.append(f"     note: {n}")
    if "statistical" in res["tiers"]:
        mp = res["min_p_holm"]
        out.append(
            f"statistical tier: fresh seed {res['seed']}, {count(res['n_tests'], 'test')}, Holm-corrected at family-wise "
            f"alpha {res['alpha']}; smallest adjusted p = {p_value(mp, 3)}"
            if mp is not None
            else f"statistical tier: fresh seed {res['seed']}, no tests"
        )
    out.append(
        ("PASS" if res["ok"] else "REGRESSION") + f": {count(len(res['scenarios']), 'scenario')} checked ({tiers})"
    )
    if not res["ok"] and "statistical" in res["tiers"]:
        out.append(f"reproduce: run the same sim check with --seed {res['seed']}")
    return "\n".join(out)
