"""sed's script text parsed into commands (addresses, s///, y, labels and blocks)."""
from __future__ import annotations

from ...chars import isdigits
from .._lib.posix_regex import PosixRegex, RegexError, compile_posix, sed_escape
from .script import Address, Command, SedError


class ScriptParser:
    def __init__(self, text: str, extended: bool, chunk_of_pos, ascii: bool = False) -> None:
        self.s = text
        self.ascii = ascii
        self.i = 0
        self.extended = extended
        self.chunk_of_pos = chunk_of_pos
        self.commands: list[Command] = []
        self.blocks: list[int] = []
        self.labels: dict[str, int] = {}

    def error(self, msg: str, ahead: int = 0) -> SedError:
        """GNU's message; it counts the characters read, which may be one past ``self.i``."""
        return SedError(f"-e expression #{self.chunk_of_pos(self.i + ahead)}: {msg}")

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def skip_ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i] in " \t":
            self.i += 1

    def parse(self) -> list[Command]:
        s = self.s
        while True:
            while self.i < len(s) and s[self.i] in " \t\n;":
                self.i += 1
            if self.i >= len(s):
                break
            if s[self.i] == "#":
                while self.i < len(s) and s[self.i] != "\n":
                    self.i += 1
                continue
            self.command()
        if self.blocks:
            raise SedError("-e expression #1, char 0: unmatched `{'")
        for cmd in self.commands:
            if cmd.name in "btT":
                if cmd.text == "":
                    cmd.target = len(self.commands)
                elif cmd.text in self.labels:
                    cmd.target = self.labels[cmd.text]
                else:
                    raise SedError(f"can't find label for jump to `{cmd.text}'", status=4)
        return self.commands

    def address(self) -> Address | None:
        s = self.s
        c = self.peek()
        if isdigits(c):
            j = self.i
            while self.i < len(s) and isdigits(s[self.i]):
                self.i += 1
            n = int(s[j:self.i])
            if self.peek() == "~":
                self.i += 1
                k = self.i
                while self.i < len(s) and isdigits(s[self.i]):
                    self.i += 1
                step = int(s[k:self.i] or "0")
                return Address("step", line=n, step=step)
            return Address("zero" if n == 0 else "line", line=n)
        if c == "$":
            self.i += 1
            return Address("last")
        if c == "/" or c == "\\":
            if c == "\\":
                self.i += 1
                delim = self.peek()
                if not delim or delim == "\n":
                    raise self.error("unexpected `,'")
            else:
                delim = "/"
            self.i += 1
            pattern = self.delimited(delim, "unterminated address regex")
            icase = multiline = False
            while self.peek() in ("I", "M") and self.peek():
                if self.peek() == "I":
                    icase = True
                else:
                    multiline = True
                self.i += 1
            return Address("regex", regex=self.compile(pattern, icase, multiline))
        return None

    def compile(self, pattern: str, icase: bool = False, multiline: bool = False) -> PosixRegex | None:
        if pattern == "":
            return None
        try:
            return compile_posix(pattern, self.extended, ignore_case=icase, multiline=multiline,
                                 sed_escapes=True, ascii=self.ascii)
        except RegexError as e:
            raise self.error(str(e)) from None

    def delimited(self, delim: str, unterminated: str) -> str:
        """Text up to an unescaped ``delim``; ``\\delim`` becomes a plain ``delim`` (GNU sed 4.9:
        with whatever meaning the plain character has, so ``s.a\\.b.x.`` matches axb and
        ``s|a\\|b|x|`` the text a|b), newline escapes are kept for the regex layer."""
        s = self.s
        out = []
        while True:
            if self.i >= len(s):
                raise self.error(unterminated)
            c = s[self.i]
            if c == "\\":
                if self.i + 1 >= len(s):
                    raise self.error(unterminated)
                nxt = s[self.i + 1]
                if nxt == delim:
                    out.append(delim)
                elif nxt == "\n":
                    out.append("\\n")
                else:
                    out.append("\\" + nxt)
                self.i += 2
                continue
            if c == delim:
                self.i += 1
                return "".join(out)
            if c == "\n" and delim != "\n":
                # GNU accepts a newline in a regex only in some contexts; treat as unterminated
                raise self.error(unterminated)
            if c == "[":
                # a bracket expression may contain the delimiter unescaped
                j = self.i + 1
                if j < len(s) and s[j] == "^":
                    j += 1
                if j < len(s) and s[j] == "]":
                    j += 1
                while j < len(s) and s[j] != "]":
                    if s[j] == "[" and j + 1 < len(s) and s[j + 1] in ":.=":
                        end = s.find(s[j + 1] + "]", j + 2)
                        if end < 0:
                            break
                        j = end + 2
                        continue
                    if s[j] == "\n":
                        break
                    j += 1
                if j < len(s) and s[j] == "]":
                    out.append(s[self.i:j + 1])
                    self.i = j + 1
                    continue
                if j >= len(s):
                    # GNU: an open bracket swallows the delimiter
                    self.i = len(s)
                    raise self.error(unterminated)
            out.append(c)
            self.i += 1

    def read_label(self) -> str:
        """A label (of : b t T): GNU sed 4.9 ends it at a blank or a semicolon, so
        ``b end }`` branches to "end" and closes the block."""
        self.skip_ws()
        s = self.s
        j = self.i
        while self.i < len(s) and s[self.i] not in "\n; \t\v\f\r":
            self.i += 1
        return s[j:self.i]

    def read_filename(self) -> str:
        self.skip_ws()
        s = self.s
        j = self.i
        while self.i < len(s) and s[self.i] != "\n":
            self.i += 1
        return s[j:self.i]

    def read_text(self) -> str | None:
        """Text of a, i, c: GNU one-liner (``a text``) or classic (``a\\`` newline lines).
        None: a classic ``a\\`` with nothing after it (GNU then adds nothing)."""
        s = self.s
        self.skip_ws()
        if self.peek() == "\\":
            self.i += 1
            if self.peek() == "\n":
                self.i += 1
            elif self.i >= len(s):
                return None
        out = []
        while self.i < len(s):
            c = s[self.i]
            if c == "\\":
                if self.i + 1 < len(s):
                    got = sed_escape(s, self.i + 1, not self.ascii)
                    if got is not None:
                        out.append(got[0])
                        self.i = got[1]
                        continue
                    out.append(s[self.i + 1])
                    self.i += 2
                    continue
                self.i += 1
                continue
            if c == "\n":
                self.i += 1
                break
            out.append(c)
            self.i += 1
        return "".join(out)

    def command(self) -> None:
        s = self.s
        cmd = Command(name="")
        cmd.addr1 = self.address()
        if cmd.addr1 is not None:
            self.skip_ws()
            if self.peek() == ",":
                self.i += 1
                self.skip_ws()
                c = self.peek()
                if c in "+~" and c:
                    self.i += 1
                    j = self.i
                    while self.i < len(s) and isdigits(s[self.i]):
                        self.i += 1
                    if j == self.i:
                        raise self.error("expected newer version of sed")
                    cmd.addr2_kind = "plus" if c == "+" else "tilde"
                    cmd.addr2_n = int(s[j:self.i])
                else:
                    cmd.addr2 = self.address()
                    if cmd.addr2 is None:
                        raise self.error("unexpected `,'", 1)
                    if cmd.addr2.kind == "zero":
                        raise self.error("invalid usage of line address 0", 1)
            if cmd.addr1.kind == "zero" and not (cmd.addr2 is not None and cmd.addr2.kind == "regex"):
                raise self.error("invalid usage of line address 0", 1)
        self.skip_ws()
        if self.peek() == "!":
            cmd.negate = True
            self.i += 1
            self.skip_ws()
            if self.peek() == "!":
                raise self.error("multiple `!'s", 1)
        if self.i >= len(s):
            raise self.error("missing command")
        name = s[self.i]
        self.i += 1
        cmd.name = name
        cmd.cmd_index = len(self.commands)
        if name == "{":
            self.blocks.append(len(self.commands))
            self.commands.append(cmd)
            return
        if name == "}":
            if cmd.addr1 is not None or cmd.negate:
                raise self.error("} doesn't want any addresses")
            if not self.blocks:
                raise self.error("unexpected `}'")
            opener = self.blocks.pop()
            self.commands[opener].target = len(self.commands)  # index of the '}' no-op
            self.commands.append(cmd)
            self.end_of_command()
            return
        if name == ":":
            if cmd.addr1 is not None:
                raise self.error(": doesn't want any addresses")
            label = self.read_label()
            if not label:
                raise self.error("\":\" lacks a label")
            self.labels[label] = len(self.commands)
            return
        if name == "v":
            self.read_label()  # GNU: require a version; every script we run is fine
            return
        if name in "aic":
            cmd.text = self.read_text()
        elif name in "btT":
            cmd.text = self.read_label()
        elif name in "rRwW":
            cmd.text = self.read_filename()
            if name in "wW" and not cmd.text:
                raise self.error("missing filename in r/R/w/W commands")
        elif name in "qQlL":
            if name in "qQ" and (cmd.addr2 is not None or cmd.addr2_kind):
                raise self.error("command only uses one address")
            self.skip_ws()
            j = self.i
            while self.i < len(s) and isdigits(s[self.i]):
                self.i += 1
            if j != self.i:
                cmd.int_arg = int(s[j:self.i])
            self.end_of_command()
        elif name == "s":
            self.parse_s(cmd)
        elif name == "y":
            self.parse_y(cmd)
        elif name in "=dDgGhHnNpPxzFe":
            if name == "e":
                cmd.text = self.read_filename()
            else:
                self.end_of_command()
        elif name == "#":
            while self.i < len(s) and s[self.i] != "\n":
                self.i += 1
            return
        else:
            raise self.error(f"unknown command: `{name}'")
        self.commands.append(cmd)

    def end_of_command(self) -> None:
        self.skip_ws()
        c = self.peek()
        if c == "" or c in "\n;}#":
            if c == ";":
                self.i += 1
            return
        raise self.error("extra characters after command")

    def parse_s(self, cmd: Command) -> None:
        delim = self.peek()
        if not delim or delim in "\n\\":
            raise self.error("unterminated `s' command")
        self.i += 1
        pattern = self.delimited(delim, "unterminated `s' command")
        repl = self.replacement_text(delim)
        flags_icase = flags_m = False
        s = self.s
        occurrence_given = False
        while self.i < len(s):
            c = s[self.i]
            if c == "g":
                if cmd.global_:
                    raise self.error("multiple `g' options to `s' command", 1)
                cmd.global_ = True
            elif c == "p":
                if cmd.print_:
                    raise self.error("multiple `p' options to `s' command", 1)
                cmd.print_ += 1
            elif c in "iI":
                flags_icase = True
            elif c in "mM":
                flags_m = True
            elif c == "e":
                cmd.eval_ = True
            elif isdigits(c):
                j = self.i
                while self.i < len(s) and isdigits(s[self.i]):
                    self.i += 1
                if occurrence_given:
                    raise self.error("multiple number options to `s' command")
                occurrence_given = True
                cmd.occurrence = int(s[j:self.i])
                if cmd.occurrence == 0:
                    raise self.error("number option to `s' command may not be zero")
                continue
            elif c == "w":
                self.i += 1
                cmd.wfile = self.read_filename()
                break
            elif c in " \t":
                pass
            elif c in "\n;}#":
                break
            else:
                raise self.error("unknown option to `s'", 1)
            self.i += 1
        if self.peek() == ";":
            self.i += 1
        cmd.regex = self.compile(pattern, flags_icase, flags_m)
        cmd.replacement = repl
        if cmd.regex is not None:
            self.check_refs(repl, cmd.regex.groups)
        if all(kind == "lit" for kind, _ in repl):
            cmd.literal = "".join(value for _, value in repl)
        rx = cmd.regex
        if (rx is not None and not rx.risky and not any(kind == "case" for kind, _ in repl)
                and not any(x in rx.python for x in ("(?=", "(?!", "(?<", "\\b", "\\B"))
                and rx.match("") is None):
            # no empty matches: Python's sub() places matches exactly as GNU does
            cmd.template = "".join(value.replace("\\", "\\\\") if kind == "lit" else f"\\g<{value}>"
                                   for kind, value in repl)

    def check_refs(self, repl: list, groups: int) -> None:
        for kind, value in repl:
            if kind == "group" and value > groups:
                raise self.error(f"invalid reference \\{value} on `s' command's RHS")

    def replacement_text(self, delim: str) -> list:
        """Parse the RHS into parts: ("lit", str), ("group", n), ("case", c)."""
        s = self.s
        parts: list = []
        lit: list[str] = []

        def flush():
            if lit:
                parts.append(("lit", "".join(lit)))
                lit.clear()

        while True:
            if self.i >= len(s):
                raise self.error("unterminated `s' command")
            c = s[self.i]
            if c == "\\":
                if self.i + 1 >= len(s):
                    raise self.error("unterminated `s' command")
                nxt = s[self.i + 1]
                self.i += 2
                if nxt == delim:
                    lit.append(nxt)  # the delimiter itself: s1\(9\)1X\11 writes X1, s&9&\&& an &
                elif isdigits(nxt):
                    flush()
                    parts.append(("group", int(nxt)))
                elif nxt == "&":
                    lit.append("&")
                elif nxt in "LUluE":
                    flush()
                    parts.append(("case", nxt))
                elif nxt == "\n":
                    lit.append("\n")
                else:
                    got = sed_escape(s, self.i - 1, not self.ascii)
                    if got is not None:
                        lit.append(got[0])
                        self.i = got[1]
                    else:
                        lit.append(nxt)
                continue
            if c == delim:
                self.i += 1
                flush()
                return parts
            if c == "&":
                flush()
                parts.append(("group", 0))
                self.i += 1
                continue
            lit.append(c)
            self.i += 1

    def parse_y(self, cmd: Command) -> None:
        delim = self.peek()
        if not delim or delim in "\n\\":
            raise self.error("unterminated `y' command")
        self.i += 1

        def part() -> str:
            out = []
            s = self.s
            while True:
                if self.i >= len(s):
                    raise self.error("unterminated `y' command")
                c = s[self.i]
                if c == "\\" and self.i + 1 < len(s):
                    nxt = s[self.i + 1]
                    self.i += 2
                    if nxt == "n":
                        out.append("\n")
                    elif nxt == "t":
                        out.append("\t")
                    elif nxt == "\\" or nxt == delim:
                        out.append(nxt)
                    else:
                        out.append("\\" + nxt)
                    continue
                if c == delim:
                    self.i += 1
                    return "".join(out)
                out.append(c)
                self.i += 1

        src = part()
        dst = part()
        if len(src) != len(dst):
            raise self.error("strings for `y' command are different lengths")
        cmd.table = {ord(a): b for a, b in zip(src, dst)}
        self.end_of_command()
