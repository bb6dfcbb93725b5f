"""A baseline's resolved scenario (format 2 of `sim.stats.check`): the scenario as played, every rule parameter by
name with its value and where it came from, the digest of every file a parameter reads, each seat's strategy and
its parameters, the rules version; and what differs between a baseline's and today's, by name, with its cause
(``params.track_len: 30 -> 31 (the rule's default changed)``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.model.paths import REPO
from sim.model.scenario import Scenario, ScenarioError, input_files, toml_value

DEFAULT, FILE, SET = "default", "scenario file", "--set"  # where a value came from


def _rel(p: str | Path) -> str:
    """``p`` relative to the repository (as posix), or as given when it lies outside."""
    p = Path(p).resolve()
    try:
        return p.relative_to(REPO).as_posix()
    except ValueError:
        return str(p)


def _given(sc: Scenario) -> tuple[dict[str, str], list[dict[str, str]]]:
    """Where each parameter the scenario sets came from: ({rule parameter: FILE | SET}, per seat {strategy parameter
    or "strategy": FILE | SET}); a parameter absent is the default. A scenario without a file (built from a dict)
    counts a value other than the default as the file's."""
    from sim.model.overrides import canonical
    from sim.model.scenario import read

    spec = sc.spec
    params: dict[str, str] = {}
    seats: list[dict[str, str]] = [dict.fromkeys([*s.params, "strategy"], FILE) for s in sc.seats]
    raw: Any = {}
    if sc.path:
        try:
            raw = read(sc.path).get("params") or {}
        except (ScenarioError, AttributeError):
            raw = {}
    else:
        params = {ps.name: FILE for ps in spec.params if sc.params.get(ps.name) != ps.default}
    for k, v in raw.items() if isinstance(raw, dict) else ():
        ps = spec.param(k)
        if ps is None:
            continue
        targets = [ps.part(key) for key in v] if isinstance(v, dict) and ps.parts else [ps.name]
        params.update((t, FILE) for t in targets if t)
    for name, _ in sc.overrides:
        parts = canonical(str(name))
        if parts[0] == "seats" and len(parts) >= 3:
            idx = range(len(seats)) if parts[1] == "*" else [int(parts[1])] if parts[1].isdigit() else []
            for i in idx:
                if i < len(seats):
                    seats[i][parts[2]] = SET
        elif (ps := spec.param(parts[0])) is not None:
            params[(ps.part(parts[1]) if len(parts) > 1 and ps.parts else None) or ps.name] = SET
    return params, seats


def _plain(v: Any) -> Any:
    """A value as JSON keeps it (tuples as lists); an absolute path inside the repository relative to it."""
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, str) and Path(v).is_absolute():
        return _rel(v)
    return v


def resolved(sc: Scenario) -> dict:
    """The scenario as played, for a baseline to say later what changed: every rule parameter (`ParamSpec.rules`)
    by name with its value and where it came from ("default", "scenario file" or "--set"), every file a parameter
    reads (a board) with the SHA-256 of its content, each seat's strategy and every strategy parameter as played
    (`sim.model.search.seats_as_played`: defaults included) with where it came from, and the rules version."""
    from sim.model.search import seats_as_played

    given, seat_given = _given(sc)
    spec = sc.spec
    params = {
        ps.name: {"value": _plain(sc.params[ps.name]), "from": given.get(ps.name, DEFAULT)}
        for ps in spec.params
        if ps.rules and ps.name in sc.params
    }
    files = {
        name: {"file": _rel(f["path"]), "sha256": (f.get("sha256") or "")[:16]} for name, f in input_files(sc).items()
    }
    seats = []
    for i, played in enumerate(seats_as_played(sc)):
        g = seat_given[i]
        seats.append(
            {
                "strategy": played["strategy"],
                "strategy_from": g.get("strategy", FILE),
                "params": {k: {"value": _plain(v), "from": g.get(k, DEFAULT)} for k, v in played["params"].items()},
            }
        )
    return {"rules_version": spec.rules_version, "params": params, "files": files, "seats": seats}


SET_CAUSE = "set by --set"  # the cause of a change this run's --set made (`sim baselines` takes none)


def _cause(old: dict, new: dict, default_changed: str) -> str:
    if new.get("from") == SET:
        return SET_CAUSE
    if old.get("from") == DEFAULT and new.get("from") == DEFAULT:
        return default_changed
    return "the scenario file changed"


def _show(v: Any) -> str:
    return toml_value(v)


def _value_changes(where: str, old: Any, new: Any, fields: tuple[str, ...]) -> list[str]:
    """``where: old -> new``; a card mix (named positions ``fields``) position by position."""
    if fields and isinstance(old, list) and isinstance(new, list) and len(old) == len(new) == len(fields):
        return [f"{where}.{f}: {_show(a)} -> {_show(b)}" for f, a, b in zip(fields, old, new) if a != b]
    return [f"{where}: {_show(old)} -> {_show(new)}"]


def scenario_changes(old: dict, new: dict, spec: Any = None) -> list[str]:
    """What differs between two resolved scenarios (`resolved`: the baseline's ``old``, the code's ``new``), one
    phrase each with its cause: ``params.track_len: 30 -> 31 (the rule's default changed)``, ``(the scenario file
    changed)``, ``(set by --set)``, a board file's content, a seat's strategy or strategy parameter. ``spec``: the
    game (`GameSpec`), to name a card mix's cards. [] when nothing differs."""
    out: list[str] = []
    op, np_ = old.get("params", {}), new.get("params", {})
    for k in sorted(set(op) | set(np_)):
        if k not in op:
            out.append(f"params.{k}: new rule parameter, {_show(np_[k]['value'])} (not in the baseline)")
        elif k not in np_:
            out.append(f"params.{k}: {_show(op[k]['value'])} in the baseline, no longer a rule parameter")
        elif op[k]["value"] != np_[k]["value"]:
            ps = spec.param(k) if spec is not None else None
            cause = _cause(op[k], np_[k], "the rule's default changed")
            fields = ps.field_names() if ps is not None else ()
            out += [f"{x} ({cause})" for x in _value_changes(f"params.{k}", op[k]["value"], np_[k]["value"], fields)]
    of, nf = old.get("files", {}), new.get("files", {})
    for k in sorted(set(of) & set(nf)):
        a, b = of[k], nf[k]
        if a["sha256"] != b["sha256"] and (op.get(k, {}).get("value") == np_.get(k, {}).get("value")):
            out.append(f"params.{k} file {b['file']}: content changed (sha256 {a['sha256']} -> {b['sha256']})")
    os_, ns = old.get("seats", []), new.get("seats", [])
    for i, (a, b) in enumerate(zip(os_, ns)):
        if a["strategy"] != b["strategy"]:
            why = SET_CAUSE if b.get("strategy_from") == SET else "the scenario file changed"
            out.append(f"seats[{i}].strategy: {a['strategy']} -> {b['strategy']} ({why})")
            continue
        ap, bp = a.get("params", {}), b.get("params", {})
        for k in sorted(set(ap) | set(bp)):
            if k not in ap:
                out.append(f"seats[{i}].params.{k}: new strategy parameter, {_show(bp[k]['value'])}")
            elif k not in bp:
                out.append(f"seats[{i}].params.{k}: {_show(ap[k]['value'])} in the baseline, no longer a parameter")
            elif ap[k]["value"] != bp[k]["value"]:
                cause = _cause(ap[k], bp[k], f"the {b['strategy']} strategy's default changed")
                out.append(f"seats[{i}].params.{k}: {_show(ap[k]['value'])} -> {_show(bp[k]['value'])} ({cause})")
    if len(os_) != len(ns):
        out.append(f"seats: {len(os_)} -> {len(ns)}")
    return out


def changes_since(sc: Scenario, b: dict) -> list[str] | None:
    """What differs between baseline ``b``'s resolved scenario and ``sc`` as the code resolves it now
    (`scenario_changes`); None for a baseline of format 1 (it records no resolved scenario)."""
    if not isinstance(b.get("resolved"), dict):
        return None
    return scenario_changes(b["resolved"], resolved(sc), sc.spec)
