"""JupyterLab on loopback and Debian's headless Chromium, shared by the browser tests."""
from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from prereqs import require

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")


def requirements_missing() -> str | None:
    if not CHROMIUM or not CHROMEDRIVER:
        return ("Chromium/chromedriver are not installed (scripts/system-deps installs the Debian "
                "packages chromium and chromium-driver when run as root)")
    for module in ("selenium", "jupyterlab"):
        try:
            __import__(module)
        except ImportError:
            return f"the Python package {module} is not installed (pip install -e '.[test]')"
    return None


def skip_unless_browser() -> None:
    """Skip (locally) or fail (in CI) when Chromium or the Python packages are missing."""
    require(requirements_missing())


@contextmanager
def jupyterlab(root: Path, jupyter_path: str, extra_args: tuple[str, ...] = (), timeout: float = 90):
    """Run JupyterLab on a free loopback port serving ``root``; yields (url, token)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    token = secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_PATH=jupyter_path, JUPYTER_CONFIG_DIR=str(root / ".config"))
    log_path = root / "lab.log"
    log = open(log_path, "wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
         "--LabApp.news_url=", "--ServerApp.port_retries=0", "--allow-root",
         "--ServerApp.terminals_enabled=False", *extra_args],
        stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("JupyterLab did not start:\n" + log_path.read_text()[-3000:])
                time.sleep(0.3)
        yield url, token
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def chrome(window: str = "1280,900", prefs: dict | None = None):
    """A headless Chromium driven by chromedriver (the caller quits it)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={window}"):
        options.add_argument(arg)
    if prefs:
        options.add_experimental_option("prefs", prefs)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
