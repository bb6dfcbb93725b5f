"""`sim bench`'s workbench figure: the memory of a `sim serve` process that has shown its pages (issue 40's target:
the server idles at under 200 MB). The server reads the games' specs and never plays (`kernels._jit.defer_compiles`);
its worker processes, which play, are not counted."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

from sim.model import paths

MEMORY_TARGET_MB = 200


def _free_port() -> int:
    with contextlib.closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise OSError(f"no VmRSS for process {pid}")


def _get(url: str, deadline: float) -> int:
    """The HTTP status of GET ``url``, retried until the server answers or ``deadline`` (time.monotonic) passes."""
    while True:
        try:
            with urllib.request.urlopen(url, timeout=30) as r:
                r.read()
                return int(r.status)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def form_pages() -> list[str]:
    """The scenario paths whose forms the figure opens: each game's 4-player table (relative to scenarios/)."""
    out = []
    for folder in sorted(p for p in paths.SCENARIOS.iterdir() if p.is_dir()):
        for stem in ("4p", "basic-4p"):
            if (folder / f"{stem}.toml").exists():
                out.append(f"{folder.name}/{stem}.toml")
                break
    return out


def workbench_memory(start_timeout_s: float = 120.0) -> dict:
    """Start `sim serve` on a free port with an empty reports folder, open its start page, every game's form and the
    history, and read the server process's resident memory (Linux /proc). Returns {"rss_mb": float (MB, 2**20
    bytes), "pages": int, "target_mb": 200}; {} where /proc is not there. Raises OSError when the server does not
    answer within ``start_timeout_s`` seconds."""
    if not Path("/proc/self/status").exists():
        return {}
    port = _free_port()
    with tempfile.TemporaryDirectory() as reports:
        cmd = [sys.executable, "-m", "sim.cli.main", "serve", "--port", str(port), "--reports", reports]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + start_timeout_s
            urls = [f"{base}/"]
            urls += [f"{base}/scenario?" + urllib.parse.urlencode({"path": p}) for p in form_pages()]
            urls.append(f"{base}/history")
            for url in urls:
                _get(url, deadline)
            rss = _rss_mb(proc.pid)
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
    return {"rss_mb": round(rss, 1), "pages": len(urls), "target_mb": MEMORY_TARGET_MB}


def render_memory(w: dict) -> list[str]:
    """The workbench line of `sim bench`'s output."""
    if not w:
        return ["workbench server memory: not measured (no /proc on this system)"]
    ok = "met" if w["rss_mb"] < w["target_mb"] else "MISSED"
    return [
        f"workbench server: {w['rss_mb']:.0f} MB resident after {w['pages']} pages (start page, every game's form, "
        f"history; its worker processes not counted) (target < {w['target_mb']} MB: {ok})"
    ]
