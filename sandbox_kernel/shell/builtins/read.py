"""read and mapfile/readarray, and reading a stream so that an interrupt stops the wait."""
from __future__ import annotations

import codecs
import re

from ... import aio
from ...chars import isdigits
from ...commands.registry import CommandCancelled
from ...lazy import TYPE_CHECKING, lazy_import
from ...streams import BytesInput, EmptyInput, FileInput, InputStream
from ..state import VALUE_OVERHEAD
from ..syntax.lexer import is_name
from .args import bash_int
from .output import err
from .registry import builtin

if TYPE_CHECKING:
    from collections.abc import Awaitable
    from typing import TypeVar

    from ..api import Fds, ShellAPI

    T = TypeVar("T")

asyncio = lazy_import("asyncio")  # with the loop (aio.py)


def never_blocks(stream: InputStream, delim: bytes | None = None) -> bool:
    """True when reading ``stream`` cannot wait (data buffered, or a file/bytes source)."""
    if isinstance(stream, (BytesInput, FileInput, EmptyInput)):
        return not getattr(getattr(stream, "handle", None), "fifo", False)  # a named pipe waits
    return delim is not None and delim in stream._buf


async def read_with_cancel(sh: ShellAPI, stream: InputStream, coro: Awaitable[T], delim: bytes | None = None,
                           timeout: float | None = None) -> T:
    if timeout is None and never_blocks(stream, delim):
        return await coro
    return await race_cancel(sh, coro, timeout)


async def race_cancel(sh: ShellAPI, coro: Awaitable[T], timeout: float | None = None) -> T:
    """Await ``coro`` but give up at once on interrupt/time-out (or after ``timeout``). A
    signal that arrives meanwhile is taken at once: its trap runs and the wait goes on (bash's
    read), or the shell dies of it."""
    await aio.need_loop()
    cancel = sh.rt.cancel
    task = asyncio.ensure_future(coro)
    if task.done():
        return task.result()
    deadline = None if timeout is None else asyncio.get_running_loop().time() + timeout
    try:
        while True:
            waiters = [task, sh.signal_future()]
            cancel_task = None
            if cancel is not None:
                cancel_task = asyncio.ensure_future(cancel.wait())
                waiters.append(cancel_task)
            left = None if deadline is None else max(0.0, deadline - asyncio.get_running_loop().time())
            try:
                done, _ = await asyncio.wait(waiters, timeout=left, return_when=asyncio.FIRST_COMPLETED)
            finally:
                if cancel_task is not None:
                    cancel_task.cancel()
            if task in done:
                return task.result()
            if cancel is not None and cancel.reason is not None:
                raise CommandCancelled(cancel.reason)
            if not done:
                raise TimeoutError()
            await sh.take_signals()
    except BaseException:
        task.cancel()
        raise


def split_read_fields(line: str, count: int, ifs: str, raw_escapes: list[bool] | None = None) -> list[str]:
    """Split a read line for ``count`` names: the last one gets the rest of the line."""
    if count == 1 and raw_escapes is None and ifs.strip(" \t\n") == "":
        # one name, IFS only whitespace: the line without the IFS whitespace around it
        return [line.strip(ifs)]
    if raw_escapes is None:
        return _split_unescaped(line, count, ifs)
    ws = "".join(c for c in ifs if c in " \t\n")
    esc = raw_escapes
    n = len(line)
    i = 0
    fields = []

    def is_ifs(k: int) -> bool:
        return line[k] in ifs and not esc[k]

    def is_ws(k: int) -> bool:
        return line[k] in ws and not esc[k]

    while i < n and is_ws(i):
        i += 1
    for idx in range(count):
        if idx == count - 1:
            # rest of line, trailing IFS whitespace removed
            j = n
            while j > i and is_ws(j - 1):
                j -= 1
            rest = line[i:j]
            # one trailing non-whitespace delimiter goes too when what precedes it is one field
            if j > i and is_ifs(j - 1) and not is_ws(j - 1):
                k = j - 1
                while k > i and is_ws(k - 1):
                    k -= 1
                if not any(is_ifs(p) for p in range(i, k)):
                    rest = line[i:k]
            fields.append(rest)
            break
        start = i
        while i < n and not is_ifs(i):
            i += 1
        fields.append(line[start:i])
        # consume one delimiter: ws* [non-ws] ws*
        while i < n and is_ws(i):
            i += 1
        if i < n and is_ifs(i) and not is_ws(i):
            i += 1
            while i < n and is_ws(i):
                i += 1
    while len(fields) < count:
        fields.append("")
    return fields


#: by IFS: (one IFS character, a delimiter: IFS whitespace around at most one other IFS character)
_IFS_REGEXES: dict[str, tuple[re.Pattern, re.Pattern, str]] = {}


def _ifs_regexes(ifs: str) -> tuple[re.Pattern, re.Pattern, str]:
    """(one IFS character, a delimiter, IFS whitespace) for ``ifs``."""
    found = _IFS_REGEXES.get(ifs)
    if found is None:
        ws = "".join(c for c in ifs if c in " \t\n")
        ws_class = re.escape(ws)
        other = "".join(re.escape(c) for c in ifs if c not in " \t\n")
        any_ifs = re.compile("[" + ws_class + other + "]")
        ws_run = f"[{ws_class}]*" if ws else ""
        delim = re.compile(ws_run + (f"(?:[{other}]{ws_run})?" if other else ""))
        if len(_IFS_REGEXES) >= 64:
            _IFS_REGEXES.clear()
        found = _IFS_REGEXES[ifs] = (any_ifs, delim, ws)
    return found


def _split_unescaped(line: str, count: int, ifs: str) -> list[str]:
    """``split_read_fields`` of a line without escaped characters, the scanning done by
    regexes."""
    if not ifs:
        return [line] + [""] * (count - 1)
    any_ifs, delim, ws = _ifs_regexes(ifs)
    n = len(line)
    i = n - len(line.lstrip(ws)) if ws else 0
    fields = []
    for _ in range(count - 1):
        m = any_ifs.search(line, i)
        if m is None:
            fields.append(line[i:])
            i = n
        else:
            fields.append(line[i:m.start()])
            i = delim.match(line, m.start()).end()  # type: ignore[union-attr]  # delim matches anywhere (all optional)
    rest = line[i:].rstrip(ws) if ws else line[i:]
    if rest and rest[-1] in ifs and rest[-1] not in ws:
        # one trailing non-whitespace delimiter goes too when what precedes it is one field
        before = rest[:-1].rstrip(ws) if ws else rest[:-1]
        if any_ifs.search(before) is None:
            rest = before
    fields.append(rest)
    return fields


@builtin("read", usage="read [-ers] [-a array] [-d delim] [-n nchars] [-N nchars] [-p prompt] [-t timeout] "
                       "[-u fd] [name ...]", text="""
Read a line from the standard input and split it into fields.
The line is split on IFS; the first word goes to the first NAME, the second to the second,
and the rest of the line to the last NAME. Without NAMEs the line is stored in REPLY.
  -a array  assign the words to indices of ARRAY, starting at zero
  -d delim  continue until the first character of DELIM is read, rather than newline
  -n nchars return after reading NCHARS characters (or a newline)
  -N nchars return only after reading exactly NCHARS characters
  -p prompt output PROMPT (to stderr) before reading
  -r        do not allow backslashes to escape any characters
  -s        do not echo input
  -t timeout  time out and return failure after TIMEOUT seconds
  -u fd     read from file descriptor FD instead of the standard input
Exit status: 0 unless end-of-file is encountered, read times out, or an invalid option is given.""", sync=True)
def b_read(sh: ShellAPI, argv: list[str], fds: Fds) -> int | Awaitable[int]:
    """The commonest read, ``read [-r] [NAME ...]`` of a line already at hand (buffered, or
    from a file or a here-doc), without a coroutine; anything else is ``read_async``."""
    args = argv[1:]
    raw = False
    if args and args[0] == "-r":
        raw = True
        args = args[1:]
    stream = fds.get(0)
    if any(a.startswith("-") or not is_name(a) for a in args) or not isinstance(stream, InputStream) \
            or getattr(stream, "interactive", False):
        return read_async(sh, argv, fds)
    longest = sh.rt.limits.string_bytes
    line = stream.readline_now(b"\n", longest + 1)
    if line is None:
        return read_async(sh, argv, fds)
    if line.endswith(b"\n"):
        data = line[:-1]
        if not raw and data.endswith(b"\\") and _odd_backslashes(data):
            stream.unread(line)  # a continued line: read_async reads on
            return read_async(sh, argv, fds)
        eof = False
    elif len(line) <= longest:
        data, eof = line, True
    else:
        stream.unread(line)  # too long: read_async reports it
        return read_async(sh, argv, fds)
    return store_read(sh, data, eof, raw, args, None, None, False)


async def read_async(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    raw = False
    array = None
    delim = "\n"
    nchars = None
    exact = False
    prompt = None
    timeout = None
    fd = 0
    secret = False
    args = argv[1:]
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] != "-":
        a = args[i]
        if a == "--":
            i += 1
            break
        j = 1
        while j < len(a):
            c = a[j]
            if c in "rse":
                if c == "r":
                    raw = True
                secret = secret or c == "s"
                j += 1
                continue
            if c in "adnNptui":
                value = a[j + 1:]
                if not value:
                    i += 1
                    if i >= len(args):
                        await err(sh, fds, "read", f"-{c}: option requires an argument")
                        return 2
                    value = args[i]
                if c == "a":
                    array = value
                elif c == "d":
                    delim = value[:1] if value else "\0"
                elif c in "nN":
                    if not isdigits(value):
                        await err(sh, fds, "read", f"{value}: invalid number")
                        return 1
                    nchars = bash_int(value)
                    exact = c == "N"
                elif c == "p":
                    prompt = value
                elif c == "t":
                    try:
                        if not re.fullmatch(r"[0-9]*\.?[0-9]*", value) or value in ("", "."):
                            raise ValueError(value)  # bash takes N, N.N or .N; float() takes more
                        timeout = float(value)
                    except ValueError:
                        await err(sh, fds, "read", f"{value}: invalid timeout specification")
                        return 1
                elif c == "u":
                    if not isdigits(value):
                        await err(sh, fds, "read", f"{value}: invalid file descriptor specification")
                        return 1
                    fd = bash_int(value)
                break
            await err(sh, fds, "read", f"-{c}: invalid option")
            await sh.err(fds, "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] "
                              "[-p prompt] [-t timeout] [-u fd] [name ...]\n")
            return 2
        i += 1
    names = args[i:]
    for name in names:
        if not is_name(name):
            await err(sh, fds, "read", f"`{name}': not a valid identifier")
            return 1
    stream = fds.get(fd)
    if not isinstance(stream, InputStream):
        await err(sh, fds, "read", f"{fd}: invalid file descriptor: Bad file descriptor")
        return 1
    if prompt is not None and getattr(stream, "interactive", False):
        # like bash, the prompt shows only when input comes from a terminal (the notebook)
        stream.prompt = prompt  # type: ignore[attr-defined]  # an interactive stream: shell/engine.py's KernelInput
    if getattr(stream, "interactive", False):
        stream.password = secret  # type: ignore[attr-defined]  # -s: the notebook's input box hides the answer
    delim_b = delim.encode("utf-8", "surrogateescape")

    async def read_data() -> tuple[bytes | tuple[str, list[bool]], bool]:
        if nchars is not None:
            return await read_counted(stream, min(nchars, sh.rt.limits.string_bytes + 1), raw, None if exact else delim)
        pieces: list[bytes] = []
        size = 0  # bytes kept: a line longer than a string may be ends the read (an error)
        longest = sh.rt.limits.string_bytes
        while True:
            line = await stream.readline(delim_b, longest + 1)
            if not line:
                return b"".join(pieces), True
            if not line.endswith(delim_b):
                if len(line) <= longest:  # the end of input
                    pieces.append(line)
                    return b"".join(pieces), True
                # cut: go on unless it is too long without the NUL bytes read drops
                line = line.replace(b"\0", b"")
                size += len(line)
                pieces.append(line)
                if size > longest:
                    return b"".join(pieces), False
                continue
            body = line[:-len(delim_b)]
            # a backslash before the delimiter continues the line (without -r)
            if not raw and body.endswith(b"\\") and _odd_backslashes(body):
                # backslash-newline goes; another escaped delimiter stays, escaped
                kept = body[:-1] if delim_b == b"\n" else line
                if kept:
                    size += len(kept)
                    pieces.append(kept)
                    if size > longest:
                        return b"".join(pieces), False
                continue
            pieces.append(body)
            return b"".join(pieces), False

    if timeout == 0:
        return 0 if await input_ready(sh, stream) else 1
    try:
        data, eof = await read_with_cancel(sh, stream, read_data(), delim_b if nchars is None else None, timeout)
    except TimeoutError:
        return 142
    except OSError as e:  # a closed descriptor (`<&-`)
        # select reads with an empty name: bash names no command there
        name = f"{argv[0]}: " if argv[0] else ""
        await sh.report(fds, f"{name}read error: {fd}: {e.strerror}")
        return 1
    return store_read(sh, data, eof, raw, names, array, nchars, exact)


def store_read(sh: ShellAPI, data, eof: bool, raw: bool, names: list[str], array: str | None, nchars: int | None,
               exact: bool) -> int:
    """Put what read read into its variables; the status."""
    if isinstance(data, tuple):  # -n/-N: characters already unescaped
        text, escapes = data
        if len(text) > sh.rt.limits.string_bytes:
            sh.check_string(text)
    else:  # bash's strings end at NUL bytes: read drops them
        data = data.replace(b"\0", b"")
        if len(data) > sh.rt.limits.string_bytes:
            sh.check_string(data)
        text, escapes = unescape_read(data.decode("utf-8", "surrogateescape"), raw)
    if eof and not text and nchars != 0:
        if array is not None:
            sh.set_array(array, [])
        elif names:
            for name in names:
                sh.set_var(name, "")
        else:
            sh.set_var("REPLY", "")
        return 1
    ifs = sh.ifs()
    if exact and names:  # -N: no field splitting
        sh.set_var(names[0], text)
        for name in names[1:]:
            sh.set_var(name, "")
    elif array is not None:
        fields = _split_all(text, ifs, escapes)
        sh.set_array(array, fields)
    elif not names:
        sh.set_var("REPLY", text)
    else:
        fields = split_read_fields(text, len(names), ifs, escapes)
        for name, value in zip(names, fields):
            sh.assign_scalar(name, value, False)
    return 1 if eof else 0


def unescape_read(text: str, raw: bool) -> tuple[str, list[bool] | None]:
    """What read makes of a line without -r: a backslash escapes the next character (which
    then never splits), backslash-newline is removed. (text, which characters were escaped)."""
    if raw or "\\" not in text:
        return text, None
    chars: list[str] = []
    escapes: list[bool] = []
    k = 0
    while k < len(text):
        c = text[k]
        if c == "\\":
            if k + 1 < len(text) and text[k + 1] != "\n":
                chars.append(text[k + 1])
                escapes.append(True)
            k += 2
            continue
        chars.append(c)
        escapes.append(False)
        k += 1
    return "".join(chars), escapes


async def read_counted(stream: InputStream, nchars: int, raw: bool,
                       delim: str | None) -> tuple[tuple[str, list[bool]], bool]:
    """``read -n``/``-N``: NCHARS characters counted after backslash processing (NUL bytes
    dropped), stopping early at DELIM (None for -N). ((text, escapes), end of input)."""
    decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
    chars: list[str] = []
    escapes: list[bool] = []
    backslash = False
    while len(chars) < nchars:
        byte = await stream.read(1)
        if not byte:
            return ("".join(chars), escapes), True
        if byte == b"\0":
            continue
        c = decoder.decode(byte)
        if not c:
            continue  # inside a multibyte character
        if backslash:
            backslash = False
            if c != "\n":
                chars.append(c)
                escapes.append(True)
            continue
        if c == "\\" and not raw:
            backslash = True
            continue
        if c == delim:
            break
        chars.append(c)
        escapes.append(False)
    return ("".join(chars), escapes), False


async def input_ready(sh: ShellAPI, stream: InputStream) -> bool:
    """``read -t 0``: whether reading would not wait (data, or the end of input, is there)."""
    if never_blocks(stream):
        return True
    await aio.need_loop()
    await asyncio.sleep(0)  # let a writer that is ready run first, as its process would have
    try:
        chunk = await race_cancel(sh, stream.read_some(), 0)
    except TimeoutError:
        return False
    if chunk:
        stream.unread(chunk)
    return True


def _odd_backslashes(body: bytes) -> bool:
    count = len(body) - len(body.rstrip(b"\\"))
    return count % 2 == 1


def _split_all(text: str, ifs: str, escapes) -> list[str]:
    """``read -a``: every field of the line (backslash-escaped characters never split)."""
    esc = escapes or [False] * len(text)
    ws = [c for c in ifs if c in " \t\n"]
    fields: list[str] = []
    cur: list[str] = []
    pending = False  # a field has started (possibly empty, after a non-blank delimiter)
    i, n = 0, len(text)
    while i < n and text[i] in ws and not esc[i]:
        i += 1
    while i < n:
        c = text[i]
        if c in ifs and not esc[i]:
            fields.append("".join(cur))
            cur, pending = [], False
            blank = c in ws
            i += 1
            while i < n and text[i] in ws and not esc[i]:
                i += 1
            if blank and i < n and text[i] in ifs and not esc[i]:
                i += 1
                while i < n and text[i] in ws and not esc[i]:
                    i += 1
            continue
        cur.append(c)
        pending = True
        i += 1
    if pending or cur:
        fields.append("".join(cur))
    return fields


@builtin("mapfile", "readarray", usage="mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [array]",
         text="""
Read lines from the standard input into an indexed array variable (default MAPFILE).
  -d delim  use DELIM to terminate lines, instead of newline
  -n count  copy at most COUNT lines (0: all)
  -O origin begin assigning to ARRAY at index ORIGIN
  -s count  discard the first COUNT lines read
  -t        remove a trailing DELIM from each line read
  -u fd     read lines from file descriptor FD""")
async def b_mapfile(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    delim = "\n"
    count = 0
    origin = None
    skip = 0
    strip = False
    fd = 0
    args = argv[1:]
    i = 0
    while i < len(args) and args[i].startswith("-") and len(args[i]) > 1:
        a = args[i]
        if a == "--":
            i += 1
            break
        c = a[1]
        if c == "t":
            strip = True
            if len(a) > 2:
                args[i] = "-" + a[2:]
                continue
            i += 1
            continue
        if c in "dnOsuCc":
            value = a[2:]
            if not value:
                i += 1
                if i >= len(args):
                    await err(sh, fds, argv[0], f"-{c}: option requires an argument")
                    return 2
                value = args[i]
            try:
                if c == "d":
                    delim = value[:1] or "\0"
                elif c == "n":
                    count = bash_int(value)
                elif c == "O":
                    origin = bash_int(value)
                elif c == "s":
                    skip = bash_int(value)
                elif c == "u":
                    fd = bash_int(value)
            except ValueError:
                await err(sh, fds, argv[0], f"{value}: invalid number")
                return 1
            i += 1
            continue
        await err(sh, fds, argv[0], f"-{c}: invalid option")
        return 2
    name = args[i] if i < len(args) else "MAPFILE"
    stream = fds.get(fd)
    if not isinstance(stream, InputStream):
        await err(sh, fds, argv[0], f"{fd}: invalid file descriptor: Bad file descriptor")
        return 1
    d = delim.encode("utf-8", "surrogateescape")
    lines: list[str] = []
    # the lines count against the shell memory limit as they are read, not once all are in
    hold = sh.hold_memory(name)
    longest = sh.rt.limits.string_bytes
    try:
        while True:
            if count and len(lines) >= count:
                break
            try:
                line = await read_with_cancel(sh, stream, stream.readline(d, longest + 1), d)
            except OSError:
                break  # bash's mapfile takes a read error (< dir: EISDIR) as the end, silently
            if not line:
                break
            if skip:
                skip -= 1
                continue
            if len(line) > longest:
                sh.check_string(line)
            if strip and line.endswith(d):
                line = line[:-len(d)]
            hold.grow(len(line) + VALUE_OVERHEAD)
            lines.append(line.split(b"\0", 1)[0].decode("utf-8", "surrogateescape"))  # C strings
    finally:
        hold.release()
    if origin is None:
        sh.set_array(name, lines)
    else:
        for k, text in enumerate(lines):
            sh.set_element(name, origin + k, text)
    return 0
