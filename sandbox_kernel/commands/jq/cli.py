"""The jq command: options, the program and its inputs, printing the results, and jq 1.6's
messages and exit statuses."""
from __future__ import annotations

import posixpath
import re
import sys
from typing import Any

from ... import memory
from ...vfs import FSError
from .._lib.bounded import Bounds, RegexStopped
from ..registry import CommandContext, command
from .formats import decode_utf8, dump
from .jsontext import parse_json_text
from .inputs import InputSource, json_values, repair
from .interp import PRELUDE_ENV, Interpreter, bind_imports, calls, check_defined, link_module
from .lexer import JqSyntaxError
from .modules import Linker, ModuleError
from .parser import Parser
from .values import MISSING, HaltSignal, JqError, truthy


JQ_HELP = """Usage:	jq [OPTIONS] FILTER [FILES...]
	jq [OPTIONS] --args FILTER [ARGUMENTS...]
	jq [OPTIONS] --jsonargs FILTER [JSON_VALUES...]

jq is a tool for processing JSON inputs, applying the given filter to
its JSON text inputs and producing the filter's results as JSON on
standard output.

Some of the options include:
  -c               compact instead of pretty-printed output;
  -n               use `null` as the single input value;
  -e               set the exit status code based on the output;
  -s               read (slurp) all inputs into an array; apply filter to it;
  -r               output raw strings, not JSON texts;
  -j               like -r but no newline after each output;
  -a               output ASCII with escapes for non-ASCII characters;
  -R               read raw input: each line is a string;
  -S               sort keys of objects on output;
  -f FILE          read the filter from FILE;
  --tab            use tabs for indentation;
  --indent n       use the given number of spaces (no more than 7) for indentation;
  --arg a v        set variable $a to value <v>;
  --argjson a v    set variable $a to JSON value <v>;
  --slurpfile a f  set variable $a to an array of JSON texts read from <f>;
  --rawfile a f    set variable $a to a string consisting of the contents of <f>;
  --args           remaining arguments are string arguments, not files;
  --jsonargs       remaining arguments are JSON arguments, not files;
  --stream         parse the input in streaming fashion ([path, leaf] events);
  --               terminates argument processing;
"""


def _read_text(ctx: CommandContext, name: str) -> str:
    """A file jq holds as text, counted against the memory limit (its bytes and its text are
    both alive while it is decoded)."""
    memory.need(2 * ctx.fs.stat(name, cwd=ctx.cwd).st_size)
    # invalid UTF-8 is kept (as surrogates) and replaced per JSON string or raw line, as jq does
    text = ctx.fs.read_bytes(name, cwd=ctx.cwd).decode("utf-8", "surrogateescape")
    memory.charge(sys.getsizeof(text))
    return text


def _set(opts: dict, name: str | None) -> None:
    """An option that is a switch; -c and --tab set the indentation (the last one wins)."""
    if name == "compact":
        opts["indent"] = 0
    elif name == "tab":
        opts["indent"] = "\t"
    elif name:
        opts[name] = True


def _real(ctx: CommandContext, path: str, missing: str | None = None) -> str:
    """The real path of ``path`` (jq_realpath: ``missing``, or the path, when it has none)."""
    try:
        return ctx.fs.realpath(path, cwd=ctx.cwd, strict=True)
    except (FSError, OSError):
        return path if missing is None else missing


def _atoi(text: str) -> int:
    """C's atoi: optional blanks and sign, the digits that follow, 0 without any."""
    m = re.match(r"[ \t\n\v\f\r]*([+-]?[0-9]+)", text)
    return int(m.group(1)) if m else 0


async def _usage(ctx: CommandContext, message: str) -> int:
    await ctx.err(
        f"jq: {message}\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n"
    )
    return 2


@command("jq", help=JQ_HELP)
async def jq(ctx: CommandContext) -> int:
    args = list(ctx.args)
    opts: dict[str, Any] = {"indent": 2, "raw": False,
                            "join": False, "ascii": False, "sort": False, "null_input": False,
                            "slurp": False, "raw_input": False, "exit_status": False,
                            "seq": False, "stream": False}
    named: dict[str, Any] = {}
    positional: list[Any] = []
    filter_text = None
    filter_file = None
    files: list[str] = []
    lib_dirs: list[str] | None = None  # -L, in order (else jq's default search path)
    rest_mode = None  # "args" / "jsonargs"
    i = 0
    shorts = {"c": "compact", "r": "raw", "j": "join", "a": "ascii", "S": "sort",
              "n": "null_input", "s": "slurp", "R": "raw_input", "e": "exit_status",
              "C": None, "M": None, "h": "help"}
    longs = {"compact-output": "compact", "raw-output": "raw", "join-output": "join",
             "ascii-output": "ascii", "sort-keys": "sort", "null-input": "null_input",
             "slurp": "slurp", "raw-input": "raw_input", "exit-status": "exit_status",
             "color-output": None, "monochrome-output": None, "tab": "tab", "seq": "seq",
             "unbuffered": None, "stream": "stream"}
    try:
        while i < len(args):
            a = args[i]
            i += 1
            if a == "--":
                for rest in args[i:]:
                    if filter_text is None and filter_file is None:
                        filter_text = rest
                    elif rest_mode == "args":
                        positional.append(rest)
                    elif rest_mode == "jsonargs":
                        positional.append(parse_json_text(rest))
                    else:
                        files.append(rest)
                break
            if a.startswith("--") and len(a) > 2:
                name = a[2:]
                if name in longs:
                    _set(opts, longs[name])
                elif name == "indent":
                    if i >= len(args):
                        return await _usage(ctx, "--indent takes one parameter")
                    n = _atoi(args[i])
                    if not -1 <= n <= 7:
                        return await _usage(ctx, "--indent takes a number between -1 and 7")
                    opts["indent"] = "\t" if n == -1 else n  # the last of -c, --tab, --indent wins
                    i += 1
                elif name in ("arg", "argjson", "slurpfile", "rawfile"):
                    if i + 1 >= len(args):
                        return await _usage(ctx, f"--{name} takes two parameters (e.g. --{name} varname value)")
                    var, value = args[i], args[i + 1]
                    i += 2
                    if name == "arg":
                        named[var] = value
                    elif name == "argjson":
                        try:
                            named[var] = parse_json_text(value)
                        except JqError:
                            return await _usage(ctx, "Invalid JSON text passed to --argjson")
                    else:
                        try:
                            data = _read_text(ctx, value)
                        except FSError as e:
                            await ctx.err(f"jq: error: Could not open {value}: {e.strerror}\n")
                            return 2
                        if name == "rawfile":
                            named[var] = repair(data)
                        else:
                            values, error = json_values(value, data)
                            if error:
                                await ctx.err(f"jq: Bad JSON in --slurpfile {var} {value}: {error}\n")
                                return 2
                            named[var] = values
                elif name in ("args", "jsonargs"):
                    rest_mode = name
                elif name == "from-file":
                    if i >= len(args):
                        return await _usage(ctx, "-f takes a parameter")
                    filter_file = args[i]
                    i += 1
                elif name == "help":
                    await ctx.out(JQ_HELP)
                    return 0
                elif name == "version":
                    await ctx.out("jq-1.6\n")
                    return 0
                else:
                    return await _usage(ctx, f"Unknown option: {a}")
                continue
            if a.startswith("-L"):
                if len(a) > 2:
                    path = a[2:]
                elif i < len(args):
                    path = args[i]
                    i += 1
                else:
                    await ctx.err("-L takes a parameter: (e.g. -L /search/path or -L/search/path)\n")
                    return 2
                lib_dirs = (lib_dirs or []) + [_real(ctx, path, path)]
                continue
            if a.startswith("-") and len(a) > 1 and all(ch in shorts or ch == "f" for ch in a[1:]):
                for ch in a[1:]:
                    if ch == "f":
                        if i >= len(args):
                            return await _usage(ctx, "-f takes a parameter")
                        filter_file = args[i]
                        i += 1
                    elif ch in shorts:
                        if shorts[ch] == "help":
                            await ctx.out(JQ_HELP)
                            return 0
                        _set(opts, shorts[ch])
                    else:
                        return await _usage(ctx, f"Unknown option: {a}")
                continue
            if filter_text is None and filter_file is None:
                filter_text = a
            elif rest_mode == "args":
                positional.append(a)
            elif rest_mode == "jsonargs":
                try:
                    positional.append(parse_json_text(a))
                except JqError:
                    return await _usage(ctx, "Invalid JSON text passed to --jsonargs")
            else:
                files.append(a)
    except JqError as e:
        return await _usage(ctx, str(e.value))
    if filter_file is not None:
        if filter_text is not None:
            files.insert(0, filter_text)
        try:
            filter_text = decode_utf8(ctx.fs.read_bytes(filter_file, cwd=ctx.cwd))
        except FSError as e:
            await ctx.err(f"jq: error: Could not open {filter_file}: {e.strerror}\n")
            return 2
    if filter_text is None:
        # like jq when its input is not a terminal: the identity program
        filter_text = "."
    origin = posixpath.dirname(_real(ctx, filter_file)) if filter_file is not None else _real(ctx, ".")
    linker = Linker(ctx.fs, ctx.cwd, ctx.env, lib_dirs, origin)
    root = PRELUDE_ENV.child()
    try:
        top = Parser(filter_text).parse_top()
        functions: set = set()
        home = linker.home_library()  # ~/.jq, a file: included first
        if home is not None:
            for key, closure in link_module(linker.load(home), linker).items():
                root.funcs.setdefault(key, closure)
                functions.add(key)
        bound, data = bind_imports(top, root, linker, origin)
        program = top.body
        check_defined(program, frozenset(functions | bound),
                      frozenset(named) | data | {"ENV", "ARGS", "__loc__"})
    except ModuleError as e:
        if e.where:
            await ctx.err(f"jq: error: {e} at {e.where}, line 1:\n{e.source}\njq: 1 compile error\n")
        else:
            await ctx.err(f"jq: error: {e}\n{e.source}\njq: 1 compile error\n")
        return 3
    except (JqSyntaxError, RecursionError) as e:
        await ctx.err(f"jq: error: {e} at <top-level>, line 1:\n{filter_text}\njq: 1 compile error\n")
        return 3

    texts: list[tuple[str, str]] = []
    for name in files:
        try:
            texts.append((name, _read_text(ctx, name)))
        except FSError as e:
            await ctx.err(f"jq: error: Could not open {name}: {e.strerror}\n")
            return 2
    if not files:
        texts = [("<stdin>", "")]
    source = InputSource(texts, opts["raw_input"], opts["slurp"], opts["stream"])
    need_stdin = not files
    stdin_loaded = False

    async def ensure_stdin():
        nonlocal stdin_loaded
        if need_stdin and not stdin_loaded:
            data = await ctx.stdin.read()  # counted against the memory limit as it comes
            memory.need(len(data))  # its text, while the bytes still live
            texts[0] = ("<stdin>", data.decode("utf-8", "surrogateescape"))
            memory.charge(sys.getsizeof(texts[0][1]))
            stdin_loaded = True

    root.vars["ENV"] = dict(ctx.env)
    for k, v in named.items():
        root.vars[k] = v
    root.vars["ARGS"] = {"positional": positional, "named": named}
    stderr_lines: list[str] = []
    interp = Interpreter(ctx.env, source, stderr_lines)
    interp.check = ctx.check
    interp.bounds = Bounds.of(ctx)
    interp.linker = linker

    indent: int | str = opts["indent"]
    status = 0
    last_output = MISSING

    async def emit(v: Any) -> None:
        nonlocal last_output
        last_output = v
        if (opts["raw"] or opts["join"]) and isinstance(v, str):
            text = v
        else:
            text = dump(v, indent, opts["sort"], opts["ascii"])
        if opts["seq"]:
            text = "\x1e" + text
        await ctx.out(text if opts["join"] else text + "\n")

    async def flush_stderr() -> None:
        if stderr_lines:
            await ctx.err("".join(stderr_lines))
            stderr_lines.clear()

    async def run_one(value: Any) -> bool:
        """Run the program on one input; False when jq must stop (halt)."""
        nonlocal status
        try:
            count = 0
            for out in interp.eval(program, value, root):
                await flush_stderr()
                await emit(out)
                count += 1
                if count % 256 == 0:
                    await ctx.checkpoint()
        except JqError as e:
            await flush_stderr()
            msg = e.value
            if msg is None:
                # jq 1.6 drops an uncaught error(null) silently
                return True
            where = f"{source.current_name or '<stdin>'}:{int(source.line_number())}"
            if source.current_name is None:
                where = "<unknown>"
            if isinstance(msg, str):
                await ctx.err(f"jq: error (at {where}): {msg}\n")
            else:
                await ctx.err(f"jq: error (at {where}) (not a string): {dump(msg)}\n")
            status = 5
        except HaltSignal as h:
            await flush_stderr()
            if h.has_message:
                if isinstance(h.message, str):
                    await ctx.err(h.message)
                else:
                    await ctx.err(dump(h.message) + "\n")
            status = h.status
            raise
        except RecursionError:
            await ctx.err("jq: error: stack overflow (recursion too deep)\n")
            status = 5
        except RegexStopped as e:
            await flush_stderr()
            await ctx.err(f"jq: error: regular expression {dump(e.pattern)} stopped: {e.describe()}\n")
            ctx.check()
            status = 5
        except (ValueError, TypeError, OverflowError, KeyError, IndexError, AttributeError) as e:
            # an internal slip must still look like a jq error, never a traceback
            await flush_stderr()
            await ctx.err(f"jq: error (at <stdin>:1): {e}\n")
            status = 5
        return True

    try:
        if opts["null_input"]:
            # like jq, read standard input only when the program asks for it
            if need_stdin and calls(program, {"input", "inputs"}):
                await ensure_stdin()
            await run_one(None)
        else:
            await ensure_stdin()
            while True:
                value = source.next_value()
                if value is MISSING:
                    break
                await run_one(value)
                await ctx.checkpoint()
            if source.error:
                await ctx.err(f"parse error: {source.error}\n")
                # jq 1.6 exits 4 after an input parse error, whatever happened before
                status = 4
    except HaltSignal as h:
        return h.status
    if opts["exit_status"] and status == 0:
        if last_output is MISSING:
            return 4
        if not truthy(last_output):
            return 1
    return status
