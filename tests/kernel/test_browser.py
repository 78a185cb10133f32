"""JupyterLab on loopback driven by Debian's Chromium (Selenium + chromedriver): open a notebook
with the `sandbox` kernel, run a cell, see its output. Screenshot: build/browser-lab.png."""
from pathlib import Path

import nbformat
import pytest

from browserlab import chrome, jupyterlab, skip_unless_browser

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lab(tmp_path_factory, jupyter_kernels):
    skip_unless_browser()
    root = tmp_path_factory.mktemp("lab")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("echo hello | tr a-z A-Z")])
    nb.metadata["kernelspec"] = {"name": "sandbox", "display_name": "Sandbox (shell · JS · VM)",
                                 "language": "bash"}
    nbformat.write(nb, root / "hello.ipynb")
    with jupyterlab(root, jupyter_kernels) as server:
        yield server


def test_run_a_cell_in_jupyterlab(lab):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    url, token = lab
    driver = chrome("1280,900")
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
