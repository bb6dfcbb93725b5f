"""The form of a scenario, generated from the parameter specs, and its validation by the code of ``--set``.

Every field is one override name as ``sim run --set`` takes it (``track_len``, ``ghost_cards.shuffle``,
``seats.2.strategy``, ``seats.2.w_goal``, ``games``), with its label, unit, allowed values, the file's value and the
default, and its help. A field the designer left at the file's value is no override; the others become
``NAME=VALUE`` texts in the form's order (a seat's strategy before its parameters), validated by `sim.api.public.load`:
the error found for a field is the very line ``sim run --set`` prints (`OverrideError`), shown beside it in the
form's words (`sim.web.words`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sim.api import public
from sim.model import registry
from sim.model.errors import SimError
from sim.model.params_table import named_value, part_of
from sim.model.scenario import MAX_GAMES, Scenario, range_text, toml_value
from sim.model.words import not_a


@dataclass(frozen=True)
class Field:
    """One form field. name: the override name; kind: int | float | bool | choice | text (a TOML value: a list);
    str: text quoted for the designer (a name). value: the file's value as the form shows it; default: the game's
    default (as text, "" when the game has none: games, seed). allowed: in words; lo, hi: a number's range;
    choices: a choice's values. group: the fieldset it is shown in. strategy: a seat parameter's strategy (the field
    counts only while its seat plays that strategy)."""

    name: str
    label: str
    kind: str
    value: str
    default: str = ""
    unit: str = ""
    allowed: str = ""
    help: str = ""
    lo: Any = None
    hi: Any = None
    choices: tuple[str, ...] = ()
    group: str = "Rules"
    strategy: str = ""

    @property
    def dom_id(self) -> str:
        """An HTML id of the field ("f-seats-2-w_goal")."""
        return "f-" + self.name.replace(".", "-").replace("*", "all")


@dataclass
class Form:
    """The fields of a scenario file by group, and the errors found (field name -> line; "" for the form)."""

    scenario: str  # the file, relative to the scenarios folder
    game: str
    title: str
    description: str = ""  # the scenario file's own description (its [scenario] description), shown as text
    groups: dict[str, list[Field]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    given: dict[str, str] = field(default_factory=dict)  # what the designer typed, by field name

    def fields(self) -> list[Field]:
        return [f for fs in self.groups.values() for f in fs]

    def shown(self, f: Field) -> str:
        """What the field shows: what was typed, else the file's value."""
        return self.given.get(f.name, f.value)


def text(v: Any) -> str:
    """A value as the form shows it: a bare word for text, TOML otherwise (lists [1, 2], true/false, 1.5)."""
    return v if isinstance(v, str) else toml_value(v)


def _domain(kind: str, domain: Any, labels: tuple[str, ...] = ()) -> tuple[str, Any, Any, tuple[str, ...]]:
    """(allowed in words, lo, hi, choices) of a parameter."""
    if kind == "choice":
        return " | ".join(domain), None, None, tuple(domain)
    if kind == "bool":
        return "true | false", None, None, ("true", "false")
    if kind in ("int", "float") and domain:
        return range_text(*domain), domain[0], domain[1], ()
    if kind == "int_list" and domain:
        names = f"; or names: {', '.join(labels)}" if labels else ""
        return f"a list of integers {range_text(*domain)}, e.g. [1, 2]{names}", None, None, ()
    return "text", None, None, ()


def param_field(ps: registry.ParamSpec, value: Any, default: Any, name: str, group: str, strategy: str = "") -> Field:
    """The field of parameter ``ps`` named ``name`` (its override name)."""
    allowed, lo, hi, choices = _domain(ps.kind, ps.domain, ps.labels)
    kind = ps.kind if ps.kind in ("int", "float", "bool", "choice") else "str" if ps.kind == "str" else "text"
    return Field(
        name=name,
        label=ps.title(),
        kind=kind,
        value=text(value),
        default=text(default),
        unit=ps.unit,
        allowed=allowed,
        help=ps.help,
        lo=lo,
        hi=hi,
        choices=choices,
        group=group,
        strategy=strategy,
    )


def rule_fields(spec: registry.GameSpec, values: Mapping[str, Any]) -> list[Field]:
    """One field per rule parameter, a card mix one per card (``ghost_cards.shuffle``), a table parameter one per
    part (``move_die.faces``), in the game's order."""
    inner, defaults = part_of(spec), spec.defaults()
    out: list[Field] = []
    for ps in spec.params:
        if ps.name in inner:
            continue
        now, was = named_value(spec, ps, dict(values)), named_value(spec, ps, defaults)
        if ps.fields and isinstance(now, dict) and isinstance(was, dict):
            lo, hi = ps.domain
            for f, h in ps.fields:
                card = registry.ParamSpec(f, "int", was[f], (lo, hi), h, label=f"{ps.title()}: {f}", unit=ps.unit)
                out.append(param_field(card, now[f], was[f], f"{ps.name}.{f}", f"Cards: {ps.title()}"))
            continue
        if ps.parts and isinstance(now, dict) and isinstance(was, dict):
            for key, target in ps.parts:
                tp = spec.param(target) or ps
                part = replace(tp, label=f"{ps.title()}: {key}")
                out.append(param_field(part, now[key], was[key], f"{ps.name}.{key}", "Rules"))
            continue
        out.append(param_field(ps, now, was, ps.name, "Rules"))
    return out


def seat_fields(spec: registry.GameSpec, sc: Scenario, i: int, strategy: str | None = None) -> list[Field]:
    """Seat ``i``'s strategy (the strategies of its role) and the parameters of ``strategy`` (default: the seat's
    own), each with the file's value (its default for a strategy the seat does not play in the file)."""
    seat = sc.seats[i] if i < len(sc.seats) else None
    roles = spec.roles(sc.params, max(sc.players, i + 1))
    role = roles[i] if i < len(roles) else "player"
    names = tuple(s.name for s in spec.strategies if s.role == role) or tuple(s.name for s in spec.strategies)
    file_strategy = seat.strategy if seat is not None else ""
    playing = strategy or file_strategy or names[0]
    # numbered as the reports and --set number them (seats.0 is "seat 0")
    group = f"Seat {i}" + (f" ({spec.role_title(role)})" if role != "player" else "")
    out = [
        Field(
            name=f"seats.{i}.strategy",
            label="strategy",
            kind="choice",
            value=file_strategy,
            default=file_strategy,
            allowed=" | ".join(names),
            help=next((s.help for s in spec.strategies if s.name == playing), ""),
            choices=names,
            group=group,
        )
    ]
    st = spec.strategy(playing)
    for ps in st.params if st is not None else ():
        given = seat.params.get(ps.name, ps.default) if seat is not None and seat.strategy == playing else ps.default
        out.append(param_field(ps, given, ps.default, f"seats.{i}.{ps.name}", group, strategy=playing))
    return out


def added_seat_strategy(spec: registry.GameSpec, sc: Scenario, i: int, n: int) -> str:
    """The strategy an added seat ``i`` (of ``n``) is shown with: that of the file's last seat of the same role, else
    the role's first strategy. Shown as typed, so that it is sent (a seat the file lacks needs one)."""
    roles = spec.roles(sc.params, n)
    role = roles[i] if i < len(roles) else "player"
    same = [s.strategy for j, s in enumerate(sc.seats) if j < len(roles) and roles[j] == role]
    if same:
        return same[-1]
    return next((s.name for s in spec.strategies if s.role == role), spec.strategies[0].name)


def scenario_fields(spec: registry.GameSpec, sc: Scenario) -> list[Field]:
    """games, seed and players."""
    return [
        Field("games", "games", "int", str(sc.games), "", "games", range_text(1, MAX_GAMES), "games to play", 1, MAX_GAMES, group="Scenario"),
        Field("seed", "seed", "int", str(sc.seed), "", "", range_text(0, 2**64 - 1), "the random seed: the same seed plays the same games", 0, 2**64 - 1, group="Scenario"),
        Field(
            "players", "players", "int", str(sc.players), "", "players", range_text(spec.min_players, spec.max_players),
            "players at the table (the file's first seats; added seats get a strategy below)",
            spec.min_players, spec.max_players, group="Scenario",
        ),
    ]  # fmt: skip


def build(path: Path, rel: str, given: Mapping[str, str] | None = None) -> Form:
    """The form of scenario file ``path`` (``rel``: as the pages name it). ``given``: what the designer typed
    (players decides how many seats are shown; a seat's strategy which parameters). Raises ScenarioError for a
    bad file (one line)."""
    given = dict(given or {})
    sc = public.load(path)
    spec = sc.spec
    form = Form(scenario=rel, game=sc.game, title=spec.title, description=sc.description, given=given)
    for f in scenario_fields(spec, sc) + rule_fields(spec, sc.params):
        form.groups.setdefault(f.group, []).append(f)
    n = _int(given.get("players"), sc.players, spec.min_players, spec.max_players)
    for i in range(len(sc.seats), n):  # a seat the file does not have starts as the file's last seat of its role plays
        given.setdefault(f"seats.{i}.strategy", added_seat_strategy(spec, sc, i, n))
    for i in range(n):
        for f in seat_fields(spec, sc, i, given.get(f"seats.{i}.strategy")):
            form.groups.setdefault(f.group, []).append(f)
    return form


WHOLE_NUMBER_OPTIONS = ("games", "seed", "players")  # fields that are options of `sim run` (--games N): a value
# that is not a whole number is said as the CLI says it ("games: 'abc' is not a whole number"), not as the
# scenario file's check ("expected an integer, got string")


def _whole(v: str) -> bool:
    try:
        int(v.strip())
    except ValueError:
        return False
    return True


def _int(v: str | None, default: int, lo: int, hi: int) -> int:
    try:
        n = int(str(v))
    except ValueError:
        return default
    return n if lo <= n <= hi else default


def override_text(f: Field, value: str) -> str:
    """The ``NAME=VALUE`` text of field ``f`` set to ``value`` (text quoted where TOML needs it). What is not a TOML
    value in a number field (``<script>``) goes as text, so that the error beside it says what the field takes
    ("expected an integer in 19..62"), not how to write TOML."""
    v = value.strip()
    if f.kind == "str" and not (v.startswith('"') or v.startswith("'")):
        v = toml_value(v)
    elif f.kind in ("int", "float") and not _is_toml(v):
        v = toml_value(v)
    return f"{f.name}={v}"


def _is_toml(v: str) -> bool:
    from sim.model.overrides import parse_value

    try:
        parse_value(v)
    except ValueError:
        return False
    return True


def overrides(form: Form, values: Mapping[str, str]) -> list[str]:
    """The ``NAME=VALUE`` texts of the fields whose value in ``values`` differs from the file's, in the form's
    order; a seat parameter only while its seat plays that parameter's strategy."""
    out = []
    for f in form.fields():
        if f.name not in values:
            continue
        v = str(values[f.name]).strip()
        if f.strategy and str(values.get(f.name.rsplit(".", 1)[0] + ".strategy", f.strategy)).strip() != f.strategy:
            continue
        if v != f.value:
            out.append(override_text(f, v))
    return out


def check_field(path: Path, form: Form, name: str, value: str, values: Mapping[str, str]) -> str | None:
    """The one-line error of field ``name`` set to ``value`` (with its seat's strategy as given, for a seat
    parameter), as ``sim run --set`` prints it; None when it is valid or at the file's value."""
    f = next((f for f in form.fields() if f.name == name), None)
    if f is None:
        return f"--set {name}={value}: no such field in the form of {form.scenario}"
    if value.strip() == f.value:
        return None
    if name in WHOLE_NUMBER_OPTIONS and not _whole(value):  # the CLI's words for `sim run --games abc`
        return not_a(name, value.strip())
    sets = [override_text(f, value)]
    if name == "players":  # the seats it adds play what the form shows them with (`added_seat_strategy`)
        for g in form.fields():
            if g.name.endswith(".strategy") and not g.value and form.given.get(g.name):
                sets.append(f"{g.name}={form.given[g.name]}")
    if f.strategy:
        seat = name.rsplit(".", 1)[0] + ".strategy"
        st = next((g for g in form.fields() if g.name == seat), None)
        if st is not None and st.value != f.strategy:
            sets.insert(0, f"{seat}={f.strategy}")
    if name.startswith("seats.") and form.given.get("players"):
        st = next(
            (g for g in form.fields() if g.name == name.split(".")[0] + "." + name.split(".")[1] + ".strategy"), None
        )
        if st is not None and not st.value:  # a seat the file lacks: checked at the table size that has it
            sets.insert(0, f"players={form.given['players']}")
            if st.name != name and form.given.get(st.name) and not any(x.startswith(st.name + "=") for x in sets):
                sets.insert(1, f"{st.name}={form.given[st.name]}")
    try:
        public.load(path, set=sets)
    except SimError as e:
        return str(e)
    return None


def field_of_error(form: Form, line: str) -> str:
    """The field an error line is about ("--set track_len=5: ..." -> "track_len"), "" when none."""
    head = line.split(":", 1)[0]
    for opt in ("--set-b ", "--set-a ", "--set "):
        if head.startswith(opt):
            name = head[len(opt) :].split("=", 1)[0].strip()
            return name if any(f.name == name for f in form.fields()) else ""
    return ""
