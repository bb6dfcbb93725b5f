"""The complexity ratchet: ruff's McCabe rule (C901) over sim/ and kernels/ at `MAX_COMPLEXITY`, against the
committed baseline tests/complexity_baseline.json, which may only shrink.

A function over the limit must be in the baseline at no more than its recorded complexity; a baseline entry whose
function got simpler (or went) must be lowered (or dropped), so the baseline always says what is left to split.
`python tests/complexity.py --write` records the current state (after a split); `tests/test_complexity.py` checks.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BASELINE = REPO / "tests" / "complexity_baseline.json"
MAX_COMPLEXITY = 15  # ruff's default is 10; 15 leaves the kernels' rule functions that read as one clause each
_MESSAGE = re.compile(r"^`(?P<name>[^`]+)` is too complex \((?P<value>\d+) > \d+\)$")


def measure() -> dict[str, int]:
    """{"path::function": complexity} of every function over `MAX_COMPLEXITY` (ruff, C901)."""
    ruff = Path(sys.executable).with_name("ruff")
    r = subprocess.run(
        [str(ruff), "check", "sim", "kernels", "--select", "C901", "--output-format", "json", "--no-cache"]
        + ["--config", f"lint.mccabe.max-complexity={MAX_COMPLEXITY}", "--exit-zero"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    out: dict[str, int] = {}
    for v in json.loads(r.stdout):
        m = _MESSAGE.match(v["message"])
        if m is None:
            raise ValueError(f"unexpected ruff C901 message: {v['message']!r}")
        path = Path(v["filename"]).resolve().relative_to(REPO).as_posix()
        key = f"{path}::{m['name']}"
        out[key] = max(out.get(key, 0), int(m["value"]))
    return dict(sorted(out.items()))


def problems(now: dict[str, int], baseline: dict[str, int]) -> list[str]:
    """What breaks the ratchet, one line each: a function over the limit that is new or more complex than recorded,
    and a recorded one that got simpler or went (lower the baseline: `--write`)."""
    out = []
    for k, v in now.items():
        if k not in baseline:
            out.append(f"{k}: complexity {v} > {MAX_COMPLEXITY}: split it (new over the limit)")
        elif v > baseline[k]:
            out.append(f"{k}: complexity {v}, was {baseline[k]}: it may only shrink")
    for k, v in baseline.items():
        if now.get(k, 0) < v:
            out.append(f"{k}: complexity {now.get(k, 'within the limit')}, baseline {v}: lower it (--write)")
    return out


def main(argv: list[str]) -> int:
    now = measure()
    if "--write" in argv:
        BASELINE.write_text(json.dumps(now, indent=1) + "\n")
        print(f"{len(now)} functions over {MAX_COMPLEXITY} recorded in {BASELINE.relative_to(REPO)}")
        return 0
    bad = problems(now, json.loads(BASELINE.read_text()))
    print("\n".join(bad) or f"complexity: {len(now)} functions over {MAX_COMPLEXITY}, none grew")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
