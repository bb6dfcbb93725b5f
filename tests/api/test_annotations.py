"""A type checker sees every lazily exported name of the public API (the ``TYPE_CHECKING`` block of
sim/__init__.py). That every public function is fully annotated is mypy's job in `make test` (pyproject.toml:
``disallow_untyped_defs`` on the modules that define the public functions)."""

from __future__ import annotations

import ast
import inspect
import sys
from pathlib import Path
from typing import Any

import sim


def _type_checking_names(module_name: str) -> dict[str, Any]:
    """The names module ``module_name`` imports only for a type checker (its ``if TYPE_CHECKING:`` imports),
    imported here, so that the annotations naming them can be evaluated."""
    module = sys.modules[module_name]
    tree = ast.parse(Path(inspect.getfile(module)).read_text(encoding="utf-8"))
    names: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            imports = ast.Module([n for n in node.body if isinstance(n, (ast.Import, ast.ImportFrom))], [])
            exec(compile(imports, module_name, "exec"), names)  # imports only
    names.pop("__builtins__", None)
    return names


def test_a_type_checker_sees_every_public_name() -> None:
    """sim/__init__.py exports lazily (`__getattr__`); its TYPE_CHECKING block imports every name of `__all__`,
    each the object the lazy import gives, so mypy and editors see the real types, not Any."""
    seen = _type_checking_names("sim")
    assert sorted(seen) == sorted(sim.__all__)
    # a function is exported wrapped (sim.api.notebook.python_api), its signature and docstring kept
    got = {n: getattr(sim, n) for n in sim.__all__}
    assert [
        n for n in sim.__all__ if seen[n] is not got[n] and seen[n] is not getattr(got[n], "__wrapped__", None)
    ] == []
