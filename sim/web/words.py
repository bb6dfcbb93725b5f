"""The workbench's own words for the one-line errors the API gives in the command line's words: the same content,
each option named as the form names its field (a tune's ``--games`` is "games a trial", a ladder's
``--balance-games`` "games of each rung's own table"), an override without its option (``--set track_len=5:
params.track_len: 5 is out of range`` beside the field ``track_len`` reads ``track_len: 5 is out of range``), an
entry after its field (a tune's ``--param track_len=a..b: ...`` is ``parameters track_len=a..b: ...``). The HTTP status stays the API's (4xx).

The API keeps its words (the command line, the notebook and the workbench check the same way); only what the
workbench shows is reworded, here, once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from sim.model.overrides import canonical

# an override (NAME=VALUE) names its own field of a scenario's form: its option word goes
OVERRIDE_OPTIONS = frozenset({"set", "set-a", "set-b"})
# each form's fields as it names them, by the option the API's words name them with
SCENARIO_FIELDS = {"games": "games", "seed": "seed", "players": "players", "target": "target"}
LADDER_FIELDS = {
    "players": "players",
    "strategies": "rungs",
    "games": "games a table",
    "balance-games": "games of each rung's own table",
    "margin": "margins",
    "seed": "seed",
}
TUNE_FIELDS = {"param": "parameters", "target": "targets", "trials": "trials", "games": "games a trial", "seed": "seed"}
FIELDS = {
    "run": SCENARIO_FIELDS,
    "compare": SCENARIO_FIELDS,
    "sweep": SCENARIO_FIELDS,
    "ladder": LADDER_FIELDS,
    "tune": TUNE_FIELDS,
}

_OPTION = re.compile(r"(?<![\w-])--([a-z][a-z-]*)(:| |$)")
_HEAD = re.compile(r"^--set(?:-[ab])? (?P<name>[^=:\s]+)=(?P<value>.*?): (?P<field>[\w.\[\]*]+): (?P<rest>.*)$")


def form_words(line: str, kind: str) -> str:
    """``line`` (one line in the command line's words) in the words of the form of job ``kind`` (run, compare,
    sweep, ladder, tune; `FIELDS`): an override's head without the file's spelling of the same field and without
    ``--set`` (it names its field), each other option as the form names its field."""
    fields = FIELDS.get(kind, SCENARIO_FIELDS)
    m = _HEAD.match(line)
    if m and canonical(re.sub(r"\[(\d+)\]", r".\1", m["field"])) == canonical(m["name"]):
        said = m["name"] if m["value"] in m["rest"] else f"{m['name']}={m['value']}"
        line = f"{said}: {m['rest']}"

    def named(o: re.Match) -> str:
        opt, after = o[1], o[2]
        if after == " " and opt in OVERRIDE_OPTIONS:
            return ""
        return fields.get(opt, opt.replace("-", "_")) + after

    return _OPTION.sub(named, line)


def fields_in_form_words(errors: Mapping[str, str], kind: str) -> dict[str, str]:
    """Each field's error line (`form_words`)."""
    return {k: form_words(v, kind) for k, v in errors.items()}
