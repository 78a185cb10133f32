"""Run one command both as the real GNU tool (in a temp dir) and as our registered command
(over a VFS holding the same files); used by the grep/sed/awk tests."""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from .helpers import new_fs, run_cmd_bytes

ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": "/tmp", "TZ": "UTC"}


def run_gnu(argv: list[str], files: dict[str, bytes] | None = None, stdin: bytes = b"",
            env: dict[str, str] | None = None) -> tuple[bytes, bytes, int, dict[str, bytes]]:
    with tempfile.TemporaryDirectory(prefix="gnucmp-") as tmp:
        root = Path(tmp)
        for name, data in (files or {}).items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        proc = subprocess.run(argv, cwd=tmp, input=stdin, capture_output=True,
                              env=ENV if env is None else env, timeout=30)
        after = {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}
        return proc.stdout, proc.stderr, proc.returncode, after


def run_ours(argv: list[str], files: dict[str, bytes] | None = None, stdin: bytes = b"") -> tuple[bytes, bytes, int, dict[str, bytes]]:
    fs = new_fs()
    for name, data in (files or {}).items():
        path = "/workspace/" + name
        parent = path.rsplit("/", 1)[0]
        fs.mkdir(parent, parents=True, exist_ok=True)
        fs.write_bytes(path, data)
    out, err, status = run_cmd_bytes(argv, stdin, fs=fs)
    after = {}
    for top, _dirs, names in fs.walk("/workspace"):
        for n in names:
            full = top.rstrip("/") + "/" + n
            if fs.is_file(full):
                after[full[len("/workspace/"):]] = fs.read_bytes(full)
    return out, err, status, after


def assert_like_gnu(argv: list[str], files: dict[str, bytes | str] | None = None,
                    stdin: bytes | str = b"", check_files: bool = False, check_stderr: bool = False,
                    sort_lines: bool = False) -> bytes:
    files = {k: (v.encode() if isinstance(v, str) else v) for k, v in (files or {}).items()}
    if isinstance(stdin, str):
        stdin = stdin.encode()
    want = run_gnu(argv, files, stdin)
    got = run_ours(argv, files, stdin)
    if sort_lines:
        want = (b"".join(sorted(want[0].splitlines(True))),) + want[1:]
        got = (b"".join(sorted(got[0].splitlines(True))),) + got[1:]
    detail = f"\nargv={argv!r}\nGNU: {want[:3]!r}\nours: {got[:3]!r}"
    assert got[0] == want[0], "stdout differs" + detail
    assert got[2] == want[2], "status differs" + detail
    assert bool(got[1]) == bool(want[1]), "stderr emptiness differs" + detail
    if check_stderr:
        assert got[1] == want[1], "stderr differs" + detail
    if check_files:
        assert got[3] == want[3], f"files differ\nGNU: {want[3]!r}\nours: {got[3]!r}" + detail
    return got[0]
