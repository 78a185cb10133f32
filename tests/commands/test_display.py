"""display (commands/display.py) and the MIME bundles it makes (commands/_lib/mimebundle.py)."""
import base64

import pytest

from sandbox_kernel.commands._lib.mimebundle import DisplayError, guess_type, make_bundle, resolve_type
from sandbox_kernel.sandbox import Sandbox
from scripts.make_logos import png


def test_display_bundles():
    logo = png(32)
    bundle = make_bundle(logo, guess_type("x.png", logo), "x.png")
    assert base64.b64decode(bundle["image/png"]) == logo
    assert "32x32" in bundle["text/plain"]
    assert guess_type("noext", logo) == "image/png"
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'
    assert guess_type("pic", svg) == "image/svg+xml"
    assert make_bundle(svg, "image/svg+xml")["image/svg+xml"].startswith("<svg")
    assert make_bundle(b'{"a": [1, 2]}', "application/json")["application/json"] == {"a": [1, 2]}
    assert make_bundle(b"# T", guess_type("r.md", b"# T")) == {"text/markdown": "# T", "text/plain": "# T"}
    with pytest.raises(DisplayError, match="invalid JSON"):
        make_bundle(b"{", "application/json", "x.json")
    with pytest.raises(DisplayError, match="not a image/png file"):
        make_bundle(b"hello", "image/png", "fake.png")
    with pytest.raises(DisplayError, match="not UTF-8"):
        make_bundle(b"\xff\xfe", "text/html", "x.html")
    assert resolve_type("svg") == "image/svg+xml"
    with pytest.raises(DisplayError, match="unsupported type"):
        resolve_type("video/mp4")


class FakeHook:
    def __init__(self):
        self.calls = []
        self.cleared = []

    def __call__(self, data, metadata, display_id, update):
        self.calls.append((data, metadata, display_id, update))

    def clear(self, wait):
        self.cleared.append(wait)


def run_display(args, stdin=b"", hook=None, files=None):
    import asyncio
    from types import SimpleNamespace

    from sandbox_kernel.commands.registry import CommandContext, invoke, lookup
    from sandbox_kernel.streams import BufferOutput, BytesInput

    box = Sandbox()
    for path, data in (files or {}).items():
        box.fs.write_bytes(path, data)
    out, err = BufferOutput(), BufferOutput()
    ctx = CommandContext("display", list(args), BytesInput(stdin), out, err, box.fs, "/workspace", {},
                         sandbox=SimpleNamespace(current_display=hook))
    status = asyncio.run(invoke(lookup("display"), ctx))
    return status, out.getvalue().decode(), err.getvalue().decode()


def test_display_command_files_and_text():
    hook = FakeHook()
    logo = png(32)
    status, out, err = run_display(["pic.png", "--width", "100"], hook=hook, files={"/workspace/pic.png": logo})
    assert (status, err) == (0, "")
    data, metadata, display_id, update = hook.calls[0]
    assert base64.b64decode(data["image/png"]) == logo
    assert metadata == {"image/png": {"width": 100}}
    run_display(["--html", "<b>x</b>", "--id", "d1"], hook=hook)
    assert hook.calls[1][0]["text/html"] == "<b>x</b>" and hook.calls[1][2:] == ("d1", False)
    run_display(["--id", "d1", "-u", "--markdown", "-"], stdin=b"**new**", hook=hook)
    assert hook.calls[2][0]["text/markdown"] == "**new**" and hook.calls[2][2:] == ("d1", True)
    run_display(["-t", "svg", "-"], stdin=b"<svg xmlns='http://www.w3.org/2000/svg'/>", hook=hook)
    assert "image/svg+xml" in hook.calls[3][0]
    run_display(["--clear", "--wait"], hook=hook)
    assert hook.cleared == [True]


def test_display_command_errors():
    hook = FakeHook()
    status, out, err = run_display(["missing.png"], hook=hook)
    assert status == 1 and err == "display: missing.png: No such file or directory\n"
    status, out, err = run_display(["bad.json"], hook=hook, files={"/workspace/bad.json": b"{"})
    assert status == 1 and err.startswith("display: bad.json: invalid JSON")
    status, out, err = run_display([], hook=hook)
    assert status == 2 and "missing file operand" in err and "Try 'display --help'" in err
    status, out, err = run_display(["-u", "--html", "x"], hook=hook)
    assert status == 2 and "--update needs --id" in err
    status, out, err = run_display(["-t", "mp4", "x"], hook=hook)
    assert status == 2 and "unsupported type 'mp4'" in err
    status, out, err = run_display(["--width", "wide", "x"], hook=hook)
    assert status == 2 and "invalid width" in err
    assert hook.calls == []
    status, out, err = run_display(["--html", "x"], hook=None)
    assert status == 1 and "no notebook to display in" in err
    status, out, err = run_display(["--help"])
    assert status == 0 and out.startswith("Usage: display")
