"""sed's execution: the input lines (a block at a time, with look-ahead for ``$``) and the run."""
from __future__ import annotations

import re

from ... import memory
from ...streams import BufferOutput, EmptyInput
from ...vfs import FSError
from .._lib.lineblocks import TextCodec, line_blocks
from .._lib.posix_regex import Bounds, PosixRegex, compile_python, translate_lines
from ..registry import CommandContext
from .script import Address, Command, SedError


class _Quit(Exception):
    def __init__(self, status: int) -> None:
        self.status = status


# ----------------------------------------------------------------------------- execution
class _Input:
    """Lines of all inputs in order, read a block at a time, with look-ahead for ``$``."""

    def __init__(self, sed: "Sed", files: list[str], separate: bool) -> None:
        self.sed = sed
        self.files = list(files)
        self.separate = separate
        self.stream = None  # the input being read
        self.blocks = None  # its blocks of whole lines
        self.queue: list[str] = []  # decoded lines waiting to be read
        self.qpos = 0
        self.queue_last_nl = True  # does the queue's last line end with a newline?
        self.queue_file = 0  # which input the queued lines come from (1, 2, ...)
        self.queue_filename = "-"
        self.opened = 0
        self.next_filename = "-"
        self.file_number = 0  # input of the line last returned
        self.filename = "-"

    async def _open_next(self) -> bool:
        ctx = self.sed.ctx
        while self.files:
            path = self.files.pop(0)
            try:
                if path != "-" and ctx.fs.is_dir(path, cwd=ctx.cwd):
                    # GNU gives up on the whole run (status 4, its "panic")
                    await self.sed.read_error(f"read error on {path}: Is a directory")
                    raise _Quit(4)
                stream = ctx.open_input(path)
            except FSError as e:
                await self.sed.read_error(f"can't read {path}: {e.strerror}")
                continue
            self.stream = stream
            self.next_filename = path
            self.opened += 1
            return True
        return False

    async def _fill(self, cross_files: bool) -> bool:
        """Queue the next block of lines; False at the end of all input (or of the current
        input when not ``cross_files``)."""
        eol = self.sed.eol
        while True:
            if self.blocks is None:
                if not cross_files or not await self._open_next():
                    return False
                self.blocks = line_blocks(self.stream, eol, self.sed.ctx.check, 65536).__aiter__()
            try:
                block = await self.blocks.__anext__()
            except StopAsyncIteration:
                self.blocks = None
                self.stream = None
                if not cross_files:
                    return False
                continue
            parts = block.split(eol)
            last_nl = parts[-1] == b""
            if last_nl:
                parts.pop()
            decode = self.sed.codec.decode
            self.queue = [decode(p) for p in parts]
            self.qpos = 0
            self.queue_last_nl = last_nl
            self.queue_file = self.opened
            self.queue_filename = self.next_filename
            return True

    async def next_line(self) -> tuple[str, bool] | None:
        if self.qpos >= len(self.queue) and not await self._fill(True):
            return None
        pos = self.qpos
        self.qpos = pos + 1
        if self.queue_file != self.file_number:
            if self.separate:
                self.sed.line_number = 0  # -s and -i: line numbers count per file
                for cmd in self.sed.commands:  # and ranges start afresh in each file
                    cmd.active = cmd.closed = cmd.zero_done = False
            self.file_number = self.queue_file
            self.filename = self.queue_filename
        has_nl = self.queue_last_nl or self.qpos < len(self.queue)
        return self.queue[pos], has_nl

    async def is_last(self) -> bool:
        if self.qpos < len(self.queue):
            return False
        if self.separate:
            if self.queue_file != self.file_number:
                return True  # the queue already holds the next file's lines
            return not await self._fill(False)
        return not await self._fill(True)


ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


class Sed:
    codec = TextCodec(False)
    upper = staticmethod(str.upper)
    lower = staticmethod(str.lower)

    def __init__(self, ctx: CommandContext, commands: list[Command], quiet: bool, eol: bytes,
                 line_wrap: int, in_place: bool, separate: bool, posix: bool) -> None:
        self.ctx = ctx
        self.commands = commands
        self.quiet = quiet
        self.eol = eol
        self.eol_str = eol.decode()
        self.line_wrap = line_wrap
        self.in_place = in_place
        self.separate = separate
        self.posix = posix
        self.status = 0
        self.out_parts: list[bytes] = []
        self.out_size = 0
        self.missing_newline = False
        self.append_queue: list[tuple[str, str]] = []
        self.wfiles: dict[str, list] = {}
        self.wfiles_missing_newline: set[str] = set()
        self.rfiles: dict[str, object] = {}
        self.last_regex: PosixRegex | None = None
        self.line_number = 0
        self.hold = ""
        self.bounds = Bounds.of(ctx)  # every regex match stops with the run
        self.sink = None  # in-place: collected output of the current file

    async def read_error(self, message: str) -> None:
        await self.flush()
        await self.ctx.error(message)
        self.status = 2

    # ---------------------------------------------------------------- output
    async def write(self, data: bytes) -> None:
        if self.sink is not None:
            self.sink.append(data)
            return
        self.out_parts.append(data)
        self.out_size += len(data)
        if self.out_size >= 65536:
            await self.flush()

    async def flush(self) -> None:
        if self.out_parts:
            data = b"".join(self.out_parts)
            self.out_parts.clear()
            self.out_size = 0
            await self.ctx.stdout.write(data)

    async def emit(self, text: str, newline: bool = True) -> None:
        data = self.codec.encode(text)
        if self.missing_newline:
            data = self.eol + data
            self.missing_newline = False
        if newline:
            data += self.eol
        else:
            self.missing_newline = True
        await self.write(data)

    async def wfile_write(self, name: str, text: str, newline: bool) -> None:
        """w, W and s///w: TEXT and, as GNU does, a newline only when the input line had one
        (else before the next text written to that file)."""
        data = self.codec.encode(text)
        if name in self.wfiles_missing_newline:
            data = self.eol + data
            self.wfiles_missing_newline.discard(name)
        if newline:
            data += self.eol
        else:
            self.wfiles_missing_newline.add(name)
        if name == "/dev/stdout":  # in order with the output (not -i's file), a newline state of its own
            self.out_parts.append(data)
            self.out_size += len(data)
            return
        if name == "/dev/stderr":
            self.wfiles.setdefault(name, []).append(data)
            return
        handle = self.wfiles[name]
        handle.write(data)

    async def flush_appends(self) -> None:
        for kind, value in self.append_queue:
            if kind == "text":
                await self.emit(value)
            elif kind == "file":
                try:
                    if value in ("/dev/stdin", "-"):
                        data = await self.ctx.stdin.read()
                    else:
                        data = self.ctx.read_file(self.codec.unarg(value))
                except FSError:
                    continue
                if data:
                    if self.missing_newline:
                        data = self.eol + data
                        self.missing_newline = False
                    await self.write(data)
            elif kind == "line":
                await self.emit(value)
        self.append_queue.clear()

    # ---------------------------------------------------------------- matching
    def regex_for(self, rx: PosixRegex | None) -> PosixRegex:
        if rx is None:
            if self.last_regex is None:
                raise SedError("no previous regular expression")
            return self.last_regex
        self.last_regex = rx
        if rx.bounds is not self.bounds:
            rx.bind(self.bounds)
        return rx

    async def match_addr(self, a: Address, ps: str) -> bool:
        kind = a.kind
        if kind == "line":
            return self.line_number == a.line
        if kind == "regex":
            return self.regex_for(a.regex).search(ps) is not None
        if kind == "last":
            return await self.input.is_last()
        if kind == "step":
            if a.step <= 0:
                return self.line_number == a.line
            return self.line_number >= a.line and (self.line_number - a.line) % a.step == 0
        return False

    async def selected(self, cmd: Command, ps: str) -> bool:
        if cmd.addr1 is None:
            return True
        if cmd.addr2 is None and not cmd.addr2_kind:
            return await self.match_addr(cmd.addr1, ps)
        n = self.line_number
        a1 = cmd.addr1
        if cmd.active:
            a2 = cmd.addr2
            if cmd.addr2_kind == "plus" or cmd.addr2_kind == "tilde":
                if n >= cmd.range_end:
                    cmd.active = False
            elif a2.kind == "line":
                if n >= a2.line:
                    cmd.active = False
            elif await self.match_addr(a2, ps):
                cmd.active = False
            cmd.closed = not cmd.active and a1.kind == "line"
            return True
        if a1.kind == "zero":
            if cmd.zero_done:
                return False
            cmd.zero_done = True
            if await self.match_addr(cmd.addr2, ps):
                return True
            cmd.active = True
            return True
        if a1.kind == "line":
            # GNU starts a range from a line number on the first line at or past it that
            # the command sees (a d or n before it may have skipped the line itself): 1d;1,3p
            # prints lines 2 and 3; once ended it never starts again
            if cmd.closed or n < a1.line:
                return False
            if n > a1.line and cmd.addr2 is not None and cmd.addr2.kind == "line" and not cmd.addr2_kind \
                    and n > cmd.addr2.line:
                cmd.closed = True  # the whole range was skipped
                return False
        elif not await self.match_addr(a1, ps):
            return False
        # range starts
        a2 = cmd.addr2
        if cmd.addr2_kind == "plus":
            cmd.range_end = n + cmd.addr2_n
            cmd.active = cmd.addr2_n > 0
        elif cmd.addr2_kind == "tilde":
            m = cmd.addr2_n
            if m > 0:
                # GNU: up to the next multiple of m after this line (even if this one is a multiple)
                cmd.range_end = (n // m + 1) * m
                cmd.active = True
        elif a2.kind == "line":
            cmd.active = a2.line > n
        elif a2.kind == "last":
            cmd.active = not await self.input.is_last()
        else:
            cmd.active = True  # a regex end is checked from the next line on
        cmd.closed = not cmd.active and a1.kind == "line"
        return True

    # ---------------------------------------------------------------- substitution
    def expand(self, parts: list, m) -> str:
        out = []
        case_mode = ""  # "L" or "U"
        one_shot = ""  # "l" or "u"
        for kind, value in parts:
            if kind == "case":
                if value in "LU":
                    case_mode = value
                    one_shot = ""
                elif value == "E":
                    case_mode = ""
                    one_shot = ""
                else:
                    one_shot = value
                continue
            text = value if kind == "lit" else (m.group(value) or "")
            if not text:
                continue
            if case_mode == "L":
                text = self.lower(text)
            elif case_mode == "U":
                text = self.upper(text)
            if one_shot:
                text = (self.lower(text[0]) if one_shot == "l" else self.upper(text[0])) + text[1:]
                one_shot = ""
            out.append(text)
        return memory.joined(out)

    def substitute(self, cmd: Command, ps: str) -> tuple[str, bool]:
        rx = self.regex_for(cmd.regex)
        parts = cmd.replacement
        lit = cmd.literal
        simple = lit is not None
        if cmd.occurrence == 1:
            if not cmd.global_:
                m = rx.search(ps)
                if m is None:
                    return ps, False
                new = lit if simple else self.expand(parts, m)
                memory.room(len(ps) + len(new))
                return ps[:m.start()] + new + ps[m.end():], True
            # a long pattern space goes through the loop below, whose result is checked
            if cmd.template is not None and cmd.regex is not None and len(ps) <= memory.BIG:
                new, n = rx.subn(cmd.template, ps)
                return new, n > 0
        out = []
        pos = 0
        count = 0
        done = False
        for m in rx.finditer_nonoverlapping(ps):
            count += 1
            if count < cmd.occurrence:
                continue
            out.append(ps[pos:m.start()])
            out.append(lit if simple else self.expand(parts, m))
            pos = m.end()
            done = True
            if not cmd.global_:
                break
        if not done:
            return ps, False
        out.append(ps[pos:])
        return memory.joined(out), True

    # ---------------------------------------------------------------- the loop
    async def run(self, files: list[str]) -> int:
        ctx = self.ctx
        for cmd in self.commands:
            for name in ([cmd.wfile] if cmd.wfile else []) + ([cmd.text] if cmd.name in "wW" else []):
                if name and name not in self.wfiles and name not in ("/dev/stdout", "/dev/stderr"):
                    try:
                        self.wfiles[name] = ctx.fs.open(self.codec.unarg(name), "wb", cwd=ctx.cwd)
                    except FSError as e:
                        raise SedError(f"couldn't open file {name}: {e.strerror}", status=4)
        try:
            if self.in_place:
                for path in files:
                    await self.run_in_place(path)
            else:
                self.input = _Input(self, files or ["-"], self.separate)
                await self.process()
        except _Quit as q:
            self.status = q.status
        finally:
            await self.flush()
            for name, h in self.wfiles.items():
                if name == "/dev/stderr":
                    await ctx.stderr.write(b"".join(h))
                else:
                    h.close()
        return self.status

    async def run_in_place(self, path: str) -> None:
        ctx = self.ctx
        try:
            st = ctx.fs.stat(path, cwd=ctx.cwd)
        except FSError as e:
            await self.read_error(f"can't read {path}: {e.strerror}")
            return
        if not ctx.fs.is_file(path, cwd=ctx.cwd):
            await self.read_error(f"couldn't edit {path}: not a regular file")
            self.status = 4
            return
        if self.follow_symlinks:
            path = ctx.fs.realpath(path, cwd=ctx.cwd)
        self.sink = []
        self.missing_newline = False
        self.input = _Input(self, [path], True)
        quit_exc = None
        try:
            await self.process()
        except _Quit as q:
            quit_exc = q
        data = b"".join(self.sink)
        self.sink = None
        # like GNU: write a temporary file beside the original, then rename it over the name
        # (so a read-only file in a writable directory can be edited, and a symlink is replaced)
        fs = ctx.fs
        directory, _, base = ctx.resolve(path).rpartition("/")
        directory = directory or "/"
        n = 0
        while True:
            tmp = f"{directory.rstrip('/')}/sed{n:06d}"
            if not fs.exists(tmp, follow=False):
                break
            n += 1
        try:
            fs.write_bytes(tmp, data)
            fs.chmod(tmp, st.st_mode & 0o7777)
        except FSError as e:
            if fs.exists(tmp, follow=False):
                fs.unlink(tmp)
            await self.flush()
            await ctx.error(f"couldn't open temporary file {directory.rstrip('/')}/sedXXXXXX: {e.strerror}")
            raise _Quit(4)
        suffix = self.in_place_suffix
        if suffix:
            if "*" in suffix:
                name = suffix.replace("*", base)
                backup = name if "/" in name else f"{directory.rstrip('/')}/{name}"
            else:
                backup = path + suffix
            fs.rename(path, backup, cwd=ctx.cwd)
        fs.rename(tmp, path, cwd=ctx.cwd)
        if quit_exc is not None:
            raise quit_exc

    in_place_suffix = ""
    follow_symlinks = False

    fast: tuple | None = None  # a plan for scripts that run over whole blocks of lines

    def plan_fast_path(self, extended: bool) -> None:
        """Scripts of one common command run over blocks of lines with one regex call each
        instead of the general per-line machine:
        ``s/re/text/[g][p]`` without address, ``-n /re/p`` and ``/re/d`` (and their ``!``)."""
        if len(self.commands) != 1 or self.eol != b"\n":
            return
        cmd = self.commands[0]
        if cmd.name == "s":
            self._plan_substitution(cmd, extended)
        elif cmd.name in "pd":
            self._plan_selection(cmd, extended)

    def _line_regex(self, rx: PosixRegex, extended: bool) -> PosixRegex | None:
        """``rx`` as a regex that can run over many lines at once (None if it cannot)."""
        if rx.flags & re.M:
            return None
        got = translate_lines(rx.pattern, extended, sed_escapes=True, utf8=not rx.flags & re.A)
        if got is None:
            return None
        src, risky, alternation, repetitions = got
        return compile_python(src, ignore_case=bool(rx.flags & re.I), multiline=True,
                              ascii=bool(rx.flags & re.A), risky=risky, posix=alternation,
                              bounds=self.bounds, shown=rx.pattern, repetitions=repetitions)

    def _plan_substitution(self, cmd: Command, extended: bool) -> None:
        if (cmd.addr1 is not None or cmd.negate or cmd.occurrence != 1 or cmd.print_ > 1
                or cmd.wfile or cmd.eval_ or cmd.regex is None or (self.quiet and not cmd.print_)):
            return
        if any(kind == "case" for kind, _ in cmd.replacement):
            return
        if any("\n" in value for kind, value in cmd.replacement if kind == "lit"):
            return
        rx = self._line_regex(cmd.regex, extended)
        if rx is None or any(x in rx.python for x in ("(?=", "(?!", "(?<", "\\b", "\\B")):
            return
        if rx.match("") is not None:
            return  # empty matches: GNU and Python place them differently after a match
        template = "".join(value.replace("\\", "\\\\") if kind == "lit" else f"\\g<{value}>"
                           for kind, value in cmd.replacement)
        if cmd.global_ and not cmd.print_:
            self.fast = ("sub_all", rx, template)
        else:
            self.fast = ("sub_lines", rx, template, 0 if cmd.global_ else 1, bool(cmd.print_))

    def _plan_selection(self, cmd: Command, extended: bool) -> None:
        a = cmd.addr1
        if a is None or a.kind != "regex" or a.regex is None or cmd.addr2 is not None or cmd.addr2_kind:
            return
        if cmd.name == "p" and self.quiet:
            keep_matching = not cmd.negate
        elif cmd.name == "d" and not self.quiet:
            keep_matching = cmd.negate
        else:
            return
        rx = self._line_regex(a.regex, extended)
        if rx is None:
            return
        options = {"ignore_case": bool(rx.flags & re.I), "ascii": bool(rx.flags & re.A),
                   "multiline": True, "risky": rx.risky, "bounds": self.bounds, "shown": rx.pattern,
                   "repetitions": rx.repetitions}
        whole = compile_python(f"^[^\\n]*?(?:{rx.python})[^\\n]*$", **options)
        whole_nl = compile_python(whole.python + "\\n", **options)
        self.fast = ("select", rx, whole, whole_nl, keep_matching)

    async def process_fast(self) -> None:
        plan = self.fast
        inp = self.input
        while await inp._open_next():
            async for data in line_blocks(inp.stream, check=self.ctx.check):
                text = self.codec.decode(data)
                cut = text.rfind("\n") + 1
                body, tail = text[:cut], text[cut:]
                if body:
                    out = self._run_fast(plan, body)
                    if out:
                        await self.emit(out[:-1], True)
                if tail:
                    # the last line lacks its newline: GNU keeps it that way
                    out = self._run_fast(plan, tail + "\n")
                    if out:
                        await self.emit(out[:-1], False)

    def _run_fast(self, plan: tuple, text: str) -> str:
        """Output of the fast plan for ``text`` (whole lines, each ending with a newline)."""
        kind = plan[0]
        if kind == "sub_all":
            return plan[1].sub(plan[2], text)
        if kind == "sub_lines":
            _, rx, template, count, print_ = plan
            quiet = self.quiet
            subn = rx.subn
            out = []
            for line in text[:-1].split("\n"):
                new, n = subn(template, line, count)
                if n and print_:
                    out.append(new)
                if not quiet:
                    out.append(new)
            return "\n".join(out) + "\n" if out else ""
        return self._select(text, *plan[1:])

    @staticmethod
    def _select(text: str, rx, whole, whole_nl, keep_matching: bool) -> str:
        if keep_matching:
            found = whole.findall(text[:-1]) if not whole.groups else [m.group(0) for m in whole.finditer(text[:-1])]
            return "\n".join(found) + "\n" if found else ""
        return whole_nl.sub("", text)

    async def process(self) -> None:
        if self.fast is not None:
            await self.process_fast()
            return
        ctx = self.ctx
        commands = self.commands
        ncmd = len(commands)
        inp = self.input
        ps_nl = True
        ps = None
        restart_without_read = False
        jumps = 0
        while True:
            if not restart_without_read:
                got = await inp.next_line()
                if got is None:
                    return
                ps, ps_nl = got
                self.line_number += 1
            if restart_without_read or not (self.line_number & 255):
                ctx.check()
            restart_without_read = False
            substituted = False
            pc = 0
            autoprint = not self.quiet
            while pc < ncmd:
                cmd = commands[pc]
                pc += 1
                if cmd.addr1 is not None:
                    sel = await self.selected(cmd, ps)
                    if sel == cmd.negate:
                        if cmd.name == "{":
                            pc = cmd.target + 1
                        continue
                elif cmd.negate:
                    if cmd.name == "{":
                        pc = cmd.target + 1
                    continue
                name = cmd.name
                if name == "s":
                    ps2, did = self.substitute(cmd, ps)
                    if did:
                        ps = ps2
                        substituted = True
                        if cmd.eval_:
                            ps = await self.run_shell(ps)
                        for _ in range(cmd.print_):
                            await self.emit(ps, ps_nl)
                        if cmd.wfile:
                            await self.wfile_write(cmd.wfile, ps, ps_nl)
                elif name == "p":
                    await self.emit(ps, ps_nl)
                elif name == "d":
                    autoprint = False
                    break
                elif name == "D":
                    if "\n" not in ps:
                        autoprint = False
                        break
                    ps = ps[ps.index("\n") + 1:]
                    await self.flush_appends()
                    restart_without_read = True
                    autoprint = False
                    break
                elif name == "{" or name == "}":
                    pass
                elif name == "b":
                    pc = cmd.target
                    jumps += 1
                elif name == "t":
                    if substituted:
                        substituted = False
                        pc = cmd.target
                        jumps += 1
                elif name == "T":
                    if not substituted:
                        pc = cmd.target
                        jumps += 1
                    else:
                        substituted = False
                if jumps > 1023:
                    # a loop within one cycle (':a;ba') must still stop on interrupt/time-out
                    jumps = 0
                    await ctx.checkpoint()
                elif name == "h":
                    self.hold = ps
                elif name == "H":
                    memory.room(len(self.hold) + len(ps))
                    self.hold += "\n" + ps
                elif name == "g":
                    ps = self.hold
                elif name == "G":
                    memory.room(len(self.hold) + len(ps))
                    ps += "\n" + self.hold
                elif name == "x":
                    ps, self.hold = self.hold, ps
                elif name == "n":
                    if await inp.is_last() and not self.posix:
                        # GNU: no next line -> print (unless -n) and exit without running the rest
                        break
                    if not self.quiet:
                        await self.emit(ps, ps_nl)
                    await self.flush_appends()
                    got = await inp.next_line()
                    if got is None:
                        autoprint = False
                        break
                    ps, ps_nl = got
                    self.line_number += 1
                elif name == "N":
                    if await inp.is_last():
                        # GNU prints the pattern space when N finds no next line
                        if self.posix:
                            autoprint = False
                        break
                    await self.flush_appends()
                    got = await inp.next_line()
                    if got is None:
                        break
                    ps = ps + "\n" + got[0]
                    ps_nl = got[1]
                    self.line_number += 1
                elif name == "P":
                    await self.emit(ps.split("\n", 1)[0], True if "\n" in ps else ps_nl)
                elif name == "=":
                    await self.emit(str(self.line_number))
                elif name == "a":
                    if cmd.text is not None:
                        self.append_queue.append(("text", cmd.text))
                elif name == "i":
                    if cmd.text is not None:
                        await self.emit(cmd.text)
                elif name == "c":
                    autoprint = False
                    if cmd.text is not None and (cmd.addr2 is None and not cmd.addr2_kind
                                                 or not cmd.active or cmd.negate):
                        await self.emit(cmd.text)
                    break
                elif name == "l":
                    await self.list_line(ps, cmd.int_arg)
                elif name == "q":
                    if not self.quiet:
                        await self.emit(ps, ps_nl)
                    await self.flush_appends()
                    raise _Quit(cmd.int_arg or 0)
                elif name == "Q":
                    raise _Quit(cmd.int_arg or 0)
                elif name == "y":
                    ps = ps.translate(cmd.table)
                elif name == "z":
                    ps = ""
                elif name == "r":
                    self.append_queue.append(("file", cmd.text))
                elif name == "R":
                    line = await self.read_R(cmd.text)
                    if line is not None:
                        self.append_queue.append(("line", line))
                elif name == "w":
                    await self.wfile_write(cmd.text, ps, ps_nl)
                elif name == "W":
                    await self.wfile_write(cmd.text, ps.split("\n", 1)[0], True if "\n" in ps else ps_nl)
                elif name == "F":
                    await self.emit(self.codec.arg(inp.filename))
                elif name == "e":
                    if cmd.text:
                        await self.flush()
                        out = await self.run_shell(cmd.text)
                        await self.emit(out, True)
                    else:
                        ps = await self.run_shell(ps)
            if autoprint:
                await self.emit(ps, ps_nl)
            await self.flush_appends()

    async def run_shell(self, command_text: str) -> str:
        buf = BufferOutput()
        await self.flush()
        await self.ctx.run(["sh", "-c", self.codec.unarg(command_text)], stdin=EmptyInput(), stdout=buf)
        text = self.codec.decode(buf.getvalue())
        return text[:-1] if text.endswith("\n") else text

    async def read_R(self, name: str) -> str | None:
        it = self.rfiles.get(name)
        if it is None:
            try:
                stream = self.ctx.open_input(self.codec.unarg(name))
            except FSError:
                self.rfiles[name] = False
                return None
            it = stream
            self.rfiles[name] = it
        if it is False:
            return None
        raw = await it.readline()
        if not raw:
            return None
        return self.codec.decode(raw[:-1] if raw.endswith(b"\n") else raw)

    async def list_line(self, ps: str, width_arg: int | None) -> None:
        width = self.line_wrap if width_arg is None else width_arg
        escapes = {"\\": "\\\\", "\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
                   "\t": "\\t", "\v": "\\v"}
        pieces = []
        for byte in self.codec.encode(ps):
            ch = chr(byte)
            if ch in escapes:
                pieces.append(escapes[ch])
            elif 32 <= byte < 127:
                pieces.append(ch)
            else:
                pieces.append("\\%03o" % byte)
        lines = []
        cur = ""
        if width and width >= 1:
            for p in pieces:
                if len(cur) + len(p) > width - 1:
                    lines.append(cur + "\\")
                    cur = ""
                cur += p
        else:
            cur = "".join(pieces)
        lines.append(cur + "$")
        for ln in lines:
            await self.emit(ln)
