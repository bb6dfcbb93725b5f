"""The public API (`sim.__all__`) is fully typed: every public function and method has a complete signature, every
annotation names something real, no parameter is a bare ``Any``, and a type checker sees every lazily exported
name (the ``TYPE_CHECKING`` block of sim/__init__.py). mypy checks sim/ in `make test`; this checks the names a
user imports, so that a new untyped public function fails here even where mypy is lenient."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

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


def _hints(obj: Any) -> dict[str, Any]:
    """`typing.get_type_hints` of ``obj`` (a function or class), type-checking-only imports included."""
    module = obj.__module__
    localns: dict[str, Any] = {}
    for cls in getattr(obj, "__mro__", ()):
        if cls.__module__.startswith("sim."):
            localns.update(_type_checking_names(cls.__module__))
    localns.update(_type_checking_names(module))
    return typing.get_type_hints(obj, localns=localns)


def untyped(fn: Callable[..., Any]) -> list[str]:
    """What function ``fn``'s signature leaves unannotated: parameter names, "return" (``__init__`` may leave its
    return out, as mypy allows), and the parameters annotated with a bare ``Any``."""
    sig = inspect.signature(fn)
    out = [
        p.name
        for i, p in enumerate(sig.parameters.values())
        if p.annotation is inspect.Parameter.empty and not (i == 0 and p.name in ("self", "cls"))
    ]
    if sig.return_annotation is inspect.Signature.empty and fn.__name__ != "__init__":
        out.append("return")
    hints = _hints(inspect.unwrap(fn))
    out += [f"{name}: Any" for name, h in hints.items() if h is Any and name != "return"]
    return out


def _functions(name: str, obj: Any) -> list[tuple[str, Callable[..., Any]]]:
    """The public functions of public name ``name``: itself, or a class's public methods, properties and
    ``__init__``, its own and those of its bases inside sim (not those of object or Exception), each named
    after the class that defines it."""
    if not inspect.isclass(obj):
        return [(name, obj)]
    out = []
    for cls in obj.__mro__:
        if not cls.__module__.startswith("sim."):
            continue
        for attr, member in vars(cls).items():
            if attr.startswith("_") and attr != "__init__":
                continue
            label = f"{cls.__qualname__}.{attr}"
            if isinstance(member, property) and member.fget is not None:
                out.append((label, member.fget))
            elif isinstance(member, (staticmethod, classmethod)):
                out.append((label, member.__func__))
            elif inspect.isfunction(member) and not (attr == "__init__" and dataclasses.is_dataclass(cls)):
                out.append((label, member))
    return out


PUBLIC = [(n, getattr(sim, n)) for n in sim.__all__]
FUNCTIONS = list({id(fn): (label, fn) for n, obj in PUBLIC for label, fn in _functions(n, obj)}.values())


@pytest.mark.parametrize("name,fn", FUNCTIONS, ids=[n for n, _ in FUNCTIONS])
def test_public_function_is_fully_annotated(name: str, fn: Callable[..., Any]) -> None:
    assert untyped(fn) == [], f"sim.{name}: not annotated: {untyped(fn)}"


@pytest.mark.parametrize("name", [n for n, obj in PUBLIC if dataclasses.is_dataclass(obj)])
def test_public_dataclass_fields_resolve(name: str) -> None:
    """Every field of a public dataclass (results, options, RunContext, Scenario) has a type that names something
    real (evaluated, type-checking-only imports included), and none is a bare Any."""
    cls = getattr(sim, name)
    hints = _hints(cls)
    fields = [f.name for f in dataclasses.fields(cls)]
    assert set(fields) <= set(hints)
    assert [f for f in fields if hints[f] is Any] == []


def test_the_check_finds_an_untyped_function() -> None:
    """The checks above can fail: an unannotated parameter, a missing return and a bare Any are each named."""

    def loose(a, b: int):
        return a

    def vague(a: Any) -> int:
        return 0

    assert untyped(loose) == ["a", "return"]
    assert untyped(vague) == ["a: Any"]


def test_a_type_checker_sees_every_public_name() -> None:
    """sim/__init__.py exports lazily (`__getattr__`); its TYPE_CHECKING block imports every name of `__all__`,
    each the object the lazy import gives, so mypy and editors see the real types, not Any."""
    seen = _type_checking_names("sim")
    assert sorted(seen) == sorted(sim.__all__)
    assert [n for n in sim.__all__ if seen[n] is not getattr(sim, n)] == []
