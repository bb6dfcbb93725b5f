"""The one Jinja2 environment of every HTML page: the report pages (sim.pages) and, through `environment`'s extra
folders, the workbench (sim.web), whose base template extends the same page shell (templates/shell.html).

Autoescape is on for every template, whatever its name: a scenario name, parameter value or strategy name is
designer-editable input and reaches the page as text, never as markup. The only markup passed through is what this
package draws itself (SVG plots, as `markupsafe.Markup`) and what the templates spell.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

TEMPLATES = Path(__file__).resolve().parent / "templates"


def environment(*extra: Path, strict: bool = True) -> jinja2.Environment:
    """A Jinja2 environment over the folders ``extra`` (searched first) then this package's templates, every
    value escaped (``autoescape`` on for every file name, so no template can opt out by its extension). ``strict``:
    a name missing from the context is an error (the report pages), else it renders empty (the workbench's
    templates test optional names)."""
    loaders: list[jinja2.BaseLoader] = [jinja2.FileSystemLoader([str(p) for p in extra])] if extra else []
    loaders.append(jinja2.PackageLoader("sim.pages", "templates"))
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
        undefined=jinja2.StrictUndefined if strict else jinja2.Undefined,
        keep_trailing_newline=True,
    )


@cache
def _env() -> jinja2.Environment:
    return environment()


def render(name: str, **context: Any) -> str:
    """Template ``name`` of sim/pages/templates rendered with ``context`` (every value escaped)."""
    return _env().get_template(name).render(**context)


def svg(text: str | None) -> Markup | None:
    """A drawing made by this package (matplotlib or the board drawer, which escape their own text) as markup the
    templates insert as is; None stays None (nothing drawn)."""
    return None if text is None else Markup(text)


def figures(items: Iterable[tuple[str, str, str | None]]) -> list[tuple[str, str, Markup | None]]:
    """Plots [(name, caption, SVG or None)] as the templates' `figure` macro takes them: each drawing's ids
    prefixed with its name (``svg-<name>-``: ids unique on the page), None where nothing was drawn."""
    from sim.pages.plots import scope_ids

    return [(name, cap, svg(scope_ids(s, f"svg-{name}-")) if s else None) for name, cap, s in items]


CSS = (TEMPLATES / "report.css").read_text(encoding="utf-8")  # the report pages' stylesheet (inlined by the shell)
