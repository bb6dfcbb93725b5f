"""Every `sim ...` command shown in README.md and the designer's guide works as written: the command and its options
exist, the files it names are in the repository, and its --set / --set-b overrides and sweep axes are valid for
that scenario (validated as the command would, without playing a game)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.main import get_command

from sim.cli.main import app

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", *sorted((REPO / "docs" / "guide").glob("*.md"))]


def _shown_commands():
    for page in PAGES:
        for block in re.findall(r"```sh\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            for line in re.sub(r"\\\n\s*", " ", block).splitlines():  # a command continued with "\" is one
                line = line.split("  #")[0].strip()
                if line.startswith("sim "):
                    yield page.name, line


COMMANDS = list(_shown_commands())


def test_the_pages_show_commands():
    assert len(COMMANDS) >= 30
    assert {p.name for p in PAGES} <= {page for page, _ in COMMANDS} | {"README.md", "cluster.md", "python-api.md"}


@pytest.mark.kernel
@pytest.mark.parametrize("page, line", COMMANDS, ids=[f"{p}:{c[4:40]}" for p, c in COMMANDS])
def test_a_shown_command_works_as_written(page, line):
    from sim.api import sweep as api_sweep
    from sim.model import overrides

    words = shlex.split(line)[1:]
    c = get_command(app)
    while hasattr(c, "commands"):
        c = c.commands[words.pop(0)]
    options = {o: q for q in c.params for o in q.opts if o.startswith("--")}
    files, sets, set_b = [], [], []
    i = 0
    while i < len(words):
        w = words[i]
        if w.startswith("--"):
            q = options.get(w)
            assert q is not None, f"{line}: no option {w}"
            if not q.is_flag:
                i += 1
                {"--set": sets, "--set-b": set_b}.get(w, []).append(words[i])
        elif w.endswith(".toml") and not w.startswith("my"):
            files.append(REPO / w)
            assert files[-1].is_file(), f"{line}: no file {w}"
        i += 1
    if not files or c.name in ("board", "show"):
        return
    if c.name == "sweep":
        api_sweep.build(files[0], sets)  # every point validated
        return
    if c.name == "tune":
        from sim.api import tune as api_tune

        ws = shlex.split(line)
        pick = [ws[j + 1] for j, w in enumerate(ws[:-1]) if w in ("--param", "--target")]
        params = [ws[j + 1] for j, w in enumerate(ws[:-1]) if w == "--param"]
        api_tune.build(files[0], params, [t for t in pick if t not in params])  # ranges and targets validated
        return
    parse = [overrides.parse_set(t) for t in sets]
    overrides.load(files[0], parse)
    if set_b:
        overrides.load(files[0], parse + [overrides.parse_set(t) for t in set_b])
