"""JupyterLab through Jupyter Kernel Gateway (`jupyter lab --gateway-url`), in Chromium: cells,
streaming output and interrupts reach the kernel through the gateway, and the Sandbox files panel
opens, edits, uploads (5 MiB) and downloads although jupyter_server's gateway relay passes binary
websocket frames on as text: the panel's comm carries its payloads as base64 there
(docs/comm-protocol.md). Screenshot: build/kernel-gateway.png.
And the REST API and kernel websocket of Kernel Gateway and of Enterprise Gateway 3.3 (from its own
venv: it pins jupyter-client<7), driven directly. JupyterLab through Enterprise Gateway is not
tested: its websocket breaks before any of our messages (docs/deploy.md)."""
import base64
import hashlib
import uuid
from pathlib import Path

import nbformat
import pytest

from tests.support.browserlab import (LabPage, chrome, jupyterlab, kernel_gateway, lab_args, report_failure,
                                      skip_unless_browser)
from tests.support.wsclient import GatewayKernel

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lab(tmp_path_factory, jupyter_data_dir):
    skip_unless_browser()
    kind = "kernel"
    root = tmp_path_factory.mktemp(f"lab-{kind}-gateway")
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("for i in 1 2 3; do echo tick $i; sleep 0.2; done; echo hi > /workspace/a.txt"),
        nbformat.v4.new_code_cell("echo started; sleep 100"),
        nbformat.v4.new_code_cell("cat /workspace/a.txt; echo; wc -c < /workspace/big.bin; "
                                  "sha256sum /workspace/big.bin"),
    ])
    nb.metadata["kernelspec"] = {"name": "sandbox", "display_name": "Sandbox", "language": "bash"}
    nbformat.write(nb, root / "gateway.ipynb")
    settings = root / ".settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    with kernel_gateway(root, jupyter_data_dir, kind) as (gateway_url, gateway_token):
        extra = (f"--LabApp.user_settings_dir={root / '.settings'}",
                 f"--LabApp.workspaces_dir={root / '.workspaces'}", *lab_args(gateway_url, gateway_token))
        with jupyterlab(root, jupyter_data_dir, extra) as (url, token):
            yield url, token, root, kind


@pytest.mark.browser
@pytest.mark.timeout(240)
def test_lab_through_kernel_gateway(lab, tmp_path):
    from selenium.webdriver.common.keys import Keys

    url, token, root, kind = lab
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    driver = chrome("1280,800", {"download.default_directory": str(downloads),
                                 "download.prompt_for_download": False})
    screenshot = ROOT / "build" / f"{kind}-gateway.png"
    screenshot.parent.mkdir(exist_ok=True)
    page = LabPage(driver, timeout=90)
    css, until = page.css, page.until
    try:
        page.open(url, token, "gateway.ipynb")
        # a cell through the gateway, its output streamed line by line
        page.run_cell(0)
        page.wait_output("tick 3")
        # the panel lists the files and follows the cell's change through the watch event
        until(lambda: page.row_detail("/workspace/a.txt") == "3 B")
        # through the gateway relay the comm negotiated base64 (binary frames would be lost)
        assert css("#sandbox-files")[0].get_attribute("data-encoding") == "base64"

        # open, edit, save
        content = page.open_in_editor("/workspace/a.txt")
        until(lambda: content.text.strip() == "hi")
        content.click()
        content.send_keys(Keys.CONTROL, Keys.END)
        content.send_keys("gateway")
        content.send_keys(Keys.CONTROL, "s")
        until(lambda: page.row_detail("/workspace/a.txt") == "10 B")

        # upload 5 MiB + 123 bytes (two chunks) by drag-and-drop; the shell sees the same bytes
        size = 5 * 1024 * 1024 + 123
        page.drop_file("big.bin", size)
        until(lambda: page.row_detail("/workspace/big.bin") == "5.0 MiB")
        page.run_cell(2, "gateway.ipynb")
        expected = hashlib.sha256(bytes(i % 251 for i in range(size))).hexdigest()
        output = page.wait_output(expected)
        assert output.startswith("hi\ngateway\n" + str(size)), output

        # download: the bytes reach the browser's download folder
        page.context_menu("/workspace/a.txt", "Download")
        until(lambda: (downloads / "a.txt").is_file() and (downloads / "a.txt").read_bytes())
        assert (downloads / "a.txt").read_bytes() == b"hi\ngateway"

        # interrupt a running cell through the gateway
        page.run_cell(1, "gateway.ipynb")
        page.wait_output("started")
        css('.jp-NotebookPanel-toolbar [data-command="notebook:interrupt-kernel"]')[0].click()
        page.wait_output("interrupted")
        until(page.idle)
        driver.save_screenshot(str(screenshot))
    except Exception:
        report_failure(driver, screenshot, root / "lab.log", root / f"{kind}-gateway.log")
        raise
    finally:
        driver.quit()


@pytest.fixture(params=["kernel", "enterprise"])
def gateway(request, tmp_path, jupyter_data_dir):
    with kernel_gateway(tmp_path, jupyter_data_dir, request.param) as (url, token):
        kernel = GatewayKernel(url, token)
        try:
            yield kernel
        finally:
            kernel.close()


@pytest.mark.timeout(120)
def test_gateway_rest_and_websocket(gateway):
    """The gateway's own REST API and kernel websocket (no jupyter_server relay in between), for
    Kernel Gateway and for Enterprise Gateway 3.3 from its own venv with the kernel in ours:
    streamed output, an interrupt by REST, and the VFS comm in both encodings."""
    kernel = gateway
    msg_id = kernel.execute("for i in 1 2 3; do echo tick $i; sleep 0.2; done")
    reply, before = kernel.wait_for(
        lambda m: m["msg_type"] == "execute_reply" and m["parent_header"]["msg_id"] == msg_id)
    ticks = [m["content"]["text"] for m in before if m["msg_type"] == "stream"]
    assert reply["content"]["status"] == "ok" and "".join(ticks) == "tick 1\ntick 2\ntick 3\n"
    assert len(ticks) >= 2, "the output arrived in one piece, not streamed"

    msg_id = kernel.execute("echo started; sleep 100")
    kernel.wait_for(lambda m: m["msg_type"] == "stream" and "started" in m["content"]["text"])
    kernel.rest("POST", f"/api/kernels/{kernel.id}/interrupt")
    reply, _ = kernel.wait_for(lambda m: m["msg_type"] == "execute_reply" and m["parent_header"]["msg_id"] == msg_id,
                               timeout=20)
    assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "Interrupted"

    data = bytes(range(256)) * 40 + b"\0\xff"
    for encoding in ("binary", "base64"):
        comm_id = uuid.uuid4().hex
        kernel.send("comm_open", {"comm_id": comm_id, "target_name": "sandbox.vfs", "data": {"encoding": encoding}})
        assert kernel.comm_reply(comm_id, "open")["content"]["data"]["encoding"] == encoding
        path = f"/workspace/{encoding}.bin"
        if encoding == "binary":
            kernel.send("comm_msg", {"comm_id": comm_id, "data": {"id": "w", "op": "write", "path": path}}, [data])
        else:
            kernel.send("comm_msg", {"comm_id": comm_id, "data": {"id": "w", "op": "write", "path": path,
                                                                  "buffers_base64": [base64.b64encode(data).decode()]}})
        assert kernel.comm_reply(comm_id, "w")["content"]["data"]["result"]["size"] == len(data)
        kernel.send("comm_msg", {"comm_id": comm_id, "data": {"id": "r", "op": "read", "path": path}})
        read = kernel.comm_reply(comm_id, "r")
        if encoding == "binary":
            assert read["buffers"] == [data]
        else:
            assert not read["buffers"] and base64.b64decode(read["content"]["data"]["buffers_base64"][0]) == data


@pytest.mark.timeout(120)
def test_enterprise_gateway_kernel_gets_the_admins_policy(tmp_path, jupyter_data_dir):
    """A kernelspec written with `install --policy-in-env` (the route EG's kernel pods take: the
    policy in the spec's env, not its argv) started by Enterprise Gateway: the admin's wall time
    and ceiling hold in the kernel."""
    import os

    from sandbox_kernel.kernel.install import install

    prefix = tmp_path / "prefix"
    install("sandbox-eg-policy", prefix=str(prefix), policy_in_env=True,
            policy_argv=["--limit", "wall_time=2", "--max-limit", "wall_time=5"])
    path = os.pathsep.join([str(prefix / "share" / "jupyter"), jupyter_data_dir])
    with kernel_gateway(tmp_path, path, "enterprise") as (url, token):
        kernel = GatewayKernel(url, token, "sandbox-eg-policy")
        try:
            for code, expected in (("%limits wall_time=10", "ceiling of 5 s"), ("sleep 3", "(2 s;")):
                msg_id = kernel.execute(code)
                reply, _ = kernel.wait_for(lambda m: m["msg_type"] == "execute_reply"
                                           and m["parent_header"]["msg_id"] == msg_id, timeout=30)
                assert reply["content"]["status"] == "error" and expected in reply["content"]["evalue"], reply
        finally:
            kernel.close()
