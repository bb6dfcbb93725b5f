"""What the CLI tests check of a refused command: one `error:` line on stderr and no traceback."""

from __future__ import annotations


def one_error_line(r) -> str:
    """The single error line of a Typer CliRunner result ``r`` (asserts there is exactly one and no traceback)."""
    assert "Traceback" not in r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    return lines[0]
