"""The awk command: options (-F -v -f, --), the program run over its inputs, and exit statuses."""
from __future__ import annotations

import re

from ... import memory
from ...vfs import FSError
from .._lib.lineblocks import TextCodec
from .._lib.posix_regex import Bounds, RegexError, RegexStopped, compile_posix
from ..registry import CommandContext, command
from . import runtime as rt
from .compiler import CompileError, Compiler, field_use
from .lexer import AwkSyntaxError, regex_source, unescape
from .parser import AwkErrors, parse

AWK_HELP = """\
Usage: awk [POSIX or GNU style options] -f progfile [--] file ...
Usage: awk [POSIX or GNU style options] [--] 'program' file ...
POSIX options:		GNU long options: (standard)
	-f progfile		--file=progfile
	-F fs			--field-separator=fs
	-v var=val		--assign=var=val
Short options:		GNU long options: (extensions)
	-e 'program-text'	--source='program-text'"""


def _unescape(value: str, bytes_mode: bool, warnings: list[str]) -> str:
    """Escape sequences in -v, -F and var=value assignments, as in string constants."""
    return unescape(value, bytes_mode, warnings.append)


@command("awk", "gawk", help=AWK_HELP, own_help=False)
async def awk(ctx: CommandContext) -> int:
    args = list(ctx.args)
    sources: list[tuple[str, str]] = []  # (label, text)
    assigns: list[str] = []
    fs = None
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break

        def value_of(short: str, long: str) -> str:
            nonlocal i
            value, i = _option_value(args, i, short, long)
            return value

        try:
            if a.startswith("-F") or a.startswith("--field-separator"):
                fs = value_of("F", "--field-separator")
            elif a.startswith("-v") or a.startswith("--assign"):
                assigns.append(value_of("v", "--assign"))
            elif a.startswith("-f") or a.startswith("--file"):
                path = value_of("f", "--file")
                try:
                    text = await ctx.read_input(path)
                except FSError as e:
                    await ctx.error(f"fatal: can't open source file `{path}' for reading: {e.strerror}")
                    return 2
                sources.append((path, text.decode("utf-8", "surrogateescape")))
            elif a.startswith("-e") or a.startswith("--source"):
                sources.append(("cmd. line", value_of("e", "--source")))
            elif a == "--version" or a == "-V":
                await ctx.out("GNU Awk 5.2.1 (sandbox_kernel)\n")
                return 0
            elif a in ("--posix", "--traditional", "-P", "--re-interval", "-r", "--characters-as-bytes",
                       "-b", "--sandbox", "-S", "--lint", "--non-decimal-data", "-n"):
                pass
            else:
                raise _Usage("")  # gawk prints just the usage for an unknown option
        except _Usage as e:
            if e.message:
                await ctx.error(e.message)
            await ctx.err(_usage(ctx.name) + "\n")
            return 1
        i += 1
    operands = args[i:]
    if not sources:
        if not operands:
            await ctx.err(_usage(ctx.name) + "\n")
            return 1
        sources.append(("cmd. line", operands.pop(0)))
    codec = TextCodec.for_env(ctx.env)
    program_text = codec.arg("\n".join(text for _, text in sources))
    label = sources[0][0] if len(sources) == 1 else "cmd. line"
    try:
        warnings: list = []
        prog = parse(program_text, warnings, codec.bytes_mode)
        compiler = Compiler(prog)
        src, consts = compiler.compile()
        is_async = compiler.is_async
        code = compile(src, "<awk>", "exec")
    except AwkErrors as e:
        await ctx.err(_errors(ctx.name, label, e.errors))
        return 1
    except AwkSyntaxError as e:
        await ctx.err(_errors(ctx.name, label, getattr(e, "before", [])))
        if e.fatal:
            await ctx.err(f"{ctx.name}: {label}:{e.line}: fatal: {e.message}\n")
            return 2
        lines = program_text.split("\n")
        line_text = lines[e.line - 1] if 0 < e.line <= len(lines) else ""
        await ctx.err(f"{ctx.name}: {label}:{e.line}: {line_text}\n"
                      f"{ctx.name}: {label}:{e.line}: {' ' * e.col}^ {e.message}\n")
        return 1
    except CompileError as e:
        await ctx.err(f"{ctx.name}: {label}:1: {e.kind}: {e}\n" * e.times)
        return 2 if e.kind == "fatal" else 1
    except RegexError as e:
        await ctx.err(f"{ctx.name}: {label}:1: fatal: {e}\n")
        return 2
    except (SyntaxError, RecursionError) as e:
        await ctx.err(f"{ctx.name}: {label}:1: fatal: program too complex ({e.__class__.__name__})\n")
        return 2
    except Exception as e:  # a construct the compiler cannot handle: say so, no traceback
        await ctx.err(f"{ctx.name}: {label}:1: fatal: cannot compile this program ({e.__class__.__name__}: {e})\n")
        return 2

    for line, message in warnings:
        await ctx.err(f"{ctx.name}: {label}:{line}: warning: {message}\n")
    for message in compiler.warnings:
        await ctx.err(f"{ctx.name}: {label}:1: warning: {message}\n")
    bounds = Bounds.of(ctx)
    runtime = rt.Runtime(ctx, [ctx.name] + operands, bounds, codec)
    runtime.split_limit, runtime.columns, runtime.numbers_only = field_use(src)
    runtime.count_each = "NR" in src  # R.NR, R.FNR, setvar('NR'...): else NR is counted per batch
    runtime.rs_assigned = "'RS'" in src  # setvar('RS', ...): a batch may end early
    ns = rt.namespace(runtime)
    ns.update(consts)
    runtime.ns = ns
    for i in compiler.column_fields:
        ns[f"_C{i}"] = None
    try:
        exec(code, ns)
    except Exception as e:  # pragma: no cover - generated code always defines its functions
        await ctx.err(f"{ctx.name}: internal error: {e}\n")
        return 2

    def assign(text: str) -> None:
        name, _, value = text.partition("=")
        said: list[str] = []
        value = rt.StrNum(_unescape(codec.arg(value), codec.bytes_mode, said))
        runtime.warnings.extend(f"{ctx.name}: warning: {message}\n" for message in said)
        if name == "FS" and not runtime.split_done:
            runtime.ensure_split()
        if name in ("FS", "OFS", "ORS", "RS", "SUBSEP", "CONVFMT", "OFMT", "FILENAME"):
            setattr(runtime, name, str(value))
        elif name in ("NR", "NF", "FNR", "RT"):
            runtime.setvar(name, value)
        else:
            ns["v_" + name] = value

    runtime.assign_hook = assign
    for g in _globals_of(src):
        ns.setdefault(g, rt.UNINIT)
    for arr in _arrays_of(src):
        ns.setdefault(arr, {})
    runtime.arrays = [ns[arr] for arr in _arrays_of(src) if isinstance(ns.get(arr), dict)]
    try:
        said: list[str] = []
        for source, name in compiler.regexes.items():
            ns[name] = compile_posix(regex_source(source, codec.bytes_mode, said.append), extended=True, awk=True,
                                     ascii=codec.bytes_mode, bounds=bounds)
        for message in dict.fromkeys(said):
            await ctx.err(f"{ctx.name}: {label}:1: warning: {message}\n")
    except RegexError as e:
        await ctx.err(f"{ctx.name}: {label}:1: fatal: {e}\n")
        return 2
    if fs is not None:
        said = []
        runtime.FS = _unescape(codec.arg(fs), codec.bytes_mode, said)
        for message in said:
            await ctx.err(f"{ctx.name}: warning: {message}\n")
    for a in assigns:
        if "=" not in a or not re.match(r"[A-Za-z_][A-Za-z0-9_]*=", a):
            await ctx.err(f"{ctx.name}: fatal: `{a}' is not a legal variable name\n")
            return 2
        assign(a)

    rules = ns["RULES"]
    has_main = bool(prog.rules) or bool(prog.end)
    try:
        return await _run_program(runtime, ns, rules, has_main, is_async, ctx)
    finally:
        runtime.kill_children()  # only those an error or interrupt left running


async def _run_program(runtime: rt.Runtime, ns: dict, rules, has_main: bool, is_async: bool,
                       ctx: CommandContext) -> int:
    status = 0
    try:
        try:
            await _call(ns["BEGIN"], is_async)
            if has_main:
                await _main_loop(runtime, rules, is_async, ctx)
        except rt.AwkExit as e:
            status = int(e.status) if e.status is not None else 0
        try:
            await _call(ns["END"], is_async)
        except rt.AwkExit as e:
            if e.status is not None:
                status = int(e.status)
        await runtime.close_all()
    except rt.AwkFatal as e:
        await runtime.flush_stdout()
        where = ""
        if runtime.NR:  # gawk names the record it was working on
            where = f"(FILENAME={runtime.FILENAME} FNR={int(runtime.FNR)}) "
        await ctx.err(f"{ctx.name}: cmd. line:1: {where}fatal: {e}\n")
        return 2
    except RegexStopped as e:
        await runtime.flush_stdout()
        await ctx.err(f"{ctx.name}: fatal: regular expression /{e.pattern}/ stopped: {e.describe()}\n")
        ctx.check()
        return 2
    except memory.MemoryLimitExceeded:
        await runtime.flush_stdout()  # what was printed before, as gawk's fatal errors do
        raise
    except rt.LineTooLong:
        await runtime.flush_stdout()
        await ctx.err(f"{ctx.name}: fatal: record too long (over {rt.MAX_LINE} bytes)\n")
        return 2
    except RecursionError:
        await runtime.flush_stdout()
        await ctx.err(f"{ctx.name}: fatal: function call nesting too deep\n")
        return 2
    except FSError as e:
        await runtime.flush_stdout()
        await ctx.err(f"{ctx.name}: fatal: {e.filename}: {e.strerror}\n")
        return 2
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError,
            ZeroDivisionError) as e:
        # a gap in this awk, not the user's fault: a clear message instead of a traceback
        await runtime.flush_stdout()
        await ctx.err(f"{ctx.name}: fatal: internal error ({e.__class__.__name__}: {e})\n")
        return 2
    await runtime.flush_stdout()
    return status


async def _call(func, is_async: bool) -> None:
    if is_async:
        await func()
    else:
        func()


async def _main_loop(R: rt.Runtime, rules, is_async: bool, ctx: CommandContext) -> None:
    """Run the rules on every record. Records come in batches (everything buffered), so the
    per-record work is a few attribute updates and one call; plain (not async) rules skip
    what the program never reads (NR counted per batch, $0 when its numbers come from
    columns)."""
    NextRecord = rt.NextRecord
    columns_ok, count_each, numbers_only, rs_assigned = R.columns, R.count_each, R.numbers_only, R.rs_assigned
    R.columns = False  # numeric columns only while the main loop runs: END splits the record
    while True:
        if R.pending_pos >= len(R.pending):
            await R.flush_stdout()
            ctx.check()
            R.count_arrays()
            if not await R.fill_pending():
                return
        batch = R.pending
        pos = R.pending_pos
        if is_async:
            R.pending_pos = pos + 1
            R.NR += 1.0
            R.FNR += 1.0
            R.fields = [batch[pos]]
            R.split_done = False
            try:
                await rules()
            except NextRecord:
                pass
            if len(R.out) >= 1024:
                await R.flush_stdout()
            continue
        # plain functions: no getline can move the position
        start = pos
        columns = R.columns = columns_ok
        no_record = False  # the rules read fields only from this batch's columns: $0 not set
        if columns:
            R.numcols = {}  # this batch's
            if numbers_only is not None:
                no_record = all(R.numeric_column(i) is not None for i in numbers_only)
        n = len(batch)
        try:
            if no_record and not count_each:  # the rules see nothing but the position
                for pos in range(pos + 1, n + 1):
                    R.pending_pos = pos
                    try:
                        rules()
                    except NextRecord:
                        if R.pending is not batch:  # nextfile
                            break
                else:
                    pos = n
            else:
                while pos < n:
                    rec = batch[pos]
                    pos += 1
                    R.pending_pos = pos
                    if count_each:
                        R.NR += 1.0
                        R.FNR += 1.0
                    if not no_record:
                        R.fields = [rec]
                        R.split_done = False
                    try:
                        rules()
                    except NextRecord:
                        if R.pending is not batch:  # nextfile
                            break
                    if rs_assigned and R.pending is not batch:  # RS changed: the rest is read again
                        break
        finally:
            if columns:
                R.columns = False
                for i in R.numcols:  # END and the next batch do not see this one's
                    R.ns[f"_C{i}"] = None
            if no_record and pos > start:  # END (or an error message) sees the last record
                R.fields = [batch[pos - 1]]
                R.split_done = False
            if not count_each:  # the program never reads them: counted per batch
                R.NR += float(pos - start)
                R.FNR += float(pos - start)
            if R.pending is batch:
                R.pending_pos = pos


def _option_value(args: list[str], i: int, short: str, long: str) -> tuple[str, int]:
    """The value of the option at ``args[i]`` (attached, ``--opt=value`` or the next
    argument) and the index of the last argument it used."""
    a = args[i]
    if a.startswith("--"):
        if "=" in a:
            return a.split("=", 1)[1], i
    elif len(a) > 2:
        return a[2:], i
    if i + 1 >= len(args):
        raise _Usage(f"option '{long}' requires an argument" if a.startswith("--")
                     else f"option requires an argument -- {short}")
    return args[i + 1], i + 1


def _errors(name: str, label: str, errors: list[tuple[int, str]]) -> str:
    return "".join(f"{name}: {label}:{line}: error: {message}\n" for line, message in errors)


def _usage(name: str) -> str:
    return AWK_HELP.replace("Usage: awk", f"Usage: {name}")


class _Usage(Exception):
    def __init__(self, message: str) -> None:
        self.message = message


_GLOBAL_RE = re.compile(r"\bv_[A-Za-z0-9_]+")
_ARRAY_RE = re.compile(r"\ba_[A-Za-z0-9_]+")
def _globals_of(src: str) -> set[str]:
    return set(_GLOBAL_RE.findall(src))


def _arrays_of(src: str) -> set[str]:
    return set(_ARRAY_RE.findall(src))
