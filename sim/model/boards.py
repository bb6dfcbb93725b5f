"""Board files shared by every game with a board: where a scenario's ``board = "..."`` points, and `sim board show`.

Each game keeps its own loader (kernels/<game>/board.py: validation with one-line errors); this module only finds
the file and draws it (sim/pages/board_svg.py).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from sim.model.errors import ScenarioError

# (game, parameter) -> resolve(value, folder of the scenario file) -> value the game loads the file from. A game
# with a board file registers its file-naming parameter here (`register_board_param`, called by
# `sim.model.registry.register`); resolve raises ScenarioError (one line: the field and the paths tried) when the file
# is nowhere. Scenarios built without a file (from_dict without path) skip it.
FILE_PARAMS: dict[tuple[str, str], Callable[[str, Path], str]] = {}
# (game, parameter) -> the file a resolved value reads (for provenance: recorded by path and content hash).
FILE_PATHS: dict[tuple[str, str], Callable[[str], Path]] = {}


def register_board_param(game: str, shipped_dir: Path, resolve_path: Callable[..., Any], param: str = "board") -> None:
    """Make ``params.<param>`` of ``game`` a file parameter: a scenario's ``board = "..."`` is found by `resolve`
    (beside the scenario, then in ``shipped_dir``), and ``resolve_path(ref)`` (the game's loader's) names the file
    whose content hash the report records. `sim.model.registry.register` calls it for a spec with a board."""
    FILE_PARAMS[(game, param)] = partial(resolve, shipped_dir=shipped_dir)
    FILE_PATHS[(game, param)] = resolve_path


def unregister_board_param(game: str, param: str = "board") -> None:
    """Undo `register_board_param` (a test's own game, after the test)."""
    FILE_PARAMS.pop((game, param), None)
    FILE_PATHS.pop((game, param), None)


def resolve(ref: str, here: Path, shipped_dir: Path) -> str:
    """The board a scenario file in folder ``here`` means by ``board = ref``: a relative path is looked up in the
    scenario's folder first (a bare name also as <name>.toml), then among the game's shipped boards (``shipped_dir``,
    where the bare name "default" is default.toml). Returns the absolute path when found beside the scenario, ``ref``
    itself otherwise (the game's loader resolves shipped names); raises ScenarioError naming every path tried."""
    if Path(ref).is_absolute():
        return ref
    bare = "/" not in ref and "\\" not in ref and not ref.endswith(".toml")
    tried = [here / ref] + ([here / f"{ref}.toml"] if bare else [])
    for p in tried:
        if p.is_file():
            return str(p.resolve())
    shipped = shipped_dir / (f"{ref}.toml" if bare else ref)
    if shipped.is_file():
        return ref
    tried.append(shipped)
    folder = next((p for p in tried if p.is_dir()), None)
    if folder is not None:
        raise ScenarioError(f"params.board: {ref!r} is a folder ({folder}); name a board .toml file")
    raise ScenarioError(f"params.board: no such board file {ref!r}; tried {', '.join(str(p) for p in tried)}")
