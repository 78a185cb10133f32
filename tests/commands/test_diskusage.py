"""du and df (commands/diskusage.py)."""
from __future__ import annotations

import re

import pytest

from .helpers import links_fs, run_cmd


@pytest.fixture
def fs():
    return links_fs()


def test_du(fs):
    fs.mkdir("/workspace/d/sub")
    fs.write_bytes("/workspace/d/sub/big", b"x" * 5000)
    assert run_cmd(["du", "d"], fs=fs)[0] == "12\td/sub\n16\td\n"
    assert run_cmd(["du", "-a", "d"], fs=fs)[0] == "8\td/sub/big\n12\td/sub\n16\td\n"
    assert run_cmd(["du", "-s", "d"], fs=fs)[0] == "16\td\n"
    assert run_cmd(["du", "-sh", "d"], fs=fs)[0] == "16K\td\n"
    assert run_cmd(["du", "-b", "d/sub/big"], fs=fs)[0] == "5000\td/sub/big\n"
    assert run_cmd(["du", "-c", "d", "f"], fs=fs)[0] == "12\td/sub\n16\td\n4\tf\n20\ttotal\n"
    assert run_cmd(["du", "--max-depth=0", "d"], fs=fs)[0] == "16\td\n"
    assert run_cmd(["du", "nope"], fs=fs) == ("", "du: cannot access 'nope': No such file or directory\n", 1)
    fs.link("/workspace/d/sub/big", "/workspace/d/hard")
    assert run_cmd(["du", "-s", "d"], fs=fs)[0] == "16\td\n"   # hard links count once


def test_df(fs):
    out, _, status = run_cmd(["df"], fs=fs)
    lines = out.splitlines()
    assert lines[0] == "Filesystem     1K-blocks  Used Available Use% Mounted on"
    assert re.fullmatch(r"sandbox +65536 +\d+ +\d+ +\d+% /", lines[1]) and status == 0
    out, _, _ = run_cmd(["df", "-h", "/workspace"], fs=fs)
    assert out.splitlines()[0] == "Filesystem      Size  Used Avail Use% Mounted on"
    assert out.splitlines()[1].startswith("sandbox          64M ")
    out, _, _ = run_cmd(["df", "-i"], fs=fs)
    assert out.splitlines()[0].split() == ["Filesystem", "Inodes", "IUsed", "IFree", "IUse%", "Mounted", "on"]
    assert run_cmd(["df", "nope"], fs=fs) == ("", "df: nope: No such file or directory\n", 1)
    used_before = fs.usage()["bytes_used"]
    fs.write_bytes("/workspace/big", b"x" * 2 * 1024 * 1024)
    out, _, _ = run_cmd(["df", "-B1", "/"], fs=fs)
    assert out.splitlines()[1].split()[2] == str(used_before + 2 * 1024 * 1024)
