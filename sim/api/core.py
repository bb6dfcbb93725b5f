"""What the CLI and the tests call: run a scenario into a report folder, replay one game, list games."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sim.model import paths  # REPORTS read at call time: a test or a caller may point it elsewhere
from sim.model.scenario import Scenario
from sim.output import report
from sim.pages import tables
from sim.play import runner, work
from sim.play.context import RunContext
from sim.play.provenance import provenance
from sim.stats import summary


def report_folder(sc: Scenario, out_dir: str | Path | None = None) -> Path:
    """Where a run of ``sc`` writes its report: ``out_dir``, else reports/<scenario name>."""
    return Path(out_dir) if out_dir else paths.REPORTS / sc.name


def default_what(sc: Scenario, out_dir: str | Path | None = None) -> str:
    """How an error line names the report folder of ``sc`` (`report.check_output_dir`): "--out" when given, else
    the scenario whose name the default folder reports/<name> comes from (the user never typed --out)."""
    return "--out" if out_dir else f"scenario '{sc.name}', default report folder"


def run_scenario(
    sc: Scenario,
    games: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    chunk: int = runner.DEFAULT_CHUNK,
    out_dir: str | Path | None = None,
    per_game: bool = False,
    progress: Callable[[float], None] | None = None,
    write: bool = True,
    executor: work.Executor | None = None,
    on_played: Callable[[], None] | None = None,
    ctx: RunContext | None = None,
) -> tuple[dict, Path | None]:
    """Play ``sc`` and write its report folder (summary.json, summary.md, provenance.json, games.parquet when
    ``per_game``). Returns (summary dict, report folder; None when not ``write``). Nothing is left behind when
    interrupted. See `play_scenario` for the arguments."""
    s, _, final = play_scenario(
        sc, games, seed, threads, chunk, out_dir, per_game, progress, write, executor, on_played, ctx
    )
    return s, final


def play_scenario(
    sc: Scenario,
    games: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    chunk: int = runner.DEFAULT_CHUNK,
    out_dir: str | Path | None = None,
    per_game: bool = False,
    progress: Callable[[float], None] | None = None,
    write: bool = True,
    executor: work.Executor | None = None,
    on_played: Callable[[], None] | None = None,
    ctx: RunContext | None = None,
    on_chunk: Callable[[runner.ChunkOutputs], None] | None = None,
    extend: Callable[[Scenario, dict], None] | None = None,
) -> tuple[dict, runner.RunResult, Path | None]:
    """Play ``sc`` (``games``, ``seed``: default the scenario's) through the one play path
    (`sim.play.work.play_games`) and, when ``write``, write its report folder. Returns (summary dict, the merged
    `runner.RunResult`, report folder or None). ``ctx``: threads, progress, cancellation (default: built from
    ``threads`` and ``progress``). ``on_played``: called once the games are over, before the report is written
    (`sim.play.progress` says so). ``executor``: where the units run (`sim.play.distributed`; None: this process);
    the numbers are the same. ``on_chunk(outputs)``: each chunk's per-game rows in game order, when not
    ``write`` (written, they go to games.parquet with ``per_game``). Raises OutputError (one line) for a folder
    that cannot be written, KeyboardInterrupt (`Cancelled`) when stopped; nothing is left behind then.
    ``extend(scenario as played, summary)``: adds to the summary before it is written (the "At skill" block)."""
    games = sc.games if games is None else games
    seed = sc.seed if seed is None else seed
    sc = sc.with_changes(games=games, seed=seed)  # the summary states what was played
    ctx = ctx or RunContext(threads=threads, progress=progress)
    if not write:
        res = work.play_games(sc, games, seed, chunk, executor, ctx, on_chunk)
        s = _summary(sc, res, chunk)
        if extend is not None:
            extend(sc, s)
        return s, res, None
    final = report_folder(sc, out_dir)
    with report.staged_dir(final, default_what(sc, out_dir)) as tmp:
        parts = report.ParquetParts(sc, tmp) if per_game else None
        res = work.play_games(sc, games, seed, chunk, executor, ctx, parts.add if parts else None)
        if on_played is not None:
            on_played()
        s = _summary(sc, res, chunk)
        if extend is not None:
            extend(sc, s)
        write_report(tmp, s, parts)
    return s, res, final


def write_report(tmp: Path, s: dict, parts: report.ParquetParts | None = None) -> None:
    """A run's report files into the staged folder ``tmp``: games.parquet (from ``parts``, when per-game rows
    were kept), summary.json, provenance.json (``s["provenance"]``), at_skill.parquet (when played at skill),
    summary.md, summary.html, balance.md, plots/."""
    prov = s["provenance"]
    if parts:
        parts.finish(tmp / "games.parquet", prov)
    report.write_json(tmp / "summary.json", s)
    report.write_json(tmp / "provenance.json", prov)
    report.write_at_skill(tmp, s)
    (tmp / "summary.md").write_text(tables.render_markdown(s), encoding="utf-8")
    from sim.pages import html_report

    html_report.write(tmp, s)  # summary.html, balance.md, plots/


def _summary(sc: Scenario, res: runner.RunResult, chunk: int) -> dict:
    """The summary dict of a run: `summary.summarize` with its provenance and the winner's margin."""
    from sim.stats.measures import Decisiveness

    dec = Decisiveness(sc)  # winner's margin for the balance report
    dec.hist = res.margin
    prov = provenance(sc, res.games, res.seed, res.wall_s, res.threads, chunk)
    s = summary.summarize(sc, res.agg, prov)
    s["decisiveness"] = dec.summary()
    return s


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
    """Game ``game`` of ``sc`` turn by turn in words (identical to that game of a batch run), the game's header line
    followed by each search seat's parameters as played (`sim.model.search.search_seat_lines`)."""
    from sim.model.search import search_seat_lines

    lines = sc.spec.replay(sc, game)
    return lines[:1] + search_seat_lines(sc) + lines[1:]
