"""id, whoami, hostname, uname, nproc, getconf (commands/identity.py)."""
from .helpers import run_cmd_bytes


def test_identity_commands():
    assert run_cmd_bytes(["id"])[0] == b"uid=1000(user) gid=1000(user) groups=1000(user)\n"
    assert run_cmd_bytes(["id", "-un"])[0] == b"user\n"
    assert run_cmd_bytes(["id", "-u"])[0] == b"1000\n"
    assert run_cmd_bytes(["id", "root"])[0] == b"uid=0(root) gid=0(root) groups=0(root)\n"
    assert run_cmd_bytes(["id", "nosuch"]) == (b"", b"id: 'nosuch': no such user\n", 1)
    assert run_cmd_bytes(["id", "-n"])[2] == 1
    assert run_cmd_bytes(["whoami"])[0] == b"user\n"
    assert run_cmd_bytes(["hostname"])[0] == b"sandbox\n"
    assert run_cmd_bytes(["uname"])[0] == b"Linux\n"
    assert run_cmd_bytes(["uname", "-srm"])[0] == b"Linux 6.1.0-sandbox x86_64\n"
    assert run_cmd_bytes(["uname", "-a"])[0].split()[:2] == [b"Linux", b"sandbox"]
    assert run_cmd_bytes(["nproc"])[0] == b"1\n"


def test_getconf():
    assert run_cmd_bytes(["getconf", "PAGESIZE"])[0] == b"4096\n"
    assert run_cmd_bytes(["getconf", "PATH_MAX", "/"])[0] == b"4096\n"
    assert run_cmd_bytes(["getconf", "FOO"]) == (b"", b"getconf: Unrecognized variable `FOO'\n", 2)
