"""The "Sandbox files" JupyterLab extension: packaging checks, and JupyterLab on loopback driven
by Debian's Chromium (Selenium + chromedriver): a cell writes /workspace/a.txt, the panel shows it
live, the file opens in the editor, an edit is saved back, an upload and a delete go through the
comm. Screenshot: build/labextension.png."""
import asyncio
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import nbformat
import pytest

from labextension.source_hash import BUNDLE_NAME, SOURCES_NAME, bundle_hash, read_record, source_hash
from sandbox_kernel.kernel.install import install
from sandbox_kernel.vm.image import ensure_image
from sandbox_kernel.vm.machine import qemu_available
from tests.support.browserlab import LabPage, chrome, jupyterlab, report_failure, skip_unless_browser
from tests.support.prereqs import require

ROOT = Path(__file__).resolve().parents[2]
LABEXTENSION = ROOT / "sandbox_kernel" / "kernel" / "labextension"
LABEXTENSION_NAME = "sandbox-kernel-labextension"


# ----------------------------------------------------------------------------- packaging
def test_built_assets_are_complete_and_small():
    built = json.loads((LABEXTENSION / "package.json").read_text())
    source = json.loads((ROOT / "labextension" / "package.json").read_text())
    assert built["name"] == source["name"] == LABEXTENSION_NAME
    assert built["version"] == source["version"]
    load = LABEXTENSION / built["jupyterlab"]["_build"]["load"]
    assert load.is_file(), f"{load} is missing: run `make labextension`"
    assert (LABEXTENSION / "install.json").is_file()
    static = list((LABEXTENSION / "static").iterdir())
    # our code and xterm.js (about 290 KB, the Sandbox terminal); JupyterLab's own packages are shared
    assert sum(f.stat().st_size for f in static) < 450_000, "the bundle should only hold our code and xterm.js"
    assert not any(f.suffix == ".map" for f in static), "no source maps in the shipped assets"


def test_committed_bundle_is_built_from_the_sources():
    """The build is deterministic (same sources, same hashed file names); `make labextension`
    records the hash of the sources it built from and of the bundle it built."""
    recorded = read_record((LABEXTENSION / "source.sha256").read_text())
    assert recorded.keys() == {SOURCES_NAME, BUNDLE_NAME}, recorded
    assert recorded[SOURCES_NAME] == source_hash(), "labextension/ changed without a rebuild: run `make labextension`"
    assert recorded[BUNDLE_NAME] == bundle_hash(), \
        "the committed bundle is not the one `make labextension` built: rebuild it rather than edit it"


def test_a_hand_edit_of_the_bundle_is_caught(tmp_path):
    bundle = tmp_path / "labextension"
    shutil.copytree(LABEXTENSION, bundle)
    assert bundle_hash(bundle) == bundle_hash()
    script = next((bundle / "static").glob("remoteEntry.*.js"))
    script.write_bytes(script.read_bytes() + b"\n// edited by hand\n")
    assert bundle_hash(bundle) != read_record((LABEXTENSION / "source.sha256").read_text())[BUNDLE_NAME]
    (bundle / "static" / "extra.js").write_text("")
    script.write_bytes((LABEXTENSION / "static" / script.name).read_bytes())
    assert bundle_hash(bundle) != bundle_hash()  # an added file counts too


def test_wheel_data_files_cover_the_built_assets():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data_files = config["tool"]["setuptools"]["data-files"]
    target = f"share/jupyter/labextensions/{LABEXTENSION_NAME}"
    shipped = set()
    for dest, patterns in data_files.items():
        for pattern in patterns:
            for path in ROOT.glob(pattern):
                shipped.add((dest, path.name))
    for path in LABEXTENSION.rglob("*"):
        if path.is_file() and path.name != "source.sha256":  # a check of the repository, not shipped
            dest = target if path.parent == LABEXTENSION else f"{target}/{path.parent.relative_to(LABEXTENSION)}"
            assert (dest, path.name) in shipped, f"{path} is not mapped into the wheel's data-files"


def test_jupyterlab_lists_the_extension_as_enabled():
    """The environment's own install (pip install . or `make`'s editable install + link)."""
    env = {k: v for k, v in os.environ.items() if k != "JUPYTER_PATH"}
    out = subprocess.run([sys.executable, "-m", "jupyter", "labextension", "list"], env=env,
                         capture_output=True, text=True, timeout=60)
    text = re.sub(r"\x1b\[[0-9;]*m", "", out.stdout + out.stderr)
    assert re.search(rf"{LABEXTENSION_NAME} v\S+ enabled OK", text), text


# ----------------------------------------------------------------------------- browser
@pytest.fixture(scope="module")
def lab(tmp_path_factory, jupyter_data_dir):
    skip_unless_browser()
    root = tmp_path_factory.mktemp("lab-ext")
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("echo hi > /workspace/a.txt"),
        nbformat.v4.new_code_cell("cat /workspace/a.txt; cat /workspace/upload.txt; ls /workspace"),
        nbformat.v4.new_code_cell("wc -c < /workspace/big.bin; sha256sum /workspace/big.bin"),
    ])
    nb.metadata["kernelspec"] = {"name": "sandbox", "display_name": "Sandbox", "language": "bash"}
    nbformat.write(nb, root / "files.ipynb")
    term = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("%%js\nconst answer = 6 * 7;"),
        nbformat.v4.new_code_cell("const answer = 6 * 7;"),
        nbformat.v4.new_code_cell("sleep 3; ls /workspace; echo listed"),
    ])
    term.metadata["kernelspec"] = nb.metadata["kernelspec"]
    nbformat.write(term, root / "term.ipynb")
    teach = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("nano notes.txt; echo nano-status=$?"),
        nbformat.v4.new_code_cell("cat notes.txt; echo end-of-notes"),
    ])
    teach.metadata["kernelspec"] = nb.metadata["kernelspec"]
    nbformat.write(teach, root / "teach.ipynb")
    vmterm = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        # what the VM terminal started must end with it (waits for that, 30 s at most)
        "%%vm --root\nfor i in $(seq 60); do pgrep -f 'sleep 100[1]' >/dev/null || break; sleep 0.5; done\n"
        "echo \"left=$(pgrep -c -f 'sleep 100[1]')\"")])
    vmterm.metadata["kernelspec"] = nb.metadata["kernelspec"]
    nbformat.write(vmterm, root / "vmterm.ipynb")
    host = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("cat data.csv"),
        nbformat.v4.new_code_cell("cat data.csv notes.md && tac data.csv > result.txt && echo made-result"),
        nbformat.v4.new_code_cell("%limits vfs_bytes=2M"),
    ])
    host.metadata["kernelspec"] = nb.metadata["kernelspec"]
    nbformat.write(host, root / "host.ipynb")
    (root / "data.csv").write_text("a,b\n1,2\n")
    (root / "notes.md").write_text("# notes\n")
    other = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    other.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(other, root / "other.ipynb")
    # own settings (no news prompt over the screenshot) and workspaces, not the user's
    settings = root / ".settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    extra = (f"--LabApp.user_settings_dir={root / '.settings'}",
             f"--LabApp.workspaces_dir={root / '.workspaces'}")
    with jupyterlab(root, jupyter_data_dir, extra, timeout=60) as (url, token):
        yield url, token, root


@pytest.mark.browser
@pytest.mark.timeout(150)
def test_sandbox_files_panel(lab, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    url, token, root = lab
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    driver = chrome("1280,800", {"download.default_directory": str(downloads),
                                 "download.prompt_for_download": False})
    screenshot = ROOT / "build" / "labextension.png"
    screenshot.parent.mkdir(exist_ok=True)
    page = LabPage(driver)
    css, row, until = page.css, page.row, page.until
    try:
        driver.get(f"{url}/lab/tree/files.ipynb?token={token}")
        until(lambda: css(".jp-Notebook .jp-Cell .cm-content"))
        until(page.idle)
        # the panel opens by itself for a sandbox kernel and lists /workspace
        until(lambda: css("#sandbox-files .jp-SandboxFiles-tree:not([hidden])"))
        assert "/workspace" in css("#sandbox-files .jp-SandboxFiles-path")[0].text.replace(" ", "")
        assert row("/workspace/a.txt") is None
        # JupyterLab's own server speaks the v1 websocket protocol: payloads travel as binary buffers
        until(lambda: css("#sandbox-files")[0].get_attribute("data-encoding") == "binary")

        # a shell cell writes the file: the watch event makes it appear without a refresh
        page.run_cell(0, "files.ipynb")
        until(lambda: page.row_detail("/workspace/a.txt") == "3 B")

        # open it in the editor and read it
        content = page.open_in_editor("/workspace/a.txt")
        until(lambda: content.text.strip() == "hi")
        driver.save_screenshot(str(screenshot))

        # edit and save back (Ctrl+S); the panel's size follows through the watch event
        content.click()
        content.send_keys(Keys.CONTROL, Keys.END)
        content.send_keys("there")
        content.send_keys(Keys.CONTROL, "s")
        until(lambda: page.row_detail("/workspace/a.txt") == "8 B")

        # upload through the panel's file input (the same chunked write path as drag-and-drop)
        local = tmp_path / "upload.txt"
        local.write_bytes(b"uploaded\n")
        css("#sandbox-files .jp-SandboxFiles-fileInput")[0].send_keys(str(local))
        until(lambda: row("/workspace/upload.txt"))

        # the kernel sees both through its shell
        page.run_cell(1, "files.ipynb")
        output = page.wait_output("uploaded")
        assert output.startswith("hi\nthereuploaded\n"), output  # the edit added no newline

        # drag-and-drop a file from the desktop: 5 MiB + 123 bytes goes as two chunked writes
        size = 5 * 1024 * 1024 + 123
        page.drop_file("big.bin", size)
        until(lambda: row("/workspace/big.bin"))
        page.run_cell(2, "files.ipynb")
        expected = hashlib.sha256(bytes(i % 251 for i in range(size))).hexdigest()
        page.wait_output(expected)
        assert f"{size}\n{expected}" in "\n".join(page.outputs())

        # download through the context menu: the browser saves the bytes
        page.context_menu("/workspace/a.txt", "Download")
        until(lambda: (downloads / "a.txt").is_file() and (downloads / "a.txt").read_bytes())
        assert (downloads / "a.txt").read_bytes() == b"hi\nthere"

        # delete through the context menu, with a confirmation dialog
        page.context_menu("/workspace/upload.txt", "Delete")
        until(lambda: css(".jp-Dialog .jp-mod-accept"))
        assert "upload.txt" in css(".jp-Dialog-body")[0].text
        css(".jp-Dialog .jp-mod-accept")[0].click()
        until(lambda: row("/workspace/upload.txt") is None)

        # new folder (toolbar) and rename (F2), each through a dialog
        css('#sandbox-files .jp-SandboxFiles-button[data-command="new-folder"]')[0].click()
        until(lambda: css(".jp-Dialog input"))
        css(".jp-Dialog input")[0].send_keys("sub")
        css(".jp-Dialog .jp-mod-accept")[0].click()
        until(lambda: row("/workspace/sub") and row("/workspace/sub").get_attribute("data-type") == "dir")
        page.on_row("/workspace/a.txt", lambda e: e.click())
        driver.switch_to.active_element.send_keys(Keys.F2)
        until(lambda: css(".jp-Dialog input"))
        field = css(".jp-Dialog input")[0]
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys("sub/b.txt")
        css(".jp-Dialog .jp-mod-accept")[0].click()
        until(lambda: row("/workspace/a.txt") is None)
        page.on_row("/workspace/sub", lambda e: e.click())  # expand
        until(lambda: row("/workspace/sub/b.txt"))

        # a kernel restart gives a fresh sandbox: the panel reconnects and re-lists
        [e for e in css(".lm-MenuBar-item") if e.text == "Kernel"][0].click()
        until(lambda: [e for e in css(".lm-Menu-item") if e.text.startswith("Restart Kernel…")])
        [e for e in css(".lm-Menu-item") if e.text.startswith("Restart Kernel…")][0].click()
        until(lambda: css(".jp-Dialog .jp-mod-accept"))
        css(".jp-Dialog .jp-mod-accept")[0].click()
        until(lambda: row("/workspace/sub") is None)
        until(page.idle)
        page.run_cell(0, "files.ipynb")
        until(lambda: row("/workspace/a.txt"))

        # the breadcrumb goes to / and shows the top-level directories
        [e for e in css(".jp-SandboxFiles-crumb") if e.get_attribute("data-root") == "/"][0].click()
        until(lambda: row("/workspace") and row("/tmp"))

        # a notebook with another kernel: the panel says so; back on the sandbox notebook, files again
        if not css("#filebrowser")[0].is_displayed():
            css('.jp-SideBar .lm-TabBar-tab[data-id="filebrowser"]')[0].click()
        until(lambda: [e for e in css(".jp-DirListing-item") if "other.ipynb" in e.text])
        item = [e for e in css(".jp-DirListing-item") if "other.ipynb" in e.text][0]
        ActionChains(driver).double_click(item).perform()
        if not css("#sandbox-files")[0].is_displayed():  # the right sidebar stays open beside the file browser
            css('.jp-SideBar .lm-TabBar-tab[data-id="sandbox-files"]')[0].click()
        until(lambda: "does not use the Sandbox kernel" in css("#sandbox-files .jp-SandboxFiles-message")[0].text)
        assert not css("#sandbox-files .jp-SandboxFiles-tree")[0].is_displayed()
        [t for t in css(".lm-DockPanel-tabBar .lm-TabBar-tab") if "files.ipynb" in t.text][0].click()
        until(lambda: row("/workspace"))
    except Exception:
        report_failure(driver, screenshot, root / "lab.log")
        raise
    finally:
        driver.quit()


def _dir_item(page, name: str):
    found = [e for e in page.css(".jp-DirListing-item") if e.get_attribute("title") and
             e.find_element("css selector", ".jp-DirListing-itemText").text == name]
    return found[0] if found else None


@pytest.mark.browser
@pytest.mark.timeout(200)
def test_host_files_come_in_and_go_out_through_the_frontend(lab):
    """Issue #31: files beside the notebook are outside the sandbox. `cat` of one says how to bring
    it in; a drag from Lab's file browser onto "Sandbox files" and the file browser's "Copy into
    Sandbox" copy them in (read by the frontend through the contents API, never by the kernel);
    "Save to Notebook Folder" writes a sandbox file next to the notebook; an upload over the quota
    is refused before any byte goes, saying how to raise it, and leaves nothing; the Help menu
    opens the kernel's reference."""
    from selenium.webdriver.common.action_chains import ActionChains

    url, token, root = lab
    driver = chrome("1400,900")
    page = LabPage(driver)
    css, until, row = page.css, page.until, page.row
    try:
        page.open(url, token, "host.ipynb")
        until(lambda: css("#sandbox-files .jp-SandboxFiles-tree:not([hidden])"))
        panel = css("#sandbox-files")[0]
        until(lambda: int(panel.get_attribute("data-host-names") or 0) > 0)  # the kernel has the names
        page.run_cell(0, "host.ipynb")
        hint = page.wait_output("No such file")
        assert "data.csv is in the notebook's folder on the host" in hint and "Copy into Sandbox" in hint, hint

        # drag data.csv from JupyterLab's file browser (left) onto "Sandbox files" (right)
        if not css("#filebrowser")[0].is_displayed():
            css('.jp-SideBar .lm-TabBar-tab[data-id="filebrowser"]')[0].click()
        until(lambda: _dir_item(page, "data.csv"))
        target = css("#sandbox-files .jp-SandboxFiles-tree")[0]
        ActionChains(driver).click_and_hold(_dir_item(page, "data.csv")).move_by_offset(30, 5) \
            .move_to_element(target).move_by_offset(0, 10).release().perform()
        until(lambda: row("/workspace/data.csv"))
        # the file browser's context menu: Copy into Sandbox
        ActionChains(driver).context_click(_dir_item(page, "notes.md")).perform()
        until(lambda: [e for e in css(".lm-Menu-item") if e.text.startswith("Copy into Sandbox")])
        [e for e in css(".lm-Menu-item") if e.text.startswith("Copy into Sandbox")][0].click()
        until(lambda: row("/workspace/notes.md"))
        page.run_cell(1, "host.ipynb")
        assert "a,b\n1,2\n# notes\nmade-result" in page.wait_output("made-result")

        # Save to Notebook Folder: the result next to the notebook, with the user's rights
        until(lambda: row("/workspace/result.txt"))
        page.context_menu("/workspace/result.txt", "Save to Notebook Folder")
        until(lambda: (root / "result.txt").is_file() and (root / "result.txt").read_text() == "1,2\na,b\n")

        # an upload that cannot fit is refused before any byte goes, saying how to raise the quota
        page.run_cell(2, "host.ipynb")
        until(page.idle)
        page.drop_file("too-big.bin", 3 * 1024 * 1024)
        until(lambda: css(".jp-Dialog-body") and "vfs_bytes" in css(".jp-Dialog-body")[0].text)
        message = css(".jp-Dialog-body")[0].text
        assert "too-big.bin is 3.0 MiB" in message and "%limits vfs_bytes=4M" in message, message
        css(".jp-Dialog-footer button")[-1].click()  # Dismiss
        until(lambda: not css(".jp-Dialog"))
        assert row("/workspace/too-big.bin") is None

        # the Help menu has the kernel's reference
        [e for e in css(".lm-MenuBar-item") if e.text == "Help"][0].click()
        until(lambda: [e for e in css(".lm-Menu-item") if e.text.startswith("Sandbox Kernel Reference")])
        [e for e in css(".lm-Menu-item") if e.text.startswith("Sandbox Kernel Reference")][0].click()
        until(lambda: css(".jp-SandboxHelp") and "Copy into Sandbox" in css(".jp-SandboxHelp")[0].text)
    except Exception:
        report_failure(driver, ROOT / "build" / "host-files.png", root / "lab.log")
        raise
    finally:
        driver.quit()


@pytest.mark.browser
@pytest.mark.timeout(150)
def test_a_console_gets_the_files_panel_and_a_terminal(lab):
    """Issue #31: a JupyterLab console with the Sandbox kernel is followed like a notebook: the
    panel shows its files and opens a Sandbox terminal on its kernel."""
    from selenium.webdriver.common.keys import Keys

    url, token, root = lab
    driver = chrome("1280,900")
    page = LabPage(driver)
    css, until = page.css, page.until
    try:
        driver.get(f"{url}/lab?reset&token={token}")
        until(lambda: css(".jp-LauncherCard"))
        cards = lambda: [c for c in css(".jp-LauncherCard") if c.get_attribute("data-category") == "Console"
                         and "Sandbox" in c.text]
        until(cards)
        cards()[0].click()
        until(lambda: css(".jp-CodeConsole-promptCell .cm-content"))
        until(lambda: css("#sandbox-files .jp-SandboxFiles-tree:not([hidden])"))
        prompt = css(".jp-CodeConsole-promptCell .cm-content")[0]
        prompt.click()
        prompt.send_keys("echo from-console > /workspace/console.txt")
        prompt.send_keys(Keys.SHIFT, Keys.ENTER)
        until(lambda: page.row("/workspace/console.txt"))
        css('#sandbox-files .jp-SandboxFiles-button[data-command="terminal"]')[0].click()
        until(lambda: "user@sandbox:/workspace$" in page.terminal_screen())
        page.terminal_keys("cat console.txt", Keys.ENTER)
        until(lambda: "\nfrom-console\n" in page.terminal_screen())
    except Exception:
        report_failure(driver, ROOT / "build" / "console.png", root / "lab.log")
        raise
    finally:
        driver.quit()


def token_classes(driver, cell: int, word: str) -> str:
    """The CSS classes of the highlighted token ``word`` in cell ``cell``'s editor."""
    return driver.execute_script("""
        const line = document.querySelectorAll('.jp-Notebook .jp-Cell .cm-content')[arguments[0]];
        for (const span of line.querySelectorAll('span'))
            if (span.textContent === arguments[1]) return span.className;
        return '';""", cell, word)


@pytest.mark.browser
@pytest.mark.timeout(150)
def test_js_cells_are_highlighted_as_javascript(lab):
    """A `%%js` cell's editor is JavaScript: `const` is a keyword there, plain text in a shell cell."""
    url, token, root = lab
    driver = chrome("1280,800")
    page = LabPage(driver)
    try:
        page.open(url, token, "term.ipynb")
        page.until(lambda: token_classes(driver, 0, "const"))
        assert token_classes(driver, 1, "const") == "", "shell cells stay shell"
        keyword = token_classes(driver, 0, "const")
        # typing %%js into a shell cell switches it; removing the magic switches it back
        editor = page.css(".jp-Notebook .jp-Cell .cm-content")[1]
        editor.click()
        from selenium.webdriver.common.keys import Keys
        editor.send_keys(Keys.CONTROL, Keys.HOME)
        editor.send_keys("%%js", Keys.ENTER)
        page.until(lambda: token_classes(driver, 1, "const") == keyword)
        editor.send_keys(Keys.CONTROL, Keys.HOME)
        editor.send_keys(Keys.SHIFT, Keys.DOWN)
        editor.send_keys(Keys.DELETE)
        page.until(lambda: token_classes(driver, 1, "const") == "")
    except Exception:
        report_failure(driver, ROOT / "build" / "highlight.png", root / "lab.log")
        raise
    finally:
        driver.quit()


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_sandbox_terminal(lab):
    """The Sandbox terminal: a prompt, a command and its output, line editing (a loop over two
    lines, Tab, Ctrl-R), a resize the shell sees in COLUMNS, Ctrl-C of a sleep, closing stops the
    running command, Ctrl-D exits."""
    from selenium.webdriver.common.keys import Keys

    url, token, root = lab
    driver = chrome("1280,900")
    page = LabPage(driver)
    screenshot = ROOT / "build" / "terminal.png"
    screenshot.parent.mkdir(exist_ok=True)

    screen, type_keys = page.terminal_screen, page.terminal_keys

    def open_terminal() -> None:
        page.css('#sandbox-files .jp-SandboxFiles-button[data-command="terminal"]')[0].click()
        page.until(lambda: "user@sandbox:/workspace$" in screen())

    try:
        page.open(url, token, "term.ipynb")
        page.until(lambda: page.css("#sandbox-files .jp-SandboxFiles-tree:not([hidden])"))
        open_terminal()
        type_keys("echo hello-$((6*7))", Keys.ENTER)
        page.until(lambda: "hello-42" in screen())
        # line editing: cursor left twice, backspace, insert
        type_keys("echo abc", Keys.LEFT, Keys.LEFT, Keys.BACKSPACE, "X", Keys.ENTER)
        page.until(lambda: "\nXbc" in screen())
        # history: Up brings back the last command
        type_keys(Keys.UP, Keys.UP, Keys.ENTER)
        page.until(lambda: screen().count("hello-42") == 2)
        # bash's line editing (issue #31): a loop typed over two lines runs once complete (PS2
        # between), Tab completes a file name, Ctrl-R finds the loop again and Enter runs it
        type_keys("for n in 1 2; do", Keys.ENTER)
        page.until(lambda: screen().rstrip().endswith("\n>"))
        type_keys("echo loop-$n; done", Keys.ENTER)
        page.until(lambda: "\nloop-1\nloop-2\n" in screen())
        type_keys("echo tabbed > tab-target.txt", Keys.ENTER, "cat tab-ta", Keys.TAB)
        page.until(lambda: "cat tab-target.txt" in screen())
        type_keys(Keys.ENTER)
        page.until(lambda: "\ntabbed\n" in screen())
        type_keys(Keys.CONTROL, "r")
        type_keys("loop-")
        page.until(lambda: "(reverse-i-search)`loop-': for n in 1 2; do echo loop-$n; done" in screen())
        type_keys(Keys.ENTER)
        page.until(lambda: screen().count("\nloop-1\nloop-2\n") == 2)
        driver.save_screenshot(str(screenshot))

        # resize: the fit addon follows the window, the shell sees the new size
        def columns(name: str) -> int:
            type_keys(f"echo {name}=$COLUMNS", Keys.ENTER)
            page.until(lambda: re.search(rf"^{name}=(\d+)$", screen(), re.M))
            return int(re.search(rf"^{name}=(\d+)$", screen(), re.M).group(1))
        wide = columns("wide")
        width = "return document.querySelector('.jp-SandboxTerminal .xterm-screen').clientWidth"
        before = driver.execute_script(width)
        driver.set_window_size(800, 900)
        page.until(lambda: driver.execute_script(width) < before)  # the fit ran: the kernel has the size
        narrow = columns("narrow")
        assert 20 < narrow < wide and wide > 80, (narrow, wide)  # 80: xterm's size before the fit

        # Ctrl-C interrupts a running command and gives the prompt back
        # (the window is narrow now: a command line wraps, so look for it with the rows joined)
        type_keys("sleep 100", Keys.ENTER)
        page.until(lambda: "sleep 100" in screen().replace("\n", ""))
        type_keys(Keys.CONTROL, "c")
        # (rows scroll off the narrow screen: look for ^C and a prompt on the last row)
        page.until(lambda: "^C" in screen() and screen().rstrip().splitlines()[-1].startswith("user@sandbox:"))

        # closing the tab stops what runs in it: the file is never written
        type_keys("sleep 2; echo leaked > /workspace/leak.txt", Keys.ENTER)
        page.until(lambda: "leak.txt" in screen().replace("\n", ""))
        page.close_tab("Sandbox terminal")
        page.until(lambda: not page.css(".jp-SandboxTerminal"))
        page.run_cell(2, "term.ipynb")  # waits 3 s in the kernel, then lists the folder
        assert "leak.txt" not in page.wait_output("listed")

        # Ctrl-D on an empty line ends the shell
        open_terminal()
        type_keys(Keys.CONTROL, "d")
        page.until(lambda: "the shell exited (status 0)" in screen().replace("\n", ""))
    except Exception:
        report_failure(driver, screenshot, root / "lab.log")
        raise
    finally:
        driver.quit()


@pytest.mark.browser
@pytest.mark.timeout(150)
def test_nano_in_a_cell_opens_the_editor_and_waits_for_it(lab):
    """`nano notes.txt` (a file that does not exist yet) opens an editor tab; the cell runs until
    the tab is saved and closed, then the shell sees what was saved."""
    from selenium.webdriver.common.keys import Keys

    url, token, root = lab
    driver = chrome("1280,800")
    page = LabPage(driver)
    css, until = page.css, page.until
    try:
        page.open(url, token, "teach.ipynb")
        until(lambda: css("#sandbox-files .jp-SandboxFiles-tree:not([hidden])"))
        page.run_cell(0, "teach.ipynb")
        until(lambda: css('.jp-SandboxFileEditor[data-path="/workspace/notes.txt"] .cm-content'))
        content = css('.jp-SandboxFileEditor[data-path="/workspace/notes.txt"] .cm-content')[0]
        content.click()
        content.send_keys("typed in the editor")
        # the keys are in the document before Ctrl+S is sent (on a loaded machine they lag)
        until(lambda: "typed in the editor" in content.text)
        assert not any("nano-status" in o for o in page.outputs())  # the cell still waits
        content.send_keys(Keys.CONTROL, "s")
        state = css(".jp-SandboxFileEditor .jp-SandboxFileEditor-state")[0]
        until(lambda: state.text == "saved")
        # the save's own change event (the panel shows the new size) leaves "saved" standing
        until(lambda: "19 B" in css("#sandbox-files .jp-SandboxFiles-tree")[0].text)
        assert state.text == "saved"
        tab = [t for t in css(".lm-DockPanel-tabBar .lm-TabBar-tab") if t.text.strip() == "notes.txt"][0]
        tab.find_element("css selector", ".lm-TabBar-tabCloseIcon").click()
        assert page.wait_output("nano-status").strip() == "nano-status=0"
        # what the cell said while it waited (the notebook was behind the editor's tab)
        assert "waiting until the tab is closed" in page.wait_output("waiting until")
        until(page.idle)
        page.run_cell(1, "teach.ipynb")
        # as saved: the editor adds no newline at the end
        assert page.wait_output("end-of-notes").strip() == "typed in the editorend-of-notes"
    except Exception:
        report_failure(driver, ROOT / "build" / "nano.png", root / "lab.log")
        raise
    finally:
        driver.quit()


@pytest.mark.browser
@pytest.mark.vm
@pytest.mark.slow
@pytest.mark.timeout(400)
def test_sandbox_vm_terminal(lab):
    """The Sandbox VM terminal: a login shell in the notebook's VM (boot progress first), a
    command, a resize the pty follows (stty size), Ctrl-C of a sleep; closing the tab ends
    what the shell started (a %%vm cell sees no trace of it)."""
    from selenium.webdriver.common.keys import Keys

    require(qemu_available())
    asyncio.run(ensure_image(print))  # built once (cached): the terminal would otherwise build it
    url, token, root = lab
    driver = chrome("1280,900")
    page = LabPage(driver, timeout=180)
    screenshot = ROOT / "build" / "vm-terminal.png"
    screenshot.parent.mkdir(exist_ok=True)
    screen, type_keys = page.terminal_screen, page.terminal_keys

    def size() -> tuple[int, int]:
        marks = len(re.findall(r"^size=", screen(), re.M))
        type_keys("echo size=$(stty size)", Keys.ENTER)
        page.until(lambda: len(re.findall(r"^size=\d+ \d+$", screen(), re.M)) > marks)
        rows, cols = re.findall(r"^size=(\d+) (\d+)$", screen(), re.M)[-1]
        return int(rows), int(cols)

    try:
        page.open(url, token, "vmterm.ipynb")
        page.until(lambda: page.css("#sandbox-files .jp-SandboxFiles-tree:not([hidden])"))
        # from the launcher (the panel has a button too): a card in "Other"
        [b for b in page.css(".lm-TabBar-addButton") if b.is_displayed()][0].click()
        def card():
            return [c for c in page.css(".jp-LauncherCard") if " ".join(c.text.split()).endswith("Sandbox VM terminal")]
        page.until(card)
        card()[0].click()
        page.until(lambda: "user@vm:/workspace$" in screen())
        assert [t for t in page.css(".lm-DockPanel-tabBar .lm-TabBar-tab") if "Sandbox VM terminal" in t.text]
        type_keys("echo hello-$((6*7)) $(id -un)", Keys.ENTER)
        page.until(lambda: "hello-42 user" in screen())
        driver.save_screenshot(str(screenshot))

        # resize: the fit addon follows the window, the guest's pty gets the size
        _, wide = size()
        width = "return document.querySelector('.jp-SandboxTerminal .xterm-screen').clientWidth"
        before = driver.execute_script(width)
        driver.set_window_size(800, 900)
        page.until(lambda: driver.execute_script(width) < before)
        page.until(lambda: size()[1] < wide)

        # Ctrl-C goes to the guest's line discipline: the sleep ends with SIGINT (once it
        # prints "started" it is the foreground process group)
        type_keys("bash -c 'echo started; exec sleep 100'", Keys.ENTER)
        page.until(lambda: re.search(r"^started$", screen(), re.M))
        type_keys(Keys.CONTROL, "c")
        type_keys("echo st=$?", Keys.ENTER)
        page.until(lambda: re.search(r"^st=130$", screen(), re.M))

        # closing the tab ends the shell and what it left running in the background
        type_keys("sleep 1001 & setsid sleep 1001 & echo started-$((1+1))", Keys.ENTER)
        page.until(lambda: re.search(r"^started-2$", screen(), re.M))
        page.close_tab("Sandbox VM terminal")
        page.until(lambda: not page.css(".jp-SandboxTerminal"))
        page.run_cell(0, "vmterm.ipynb")
        assert "left=0" in page.wait_output("left=")
    except Exception:
        report_failure(driver, screenshot, root / "lab.log")
        raise
    finally:
        driver.quit()


def _api(url: str, token: str, method: str, path: str, body: dict | None = None):
    import urllib.request

    request = urllib.request.Request(f"{url}/api/{path}", method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": f"token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        text = reply.read()
    return json.loads(text) if text else None


@pytest.mark.browser
@pytest.mark.timeout(240)
def test_a_renamed_notebook_keeps_its_persistent_workspace(lab, jupyter_data_dir):
    """--persist: the extension gives the notebook a workspace id (its metadata) and tells the
    kernel its path; renamed in JupyterLab while its kernel runs, then restarted, the notebook
    has its files; renamed again while no kernel runs, reopened, it has them still."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    url, token, root = lab
    install("sandbox-persist", prefix=str(Path(jupyter_data_dir).parents[1]), policy_argv=["--persist"])
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("echo kept > /workspace/kept.txt; echo written"),
        nbformat.v4.new_code_cell("cat /workspace/kept.txt; echo read-back"),
    ])
    nb.metadata["kernelspec"] = {"name": "sandbox-persist", "display_name": "Sandbox (persist)", "language": "bash"}
    nbformat.write(nb, root / "Untitled.ipynb")
    driver = chrome("1280,800")
    page = LabPage(driver)
    css, until = page.css, page.until

    def kernel_of(name: str) -> str:
        return [s["kernel"]["id"] for s in _api(url, token, "GET", "sessions") if s["path"] == name][0]

    def notebook_tab(name: str):
        return [t for t in css(".lm-DockPanel-tabBar .lm-TabBar-tab") if t.text.strip() == name][0]

    try:
        page.open(url, token, "Untitled.ipynb")
        until(lambda: css("#sandbox-files .jp-SandboxFiles-tree:not([hidden])"))
        page.run_cell(0, "Untitled.ipynb")
        page.wait_output("written")
        until(lambda: page.row("/workspace/kept.txt"))
        until(page.idle)
        # rename in JupyterLab (the tab's context menu), with the kernel running
        ActionChains(driver).context_click(notebook_tab("Untitled.ipynb")).perform()
        until(lambda: [m for m in css(".lm-Menu-item") if m.text.startswith("Rename Notebook")])
        [m for m in css(".lm-Menu-item") if m.text.startswith("Rename Notebook")][0].click()
        until(lambda: css(".jp-Dialog input"))
        field = css(".jp-Dialog input")[0]
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys("analysis.ipynb")
        css(".jp-Dialog .jp-mod-accept")[0].click()
        until(lambda: (root / "analysis.ipynb").exists() and notebook_tab("analysis.ipynb"))
        # the notebook keeps its workspace id: saved with it
        css(".jp-Notebook .jp-Cell .jp-InputArea-prompt")[0].click()
        driver.find_element("css selector", "body").send_keys(Keys.CONTROL, "s")
        until(lambda: "workspace" in json.loads((root / "analysis.ipynb").read_text())["metadata"].get(
            "sandbox_kernel", {}))
        workspace = json.loads((root / "analysis.ipynb").read_text())["metadata"]["sandbox_kernel"]["workspace"]
        # restarted as a user does (Kernel menu): the panel reopens its comm, which shows notices
        opens = css("#sandbox-files")[0].get_attribute("data-comm-opens")
        [e for e in css(".lm-MenuBar-item") if e.text == "Kernel"][0].click()
        until(lambda: [e for e in css(".lm-Menu-item") if e.text.startswith("Restart Kernel…")])
        [e for e in css(".lm-Menu-item") if e.text.startswith("Restart Kernel…")][0].click()
        until(lambda: css(".jp-Dialog .jp-mod-accept"))
        css(".jp-Dialog .jp-mod-accept")[0].click()
        until(lambda: css("#sandbox-files")[0].get_attribute("data-comm-opens") != opens)
        until(page.idle)
        page.run_cell(1, "analysis.ipynb")
        assert "kept\nread-back" in page.wait_output("read-back")
        # the notice is a notification, not output the notebook would save (issue #31)
        until(lambda: any("restored 1 files" in t.text for t in css(".jp-toast-message")))
        assert not any("restored" in o for o in page.outputs())

        # renamed while no kernel runs (the notebook closed, its kernel shut down)
        _api(url, token, "DELETE", "sessions/" + [s["id"] for s in _api(url, token, "GET", "sessions")
                                                  if s["path"] == "analysis.ipynb"][0])
        driver.get(f"{url}/lab?reset&token={token}")
        until(lambda: css(".jp-Launcher") or not css(".jp-Notebook"))
        _api(url, token, "PATCH", "contents/analysis.ipynb", {"path": "final.ipynb"})
        page.open(url, token, "final.ipynb")
        until(lambda: page.row("/workspace/kept.txt"))  # restored once the comm told the kernel
        until(page.idle)
        page.run_cell(1, "final.ipynb")
        assert "kept\nread-back" in page.wait_output("read-back")
        until(lambda: [t for t in css(".jp-toast-message") if "renamed from" in t.text])
        notice = [t for t in css(".jp-toast-message") if "renamed from" in t.text][0].text
        assert "workspace of this notebook restored" in notice and "analysis.ipynb): 1 files" in notice, notice
        nb_now = json.loads((root / "final.ipynb").read_text())
        assert nb_now["metadata"]["sandbox_kernel"]["workspace"] == workspace
    except Exception:
        report_failure(driver, ROOT / "build" / "workspace-rename.png", root / "lab.log")
        raise
    finally:
        driver.quit()
