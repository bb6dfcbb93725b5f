"""`sim train`: expert iteration for a game's learned player (Anthony, Tian and Barber 2017, "Thinking fast and
slow with deep learning and tree search"; TAG's ExpertIteration), here with a linear softmax policy.

Each iteration i = 0 .. iterations - 1:

1. play ``games`` training games where every seat of the role plays `search` (UCB1, ``budget`` rollouts a
   decision) with the current rollout policy: a scripted strategy in iteration 0 (`Learner.bootstrap`, else the
   search's default rollout strategy), the policy fitted in iteration i - 1 afterwards (`sim.play.learn.collect`);
   with ``states = "learned"``, from the second iteration on, that policy also plays the games and the search only
   labels the states it reaches (DAgger);
2. record, at each search decision, the features of every legal action and the search's visit counts;
3. fit the policy to the decisions of iterations 0 .. i (`Learner.window`: or of the newest few only), by the
   learner's target (`sim.stats.policy_fit.fit_softmax`, Newton with an L2 penalty, or `fit_action_values`): it
   becomes the next iteration's rollout policy;
4. measure its strength: one learned seat against the role's best scripted strategy at the other seats, the same
   ``eval_games`` games every iteration (win rate with its Wilson 95% interval); from the second iteration on, where
   every seat is of the role and no team, also in self-play: one seat of it against the iteration before at every
   other seat (``strength["selfplay"]``: expert iteration improves on its own rollout policy, which is not always
   the scripted one).

A checkpoint is written after every iteration (``<out>/checkpoint/``: the iteration's decisions and the figures so
far), so the same command run again after Ctrl-C carries on after the last finished iteration. Results depend only
on (game, role, seed, games, budget, iterations' data): not on threads (`sim.play.learn`). The policy shipped is the
iteration with the highest win rate (`best`), written as ``<out>/policy.json`` and, with ``install``, as the game's
shipped weights (`sim.model.policy.policy_path`).
"""

from __future__ import annotations

import json
import math
import time
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sim.model.paths import REPORTS
from sim.model.policy import POLICY_FORMAT, policy_path
from sim.model.registry import GameSpec, Learner, get
from sim.model.values import out_of_range
from sim.stats.policy_fit import Decisions, agreement, fit_action_values, fit_softmax, loss, value_loss

if TYPE_CHECKING:
    from sim.play.work import Executor

EVAL_POINT = 1 << 40  # the strength games' stream point (apart from every training decision's)
# who plays the training games from the second iteration on: every searching seat its search's choice, or the
# previous iteration's policy, the search only labelling the states it reaches (DAgger: Ross, Gordon and Bagnell
# 2011; the states a policy meets are those of its own play)
STATES = ("search", "learned")
TRAIN_DEFAULTS = {"iterations": 4, "games": 40, "budget": 64, "eval_games": 20_000, "l2": 1e-3}


class TrainError(ValueError):
    """A bad request (unknown game or role, a value out of range): one line naming the field and what is allowed."""


class TrainOutError(TrainError):
    """--out cannot hold the training run (a file, another kind of folder, a place that cannot be written): the
    command line's exit code 3, as every command's refused --out."""


@dataclass(frozen=True)
class TrainConfig:
    """What a training run is (everything its weights depend on): game, role, seed, iterations, games per
    iteration, search budget (rollouts per decision), strength games per iteration, L2 penalty, and who plays the
    training games from the second iteration on (``states``, one of STATES)."""

    game: str
    role: str
    seed: int
    iterations: int
    games: int
    budget: int
    eval_games: int
    l2: float
    states: str = "search"

    def command(self, out: Path | None = None, install: bool = True) -> str:
        """The `sim train` command line that reproduces these weights: with ``--out`` where the run was given a
        folder, ``--install`` where it installed them (the shipped policies' command)."""
        import shlex

        where = f" --out {shlex.quote(str(out))}" if out is not None else ""
        return (
            f"sim train {self.game} --role {self.role} --seed {self.seed} --iterations {self.iterations} "
            f"--games {self.games} --budget {self.budget} --eval-games {self.eval_games} --l2 {self.l2:g}"
            f"{' --states ' + self.states if self.states != 'search' else ''}{where}{' --install' if install else ''}"
        )

    def same_run(self, other: dict) -> bool:
        """Whether a checkpoint's config ``other`` is this run's (iterations may grow: a run resumed for more)."""
        mine, other = asdict(self), with_defaults(other)
        return all(other.get(k) == v for k, v in mine.items() if k != "iterations")


def with_defaults(was: dict) -> dict:
    """A checkpoint's config, the options a checkpoint of an older format did not record at their defaults."""
    return {"states": "search", **was}


def learner_of(game: str, role: str | None) -> tuple[GameSpec, Learner]:
    """The game's spec and the `Learner` of ``role`` (default: its first); TrainError naming what is allowed."""
    from sim.model import registry

    spec = get(game)
    if spec is None:
        raise TrainError(f"game: {registry.unknown_game(str(game))}")
    if not spec.learners:
        raise TrainError(f"game: {game} has no learned player yet; games with one: {', '.join(trainable())}")
    roles = [lr.role for lr in spec.learners]
    if role is None:
        return spec, spec.learners[0]
    if role not in roles:
        raise TrainError(f"--role: {game} has no learned role '{role}'; allowed: {', '.join(roles)}")
    return spec, spec.learners[roles.index(role)]


def trainable() -> list[str]:
    """The games with at least one learned role."""
    from sim.model import registry

    out = []
    for name in registry.names():
        spec = get(name)
        if spec is not None and spec.learners:
            out.append(name)
    return out


def check_config(cfg: TrainConfig) -> None:
    """TrainError (one line: the option and what is allowed) for a value out of range."""
    for name, v, lo, hi in (
        ("--iterations", cfg.iterations, 1, 100),
        ("--games", cfg.games, 1, 1_000_000),
        ("--budget", cfg.budget, 1, 65_536),
        ("--eval-games", cfg.eval_games, 100, 10_000_000),
        ("--seed", cfg.seed, 0, 2**64 - 1),
    ):
        if not lo <= v <= hi:
            raise TrainError(out_of_range(name, v, lo, hi))
    if cfg.states not in STATES:
        raise TrainError(f"--states: '{cfg.states}' is not allowed; allowed: {', '.join(STATES)}")
    if not (0.0 <= cfg.l2 <= 100.0) or math.isnan(cfg.l2):
        raise TrainError(out_of_range("--l2", cfg.l2, 0, 100))


TRAIN_FILES = {"checkpoint", "policy.json", "report.json", "report.md"}  # what a training folder holds


def prepare_out(out: Path) -> None:
    """Make ``out`` ready for a training run: new, empty, or a training folder (its checkpoint is resumed); a folder
    of other things (a scenarios folder, a report), a file, or a place that cannot be written is refused with one
    line naming --out (TrainOutError), before any game is played."""
    from sim.output.report import file_in_path

    if out.exists() and not out.is_dir():
        raise TrainOutError(f"--out: {out} is a file; give a folder for the training run")
    if out.is_dir():
        others = sorted(p.name for p in out.iterdir() if p.name not in TRAIN_FILES)
        if others:
            raise TrainOutError(
                f"--out: {out} exists and is not a training folder (it holds {', '.join(others[:3])}"
                f"{', ...' if len(others) > 3 else ''}); give a new or empty folder"
            )
    try:
        (out / "checkpoint").mkdir(parents=True, exist_ok=True)
    except OSError as e:
        blocker = file_in_path(out)
        where = f"{blocker} is a file, not a folder" if blocker is not None else f"cannot write in {out}"
        raise TrainOutError(f"--out: {where} ({e.strerror or e}); give a folder that can be written") from None


def default_out(cfg: TrainConfig) -> Path:
    return REPORTS / "train" / f"{cfg.game}-{cfg.role}"


def _save_npz(path: Path, d: Decisions, w: np.ndarray) -> None:
    tmp = path.with_suffix(".tmp.npz")
    arrays = {"X": d.X, "group": d.group, "target": d.target, "chosen": d.chosen, "w": w}
    if d.visits is not None:
        arrays["visits"] = d.visits
    np.savez(tmp, **arrays)  # type: ignore[arg-type]
    tmp.replace(path)


def _load_npz(path: Path) -> tuple[Decisions, np.ndarray]:
    z = np.load(path)
    visits = z["visits"] if "visits" in z.files else None
    return Decisions(z["X"], z["group"], z["target"], z["chosen"], visits), z["w"]


def _as_json(data: dict) -> dict:
    """``data`` as it reads back from JSON (tuples become lists: a checkpoint's learner compares equal)."""
    out: dict = json.loads(json.dumps(data))
    return out


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(path)


def first_rollout(spec: GameSpec, learner: Learner) -> str:
    """The rollout strategy of training's first iteration: ``learner.bootstrap``, else the role's search default
    (a name of ``spec``'s strategies). A shipped policy records it (its ``training.iterations[0].rollout``), and
    the command that made it plays it again only while the two agree (tests/sim/test_learned.py)."""
    from sim.play import learn as L

    search_st = spec.strategy(L.search_name(spec, learner.role))
    default = next(p.default for p in search_st.params if p.name == "rollout") if search_st else "random"
    return learner.bootstrap or default


def train(
    cfg: TrainConfig,
    out: Path | None = None,
    threads: int = 1,
    install: bool = False,
    say: Callable[[str], None] = print,
    executor: Executor | None = None,
) -> dict:
    """Run (or resume) expert iteration for ``cfg`` (module docstring); returns the report dict (also written to
    ``out``/report.json and report.md). ``say``: progress lines. ``executor``: where the training games are played
    (`sim.play.distributed.executor`: a Dask cluster plays one game a task; default this process on ``threads``
    threads); the weights are the same either way."""
    from sim.play import learn as L

    check_config(cfg)
    spec, learner = learner_of(cfg.game, cfg.role)
    feat = learner.module()
    command = cfg.command(out, install)  # as run: its --out where given, --install where asked
    out = out or default_out(cfg)
    ck = out / "checkpoint"
    prepare_out(out)
    state_path = ck / "state.json"
    iters, parts, weights = _resume(cfg, learner, out, say)
    table = L.tables(cfg.game, learner, "search", cfg.seed)  # one per variant (Learner.variants)
    versus = L.tables(cfg.game, learner, learner.versus, cfg.seed)
    default_rollout = first_rollout(spec, learner)
    for i in range(len(iters), cfg.iterations):
        t0 = time.monotonic()
        if i == 0:
            rollout_name = default_rollout
            rollout = [
                L.rollout_rows(t, learner, default_rollout, None, learner.scripted_params(k))
                for k, t in enumerate(table)
            ]
        else:
            rollout_name = f"{learner.strategy} of iteration {i}"
            prev = np.concatenate([[0.0], weights[-1]])
            rollout = [L.rollout_rows(t, learner, learner.strategy, prev) for t in table]
        last = [t0]
        drive = weights[-1] if i > 0 and cfg.states == "learned" else None
        how = f"played by {rollout_name}, labelled by" if drive is not None else "with"  # the policy plays its rollouts

        def on_game(done: int, i: int = i, t0: float = t0, last: list = last, how: str = how) -> None:
            now = time.monotonic()
            if now - last[0] >= 10.0 or done == cfg.games:
                last[0] = now
                rate = done / max(now - t0, 1e-9)
                say(
                    f"train {cfg.game} {cfg.role}: iteration {i + 1}/{cfg.iterations}: {done}/{cfg.games} games "
                    f"{how} search at {cfg.budget} ({rate:.2f} games/s)"
                )

        data = L.collect(
            table,
            learner,
            cfg.seed,
            i,
            cfg.games,
            cfg.budget,
            rollout,
            threads,
            on_game,
            executor=executor,
            drive=drive,
        )
        t_play = time.monotonic() - t0
        parts.append(data)
        alld = Decisions.concat(parts[-learner.window :] if learner.window else parts, feat.N_FEATURES)
        by_value = learner.target == "action_values"
        if by_value:
            w = fit_action_values(alld, cfg.l2)
        else:
            w = fit_softmax(alld, cfg.l2, w0=weights[-1] if weights else None)
        t1 = time.monotonic()
        w, steps = _step(cfg, learner, versus, weights[-1] if weights else None, w, say)
        weights.append(w)
        row = np.concatenate([[0.0], w])
        s = L.measure(versus, learner, row, cfg.seed, cfg.eval_games, EVAL_POINT)
        if weights[:-1] and L.one_seat(versus, learner):  # self-play: one seat against the previous policy
            prev_row = np.concatenate([[0.0], weights[-2]])
            s["selfplay"] = L.strength(versus[0], learner, row, cfg.seed, cfg.eval_games, EVAL_POINT, prev_row)
        it: dict[str, Any] = {
            "iteration": i,
            "rollout": rollout_name,
            **({"played_by": rollout_name} if drive is not None else {}),
            "games": cfg.games,
            "decisions": data.n,
            "decisions_total": alld.n,
            "loss": value_loss(alld, w) if by_value else loss(alld, w, 0.0),
            "agreement": agreement(alld, w),
            "weights": dict(zip(feat.FEATURE_NAMES, (float(x) for x in w))),
            "versus": learner.versus,
            "strength": s,
            **({"steps": steps} if steps else {}),
            "seconds_play": t_play,
            "seconds_fit_eval": time.monotonic() - t1,
        }
        iters.append(it)
        _save_npz(ck / f"iter-{i}.npz", data, w)
        _write_json(
            state_path,
            {
                "config": asdict(cfg),
                "learner": asdict(learner),
                "feature_version": feat.FEATURE_VERSION,
                "iterations": iters,
            },
        )
        sp = f"; in self-play against iteration {i}: {selfplay_cell(s)}" if "selfplay" in s else ""
        say(
            f"train {cfg.game} {cfg.role}: iteration {i + 1}/{cfg.iterations} done: {data.n} decisions, the policy "
            f"agrees with search on {100 * it['agreement']:.1f}%; {strength_words(learner, s)}{sp}; {t_play:.0f} s "
            "playing"
        )
    report = _report(cfg, spec, learner, iters, command)
    policy = _policy(cfg, spec, learner, report)
    _write_json(out / "policy.json", policy)
    _write_json(out / "report.json", report)
    md = report_markdown(report)
    (out / "report.md").write_text(md)
    if install:
        dest = policy_path(cfg.game, learner.role)
        dest.parent.mkdir(parents=True, exist_ok=True)
        _write_json(dest, policy)
        (dest.parent / f"{learner.role}-report.md").write_text(md)
        say(f"train {cfg.game} {cfg.role}: installed the policy of iteration {report['best'] + 1} as {dest}")
        if weak := weaker_words(learner, report["iterations"][report["best"]]["strength"]):
            say(f"train {cfg.game} {cfg.role}: warning: {weak}")
    say(f"train {cfg.game} {cfg.role}: report written to {out}")
    return report


STEP_POINT = EVAL_POINT + (1 << 30)  # the step search's games (apart from the strength games it is then judged on)


def _step(
    cfg: TrainConfig,
    learner: Learner,
    versus: list,
    prev: np.ndarray | None,
    fit: np.ndarray,
    say: Callable[[str], None] = lambda _s: None,
) -> tuple[np.ndarray, list[dict]]:
    """The weights an iteration keeps: the fit itself, or with ``learner.steps`` and a previous policy ``prev``, the
    step toward it, prev + a (fit - prev) on the 2^-20 grid, whose strength (`sim.play.learn.measure`) is highest on
    ``cfg.eval_games`` games of their own (`STEP_POINT`; the smaller step wins a tie). Returns (weights, one
    {"step", "win_rate", "ci", "games" (those that ended with a winner), "kept"} per step tried; [] where none was
    searched). ``say``: one progress line before the steps' games."""
    from sim.play import learn as L
    from sim.stats.policy_fit import GRID

    if prev is None or not learner.steps:
        return fit, []
    tried = []
    steps = sorted(set(learner.steps) | {1.0})
    say(
        f"train {cfg.game} {cfg.role}: trying steps {', '.join(f'{a:g}' for a in steps)} toward the fit, "
        f"{cfg.eval_games:,} games each"
    )
    for a in steps:
        w = np.round((prev + a * (fit - prev)) * GRID) / GRID
        m = L.measure(versus, learner, np.concatenate([[0.0], w]), cfg.seed, cfg.eval_games, STEP_POINT)
        tried.append(({"step": a, "win_rate": m["win_rate"], "ci": m["ci"], "games": m["games"]}, w))
    best = max(range(len(tried)), key=lambda j: (tried[j][0]["win_rate"], -j))
    return tried[best][1], [t | {"kept": j == best} for j, (t, _) in enumerate(tried)]


def _resume(
    cfg: TrainConfig, learner: Learner, out: Path, say: Callable[[str], None]
) -> tuple[list[dict], list[Decisions], list[np.ndarray]]:
    """The finished iterations of the checkpoint in ``out`` (their figures, decisions and weights; three empty lists
    without one). TrainError (one line) for a damaged checkpoint or one of another run, or of other learner
    settings or features."""
    ck = out / "checkpoint"
    state_path = ck / "state.json"
    iters: list[dict] = []
    parts: list[Decisions] = []
    weights: list[np.ndarray] = []
    if not state_path.exists():
        return iters, parts, weights
    try:
        state = json.loads(state_path.read_text())
        if not isinstance(state, dict) or not isinstance(state.get("config"), dict):
            raise ValueError("no run's settings")
        if not isinstance(state.get("iterations"), list) or not all(_whole(x) for x in state["iterations"]):
            raise ValueError("an iteration's figures are missing")
    except (OSError, ValueError, TypeError) as e:
        raise TrainError(damaged(ck, state_path, e)) from None
    feat = learner.module()
    same = state.get("feature_version") == feat.FEATURE_VERSION and state.get("learner") == _as_json(asdict(learner))
    if not cfg.same_run(state["config"]) or not same:
        what = (
            f"another training run ({_was_command(state)}{_differs(cfg, state['config'])})"
            if not cfg.same_run(state["config"])
            else "this run made with other learner settings or features (the game's code changed since)"
        )
        raise TrainError(f"--out: {out} holds the checkpoint of {what}; give another --out or remove that folder")
    for it in state["iterations"][: cfg.iterations]:
        npz = ck / f"iter-{it['iteration']}.npz"
        try:
            d, w = _load_npz(npz)
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
            raise TrainError(damaged(ck, npz, e)) from None
        parts.append(d)
        weights.append(w)
        iters.append(it)
    if len(iters) == cfg.iterations:
        say(f"train {cfg.game} {cfg.role}: all {cfg.iterations} iterations already done ({ck}); writing the report")
    elif iters:
        say(f"train {cfg.game} {cfg.role}: resuming after iteration {len(iters)} of {cfg.iterations} ({ck})")
    return iters, parts, weights


ITERATION_KEYS = ("iteration", "rollout", "decisions", "agreement", "weights", "versus", "strength")


def _whole(it: object) -> bool:
    """Whether a checkpoint's iteration record holds what the report reads (its figures, a strength with a win
    rate and interval, and the step search's list where there is one)."""
    if not isinstance(it, dict) or any(k not in it for k in ITERATION_KEYS):
        return False
    st, steps = it["strength"], it.get("steps", [])
    return (
        isinstance(st, dict)
        and {"win_rate", "ci", "games"} <= set(st)
        and isinstance(steps, list)
        and all(isinstance(x, dict) and {"step", "win_rate"} <= set(x) for x in steps)
        and (not steps or sum(bool(x.get("kept")) for x in steps) == 1)
    )


def damaged(ck: Path, part: Path, e: BaseException) -> str:
    """The one line for a checkpoint that cannot be read (a file cut short, edited, removed)."""
    if isinstance(e, OSError) and e.strerror:
        why = e.strerror
    elif part.suffix == ".npz":  # numpy's own words for a damaged file suggest loading it unsafely
        why = "not a decisions file sim train wrote, or cut short"
    else:
        why = str(e) or type(e).__name__
    return (
        f"--out: the checkpoint in {ck} is damaged ({part.name}: {why}); remove the folder {ck.parent} or give "
        "another --out"
    )


def _differs(cfg: TrainConfig, was: dict) -> str:
    """ "; it differs in --eval-games (200 there, 300 here)": the options (other than --iterations) where the run a
    checkpoint holds, ``was``, is not ``cfg``."""
    mine, was = asdict(cfg), with_defaults(was)
    said = [
        f"--{k.replace('_', '-')} ({was.get(k)} there, {v} here)"
        for k, v in mine.items()
        if k != "iterations" and was.get(k) != v
    ]
    return f"; it differs in {', '.join(said)}" if said else ""


def _was_command(state: dict) -> str:
    """The command of the training run a checkpoint's ``state`` holds (every option its weights depend on), or as
    much of it as a checkpoint of an older format records."""
    from dataclasses import fields

    was = with_defaults(state.get("config", {}))
    try:
        cmd = TrainConfig(**{f.name: was[f.name] for f in fields(TrainConfig)}).command(install=False)
    except (KeyError, TypeError):
        return f"sim train {was.get('game')} --role {was.get('role')} --seed {was.get('seed')}"
    return cmd


def weaker_words(learner: Learner, s: dict) -> str:
    """Why an installed policy is weaker than what it is measured against ("" where it is not below it): its win
    rate's whole 95% interval below the reference team's rate, or below the fair share of one seat."""
    ref = s.get("reference")
    bar, what = (ref["win_rate"], f"the {learner.versus} team's") if ref else (s["fair"], "the fair share")
    if s["ci"][1] >= bar:
        return ""
    return (
        f"the installed policy wins {100 * s['win_rate']:.1f}% [{100 * s['ci'][0]:.1f}, {100 * s['ci'][1]:.1f}], below "
        f"{what} {100 * bar:.1f}%: weaker than the scripted players it stands in for (more --games or --budget)"
    )


def strength_words(learner: Learner, s: dict) -> str:
    """An iteration's strength in words: 'one learned seat against weighted: wins 74.0% [73.4, 74.6] of 20000 games
    (fair 25%)', or with a reference table 'the learned team wins 33.1% [...] of 8000 games (the weighted team: 32.4%
    [...])'."""
    lo, hi = s["ci"]
    won = f"wins {100 * s['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of {s['games']} games"
    if "reference" not in s:
        return f"one learned seat against {learner.versus}: {won} (fair {100 * s['fair']:.0f}%)"
    r = s["reference"]
    who = "team" if learner.team else learner.role
    return (
        f"the learned {who} {won} (the {learner.versus} {who} on the same games: {100 * r['win_rate']:.1f}% "
        f"[{100 * r['ci'][0]:.1f}, {100 * r['ci'][1]:.1f}])"
    )


def _report(cfg: TrainConfig, spec: GameSpec, learner: Learner, iters: list[dict], command: str) -> dict:
    best = max(range(len(iters)), key=lambda j: (iters[j]["strength"]["win_rate"], -j))
    return {
        "game": cfg.game,
        "role": learner.role,
        "team": learner.team,
        "target": learner.target,
        "window": learner.window,
        "config": asdict(cfg),
        "command": command,
        "rules_version": spec.rules_version,
        "iterations": iters,
        "best": best,
        "seconds": sum(it["seconds_play"] + it["seconds_fit_eval"] for it in iters),
    }


def _policy(cfg: TrainConfig, spec: GameSpec, learner: Learner, report: dict) -> dict:
    feat = learner.module()
    it = report["iterations"][report["best"]]
    return {
        "format": POLICY_FORMAT,
        "game": cfg.game,
        "role": learner.role,
        "feature_set": feat.FEATURE_SET,
        "feature_version": feat.FEATURE_VERSION,
        "rules_version": spec.rules_version,
        "weights": it["weights"],
        "temperature": 0.0,
        "command": report["command"],
        "seed": cfg.seed,
        "training": {
            "iteration": it["iteration"],
            "iterations": [
                {
                    "iteration": x["iteration"],
                    "rollout": x["rollout"],
                    **({"played_by": x["played_by"]} if "played_by" in x else {}),
                    "decisions": x["decisions"],
                    "agreement": round(x["agreement"], 4),
                    "versus": x["versus"],
                    "win_rate": round(x["strength"]["win_rate"], 4),
                    "ci95": [round(v, 4) for v in x["strength"]["ci"]],
                    "games": x["strength"]["games"],
                    **_reference(x["strength"]),
                }
                for x in report["iterations"]
            ],
            "seconds": round(report["seconds"], 1),
        },
    }


def _reference(s: dict) -> dict:
    """The reference table's figures of a strength (`sim.play.learn.team_strength`) for the policy file; {} without."""
    r = s.get("reference")
    if r is None:
        return {}
    return {
        "reference": r["strategy"],
        "reference_win_rate": round(r["win_rate"], 4),
        "reference_ci95": [round(v, 4) for v in r["ci"]],
    }


def _duration(seconds: float) -> str:
    """'42 s' under a minute, else '3.7 min' (a short training run read '0.0 min')."""
    return f"{seconds:.0f} s" if seconds < 60 else f"{seconds / 60:.1f} min"


def fit_words(report: dict) -> str:
    """How the report's iterations fitted the policy (the learner's target and window: `sim.stats.policy_fit`)."""
    c = report["config"]
    k = int(report.get("window", 0))
    data = (
        "all decisions so far"
        if k == 0
        else "the iteration's own decisions"
        if k == 1
        else f"the decisions of the newest {k} iterations"
    )
    if report.get("target") == "action_values":
        return (
            "fitted each action's value (its rollout win rate, least squares weighted by its rollouts, within each "
            f"decision) to {data} (L2 {c['l2']:g}; it does not imitate the search's choice, so its "
            "agreement with the search is low where the search's choice is mostly noise)"
        )
    return f"fitted a softmax policy to {data} (L2 {c['l2']:g})"


DAGGER_WORDS = " (from the second iteration on, the iteration before played them and the search labelled its decisions)"


def played_words(report: dict) -> str:
    """The report's first words: the games each iteration played, who played them, and the fit."""
    c = report["config"]
    who = DAGGER_WORDS if c.get("states") == "learned" else ""
    return (
        f"Each iteration played {c['games']} games with every {report['role']} seat searching at {c['budget']} "
        f"rollouts a decision{who}, {fit_words(report)}"
    )


def rollout_cell(it: dict) -> str:
    """An iteration's rollout policy, and who played its games where not the search (``--states learned``)."""
    return it["rollout"] + (f"; games played by {it['played_by']}" if "played_by" in it else "")


def report_markdown(report: dict) -> str:
    """The training report in Markdown: the command, then one row per iteration (its rollout policy, decisions,
    agreement with search, strength against the best scripted strategy with its Wilson 95% interval, time)."""
    c = report["config"]
    lines = [
        f"# Training report: {report['game']} {report['role']} (learned policy, expert iteration)",
        "",
        f"Command: `{report['command']}`",
        "",
        f"{played_words(report)}, then measured one "
        f"learned seat against the other seats' best scripted strategy on the same {c['eval_games']} games "
        "(win rate of the games that ended with a winner, their count in the table; Wilson 95% interval), and from "
        "the second iteration on, in self-play, one seat of it against the iteration before at every other seat "
        "on the same games. Shipped: the iteration with the highest win rate against the scripted strategy "
        f"({report['best'] + 1}). Training time: {_duration(report['seconds'])}.",
        "",
        "| iteration | rollout policy | decisions | agrees with search | win rate against | 95% interval | fair | "
        "against the iteration before (self-play) | time (s) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    if report["iterations"] and "reference" in report["iterations"][0]["strength"]:
        return "\n".join(lines[:4] + _reference_lines(report)) + "\n"
    for it in report["iterations"]:
        s = it["strength"]
        lines.append(
            f"| {it['iteration'] + 1} | {rollout_cell(it)} | {it['decisions']} | {100 * it['agreement']:.1f}% | "
            f"{100 * s['win_rate']:.1f}% ({it['versus']}, {s['games']:,} games) | "
            f"[{100 * s['ci'][0]:.1f}, {100 * s['ci'][1]:.1f}] | "
            f"{100 * s['fair']:.0f}% | {selfplay_cell(s)} | {it['seconds_play'] + it['seconds_fit_eval']:.0f} |"
        )
    return "\n".join(lines + step_lines(report)) + "\n"


def step_lines(report: dict) -> list[str]:
    """The step search's lines after the table (`_step`): per iteration that searched, each step's win rate on the
    search's own games and the step kept; [] where none searched."""
    out = []
    for it in report["iterations"]:
        steps = it.get("steps") or []
        if not steps:
            continue
        kept = next(x["step"] for x in steps if x.get("kept"))
        tried = ", ".join(
            f"{x['step']:g}: {100 * x['win_rate']:.1f}%" + (f" of {x['games']:,} games" if "games" in x else "")
            for x in steps
        )
        out.append(f"- iteration {it['iteration'] + 1}: {tried}; kept {kept:g}")
    if not out:
        return []
    return [
        "",
        "Steps toward each fit from the previous policy (the policy's win rate at each step, on --eval-games games "
        "of their own, counting those that ended with a winner; the step kept is then measured in the table above):",
        "",
        *out,
    ]


def selfplay_cell(s: dict) -> str:
    """An iteration's self-play figure: one seat of it against the iteration before at every other seat, "26.1%
    [25.2, 27.1] of 7,999 games that ended (fair 25%)"; "-" for the first iteration (nothing before it) or a report made
    before the figure."""
    sp = s.get("selfplay")
    if not sp:
        return "-"
    return (
        f"{100 * sp['win_rate']:.1f}% [{100 * sp['ci'][0]:.1f}, {100 * sp['ci'][1]:.1f}] of {sp['games']:,} games "
        f"that ended (fair {100 * sp['fair']:.0f}%)"
    )


def _reference_lines(report: dict) -> list[str]:
    """The measuring sentence and the table of a report whose strength has a reference table (a team, or a role
    that is not every seat: `sim.play.learn.team_strength`), one row per iteration, the variants' figures after."""
    c = report["config"]
    it0 = report["iterations"][0]
    who = "team (every seat of the role learned)" if report.get("team") else "seat of the role"
    pct = lambda r: f"{100 * r['win_rate']:.1f}% [{100 * r['ci'][0]:.1f}, {100 * r['ci'][1]:.1f}]"  # noqa: E731
    lines = [
        f"{played_words(report)}, then measured the "
        f"win rate of the learned {who} on {c['eval_games']} games against that of the same tables with the "
        f"role's seats on {it0['versus']} on the same games (common random numbers; Wilson 95% intervals). "
        f"Shipped: the iteration with the highest win rate ({report['best'] + 1}). Training time: "
        f"{_duration(report['seconds'])}.",
        "",
        f"| iteration | rollout policy | decisions | agrees with search | learned | {it0['versus']} | time (s) |",
        "|---|---|---|---|---|---|---|",
    ]
    for it in report["iterations"]:
        s = it["strength"]
        lines.append(
            f"| {it['iteration'] + 1} | {rollout_cell(it)} | {it['decisions']} | {100 * it['agreement']:.1f}% | "
            f"{pct(s)} | {pct(s['reference'])} | {it['seconds_play'] + it['seconds_fit_eval']:.0f} |"
        )
    lines += step_lines(report)
    variants = report["iterations"][report["best"]]["strength"].get("variants", [])
    if len(variants) > 1:
        lines += ["", f"By variant, the shipped iteration ({report['best'] + 1}):", ""]
        for v in variants:
            shown = ", ".join(f"{k} = {x}" for k, x in v["params"].items())
            own = ", ".join(f"{k} = {x}" for k, x in v.get("scripted", {}).items())
            lines.append(
                f"- {shown}: learned {pct(v['learned'])} of {v['learned']['games']} games, "
                f"{it0['versus']}{f' ({own})' if own else ''} {pct(v['reference'])}"
            )
    return lines
