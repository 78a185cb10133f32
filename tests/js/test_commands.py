"""`js` / `node` as commands: pipeline streams, argv, exit status, files, errors."""
import asyncio

from sandbox_kernel.commands import registry
from sandbox_kernel.commands.registry import CommandCancelled
from sandbox_kernel.streams import BufferOutput, BytesInput, Pipe

from .jshelp import _loop_for


class FakeShell:
    """What a command sees of the shell: cancellation checks."""

    def __init__(self, cancel_after: float | None = None) -> None:
        self.cancel_at = None if cancel_after is None else asyncio.get_event_loop().time() + cancel_after

    def check_cancel(self) -> None:
        if self.cancel_at is not None and asyncio.get_event_loop().time() > self.cancel_at:
            raise CommandCancelled()

    async def checkpoint(self) -> None:
        self.check_cancel()
        await asyncio.sleep(0)


def context(sandbox, argv, stdin, stdout, stderr, shell=None, env=None):
    return registry.CommandContext(argv[0], list(argv[1:]), stdin, stdout, stderr, sandbox.fs, "/workspace",
                                   dict(env or {"HOME": "/home/user", "GREETING": "hello"}),
                                   shell=shell or FakeShell(), sandbox=sandbox)


async def _invoke(sandbox, argv, stdin=b"", shell=None):
    out, err = BufferOutput(), BufferOutput()
    ctx = context(sandbox, argv, BytesInput(stdin), out, err, shell)
    status = await registry.invoke(registry.lookup(argv[0]), ctx)
    return out.getvalue().decode(), err.getvalue().decode(), status


def run_cmd(sandbox, argv, stdin=b"", shell=None):
    loop = _loop_for(sandbox)
    if shell == "cancel-soon":
        async def go():
            return await _invoke(sandbox, argv, stdin, FakeShell(0.3))
        return loop.run_until_complete(go())
    return loop.run_until_complete(_invoke(sandbox, argv, stdin))


def test_eval_prints_and_exits_zero(sandbox):
    assert run_cmd(sandbox, ["js", "-e", "console.log(1 + 1)"]) == ("2\n", "", 0)
    assert run_cmd(sandbox, ["node", "-p", "[1, 2].map(x => x * 3)"]) == ("[ 3, 6 ]\n", "", 0)
    assert run_cmd(sandbox, ["node", "-p", "'raw'"])[0] == "raw\n"


def test_stdin_json_to_stdout(sandbox):
    code = ("const d = JSON.parse(require('fs').readFileSync(0, 'utf8')); "
            "for (const k of Object.keys(d)) console.log(k, d[k])")
    assert run_cmd(sandbox, ["js", "-e", code], b'{"b": 2, "a": 1}') == ("b 2\na 1\n", "", 0)
    code = "let n = 0; process.stdin.on('data', c => n += c.length); process.stdin.on('end', () => console.log(n))"
    assert run_cmd(sandbox, ["js", "-e", code], b"x" * 200000)[0] == "200000\n"
    code = "process.stdin.pipe(process.stdout)"
    assert run_cmd(sandbox, ["js", "-e", code], b"copied\n")[0] == "copied\n"
    code = ("const rl = require('readline').createInterface({input: process.stdin}); "
            "rl.on('line', l => console.log(l.toUpperCase()))")
    assert run_cmd(sandbox, ["js", "-e", code], b"ab\ncd")[0] == "AB\nCD\n"


def test_argv_env_and_exit_codes(sandbox):
    out, _, status = run_cmd(sandbox, ["js", "-e",
                                       "console.log(JSON.stringify(process.argv.slice(1)), process.env.GREETING)",
                                       "a", "b c"])
    assert (out, status) == ('["a","b c"] hello\n', 0)
    assert run_cmd(sandbox, ["js", "-e", "process.exit(3); console.log('no')"]) == ("", "", 3)
    assert run_cmd(sandbox, ["js", "-e", "process.exitCode = 4"])[2] == 4
    assert run_cmd(sandbox, ["js", "-e", "console.log('bye'); std.exit(5)"]) == ("bye\n", "", 5)
    out, err, status = run_cmd(sandbox, ["js", "-e", "null.x"])
    assert status == 1 and "TypeError" in err and out == ""


def test_script_files_commonjs_and_esm(sandbox):
    fs = sandbox.fs
    fs.write_text("/workspace/tool.js", "#!/usr/bin/env node\nconst {greet} = require('./greet');\n"
                  "console.log(greet(process.argv[2]), require.main === module || 'main', __filename);\n")
    fs.write_text("/workspace/greet.js", "exports.greet = n => `hi ${n}`;\n")
    fs.write_text("/workspace/mod.mjs", "import { basename } from 'path';\nconst x = await Promise.resolve(5);\n"
                  "console.log(basename(process.argv[1]), x);\n")
    out, err, status = run_cmd(sandbox, ["node", "tool.js", "bob"])
    assert status == 0, err
    assert out.startswith("hi bob ") and out.rstrip().endswith("/workspace/tool.js")
    assert run_cmd(sandbox, ["js", "mod.mjs"]) == ("mod.mjs 5\n", "", 0)
    assert run_cmd(sandbox, ["js"], b"console.log('from stdin')") == ("from stdin\n", "", 0)
    assert run_cmd(sandbox, ["js", "-"], b"console.log(6 * 7)")[0] == "42\n"
    # issue #33: /dev/stdin names the pipeline's stdin, as `cat /dev/stdin` does
    assert run_cmd(sandbox, ["js", "/dev/stdin"], b"console.log(1)") == ("1\n", "", 0)
    assert run_cmd(sandbox, ["node", "/dev/stdin", "a"], b"console.log(process.argv.slice(1).join())") == \
        ("/dev/stdin,a\n", "", 0)
    assert run_cmd(sandbox, ["js", "/dev/fd/0"], b"console.log(2)") == ("2\n", "", 0)


def test_usage_errors(sandbox):
    assert run_cmd(sandbox, ["js", "missing.js"]) == \
        ("", "js: cannot open 'missing.js': No such file or directory\n", 1)
    assert run_cmd(sandbox, ["js", "--bogus"]) == ("", "js: bad option: --bogus\n", 9)
    assert run_cmd(sandbox, ["js", "-e"])[2] == 9
    assert run_cmd(sandbox, ["node", "--version"])[0].startswith("v")
    assert "Usage: js" in run_cmd(sandbox, ["js", "--help"])[0]


def test_commands_do_not_share_the_notebook_context(sandbox):
    assert run_cmd(sandbox, ["js", "-e", "globalThis.leak = 1"])[2] == 0
    assert run_cmd(sandbox, ["js", "-p", "typeof leak"])[0] == "undefined\n"


def test_two_js_commands_in_a_pipeline(sandbox):
    async def pipeline():
        pipe = Pipe()
        out, err1, err2 = BufferOutput(), BufferOutput(), BufferOutput()
        producer = context(sandbox, ["js", "-e", "for (let i = 0; i < 5000; i++) console.log(i)"], BytesInput(b""),
                           pipe.writer, err1)
        consumer = context(sandbox, ["js", "-e", "let s = 0; for await (const c of process.stdin) "
                                                 "s += c.toString().split('\\n').filter(Boolean).length; "
                                                 "console.log(s)"],
                           pipe.reader, out, err2)

        async def produce():
            try:
                return await registry.invoke(registry.lookup("js"), producer)
            finally:
                pipe.writer.close()
        statuses = await asyncio.gather(produce(), registry.invoke(registry.lookup("js"), consumer))
        return statuses, out.getvalue().decode(), err1.getvalue() + err2.getvalue()
    statuses, out, err = _loop_for(sandbox).run_until_complete(pipeline())
    assert statuses == [0, 0] and out == "5000\n" and err == b""


def test_reader_closing_the_pipe_stops_the_writer(sandbox):
    async def pipeline():
        pipe = Pipe(capacity=1024)
        err = BufferOutput()
        producer = context(sandbox, ["js", "-e", "while (true) console.log('y')"], BytesInput(b""), pipe.writer, err)
        task = asyncio.ensure_future(registry.invoke(registry.lookup("js"), producer))
        first = await pipe.reader.readline()
        pipe.reader.close()
        return first, await asyncio.wait_for(task, 10)
    first, status = _loop_for(sandbox).run_until_complete(pipeline())
    assert first == b"y\n" and status == 141


def test_cancel_from_the_shell_stops_a_busy_script(sandbox):
    import pytest

    with pytest.raises(CommandCancelled):
        run_cmd(sandbox, ["js", "-e", "while (true) {}"], shell="cancel-soon")
