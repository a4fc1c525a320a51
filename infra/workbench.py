"""The review workbench for tests and benchmarks: ``deid serve`` as a real uvicorn process on
a free loopback port, and Debian's headless chromium driven by selenium.

Chromium comes from Debian (``apt-get install chromium chromium-driver``; ``.ci/run``
installs it); selenium is given the driver's path, so its manager never downloads a browser
or driver.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from infra.stack import HOST, free_ports

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
    "--disable-default-apps", "--disable-extensions", "--window-size=1400,900",
)  # fmt: skip
START_TIMEOUT = 120.0  # imports and loading a pipeline on 2 busy cores


@dataclass
class Service:
    """A running ``deid serve``: its base URL, process and log file (stdout and stderr)."""

    url: str
    process: subprocess.Popen
    log: Path
    env: dict[str, str] = field(repr=False, default_factory=dict)

    def logs(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_service(
    args: Sequence[str], *, log: Path, cwd: Path | None = None, env: Mapping[str, str] | None = None,
    token: str | None = None,
) -> Service:  # fmt: skip
    """``python -m deid.app.cli serve ARGS --port <free>`` on loopback, started and healthy."""
    port = free_ports(1)[0]
    full_env = {**os.environ, **(env or {})}
    full_env.pop("DEID_SERVE_TOKEN", None)
    if token is not None:
        full_env["DEID_SERVE_TOKEN"] = token
    argv = [sys.executable, "-m", "deid.app.cli", "serve", *args, "--host", HOST, "--port", str(port)]
    with open(log, "wb") as out:
        process = subprocess.Popen(argv, cwd=cwd, env=full_env, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    service = Service(f"http://{HOST}:{port}", process, log, full_env)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"deid serve exited with {process.returncode}:\n{service.logs()[-3000:]}")
        try:
            if httpx.get(f"{service.url}/health", timeout=2).status_code == 200:
                return service
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    service.stop()
    raise RuntimeError(f"deid serve did not answer within {START_TIMEOUT} s:\n{service.logs()[-3000:]}")


def chromium(download_dir: Path | None = None, profile_dir: Path | None = None) -> Any:
    """A headless chromium WebDriver with a fresh profile (``profile_dir``, else a new
    temporary folder); files it downloads land in ``download_dir``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service as DriverService

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    profile = profile_dir or Path(tempfile.mkdtemp(prefix="deid-chromium-"))
    options.add_argument(f"--user-data-dir={profile}")
    if download_dir is not None:
        options.add_experimental_option("prefs", {
            "download.default_directory": str(download_dir), "download.prompt_for_download": False,
            "safebrowsing.enabled": False,
        })  # fmt: skip
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=DriverService(executable_path=str(CHROMEDRIVER)))


def chromium_available() -> bool:
    return CHROMIUM.exists() and CHROMEDRIVER.exists()


def wait_for(condition: Callable[[], Any], what: str, timeout: float = 120.0) -> Any:
    """Poll ``condition`` until it returns something truthy (bounded: ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise TimeoutError(f"waited {timeout:g} s for {what}")


SELECT_TEXT = """const needle = arguments[0], doc = document.getElementById('doc');
const nodes = [], walker = document.createTreeWalker(doc, NodeFilter.SHOW_TEXT);
let text = '';
for (let node = walker.nextNode(); node; node = walker.nextNode()) { nodes.push([node, text.length]); text += node.data; }
const at = text.indexOf(needle);
if (at < 0) return false;
const place = (pos) => { let k = nodes.length - 1; while (k > 0 && nodes[k][1] > pos) k--; return [nodes[k][0], pos - nodes[k][1]]; };
const r = document.createRange(); r.setStart(...place(at));
const end = at + needle.length, last = place(end - 1); r.setEnd(last[0], last[1] + 1);
const s = window.getSelection(); s.removeAllRanges(); s.addRange(r); return true;"""


def select_text(driver: Any, needle: str) -> None:
    """Select the first occurrence of ``needle`` on the review page, as a mouse drag would
    (across highlighted spans too)."""
    if not driver.execute_script(SELECT_TEXT, needle):
        raise AssertionError("text not on the page")
