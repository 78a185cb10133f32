"""env, printenv, which (commands/environment.py)."""
from .helpers import run_cmd_bytes

ENV = {"PATH": "/usr/bin:/bin", "HOME": "/home/user", "USER": "user", "TZ": "UTC"}


def test_env_prints_sets_unsets_and_runs():
    assert run_cmd_bytes(["env"], env=ENV)[0] == b"PATH=/usr/bin:/bin\nHOME=/home/user\nUSER=user\nTZ=UTC\n"
    assert run_cmd_bytes(["env", "-i", "A=1", "B=2"], env=ENV)[0] == b"A=1\nB=2\n"
    assert b"HOME" not in run_cmd_bytes(["env", "-u", "HOME"], env=ENV)[0]
    assert run_cmd_bytes(["env", "FOO=bar", "printenv", "FOO"], env=ENV) == (b"bar\n", b"", 0)
    assert run_cmd_bytes(["env", "-i", "printenv"], env=ENV) == (b"", b"", 0)
    assert run_cmd_bytes(["env", "nosuch"], env=ENV) == (b"", b"env: 'nosuch': No such file or directory\n", 127)
    assert run_cmd_bytes(["env", "-u"], env=ENV)[2] == 125


def test_printenv_status():
    assert run_cmd_bytes(["printenv", "HOME", "NOPE"], env=ENV) == (b"/home/user\n", b"", 1)


def test_which_searches_path_in_vfs():
    assert run_cmd_bytes(["which", "ls", "nosuch"], env=ENV) == (b"/usr/bin/ls\n", b"", 1)
    assert run_cmd_bytes(["which", "-a", "ls"], env=ENV)[0] == b"/usr/bin/ls\n/bin/ls\n"


def test_env_unset_reaches_a_nested_shell():
    # builtins env runs (sh, bash) get env's environment instead of the shell's exported variables
    from sandbox_kernel.cli import run_script

    out, _err, _status = run_script("X=1 Y=2 env -u X sh -c 'echo ${X-unset} $Y'; export Z=1; "
                                    "env -i bash -c 'echo ${Z-unset}'")
    assert out == b"unset 2\nunset\n"
