"""JupyterLab on loopback and Debian's headless Chromium, shared by the browser tests; Jupyter
Kernel Gateway on loopback for the gateway tests; ``LabPage``, the page actions they share;
``RequestSink``, a loopback server that sees what a page fetches."""
from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.support.prereqs import require

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_http(url: str, process: subprocess.Popen, log_path: Path, what: str, timeout: float,
                  headers: dict | None = None) -> None:
    """Poll ``url`` until it answers; fail with the log's tail if ``process`` ends or time runs out."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=2)
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"{what} did not start:\n" + log_path.read_text()[-3000:])
            time.sleep(0.3)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


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
    port = free_port()
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
    try:
        wait_for_http(f"{url}/api/status?token={token}", server, log_path, "JupyterLab", timeout)
        yield url, token
    finally:
        stop(server)
        log.close()


#: Enterprise Gateway pins jupyter-client<7, so it runs from a venv of its own beside the kernel's
#: (`make test` makes it; docs/deploy.md); Kernel Gateway shares the test venv
EG_PYTHON = Path(__file__).resolve().parents[2] / "build" / "eg-venv" / "bin" / "python"
#: kind -> (the gateway's jupyter subcommand, its options). Both refuse by default what JupyterLab
#: needs: listing the running kernels; kernels get only PATH and a list of variables from the
#: gateway's environment (the tests' PYTHONPATH must reach them: it points at the tree under
#: test); Enterprise Gateway refuses kernels to root (the CI user)
GATEWAYS = {
    "kernel": ("kernelgateway", ("--JupyterWebsocketPersonality.list_kernels=True",
                                 "--KernelGatewayApp.env_process_whitelist=PYTHONPATH")),
    "enterprise": ("enterprisegateway", ("--EnterpriseGatewayApp.list_kernels=True",
                                         "--EnterpriseGatewayApp.inherited_envs=PYTHONPATH",
                                         "--EnterpriseGatewayApp.unauthorized_users=nobody")),
}


def gateway_python(kind: str) -> tuple[str | None, str | None]:
    """(the interpreter that runs gateway ``kind``, None) or (None, why it is missing)."""
    if kind == "enterprise":
        if not EG_PYTHON.exists():
            return None, f"no Enterprise Gateway venv at {EG_PYTHON.parents[1]} (`make test` creates it)"
        return str(EG_PYTHON), None
    try:
        __import__("kernel_gateway")
    except ImportError:
        return None, "the Python package jupyter_kernel_gateway is not installed (pip install -e '.[test]')"
    return sys.executable, None


@contextmanager
def kernel_gateway(root: Path, jupyter_path: str, kind: str = "kernel", timeout: float = 60):
    """Jupyter Kernel Gateway (or Enterprise Gateway: ``kind="enterprise"``) on a free loopback
    port with the kernelspecs on ``jupyter_path``; yields (url, token) for ``lab_args``. The
    kernelspecs name the kernel's own interpreter, so the kernel runs in its own environment."""
    python, missing = gateway_python(kind)
    require(missing)
    command, options = GATEWAYS[kind]
    app = "KernelGatewayApp" if kind == "kernel" else "EnterpriseGatewayApp"
    port = free_port()
    token = secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_PATH=jupyter_path)
    log_path = root / f"{kind}-gateway.log"
    log = open(log_path, "wb")
    gateway = subprocess.Popen(
        [python, "-m", "jupyter", command, f"--{app}.ip=127.0.0.1", f"--{app}.port={port}",
         f"--{app}.port_retries=0", f"--{app}.auth_token={token}", *options],
        stdout=log, stderr=subprocess.STDOUT, env=env, cwd=root)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(f"{url}/api/kernelspecs", gateway, log_path, f"{kind} gateway", timeout,
                      {"Authorization": f"token {token}"})
        yield url, token
    finally:
        stop(gateway)
        log.close()


def lab_args(gateway_url: str, gateway_token: str) -> tuple[str, ...]:
    """``jupyter lab`` options that send every kernel through the gateway."""
    return (f"--gateway-url={gateway_url}", f"--GatewayClient.auth_token={gateway_token}",
            "--GatewayClient.request_timeout=60")


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


def report_failure(driver, screenshot: Path, *logs: Path) -> None:
    """On a failed browser test: a screenshot, and the tails of the server logs and the console."""
    driver.save_screenshot(str(screenshot))
    for log in logs:
        print(f"{log.name} tail:\n{log.read_text(errors='replace')[-2000:]}")
    print("browser console:\n" + "\n".join(str(e) for e in driver.get_log("browser"))[-2000:])


class LabPage:
    """Actions on a JupyterLab page that the browser tests share (Selenium)."""

    def __init__(self, driver, timeout: float = 60) -> None:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.support.ui import WebDriverWait

        self.driver = driver
        # the panel re-renders its rows on every change event: retry on stale references
        self.wait = WebDriverWait(driver, timeout, ignored_exceptions=(StaleElementReferenceException,))

    def until(self, condition):
        return self.wait.until(lambda d: condition())

    def css(self, selector: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def open(self, url: str, token: str, notebook: str) -> None:
        """Open ``notebook`` (no tabs of earlier tests) and wait for its kernel to be idle."""
        self.driver.get(f"{url}/lab/tree/{notebook}?reset&token={token}")
        self.until(lambda: self.css(".jp-Notebook .jp-Cell .cm-content"))
        self.until(self.idle)

    def idle(self) -> bool:
        return self.driver.execute_script(
            "const s = document.querySelector('.jp-Notebook-ExecutionIndicator');"
            "return s && s.getAttribute('data-status') === 'idle';")

    def run_cell(self, index: int, notebook: str | None = None) -> None:
        """Shift+Enter in cell ``index`` (of the notebook tab named ``notebook``)."""
        from selenium.webdriver.common.keys import Keys

        if notebook:
            [t for t in self.css(".lm-DockPanel-tabBar .lm-TabBar-tab") if notebook in t.text][0].click()
        self.until(lambda: self.css(".jp-Notebook .jp-Cell .cm-content")[index].is_displayed())
        editor = self.css(".jp-Notebook .jp-Cell .cm-content")[index]
        editor.click()
        editor.send_keys(Keys.SHIFT, Keys.ENTER)

    def outputs(self) -> list[str]:
        return [e.text for e in self.css(".jp-OutputArea-output")]

    def wait_output(self, text: str) -> str:
        """The first cell output that contains ``text``, once there is one."""
        self.until(lambda: any(text in o for o in self.outputs()))
        return [o for o in self.outputs() if text in o][0]

    # ---------------------------------------------------------------- the Sandbox files panel
    def row(self, path: str):
        found = self.css(f'.jp-SandboxFiles-item[data-path="{path}"]')
        return found[0] if found else None

    def row_detail(self, path: str) -> str | None:
        from selenium.webdriver.common.by import By

        element = self.row(path)
        return element.find_element(By.CSS_SELECTOR, ".jp-SandboxFiles-detail").text if element else None

    def on_row(self, path: str, action) -> None:
        def attempt():
            element = self.row(path)
            if element is None:
                return False
            action(element)
            return True
        self.until(attempt)

    def context_menu(self, path: str, item: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        self.on_row(path, lambda e: ActionChains(self.driver).context_click(e).perform())
        self.until(lambda: [e for e in self.css(".lm-Menu-item") if e.text.startswith(item)])
        [e for e in self.css(".lm-Menu-item") if e.text.startswith(item)][0].click()

    def open_in_editor(self, path: str):
        """Double-click ``path`` in the panel; returns the editor's content element."""
        from selenium.webdriver.common.action_chains import ActionChains

        self.on_row(path, lambda e: ActionChains(self.driver).double_click(e).perform())
        self.until(lambda: self.css(".jp-SandboxFileEditor .cm-content"))
        return self.css(".jp-SandboxFileEditor .cm-content")[0]

    def drop_file(self, name: str, size: int) -> None:
        """Drop a file of ``size`` bytes (byte i is i % 251) from the desktop onto the panel."""
        self.driver.execute_script("""
            const data = new Uint8Array(arguments[0]);
            for (let i = 0; i < data.length; i++) data[i] = i % 251;
            const transfer = new DataTransfer();
            transfer.items.add(new File([data], arguments[1]));
            const tree = document.querySelector('#sandbox-files .jp-SandboxFiles-tree');
            for (const type of ['dragenter', 'dragover', 'drop'])
                tree.dispatchEvent(new DragEvent(type, {dataTransfer: transfer, bubbles: true, cancelable: true}));
        """, size, name)

    # ---------------------------------------------------------------- the Sandbox terminals
    def terminal_screen(self) -> str:
        """The text of the visible Sandbox terminal's rows."""
        rows = self.css(".jp-SandboxTerminal:not(.lm-mod-hidden) .xterm-rows")
        return rows[-1].text if rows else ""

    def terminal_keys(self, *keys) -> None:
        self.css(".jp-SandboxTerminal:not(.lm-mod-hidden) .xterm-helper-textarea")[-1].send_keys(*keys)

    def close_tab(self, label: str) -> None:
        tab = [t for t in self.css(".lm-DockPanel-tabBar .lm-TabBar-tab") if label in t.text][0]
        tab.find_element("css selector", ".lm-TabBar-tabCloseIcon").click()


class RequestSink:
    """An HTTP server on loopback that answers every request with 204 and keeps its path: rich
    output that makes the browser fetch a URL on it shows up in ``paths``."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self._changed = threading.Condition()
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with sink._changed:
                    sink.paths.append(self.path)
                    sink._changed.notify_all()
                self.send_response(204)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.end_headers()

            do_POST = do_HEAD = do_GET

            def log_message(self, *args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def wait_for(self, predicate, timeout: float = 60) -> bool:
        """Wait until ``predicate(paths)`` holds (True) or ``timeout`` passes (False)."""
        with self._changed:
            return self._changed.wait_for(lambda: predicate(list(self.paths)), timeout)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
