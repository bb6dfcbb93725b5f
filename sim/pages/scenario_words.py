"""The readable descriptions of a summary, shared by summary.md, balance.md, summary.html, compare.md/html and the
CLI: the scenario played (`scenario_items`), its parameters against their defaults (`parameter_lines`), the difference
between two scenarios (`scenario_differences`), a report's lead line (`lead_line`) and the board's description."""

from __future__ import annotations

from pathlib import Path

from sim.model.search_spec import defaults_text, played_is_search, tiebreak_text
from sim.model.words import value_text

TEAM_SEAT_NOTE = (
    "In a team game every member of a team shares one result per game, so each seat's and each "
    "strategy's win rate is its team's win rate: these rates cannot tell the team's strategies apart. "
    "To compare strategies, play two scenarios that differ only there with `sim compare A.toml B.toml`."
)
NO_FINISHED = (
    "No game finished: every game hit the turn cap (max_turns) or failed, so there are no win rates, "
    "scores or lengths to report. Raise max_turns."
)


def is_team_game(s: dict) -> bool:
    """Whether summary ``s`` is of a team game (cooperative or Head Haunter): every member shares the team's result."""
    return bool(s.get("team"))


def _defaults(game: str) -> tuple[dict, dict]:
    """(parameter defaults, {strategy: {parameter: default}}) of ``game`` from the registry ({} when unknown)."""
    from sim.model import registry

    spec = registry.get(game)  # None: a summary read back without the game's code (a broken module raises)
    if spec is None:
        return {}, {}
    return spec.defaults(), {st.name: {p.name: p.default for p in st.params} for st in spec.strategies}


def lead_line(s: dict, varied: str = "", by: str = "swept") -> str:
    """The line under a report's title: the game, the table and the scenario file's description, each said once
    (a description that already names the game or the table is not prefixed with them again). When --set changed
    the scenario, the description is the file's, so the line says so and names the overrides: a description such
    as "all seats the weighted heuristic" must not pass for a variant whose seat 3 plays another strategy.
    ``varied``: the names a sweep or a tune varies beyond the overrides ('seats.3.strategy, track_len'), said
    likewise after ``by`` ('swept', 'tuned'): every point plays a variant the description may not describe."""
    sc = s["scenario"]
    title, players = s.get("game_title") or sc.get("game", ""), sc.get("players")
    desc = (sc.get("description") or "").strip()
    head = [] if title and title.lower() in desc.lower() else [title]
    if players and f"{players} players" not in desc and f"{players}-player" not in desc:
        head.append(f"{players} players")
    out = ", ".join(x for x in head if x)
    if desc:
        out = f"{out}. {desc}" if out else desc
    ov = sc.get("overrides") or []
    notes = []
    if ov:
        from sim.model.overrides import show

        notes.append("Changed by --set: " + ", ".join(show(o["name"], o["value"]) for o in ov))
    if varied:
        notes.append(f"{by}: {varied}" if notes else f"{by.capitalize()}: {varied}")
    if notes:
        out += (" " if out.endswith(".") else ". ") if out else ""
        out += "; ".join(notes) + (" (the description above is the scenario file's)." if desc else ".")
    return out


def board_description(ref: str, game: str) -> str:
    """A board reference in words: its file, name and whether it is UNVERIFIED (the shipped default boards are
    candidate layouts: their files say UNVERIFIED in the header and "(unverified)" in the description). ``game``'s
    spec names the loader (`BoardSpec.module`, kernels/<game>/board.py)."""
    from sim.model import registry

    spec = registry.get(game)  # a broken game module raises: never said as a board that cannot be read
    board = spec.board if spec is not None else None
    if board is None:  # a game whose code is not here, or one without boards
        return f"{ref} (board file not readable here: no board spec for {game!r})"
    B = board.loader()
    try:
        b = B.load_board(ref)
        text = Path(b.path).read_text(encoding="utf-8") if b.path and Path(b.path).exists() else ""
    except (OSError, ValueError) as e:  # a report read back elsewhere (the board file gone or changed): say so
        return f"{ref} (board file not readable here: {type(e).__name__})"
    unverified = "UNVERIFIED" in text or "unverified" in f"{b.name} {b.description}".lower()
    shipped = ref == "default" or Path(b.path).resolve() == (B.BOARDS_DIR / "default.toml").resolve()
    out = f"{'the shipped default board' if shipped else ref} ({b.name}: {b.description})"
    if unverified:
        out += " - UNVERIFIED: a candidate layout, not checked against the printed board; results depend on it"
    return out


def scenario_items(s: dict) -> list[tuple[str, str]]:
    """The rules variant played, from summary ``s``: game, mode, every parameter (those that differ from the
    default marked with the default), the board, and each seat's strategy with the weights that were set."""
    sc = s["scenario"]
    params = sc.get("params") or {}
    pdef, sdef = _defaults(sc["game"])
    items = [("game", f"{s.get('game_title', sc['game'])} ({sc['game']}), {sc['players']} players")]
    if "mode" in params:
        items.append(
            (
                "mode",
                str(params["mode"])
                + ("" if pdef.get("mode", params["mode"]) == params["mode"] else f" (default: {pdef['mode']})"),
            )
        )
    if "board" in params:
        items.append(("board", board_description(str(params["board"]), sc["game"])))
    shown, changed = parameter_lines(s)
    items.append(("parameters", ("; ".join(shown) if shown else "none") + " - " + changed_text(changed)))
    if sc.get("overrides"):
        from sim.model.overrides import show

        items.append(("changed by --set", ", ".join(show(o["name"], o["value"]) for o in sc["overrides"])))
    roles = [r.get("role") for r in s.get("seats", [])]
    played = _played(s.get("provenance"), len(sc["seats"]))
    for i, seat in enumerate(sc["seats"]):
        role = roles[i] if i < len(roles) else None
        txt = seat["strategy"] + (f" ({role})" if role and role != "player" else "")
        sp = seat.get("params") or {}
        d = sdef.get(seat["strategy"], {})
        shown = [
            f"{k} = {value_text(v)}" + (f" (default {value_text(d[k])})" if k in d and d[k] != v else "")
            for k, v in sp.items()
        ]
        tb = tiebreak_text(sp, played[i])  # a search seat's "auto" tie-break as the game resolved it
        shown += defaults_text(sp, played[i])
        if shown or tb:
            txt += " with " + ", ".join(shown + ([tb] if tb else []))
        elif sdef.get(seat["strategy"]):
            txt += ", default weights"
        items.append((f"seat {i}", txt))
    return items


def parameter_lines(s: dict) -> tuple[list[str], list[str]]:
    """(one line per parameter, 'name = value' with '(changed; default X)' where it differs, changed ones first;
    the names of the changed ones), from summary ``s`` (mode and board are described on their own)."""
    sc = s["scenario"]
    params = sc.get("params") or {}
    pdef, _ = _defaults(sc["game"])
    from sim.model.params_table import rows as param_rows  # by name (a card mix card by card), changed ones first

    table = param_rows(sc["game"], params, value_text) or [
        {
            "name": k,
            "value": value_text(v),
            "default": value_text(pdef.get(k, v)),
            "changed": k in pdef and v != pdef[k],
        }
        for k, v in params.items()
    ]
    changed = [r["name"] for r in table if r["changed"]]
    shown = [
        f"{r['name']} = {r['value']}" + (f" (changed; default {r['default']})" if r["changed"] else "")
        for r in table
        if r["name"] not in ("mode", "board")
    ]
    return shown, changed


def changed_text(changed: list[str]) -> str:
    """'2 differ from the default: a, b' or 'all at their defaults'."""
    return f"{len(changed)} differ from the default: {', '.join(changed)}" if changed else "all at their defaults"


SAME_PLAY = ": the same play"  # the end of a seat's line whose parameters differ as given, not as played


def scenario_differences(
    a: dict, b: dict, played_a: list[dict] | None = None, played_b: list[dict] | None = None
) -> list[str]:
    """What differs between two scenarios (their `Scenario.to_dict()`s): player count, parameters, seats'
    strategies and strategy parameters. Empty when they play the same variant. ``played_a``/``played_b``: each
    side's seats as played (`sim.model.search.seats_as_played`, compare.json's ``seats_played``): a search seat's
    "auto" tie-break is said with what it plays, and a seat whose parameters differ only as given (auto against
    the score it resolves to) is said to play the same (its line ends with SAME_PLAY)."""
    out = []
    if a.get("game") != b.get("game"):
        out.append(f"game: A {a.get('game')}, B {b.get('game')}")
    if a["players"] != b["players"]:
        out.append(f"players: A {a['players']}, B {b['players']}")
    pa, pb = a.get("params") or {}, b.get("params") or {}
    from sim.model.params_table import rows as param_rows  # by name: a card mix card by card

    ra = {r["name"]: r["value"] for r in param_rows(a.get("game", ""), pa, value_text)}
    same_game = a.get("game") == b.get("game")
    rb = {r["name"]: r["value"] for r in param_rows(b.get("game", ""), pb, value_text)} if same_game else {}
    if ra and rb:
        out += [f"{k}: A {ra[k]}, B {rb[k]}" for k in ra if k in rb and ra[k] != rb[k]]
    else:
        for k in list(pa) + [k for k in pb if k not in pa]:
            if pa.get(k) != pb.get(k):
                out.append(f"{k}: A {value_text(pa.get(k, '(unset)'))}, B {value_text(pb.get(k, '(unset)'))}")
    sa, sb = a.get("seats") or [], b.get("seats") or []
    pa_, pb_ = _played({"seats": played_a}, len(sa)), _played({"seats": played_b}, len(sb))
    for i in range(max(len(sa), len(sb))):
        x = sa[i] if i < len(sa) else None
        y = sb[i] if i < len(sb) else None
        px = pa_[i] if i < len(sa) else None
        py = pb_[i] if i < len(sb) else None
        moved = _differ_as_played(x, y, px, py)
        fx = _seat_text(x, px, moved or _search_defaults(x, y, px))
        fy = _seat_text(y, py, moved or _search_defaults(y, x, py))
        if fx != fy:
            same = x and y and x["strategy"] == y["strategy"] and px is not None and px == py
            out.append(f"seat {i}: A {fx}, B {fy}" + (SAME_PLAY if same else ""))
    return out


def _played(prov: dict | None, n: int) -> list[dict | None]:
    """The ``n`` seats' parameters as played from a record's ``seats`` (provenance.json's, compare.json's
    ``seats_played``), None each where it is not recorded (a report of an older version)."""
    seats = (prov or {}).get("seats") or []
    if len(seats) != n:
        return [None] * n
    return [x.get("params") if isinstance(x, dict) else None for x in seats]


def _differ_as_played(x: dict | None, y: dict | None, px: dict | None, py: dict | None) -> list[str]:
    """The parameters two seats of one strategy play differently (as played, the tie-break apart: `tiebreak_text`
    says it): a side that left one to its default then says the default it played ("root = halving (default)"),
    not only the other side's value (a fresh user could not tell which search A played)."""
    if not (x and y and px and py) or x["strategy"] != y["strategy"]:
        return []
    return [k for k in px if k != "tiebreak" and k in py and px[k] != py[k]]


def _search_defaults(seat: dict | None, other: dict | None, played: dict | None) -> list[str]:
    """A search seat facing a seat of another strategy: every parameter it left to its default (the tie-break
    apart), so "B search (budget = 3)" against "A learned" says the root, margin and rollouts B played."""
    if not (seat and other and played) or seat["strategy"] == other["strategy"]:
        return []
    if not played_is_search(played):
        return []
    return [k for k in played if k != "tiebreak"]


def _seat_text(seat: dict | None, played: dict | None = None, moved: list[str] | None = None) -> str:
    if seat is None:
        return "(no seat)"
    sp = seat.get("params") or {}
    shown = [f"{k} = {value_text(v)}" for k, v in sp.items()]
    shown += [f"{k} = {value_text((played or {})[k])} (default)" for k in moved or () if k not in sp]
    tb = tiebreak_text(sp, played)
    shown += [tb] if tb else []
    return seat["strategy"] + (" (" + ", ".join(shown) + ")" if shown else "")
