"""In-process tests of the kernel's parts: stream relay, magics, display bundles, completion helpers."""
import base64
import io
import tarfile
import threading
import time

import pytest
from hypothesis import given, settings, strategies as st

from sandbox_kernel.commands._lib.mimebundle import DisplayError, guess_type, make_bundle, resolve_type
from sandbox_kernel.kernel.protocol import magics
from sandbox_kernel.kernel.protocol.relay import StreamRelay
from sandbox_kernel.limits import Limits
from sandbox_kernel.sandbox import Sandbox
from sandbox_kernel.shell.complete import at_command_position, current_command, escape_word
from scripts.make_logos import png


class Recorder:
    def __init__(self):
        self.messages = []
        self.lock = threading.Lock()

    def __call__(self, name, text):
        with self.lock:
            self.messages.append((time.monotonic(), name, text))


def test_relay_coalesces_a_flood_of_lines():
    rec = Recorder()
    relay = StreamRelay(rec)
    started = time.monotonic()
    n = 0
    while time.monotonic() - started < 0.5:
        relay.write("stdout", b"line %d\n" % n)
        n += 1
    relay.close()
    text = "".join(t for _, _, t in rec.messages)
    assert text == "".join("line %d\n" % i for i in range(n))
    assert n > 1000
    # at most one flush per 50 ms (+ the immediate first one and the final one)
    assert len(rec.messages) <= 0.5 / 0.05 + 3


def test_relay_keeps_order_between_stdout_and_stderr():
    rec = Recorder()
    relay = StreamRelay(rec)
    for i in range(200):
        relay.write("stdout", b"o%d\n" % i)
        relay.write("stderr", b"e%d\n" % i)
    relay.close()
    merged = "".join(t for _, _, t in rec.messages)
    assert merged == "".join("o%d\ne%d\n" % (i, i) for i in range(200))
    for _, name, text in rec.messages:
        assert text[0] == ("o" if name == "stdout" else "e")


def test_relay_sends_trailing_output_without_more_writes():
    rec = Recorder()
    relay = StreamRelay(rec)
    relay.write("stdout", b"a")
    relay.write("stdout", b"b")  # within the interval: held for the flusher thread
    time.sleep(0.3)
    assert "".join(t for _, _, t in rec.messages) == "ab"
    relay.close()


def test_relay_keeps_split_utf8_sequences_whole():
    rec = Recorder()
    relay = StreamRelay(rec)
    data = "héllo → wörld\n".encode()
    for i in range(len(data)):
        relay.write("stdout", data[i:i + 1])
        time.sleep(0.002)
    relay.close()
    assert "".join(t for _, _, t in rec.messages) == "héllo → wörld\n"


def test_relay_is_thread_safe():
    rec = Recorder()
    relay = StreamRelay(rec)

    def writer(tag):
        for i in range(500):
            relay.write("stdout", f"{tag}{i};".encode())

    threads = [threading.Thread(target=writer, args=(t,)) for t in "abcd"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    relay.close()
    parts = "".join(t for _, _, t in rec.messages).split(";")[:-1]
    assert sorted(parts) == sorted(f"{t}{i}" for t in "abcd" for i in range(500))


def test_parse_cell_routing():
    assert magics.parse_cell("echo hi") == magics.Cell("sh", "echo hi", [])
    assert magics.parse_cell("%%bash\necho hi").engine == "sh"
    cell = magics.parse_cell("\n%%js\nlet x = 1\n")
    assert (cell.engine, cell.body) == ("js", "\n\nlet x = 1\n")  # line numbers kept
    assert magics.parse_cell("%%vm\nuname").engine == "vm"
    cell = magics.parse_cell("%%vm --root --keep\nid")
    assert (cell.engine, cell.args, cell.body) == ("vm", ["--root", "--keep"], "\nid")  # options for the engine
    assert magics.parse_cell("%%vm\nid").args is None
    with pytest.raises(magics.MagicError, match="takes no arguments"):
        magics.parse_cell("%%js --root\n1")
    cell = magics.parse_cell("%limits wall_time=5\n%save a.tar\necho x")
    assert cell.line_magics == [("limits", "wall_time=5"), ("save", "a.tar")]
    assert cell.body == "\n\necho x"
    assert not magics.parse_cell("   \n").has_code
    assert magics.parse_cell("%%python\nprint(1)").engine == "python"
    with pytest.raises(magics.MagicError, match="unknown cell magic '%%ruby'.*%%sh, %%bash, %%js, %%python, %%vm"):
        magics.parse_cell("%%ruby\nputs 1")
    with pytest.raises(magics.MagicError, match="unknown line magic '%cd'"):
        magics.parse_cell("%cd /tmp")
    with pytest.raises(magics.MagicError, match="go on the first line"):
        magics.parse_cell("%bash")


def test_completion_route_maps_the_cursor_into_the_body():
    code = "\n%%js\nMath.fl"
    r = magics.route(code, len(code))
    assert (r.engine, r.text, r.position, r.shift) == ("js", "\n\nMath.fl", 9, 4)
    assert r.text[r.position - 2:r.position] == "fl" and r.position + r.shift == len(code)
    r = magics.route("%%vm --root\nls fo", 17)
    assert (r.engine, r.text[r.position - 2:r.position], r.shift) == ("vm", "fo", 11)
    r = magics.route("%limits\n%save a.tar\necho $HO", 29)
    assert (r.engine, r.text[:r.position].split("\n")[-1], r.shift) == ("sh", "echo $HO", 18)
    assert magics.route("echo hi", 4) == ("sh", "echo hi", 4, 0)
    assert magics.route("%load fi", 8) == ("sh", "%load fi", 8, 0)  # a magic's arguments: the shell's paths
    assert magics.route("%%js --x\n1", 9) is None
    assert magics.route("  \n ", 4) == ("sh", "  \n ", 4, 0)


@settings(max_examples=300, deadline=None)
@given(magic_lines=st.lists(st.sampled_from(["%%js", "%%vm --root", "%%sh", "%limits", "%save a.tar", "",
                                              "  %%js  ", "%help ls"]), max_size=4),
       body=st.text(alphabet="ab \n%.$", max_size=30), cursor=st.integers(-3, 80))
def test_completion_route_offsets_on_any_cell(magic_lines, body, cursor):
    code = "\n".join([*magic_lines, body])
    r = magics.route(code, cursor)
    if r is None:
        return
    position = max(0, min(cursor, len(code)))
    assert r.position + r.shift == position
    if r.shift:  # in the body: the text around the cursor is the cell's
        assert r.text[r.position:] == code[position:]
        assert r.text[:r.position].split("\n")[-1] == code[:position].split("\n")[-1]


def test_magic_names_complete_on_the_magic_lines_only():
    assert magics.magic_word("%%j", 3) == (0, "%%j", True)
    assert magics.magic_word("\n  %li", 6) == (3, "%li", True)
    assert magics.magic_word("%limits\n%sa", 11) == (8, "%sa", False)  # a line magic: no cell magics here
    assert magics.magic_word("%%js\n%sa", 8) is None   # JS code
    assert magics.magic_word("echo\n%sa", 8) is None
    assert magics.magic_word("%load x", 7) is None      # an argument
    assert magics.magic_word("%limits wall_time=5", 3, whole=True) == (0, "%limits", True)


def test_parse_limits_leaves_the_original_alone():
    limits = Limits()
    trial, changed = magics.parse_limits(limits, ["wall_time=60", "stdout_bytes=4M"])
    assert changed == ["wall_time", "stdout_bytes"]
    assert (trial.wall_time, trial.stdout_bytes) == (60.0, 4 * 1024 * 1024) and limits.wall_time == 30.0
    with pytest.raises(magics.MagicError, match="unknown limit 'bogus'"):
        magics.parse_limits(limits, ["wall_time=5", "bogus=1"])
    with pytest.raises(magics.MagicError, match="NAME=VALUE"):
        magics.parse_limits(limits, ["wall_time"])
    with pytest.raises(magics.MagicError, match="invalid size"):
        magics.parse_limits(limits, ["stdout_bytes=lots"])
    for bad in ("inf", "nan", "1e999", "-5", "0"):
        with pytest.raises(magics.MagicError):
            magics.parse_limits(limits, [f"wall_time={bad}"])
    assert magics.parse_limits(limits, ["wall_time=10m"])[0].wall_time == 600.0


def test_update_limits_respects_ceilings_and_applies_vfs_quotas():
    sb = Sandbox()
    trial, changed = magics.parse_limits(sb.limits, ["wall_time=100000", "string_bytes=100G"])
    with pytest.raises(ValueError, match="above this kernel's ceiling"):
        sb.update_limits(trial, changed)
    assert sb.limits.wall_time == 30.0 and sb.limits.string_bytes == 64 * 1024 * 1024  # all or nothing
    sb.fs.write_bytes("/workspace/big", b"x" * 300_000)
    trial, changed = magics.parse_limits(sb.limits, ["vfs_bytes=100K"])
    with pytest.raises(ValueError, match="below what the VFS holds"):
        sb.update_limits(trial, changed)
    trial, changed = magics.parse_limits(sb.limits, ["vfs_bytes=1M", "vfs_inodes=2000"])
    sb.update_limits(trial, changed)
    assert (sb.fs.max_bytes, sb.fs.max_inodes) == (1024 * 1024, 2000)
    with pytest.raises(OSError, match="No space"):
        sb.fs.write_bytes("/workspace/more", b"y" * 800_000)


def test_admin_policy_from_kernel_arguments():
    import argparse

    from sandbox_kernel import policy

    def parse(*argv):
        parser = argparse.ArgumentParser()
        policy.add_arguments(parser)
        return policy.from_arguments(parser.parse_args(list(argv)))

    p = parse()
    assert p.limits.wall_time == 600.0 and p.ceilings.wall_time == 86400.0  # notebooks: 10 minutes
    p = parse("--limit", "wall_time=120", "--limit", "vfs_bytes=8G", "--max-limit", "string_bytes=16M")
    assert p.limits.wall_time == 120.0 and p.limits.vfs_bytes == 8 * 1024**3
    assert p.ceilings.vfs_bytes == 8 * 1024**3  # the admin's own default may be asked for
    assert p.limits.string_bytes == p.ceilings.string_bytes == 16 * 1024**2  # a low ceiling lowers the default
    with pytest.raises(ValueError, match="above --max-limit"):
        parse("--limit", "wall_time=120", "--max-limit", "wall_time=60")
    with pytest.raises(ValueError, match="unknown limit"):
        parse("--limit", "walltime=1")


def test_snapshot_roundtrip_replaces_trees_and_keeps_archive():
    fs = Sandbox().fs
    fs.mkdir("/workspace/data")
    fs.write_bytes("/workspace/data/a.txt", b"alpha\n")
    fs.symlink("data/a.txt", "/workspace/link")
    fs.write_bytes("/home/user/.bashrc", b"alias ll='ls -l'\n")
    fs.chmod("/workspace/data/a.txt", 0o600)
    count = magics.save_snapshot(fs, "snap.tar.gz", "/workspace")
    assert count >= 4
    with tarfile.open(fileobj=io.BytesIO(fs.read_bytes("/workspace/snap.tar.gz"))) as tar:
        names = tar.getnames()
    assert "workspace/data/a.txt" in names and "home/user/.bashrc" in names
    assert "workspace/snap.tar.gz" not in names
    fs.remove_tree("/workspace/data")
    fs.write_bytes("/workspace/later.txt", b"x")
    magics.load_snapshot(fs, "/workspace/snap.tar.gz", "/")
    assert fs.read_bytes("/workspace/data/a.txt") == b"alpha\n"
    assert fs.stat("/workspace/data/a.txt").st_mode & 0o777 == 0o600
    assert fs.readlink("/workspace/link") == "data/a.txt"
    assert not fs.exists("/workspace/later.txt")
    assert fs.exists("/workspace/snap.tar.gz")


def test_snapshot_errors():
    fs = Sandbox().fs
    with pytest.raises(magics.MagicError, match="must end in .tar"):
        magics.save_snapshot(fs, "snap.zip", "/workspace")
    fs.write_bytes("/workspace/bad.tar", b"not a tar at all" * 100)
    with pytest.raises(magics.MagicError, match="not a tar archive"):
        magics.load_snapshot(fs, "bad.tar", "/workspace")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo("etc/passwd")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"x:x"))
    fs.write_bytes("/workspace/other.tar", buf.getvalue())
    with pytest.raises(magics.MagicError, match="not a snapshot"):
        magics.load_snapshot(fs, "other.tar", "/workspace")
    with pytest.raises(OSError):
        magics.load_snapshot(fs, "missing.tar", "/workspace")


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


def test_completion_context_helpers():
    assert at_command_position("")
    assert at_command_position("echo hi | ")
    assert at_command_position("x=1; ")
    assert at_command_position("if ")
    assert at_command_position("FOO=bar ")
    assert not at_command_position("echo ")
    assert not at_command_position("sudo ls ")
    assert current_command("ls -l | sort ") == "sort"
    assert current_command("LC_ALL=C sort ") == "sort"
    assert escape_word("my file (1).txt") == r"my\ file\ \(1\).txt"


# ---------------------------------------------------------------- the display command
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


@pytest.mark.parametrize("raw, shown", [
    ("plain \x1b[1;31mred\x1b[0m\r\n", "plain \x1b[1;31mred\x1b[0m\r\n"),      # colours stay
    ("\x1b]0;Fake title\x07after", "after"),                                   # window title
    ("\x1b]52;c;cm0gLXJmIH4=\x07", ""),                                        # clipboard write
    ("\x1b]8;;http://evil\x1b\\looks safe\x1b]8;;\x1b\\", "looks safe"),     # hidden hyperlink
    ("real\x1b[1A\x1b[2K\x1b[1Gfake", "realfake"),                            # rewriting earlier lines
    ("\x9b2J\x1bc\x1bP+q\x1b\\x", "2Jx"),                                      # C1 CSI, reset, DCS
    ("nul\x00 bell\x07 tab\t back\b", "nul bell tab\t back\b"),
])
def test_stream_text_keeps_only_what_renders_as_text(raw, shown):
    """Red team: raw terminal escapes from sandbox code passed through (spoofing jupyter console)."""
    from sandbox_kernel.kernel.protocol.relay import TerminalText

    assert TerminalText().clean(raw, final=True) == shown


def test_a_sequence_split_between_writes_is_held():
    sent = []
    relay = StreamRelay(lambda name, text: sent.append(text), interval=0)
    for part in (b"ok \x1b[3", b"2mgreen\x1b]0;ti", b"tle\x07 done"):
        relay.write("stdout", part)
        relay.flush()
    relay.close()
    assert "".join(sent) == "ok \x1b[32mgreen done"


def test_cell_history_is_bounded(monkeypatch):
    """A long-running kernel kept every cell's code and output forever (~360 B a cell)."""
    import asyncio

    from sandbox_kernel.kernel import kernel as kernel_module

    monkeypatch.setattr(kernel_module, "HISTORY_CELLS", 5)
    monkeypatch.setattr(kernel_module, "HISTORY_TEXT", 10)
    k = kernel_module.SandboxKernel()

    async def cells():
        for i in range(8):
            await k.do_execute(f"echo {i} #" + "x" * 50, silent=True)
            k.execution_count += 1
    asyncio.run(cells())
    assert [(n, text) for n, text, _ in k.cell_history] == [(n, f"echo {n} #xx") for n in range(3, 8)]
