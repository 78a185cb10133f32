"""Running code and unwinding: eval, source, bash/sh, exec, exit, return, break, continue,
and the no-ops : true false."""
from __future__ import annotations


from ...lazy import TYPE_CHECKING
from ...commands import registry as command_registry
from ...streams import InputStream
from ...vfs import FSError, normpath
from ..lookup import find_sourced, is_binary_script
from ..state import AbortCommand, BreakLoop, ContinueLoop, ExitShell, LimitExceeded, ReturnFromFunction, ShellError
from ..syntax.lexer import ParseError
from ..syntax.parser import Parser
from .args import bash_int, parse_options, too_many_arguments
from ..options import OPTION_LETTERS
from .output import err, out
from .read import race_cancel
from .registry import BUILTINS, builtin, help_text

if TYPE_CHECKING:
    from typing import Awaitable
    from ..api import Fds, ShellAPI


@builtin(":", usage=":", text="Null command: no effect; the exit status is 0.", sync=True)
def b_colon(sh: ShellAPI, argv: list[str], fds: Fds) -> int | Awaitable[int]:
    return 0


@builtin("true", usage="true", text="Return a successful result.", sync=True)
def b_true(sh: ShellAPI, argv: list[str], fds: Fds) -> int | Awaitable[int]:
    return 0


@builtin("false", usage="false", text="Return an unsuccessful result.", sync=True)
def b_false(sh: ShellAPI, argv: list[str], fds: Fds) -> int | Awaitable[int]:
    return 1


@builtin(
    "eval",
    usage="eval [arg ...]",
    text=("Execute arguments as a shell command: combine ARGs into a single string, use the result as input to "
          "the shell, and execute the resulting commands."),
)
async def b_eval(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    _, args = parse_options(argv, "")
    text = " ".join(args)
    if not text.strip():
        return 0
    parser = Parser(text, sh.active_aliases, sh.lineno, sh.parse_extglob)
    status = 0
    sh.last_status = 0
    while True:
        try:
            node = parser.next_command()
        except ParseError as e:
            # bash names eval in the message: "bash: eval: line 3: syntax error ..."
            await sh.err(fds, f"{sh.error_prefix().split(': line ')[0]}: eval: line {e.line}: {e.message}\n")
            return 2
        if node is None:
            return status
        try:
            status = await sh.run_node(node, fds)
        except AbortCommand as e:
            # an error that abandons a command line (a readonly assignment, an arithmetic
            # error) abandons one of the string's, as bash's parse_and_execute does
            status = sh.last_status = e.status


@builtin("source", ".", usage="source filename [arguments]", text="""
Execute commands from a file in the current shell. Read and execute commands from FILENAME
in the current shell. The entries in $PATH are used to find the directory containing
FILENAME. If any ARGUMENTS are supplied, they become the positional parameters when
FILENAME is executed.""")
async def b_source(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        await err(sh, fds, argv[0], "filename argument required")
        await sh.err(fds, f"{argv[0]}: usage: {argv[0]} filename [arguments]\n")
        return 2
    name = args[0]
    path = name
    if sh.shopts["sourcepath"]:
        path = find_sourced(sh.fs, sh.cwd, name, sh.get_scalar("PATH") or "")
    path = normpath(path, sh.cwd)
    try:
        text = sh.fs.read_bytes(path).decode("utf-8", "surrogateescape").replace("\0", "")  # (bash drops NULs)
    except FSError as e:
        await err(sh, fds, name, e.strerror)
        return 1
    if sh.source_depth + sh.func_depth >= sh.rt.limits.function_depth:
        raise LimitExceeded(f"{name}: maximum source nesting level exceeded (limit function_depth)", "function_depth")
    saved_positional = sh.positional
    if len(args) > 1:
        sh.positional = args[1:]
    sh.source_depth += 1
    sh.sourcing += 1
    sh.push_frame("source", name)
    try:
        try:
            status = await sh.run_source(text, fds, sourced=True)
        except ReturnFromFunction as r:
            status = r.status
        if sh.traps.get("RETURN") and sh.return_trap_allowed:
            sh.last_status = status
            await sh.run_trap("RETURN")
        return status
    finally:
        sh.frames.pop()
        sh.sourcing -= 1
        sh.source_depth -= 1
        if len(args) > 1:
            sh.positional = saved_positional


@builtin(
    "exit",
    usage="exit [n]",
    text="Exit the shell with a status of N. If N is omitted, the exit status is that of the last command executed.",
)
async def b_exit(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    argv = _skip_dashdash(argv)
    if len(argv) > 1:
        try:
            status = bash_int(argv[1]) & 0xFF
        except ValueError:
            await err(sh, fds, "exit", f"{argv[1]}: numeric argument required")
            raise ExitShell(2)
        if len(argv) > 2:
            raise too_many_arguments(sh, "exit")
    else:
        status = sh.last_status
    raise ExitShell(status)


def _skip_dashdash(argv: list[str]) -> list[str]:
    return [argv[0]] + argv[2:] if len(argv) > 1 and argv[1] == "--" else argv


@builtin(
    "return",
    usage="return [n]",
    text=("Return from a shell function (or sourced script) with the return value N (default: the status of the "
          "last command)."),
)
async def b_return(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    if not sh.func_depth and not sh.sourcing:
        await err(sh, fds, "return", "can only `return' from a function or sourced script")
        return 2
    argv = _skip_dashdash(argv)
    status = sh.last_status
    if len(argv) > 1:
        try:
            status = bash_int(argv[1]) & 0xFF
        except ValueError:
            await err(sh, fds, "return", f"{argv[1]}: numeric argument required")
            status = 2
        if len(argv) > 2:
            raise too_many_arguments(sh, "return")
    raise ReturnFromFunction(status)


async def _loop_control(sh: ShellAPI, argv, fds: Fds, cls):
    if sh.loop_depth == 0:  # bash looks at the loop before the argument
        await err(sh, fds, argv[0], "only meaningful in a `for', `while', or `until' loop")
        return 0
    argv = _skip_dashdash(argv)
    n = 1
    if len(argv) > 1:
        try:
            n = bash_int(argv[1])
        except ValueError:
            await err(sh, fds, argv[0], f"{argv[1]}: numeric argument required")
            raise ExitShell(128) if not sh.interactive else ShellError("", 128)
        if n < 1:
            await err(sh, fds, argv[0], f"{argv[1]}: loop count out of range")
            return 1
        if len(argv) > 2:
            raise too_many_arguments(sh, argv[0])
    raise cls(min(n, sh.loop_depth))


@builtin(
    "break", usage="break [n]", text="Exit for, while, or until loops. If N is specified, break N enclosing loops."
)
async def b_break(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    return await _loop_control(sh, argv, fds, BreakLoop)


@builtin(
    "continue",
    usage="continue [n]",
    text="Resume the next iteration of the enclosing for, while or until loop (the Nth enclosing loop if N is given).",
)
async def b_continue(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    return await _loop_control(sh, argv, fds, ContinueLoop)


@builtin("exec", usage="exec [-cl] [-a name] [command [argument ...]] [redirection ...]", text="""
Replace the shell with the given command: execute COMMAND, then end the shell with its
status. If COMMAND is not specified, any redirections take effect in the current shell.""")
async def b_exec(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    opts, args = parse_options(argv, "cla:")
    name = next((v for o, v in opts if o == "a"), None)
    login = any(o == "l" for o, _ in opts)
    clear_env = any(o == "c" for o, _ in opts)
    if not args:
        return 0
    if name is not None or login:
        # argv[0] as the command sees it; only builtins (the nested shells) read it here
        shown = ("-" if login else "") + (name or args[0])
        if args[0] in BUILTINS:
            raise ExitShell(await BUILTINS[args[0]](sh, [shown] + args[1:], fds))
    env: dict[str, str] | None = {} if clear_env else None
    if args[0] in BUILTINS and command_registry.lookup(args[0]) is not None:
        # exec runs a program, never a builtin: exec echo is coreutils' /usr/bin/echo
        raise ExitShell(await sh.run_external(args, fds, env))
    status = await sh.run_command(args, fds, env=env, allow_functions=False)
    raise ExitShell(status)


@builtin(
    "bash",
    "sh",
    usage="bash [-ceux] [-o option] [-c command_string [name [args ...]] | file [args ...]]",
    text="""
Run a nested shell in the sandbox: with -c, run COMMAND_STRING (NAME becomes $0 and ARGS the
positional parameters); with FILE, run the script FILE from the sandbox's filesystem;
otherwise read the script from the standard input.""",
)
async def b_bash(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    invocation = await _parse_invocation(sh, argv, fds)
    if isinstance(invocation, int):
        return invocation
    command, read_stdin, args, options, shopts, interactive = invocation
    run = sh.run_script_file
    if command:
        if not args:
            await sh.err(fds, f"{argv[0]}: -c: option requires an argument\n")
            return 2
        text = args[0]
        name = args[1] if len(args) > 1 else argv[0]
        return await run(text, name, args[2:], fds, options=options, shopts=shopts, mode="command",
                         interactive=interactive)
    if args and not read_stdin:
        path = args[0]
        try:
            data = sh.fs.read_bytes(path, sh.cwd)
        except FSError as e:
            await sh.err(fds, f"{argv[0]}: {path}: {e.strerror}\n")
            return 127
        if is_binary_script(data):
            await sh.err(fds, f"{path}: {path}: cannot execute binary file\n")  # (bash names itself PATH by then)
            return 126
        text = data.decode("utf-8", "surrogateescape")
        return await run(text, path, args[1:], fds, options=options, shopts=shopts, interactive=interactive)
    stream = fds.get(0)
    data = await race_cancel(sh, stream.read()) if isinstance(stream, InputStream) else b""
    return await run(data.decode("utf-8", "surrogateescape"), argv[0], args, fds, options=options, shopts=shopts,
                     mode="stdin", interactive=interactive)


#: long options bash accepts (and ignores in the sandbox); those taking an argument map to True
LONG_OPTIONS = {"--norc": False, "--noprofile": False, "--login": False, "--noediting": False,
                "--debugger": False, "--debug": False, "--restricted": False, "--dump-strings": False,
                "--dump-po-strings": False, "--pretty-print": False, "--rcfile": True, "--init-file": True}


async def _parse_invocation(sh: ShellAPI, argv: list[str],
                            fds: Fds) -> int | tuple[bool, bool, list[str], dict, dict, bool]:
    """bash's command line: (-c given, -s given, remaining arguments, set -o options, shopt
    options, -i given), or the exit status after an error or --help/--version."""
    args = argv[1:]
    command = read_stdin = interactive = False
    options: dict = {}
    shopts: dict = {}
    while args:
        a = args[0]
        if a in ("--", "-"):
            args = args[1:]
            break
        if a.startswith("--"):
            args = args[1:]
            if a == "--help":
                await out(fds, f"{help_text('bash')}\n")
                return 0
            if a == "--version":
                await out(fds, "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu) [sandbox_kernel]\n")
                return 0
            if a in ("--posix", "--verbose"):
                options[a[2:]] = True
            elif a in LONG_OPTIONS:
                if LONG_OPTIONS[a]:
                    if not args:
                        await sh.err(fds, f"{argv[0]}: {a[2:]}: option requires an argument\n")
                        return 2
                    args = args[1:]
            else:
                await sh.err(fds, f"{argv[0]}: {a}: invalid option\n")
                return 2
            continue
        if len(a) < 2 or a[0] not in "-+":
            break
        on = a[0] == "-"
        args = args[1:]
        for c in a[1:]:
            if c in "oO":
                if not args:
                    await sh.err(fds, f"{argv[0]}: -{c}: option requires an argument\n")
                    return 2
                name, args = args[0], args[1:]
                table, known = (options, sh.options) if c == "o" else (shopts, sh.shopts)
                if name not in known:
                    kind = "invalid option name" if c == "o" else "invalid shell option name"
                    await sh.err(fds, f"{argv[0]}: {name}: {kind}\n")
                    return 2
                table[name] = on
            elif c == "c":
                command = True
            elif c == "i":
                interactive = True
            elif c == "s":
                read_stdin = True
            elif c in OPTION_LETTERS:
                options[OPTION_LETTERS[c]] = on
            elif c not in "lrD":
                await sh.err(fds, f"{argv[0]}: -{c}: invalid option\n")
                return 2
    return command, read_stdin, args, options, shopts, interactive
