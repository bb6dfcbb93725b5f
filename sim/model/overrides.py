"""Overrides of a scenario without editing its file: ``--set NAME=VALUE`` on the command line, and the points of a
``[sweep]`` table. An override is a (name, value) pair applied to the parsed TOML document *before* it is validated,
so the file and its overrides are checked as one scenario, by the same rules.

Names (``sim list GAME`` shows the parameters and strategy parameters):

    games, seed, players, name, description     the [scenario] field (also ``scenario.games``, ...); ``players=N``
                                                plays the file's first N seats, or adds seats for
                                                ``seats.I.strategy`` to fill (`_fit_seats`)
    PARAM  or  params.PARAM                     a rule parameter, e.g. ``ghost_cards=[1, 2, 1, 1, 2, 2]``
    PARAM.FIELD                                 one name of a card mix (``ghost_cards.shuffle=2``) or one part of a
                                                table parameter (``move_die.ghost=[1, 1, 1, 1, 0, 0]``)
    seats.I.strategy                            seat I's strategy (0-based; ``seats.*.strategy``: every seat); the
                                                strategy parameters the new strategy does not take, or takes with
                                                another meaning (a policy weight named as a planner's value), are
                                                dropped
    seats.I.W  or  seats.I.params.W             seat I's strategy parameter W (``seats.*.W``: every seat)

Values are TOML (``2``, ``1.5``, ``true``, ``"text"``, ``[1, 2]``); a bare word that is not TOML is taken as text, so
``seats.2.strategy=runner`` works unquoted. A bad name or value raises `OverrideError`: one line that starts with the
override as given and says what is allowed.

Each field is set once: a name given twice (also spelled two ways, ``track_len`` and ``params.track_len``), or
replaced whole by a later override, is refused (`parse_sets`).

Public API (used by the CLI and by sweeps): `parse_set`, `parse_sets`, `canonical`, `covers`, `apply_overrides`
(`apply_traced`), `blame`, `variant_name`, `OverrideError`.

Just over 600 lines, on purpose: the grammar above is one piece (a name's forms, its value's checks and the message
that names both), and split across files each half would repeat the other's name rules.
"""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import math
import re
import tomllib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from sim.model import registry
from sim.model.scenario import SCENARIO_KEYS, Scenario, ScenarioError, from_dict, read, toml_value
from sim.model.words import count, did_you_mean

NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.([A-Za-z0-9_]+|\*))*")
# a sweep's range (`sim sweep --set track_len=20..60 [step 5]`) given where one value is taken
RANGE = re.compile(r"-?[0-9.]+\s*\.\.\s*-?[0-9.]+(\s+step\s+\S+)?")
BARE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
EXAMPLE = "e.g. --set ghost_cards.shuffle=2 or --set seats.1.strategy=runner"
Override = tuple[str, Any]


class OverrideError(ScenarioError):
    """A bad override; the message is one line that starts with ``--set NAME=VALUE:`` (``--set-a`` / ``--set-b``
    when it came from that option: `load`'s ``options``). ``override``: the (name, value) it is about, when known."""

    override: Override | None = None


def show(name: str, value: Any) -> str:
    """An override as the user would type it: ``NAME=VALUE``, the value in TOML (a bare word as it is)."""
    bare = isinstance(value, str) and BARE_WORD.fullmatch(value) and value not in ("true", "false", "inf", "nan")
    return f"{name}={value if bare else toml_value(value)}"


def _fail(name: str, value: Any, msg: str) -> OverrideError:
    text = show(name, value)
    text = text if len(text) <= 120 else text[:60] + "..."  # a 300-character name is not echoed whole
    e = OverrideError(f"--set {text}: {msg}")
    e.override = (name, value)
    return e


def _from_option(e: OverrideError, opt: str) -> OverrideError:
    """``e`` naming the option its override came from (``--set-b``) wherever it names ``--set`` (its head and a
    fix it suggests: 'use --set-b seats.2.strategy=NAME'), not the plain ``--set`` of both scenarios."""
    if opt == "--set":
        return e
    out = OverrideError(re.sub(r"--set(?= )", opt, str(e)))
    out.override = e.override
    return out


def parse_value(text: str) -> Any:
    """A TOML value; a bare word that is not TOML (``runner``) is that text. Raises ValueError otherwise."""
    try:
        v = tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError as e:
        if BARE_WORD.fullmatch(text.strip()):
            return text.strip()
        if RANGE.fullmatch(text.strip()):
            raise ValueError(f"{text.strip()} is a range; give one value here (a range is for sim sweep)") from None
        raise ValueError(f'not a TOML value ({e}); quote text as "...", write arrays as [1, 2]') from None
    if isinstance(v, (dt.date, dt.time, dt.datetime)):
        raise ValueError("a date or time is not a parameter value")
    return v


def parse_set(text: str, opt: str = "--set") -> Override:
    """``"NAME=VALUE"`` -> (name, value); raises OverrideError (one line naming the override and its option ``opt``:
    ``--set``, or compare's ``--set-a`` / ``--set-b``) when malformed."""
    name, eq, raw = text.partition("=")
    name = name.strip()
    example = EXAMPLE.replace("--set", opt)
    shown = given(text)
    if not eq:
        raise OverrideError(f"{opt} {shown}: expected NAME=VALUE ({example})")
    check_name(name, text, opt)
    if not raw.strip():
        raise OverrideError(  # the example names the field given, not another game's parameter (a fresh user)
            f"{opt} {shown}: no value after '='; give a TOML value ({opt} {name}=VALUE: a number, a name, true or false, "
            "or an array [1, 2])"
        )
    try:
        return name, parse_value(raw)
    except ValueError as e:
        raise OverrideError(f"{opt} {shown}: {e}") from None


def given(text: str) -> str:
    """An override as its error line shows it: as typed, or quoted when blank (``--set ''``, not ``--set :``)."""
    return text if text.strip() else repr(text)


def check_name(name: str, text: str, opt: str = "--set") -> None:
    """Raises OverrideError (naming the override ``text`` as typed) unless ``name`` is a parameter name: words
    joined by dots, a seat's number among them (``seats.1.strategy``)."""
    if not NAME_RE.fullmatch(name.strip()):
        raise OverrideError(
            f"{opt} {given(text)}: {name.strip()!r} is not a parameter name; names are words joined by dots "
            f"({EXAMPLE.replace('--set', opt)})"
        )


def canonical(name: str) -> tuple[str, ...]:
    """The parts of override name ``name`` spelled one way, so two spellings of one field compare equal:
    ``params.track_len`` -> (track_len,), ``scenario.players`` -> (players,), ``seats.2.params.w_goal`` ->
    (seats, 2, w_goal)."""
    parts = tuple(name.strip().split("."))
    if parts[0] == "params" and len(parts) > 1:
        return parts[1:]
    if parts[0] == "scenario" and len(parts) == 2:
        return parts[1:]
    if parts[0] == "seats" and len(parts) == 4 and parts[2] == "params":
        return parts[:2] + parts[3:]
    return parts


def covers(later: tuple[str, ...], earlier: tuple[str, ...]) -> bool:
    """Whether setting canonical name ``later`` replaces all that ``earlier`` set: the same name, a whole table
    after one of its names (``ghost_cards`` after ``ghost_cards.shuffle``), every seat after one seat
    (``seats.*.w_goal`` after ``seats.2.w_goal``). The other order refines and is allowed."""
    if len(later) > len(earlier):
        return False
    return all(a == b or (a == "*" and later[0] == "seats" and i == 1) for i, (a, b) in enumerate(zip(later, earlier)))


def parse_sets(*groups: tuple[str, Iterable[str]]) -> list[Override]:
    """The ``--set`` texts of one scenario, by option in the order they apply (``("--set", [...]), ("--set-a",
    [...])``) -> overrides. Raises OverrideError, one line, for a malformed one (`parse_set`) and for a name given
    twice, or replaced whole by a later one (``--set mode=advanced --set mode=basic`` once silently played basic):
    an override is meant, so the last one silently winning is refused."""
    out: list[Override] = []
    seen: list[tuple[tuple[str, ...], str, str]] = []  # (canonical name, option, text)
    options = [opt for opt, texts in groups if texts]
    for opt, texts in groups:
        for text in texts or ():
            name, value = parse_set(text, opt)
            key = canonical(name)
            for k, o, t in seen:
                if not covers(key, k):
                    continue
                if key == k:
                    fix = "give it once" + (
                        " (--set for both scenarios, --set-a or --set-b for one)"
                        if len(options) > 1 or opt != "--set"
                        else ""
                    )
                    raise OverrideError(f"{opt} {name}: given twice ({o} {t}, {opt} {text}); {fix}")
                raise OverrideError(
                    f"{opt} {text}: replaces all that the earlier {o} {t} set; give {name} first, "
                    f"then {t.partition('=')[0].strip()}, or only one of them"
                )
            seen.append((key, opt, text))
            out.append((name, value))
    return out


def _seat_indices(name: str, value: Any, part: str, seats: list) -> list[int]:
    n = len(seats)
    if part == "*":
        return list(range(n))
    if not part.isdigit():
        raise _fail(name, value, f"'{part}' is not a seat number; give 0..{n - 1} or *")
    i = int(part)
    if i >= n:
        raise _fail(name, value, f"no seat {i}: the scenario has {n} seat{'s' if n != 1 else ''} (0..{n - 1})")
    return [i]


def _settable(spec: registry.GameSpec | None) -> list[str]:
    """The top-level names an override may set: the scenario fields but the game, then the game's rule parameters."""
    return [k for k in SCENARIO_KEYS if k != "game"] + ([p.name for p in spec.params] if spec else [])


def _allowed_names(spec: registry.GameSpec | None) -> str:
    return ", ".join(_settable(spec) + ([] if spec else ["PARAM"]) + ["seats.I.strategy", "seats.I.PARAM"])


def _set_seat(spec: Any, name: str, value: Any, parts: list[str], seats: list) -> list[str]:
    """seats.I.strategy | seats.I.W | seats.I.params.W; returns the fields set (as scenario messages name them)."""
    if len(parts) == 4 and parts[2] == "params":
        parts = parts[:2] + parts[3:]
    if len(parts) != 3:
        raise _fail(name, value, "expected seats.I.strategy or seats.I.PARAM (I: seat number from 0, or *)")
    key = parts[2]
    where = []
    for i in _seat_indices(name, value, parts[1], seats):
        seat = seats[i]
        if not isinstance(seat, dict):
            continue  # the file's own error, reported by validation
        if key == "strategy":
            old = spec.strategy(seat.get("strategy")) if spec and isinstance(seat.get("strategy"), str) else None
            seat["strategy"] = value
            st = spec.strategy(value) if spec and isinstance(value, str) else None
            if st is not None and isinstance(seat.get("params"), dict):
                seat["params"] = {k: v for k, v in seat["params"].items() if k in _kept(old, st)}
            where.append(f"seats[{i}].strategy")
            continue
        st = spec.strategy(seat.get("strategy")) if spec and isinstance(seat.get("strategy"), str) else None
        if st is not None and key not in {p.name for p in st.params}:
            names = [p.name for p in st.params]
            raise _fail(
                name,
                value,
                f"seat {i} plays {st.name}, which has no parameter '{key}'; {did_you_mean(key, names)}allowed: "
                f"strategy{', ' + ', '.join(names) if names else ''}",
            )
        sp = seat.setdefault("params", {})
        if isinstance(sp, dict):
            sp[key] = value
        where.append(f"seats[{i}].params.{key}")
    return where


def _kept(old: Any, new: Any) -> set[str]:
    """The parameter names a seat keeps when its strategy ``old`` becomes ``new``: those ``new`` takes with the same
    meaning (help) as ``old`` (Turnwall's memory); a name of another meaning is dropped (weighted's ``w_jewel``, a
    planner value, is not the learned player's ``w_jewel``, a policy weight)."""
    meant = {p.name: p.help for p in old.params} if old is not None else {}
    return {p.name for p in new.params if old is None or meant.get(p.name) == p.help}


def seats_with_param(spec: Any, seats: Any, key: str) -> list[tuple[int, str]]:
    """(seat, strategy) of each seat of ``seats`` (a scenario document's, as written) whose strategy has parameter
    ``key``."""
    out = []
    for i, seat in enumerate(seats if isinstance(seats, list) else []):
        sname = seat.get("strategy") if isinstance(seat, dict) else None
        st = spec.strategy(sname) if spec is not None and isinstance(sname, str) else None
        if st is not None and any(p.name == key for p in st.params):
            out.append((i, st.name))
    return out


def seat_param_hint(spec: Any, seats: Any, key: str, value: Any) -> str:
    """For a top-level name ``key`` that is no rule parameter: how to set it as a seat's strategy parameter, when
    some seat's strategy has one of that name ("did you mean --set seats.0.budget=32 (seat 0 plays search)?"), or
    some strategy of the game has ("budget is a parameter of strategy search, which no seat plays: ..."); "" else."""
    have = seats_with_param(spec, seats, key)
    v = show(key, value).partition("=")[2]
    if have:
        n = len(seats)
        if len(have) == n and n > 1:
            return f"did you mean --set seats.*.{key}={v} (every seat's strategy has {key})? "
        opts = " or ".join(f"--set seats.{i}.{key}={v}" for i, _ in have)
        who = "; ".join(f"seat {i} plays {s}" for i, s in have)
        return f"did you mean {opts} ({who}, a strategy with parameter {key})? "
    owners = [st.name for st in (spec.strategies if spec is not None else ()) if any(p.name == key for p in st.params)]
    if owners:
        return (
            f"{key} is a parameter of strategy {' or '.join(owners)}, which no seat plays: set a seat's strategy "
            f"first (--set seats.I.strategy={owners[0]} --set seats.I.{key}={v}); "
        )
    return ""


def _spec_of(raw: Any) -> registry.GameSpec | None:
    """The game of a scenario document (its [scenario] game), None when it names none that is known."""
    sc = raw.get("scenario") if isinstance(raw, dict) else None
    game = sc.get("game") if isinstance(sc, dict) else None
    return registry.get(game) if isinstance(game, str) else None


def names_a_setting(raw: Any, name: str) -> bool:
    """Whether override ``name`` starts as a setting of document ``raw``'s game does: a [scenario] field other than
    the game, ``params.``, ``seats.``, ``scenario.``, or a rule parameter of the game (the rest of the name is
    checked where it is applied). A [sweep] / [tune] key that does not is no parameter (`sim.model.schema`)."""
    head = name.split(".", 1)[0]
    if head in ("params", "seats", "scenario") or (head in SCENARIO_KEYS and head != "game"):
        return True
    spec = _spec_of(raw)
    return spec is not None and spec.param(head) is not None


def same_name_note(raw: dict, name: str) -> str:
    """For a bad value of top-level override ``name`` that is a rule parameter (``tiebreak`` on Moor) while some
    seat's strategy has a parameter of that name too (search's ``tiebreak``): "; NAME here is the rule parameter;
    seat 0's search tiebreak is --set seats.0.tiebreak=... (auto, none, score)"; "" otherwise."""
    parts = canonical(name)
    spec = _spec_of(raw)
    if spec is None or len(parts) != 1 or spec.param(parts[0]) is None:
        return ""
    have = seats_with_param(spec, raw.get("seats"), parts[0])
    if not have:
        return ""
    said = []
    for i, sname in have:
        st = spec.strategy(sname)
        ps = next(p for p in (st.params if st is not None else ()) if p.name == parts[0])
        vals = f" ({', '.join(map(str, ps.domain))})" if ps.kind == "choice" else ""
        said.append(f"seat {i}'s {sname} {parts[0]} is --set seats.{i}.{parts[0]}=...{vals}")
    return f"; {parts[0]} here is the rule parameter; " + "; ".join(said)


def _set_param(spec: Any, name: str, value: Any, parts: list[str], params: dict, seats: Any = None) -> str:
    """PARAM | PARAM.FIELD; returns the field set (as scenario messages name it). ``seats``: the document's, for
    the hint of an unknown name that is a seat's strategy parameter (`seat_param_hint`)."""
    ps = spec.param(parts[0]) if spec else None
    if spec is not None and ps is None:
        hint = seat_param_hint(spec, seats, parts[0], value) if len(parts) == 1 else ""
        hint = hint or did_you_mean(parts[0], _settable(spec))
        raise _fail(name, value, f"unknown name '{parts[0]}'; {hint}allowed: {_allowed_names(spec)}")
    if len(parts) == 1:
        params[parts[0]] = value
        return f"params.{parts[0]}"
    if len(parts) > 2 or ps is None:
        raise _fail(name, value, f"expected {parts[0]} or {parts[0]}.NAME")
    key = parts[1]
    cur = params.get(ps.name)
    if ps.parts:
        target = ps.part(key)
        if target is None:
            allowed = [k for k, _ in ps.parts]
            raise _fail(
                name, value, f"{ps.name} has no part '{key}'; {did_you_mean(key, allowed)}allowed: {', '.join(allowed)}"
            )
        if isinstance(cur, dict):  # the file gives the table: set that key of it
            cur[key] = value
            return f"params.{ps.name}.{key}"
        params[target] = value
        return f"params.{target}"
    names = ps.field_names()
    if not names:
        raise _fail(name, value, f"{ps.name} is one value, not a table of names; use --set {ps.name}=VALUE")
    if key not in names:
        raise _fail(
            name, value, f"{ps.name} has no name '{key}'; {did_you_mean(key, names)}allowed: {', '.join(names)}"
        )
    if isinstance(cur, list):
        if len(cur) != len(names):
            raise _fail(
                name,
                value,
                f"the file's params.{ps.name} has {count(len(cur), 'value')}, not one per name "
                f"({', '.join(names)}); fix the file",
            )
        cur = dict(zip(names, cur))  # the file's positional form, by name
    elif not isinstance(cur, dict):
        cur = {}  # not given: the other names keep their default
    cur[key] = value
    params[ps.name] = cur
    return f"params.{ps.name}.{key}"


def _whole_numbers(raw: dict, overrides: Sequence[Override]) -> None:
    """Refuse a decimal given by --set for a whole-number rule parameter (`not_whole`)."""
    spec = _spec_of(raw)
    for name, value in overrides:
        key = name.removeprefix("params.")
        ps = spec.param(key) if spec is not None and isinstance(value, float) else None
        if ps is None or ps.kind != "int":
            continue
        lo, hi = ps.domain if ps.domain else (-math.inf, math.inf)
        if not value.is_integer() or lo <= value <= hi:  # out of range: the range is what to say (1e99)
            raise _fail(name, value, not_whole(ps.name, name, value))


def not_whole(field: str, name: str, value: float) -> str:
    """Why a float given for a whole-number parameter on the command line is refused: ``2.5e2`` or ``250.0`` reads
    as 250, yet a decimal written where a count goes is more likely a slip (a rate meant for another name, a digit
    lost) than a wish; refused in the CLI's words for a wrong type ("... is not a whole number"), the whole number
    to write given where there is one. A whole value out of the parameter's range (1e99) is said out of range
    instead, the bigger slip. (A scenario file's or a sweep range's 250.0 is still taken as 250:
    `sim.model.scenario.coerce`.)"""
    if value.is_integer():
        return f"{field} takes a whole number, and {toml_value(value)} is written as a decimal; write --set {name}={int(value)}"
    return f"{toml_value(value)} is not a whole number ({field} takes one)"


def _apply_one(raw: dict, spec: Any, name: str, value: Any) -> list[str]:
    parts = name.split(".")
    head = parts[0]
    if "*" in parts and head != "seats":
        raise _fail(name, value, "'*' stands only for a seat number (seats.*.PARAM)")
    if head == "scenario" or (head in SCENARIO_KEYS and len(parts) == 1):
        key = parts[1] if head == "scenario" and len(parts) == 2 else head if head != "scenario" else ""
        if key == "game":
            raise _fail(name, value, "the game cannot be changed by an override; write a scenario file of that game")
        if key not in SCENARIO_KEYS:
            raise _fail(
                name,
                value,
                f"expected scenario.KEY with KEY one of {', '.join(k for k in SCENARIO_KEYS if k != 'game')}",
            )
        sc = raw.setdefault("scenario", {})
        if isinstance(sc, dict):
            sc[key] = value
        return [f"scenario.{key}"]
    if head == "seats":
        seats = raw.get("seats")
        if not isinstance(seats, list) or not seats:
            raise _fail(name, value, "the scenario has no [[seats]] to change")
        return _set_seat(spec, name, value, parts, seats)
    params = raw.setdefault("params", {})
    if not isinstance(params, dict):
        return []  # the file's own error, reported by validation
    return [_set_param(spec, name, value, parts[1:] if head == "params" else parts, params, raw.get("seats"))]


def apply_overrides(raw: dict, overrides: Iterable[Override]) -> dict:
    """A copy of the parsed scenario document ``raw`` with ``overrides`` applied in order (a later one wins).
    Names are checked here (unknown name, seat, card name or strategy parameter: OverrideError naming the override
    and what is allowed); values are checked when the result is validated (`sim.model.scenario.from_dict`), whose errors
    `blame` maps back to the override that caused them."""
    return apply_traced(raw, overrides)[0]


def apply_traced(raw: dict, overrides: Iterable[Override]) -> tuple[dict, list[tuple[str, Override]]]:
    """`apply_overrides`, also returning (field as validation messages name it, override) for every field set."""
    out = copy.deepcopy(raw) if isinstance(raw, dict) else {}
    sc = out.get("scenario")
    game = sc.get("game") if isinstance(sc, dict) else None
    spec = registry.get(game) if isinstance(game, str) else None
    overrides = list(overrides)
    fields, added = _fit_seats(out, spec, overrides)
    # a seat's strategy before its parameters, whatever their order on the line: "--set seats.0.budget=2 --set
    # seats.0.strategy=search" refused budget as weighted's (a fresh user); otherwise in order, a later one winning
    for o in sorted(overrides, key=lambda o: not _is_strategy(o[0])):
        fields += [(f, o) for f in _apply_one(out, spec, *o)]
    empty = [i for i, _ in added if "strategy" not in out["seats"][i]]  # added, and no seats.I.strategy filled
    if empty:
        had = added[0][0]
        raise _fail(
            *added[0][1],
            f"the scenario file has {had} seat{'s' if had != 1 else ''}, so "
            f"{'seat' if len(empty) == 1 else 'seats'} {', '.join(map(str, empty))} "
            f"{'has' if len(empty) == 1 else 'have'} no strategy; give "
            f"{'it' if len(empty) == 1 else 'each'} one with "
            f"{' '.join(f'--set seats.{i}.strategy=NAME' for i in empty)} (sim list {game} "
            "names the strategies), or write the seats into the file",
        )
    return out, fields


def _is_strategy(name: str) -> bool:
    """Whether override ``name`` sets a seat's strategy (seats.I.strategy, seats.*.strategy)."""
    parts = canonical(name)
    return len(parts) == 3 and parts[0] == "seats" and parts[2] == "strategy"


def _fit_seats(
    raw: dict, spec: Any, overrides: list[Override]
) -> tuple[list[tuple[str, Override]], list[tuple[int, Override]]]:
    """``players=N`` (the last one given) with a file of another number of seats: the seats beyond the N-th are
    dropped (a 4-player scenario played by 3: seats 0..2 as the file gives them), and seats missing up to N are added
    empty for ``seats.I.strategy`` overrides to fill (it has no strategy to guess). Done before the other overrides,
    so ``seats.I`` names a seat of the N. Returns (trace fields, [(index, override) of each added seat]). A players
    value out of the game's range is left to validation, which names it."""
    o = next((o for o in reversed(overrides) if canonical(o[0]) == ("players",)), None)
    seats = raw.get("seats")
    if o is None or not isinstance(seats, list) or not seats:
        return [], []
    n = o[1]
    if isinstance(n, bool) or not isinstance(n, int) or spec is None or not spec.min_players <= n <= spec.max_players:
        _players_first(raw, o)
        return [], []
    if n <= len(seats):
        del seats[n:]
        return [], []
    added = list(range(len(seats), n))
    seats.extend({} for _ in added)
    return [(f"seats[{i}]", o) for i in added], [(i, o) for i in added]


def _players_first(raw: dict, o: Override) -> None:
    """Raise the error of a bad ``players`` override (``--set players=6`` on Moor) before any seat override is
    applied: a ``seats.4.strategy`` that only exists because of it would otherwise be refused as "no seat 4", hiding
    the root cause. Same words as validation gives for ``players`` alone."""
    probe = copy.deepcopy(raw)
    sc = probe.setdefault("scenario", {})
    if not isinstance(sc, dict):
        return
    sc["players"] = o[1]
    try:
        from_dict(probe)
    except ScenarioError as e:
        if str(e).startswith("scenario.players"):
            raise _fail(o[0], o[1], str(e)) from None


def field_of(message: str, fields: list[tuple[str, Override]]) -> Override | None:
    """The override whose field a validation error ``message`` (``"FIELD: ..."``) is about (the last one set
    wins), or None when the message is about something the overrides did not touch."""
    head = message.split(": ", 1)[0]
    for f, o in reversed(fields):
        if head == f or any(head.startswith(f + c) or f.startswith(head + c) for c in ".["):
            return o
    return None


def blame(message: str, fields: list[tuple[str, Override]]) -> OverrideError | None:
    """An OverrideError naming the override behind validation error ``message``, or None (the file's error)."""
    o = field_of(message, fields)
    return None if o is None else _fail(o[0], o[1], message)


def role_blame(raw: dict, overrides: Sequence[Override], e: ScenarioError) -> OverrideError | None:
    """An OverrideError naming the override that gave a seat another role (``--set mode=head_haunter`` on a co-op
    file: seat 0 becomes the Head Haunter and the file's hunter strategy no longer fits it), for validation error
    ``e`` of a seat's strategy of the wrong role (``e.role_clash``), saying which strategy the seat needs and how to
    set it; None when ``e`` is no such error, when the file ``raw`` is invalid by itself, or no one override of
    ``overrides`` alone causes it (then it is the file's error, or an override of that seat's strategy is blamed)."""
    if e.role_clash is None:
        return None
    seat, _role, title, allowed, sname, other = e.role_clash
    try:
        from_dict(copy.deepcopy(raw))
    except ScenarioError:
        return None
    for o in overrides:
        if canonical(o[0])[:1] == ("seats",):
            continue
        try:
            from_dict(apply_overrides(raw, [o]))
        except ScenarioError as alone:
            if alone.role_clash is not None and alone.role_clash[0] == seat:
                # the example: weighted where the role has it (the best scripted hunters), else the first scripted
                eg = (
                    "weighted"
                    if "weighted" in allowed
                    else next((a for a in allowed if "random" not in a and "search" not in a), allowed[0])
                )
                return _fail(
                    *o,
                    f"{show(*o)} needs seat {seat} to play a {title} strategy, and the file's seat {seat} plays "
                    f"{sname} (a {other} strategy); set it too, e.g. --set seats.{seat}.strategy={eg} "
                    f"(allowed: {', '.join(allowed)})",
                )
        except OverrideError:
            continue
    return None


def option_example(message: str, e: ScenarioError, option: str, name: str) -> str:
    """``message`` (about validation error ``e``) with a bad choice's example as command-line option ``option``
    writes it ('e.g. --set seats.0.rollout=runner'), not as a scenario file does ('a quoted string, e.g. rollout =
    "runner"': an option takes the bare word); unchanged for any other error."""
    if e.choice_hint is None:
        return message
    toml_eg, first = e.choice_hint
    return message.replace(toml_eg, f"(e.g. {option} {show(name, first)})")


def _set_example(blamed: OverrideError, e: ScenarioError) -> OverrideError:
    """``blamed`` with a bad choice's example as --set writes it (`option_example`)."""
    if blamed.override is None:
        return blamed
    out = OverrideError(option_example(str(blamed), e, "--set", blamed.override[0]))
    out.override = blamed.override
    return out


def variant_name(name: str, overrides: Iterable[Override]) -> str:
    """The name of scenario ``name`` with ``overrides`` applied, for its report folder: never the unmodified
    scenario's name. Readable when short and plain (``basic-4p--ghost_cards.shuffle=2--seats.1.strategy=runner``),
    else ``<name>--set-<hash of the overrides>``."""
    overrides = list(overrides)
    if not overrides:
        return name
    text = "--".join(show(n, v) for n, v in overrides)
    if re.fullmatch(r"[A-Za-z0-9._=+-]+", text) and len(name) + len(text) <= 120:
        return f"{name}--{text}"
    return f"{name}--set-{hashlib.sha256(text.encode()).hexdigest()[:10]}"


def load(
    path: str | Path,
    overrides: Iterable[Override] = (),
    games: int | None = None,
    options: Sequence[str] | None = None,
) -> Scenario:
    """Scenario file ``path`` with ``overrides`` ((name, value), ...) applied before validation; a bad one raises
    OverrideError naming it, a bad file ScenarioError (one line each). The scenario is then named after the
    overrides (`variant_name`), so its report never replaces the unmodified scenario's. ``games`` replaces the
    file's ``games`` before validation (the command line's --games; not an override, the name stays).
    ``options``: the option each override came from (compare's ``--set-b``; default ``--set``), named by its
    error."""
    p = Path(path)
    data = read(path)
    overrides = tuple(overrides)
    if games is not None and isinstance(data.get("scenario"), dict):
        data["scenario"]["games"] = games
    file_doc = data
    try:
        _whole_numbers(data, overrides)
        data, fields = apply_traced(data, overrides)
        try:
            sc = from_dict(data, name=p.stem, path=str(p))
        except ScenarioError as e:
            blamed = blame(str(e), fields) if overrides else None
            if blamed is None and overrides:
                blamed = role_blame(file_doc, overrides, e)
            if blamed is not None:
                blamed = _set_example(blamed, e)
                if (note := same_name_note(file_doc, blamed.override[0] if blamed.override else "")) != "":
                    noted = OverrideError(str(blamed) + note)
                    noted.override = blamed.override
                    blamed = noted
                raise blamed from None
            raise ScenarioError(f"{p}: {e}") from None
    except OverrideError as e:
        if options is None or e.override not in overrides:
            raise
        raise _from_option(e, options[overrides.index(e.override)]) from None
    if overrides:
        named = any(n in ("name", "scenario.name") for n, _ in overrides)
        sc = sc.with_changes(overrides=overrides, name=sc.name if named else variant_name(sc.name, overrides))
    return sc
