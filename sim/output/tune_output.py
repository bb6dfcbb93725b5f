"""A tune's report folder ``reports/tune-<name>/``: the study (study.db, an Optuna SQLite storage: a rerun of the
same command continues it), the stored points (points/), and, once the search and the confirmation are over,
tune.parquet (one row per trial), tune.html, best.toml (a scenario of the chosen setting, ready for `sim run`) and
tune.json (the machine contract), written last: a folder without it holds an unfinished tune, never one that looks
complete."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sim.model.errors import SimError
from sim.model.scenario import toml_value
from sim.model.tune_spec import Tune
from sim.model.words import count

SCHEMA = 1
OUTPUTS = ("tune.json", "tune.parquet", "tune.html", "best.toml")
LOCK = ".tune.lock"
KEPT = ("study.db", "points", LOCK)


class TuneOutputError(SimError, ValueError):
    """--out names a folder that is neither new, empty nor a tune folder (one line)."""


def folder_for(tune: Tune, out: str | Path | None = None) -> Path:
    """``out``, else reports/tune-<scenario name>."""
    from sim.model import paths

    return Path(out) if out else paths.REPORTS / f"tune-{tune.name}"


def what_for(tune: Tune, out: str | Path | None = None) -> str:
    return "--out" if out else f"tune of scenario '{tune.name}', default folder"


def prepare(folder: Path, what: str = "--out") -> None:
    """Make ``folder`` ready for a (re)run: refuse a folder of other things
    (the study and the stored points stay: `forget` removes them). An earlier tune's outputs stay, a complete report of
    its own study, until `write` replaces them. Raises TuneOutputError (one line)."""
    folder = Path(folder)
    if folder.exists():
        if not folder.is_dir():
            raise TuneOutputError(f"{what}: {folder} is a file; give a folder")
        kids = [p.name for p in folder.iterdir()]
        if kids and not any(k in kids for k in OUTPUTS + KEPT):
            raise TuneOutputError(f"{what}: {folder} exists and is not a tune folder; give a new or empty folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise TuneOutputError(f"{what}: cannot write in {folder} ({e.strerror or e})") from None
    from sim.output.report import OutputError, check_writable

    try:
        check_writable(folder, what)
    except OutputError as e:
        raise TuneOutputError(str(e).replace("a report needs", "a tune needs")) from None


def forget(folder: Path) -> None:
    """Remove the study and the stored points (``--fresh``; under `locked`)."""
    (Path(folder) / "study.db").unlink(missing_ok=True)
    shutil.rmtree(Path(folder) / "points", ignore_errors=True)


def stored_points(folder: Path) -> int:
    """How many finished points ``folder``/points holds (the sweep store's format: `sim.output.sweep_output`)."""
    from sim.output.sweep_output import stored_points as stored

    return stored(folder)


def discard_if_empty(folder: Path, made: bool, new_study: bool) -> None:
    """After a tune stopped before it wrote tune.json: with no finished point stored, the study this run started
    (``new_study``: none was there, or ``--fresh``) is removed, and the empty points/ folder, and ``folder`` itself
    when this run made it (``made``) and it is left empty: nothing is left looking like a result (a study of an
    earlier run, and an earlier tune's outputs, stay as they were)."""
    from sim.output.sweep_output import discard_if_empty as discard_points

    folder = Path(folder)
    if stored_points(folder):
        return
    try:
        if new_study:
            for f in folder.glob("study.db*"):  # SQLite's journal beside it
                f.unlink()
    except OSError:
        pass
    discard_points(folder, made)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True


@contextmanager
def locked(folder: Path, what: str = "--out") -> Iterator[None]:
    """Hold ``folder`` for this process while it plays the study (``.tune.lock``, its pid): two tunes telling one
    study at once would each tell the other's trials. A lock left by a process no longer running is taken over.
    Raises TuneOutputError when a running process holds it."""
    p = Path(folder) / LOCK
    for _ in range(2):
        try:
            fd = os.open(p, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            try:
                pid = int(p.read_text(encoding="utf-8").strip() or 0)
            except (OSError, ValueError):
                pid = 0
            if pid and pid != os.getpid() and _alive(pid):
                raise TuneOutputError(
                    f"{what}: {folder} is in use by another sim tune (process {pid}); wait for it to finish, or give "
                    "--out another folder"
                ) from None
            p.unlink(missing_ok=True)
            continue
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(str(os.getpid()))
        break
    try:
        yield
    finally:
        p.unlink(missing_ok=True)


def scenario_toml(doc: dict, header: str) -> str:
    """A scenario document ([scenario], [params], [[seats]]) as a TOML file, ``header`` as its opening comment."""
    lines = [f"# {h}" if h else "#" for h in header.splitlines()]

    def table(name: str, t: dict) -> None:
        lines.append(f"\n[{name}]")
        lines.extend(f"{_key(k)} = {toml_value(v)}" for k, v in t.items())

    table("scenario", doc.get("scenario", {}))
    if doc.get("params"):
        table("params", doc["params"])
    for seat in doc.get("seats", []):
        lines.append("\n[[seats]]")
        lines.extend(f"{_key(k)} = {toml_value(v)}" for k, v in seat.items())
    return "\n".join(lines) + "\n"


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() else json.dumps(k)


def best_document(tune: Tune, values: dict[str, Any], games: int) -> dict:
    """The scenario file's document with the chosen ``values`` set, named ``<name>-tuned``, playing ``games`` at
    the confirmation's seed: `sim run` of it plays the very games that confirmed it (the same numbers)."""
    from sim.model import overrides as ov

    raw, _ = ov.apply_traced(tune.doc, list(values.items()))
    sc = dict(raw.get("scenario", {}))
    sc["name"] = f"{tune.name}-tuned"
    sc["games"] = games
    sc["seed"] = tune.confirm_seed
    board = (raw.get("params") or {}).get("board")
    if isinstance(board, str) and board.endswith(".toml") and not Path(board).is_absolute():
        raw.setdefault("params", {})["board"] = str((tune.path.parent / board).resolve())  # a file beside the scenario
    raw["scenario"] = sc
    return raw


def frame(doc: dict) -> Any:
    """tune.parquet: one row per trial: trial, state, the parameters (numbers, or TOML text for choices),
    games, the point's key, then per target ``<m>``, ``<m>.lo``, ``<m>.hi`` (95%), ``<m>.distance`` and its
    interval (``.distance.lo``, ``.distance.hi``), the score, whether on the Pareto front and whether confirmed,
    then every other measure of the trial with its interval (``<m>``, ``<m>.lo``, ``<m>.hi``; Float64, null for a
    failed trial)."""
    import polars as pl

    targets = {t["measure"] for t in doc["targets"]}
    rows = []
    for t in doc["trials"]:
        r: dict[str, Any] = {"trial": t["number"], "state": t["state"]}
        for p in doc["params"]:
            v = t["values"].get(p["name"]) if t["values"] else None
            r[p["name"]] = v if p["kind"] != "choice" or v is None else toml_value(v)
        r["games"] = doc["games"]
        r["key"] = t.get("key")
        for k, tg in enumerate(doc["targets"]):
            x = (t.get("targets") or [{}] * len(doc["targets"]))[k]
            m = tg["measure"]
            r[m] = x.get("value")
            r[f"{m}.lo"] = (x.get("ci95") or [None, None])[0]
            r[f"{m}.hi"] = (x.get("ci95") or [None, None])[1]
            r[f"{m}.distance"] = x.get("distance")
            r[f"{m}.distance.lo"] = (x.get("distance_ci") or [None, None])[0]
            r[f"{m}.distance.hi"] = (x.get("distance_ci") or [None, None])[1]
        r["score"] = t.get("score")
        r["pareto"] = bool(t.get("pareto"))
        r["confirmed"] = bool(t.get("confirmed"))
        for m, x in (t.get("measures") or {}).items():  # every other measure of the trial, with its interval
            if m not in targets:
                ci = x.get("ci95") or [None, None]
                r.update({m: x.get("value"), f"{m}.lo": ci[0], f"{m}.hi": ci[1]})
        rows.append(r)
    names = [
        f"{t['measure']}{s}"
        for t in doc["targets"]
        for s in ("", ".lo", ".hi", ".distance", ".distance.lo", ".distance.hi")
    ]
    head = [
        "trial",
        "state",
        *[p["name"] for p in doc["params"]],
        "games",
        "key",
        *names,
        "score",
        "pareto",
        "confirmed",
    ]
    more = list(dict.fromkeys(k for r in rows for k in r if k not in head))  # failed trials have none
    floats = set(names) | {"score"} | set(more)
    cols = head + more
    return pl.DataFrame(
        {k: pl.Series(k, [r.get(k) for r in rows], dtype=pl.Float64 if k in floats else None) for k in cols}
    )


def write(folder: Path, tune: Tune, doc: dict) -> None:
    """Write tune.parquet, tune.html and best.toml, then tune.json (each by rename of a temporary file)."""
    from sim.output.report import os_error
    from sim.pages.tune_page import render

    folder = Path(folder)
    pid = os.getpid()
    files = {name: folder / f".{name}.{pid}" for name in ("tune.parquet", "tune.html", "best.toml", "tune.json")}
    try:
        (folder / "tune.json").unlink(missing_ok=True)  # the earlier tune's: until the new one is in, not complete
        frame(doc).write_parquet(files["tune.parquet"])
        files["tune.html"].write_text(render(doc), encoding="utf-8")
        chosen = doc.get("chosen")
        if chosen is not None:
            best = best_document(tune, chosen["values"], doc["confirm_games"])
            head = (
                f"{tune.name}, tuned by `sim tune` ({count(len(doc['trials']), 'trial')} x "
                f"{count(doc['games'], 'game', grouped=True)}): "
                + "; ".join(f"{k} = {toml_value(v)}" for k, v in chosen["values"].items())
                + f"\ntargets: {', '.join(t['text'] for t in doc['targets'])}; confirmed on "
                f"{count(doc['confirm_games'], 'game', grouped=True)} at seed {doc['confirm_seed']} (tune.html)\nPlay it: sim run {folder / 'best.toml'}"
            )
            files["best.toml"].write_text(scenario_toml(best, head), encoding="utf-8")
        else:
            files.pop("best.toml")
        files["tune.json"].write_text(json.dumps(doc, indent=1, default=str) + "\n", encoding="utf-8")
        for name, tmp in files.items():
            os.replace(tmp, folder / name)
    except Exception as e:
        for f in files.values():
            f.unlink(missing_ok=True)
        oe = os_error(e)
        if oe is None:
            raise
        raise oe from None
