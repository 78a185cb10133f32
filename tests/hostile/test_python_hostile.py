"""Hostile input against the Python engine: host access, processes, sockets, ctypes, memory and
CPU bombs, recursion, hostile door frames. Every bomb ends at its own limit and the sandbox
(and the shell) stay usable."""
from __future__ import annotations

import os

import pytest

from tests.support.session import Session


@pytest.fixture(scope="module")
def py():
    s = Session(wall_time=120, python_memory_bytes=256 << 20, vfs_bytes=8 << 20)
    s.run("echo precious > /workspace/keep.txt")
    yield s
    result, out, *_ = s.run("cat /workspace/keep.txt")
    assert out == b"precious\n"
    s.close()


def value(result) -> str | None:
    return (result.value or {}).get("text/plain")


def alive(s: Session) -> None:
    assert value(s.run("1 + 1", "python")[0]) == "2"
    assert s.run("echo alive")[1] == b"alive\n"


def test_no_host_file_is_visible(py, tmp_path):
    secret = tmp_path / "host-secret.txt"
    secret.write_text("host only")
    code = (f"import os\nfound = []\nfor p in [{str(secret)!r}, '/proc/self/environ', '/etc/shadow', "
            f"{os.path.expanduser('~')!r} + '/.bashrc', '/usr/local/lib/python315.zip/../../../etc/hostname']:\n"
            "    try:\n        found.append((p, open(p).read()[:40]))\n    except OSError as e:\n"
            "        found.append((p, type(e).__name__))\nfound")
    result, *_ = py.run(code, "python")
    text = value(result)
    assert "host only" not in text and "FileNotFoundError" in text
    # /etc/hostname is the sandbox's
    result, *_ = py.run("open('/etc/hostname').read()", "python")
    assert value(result) == "'sandbox\\n'"
    # the standard library is readable, not writable, and not in the VFS
    result, *_ = py.run("open('/usr/local/lib/python315.zip', 'ab')", "python")
    assert result.error.ename == "OSError" and "Read-only" in result.error.evalue
    assert py.run("ls /usr/local/lib")[1] == b""


def test_no_process_is_ever_started(py):
    for code in ("import os; os.system('id')", "import subprocess; subprocess.run(['id'])",
                 "import os; os.fork()", "import os; os.execv('/bin/sh', ['sh'])",
                 "import os; os.popen('id').read()"):
        result, out, err, _ = py.run(code, "python")
        assert result.status != 0 and result.error.ename in ("OSError", "AttributeError"), (code, result)
    alive(py)


def test_no_socket_connects(py):
    result, *_ = py.run("import socket\ns = socket.socket()\ns.connect(('127.0.0.1', 22))", "python")
    assert result.error.ename == "OSError"
    result, *_ = py.run("import urllib.request\nurllib.request.urlopen('http://example.com', timeout=2)", "python")
    assert result.status != 0


def test_ctypes_reaches_nothing(py):
    result, *_ = py.run("import ctypes\nctypes.CDLL('libc.so.6')", "python")
    assert result.status != 0


def test_memory_bomb_is_a_memory_error(py):
    result, *_ = py.run("x = []\nwhile True:\n    x.append(bytearray(8 << 20))", "python")
    assert result.error.ename == "MemoryError" and "python_memory_bytes" in result.error.evalue
    result, *_ = py.run("del x\nimport numpy as np\nnp.ones(200_000_000)", "python")
    assert result.error.ename in ("MemoryError", "numpy._core._exceptions._ArrayMemoryError",
                                  "_ArrayMemoryError"), result.error
    alive(py)


def test_string_bomb(py):
    result, *_ = py.run("s = 'x'\nwhile True:\n    s = s + s", "python")
    assert result.error.ename == "MemoryError"
    alive(py)


def test_recursion_is_bounded(py):
    result, *_ = py.run("def f(n):\n    return f(n + 1)\nf(0)", "python")
    assert result.error.ename == "RecursionError"
    result, *_ = py.run("l = []\nfor _ in range(1_000_000):\n    l = [l]\nrepr(l)", "python")
    assert result.error.ename == "RecursionError"
    result, *_ = py.run("import json\njson.loads('[' * 1_000_000)", "python")
    assert result.error.ename == "RecursionError"
    alive(py)


def test_cpu_bomb_ends_at_the_wall_time_and_the_engine_recovers(py):
    result, out, err, dt = py.run("while True:\n    pass", "python", wall_time=1)
    assert result.status == 124 and result.error.ename == "Timeout" and dt < 10
    assert b"interpreter was restarted" in err
    alive(py)


def test_os_exit_restarts_the_interpreter(py):
    result, out, err, _ = py.run("import os\nos._exit(7)", "python")
    assert result.status == 7 and b"interpreter was restarted" in err
    alive(py)


def test_quota_applies_to_python_writes(py):
    result, *_ = py.run("with open('/workspace/big.bin', 'wb') as f:\n    f.write(b'x' * (16 << 20))", "python")
    assert result.error is not None and "No space left" in result.error.evalue
    py.run("rm -f /workspace/big.bin")
    alive(py)


def test_hostile_door_frames_are_refused(py):
    code = ("import _host\nout = []\nfor frame in [b'not json', b'[1]', b'{\"op\": \"display\", \"data\": 5}', "
            "b'{\"op\": \"nope\"}', b'[' * 100000, b'{\"op\": \"display\", \"data\": {}, \"metadata\": 1}']:\n"
            "    try:\n        out.append(_host.call(frame)[:60])\n    except OSError as e:\n"
            "        out.append(type(e).__name__)\nout")
    result, *_ = py.run(code, "python")
    assert result.error is None, result.error
    assert "error" in value(result)
    alive(py)


def test_python3_command_bombs_end_with_the_command(py):
    result, out, err, _ = py.run("python3 -c 'x = \"a\" * (1 << 30)'; echo status=$?")
    assert out.endswith(b"status=1\n") and b"MemoryError" in err
    result, out, err, _ = py.run("python3 -c 'while True: pass'; echo status=$?", wall_time=1)
    assert result.status == 124 or b"status=" in out
    alive(py)
