"""The tokenizer of the bash language: tokens, words, here-documents and aliases.

Bash reads words with their quoting and nested substitutions in one pass, so a word token
already holds its parsed parts; a ``$(...)``, ``<(...)`` or backquoted body is parsed by the
grammar (``parse_compound_list``/``parse_program``/``sub_parser``, which ``Parser`` provides).
Tokens are ``(start, kind, value, end)`` tuples: kind is op|word|nl|eof|ionum.
"""
from __future__ import annotations

import bisect
from collections.abc import Callable

from ...lazy import TYPE_CHECKING, lazy_compile
from .ast import DQ, ArithSub, Assign, CmdSub, CommandList, HereDoc, Lit, Param, Part, ProcSub, Quoted, Unparsed, Word
from .escapes import decode_ansi_c

if TYPE_CHECKING:
    from typing import Any

#: (start, kind, value, end); value is the operator text, the Word, the fd number or name
Token = tuple[int, str, "Any", int]
#: an alias table, or a callable returning the current one (None: no alias expansion)
Aliases = dict[str, str] | Callable[[], dict[str, str] | None] | None
#: a parse-time option: a value, or a callable returning the current value
Switch = bool | Callable[[], bool]


#: the exit status of a script whose syntax error is inside ``[[ ]]``: bash keeps ``$?``
KEEP_STATUS = -1


class ParseError(Exception):
    """A syntax error; ``status`` is what a non-interactive shell exits with (2, 127 for an
    error inside ``$(...)`` as bash gives, or KEEP_STATUS for one inside ``[[ ]]``)."""

    #: bash drops only the rest of the line and reads on, with status 1 (an error inside an
    #: array's ``(...)``: bash's parse_compound_assignment)
    discards_line = False

    def __init__(self, message: str, line: int, status: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.status = status


class Incomplete(ParseError):
    """The text ends where more is needed (open quote, missing ``fi``, here-doc ...)."""

    #: how history joins the next line to this text: "\n" inside a word (a quote, `...`,
    #: $(...), $((...)): the newline is part of it), " " between array elements, None: "; "
    join: str | None = None


WORD_END = frozenset(" \t\n;&|<>()")
RESERVED = frozenset({"if", "then", "elif", "else", "fi", "do", "done", "case", "esac", "while",
                      "until", "for", "in", "function", "select", "{", "}", "!", "[[", "]]",
                      "time"})
#: reserved words that end a compound list
CLOSERS = frozenset({"then", "elif", "else", "fi", "do", "done", "esac", "}"})
OPERATORS = (";;&", ";;", ";&", "&&", "&>>", "&>", "||", "|&", "<<<", "<<-", "<<", "<&", "<>",
             ">>", ">&", ">|", ";", "&", "|", "<", ">", "(", ")")
SPECIAL_PARAMS = frozenset("@*#?-$!0123456789")
NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
NAME_CHARS = NAME_START | frozenset("0123456789")
EXPANDING = frozenset("*?[{~@!+")
#: the characters before ( that start an extglob group
EXTGLOB_PREFIX = frozenset("?*+@!")
#: where the text of one alternative of an extglob group ends
GROUP_STOP = frozenset("|)")
DIGITS = frozenset("0123456789")


_NAME = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]*")


def is_name(s: str) -> bool:
    return _NAME.fullmatch(s) is not None


class Lexer:
    """Reads ``src`` from ``self.i``. ``peek``/``advance`` give tokens; a newline token also
    reads the here-documents started on its line. The grammar parser subclasses this and
    provides the three methods at the end (nested command lists)."""

    def __init__(self, src: str, aliases: Aliases = None, first_line: int = 1,
                 extglob: Switch = True) -> None:
        self.src = src
        self.n = len(src)
        self.i = 0
        self.aliases = aliases
        self.first_line = first_line
        #: whether @(...) and friends are read as part of a word (shopt extglob when the
        #: line is parsed); a callable is asked each time
        self.extglob = extglob
        #: set while the pattern after == / != in [[ ]] is read (always extglob there)
        self.force_extglob = False
        self._newlines = [k for k, c in enumerate(src) if c == "\n"]
        self.pending_heredocs: list[HereDoc] = []
        self._peeked: Token | None = None
        #: (line, message) notes bash prints as warnings (a here-doc ended by end of input)
        self.warnings: list[tuple[int, str]] = []
        #: (end, name) of the alias values being read: a name is not expanded inside itself
        self._alias_regions: list[tuple[int, str]] = []
        #: after an alias whose value ends in a blank, the first word from here on is
        #: checked for an alias too (-1: none)
        self._alias_next = -1

    # ------------------------------------------------------------------ positions
    def line_at(self, pos: int) -> int:
        return bisect.bisect_left(self._newlines, pos) + self.first_line

    def error(self, message: str, pos: int | None = None) -> ParseError:
        return ParseError(message, self.line_at(self.i if pos is None else pos))

    def incomplete(self, message: str, join: str | None = None) -> Incomplete:
        error = Incomplete(message, self.line_at(self.n))
        error.join = join
        return error

    def unexpected(self, tok: Token) -> ParseError:
        kind, value = tok[1], tok[2]
        if kind == "eof":
            return self.incomplete("syntax error: unexpected end of file")
        text = "newline" if kind == "nl" else (value if kind == "op" else self.token_text(tok))
        return self.error(f"syntax error near unexpected token `{text}'", tok[0])

    def token_text(self, tok: Token) -> str:
        return self.src[tok[0]:tok[3]]

    # ------------------------------------------------------------------ tokens
    def skip_blanks(self) -> None:
        s, n, i = self.src, self.n, self.i
        while i < n:
            c = s[i]
            if c == " " or c == "\t":
                i += 1
            elif c == "\\" and i + 1 < n and s[i + 1] == "\n":
                i += 2
            elif c == "#":
                while i < n and s[i] != "\n":
                    i += 1
            else:
                break
        self.i = i

    def peek(self) -> Token:
        """The next token as (start, kind, value, end): kind is op|word|nl|eof|ionum."""
        if self._peeked is not None:
            return self._peeked
        tok = self._lex()
        if self._alias_next >= 0 and tok[0] >= self._alias_next:
            # the word after an alias value ending in a blank, and the first word of what
            # that word expands to, again and again
            self._alias_next = -1
            while self.expand_alias(tok):
                tok = self._lex()
        self._peeked = tok
        return tok

    def _lex(self) -> Token:
        self.skip_blanks()
        start = self.i
        s = self.src
        tok: Token
        if start >= self.n:
            tok = (start, "eof", None, start)
        else:
            c = s[start]
            if c == "\n":
                tok = (start, "nl", "\n", start + 1)
            elif c in "<>" and start + 1 < self.n and s[start + 1] == "(":
                tok = self._word_token(start)
            elif c in ";&|<>()":
                for op in OPERATORS:
                    if s.startswith(op, start):
                        tok = (start, "op", op, start + len(op))
                        break
            else:
                # an fd number or {var} directly before a redirection operator
                j = start
                while j < self.n and s[j] in DIGITS:  # not str.isdigit: that takes "²"
                    j += 1
                if j > start and j < self.n and s[j] in "<>":
                    tok = (start, "ionum", int(s[start:j]), j)
                elif c == "{":
                    k = s.find("}", start)
                    if k > start + 1 and k + 1 < self.n and s[k + 1] in "<>" and is_name(s[start + 1:k]):
                        tok = (start, "ionum", s[start + 1:k], k + 1)
                    else:
                        tok = self._word_token(start)
                else:
                    tok = self._word_token(start)
        return tok

    def _word_token(self, start: int) -> Token:
        saved = self.i
        self.i = start
        word = self.read_word()
        end = self.i
        self.i = saved
        return (start, "word", word, end)

    def advance(self) -> Token:
        tok = self.peek()
        self._peeked = None
        self.i = tok[3]
        if tok[1] == "nl":
            self.after_newline()
        return tok

    def skip_past_line(self, line: int) -> None:
        """Go on reading at the line after ``line`` (a line bash discards)."""
        k = line - self.first_line
        self.seek(self._newlines[k] + 1 if 0 <= k < len(self._newlines) else self.n)
        self.pending_heredocs = []

    def seek(self, pos: int) -> None:
        """Go on reading at ``pos`` (forgetting a peeked token)."""
        self._peeked = None
        self.i = pos

    def after_newline(self) -> None:
        """Read the bodies of the here-documents whose redirections ended this line."""
        if self.pending_heredocs:
            docs, self.pending_heredocs = self.pending_heredocs, []
            for doc in docs:
                self._read_heredoc(doc)

    def is_reserved(self, tok: Token, *words: str) -> bool:
        if tok[1] != "word":
            return False
        w = tok[2]
        text = w.plain
        if text is None:
            return False
        return text in words if words else text in RESERVED

    def skip_newlines(self) -> None:
        while self.peek()[1] == "nl":
            self.advance()

    def expect_reserved(self, word: str) -> Token:
        tok = self.peek()
        if not self.is_reserved(tok, word):
            raise self.unexpected(tok)
        return self.advance()

    def expect_op(self, op: str) -> Token:
        tok = self.peek()
        if tok[1] != "op" or tok[2] != op:
            raise self.unexpected(tok)
        return self.advance()

    def expect_close_paren(self) -> None:
        tok = self.peek()
        if tok[1] == "op" and tok[2] == ")":
            self.advance()
            return
        raise self.unexpected(tok)

    # ------------------------------------------------------------------ aliases
    def expand_alias(self, tok: Token) -> bool:
        """Replace the word ``tok`` by its alias in the source (the next ``peek`` reads the
        value); False when it is no alias or is one whose value is being read."""
        if tok[1] != "word" or tok[2].plain is None:
            return False
        aliases = self.aliases() if callable(self.aliases) else self.aliases
        if not aliases:
            return False
        name = tok[2].plain
        value = aliases.get(name)
        start, end = tok[0], tok[3]
        # the values this word is inside of
        regions = [r for r in self._alias_regions if r[0] > start]
        self._alias_regions = regions
        if value is None or any(n == name for _, n in regions):
            return False
        self.src = self.src[:start] + value + self.src[end:]
        self.n = len(self.src)
        self._newlines = [k for k, c in enumerate(self.src) if c == "\n"]
        self.seek(start)
        delta = len(value) - (end - start)
        self._alias_regions = [(e + delta, n) for e, n in regions] + [(start + len(value), name)]
        # a value ending in a blank makes the word after it eligible too
        self._alias_next = start + len(value) if value.endswith((" ", "\t")) else -1
        return True

    # ------------------------------------------------------------------ here-documents
    def add_heredoc(self, op: str, word: Word) -> HereDoc:
        """A ``<<``/``<<-`` redirection to ``word``: its body is read after the current line."""
        quoted = any(isinstance(p, (Quoted, DQ)) for p in word.parts)
        doc = HereDoc(Word([]), quoted, op == "<<-", _heredoc_delimiter(word))
        self.pending_heredocs.append(doc)
        return doc

    def _read_heredoc(self, doc: HereDoc) -> None:
        s = self.src
        lines = []
        i = self.i
        # a redirection from an alias's value: bash reads the body from the input after the
        # line the alias was used on, not from the rest of the value (which runs as commands)
        inside = [end for end, _ in self._alias_regions if end > i]
        resume = None
        if inside:
            j = s.find("\n", max(inside))
            resume, i = self.i, (self.n if j < 0 else j + 1)
        body_start = i
        while True:
            if i >= self.n:
                # bash warns and uses what it has: a here-doc cut short by EOF still counts
                self.warnings.append((self.line_at(self.n), f"here-document at line {self.line_at(self.i) - 1} "
                                      f"delimited by end-of-file (wanted `{doc.delimiter}')"))
                break
            j = s.find("\n", i)
            if j < 0:
                line, nxt = s[i:], self.n
            else:
                line, nxt = s[i:j], j + 1
            check = line.lstrip("\t") if doc.strip_tabs else line
            if check == doc.delimiter:
                i = nxt
                break
            lines.append(check if doc.strip_tabs else line)
            i = nxt
        text = "".join(l + "\n" for l in lines)
        doc.raw = text
        if doc.quoted:
            doc.body = Word([Quoted(text)] if text else [])
        else:
            doc.body = self._parse_heredoc_text(text, body_start)
        if resume is not None:
            self.src = s[:body_start] + s[i:]
            self.n = len(self.src)
            self._newlines = [k for k, c in enumerate(self.src) if c == "\n"]
            i = resume
        self.i = i
        self._peeked = None

    def _parse_heredoc_text(self, text: str, pos: int) -> Word:
        sub = self.sub_parser(text, self.line_at(pos))
        parts = sub.read_dq_parts(heredoc=True)
        return Word(parts)

    # ------------------------------------------------------------------ special words
    def read_regex_word(self) -> Word:
        """The right side of ``=~``: parentheses and | are literal regex characters here."""
        self.skip_blanks()
        self._peeked = None
        parts: list[Part] = []
        depth = 0
        s = self.src
        if s.startswith("]]", self.i) and (self.i + 2 >= self.n or s[self.i + 2] in WORD_END):
            raise self.error("unexpected argument `]]' to conditional binary operator")
        while self.i < self.n:
            c = self.src[self.i]
            if depth == 0 and c in " \t\n":
                break
            if depth == 0 and (s.startswith("&&", self.i) or s.startswith("||", self.i)):
                break
            if c == "(":
                depth += 1
                _append_lit(parts, c)
                self.i += 1
            elif c == ")":
                if depth == 0:
                    break
                depth -= 1
                _append_lit(parts, c)
                self.i += 1
            elif c in "<>&;" and depth == 0:
                # outside parentheses only | is a literal operator character
                raise self.error(f"syntax error in conditional expression: unexpected token "
                                 f"`{'<>' if s.startswith('<>', self.i) else c}'")
            elif c in "|<>&;":
                _append_lit(parts, c)
                self.i += 1
            elif c in " \t" and depth > 0:
                _append_lit(parts, c)
                self.i += 1
            else:
                start = self.i
                sub = self.read_word_parts(stop=frozenset(" \t\n()|<>&;"))
                s = self.src  # an alias inside may have changed the text
                if self.i == start:
                    break
                for p in sub:
                    if isinstance(p, Lit):
                        _append_lit(parts, p.text)
                    else:
                        parts.append(p)
        if not parts:
            raise self.error("syntax error in conditional expression")
        return Word(parts)

    def looks_like_array_assign(self, tok: Token) -> bool:
        """A NAME=, NAME+= or NAME[...]= argument of declare/local/export/readonly: parsed as
        an assignment (no word splitting, arrays allowed)."""
        s = self.src
        j = tok[0]
        if j >= self.n or s[j] not in NAME_START:
            return False
        while j < self.n and s[j] in NAME_CHARS:
            j += 1
        if j < self.n and s[j] == "[":
            k = s.find("]", j)
            # unlike a command's own NAME[i]=, an argument's subscript ends with its word: bash
            # splits `declare a[ 1 ]=x` into three arguments
            source = tok[2].source if isinstance(tok[2], Word) else None
            if k < 0 or (source is not None and k >= tok[0] + len(source)):
                return False
            j = k + 1
        return s.startswith("=", j) or s.startswith("+=", j)

    def read_assignment(self, tok: Token) -> Assign | None:
        """The assignment ``tok`` starts (NAME=value, NAME+=, NAME[i]=, NAME=(...)), read up
        to its end; None (nothing read) when it is an ordinary word."""
        s = self.src
        start = tok[0]
        j = start
        if j >= self.n or s[j] not in NAME_START:
            return None
        while j < self.n and s[j] in NAME_CHARS:
            j += 1
        name = s[start:j]
        index = None
        if j < self.n and s[j] == "[":
            # name[index]=: bash reads the subscript across blanks and lines, up to its `]`
            k = self.closing(j)
            if k < 0:
                raise self.incomplete("unexpected EOF while looking for matching `]'")
            if not (s.startswith("=", k + 1) or s.startswith("+=", k + 1)):
                return None
            index = self.parse_text_word(s[j + 1:k], j + 1)
            j = k + 1
        append = False
        if s.startswith("+=", j):
            append = True
            j += 2
        elif s.startswith("=", j):
            j += 1
        else:
            return None
        if j < self.n and s[j] == "(":
            # (NAME[i]=(...) parses, and fails when it runs: bash's "cannot assign list")
            self.seek(j + 1)
            elements = self._parse_array_elements()
            return Assign(name, None, index, elements, append)
        self.seek(j)
        if j >= self.n or s[j] in WORD_END:
            value = Word([], "")
        else:
            value = self.read_word(assignment=True)
        return Assign(name, value, index, None, append)

    def _parse_array_elements(self) -> list[Word | tuple[Word, Word, bool]]:
        elements: list[Word | tuple[Word, Word, bool]] = []
        while True:
            # blanks, newlines and comments separate elements
            while True:
                self.skip_blanks()
                if self.i < self.n and self.src[self.i] == "\n":
                    self.i += 1
                    self.after_newline()
                    continue
                break
            if self.i >= self.n:
                raise self.incomplete("unexpected EOF while looking for matching `)'", join=" ")
            c = self.src[self.i]
            if c == ")":
                self.i += 1
                return elements
            if c in ";&|<>(":
                error = self.error(f"syntax error near unexpected token `{c}'")
                error.discards_line = True
                error.status = 1
                raise error
            if c == "[":
                # [key]=value
                s = self.src
                k = self.closing(self.i)
                if k >= 0 and (s.startswith("=", k + 1) or s.startswith("+=", k + 1)):
                    key = self.parse_text_word(s[self.i + 1:k], self.i + 1)
                    append = s[k + 1] == "+"
                    self.i = k + (3 if append else 2)
                    if self.i < self.n and s[self.i] not in WORD_END:
                        value = self.read_word(assignment=True)
                    else:
                        value = Word([], "")
                    elements.append((key, value, append))
                    continue
            elements.append(self.read_word())

    # ------------------------------------------------------------------ words
    def read_word(self, assignment: bool = False) -> Word:
        start = self.i
        parts = self.read_word_parts(assignment=assignment)
        if not parts:
            c = self.src[self.i] if self.i < self.n else ""
            raise self.error(f"syntax error near unexpected token `{c}'")
        plain = fast = None
        if len(parts) == 1 and isinstance(parts[0], Lit):
            plain = parts[0].text
            if not any(c in EXPANDING for c in plain):
                fast = plain
        elif not parts:
            fast = ""
        return Word(parts, plain, fast, self.src[start:self.i])

    def read_word_parts(self, stop: frozenset[str] = WORD_END, assignment: bool = False) -> list[Part]:
        """Parts of one word starting at self.i, up to an unquoted ``stop`` character."""
        s, n = self.src, self.n
        parts: list[Part] = []
        lit: list[str] = []
        i = self.i
        start = i
        while i < n:
            c = s[i]
            if c == "(" and lit and lit[-1] and lit[-1][-1] in EXTGLOB_PREFIX and \
                    (stop is WORD_END or stop is GROUP_STOP) and self.extglob_on():
                i = self._read_extglob_group(i, parts, lit)
                s, n = self.src, self.n  # an alias inside may have changed the text
                continue
            if c in stop:
                # <( and >( start a process substitution at the beginning of a word
                if c in "<>" and i == start and i + 1 < n and s[i + 1] == "(":
                    self.i = i + 2
                    body = self.parse_compound_list(close_paren=True)
                    self.expect_close_paren()
                    parts.append(ProcSub(c, body))
                    i = self.i
                    s, n = self.src, self.n
                    continue
                break
            if c == "\\":
                if i + 1 >= n:
                    lit.append("\\")
                    i += 1
                    continue
                nxt = s[i + 1]
                if nxt == "\n":
                    i += 2
                    continue
                _flush_lit(parts, lit)
                parts.append(Quoted(nxt))
                i += 2
            elif c == "'":
                j = s.find("'", i + 1)
                if j < 0:
                    self.i = n
                    raise self.incomplete("unexpected EOF while looking for matching `''", join="\n")
                _flush_lit(parts, lit)
                parts.append(Quoted(s[i + 1:j]))
                i = j + 1
            elif c == '"':
                _flush_lit(parts, lit)
                self.i = i + 1
                inner = self.read_dq_parts()
                parts.append(DQ(inner))
                i = self.i
                s, n = self.src, self.n
            elif c == "$" or c == "`":
                # literal text before a lone `$` stays a part of its own
                _flush_lit(parts, lit)
                i = self._read_expansion(i, parts, lit, in_dq=False)
                s, n = self.src, self.n  # an alias inside may have changed the text
            elif c == "~" and assignment and lit and lit[-1].endswith(":"):
                # a tilde after ':' in an assignment value expands too
                _flush_lit(parts, lit)
                lit.append(c)
                i += 1
            else:
                j = i + 1
                while j < n and s[j] not in stop and s[j] not in "\\'\"$`({~":
                    j += 1
                if j == i + 1 and c in "({":
                    lit.append(c)
                    i += 1
                    continue
                lit.append(s[i:j])
                i = j
        _flush_lit(parts, lit)
        self.i = i
        return parts

    def extglob_on(self) -> bool:
        if self.force_extglob:
            return True
        return self.extglob() if callable(self.extglob) else self.extglob

    def _read_extglob_group(self, i: int, parts: list[Part], lit: list[str]) -> int:
        """At the ``(`` of an extglob group such as ``@(a|b)``: its alternatives are read as
        ordinary word parts (quotes and expansions work inside, and blanks, ``;``, ``&``,
        ``<``, ``>`` are literal there); returns the index after the closing ``)``."""
        s, n = self.src, self.n
        lit.append("(")
        i += 1
        while True:
            self.i = i
            for p in self.read_word_parts(stop=GROUP_STOP):
                if type(p) is Lit:
                    lit.append(p.text)
                else:
                    _flush_lit(parts, lit)
                    parts.append(p)
            i = self.i
            s, n = self.src, self.n  # an alias inside may have changed the text
            if i >= n:
                raise self.incomplete("unexpected EOF while looking for matching `)'")
            lit.append(s[i])
            i += 1
            if s[i - 1] == ")":
                return i

    def _read_expansion(self, i: int, parts: list[Part], lit: list[str], in_dq: bool) -> int:
        """Read the ``$...`` or backquoted expansion at ``i`` into ``parts`` (a ``$`` that starts
        none stays literal text); returns where reading goes on."""
        self.i = i
        part = self.read_dollar(in_dq=in_dq) if self.src[i] == "$" else self.read_backtick(in_dq)
        if part is None:
            lit.append("$")
            return i + 1
        _flush_lit(parts, lit)
        parts.append(part)
        return self.i

    def read_dq_parts(self, heredoc: bool = False, arith: bool = False) -> list[Part]:
        """Inside double quotes (self.i after the opening quote); consumes the closing one.
        ``heredoc``: the whole text, double quotes literal; ``arith``: quotes removed."""
        s, n = self.src, self.n
        parts: list[Part] = []
        lit: list[str] = []
        i = self.i
        while True:
            if i >= n:
                if heredoc:
                    break
                self.i = n
                raise self.incomplete("unexpected EOF while looking for matching `\"'", join="\n")
            c = s[i]
            if c == '"' and not heredoc:
                i += 1
                break
            if c == '"' and arith:
                i += 1
                continue
            if c == "$" and arith and s.startswith('"', i + 1):
                i += 2  # $"..." in arithmetic: a double-quoted string, its quotes removed
                continue
            if c == "\\":
                nxt = s[i + 1] if i + 1 < n else ""
                if nxt == "\n":
                    i += 2
                    continue
                if nxt in ("$", "`", "\\") or (nxt == '"' and not heredoc):
                    lit.append(nxt)
                    i += 2
                    continue
                lit.append("\\")
                i += 1
                continue
            if c == "$" or c == "`":
                i = self._read_expansion(i, parts, lit, in_dq=True)
                s, n = self.src, self.n  # an alias inside may have changed the text
                continue
            j = i + 1
            while j < n and s[j] not in '"\\$`\'':
                j += 1
            lit.append(s[i:j])
            i = j
        _flush_lit(parts, lit)
        self.i = i
        return parts

    def read_backtick(self, in_dq: bool = False) -> CmdSub:
        """A backquoted command: ``\\$``, ``\\` ``, ``\\\\`` (and ``\\"`` inside double
        quotes) lose their backslash before the body is parsed."""
        escaped = '$`\\"' if in_dq else "$`\\"
        s = self.src
        i = self.i + 1
        buf = []
        while True:
            if i >= self.n:
                self.i = self.n
                raise self.incomplete("unexpected EOF while looking for matching ``'", join="\n")
            c = s[i]
            if c == "`":
                break
            if c == "\\" and i + 1 < self.n and s[i + 1] in escaped:
                buf.append(s[i + 1])
                i += 2
                continue
            buf.append(c)
            i += 1
        text = "".join(buf)
        line = self.line_at(self.i)
        sub = self.sub_parser(text, line)
        try:
            body: CommandList | Unparsed = sub.parse_program()
        except ParseError:
            # bash parses a backquoted body when it runs: the error is the substitution's
            body = Unparsed(text, line)
        self.i = i + 1
        return CmdSub(body)

    def read_dollar(self, in_dq: bool = False) -> Part | None:
        """At ``$``: returns a part (self.i after it), or None for a literal ``$``."""
        s = self.src
        i = self.i
        while s.startswith("\\\n", i + 1):
            # a line continuation after $ ($\<newline>? is $?): read on as if $ were at i
            i += 2
        nxt = s[i + 1] if i + 1 < self.n else ""
        if nxt == "(":
            if s.startswith("((", i + 1):
                arith = self._try_arith_sub(i)
                if arith is not None:
                    return arith
            self.i = i + 2
            self._peeked = None
            saved_heredocs = self.pending_heredocs
            self.pending_heredocs = []
            tok = self.peek()
            if tok[1] == "op" and tok[2] == ")":
                self.advance()
                body = CommandList([])
            else:
                try:
                    body = self.parse_compound_list(close_paren=True)
                    tok = self.peek()
                    if not (tok[1] == "op" and tok[2] == ")"):
                        raise self.unexpected(tok)
                except Incomplete as e:
                    e.join = "\n"  # inside $(...) a newline belongs to the word
                    raise
                except ParseError as e:
                    if e.status == 2:
                        # bash's status for a syntax error inside $(...)
                        e.status = 127
                    raise
                self.i = tok[3]
                self._peeked = None
            self.pending_heredocs = saved_heredocs + self.pending_heredocs
            return CmdSub(body)
        if nxt == "{":
            self.i = i + 2
            return self.read_braced_param(in_dq)
        if nxt == "[":
            # $[ expr ]: the obsolete arithmetic expansion
            j, depth = i + 2, 0
            while j < self.n:
                if s[j] == "[":
                    depth += 1
                elif s[j] == "]":
                    if depth == 0:
                        break
                    depth -= 1
                j += 1
            if j >= self.n:
                raise self.incomplete("unexpected EOF while looking for matching `]'")
            expr = self.parse_text_word(s[i + 2:j], i + 2)
            self.i = j + 1
            return ArithSub(expr)
        if nxt == "'" and not in_dq:
            return self._read_ansi_c(i)
        if nxt == '"' and not in_dq:
            self.i = i + 2
            return DQ(self.read_dq_parts())
        if nxt and nxt in NAME_START:
            j = i + 2
            while j < self.n and s[j] in NAME_CHARS:
                j += 1
            self.i = j
            return Param(s[i + 1:j], unbraced=True)
        if nxt and nxt in SPECIAL_PARAMS:
            self.i = i + 2
            return Param(nxt, unbraced=True)
        return None

    def _read_ansi_c(self, i: int) -> Quoted:
        """The ``$'...'`` string at ``i`` (self.i after it)."""
        s = self.src
        j = i + 2
        while j < self.n and s[j] != "'":
            if s[j] == "\\":
                j += 1
            j += 1
        if j >= self.n:
            self.i = self.n
            raise self.incomplete("unexpected EOF while looking for matching `''", join="\n")
        self.i = j + 1
        return Quoted(decode_ansi_c(s[i + 2:j]))

    def _try_arith_sub(self, i: int) -> ArithSub | None:
        s = self.src
        j = self.arith_close(i + 3)
        if not s.startswith("))", j):
            return None
        expr = self.parse_text_word(s[i + 3:j], i + 3)
        self.i = j + 2
        return ArithSub(expr)

    def arith_close(self, j: int, semicolons: list[int] | None = None) -> int:
        """Index of the ``)`` that closes the ``(`` before ``j``: arithmetic text ends there
        when ``))`` follows."""
        j = self.closing(j, "()", depth=1, semicolons=semicolons)
        if j < 0:
            raise self.incomplete("unexpected EOF while looking for matching `))'", join="\n")
        return j

    def read_braced_param(self, in_dq: bool) -> Param:
        """After ``${``; consumes through the closing ``}``."""
        s, n = self.src, self.n
        i = self.i
        if i >= n:
            raise self.incomplete("unexpected EOF while looking for matching `}'")
        length = indirect = False
        # ${#} is the argument count; ${#name} a length; ${##}/${#-}/${#?} the length of a
        # special parameter, but ${###} and ${##pat} are $# with an operator (bash's reading)
        if s[i] == "#" and i + 1 < n and s[i + 1] != "}" and (
                s[i + 1] in NAME_CHARS or s.startswith("}", i + 2) or s.startswith("[", i + 2)):
            length = True
            i += 1
        elif s[i] == "!" and i + 1 < n and s[i + 1] not in "}:":  # ${!:+x} is $! with an operator
            indirect = True
            i += 1
        # the name
        if i < n and s[i] in NAME_START:
            j = i + 1
            while j < n and s[j] in NAME_CHARS:
                j += 1
        elif i < n and s[i] in DIGITS:
            j = i + 1
            while j < n and s[j] in DIGITS:
                j += 1
        elif i < n and s[i] in "@*#?-$!0":
            j = i + 1
        else:
            if i >= n:
                raise self.incomplete("unexpected EOF while looking for matching `}'")
            return self._bad_substitution(i)
        name = s[i:j]
        i = j
        index = None
        if i < n and s[i] == "[" and is_name(name):
            k = self.closing(i)
            if k < 0:
                raise self.incomplete("unexpected EOF while looking for matching `]'")
            inner = s[i + 1:k]
            index = Word([Lit(inner)], inner) if inner in ("@", "*") else self.parse_text_word(inner, i + 1)
            i = k + 1
        if i >= n:
            raise self.incomplete("unexpected EOF while looking for matching `}'")
        param = Param(name, None, None, None, index, indirect, length)
        c = s[i]
        if c == "}":
            self.i = i + 1
            return param
        if indirect and c in "*@" and s.startswith("}", i + 1):
            # ${!prefix*} / ${!prefix@}
            param.op = "prefix" + c
            self.i = i + 2
            return param
        if length:
            return self._bad_substitution(i)
        for op in (":-", ":=", ":?", ":+", "-", "=", "?", "+", "##", "#", "%%", "%", "//", "/#",
                   "/%", "/", "^^", "^", ",,", ",", "~~", "~", "@", ":"):
            if s.startswith(op, i):
                break
        else:
            return self._bad_substitution(i)
        i += len(op)
        self.i = i
        param.op = op
        if op == ":":
            if s.startswith("}", i):
                return self._bad_substitution(i)
            param.arg = self._offset_word(in_dq)
            if self.i < self.n and self.src[self.i] == ":":
                self.i += 1
                param.arg2 = self._param_word(frozenset("}"), in_dq)
        elif op in ("/", "//", "/#", "/%"):
            lead = op == "//" and s.startswith("/", self.i)
            if lead:
                # ${x////c}: the pattern cannot be empty, so this slash starts it
                self.i += 1
            param.arg = self._param_word(frozenset("/}"), in_dq, pattern=True)
            if lead:
                param.arg = Word(_merge_lits([Lit("/"), *param.arg.parts]))
            if self.i < self.n and self.src[self.i] == "/":
                self.i += 1
                param.arg2 = self._param_word(frozenset("}"), in_dq, replacement=True)
        elif op == "@":
            j = self.i
            while j < n and s[j] != "}":
                j += 1
            param.arg = Word([Lit(s[self.i:j])], s[self.i:j])
            self.i = j
        else:
            param.arg = self._param_word(
                frozenset("}"), in_dq, pattern=op in ("#", "##", "%", "%%", "^", "^^", ",", ",,", "~", "~~")
            )
        if self.i >= self.n:
            raise self.incomplete("unexpected EOF while looking for matching `}'")
        if self.src[self.i] != "}":
            return self._bad_substitution(self.i)
        self.i += 1
        return param

    def _offset_word(self, in_dq: bool) -> Word:
        """The offset of ``${x:offset:length}``: an arithmetic text, so a ``:`` that belongs to
        a ``?`` (``${s: 1 ? 2 : 0 : 1}``) does not end it."""
        parts: list[Part] = []
        while True:
            parts.extend(self._param_word(frozenset(":}"), in_dq).parts)
            questions = sum(p.text.count("?") - p.text.count(":") for p in parts if type(p) is Lit)
            if questions > 0 and self.i < self.n and self.src[self.i] == ":":
                parts.append(Lit(":"))
                self.i += 1
                continue
            parts = _merge_lits(parts)
            if len(parts) == 1 and isinstance(parts[0], Lit):
                return Word(parts, parts[0].text)
            return Word(parts)

    def _bad_substitution(self, i: int) -> Param:
        """Skip to the closing brace; the error is reported when the word is expanded."""
        s = self.src
        start = s.rfind("${", 0, i + 1)
        depth = 0
        j = start + 1 if start >= 0 else i
        while j < self.n:
            if s[j] == "{":
                depth += 1
            elif s[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if j >= self.n:
            raise self.incomplete("unexpected EOF while looking for matching `}'")
        self.i = j + 1
        return Param(s[start:j + 1], "bad")

    def _param_word(self, stop: frozenset[str], in_dq: bool, pattern: bool = False,
                    replacement: bool = False) -> Word:
        """The word of a ``${name OP word}``; it ends at the first unquoted ``stop``
        character (bash counts no braces: ``${x:-{a}b}`` is ``{a`` then ``b}``)."""
        if in_dq and not pattern and not replacement:
            # inside "${x:-...}" the word is double-quoted text with single quotes literal
            parts = self._read_dq_until(stop)
            return Word([DQ(parts)] if parts else [])
        if in_dq and pattern:
            parts = self.read_word_parts(stop=stop)
            return Word(parts)
        # the replacement of ${x/p/r} is read as an unquoted word even inside double quotes
        # (bash 5.2 expands it so: "${t//./\/}" is a/b/c)
        parts = self.read_word_parts(stop=stop)
        if self.i < self.n and self.src[self.i] not in stop:
            # blanks and operators are literal inside ${...}
            more: list[Part] = []
            while self.i < self.n and self.src[self.i] not in stop:
                c = self.src[self.i]
                if c in " \t\n;&|<>()":
                    more.append(Lit(c))
                    self.i += 1
                else:
                    more.extend(self.read_word_parts(stop=stop | frozenset(" \t\n;&|<>()")))
            parts = _merge_lits(parts + more)
        if len(parts) == 1 and isinstance(parts[0], Lit):
            return Word(parts, parts[0].text)
        return Word(parts)

    def _read_dq_until(self, stop: frozenset[str]) -> list[Part]:
        """Double-quoted text inside ``"${...}"`` up to a ``stop`` character. Single quotes
        protect what they hold, and are kept as text."""
        s, n = self.src, self.n
        parts: list[Part] = []
        lit: list[str] = []
        i = self.i
        in_single = False  # inside literal single quotes: expansions go on, no stop
        while True:
            if i >= n:
                self.i = n
                raise self.incomplete("unexpected EOF while looking for matching `}'")
            c = s[i]
            if c in stop and not in_single:
                break
            if c == "\\" and i + 1 < n and s[i + 1] == "\n":
                i += 2
                continue
            if c == "\\" and i + 1 < n and s[i + 1] in '$`\\"}':
                lit.append(s[i + 1])
                i += 2
                continue
            if c == "'" and (in_single or s.find("'", i + 1) >= 0):
                in_single = not in_single
                lit.append(c)
                i += 1
                continue
            if c == '"':
                # a nested double-quoted string inside "${x:-"..."}"
                _flush_lit(parts, lit)
                self.i = i + 1
                parts.extend(self.read_dq_parts())
                i = self.i
                s, n = self.src, self.n
                continue
            if c == "$" and i + 1 < n and s[i + 1] == "'":
                # $'...' keeps its meaning inside "${x:-...}" (bash's extquote)
                _flush_lit(parts, lit)
                parts.append(self._read_ansi_c(i))
                i = self.i
                continue
            if c == "$" or c == "`":
                i = self._read_expansion(i, parts, lit, in_dq=True)
                s, n = self.src, self.n  # an alias inside may have changed the text
                continue
            lit.append(c)
            i += 1
        _flush_lit(parts, lit)
        self.i = i
        return parts

    def closing(self, k: int, pair: str = "[]", depth: int = 0, newline_ends: bool = False,
                 semicolons: list[int] | None = None) -> int:
        """Index from ``k`` where the nesting of ``pair`` (``depth`` levels already open) closes,
        or -1 when the text (with ``newline_ends``, the line) ends first. ``;`` at the outer
        level go into ``semicolons``."""
        s = self.src
        opener, closer = pair[0], pair[1]
        while k < self.n:
            c = s[k]
            if c == opener:
                depth += 1
            elif c == closer:
                depth -= 1
                if depth == 0:
                    return k
            elif c == "\n" and newline_ends:
                return -1
            elif c == ";" and depth == 1 and semicolons is not None:
                semicolons.append(k)
            k += 1
        return -1

    def parse_text_word(self, text: str, pos: int) -> Word:
        """Expansions inside ``(( ))``/``$(( ))``: like double-quoted text, quotes removed."""
        sub = self.sub_parser(text, self.line_at(pos))
        parts = sub.read_dq_parts(heredoc=True, arith=True)
        if not parts:
            return Word(parts, "", "", text)
        if len(parts) == 1 and isinstance(parts[0], Lit):
            # no expansions inside: the text is used as is (no tilde or glob in arithmetic)
            return Word(parts, None, parts[0].text, text)
        return Word(parts, None, None, text)

    # ------------------------------------------------------------------ the grammar's part
    def parse_compound_list(self, closers: frozenset[str] = CLOSERS, close_paren: bool = False) -> CommandList:
        """The commands of a ``$(...)`` or ``<(...)`` body, up to the closing ``)``."""
        raise NotImplementedError

    def parse_program(self) -> CommandList:
        """All of ``src`` as commands (a backquoted body)."""
        raise NotImplementedError

    def sub_parser(self, text: str, first_line: int) -> Lexer:
        """A parser of the same kind for text found inside this one (a here-document body,
        backquotes, arithmetic), its lines counted from ``first_line``."""
        raise NotImplementedError


def _flush_lit(parts: list[Part], lit: list[str]) -> None:
    """Move the literal text gathered so far into ``parts`` as one Lit."""
    if lit:
        parts.append(Lit("".join(lit)))
        lit.clear()


def _append_lit(parts: list[Part], text: str) -> None:
    if parts and isinstance(parts[-1], Lit):
        parts[-1] = Lit(parts[-1].text + text)
    else:
        parts.append(Lit(text))


def _merge_lits(parts: list[Part]) -> list[Part]:
    out: list[Part] = []
    for p in parts:
        if isinstance(p, Lit) and out and isinstance(out[-1], Lit):
            out[-1] = Lit(out[-1].text + p.text)
        else:
            out.append(p)
    return out


def _heredoc_delimiter(word: Word) -> str:
    """The delimiter word as written, quotes removed but nothing expanded (``<<${a}`` ends at
    a line ``${a}``)."""
    src = word.source
    if src is None:
        return "".join(p.text for p in word.parts if isinstance(p, (Lit, Quoted)))
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c == "\\" and i + 1 < n:
            out.append(src[i + 1])
            i += 2
        elif c == "'":
            j = src.find("'", i + 1)
            j = n if j < 0 else j
            out.append(src[i + 1:j])
            i = j + 1
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                if src[j] == "\\" and j + 1 < n and src[j + 1] in '"\\$`':
                    j += 1
                out.append(src[j])
                j += 1
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)
