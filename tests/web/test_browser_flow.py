"""The workbench as a designer uses it, in Debian's Chromium driven by Playwright (pointed at /usr/bin/chromium;
no browser download): pick Moor 4p, change track_len (a bad value first: its line beside the field), run,
watch the progress, read the verdict, compare with the file, cancel a long run, and reload after a server restart.

Needs /usr/bin/chromium (CI installs it: .ci/run). Skipped only with SIM_NO_BROWSER=1; without chromium it fails
saying so. With SIM_SCREENSHOTS=DIR it saves the pages it passes through as PNGs there (the guide's pictures).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("SIM_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
pytestmark = [
    pytest.mark.kernel,  # the jobs play games
    pytest.mark.skipif(os.environ.get("SIM_NO_BROWSER") == "1", reason="SIM_NO_BROWSER=1: browser tests skipped"),
]
SHOTS = os.environ.get("SIM_SCREENSHOTS")


def shot(page, name: str, full: bool = True) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=full)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`sim serve` in a process of its own on a free port, its reports (and jobs.sqlite) in ``reports``."""

    def __init__(self, reports: Path) -> None:
        self.reports, self.port = reports, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> Server:
        code = "import sys; from sim.cli.entry import main; sys.argv[0] = 'sim'; main()"
        cmd = [sys.executable, "-c", code, "serve", "--port", str(self.port), "--reports", str(self.reports)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                with urllib.request.urlopen(self.url + "/history", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise AssertionError(f"sim serve did not start: {self.output()}")

    def stop(self) -> int:
        """Ctrl-C, as a person stops it; its exit code."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError("sim serve did not stop within 30 s of Ctrl-C") from None

    def output(self) -> str:
        if self.proc is None or self.proc.stdout is None:
            return ""
        if self.proc.poll() is None:
            return "(running)"
        return self.proc.stdout.read()


@pytest.fixture
def browser(tmp_path):
    if not Path(CHROMIUM).is_file():
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium; .ci/run does it in CI), "
            "or set SIM_NO_BROWSER=1 to skip the browser tests"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),  # a fresh user-data dir
            executable_path=CHROMIUM,
            headless=True,
            args=ARGS,
            viewport={"width": 1280, "height": 900},
        )
        try:
            yield ctx
        finally:
            ctx.close()


def open_moor(page, server: Server) -> None:
    page.goto(server.url + "/")
    shot(page, "workbench-start")
    page.get_by_role("link", name="moor/4p.toml").click()
    page.wait_for_selector("#f-track_len")


def test_designer_flow_in_chromium(browser, tmp_path):
    from playwright.sync_api import expect

    server = Server(tmp_path / "reports").start()
    try:
        page = browser.new_page()
        page.set_default_timeout(60_000)
        open_moor(page, server)
        # a bad value: its line beside the field, on change, in the form's words
        page.fill("#f-track_len", "5")
        page.press("#f-track_len", "Tab")
        expect(page.locator("#f-track_len-msg")).to_contain_text("track_len: 5 is out of range; allowed 19..62")
        page.fill("#f-track_len", "40")
        page.press("#f-track_len", "Tab")
        expect(page.locator("#f-track_len-msg")).to_be_empty()
        page.fill("#f-games", "20000")
        page.locator("#f-track_len-row").scroll_into_view_if_needed()
        shot(page, "workbench-form", full=False)
        # warm once: the first job of a fresh worker loads the kernels (the 5-s figure is for compiled kernels)
        t0 = time.monotonic()
        page.click("#run")
        expect(page.locator("#status")).to_have_text("done", timeout=120_000)
        expect(page.locator("#verdict")).to_contain_text("The start player wins")
        first = time.monotonic() - t0
        # the same again, kernels loaded: from the click to the verdict on screen
        open_moor(page, server)
        page.fill("#f-track_len", "40")
        page.fill("#f-games", "20000")
        page.fill("#f-seed", "99")
        t0 = time.monotonic()
        page.click("#run")
        page.wait_for_selector("#verdict", timeout=60_000)
        warm = time.monotonic() - t0
        print(
            f"\n20,000-game Moor run, click to verdict in Chromium: {warm:.2f} s (first job of the worker: {first:.2f} s)"
        )
        expect(page.locator("#figures")).to_contain_text("20,000 of 20,000 games")
        expect(page.locator("#verdict")).to_contain_text("The start player wins")
        run_url = page.url
        shot(page, "workbench-verdict")
        # compare with the file as it is (A) on the same dice
        open_moor(page, server)
        page.fill("#f-track_len", "40")
        page.fill("#f-games", "20000")
        page.click("#compare")
        expect(page.locator("#status")).to_have_text("done", timeout=120_000)
        expect(page.locator("#verdict")).to_contain_text("Game length")
        shot(page, "workbench-compare")
        # a long run: watch its progress, then cancel it
        open_moor(page, server)
        page.fill("#f-games", "200000000")
        page.click("#run")
        expect(page.locator("#status")).to_have_text("running", timeout=60_000)
        expect(page.locator("#figures")).to_contain_text("games/s", timeout=60_000)
        expect(page.locator("#figures")).to_contain_text("left")
        shot(page, "workbench-progress")
        page.click("#cancel")
        expect(page.locator("#status")).to_have_text("cancelled", timeout=20_000)
        cancelled_url = page.url
        # a long run left running while the server restarts
        open_moor(page, server)
        page.fill("#f-games", "200000000")
        page.click("#run")
        expect(page.locator("#status")).to_have_text("running", timeout=60_000)
        long_url = page.url
        assert server.stop() == 0
        server.start()
        page.goto(run_url)  # the finished run: still there, still done
        expect(page.locator("#status")).to_have_text("done")
        expect(page.locator("#verdict")).to_contain_text("The start player wins")
        page.goto(cancelled_url)
        expect(page.locator("#status")).to_have_text("cancelled")
        page.goto(long_url)
        expect(page.locator("#status")).to_have_text("interrupted")
        expect(page.locator("#job-error")).to_contain_text("server stopped")
        # the history, filtered, and the permanent link with its report page
        page.goto(server.url + "/history?game=moor&kind=run&status=done")
        shot(page, "workbench-history")
        page.goto(run_url)
        page.click("#permalink")
        expect(page.locator("#verdict")).to_contain_text("The start player wins")
        shot(page, "workbench-result")
        page.click("#report-link")
        expect(page).to_have_title("Balance report: moor-4p--track_len=40")
    finally:
        assert server.stop() == 0, server.output()
