"""chmod, chown, chgrp (commands/permissions.py)."""
from __future__ import annotations

import pytest

from .helpers import links_fs, run_cmd


@pytest.fixture
def fs():
    return links_fs()


def test_chmod(fs):
    assert run_cmd(["chmod", "-v", "755", "f"], fs=fs)[0] == \
        "mode of 'f' changed from 0644 (rw-r--r--) to 0755 (rwxr-xr-x)\n"
    assert run_cmd(["chmod", "-v", "755", "f"], fs=fs)[0] == "mode of 'f' retained as 0755 (rwxr-xr-x)\n"
    assert run_cmd(["chmod", "-c", "755", "f"], fs=fs)[0] == ""
    for mode, start, want in [("u+x", 0o644, 0o744), ("go-w", 0o666, 0o644), ("a=r", 0o777, 0o444),
                              ("-w", 0o755, 0o555), ("+x", 0o644, 0o755), ("o=u", 0o750, 0o757),
                              ("u=rwx,g=rx,o=", 0o000, 0o750), ("a+X", 0o644, 0o644), ("=", 0o777, 0)]:
        fs.chmod("/workspace/f", start)
        assert run_cmd(["chmod", mode, "f"], fs=fs) == ("", "", 0), mode
        assert fs.stat("/workspace/f").st_mode & 0o7777 == want, mode
    assert run_cmd(["chmod", "a+X", "d"], fs=fs)[2] == 0
    assert run_cmd(["chmod", "zz", "f"], fs=fs) == (
        "", "chmod: invalid mode: 'zz'\nTry 'chmod --help' for more information.\n", 1)
    assert run_cmd(["chmod", "755"], fs=fs)[1].startswith("chmod: missing operand after '755'\n")
    assert run_cmd(["chmod", "755", "nope"], fs=fs) == (
        "", "chmod: cannot access 'nope': No such file or directory\n", 1)
    assert run_cmd(["chmod", "644", "/etc/passwd"], fs=fs) == (
        "", "chmod: changing permissions of '/etc/passwd': Operation not permitted\n", 1)


def test_chmod_recursive_and_reference(fs):
    fs.write_bytes("/workspace/d/inner", b"")
    assert run_cmd(["chmod", "-R", "g+w", "d"], fs=fs) == ("", "", 0)
    assert fs.stat("/workspace/d").st_mode & 0o777 == 0o775
    assert fs.stat("/workspace/d/inner").st_mode & 0o777 == 0o664
    fs.chmod("/workspace/f", 0o600)
    assert run_cmd(["chmod", "--reference=f", "d/inner"], fs=fs)[2] == 0
    assert fs.stat("/workspace/d/inner").st_mode & 0o777 == 0o600


def test_chown_chgrp(fs):
    assert run_cmd(["chown", "user", "f"], fs=fs) == ("", "", 0)
    assert run_cmd(["chown", "1000:1000", "f"], fs=fs) == ("", "", 0)
    assert run_cmd(["chown", "user:", "f"], fs=fs) == ("", "", 0)
    assert run_cmd(["chown", "root", "f"], fs=fs) == (
        "", "chown: changing ownership of 'f': Operation not permitted\n", 1)
    assert run_cmd(["chown", "bob", "f"], fs=fs) == ("", "chown: invalid user: 'bob'\n", 1)
    assert run_cmd(["chgrp", "root", "f"], fs=fs) == (
        "", "chgrp: changing group of 'f': Operation not permitted\n", 1)
    assert run_cmd(["chgrp", "-v", "user", "f"], fs=fs)[0] == "group of 'f' retained as user\n"
    assert run_cmd(["chgrp", "nogroup", "f"], fs=fs) == ("", "chgrp: invalid group: 'nogroup'\n", 1)
    assert fs.stat("/workspace/f").st_uid == 1000
