"""How a message shows a value and a range: as a TOML file writes it (`toml_value`), with its type (`got`), and the
one wording of a value outside its range (`out_of_range`). Shared by the scenario checks (sim.model.scenario), the
declared schemas (sim.model.schema) and the command line, so one limit reads the same everywhere; a module of its
own so that the schema module can use it without importing the scenario model."""

from __future__ import annotations

import json
import math
from typing import Any


def out_of_range(where: str, value: Any, lo: Any, hi: Any = None) -> str:
    """The one wording of a value outside its allowed range, in scenario files and on the command line alike:
    '<where>: <value> is out of range; allowed <lo>..<hi>', or 'allowed >= <lo>' for a range without an upper end.
    ``value`` is shown as given; integer bounds with thousands separators (1..10,000,000,000), 2^k-1 (k >= 32) as
    such (0..2^64-1); float bounds as they are."""
    return f"{where}: {_shown(value)} is out of range; allowed " + (
        f">= {_bound(lo)}" if hi is None else range_text(lo, hi)
    )


def _shown(v: Any) -> str:
    """A value as given, but an integer of more than 30 digits (1e99 read as a whole number) as 1e+99; a seed just
    past 2^64-1 is still shown in full."""
    return f"{v:.3g}" if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10**30 else str(v)


def range_text(lo: Any, hi: Any) -> str:
    """A range as every message says it: '1..65,536' (see `out_of_range`), not '1..65536' in one message and
    '1..65,536' in the next for the same limit."""
    return f"{_bound(lo)}..{_bound(hi)}"


def _bound(x: Any) -> str:
    if isinstance(x, bool) or not isinstance(x, int):
        return str(x)
    k = (x + 1).bit_length() - 1
    return f"2^{k}-1" if k >= 32 and x + 1 == 1 << k else f"{x:,}"


def type_name(v: Any) -> str:
    """The TOML name of ``v``'s type: boolean, integer, number, string, array, table."""
    return {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "table"}.get(
        type(v), type(v).__name__
    )


def toml_value(v: Any) -> str:
    """``v`` as a TOML file writes it (true/false, "double-quoted" strings, inf/nan, [arrays], {inline tables}), so a
    designer can copy it from a message or `sim list` into a scenario file."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    return repr(v)


def got(v: Any) -> str:
    """A value as a message's "got ..." shows it: its type and its TOML text ('string "three"')."""
    return f"{type_name(v)} {toml_value(v)}"
