"""JupyterLab on loopback driven by Debian's Chromium (Selenium + chromedriver): open a notebook
with the `sandbox` kernel, run a cell, see its output. Screenshot: build/browser-lab.png."""
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
from pathlib import Path

import nbformat
import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
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


@pytest.fixture(scope="module")
def lab(tmp_path_factory, jupyter_kernels):
    reason = requirements_missing()
    if reason:
        warnings.warn(f"browser test skipped: {reason}", UserWarning)  # shown by `make test`
        pytest.skip(reason)
    root = tmp_path_factory.mktemp("lab")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("echo hello | tr a-z A-Z")])
    nb.metadata["kernelspec"] = {"name": "sandbox", "display_name": "Sandbox (shell · JS · VM)",
                                 "language": "bash"}
    nbformat.write(nb, root / "hello.ipynb")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    token = secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_PATH=jupyter_kernels, JUPYTER_CONFIG_DIR=str(root / ".config"))
    log = open(root / "lab.log", "wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
         "--LabApp.news_url=", "--ServerApp.port_retries=0", "--allow-root",
         "--ServerApp.terminals_enabled=False"],
        stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                pytest.fail("JupyterLab did not start:\n" + (root / "lab.log").read_text()[-3000:])
            time.sleep(0.5)
    try:
        yield url, token
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def test_run_a_cell_in_jupyterlab(lab):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    url, token = lab
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,900"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    screenshot = ROOT / "build" / "browser-lab.png"
    screenshot.parent.mkdir(exist_ok=True)
    try:
        driver.get(f"{url}/lab/tree/hello.ipynb?token={token}")
        wait = WebDriverWait(driver, 120)
        # the kernel is up when the toolbar's kernel status says idle
        wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, ".jp-Notebook .jp-Cell .cm-content")))
        wait.until(lambda d: "Sandbox" in d.find_element(By.CSS_SELECTOR, ".jp-KernelName").text)
        wait.until(lambda d: d.execute_script(
            "const s = document.querySelector('.jp-Notebook-ExecutionIndicator');"
            "return s && s.getAttribute('data-status') === 'idle';"))
        editor = driver.find_element(By.CSS_SELECTOR, ".jp-Notebook .jp-Cell .cm-content")
        editor.click()
        editor.send_keys(Keys.SHIFT, Keys.ENTER)
        wait.until(lambda d: any("HELLO" in e.text for e in
                                 d.find_elements(By.CSS_SELECTOR, ".jp-OutputArea-output")))
        driver.save_screenshot(str(screenshot))
        outputs = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".jp-OutputArea-output")]
        assert outputs[0].strip() == "HELLO"
    except Exception:
        driver.save_screenshot(str(screenshot))
        raise
    finally:
        driver.quit()
