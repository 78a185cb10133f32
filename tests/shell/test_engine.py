"""ShellEngine: state across runs, status conventions, limits, cancellation, kernel helpers."""
import asyncio
import subprocess
import sys
import time

import pytest

from sandbox_kernel.cli import run_script
from sandbox_kernel.engine import CancelToken, Streams
from sandbox_kernel.limits import Limits
from sandbox_kernel.sandbox import Sandbox


class Sink:
    def __init__(self):
        self.data = bytearray()

    def write(self, b):
        self.data += b

    @property
    def text(self):
        return self.data.decode()


def run_cells(cells, limits=None, cancel_after=None):
    """Run cells in one sandbox; returns [(result, stdout, stderr)]."""
    async def main():
        sb = Sandbox(limits)
        results = []
        for cell in cells:
            out, err = Sink(), Sink()
            token = CancelToken()
            if cancel_after is not None:
                asyncio.get_running_loop().call_later(cancel_after, token.set, "interrupt")
            res = await sb.run("sh", cell, Streams(out, err, token), limits)
            results.append((res, out.text, err.text))
        await sb.shutdown()
        return results
    return asyncio.run(main())


def test_state_persists_across_runs():
    r = run_cells(["x=41; f() { echo f$1; }; cd /tmp; alias ll='echo aliased'",
                   "echo $((x+1)); f 2; pwd; ll", "false", "echo $?"])
    assert r[1][1] == "42\nf2\n/tmp\naliased\n"
    assert r[2][0].status == 1 and r[2][0].error.ename == "ExitStatus"
    assert r[3][1] == "1\n"


def test_syntax_error_status_and_line():
    (res, out, err), = run_cells(["echo ok\nif then\n"])
    assert out == "ok\n"
    assert res.status == 2 and "line 2" in err and "syntax error" in err
    assert res.error.ename == "SyntaxError" and "line 2" in res.error.evalue


def test_error_reply_does_not_repeat_stderr():
    """The shell's message is on stderr once; the error's traceback (what the notebook shows)
    only sums up, and evalue keeps the message."""
    lim = Limits(wall_time=0.3, commands=10**9, function_depth=50)  # the recursion ends well inside 0.3 s
    (syntax, _, syntax_err), (timeout, _, timeout_err), (limit, _, limit_err) = run_cells(
        ["if then", "while :; do :; done", "f() { f; }; f"], limits=lim)
    assert syntax_err.count("syntax error") == 1 and "syntax error" in syntax.error.evalue
    assert syntax.error.traceback == ["exit status 2"]
    assert "wall time limit" in timeout_err and "wall time limit" in timeout.error.evalue
    assert timeout.error.traceback == ["exit status 124"]
    assert limit.error.ename == "LimitExceeded" and limit.error.evalue in limit_err
    assert limit.error.traceback == ["exit status 1"]


def test_history_lists_earlier_cells():
    """Each cell handed to add_history becomes entries like bash's (one per command, a
    multi-line loop joined into one); `history N`, -d, -c and -w/-r work on them."""
    cells = ["x=1\necho $x", "for i in 1 2\ndo\n  echo $i\ndone", "history",
             "history 1; history -d 1; history 2", "history -w h.txt; history -c; history; cat h.txt",
             "history -r h.txt; history 1"]

    async def main():
        sb = Sandbox()
        engine = sb.engine("sh")
        outs = []
        for cell in cells:
            engine.add_history(cell)
            out, err = Sink(), Sink()
            await sb.run("sh", cell, Streams(out, err, CancelToken()), sb.limits)
            outs.append(out.text)
        await sb.shutdown()
        return outs
    outs = asyncio.run(main())
    assert outs[2] == "    1  x=1\n    2  echo $x\n    3  for i in 1 2; do   echo $i; done\n    4  history\n"
    assert outs[3] == \
        "    5  history 1; history -d 1; history 2\n    3  history\n    4  history 1; history -d 1; history 2\n"
    assert outs[4].startswith("echo $x\nfor i in 1 2; do   echo $i; done\nhistory\n")
    # after -c the numbers start again; -r appends the file's five lines to this cell's entry
    assert outs[5] == "    6  history -w h.txt; history -c; history; cat h.txt\n"


def test_command_not_found():
    (res, out, err), = run_cells(["nosuchthing_xyz"])
    assert res.status == 127 and "nosuchthing_xyz: command not found" in err


def test_command_limit_and_recovery():
    lim = Limits(commands=500)
    r = run_cells(["while true; do :; done", "echo still alive"], limits=lim)
    assert r[0][0].status != 0 and "limit commands" in r[0][2]
    assert r[1][1] == "still alive\n" and r[1][0].status == 0


def test_function_depth_limit_and_recovery():
    lim = Limits(function_depth=50)
    r = run_cells(["f() { f; }; f", "echo ok"], limits=lim)
    assert r[0][0].status != 0 and "function_depth" in r[0][2]
    assert r[1][1] == "ok\n"


def test_string_limit_and_recovery():
    lim = Limits(string_bytes=10000)
    r = run_cells(["x=a; while true; do x=$x$x; done", "echo ok"], limits=lim)
    assert r[0][0].status != 0 and "string_bytes" in r[0][2]
    assert r[1][1] == "ok\n"


def test_wall_time_limit_and_recovery():
    lim = Limits(wall_time=0.5, commands=10**9)
    start = time.monotonic()
    r = run_cells(["while :; do :; done", "echo ok"], limits=lim)
    assert time.monotonic() - start < 5
    assert r[0][0].status == 124 and r[0][0].error.ename == "Timeout" and "wall_time" in r[0][2]
    assert r[1][1] == "ok\n"


def test_stdout_limit():
    lim = Limits(stdout_bytes=1000)
    r = run_cells(["for i in {1..1000}; do echo line $i; done", "echo ok"], limits=lim)
    assert len(r[0][1]) <= 1000 and "truncated" in r[0][2]
    assert r[1][1] == "ok\n"


def test_interrupt_runs_int_trap():
    r = run_cells(["trap 'echo trapped' INT; while true; do :; done"], limits=Limits(commands=10**9),
                  cancel_after=0.3)
    res, out, err = r[0]
    assert res.status == 130 and res.error.ename == "Interrupted"
    assert "trapped" in out


def test_interrupt_blocking_read():
    r = run_cells(["cat /dev/zero | while read -r x; do :; done"], limits=Limits(commands=10**9),
                  cancel_after=0.3)
    assert r[0][0].status == 130


def test_vfs_quota():
    lim = Limits(vfs_bytes=100_000)
    r = run_cells(["head -c 200000 /dev/zero > big; echo status=$?", "rm -f big; echo hi > small && cat small"],
                  limits=lim)
    assert "status=1" in r[0][1] or r[0][0].status != 0
    assert r[1][1] == "hi\n"


def test_kernel_helpers():
    async def main():
        sb = Sandbox()
        eng = sb.engine("sh")
        assert eng.is_complete("if true; then")[0] == "incomplete"
        assert eng.is_complete("echo hi")[0] == "complete"
        assert eng.is_complete("fi")[0] == "invalid"
        out = Sink()
        await sb.run("sh", "export FOO=bar; arr=(1 2); cd /tmp; myfn() { :; }", Streams(out, Sink(), CancelToken()))
        assert eng.exported_env()["FOO"] == "bar"
        assert eng.cwd() == "/tmp"
        assert eng.get_variable("arr") == ["1", "2"]
        assert "myfn" in eng.completion_names() and "echo" in eng.completion_names()
        assert "FOO" in eng.variable_names()
        assert "cd" in eng.builtin_help("cd")
        assert eng.builtin_help("nonexistent") is None
        assert sb.environment()["HOME"] == "/home/user"
        await sb.shutdown()
    asyncio.run(main())


def test_sandbox_environment():
    out, err, status = run_script('echo "$HOME $USER $PWD $SHELL $HOSTNAME"; echo $PATH; env | grep -c "^HOME="')
    assert out.decode().splitlines()[:2] == ["/home/user user /workspace /bin/bash sandbox",
                                             "/usr/local/bin:/usr/bin:/bin"]


def test_pipeline_ends_early():
    start = time.monotonic()
    out, err, status = run_script("while :; do echo y; done | head -n 3; cat /dev/zero | head -c 5 | wc -c")
    assert out == b"y\ny\ny\n5\n"
    assert time.monotonic() - start < 5


def test_broken_pipe_status():
    out, err, status = run_script('while :; do echo y; done | head -n1 >/dev/null; echo "${PIPESTATUS[@]}"')
    assert out == b"141 0\n"


def test_scripts_in_vfs():
    script = "\n".join([
        "cat > /tmp/hello.sh <<'END'",
        "#!/bin/bash",
        'echo "hello $1 from $0"',
        "exit 3",
        "END",
        "chmod +x /tmp/hello.sh",
        '/tmp/hello.sh world; echo "st=$?"',
        'bash /tmp/hello.sh x; echo "st=$?"',
        "bash -c 'echo \"c: $0 $1\"' name arg",
        "sh -c 'exit 5'; echo \"st=$?\"",
        "/usr/bin/echo stub dispatch",
        "/bin/cat /tmp/hello.sh | head -1",
        'cd /tmp && ./hello.sh rel; echo "st=$?"',
    ])
    out, err, status = run_script(script)
    lines = out.decode().splitlines()
    assert lines[0] == "hello world from /tmp/hello.sh" and lines[1] == "st=3", (out, err)
    assert lines[2] == "hello x from /tmp/hello.sh"
    assert "c: name arg" in lines
    assert "st=5" in lines
    assert "stub dispatch" in lines
    assert "#!/bin/bash" in lines
    assert "hello rel from ./hello.sh" in lines


def test_dev_tcp_refused():
    out, err, status = run_script("echo x > /dev/tcp/example.com/80")
    assert status == 1 and b"network" in err


def test_help_for_every_builtin():
    from sandbox_kernel.shell.builtins import BUILTINS, HELP
    for name in BUILTINS:
        assert HELP[name][0], name
    out, err, status = run_script("help cd; cd --help; help")
    assert status == 0 and out.count(b"cd: cd [-L|[-P [-e]] [-@]] [dir]") == 2


def test_background_jobs():
    out, err, status = run_script("f() { echo job; return 4; }; f & pid=$!; wait $pid; echo st=$?")
    assert out == b"job\nst=4\n"


def test_no_python_traceback_on_odd_input():
    for src in ["${", "$((", "echo ${x:?", "((1/0))", "echo $((1/0))", "declare -A a; a=([x]=1); echo ${a[", ")"]:
        out, err, status = run_script(src)
        assert b"Traceback" not in err and b"internal error" not in err, src


def test_fork_bomb_stops_and_sandbox_survives():
    """The cell returns at once (its foreground `:` is done, as in bash); the bomb goes on in
    its job group until the live-jobs cap ends the whole group, not the wall time, which it
    says on the stderr of the cell that started it. The next cell works."""
    async def main():
        sb = Sandbox()
        out, err = Sink(), Sink()
        res = await sb.run("sh", ":(){ :|:& };:", Streams(out, err, CancelToken()))
        engine = sb.engine("sh")
        for group in list(engine.rt.live_groups):
            await asyncio.wait_for(group.wait(), 120)
        alive = Sink()
        await sb.run("sh", "echo alive", Streams(alive, Sink(), CancelToken()))
        live = engine.rt.live_jobs
        await sb.shutdown()
        return res, err.text, alive.text, live
    res, err, alive, live = asyncio.run(main())
    assert res.status == 0 and alive == "alive\n" and live == 0
    assert err == "bash: job [1] (: | :): fork: 1000 background jobs already running (limit commands)\n"


def test_unterminated_heredoc_warns():
    (res, out, err), = run_cells(["cat <<EOF\nno end"])
    assert out == "no end\n" and "here-document" in err


def test_return_trap_and_exit_trap_status():
    out, err, status = run_script("f() { trap 'echo returned' RETURN; echo body; }; f; trap 'echo bye $?' EXIT; "
                                  "(exit 4)")
    assert out == b"body\nreturned\nbye 4\n" and status == 4


@pytest.mark.parametrize("loop", ["while true; do x=1; done", "while true; do :; done",
                                  "for ((i = 0; ; i++)); do y=$i; done",
                                  "for a in $(seq 200000); do for b in 1 2 3 4 5 6 7 8; do y=$b; done; done",
                                  "while :; do for a in 1 2 3 4 5 6 7 8; do y=$a; done; done"])
def test_other_threads_get_the_gil_while_a_loop_runs(loop):
    """An interrupt comes from another thread (the kernel's control thread). The interpreter's
    periodic yields once came every 5 ms, CPython's GIL switch interval, and a waiting thread
    then never got the GIL: the interrupt took seconds. Three tries, each must stop quickly."""
    import threading

    async def main():
        sb = Sandbox(Limits(commands=10**9, wall_time=20))
        for _ in range(3):
            cancel = CancelToken()
            threading.Timer(0.2, cancel.set, args=("interrupt",)).start()
            started = time.monotonic()
            res = await sb.run("sh", loop, Streams(Sink(), Sink(), cancel))
            assert res.status == 130 and time.monotonic() - started < 2.0
    asyncio.run(main())


def test_default_limits_let_a_long_while_read_loop_finish():
    # 120 000 reads: past the old default of 100 000 commands
    r = run_cells(["seq 120000 | { while read -r x; do y=$x; done; echo $y; }"])
    res, out, err = r[0]
    assert res.status == 0 and out == "120000\n", err


MODE_PROBE = 'echo "$-|${BASH_SOURCE[0]-none}|${BASH_EXECUTION_STRING-none}"; set -u; : $undefined_var'


@pytest.mark.parametrize("how", ["command", "file", "stdin"])
def test_cli_runs_a_string_a_file_or_stdin_as_bash_does(tmp_path, how):
    """`sh -c`, `sh FILE` and `sh < FILE` differ as in bash: only a -c string has "c" in $-,
    $BASH_EXECUTION_STRING and status 127 for an unbound variable; a file is BASH_SOURCE."""
    script = tmp_path / "probe.sh"
    script.write_text(MODE_PROBE + "\n")
    argv = {"command": ["-c", MODE_PROBE], "file": [str(script)], "stdin": []}[how]
    done = subprocess.run([sys.executable, "-m", "sandbox_kernel", "sh", *argv], capture_output=True, text=True,
                          input=MODE_PROBE + "\n" if how == "stdin" else "", timeout=60)
    flags, source, execution_string = done.stdout.rstrip("\n").split("|", 2)
    assert "undefined_var: unbound variable" in done.stderr
    if how == "command":
        assert (flags, source, execution_string, done.returncode) == ("hBc", "none", MODE_PROBE, 127)
    else:
        assert "c" not in flags and execution_string == "none" and done.returncode == 1
        assert source == (str(script) if how == "file" else "none")


HINTED = Limits(commands=2000, function_depth=40, words=1000, string_bytes=1000)
COMMANDS = "too many commands: 2000 executed (limit commands; raise it with %limits commands=4000)"
DEPTH = "f: maximum function nesting level exceeded (40; limit function_depth; raise it with %limits function_depth=80)"
WORDS = "too many words: over 1000 in one command (limit words; raise it with %limits words=2000)"
STRING = "limit string_bytes; raise it with %limits string_bytes=2000)"


@pytest.mark.parametrize("code, message", [
    ("while :; do :; done", COMMANDS),
    ("f() { while :; do :; done; }; f", COMMANDS),
    ("( while :; do :; done ); echo after", COMMANDS),
    ("x=$(while :; do :; done); echo after", COMMANDS),
    ("while :; do :; done | cat; echo after", COMMANDS),
    ("f() { f; }; f", DEPTH),
    ("f() { f; }; ( f ); echo after", DEPTH),
    ("f() { f; }; echo $(f); echo after", DEPTH),
    ("f() { f; }; f | cat; echo after", DEPTH),
    ("f() { f; }; g() { f; }; x=$( ( g | cat ) ); echo after", DEPTH),
    ("echo 'source /tmp/t' > /tmp/t; source /tmp/t",
     "/tmp/t: maximum source nesting level exceeded (limit function_depth; raise it with %limits function_depth=80)"),
    ("echo 'bash /tmp/s' > /tmp/s; bash /tmp/s",
     "/tmp/s: maximum nesting of shells exceeded (limit function_depth; raise it with %limits function_depth=80)"),
    ("f() { echo {1..100}{1..100}; }; f >/dev/null", WORDS),
    ("x=$(head -c 2000 /dev/zero)", f"command substitution output exceeds 1000 bytes ({STRING}"),
    ("head -c 2000 /dev/zero > f; x=$(< f)", f"$(< f): file exceeds 1000 bytes ({STRING}"),
    ("printf '%5000d' 1", f"printf: field width 5000 exceeds the string limit ({STRING}"),
    ("x=a; while :; do x=$x$x; done", f"string of 8192 bytes exceeds the limit (1000 bytes; {STRING}"),
    ("cat <(head -c 2000 /dev/zero) > /dev/null", f"output exceeds 1000 bytes ({STRING}"),
])
def test_every_shell_limit_says_once_how_to_raise_it(code, message):
    """The engine adds the hint where it reports the limit, whatever the shell was running."""
    (res, out, err), = run_cells([code], limits=HINTED)
    assert (res.status, res.error.ename, res.error.evalue, err) == (1, "LimitExceeded", message, f"bash: {message}\n")


@pytest.mark.parametrize("job, message", [
    ("{ while :; do :; done; }", COMMANDS),
    ("{ echo {1..100}{1..100}; } > /dev/null", WORDS),
])
def test_a_jobs_limit_ends_the_job_saying_how_to_raise_it(job, message):
    """A background job's limit is the job's: it ends, saying so once (with the hint) on the
    stderr of the cell that started it; the foreground goes on, and the job's notice at the
    cell's end (bash's, before its next prompt) gives its status."""
    (res, out, err), = run_cells([f"{job} & wait %1; echo after $?"], limits=HINTED)
    assert (res.status, out) == (0, "after 1\n")
    assert err == f"bash: job [1] ({job}): {message}\n[1]+  Exit 1                  {job}\n"


def test_shell_limit_hints_stay_within_the_ceilings():
    from sandbox_kernel.limits import DEFAULT_CEILINGS
    from sandbox_kernel.policy import Policy

    async def main(limits, ceilings, code):
        sb = Sandbox(limits, policy=Policy(ceilings=ceilings))
        err = Sink()
        res = await sb.run("sh", code, Streams(Sink(), err, CancelToken()))
        await sb.shutdown()
        return res, err.text
    res, err = asyncio.run(main(Limits(commands=2000), DEFAULT_CEILINGS.replace(commands=3000), "while :; do :; done"))
    assert err == "bash: too many commands: 2000 executed (limit commands; raise it with %limits commands=3000)\n"
    res, err = asyncio.run(main(Limits(), DEFAULT_CEILINGS, "f() { f; }; f"))
    assert err == ("bash: f: maximum function nesting level exceeded (1000; limit function_depth; that is this "
                   "kernel's ceiling, which the admin sets: python -m sandbox_kernel install --max-limit "
                   "function_depth=...)\n")
    res, err = asyncio.run(main(Limits(wall_time=0.5), DEFAULT_CEILINGS.replace(wall_time=0.8), "sleep 5"))
    assert err == "bash: wall time limit exceeded (0.5 s; limit wall_time; raise it with %limits wall_time=0.8)\n"


def test_a_fixed_cap_gets_no_hint():
    # 1000 live background jobs is not a setting (the message names "limit commands" as the nearest);
    # the jobs sleep long enough that none ends before the 1001st starts on a loaded machine
    (res, out, err), = run_cells(["for ((i = 0; i < 1001; i++)); do sleep 60 & done"])
    assert err == "bash: fork: 1000 background jobs already running (limit commands)\n"


def test_a_full_vfs_quota_gets_one_notice_per_run():
    """The commands' messages stay as GNU's; the run ends with which limit, and how to raise it."""
    lim = Limits(vfs_bytes=100_000, vfs_inodes=2000)
    r = run_cells(["head -c 200000 /dev/zero > big; head -c 200000 /dev/zero > big2; rm -f big big2",
                   "echo fine > small",
                   "for i in {1..3000}; do : > f$i || break; done; rm -f f*"], limits=lim)
    (_, _, err1), (_, _, err2), (_, _, err3) = r
    assert err1 == ("head: /workspace/big: No space left on device\nhead: /workspace/big2: No space left on device\n"
                    "[sandbox: no space left: the sandbox's files may take 100000 bytes (limit vfs_bytes; "
                    "raise it with %limits vfs_bytes=200000)]\n")
    assert err2 == ""
    assert err3.endswith(": No space left on device\n[sandbox: no space left: the sandbox's files may take 2000 files "
                         "and directories (limit vfs_inodes; raise it with %limits vfs_inodes=4000)]\n")
