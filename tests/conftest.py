"""Shared fixtures (small scenarios built in memory) and the two tiers of the suite.

- `make test`: every test, on parallel workers (pytest-xdist) that share one kernel cache, filled once before
  they start (`tests/warm_kernels.py`: every game's kernels compiled in one process, so the workers only read it).
- `make test-fast` (`pytest --fast`): the tests that compile no Numba kernel. tests/kernels/ is not collected and
  the tests marked ``kernel`` are deselected. It is checked, not assumed: the tier runs with an empty kernel cache
  of its own (``SIM_CACHE_ROOT``, inherited by the `sim` processes a test starts), a test that compiles or loads
  a kernel in this process fails and names the functions, and the run fails if any process wrote to that cache.
  A test that plays games is marked ``@pytest.mark.kernel`` (or its module ``pytestmark``); everything under
  tests/kernels/ is marked so here.
"""

from __future__ import annotations

import ast
import functools
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from sim.model import scenario

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
KERNEL_TESTS = TESTS / "kernels"


def moor(players: int = 4, strategies=("weighted",), games: int = 2000, seed: int = 7, **params):
    seats = [{"strategy": strategies[i % len(strategies)]} for i in range(players)]
    return scenario.from_dict(
        {
            "scenario": {"game": "moor", "players": players, "games": games, "seed": seed},
            "params": params,
            "seats": seats,
        },
        name=f"moor-test-{players}p",
    )


@pytest.fixture
def moor_sc():
    return moor


# --- the two tiers ---------------------------------------------------------------------------------------------------


def pytest_addoption(parser):
    parser.addoption(
        "--fast",
        action="store_true",
        help="the fast tier: only tests that compile no Numba kernel (tests/kernels/ and tests marked 'kernel' left "
        "out); a test that compiles or loads one fails",
    )
    parser.addoption(
        "--no-warm",
        action="store_true",
        help="with parallel workers, do not fill the kernel cache before they start",
    )


def _fast(config) -> bool:
    return bool(config.getoption("fast", False))


class KernelCompiled(RuntimeError):
    """Raised in the fast tier where a Numba kernel would be compiled or loaded (the test fails, nothing compiles)."""


class _CompileGuard:
    """Records every Numba compile or cache load in this process (`Dispatcher.compile` does both) and whether any
    process wrote to the tier's own cache folder."""

    def __init__(self, cache_root: str):
        from numba.core import dispatcher

        self.cache_root = cache_root
        self.seen: list[str] = []
        real = dispatcher.Dispatcher.compile
        seen = self.seen

        def compile(disp, sig):
            name = f"{disp.py_func.__module__}.{disp.py_func.__qualname__}"
            seen.append(name)
            raise KernelCompiled(f"the fast tier compiles no kernel ({name}): mark the test @pytest.mark.kernel")

        dispatcher.Dispatcher.compile = compile
        self.real = real

    def cache_files(self) -> list[str]:
        return sorted(str(p.relative_to(self.cache_root)) for p in Path(self.cache_root).rglob("*") if p.is_file())


_GUARD: _CompileGuard | None = None


def pytest_configure(config):
    global _GUARD
    if not _fast(config):
        return
    expr = config.option.markexpr
    config.option.markexpr = f"({expr}) and not kernel" if expr else "not kernel"
    root = tempfile.mkdtemp(prefix="sim-fast-tier-cache-")
    os.environ["SIM_CACHE_ROOT"] = root  # before kernels._jit reads it; `sim` processes of the tests inherit it
    from kernels._jit import defer_compiles

    # importing a kernel module compiles nothing (its declared signatures wait for a first call), so the test that
    # happens to import a game's kernels first is not blamed for their compile: only a call is
    defer_compiles()
    _GUARD = _CompileGuard(root)


def pytest_ignore_collect(collection_path, config):
    if _fast(config) and (collection_path == KERNEL_TESTS or KERNEL_TESTS in collection_path.parents):
        return True
    return None


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects
def pytest_collection_modifyitems(config, items):
    for item in items:
        if KERNEL_TESTS in item.path.parents:
            item.add_marker(pytest.mark.kernel)


def game_group(nodeid: str) -> str | None:
    """'tests/kernels/GAME' for a test under tests/kernels/GAME/ (node ids are relative to the repository);
    'tests/kernels/FILE.py::GAME' for a case of a test there whose parameter is a scenario file of GAME
    (``[scenarios/GAME/...]``: the batch digests' learned and search cases compile their kernels once, not on
    both workers at the same moment); the module's path for a test in a module with a module-scoped fixture (a
    baseline folder, a written report, a Dask cluster: built once, not once per worker); else None."""
    path, _, rest = nodeid.partition("::")
    parts = path.split("/")
    if parts[:2] == ["tests", "kernels"]:
        if len(parts) > 3:
            return "/".join(parts[:3])
        case = re.search(r"\[scenarios/(\w+)/", rest)
        if case:
            return f"{path}::{case[1]}"
    return path if _module_fixture(path) else None


_MODULE_FIXTURE = re.compile(r"""@pytest\.fixture\([^)]*scope=["'](module|session)["']""")


@functools.cache
def _module_fixture(path: str) -> bool:
    """Whether the test module at ``path`` (relative to the repository) declares a module- or session-scoped
    fixture."""
    f = REPO / path
    return f.suffix == ".py" and f.is_file() and bool(_MODULE_FIXTURE.search(f.read_text()))


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`--dist loadgroup`: one game's kernel tests (tests/kernels/GAME/) on one worker, so the Python-callable twins
    of its rule functions, which the warm-up leaves out, compile once and in one process; a module with a
    module-scoped fixture on one worker (`game_group`); every other test is its own unit. Done here and not with
    ``xdist_group`` marks: pytest-xdist 3.8 groups by a suffix it writes into the node id, which pytest 9 ignores
    (its node ids are no longer an attribute one sets), so the marks grouped nothing. The groups go out first (the
    largest first), then the single tests that play games, then those that compile nothing (`plays_games`), each in
    collection order."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class GameGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return game_group(nodeid) or nodeid

        def schedule(self) -> None:
            first = self.collection is None
            super().schedule()
            if first and self.collection is not None:
                # the units that play games before those that compile nothing (each a fraction of a second): the
                # run ends on quick tests, so the worker done first does not idle while the other plays a long one
                queue = sorted(self.workqueue.items(), key=lambda unit: not any(map(plays_games, unit[1])))
                self.workqueue.clear()
                self.workqueue.update(queue)

    return GameGroups(config, log)


def plays_games(nodeid: str) -> bool:
    """Whether the test ``nodeid`` is marked ``kernel`` (it compiles or plays games), read from its module's source:
    the scheduler runs where nothing is collected. Everything under tests/kernels/ is."""
    path, _, rest = nodeid.partition("::")
    if path.startswith("tests/kernels/"):
        return True
    marked = _kernel_marked(path)
    name = rest.split("[")[0].split("::")
    return marked is None or any(n in marked for n in name)


@functools.cache
def _kernel_marked(path: str) -> frozenset[str] | None:
    """The test functions and classes of the module at ``path`` marked ``kernel``; None where its ``pytestmark``
    marks them all."""
    f = REPO / path
    if f.suffix != ".py" or not f.is_file():
        return frozenset()
    tree = ast.parse(f.read_text())
    marked = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets):
            if "mark.kernel" in ast.unparse(node.value):
                return None
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if any("mark.kernel" in ast.unparse(d) for d in node.decorator_list):
                marked.add(node.name)
    return frozenset(marked)


def pytest_sessionstart(session):
    """With parallel workers, fill the kernel cache before they start (tests/warm_kernels.py, one process per
    worker up to two, the games split between them)."""
    config = session.config
    if _fast(config) or config.getoption("no_warm") or hasattr(config, "workerinput"):
        return
    if not config.pluginmanager.hasplugin("dsession"):  # one process: each kernel compiles once as it comes
        return
    from tests.warm_kernels import fill

    t0 = time.perf_counter()
    try:
        said = fill(len(config.option.tx or [1]))
    except RuntimeError as e:
        raise pytest.UsageError(str(e)) from None
    tr = config.pluginmanager.get_plugin("terminalreporter")
    if tr is not None:
        tr.write_line(
            f"kernel cache filled before the workers started in {time.perf_counter() - t0:.0f} s: {'; '.join(said)}"
        )


@pytest.fixture(autouse=True)
def _no_kernel_in_the_fast_tier(request):
    if _GUARD is None:
        yield
        return
    _GUARD.seen.clear()
    yield
    compiled = sorted(set(_GUARD.seen))
    written = _GUARD.cache_files()
    if compiled or written:  # also where the test caught KernelCompiled, or a `sim` process it started compiled
        shutil.rmtree(_GUARD.cache_root, ignore_errors=True)
        os.makedirs(_GUARD.cache_root)
        pytest.fail(
            f"the fast tier compiled or loaded Numba kernels: {', '.join(compiled[:5]) or 'none in this process'}"
            f"{' ...' if len(compiled) > 5 else ''}, {len(written)} files written to its kernel cache by the "
            "processes this test started; mark this test @pytest.mark.kernel",
            pytrace=False,
        )


def pytest_collection_finish(session):
    if _GUARD is not None and _GUARD.seen:
        raise pytest.UsageError(
            f"the fast tier compiled Numba kernels while collecting ({', '.join(sorted(set(_GUARD.seen))[:5])}): "
            "a test module outside tests/kernels/ imports a kernel at import time"
        )


def pytest_sessionfinish(session, exitstatus):
    if _GUARD is None:
        return
    written = _GUARD.cache_files()
    compiled = sorted(set(_GUARD.seen))
    shutil.rmtree(_GUARD.cache_root, ignore_errors=True)
    if written or compiled:
        tr = session.config.pluginmanager.get_plugin("terminalreporter")
        if tr is not None:
            tr.write_line(
                f"fast tier: kernels were compiled ({len(written)} cache files written by some process, "
                f"{', '.join(compiled[:5]) or 'none'} in this one): mark the test that did it @pytest.mark.kernel",
                red=True,
            )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
