"""What the CLI and the tests call: run a scenario into a report folder, replay one game, list games."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sim.model import paths  # REPORTS read at call time: a test or a caller may point it elsewhere
from sim.model.scenario import Scenario
from sim.output import report
from sim.pages import tables
from sim.play import runner
from sim.play.provenance import provenance
from sim.stats import summary


def report_folder(sc: Scenario, out_dir: str | Path | None = None) -> Path:
    """Where a run of ``sc`` writes its report: ``out_dir``, else reports/<scenario name>."""
    return Path(out_dir) if out_dir else paths.REPORTS / sc.name


def default_what(sc: Scenario, out_dir: str | Path | None = None) -> str:
    """How an error line names the report folder of ``sc`` (`report.check_output_dir`): "--out" when given, else
    the scenario whose name the default folder reports/<name> comes from (the user never typed --out)."""
    return "--out" if out_dir else f"scenario '{sc.name}', default report folder"


def run_scenario(sc: Scenario, games: int | None = None, seed: int | None = None, threads: int | None = None,
                 chunk: int = runner.DEFAULT_CHUNK, out_dir: str | Path | None = None, per_game: bool = False,
                 progress: Callable[[int], None] | None = None, write: bool = True,
                 executor=None, on_played: Callable[[], None] | None = None) -> tuple[dict, Path | None]:
    """Play ``sc`` and write its report folder (summary.json, summary.md, provenance.json, games.parquet when
    ``per_game``). Returns (summary dict, report folder). Nothing is left behind when interrupted.
    ``on_played``: called once the games are over, before the report is written (`sim.play.progress` says so).
    ``executor``: a Dask executor of `sim.play.distributed` plays the games as units over its workers (same numbers);
    None or `InProcess`: this process."""
    games = sc.games if games is None else games
    seed = sc.seed if seed is None else seed
    sc = sc.with_changes(games=games, seed=seed)      # the summary states what was played
    from sim.stats.measures import Decisiveness
    dec = Decisiveness(sc)  # winner's margin for the balance report (needs per-game scores)
    if not write:
        res = _play(sc, games, seed, threads, chunk, dec, None, progress, executor)
        prov = provenance(sc, games, seed, res.wall_s, res.threads, chunk)
        s = summary.summarize(sc, res.agg, prov)
        s["decisiveness"] = dec.summary()
        return s, None
    final = report_folder(sc, out_dir)
    with report.staged_dir(final, default_what(sc, out_dir)) as tmp:
        parts = report.ParquetParts(sc, tmp) if per_game else None
        res = _play(sc, games, seed, threads, chunk, dec, parts.add if parts else None, progress, executor)
        if on_played is not None:
            on_played()
        prov = provenance(sc, games, seed, res.wall_s, res.threads, chunk)
        s = summary.summarize(sc, res.agg, prov)
        s["decisiveness"] = dec.summary()
        if parts:
            parts.finish(tmp / "games.parquet", prov)
        report.write_json(tmp / "summary.json", s)
        report.write_json(tmp / "provenance.json", prov)
        (tmp / "summary.md").write_text(tables.render_markdown(s), encoding="utf-8")
        from sim.pages import html_report
        html_report.write(tmp, s)  # summary.html, balance.md, plots/
    return s, final


def redraw_report(s: dict, source: str | Path, out_dir: str | Path | None = None) -> Path:
    """Draw the balance report (summary.html, balance.md, plots/: `sim.pages.html_report.write`) of summary ``s`` again,
    read from report folder ``source``, into ``out_dir`` (default: ``source`` itself), staged like every report
    (`report.staged_dir`): the run's files of ``source`` (`report.RUN_FILES`: summary.json, provenance.json, ...)
    go with it unchanged, the folder is swapped in only when complete, and on any error or Ctrl-C the folder is as
    it was. Returns the folder. Raises OutputError (one line) for a folder that cannot be written, and whatever
    drawing ``s`` raises (a summary missing a field: KeyError, TypeError, ValueError)."""
    from sim.pages import html_report
    final = Path(out_dir) if out_dir else Path(source)
    with report.staged_dir(final, "--out" if out_dir else "report folder (redrawn in place)") as tmp:
        report.carry_run_files(Path(source), tmp)
        html_report.write(tmp, s)
    return final


def _play(sc, games, seed, threads, chunk, dec, on_chunk, progress, executor) -> runner.RunResult:
    """runner.run in this process, or `sim.play.distributed.run` on a Dask executor (the margin histogram of
    ``dec`` comes back from the workers instead of being collected here)."""
    from sim.play import distributed
    if executor is None or isinstance(executor, distributed.InProcess):
        return runner.run(sc, games, seed, threads, chunk, on_chunk=_both(dec.add, on_chunk), progress=progress)
    res, margin = distributed.run(sc, games, seed, chunk, executor, on_chunk, progress)
    dec.hist += margin
    return res


def _both(f, g):
    """One on_chunk callback calling ``f`` then ``g`` (either may be None)."""
    fs = [x for x in (f, g) if x is not None]
    return (lambda out: [h(out) for h in fs]) if fs else None


def write_comparison(res: dict, folder: str | Path, what: str = "--out") -> Path:
    """compare.json, compare.md and compare.html of a comparison (`sim.api.compare.compare`'s result) into ``folder``,
    atomically (`report.staged_dir`; the pages are drawn by `sim.pages.compare_page`, which writes no file itself).
    Returns the folder. ``what``: how the user named the folder (`report.check_output_dir`)."""
    from sim.pages import compare_page
    with report.staged_dir(Path(folder), what) as tmp:
        report.write_json(tmp / "compare.json", res)
        (tmp / "compare.md").write_text(compare_page.render_markdown(res), encoding="utf-8")
        (tmp / "compare.html").write_text(compare_page.render_compare(res), encoding="utf-8")
    return Path(folder)


def replay(sc: Scenario, game: int) -> list[str]:
    """Game ``game`` of ``sc`` turn by turn in words (identical to that game of a batch run)."""
    return sc.spec.replay(sc, game)
