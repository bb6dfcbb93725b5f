"""`sim rerun REPORT_FOLDER`: play a report again from what it recorded and say whether the result is identical.

A report records the validated scenario it played (``summary.json`` ``scenario``: every parameter, every seat, the
``--set`` overrides, games and seed) and where it came from (``provenance.json``: scenario file path and content hash,
board files by path, content hash and content, code version, rules version, RNG contract, package versions). The rerun plays
the recorded scenario with the recorded seed and games, compares every result of the summary (everything but its
provenance: wall time and dates differ by nature), and names what changed since when the result differs: the code
(commit, rules version, RNG contract, packages), a board file's content, or the scenario file (which the rerun does
not read: it replays the recorded parameters, and reports a file that now says something else).

A board file edited, moved or deleted since does not stop a rerun: the report carries the board's content
(``provenance.json`` ``files.board.text``), and the rerun plays that recorded board, saying so in a note. Only a report
made before reports carried their boards still needs the file itself.
"""

from __future__ import annotations

import hashlib
import json
import math
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.model.errors import SimError
from sim.play.context import RunContext

if TYPE_CHECKING:
    from sim.model.scenario import Scenario

MAX_SHOWN = 12


class RerunError(SimError, ValueError):
    """A folder that cannot be rerun (not a report, incomplete, a missing board); the message is one line."""


def _read_json(path: Path) -> dict:
    if not path.is_file():
        if path.parent.is_file():  # `sim rerun my.toml`: a scenario, not the report folder it wrote
            raise RerunError(
                f"{path.parent}: a file, not a report folder; give the folder sim run or sim report "
                f"wrote (reports/<name>/), or play the scenario with sim run"
            )
        raise RerunError(f"{path}: no such file; give a report folder written by sim run or sim report")
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RerunError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(d, dict):
        raise RerunError(f"{path}: not a JSON object")
    return d


# the folders the other commands write (their <command>.json, no summary.json): what each is, and what running its
# command again does; `sim report` and `sim rerun` both send a designer there
OTHER_REPORTS = {
    "sweep": ("a sweep", "it reuses every stored point and plays only missing ones (--fresh plays them all again)"),
    "ladder": ("a skill ladder", "it reuses every stored table"),
    "compare": ("a comparison", "it plays both sides again"),
    "tune": ("a tuning study", "it goes on from its study.db"),
}


def other_report(folder: Path) -> str | None:
    """The command ('sweep', 'ladder', 'compare' or 'tune') that wrote report folder ``folder`` (its <command>.json
    there, no summary.json); None for a sim run report, or a folder that is neither."""
    if (folder / "summary.json").is_file():
        return None
    return next((k for k in OTHER_REPORTS if (folder / f"{k}.json").is_file()), None)


def read_report(folder: Path) -> tuple[dict, dict]:
    """(summary, provenance) of report folder ``folder``; RerunError (one line) when it is not a complete one."""
    folder = Path(folder)
    if folder.is_file() and folder.name in ("summary.json", "provenance.json"):
        folder = folder.parent
    kind = other_report(folder)
    if kind is not None:
        what, again = OTHER_REPORTS[kind]
        raise RerunError(f"{folder}: {what} (sim {kind}); run the {kind} command again: {again}")
    s = _read_json(folder / "summary.json")
    if s.get("schema") != 1 or not isinstance(s.get("scenario"), dict):
        raise RerunError(f"{folder / 'summary.json'}: not a summary.json of schema 1 (written by sim run)")
    prov: dict = s["provenance"] if isinstance(s.get("provenance"), dict) else {}
    if (folder / "provenance.json").is_file():
        prov = _read_json(folder / "provenance.json")
    for k in ("seed", "games"):
        if not isinstance(prov.get(k), int):
            raise RerunError(f"{folder / 'provenance.json'}: no {k} recorded; this report cannot be rerun")
    return s, prov


def recorded_files(prov: dict, folder: Path, workdir: Path) -> tuple[dict[str, str], list[str]]:
    """Put back the files (boards) the report recorded whose file on disk is missing or now holds something else.

    Returns ({parameter: path of the recorded content, written under ``workdir`` with the file's own name}, notes in
    words, one per file replayed from the record). A recorded file whose content the report does not carry (a report
    made before reports carried their boards) is left to `causes`; missing, it is one RerunError line."""
    from sim.model.scenario import sha256_file

    subst, notes = {}, []
    files = prov.get("files")
    for name, f in files.items() if isinstance(files, dict) else ():
        if not isinstance(f, dict) or not isinstance(f.get("path"), str):
            continue
        now = sha256_file(f["path"])
        if now is not None and now == f.get("sha256"):
            continue
        text = f.get("text")
        if not isinstance(text, str) or hashlib.sha256(text.encode("utf-8")).hexdigest() != f.get("sha256"):
            if now is None:
                raise RerunError(
                    f"{folder}: cannot rerun: {name} file {f['path']} is missing now, and this report "
                    f"(made before reports carried their {name} files) has no copy of it; put the file "
                    f"back at that path"
                )
            continue
        p = workdir / name / Path(f["path"]).name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text.encode("utf-8"))
        subst[name] = str(p)
        state = "missing now" if now is None else "edited since"
        notes.append(
            f"{name} file {f['path']}: {state}; the rerun played the {name} recorded in the report "
            f"(sha256 {str(f['sha256'])[:12]})"
        )
    return subst, notes


def recorded_scenario(s: dict, prov: dict, files: dict[str, str] | None = None) -> Scenario:
    """The Scenario a report played, rebuilt from its summary (validated again: a parameter the code no longer knows
    is one RerunError line). ``files``: {parameter: path} read instead of the recorded one (`recorded_files`)."""
    from sim.model.scenario import ScenarioError, from_dict

    d = s["scenario"]
    doc = {
        "scenario": {
            "name": "recorded",
            "game": d.get("game"),
            "players": d.get("players"),
            "games": prov["games"],
            "seed": prov["seed"],
            **({"skill_games": d["skill_games"]} if d.get("skill_games") is not None else {}),
        },
        "params": {**(d.get("params") or {}), **(files or {})},
        "seats": [{k: v for k, v in seat.items() if k in ("strategy", "params")} for seat in d.get("seats") or []],
    }
    try:
        sc = from_dict(doc)
    except ScenarioError as e:
        raise RerunError(f"the recorded scenario is not valid for this code: {e}") from None
    overrides = tuple((o["name"], o["value"]) for o in d.get("overrides") or [])
    return sc.with_changes(
        name=d.get("name") or prov.get("scenario") or "recorded",
        description=d.get("description") or "",
        path=prov.get("scenario_file") or "",
        overrides=overrides,
    )


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def diff(a: Any, b: Any, where: str = "") -> list[str]:
    """Every place two JSON values differ, as ``path: old -> new`` lines."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in list(a) + [k for k in b if k not in a]:
            out += diff(a.get(k), b.get(k), f"{where}.{k}" if where else str(k))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += diff(x, y, f"{where}[{i}]")
        return out
    return [] if _same(a, b) else [f"{where}: {json.dumps(a)} -> {json.dumps(b)}"]


def causes(prov: dict, sc: Scenario, replayed: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """What changed since the report was made that can change its result: code, board files, the scenario file.
    Files in ``replayed`` (played from the report's own copy, `recorded_files`) cannot change it and are left out."""
    from sim.games import rng_contract
    from sim.model.scenario import sha256_file
    from sim.play.provenance import PACKAGES, git_commit

    contract = rng_contract()

    out = []
    commit = git_commit()
    if prov.get("git_commit") != commit:
        out.append(f"code version: commit {prov.get('git_commit')} then, {commit} now")
    if prov.get("rules_version") != sc.spec.rules_version:
        out.append(f"rules version: v{prov.get('rules_version')} then, v{sc.spec.rules_version} now")
    if prov.get("rng_contract") != contract:
        out.append(f"RNG contract: v{prov.get('rng_contract')} then, v{contract} now")
    from importlib import metadata

    for p in PACKAGES:
        then = (prov.get("packages") or {}).get(p)
        try:
            now = metadata.version(p)
        except metadata.PackageNotFoundError:
            now = None
        if then != now:
            out.append(f"package {p}: {then} then, {now} now")
    files = prov.get("files")
    if isinstance(files, dict):
        for name, f in files.items():
            if not isinstance(f, dict) or name in replayed:
                continue
            now = sha256_file(f.get("path", ""))
            if now is None:
                out.append(f"{name} file {f.get('path')}: missing now")
            elif now != f.get("sha256"):
                out.append(
                    f"{name} file {f.get('path')}: content changed (sha256 {str(f.get('sha256'))[:12]} "
                    f"then, {now[:12]} now)"
                )
    elif sc.spec.board is not None:
        out.append("board file: not recorded by this report (made before boards were hashed)")
    return out


def scenario_file_drift(prov: dict, sc: Scenario, recorded_params: dict | None = None) -> list[str]:
    """How the scenario file (with the report's overrides) now differs from what the report played; the rerun
    replays the recorded parameters, so this never changes its result, but a new run of the file would differ.
    ``recorded_params``: parameters as the report recorded them (a board's recorded path, not the rerun's copy)."""
    from sim.model.overrides import load
    from sim.model.scenario import ScenarioError, sha256_file

    path = prov.get("scenario_path") or prov.get("scenario_file")
    if not path:
        return []
    if not Path(path).is_file():
        return [f"scenario file {path}: missing now (the rerun uses the recorded parameters)"]
    if prov.get("scenario_sha256") and sha256_file(path) == prov["scenario_sha256"]:
        return []
    try:
        now = load(path, sc.overrides).to_dict()
    except ScenarioError as e:
        return [f"scenario file {path}: no longer valid ({e})"]
    then = sc.to_dict()
    then["params"] = {**then["params"], **(recorded_params or {})}
    keys = [k for k in ("players", "params", "seats", "seed", "games") if k in then and k in now]
    lines = [d for d in diff({k: then[k] for k in keys}, {k: now[k] for k in keys})]
    if not lines:
        return (
            [
                f"scenario file {path}: edited since, in comments or layout only (the same players, parameters, "
                "seats, seed and games)"
            ]
            if prov.get("scenario_sha256")
            else []
        )
    return [f"scenario file {path} now says: " + "; ".join(lines[:MAX_SHOWN])]


def rerun(
    folder: Path,
    threads: int | None = None,
    progress: Callable[[float], None] | None = None,
    ctx: RunContext | None = None,
) -> dict:
    """Replay report ``folder`` and compare. Returns {"folder", "scenario", "games", "seed", "identical",
    "differences" (path: old -> new lines), "causes" (what changed since that can explain them), "notes"}.
    ``ctx``: threads, progress, cancellation (default: from ``threads`` and ``progress``).
    Raises RerunError (one line) when the folder cannot be rerun."""
    from sim.api import core as api

    s, prov = read_report(folder)
    with tempfile.TemporaryDirectory(prefix="sim-rerun-") as tmp:
        subst, replayed = recorded_files(prov, folder, Path(tmp).resolve())
        sc = recorded_scenario(s, prov, subst)
        why = causes(prov, sc, set(subst))
        missing = [c for c in why if c.endswith("missing now")]
        if missing:
            raise RerunError(f"{folder}: cannot rerun: {missing[0]}")
        recorded_chunk = prov.get("chunk")
        chunk = recorded_chunk if isinstance(recorded_chunk, int) and recorded_chunk > 0 else None
        # the report's own parts played again as it played them: the game's arc, its table at skill
        run_ctx = (ctx or RunContext(threads=threads, progress=progress)).with_(arc=bool(s.get("arc")))
        new, _, _ = api.play_scenario(
            sc,
            prov["games"],
            prov["seed"],
            threads,
            chunk or 1 << 16,
            write=False,
            ctx=run_ctx,
            extend=_skill_again(s.get("at_skill"), chunk or 1 << 16, run_ctx),
        )
    text = json.dumps(new)
    for name, p in subst.items():  # the copy's path stands where the original run had the file's own
        text = text.replace(json.dumps(p)[1:-1], json.dumps(prov["files"][name]["path"])[1:-1])
    new = json.loads(text)
    recorded = {k: (s["scenario"].get("params") or {}).get(k) for k in subst}
    if isinstance(new.get("scenario"), dict) and isinstance(new["scenario"].get("params"), dict):
        new["scenario"]["params"].update(recorded)
    words = ("provenance", "measures")  # where it came from, and what the measures are called: not results
    old = {k: v for k, v in s.items() if k not in words}
    new = {k: v for k, v in new.items() if k not in words}
    for block in (old, new):  # the table at skill's own wall time differs by nature, as the provenance's
        if isinstance(block.get("at_skill"), dict):
            block["at_skill"] = {k: v for k, v in block["at_skill"].items() if k != "wall_s"}
    lines = diff(old, new)
    return {
        "folder": str(folder),
        "scenario": sc.name,
        "games": prov["games"],
        "seed": prov["seed"],
        "identical": not lines,
        "differences": lines,
        "causes": why,
        "notes": replayed + scenario_file_drift(prov, sc, recorded),
    }


def _skill_again(recorded: dict | None, chunk: int, ctx: RunContext) -> Callable[[Scenario, dict], None] | None:
    """What plays a report's "At skill" table again (`sim.api.skill.extender`), or None for a report without one.
    Sized as it was: asked for (its recorded games), else by the scenario's skill_games or the default size again."""
    if not isinstance(recorded, dict):
        return None
    from sim.api.skill import extender

    games = recorded.get("games") if recorded.get("why") == "as asked" else None
    return extender(games if isinstance(games, int) else None, chunk, None, ctx)


def render(res: dict) -> str:
    """The rerun's verdict in words: identical, or what differs and what changed since."""
    from sim.model.words import count

    head = f"{res['folder']}: {res['scenario']}, {count(res['games'], 'game')}, seed {res['seed']}"
    if res["identical"]:
        lines = [f"identical: {head} reproduced bit for bit"]
        if res["causes"]:
            lines.append("  (although since then: " + "; ".join(res["causes"]) + ")")
    else:
        n = len(res["differences"])
        lines = [f"DIFFERENT: {head}: {n} result{'s' if n != 1 else ''} differ"]
        lines += [f"  {d}" for d in res["differences"][:MAX_SHOWN]]
        if n > MAX_SHOWN:
            lines.append(f"  ... and {n - MAX_SHOWN} more")
        lines.append(
            "changed since the report was made: "
            + ("; ".join(res["causes"]) if res["causes"] else "nothing recorded (same code, boards and packages)")
        )
    lines += [f"note: {x}" for x in res["notes"]]
    return "\n".join(lines)
