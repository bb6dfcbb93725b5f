"""Writes a run's outputs under reports/<scenario>/: summary.json, summary.md, provenance.json, games.parquet.

A report folder is written under a temporary name (``.<name>.partial-PID``) and renamed into place only when
complete, so an interrupted or failed run never leaves a report that looks complete; the staging folder of a run that
was killed outright (SIGKILL) is removed by the next run writing the same report.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shutil
import signal
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from sim.model.errors import SimError
from sim.model.paths import REPO  # noqa: F401  (the report writer's callers name it here too)
from sim.model.scenario import Scenario
from sim.model.words import count

# files that mark a folder as an earlier report (sim run / sim report: summary.json, provenance.json; sim compare:
# compare.json), so --out may replace it
REPORT_MARKERS = ("provenance.json", "summary.json", "compare.json")
# everything a report run (sim run / report / compare) writes into its folder: a rerun replaces these (also one it
# does not write this time, e.g. games.parquet of an earlier --per-game run) and keeps whatever else the user put
# there (notes, folders of their own)
REPORT_OUTPUTS = frozenset(
    REPORT_MARKERS
    + (
        "summary.md",
        "summary.html",
        "balance.md",
        "games.parquet",
        "at_skill.parquet",
        "plots",
        "parts",
        "compare.md",
        "compare.html",
    )
)
# what `sim report FOLDER` redraws (sim.pages.html_report.write): a redraw replaces these and carries the run's other
# files (RUN_FILES) over unchanged
PAGE_OUTPUTS = ("summary.html", "balance.md", "plots")
RUN_FILES = ("summary.json", "provenance.json", "summary.md", "games.parquet", "at_skill.parquet")
MIN_FREE_BYTES = 1 << 20  # a report (without games.parquet) is well under this


def recorded_provenance(final: Path) -> dict | None:
    """The provenance.json of the report in ``final`` as a dict, or None when there is none or it cannot be read
    (a folder that is no report, a damaged file)."""
    try:
        prov = json.loads((Path(final) / "provenance.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return prov if isinstance(prov, dict) else None


def report_owner(final: Path) -> tuple[str, str] | None:
    """(scenario file, scenario name) of the report in ``final`` as its provenance.json records them (the absolute
    path when recorded); None when there is no readable report."""
    prov = recorded_provenance(final)
    if prov is None:
        return None
    path = prov.get("scenario_path") or prov.get("scenario_file") or ""
    name = prov.get("scenario") or ""
    if not isinstance(path, str) or not isinstance(name, str):
        return None
    return path, name


def replaces_other_scenario(final: Path, scenario_file: str) -> str | None:
    """When ``final`` holds the report of a scenario file other than ``scenario_file`` (two files with one
    ``name``, or an --out folder reused), that other file as its report recorded it; None when it is the same file,
    no report, or unknown."""
    if not scenario_file:
        return None
    prov = recorded_provenance(final)
    if prov is None:
        return None
    old_abs, old = prov.get("scenario_path") or "", prov.get("scenario_file") or ""
    if not isinstance(old_abs, str) or not isinstance(old, str) or not (old_abs or old):
        return None
    new_abs = str(Path(scenario_file).resolve())
    if old_abs:
        return None if old_abs == new_abs else old_abs
    # a report from before provenance kept the absolute path: its file as given, relative to where it was run
    if old == scenario_file or str(Path(old).resolve()) == new_abs or Path(old).name == Path(scenario_file).name:
        return None
    return old


def replaced_settings(final: Path, games: int, seed: int, overrides: list) -> str | None:
    """How the report in ``final`` was made differently from a run of ``games`` games at ``seed`` with ``overrides``
    ((name, value) pairs), in words ("1,000 games (this run: 300)"), or None when it was made the same way (or holds no
    readable provenance.json). Same scenario file assumed (`replaces_other_scenario` tells the other case)."""
    prov = recorded_provenance(final)
    if prov is None or not isinstance(prov.get("games"), int):
        return None
    old_over = [(o.get("name"), o.get("value")) for o in prov.get("overrides") or [] if isinstance(o, dict)]
    new_over = [(n, v) for n, v in overrides]
    differs = []
    if prov["games"] != games:
        differs.append(f"{count(prov['games'], 'game', grouped=True)} (this run: {games:,})")
    if prov.get("seed") != seed:
        differs.append(f"seed {prov.get('seed')} (this run: {seed})")
    if old_over != new_over:
        differs.append("other --set overrides")
    return ", ".join(differs) or None


class OutputError(SimError, OSError):
    """The report cannot go where it was asked to; the message is one line."""


def _named(final: Path, what: str) -> str:
    """How an error line names the destination: '--out: FOLDER' when the user gave --out, else ``what`` and the
    folder ("scenario 'x', default report folder: FOLDER"; a comparison's; a report redrawn in place)."""
    return f"{what}: {final}"


def _instead(what: str, text: str) -> str:
    """What to do instead: ``text`` for --out; otherwise giving --out (and, for a scenario's default folder,
    another scenario name)."""
    if what == "--out":
        return text
    return "give --out another folder" + (
        ', or the scenario another name (name = "..." under [scenario])' if what.startswith("scenario ") else ""
    )


def check_output_dir(final: Path, what: str = "--out") -> Path:
    """Refuse a destination that is not new and not an earlier report: an existing report folder is replaced,
    anything else (a file, a folder of other things, the current folder) is left alone; and an existing folder
    that cannot be replaced (`check_replaceable`). Returns the resolved path. ``what``: how the user named the
    folder, for the error line: "--out", or e.g. "scenario 'x', default report folder" when --out was not given."""
    final = Path(final).resolve()
    if final == Path.cwd().resolve() or final in Path.cwd().resolve().parents or final == REPO.resolve():
        raise OutputError(
            f"{_named(final, what)} is the current folder or one above it; "
            + _instead(what, "give a new folder for the report")
        )
    if final.exists():
        if not final.is_dir():
            raise OutputError(f"{_named(final, what)} is a file; " + _instead(what, "give a folder for the report"))
        if any(final.iterdir()) and not any((final / m).exists() for m in REPORT_MARKERS):
            raise OutputError(
                f"{_named(final, what)} exists and is not a report folder; "
                + _instead(what, "give a new or empty folder (an earlier report folder is replaced)")
            )
        check_replaceable(final, what)
    return final


def check_replaceable(final: Path, what: str = "--out") -> None:
    """An existing report folder ``final`` is replaced by renaming (`staged_dir`): it is renamed aside, the user's
    own files in it are moved into the new report, and the new one is renamed into its place. Refuse, before any
    game is played, a folder that cannot go through that: a mount point (cannot be renamed), a folder in which
    nothing can be created or removed (read-only, immutable, append-only: a probe file is created and removed in
    it), and one the sticky bit of its parent keeps another user from renaming. OutputError (one line)."""
    final = Path(final)
    head = f"{_named(final, what)} cannot be replaced"
    if os.path.ismount(final):
        raise OutputError(
            f"{head}: it is a mount point (a report is written beside its folder and renamed into "
            "place); give a folder inside it"
        )
    try:
        _probe(final)
    except OSError as e:
        raise OutputError(f"{head}: cannot write in it ({e.strerror or e})") from None
    euid = getattr(os, "geteuid", lambda: 0)()
    try:
        st, pst = final.stat(), final.parent.stat()
    except OSError:
        return
    if euid != 0 and pst.st_mode & 0o1000 and euid not in (st.st_uid, pst.st_uid):
        raise OutputError(
            f"{head}: it belongs to another user and {final.parent} lets only a folder's owner "
            "rename it; " + _instead(what, "give a folder of your own")
        )


def _probe(folder: Path) -> None:
    """Create and remove a hidden file in ``folder``: OSError when nothing can be written or removed there."""
    fd, probe = tempfile.mkstemp(prefix=".sim-probe-", dir=folder)
    os.close(fd)
    os.unlink(probe)


def file_in_path(folder: Path) -> Path | None:
    """The file that stands where ``folder`` or one of the folders above it should be (--out /tmp/afile/sub with
    /tmp/afile a plain file), or None."""
    return next((p for p in (Path(folder), *Path(folder).parents) if p.exists() and not p.is_dir()), None)


def check_writable(folder: Path, what: str = "--out", create: bool = True) -> Path:
    """Create ``folder`` if needed and make sure a file can be written in it and its disk has MIN_FREE_BYTES free;
    OutputError (one line naming the folder) otherwise. Cheap: callers run it before playing any game. With
    ``create`` False a missing folder is not made (a command that writes its files only when done leaves nothing
    when stopped): the nearest existing folder above it is checked instead, where the folder will be made."""
    folder = Path(folder)
    blocker = file_in_path(folder)  # /tmp/afile/sub: "File exists" would name the wrong trouble
    if blocker is not None:
        raise OutputError(f"{what}: {blocker} is a file, not a folder; give a folder for the report")
    probed = folder
    if create:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise OutputError(f"{what}: cannot create {folder} ({e.strerror or e})") from None
    else:
        probed = next(p for p in (folder, *folder.absolute().parents) if p.exists())
    try:
        _probe(probed)
    except OSError as e:
        said = f"write in {folder}" if probed == folder else f"create {folder}"
        raise OutputError(f"{what}: cannot {said} ({e.strerror or e})") from None
    free = shutil.disk_usage(probed).free
    if free < MIN_FREE_BYTES:
        raise OutputError(
            f"{what}: the disk holding {folder} is full ({free} bytes free; a report needs at least "
            f"{MIN_FREE_BYTES >> 20} MiB)"
        )
    return folder


def prepare_output(final: Path, what: str = "--out") -> Path:
    """`check_output_dir`, then `check_writable` on its parent folder (where the report is staged): every check of
    the destination that can fail before the games are played. Returns the resolved folder. ``what``: how the user
    named the folder (`check_output_dir`)."""
    final = check_output_dir(final, what)
    check_writable(final.parent, what)
    return final


def keep_user_files(final: Path, tmp: Path, moved: list[str] | None = None) -> None:
    """Move what the user put in the earlier report folder ``final`` (anything not in REPORT_OUTPUTS and not written
    again into ``tmp``) into the new one, so replacing a report replaces only what the tool wrote. ``moved``: the
    names moved so far are appended to it (to move them back when the swap fails)."""
    for entry in Path(final).iterdir():
        if entry.name in REPORT_OUTPUTS or (Path(tmp) / entry.name).exists() or staging_run(entry):
            continue
        entry.rename(Path(tmp) / entry.name)
        if moved is not None:
            moved.append(entry.name)


def os_error(e: BaseException) -> OSError | None:
    """``e`` as an OSError when it is one, or when it is a Polars error wrapping one (Polars writes Parquet in Rust
    and reports a full disk as ``ComputeError: ... No space left on device (os error 28)``); None otherwise."""
    if isinstance(e, OSError):
        return e
    pl = sys.modules.get("polars")
    if pl is None or not isinstance(e, pl.exceptions.PolarsError):
        return None
    m = re.search(r"\(os error (\d+)\)", str(e))
    if m is None:
        return None
    n = int(m.group(1))
    return OSError(n, os.strerror(n))


def write_failed(final: Path, e: OSError, where: Path | None = None) -> OutputError:
    """The one line for a report folder ``final`` that could not be written (a full disk, a folder gone read-only):
    names the folder, what went wrong and that nothing was written."""
    if isinstance(e, OutputError):
        return e
    name = ""
    if e.filename and where is not None:  # a file of the staging folder: named as in the report
        try:
            name = Path(e.filename).relative_to(where).as_posix()
        except ValueError:
            name = str(e.filename)
    elif e.filename:
        name = str(e.filename)
    return OutputError(
        f"cannot write the report {final}: {e.strerror or e}"
        + (f" (writing {name})" if name and name != "." else "")
        + "; nothing was written"
    )


@contextmanager
def staged_dir(final: Path, what: str = "--out"):
    """Yield a temporary folder beside ``final``; on success it replaces ``final`` (keeping the user's own files
    there, `keep_user_files`), on any error it is removed and ``final`` is as it was.

    Raises OutputError (before any work) when ``final`` is not a new folder, an empty one or an earlier report, or
    cannot be written or replaced (`prepare_output`; ``what``: how the user named the folder, see
    `check_output_dir`); an OSError while writing or swapping the folder in (a full disk), or a Polars error
    wrapping one (`os_error`), becomes one OutputError line that names the folder."""
    final = prepare_output(final, what)
    remove_stale(final)
    tmp = final.parent / f".{final.name}.partial-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    try:
        tmp.mkdir()
    except OSError as e:
        raise OutputError(f"{what}: cannot write in {final.parent} ({e.strerror or e})") from None
    try:
        yield tmp
    except BaseException as e:
        shutil.rmtree(tmp, ignore_errors=True)
        oe = os_error(e)
        if oe is None:
            raise
        raise write_failed(final, oe, tmp) from None
    with _signals_held():  # Ctrl-C / SIGTERM wait until the report is in place
        old: Path | None = None
        moved: list[str] = []  # the user's own entries moved into the new report
        try:
            if final.exists():
                old = final.parent / f".{final.name}.old-{os.getpid()}"
                final.rename(old)
                keep_user_files(old, tmp, moved)
            tmp.rename(final)
        except OSError as e:  # put the earlier report back as it was, remove the staging folder
            for name in moved:  # moved only after the old report was renamed, so old is set
                try:
                    (tmp / name).rename(old / name)  # type: ignore[operator]
                except OSError:
                    pass
            if old is not None and old.exists() and not final.exists():
                try:
                    old.rename(final)
                except OSError:
                    pass
            shutil.rmtree(tmp, ignore_errors=True)
            raise write_failed(final, e) from None
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def carry_run_files(source: Path, tmp: Path) -> list[str]:
    """Put the run's files of report folder ``source`` (RUN_FILES that are there) into staging folder ``tmp``
    unchanged: hard links when both are on one disk (no copy of a large games.parquet; the files are never written
    in place, so ``source`` cannot change through them), copies otherwise. Returns the names carried. OSError as
    `staged_dir` expects (a full disk)."""
    done = []
    for name in RUN_FILES:
        src = Path(source) / name
        if not src.is_file():
            continue
        try:
            os.link(src, Path(tmp) / name)
        except OSError:
            shutil.copy2(src, Path(tmp) / name)
        done.append(name)
    return done


def _pid_alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (when unsure: yes, so its files are left alone)."""
    if pid == os.getpid():
        return True
    if os.name == "nt":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. another user's process
        return True
    return True


def staging_run(folder: Path) -> bool:
    """Whether ``folder`` is a staging folder (``.<name>.partial-PID``) and so never a complete report."""
    name = Path(folder).name
    return name.startswith(".") and ".partial-" in name and name.rsplit("-", 1)[1].isdigit()


def remove_stale(final: Path) -> list[Path]:
    """Remove the staging folders ``.<name>.partial-PID`` / ``.<name>.old-PID`` that a killed run (SIGKILL, power
    loss) left beside ``final``; those of a process still running are kept. Returns the folders removed."""
    final = Path(final)
    gone: list[Path] = []
    if not final.parent.is_dir():
        return gone
    for kind in ("partial", "old"):
        for p in final.parent.glob(f".{glob.escape(final.name)}.{kind}-*"):
            pid = p.name.rsplit("-", 1)[1]
            if pid.isdigit() and not _pid_alive(int(pid)):
                shutil.rmtree(p, ignore_errors=True)
                gone.append(p)
    return gone


@contextmanager
def _signals_held():
    """Hold SIGINT and SIGTERM back (delivered on exit) so the two renames that publish a report are not split."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None:
        yield
        return
    before = block(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, before)


signals_held = _signals_held  # also what keeps a tune's batch of asks whole (`sim.api.tune.search`)


def games_frame(sc: Scenario, out):
    """The games.parquet rows of one chunk of kernel outputs (`sim.play.runner.ChunkOutputs`) as a Polars frame:
    game (int64), status, winners (bit per seat), turns, rounds (int32), score_seat<i> (int32), win_seat<i> (int8),
    one int32 column per counter of the game, and <curve>_by_round (list[int32]) per curve."""
    import polars as pl

    spec = sc.spec
    n = len(out.status)
    cols = {
        "game": np.arange(out.game0, out.game0 + n, dtype=np.int64),
        "status": out.status,
        "winners": out.winners,
        "turns": out.turns,
        "rounds": out.rounds,
    }
    for s in range(sc.players):
        cols[f"score_seat{s}"] = np.ascontiguousarray(out.scores[:, s])
        cols[f"win_seat{s}"] = ((out.winners >> s) & 1).astype(np.int8)
    for c, name in enumerate(spec.extra_columns):
        cols[name] = np.ascontiguousarray(out.extra[:, c])
    df = pl.DataFrame(cols)
    for c, name in enumerate(spec.curves):
        df = df.with_columns(pl.Series(name + "_by_round", out.curves[:, c, :].tolist(), dtype=pl.List(pl.Int32)))
    return df


class ParquetParts:
    """Collects per-game rows chunk by chunk as Parquet part files, then joins them into one games.parquet."""

    def __init__(self, sc: Scenario, folder: Path):
        self.sc = sc
        self.folder = Path(folder) / "parts"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.parts: list[Path] = []

    def add(self, out) -> None:
        p = self.folder / f"part-{len(self.parts):06d}.parquet"
        games_frame(self.sc, out).write_parquet(p)
        self.parts.append(p)

    def finish(self, dest: Path, meta: dict) -> None:
        import polars as pl

        if self.parts:
            lf = pl.scan_parquet([str(p) for p in self.parts])
            lf.sink_parquet(str(dest), metadata={k: json.dumps(v) for k, v in meta.items()})
        shutil.rmtree(self.folder, ignore_errors=True)


def write_json(path: Path, obj) -> None:
    Path(path).write_text(json.dumps(obj, indent=2, sort_keys=False) + "\n", encoding="utf-8")


AT_SKILL_SCHEMA = {
    "figure": "str",
    "words": "str",
    "scripted": "float",
    "scripted_ci_low": "float",
    "scripted_ci_high": "float",
    "scripted_games": "int",
    "skill": "float",
    "skill_ci_low": "float",
    "skill_ci_high": "float",
    "skill_games": "int",
    "change": "float",
    "change_ci_low": "float",
    "change_ci_high": "float",
    "margin": "float",
    "verdict": "str",
    "verdict_words": "str",
}


def at_skill_frame(s: dict):
    """The "At skill" figures of summary ``s`` as a Polars frame (`sim.stats.at_skill.frame_rows`, columns
    `AT_SKILL_SCHEMA`); no rows when the run played no table at skill."""
    import polars as pl

    from sim.stats.at_skill import frame_rows

    types = {"str": pl.Utf8, "float": pl.Float64, "int": pl.Int64}
    return pl.DataFrame(frame_rows(s.get("at_skill") or {}), schema={k: types[v] for k, v in AT_SKILL_SCHEMA.items()})


def write_at_skill(folder: Path, s: dict) -> None:
    """at_skill.parquet (`at_skill_frame`, with the block's games, target and why as metadata) when the run played
    a table at skill; nothing otherwise."""
    block = s.get("at_skill")
    if not block or block.get("status") != "played":
        return
    meta = {k: json.dumps(block.get(k)) for k in ("strategy", "games", "target_games", "why", "seed")}
    at_skill_frame(s).write_parquet(Path(folder) / "at_skill.parquet", metadata=meta)
