"""xargs: build command lines from standard input and run them through the shell's runner."""
from __future__ import annotations

from typing import Callable

from .. import memory
from ..chars import isdigits
from ..streams import CHUNK
from ..streams import EmptyInput
from ..vfs import FSError
from ._lib.quoting import quote
from .options import UsageError, getopt
from .registry import CommandContext, command

XARGS_HELP = """\
Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...
Run COMMAND with arguments INITIAL-ARGS and more arguments read from input.

  -0, --null                   items are separated by a null, not whitespace;
                                 disables quote and backslash processing and
                                 logical EOF processing
  -a, --arg-file=FILE          read arguments from FILE, not standard input
  -d, --delimiter=CHARACTER    items in input stream are separated by CHARACTER,
                                 not by whitespace; disables quote and backslash
                                 processing and logical EOF processing
  -E END                       set logical EOF string; if END occurs as a line
                                 of input, the rest of the input is ignored
  -e, --eof[=END]              equivalent to -E END if END is specified;
                                 otherwise, there is no end-of-file string
  -I R                         same as --replace=R
  -i, --replace[=R]            replace R in INITIAL-ARGS with names read
                                 from standard input, split at newlines;
                                 if R is unspecified, assume {}
  -L, --max-lines=MAX-LINES    use at most MAX-LINES non-blank input lines per
                                 command line
  -l[MAX-LINES]                similar to -L but defaults to at most one non-
                                 blank input line if MAX-LINES is not specified
  -n, --max-args=MAX-ARGS      use at most MAX-ARGS arguments per command line
  -P, --max-procs=MAX-PROCS    accepted; commands always run one at a time
  -r, --no-run-if-empty        if there are no arguments, then do not run COMMAND;
                                 if this option is not given, COMMAND will be
                                 run at least once
  -s, --max-chars=MAX-CHARS    limit length of command line to MAX-CHARS
  -t, --verbose                print commands before executing them
  -x, --exit                   exit if the size (see -s) is exceeded
      --help                   display this help and exit

Exit status: 0 on success, 123 if any invocation exited with status 1-125,
124 if a command exited with 255, 125 if a command was killed, 126 if a
command cannot be run, 127 if a command was not found, 1 on other errors."""

DEFAULT_MAX_CHARS = 131072
#: What one input item costs beyond its text: its str and (item, ends_line) tuple objects, its list
#: slots, and its slot in the command line built from it. Measured with tracemalloc
#: (tests/test_memory_limit.py checks it).
ITEM_COST = 160


class _Held:
    """The items a split makes, counted against the memory limit every CHUNK bytes of input
    (with an interrupt check), so a huge input is refused within one chunk of the limit."""

    __slots__ = ("items", "check", "counted", "next_at")

    def __init__(self, items: list, check: Callable[[], None]) -> None:
        self.items = items
        self.check = check
        self.counted = 0
        self.next_at = CHUNK

    def step(self, pos: int) -> None:
        self.check()
        memory.charge((len(self.items) - self.counted) * ITEM_COST)
        self.counted = len(self.items)
        self.next_at = pos + CHUNK


class _XargsError(Exception):
    def __init__(self, message: str, items: list | None = None) -> None:
        super().__init__(message)
        self.items = items or []


def _unmatched_quote(quote_ch: int, done: list[tuple[str, bool]]) -> _XargsError:
    """GNU's error for a quote left open at a newline or the end; ``done`` still runs."""
    kind = "double" if quote_ch == 34 else "single"
    return _XargsError(f"unmatched {kind} quote; by default quotes are special to xargs "
                       "unless you use the -0 option", done)


def _split_default(data: bytes, eof: str | None, lines_per_command: int | None = None,
                   check: Callable[[], None] = lambda: None) -> list[tuple[str, bool]]:
    """Items from xargs' default input syntax: (item, ends_line) pairs. Blanks separate,
    quotes group (but not across newlines), backslash escapes anything; a line ending in a
    blank continues on the next one (for -L). An unmatched quote raises with the items GNU
    still runs: everything before it, or with -L only the complete groups of lines."""
    items: list[tuple[str, bool]] = []
    complete = 0  # items belonging to finished groups of lines (-L)
    lines_done = 0
    cur = bytearray()
    have = False
    quote_ch = None
    prev = 10
    i = 0
    n = len(data)
    held = _Held(items, check)

    def unmatched() -> _XargsError:
        return _unmatched_quote(quote_ch, items[:complete] if lines_per_command else items)

    while i < n:
        if i >= held.next_at:
            held.step(i)
        c = data[i]
        if quote_ch is not None:
            if c == quote_ch:
                quote_ch = None
            elif c == 10:
                raise unmatched()
            else:
                cur.append(c)
            prev = c
            i += 1
            continue
        if c in (32, 9, 10, 11, 12, 13):
            if have:
                word = cur.decode("utf-8", "surrogateescape")
                if eof is not None and word == eof:
                    return items
                items.append((word, False))
                cur.clear()
                have = False
            if c == 10 and prev not in (32, 9) and items and not items[-1][1]:
                items[-1] = (items[-1][0], True)
                lines_done += 1
                if lines_per_command and lines_done % lines_per_command == 0:
                    complete = len(items)
            prev = c
            i += 1
            continue
        if c in (34, 39):
            quote_ch = c
            have = True
            prev = c
            i += 1
            continue
        if c == 92:
            if i + 1 < n:
                cur.append(data[i + 1])
                have = True
            prev = 0
            i += 2
            continue
        cur.append(c)
        have = True
        prev = c
        i += 1
    if quote_ch is not None and cur:
        raise unmatched()
    if have and quote_ch is None:
        # the last word, ended by end of input: GNU takes it as the EOF string only
        # when nothing came before it
        word = cur.decode("utf-8", "surrogateescape")
        if not (eof is not None and word == eof and not items):
            items.append((word, True))
    elif items:
        items[-1] = (items[-1][0], True)
    held.step(n)
    return items


def _split_lines_for_replace(data: bytes, eof: str | None, check: Callable[[], None] = lambda: None) -> list[str]:
    """-I: one item per input line; leading white space dropped (a line of it is no item),
    quotes and backslashes processed (a backslash-newline continues the item), other blanks
    kept."""
    out: list[str] = []
    item = bytearray()
    started = False  # past the leading blanks of the current line
    quote_ch = None
    i = 0
    n = len(data)
    held = _Held(out, check)

    def unmatched() -> _XargsError:
        return _unmatched_quote(quote_ch, [(x, True) for x in out])

    while i < n:
        if i >= held.next_at:
            held.step(i)
        c = data[i]
        i += 1
        if quote_ch is not None:
            if c == quote_ch:
                quote_ch = None
            elif c == 10:
                raise unmatched()
            else:
                item.append(c)
            continue
        if c == 10:
            if started:
                text = item.decode("utf-8", "surrogateescape")
                if eof is not None and text == eof:
                    return out
                out.append(text)
            item.clear()
            started = False
            continue
        if not started and c in (32, 9, 11, 12, 13):  # isspace: \v \f \r lead too
            continue
        started = True
        if c in (34, 39):
            quote_ch = c
        elif c == 92:
            if i < n:
                item.append(data[i])
                i += 1
        else:
            item.append(c)
    if quote_ch is not None and item:
        raise unmatched()
    if started and quote_ch is None:
        text = item.decode("utf-8", "surrogateescape")
        if not (eof is not None and text == eof):
            out.append(text)
    return out


@command("xargs", help=XARGS_HELP, own_help=True)  # "xargs grep --help" runs grep --help
async def xargs(ctx: CommandContext) -> int:
    opts, argv = getopt(ctx.args, "+0a:d:E:e::I:i::L:l::n:P:prs:tx", {
        "null": "0", "arg-file=": "a", "delimiter=": "d", "eof==": "e", "replace==": "i",
        "max-lines=": "L", "max-args=": "n", "max-procs=": "P", "interactive": "p",
        "no-run-if-empty": "r", "max-chars=": "s", "verbose": "t", "exit": "x",
        "show-limits": None, "open-tty": "o", "process-slot-var=": None, "help": None}, status=1)
    delim: bytes | None = None
    arg_file = None
    eof: str | None = None
    replace: str | None = None
    max_lines: int | None = None
    max_args: int | None = None
    max_chars = DEFAULT_MAX_CHARS
    no_empty = verbose = exit_on_size = False

    def count(val: str, opt: str, minimum: int = 1) -> int:
        if not isdigits(val.lstrip("-")):
            raise UsageError(f'invalid number "{val}" for -{opt} option', 1)
        n = int(val)
        if n < minimum:
            raise UsageError(f"value {n} for -{opt} option should be >= {minimum}", 1)
        return n

    if any(opt == "help" for opt, _ in opts):
        await ctx.out(XARGS_HELP + "\n")
        return 0
    for opt, val in opts:
        if opt == "0":
            delim = b"\0"
        elif opt == "a":
            arg_file = val
        elif opt == "d":
            raw = val.encode("utf-8", "surrogateescape")
            escapes = {b"\\n": b"\n", b"\\t": b"\t", b"\\0": b"\0", b"\\\\": b"\\"}
            raw = escapes.get(raw, raw)
            if len(raw) != 1:
                await ctx.error(f"invalid input delimiter specification {val}: the delimiter "
                                "must be either a single character or an escape sequence "
                                "starting with \\.")
                return 1
            delim = raw
        elif opt == "E":
            eof = val
        elif opt == "e":
            eof = val or None
        elif opt == "I":
            replace = val
        elif opt == "i":
            replace = val or "{}"
        elif opt == "L":
            max_lines = count(val, "L")
        elif opt == "l":
            max_lines = count(val, "l") if val else 1
        elif opt == "n":
            max_args = count(val, "n")
        elif opt == "P":
            count(val, "P", 0)
        elif opt == "p":
            await ctx.error("-p needs a terminal to ask on, which the sandbox does not have")
            return 1
        elif opt == "r":
            no_empty = True
        elif opt == "s":
            max_chars = count(val, "s")
        elif opt == "t":
            verbose = True
        elif opt == "x":
            exit_on_size = True
    command_argv = argv or ["echo"]

    try:
        if arg_file is not None:
            if arg_file != "-":
                data = ctx.read_file(arg_file)
                memory.charge(len(data))  # held like stdin's (read_all counts that)
            else:
                data = await ctx.stdin.read()
            child_stdin = ctx.stdin if arg_file != "-" else EmptyInput()
        else:
            data = await ctx.stdin.read()
            child_stdin = EmptyInput()
    except FSError as e:
        await ctx.error(f"Cannot open input file {quote(arg_file or '-', 'locale')}: {e.strerror}")
        return 1

    # split input into items, remembering which ones end an input line (for -L)
    try:
        memory.charge(len(data))  # the items' text
        if delim is not None:
            memory.charge((data.count(delim) + 1) * ITEM_COST)  # split at once, refused before
        if replace is not None:
            if delim is not None:
                items = [(x.decode("utf-8", "surrogateescape"), True) for x in data.split(delim)]
                if items and items[-1][0] == "" and data.endswith(delim):
                    items.pop()
            else:
                items = [(x, True) for x in _split_lines_for_replace(data, eof, ctx.check)]
        elif delim is not None:
            parts = data.split(delim)
            if parts and parts[-1] == b"":
                parts.pop()
            items = [(p.decode("utf-8", "surrogateescape"), True) for p in parts]
        else:
            items = _split_default(data, eof, max_lines, ctx.check)
    except _XargsError as e:
        # GNU still runs the command on the items read before the bad quote
        items = e.items
        input_error = str(e)
    else:
        input_error = None

    base_len = sum(len(a.encode("utf-8", "surrogateescape")) + 1 for a in command_argv)
    status = 0

    async def run(args: list[str]) -> int | None:
        """Run one command line; returns an exit status for xargs to stop with, or None."""
        nonlocal status
        if verbose:
            await ctx.err(" ".join(args) + "\n")
        rc = await ctx.run(args, stdin=child_stdin)
        if rc == 127:
            return 127
        if rc == 126:
            return 126
        if rc == 255:
            await ctx.error(f"{args[0]}: exited with status 255; aborting")
            return 124
        if rc > 128:
            await ctx.error(f"{args[0]}: terminated by signal {rc - 128}")
            return 125
        if rc != 0:
            status = 123
        await ctx.checkpoint()
        return None

    async def run_batches(items: list[tuple[str, bool]]) -> int | None:
        i = 0
        while i < len(items):
            batch: list[str] = []
            length = base_len
            lines = 0
            while i < len(items):
                text, ends_line = items[i]
                size = len(text.encode("utf-8", "surrogateescape")) + 1
                if length + size > max_chars:
                    if not batch:
                        await ctx.error("argument line too long")
                        return 1
                    if exit_on_size:
                        await ctx.error("argument list too long")
                        return 1
                    break
                if max_args is not None and len(batch) >= max_args:
                    break
                batch.append(text)
                length += size
                i += 1
                if max_lines is not None and ends_line:
                    lines += 1
                    if lines >= max_lines:
                        break
            stop = await run(list(command_argv) + batch)
            if stop is not None:
                return stop
        return None

    if input_error is not None:
        # GNU reports the bad quote, then still runs the command on the items before it
        await ctx.error(input_error)
    if replace is not None:
        for text, _ in items:
            args = [a.replace(replace, text) for a in command_argv]
            stop = await run(args)
            if stop is not None:
                return stop
        return 1 if input_error is not None else status
    if input_error is not None:
        if items:
            stop = await run_batches(items)
            if stop is not None:
                return stop
        return 1
    if not items:
        if no_empty:
            return 0
        stop = await run(list(command_argv))
        return stop if stop is not None else status
    stop = await run_batches(items)
    return stop if stop is not None else status
