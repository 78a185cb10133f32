"""Hand-written recursive-descent parser for the bash language.

``Parser(src).parse_program()`` returns a CommandList; ``next_command()`` parses one
top-level complete command at a time (bash runs each before parsing the next, so earlier
lines still run when a later one is a syntax error). ``Incomplete`` means more input could
finish the text (the kernel's is_complete); ``ParseError`` is a real syntax error.
"""
from __future__ import annotations

import bisect

from ...chars import isdigits
from .ast import (
    AndOr, ArithCommand, ArithFor, ArithSub, Assign, BraceGroup, Case, CaseItem, CmdSub,
    CommandList, CondAnd, CondBinary, CondCommand, CondNot, CondOr, CondUnary, CondWord, DQ,
    For, FunctionDef, HereDoc, If, Lit, Loop, Param, Pipeline, ProcSub, Quoted, Redir, Select,
    SimpleCommand, Subshell, Word,
)
from ..eval.pattern import group_end
from .escapes import decode_ansi_c


class ParseError(Exception):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class Incomplete(ParseError):
    """The text ends where more is needed (open quote, missing ``fi``, here-doc ...)."""


META = frozenset(" \t\n;&|<>()")
WORD_END = frozenset(" \t\n;&|<>()")
RESERVED = frozenset({"if", "then", "elif", "else", "fi", "do", "done", "case", "esac", "while",
                      "until", "for", "in", "function", "select", "{", "}", "!", "[[", "]]",
                      "time"})
# reserved words that end a compound list
CLOSERS = frozenset({"then", "elif", "else", "fi", "do", "done", "esac", "}"})
OPERATORS = (";;&", ";;", ";&", "&&", "&>>", "&>", "||", "|&", "<<<", "<<-", "<<", "<&", "<>",
             ">>", ">&", ">|", ";", "&", "|", "<", ">", "(", ")")
REDIR_OPS = frozenset({"<", ">", ">>", ">|", "<>", "<&", ">&", "&>", "&>>", "<<", "<<-", "<<<"})
SPECIAL_PARAMS = frozenset("@*#?-$!0123456789")
NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
NAME_CHARS = NAME_START | frozenset("0123456789")
EXPANDING = frozenset("*?[{~@!+")
DIGITS = frozenset("0123456789")


def is_name(s: str) -> bool:
    return bool(s) and s[0] in NAME_START and all(c in NAME_CHARS for c in s)


def _flush_lit(parts: list, lit: list[str]) -> None:
    """Move the literal text gathered so far into ``parts`` as one Lit."""
    if lit:
        parts.append(Lit("".join(lit)))
        lit.clear()


class Parser:
    def __init__(self, src: str, aliases: dict[str, str] | None = None, first_line: int = 1) -> None:
        self.src = src
        self.n = len(src)
        self.i = 0
        self.aliases = aliases
        self.first_line = first_line
        self._newlines = [k for k, c in enumerate(src) if c == "\n"]
        self.pending_heredocs: list[HereDoc] = []
        self._peeked: tuple | None = None  # (start, kind, value, end)
        self._alias_guard: set[str] = set()
        #: (line, message) notes bash prints as warnings (a here-doc ended by end of input)
        self.warnings: list[tuple[int, str]] = []
        self._alias_end = -1

    # ------------------------------------------------------------------ positions
    def line_at(self, pos: int) -> int:
        return bisect.bisect_left(self._newlines, pos) + self.first_line

    def error(self, message: str, pos: int | None = None) -> ParseError:
        return ParseError(message, self.line_at(self.i if pos is None else pos))

    def incomplete(self, message: str) -> Incomplete:
        return Incomplete(message, self.line_at(self.n))

    def unexpected(self, tok) -> ParseError:
        kind, value = tok[1], tok[2]
        if kind == "eof":
            return self.incomplete("syntax error: unexpected end of file")
        text = "newline" if kind == "nl" else (value if kind == "op" else self._token_text(tok))
        return self.error(f"syntax error near unexpected token `{text}'", tok[0])

    def _token_text(self, tok) -> str:
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

    def peek(self):
        """The next token as (start, kind, value, end): kind is op|word|nl|eof|ionum."""
        if self._peeked is not None:
            return self._peeked
        self.skip_blanks()
        start = self.i
        s = self.src
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
        self._peeked = tok
        return tok

    def _word_token(self, start: int):
        saved = self.i
        self.i = start
        word = self.read_word()
        end = self.i
        self.i = saved
        return (start, "word", word, end)

    def advance(self):
        tok = self.peek()
        self._peeked = None
        self.i = tok[3]
        if tok[1] == "nl":
            self._after_newline()
        return tok

    def _after_newline(self) -> None:
        if self.pending_heredocs:
            docs, self.pending_heredocs = self.pending_heredocs, []
            for doc in docs:
                self._read_heredoc(doc)

    def is_reserved(self, tok, *words: str) -> bool:
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

    def expect_reserved(self, word: str):
        tok = self.peek()
        if not self.is_reserved(tok, word):
            raise self.unexpected(tok)
        return self.advance()

    def expect_op(self, op: str):
        tok = self.peek()
        if tok[1] != "op" or tok[2] != op:
            raise self.unexpected(tok)
        return self.advance()

    # ------------------------------------------------------------------ programs
    def parse_program(self) -> CommandList:
        items = []
        while True:
            cmd = self.next_command()
            if cmd is None:
                break
            items.extend(cmd.items)
        return CommandList(items, self.first_line)

    def next_command(self) -> CommandList | None:
        """One complete command (a list ending at a newline), or None at the end."""
        self.skip_newlines()
        tok = self.peek()
        if tok[1] == "eof":
            if self.pending_heredocs:
                self._after_newline()
            return None
        line = self.line_at(tok[0])
        items = []
        while True:
            node = self.parse_and_or()
            tok = self.peek()
            if tok[1] == "op" and tok[2] in (";", "&"):
                self.advance()
                items.append((node, tok[2] == "&"))
                nxt = self.peek()
                if nxt[1] in ("nl", "eof"):
                    break
                continue
            items.append((node, False))
            if tok[1] in ("nl", "eof"):
                break
            raise self.unexpected(tok)
        tok = self.peek()
        if tok[1] == "nl":
            self.advance()
        elif tok[1] == "eof" and self.pending_heredocs:
            self._after_newline()
        return CommandList(items, line)

    def parse_compound_list(self, closers: frozenset[str] = CLOSERS, close_paren: bool = False) -> CommandList:
        """A list inside a compound command; stops before a closing reserved word or ``)``."""
        self.skip_newlines()
        line = self.line_at(self.peek()[0])
        items = []
        while True:
            tok = self.peek()
            if tok[1] == "eof":
                raise self.incomplete("syntax error: unexpected end of file")
            if self.is_reserved(tok) and tok[2].plain in closers:
                break
            if tok[1] == "op" and tok[2] == ")" and close_paren:
                break
            if tok[1] == "op" and tok[2] in (";;", ";&", ";;&") and "esac" in closers:
                break
            node = self.parse_and_or()
            tok = self.peek()
            bg = False
            if tok[1] == "op" and tok[2] in (";", "&"):
                bg = tok[2] == "&"
                self.advance()
            elif tok[1] == "nl":
                pass
            elif not ((tok[1] == "op" and (tok[2] == ")" or tok[2] in (";;", ";&", ";;&")))
                      or (self.is_reserved(tok) and tok[2].plain in closers) or tok[1] == "eof"):
                raise self.unexpected(tok)
            items.append((node, bg))
            self.skip_newlines()
        if not items:
            raise self.unexpected(self.peek())
        return CommandList(items, line)

    def parse_and_or(self):
        first = self.parse_pipeline()
        rest = []
        while True:
            tok = self.peek()
            if tok[1] == "op" and tok[2] in ("&&", "||"):
                self.advance()
                self.skip_newlines()
                rest.append((tok[2], self.parse_pipeline()))
            else:
                break
        if not rest:
            return first
        return AndOr(first, rest, getattr(first, "line", 0))

    def parse_pipeline(self):
        tok = self.peek()
        negate = timed = False
        line = self.line_at(tok[0])
        if self.is_reserved(tok, "time"):
            self.advance()
            timed = True
            tok = self.peek()
            if tok[1] == "word" and tok[2].plain == "-p":
                self.advance()
                tok = self.peek()
        while self.is_reserved(tok, "!"):
            self.advance()
            negate = not negate
            tok = self.peek()
        if timed and (tok[1] in ("nl", "eof") or (tok[1] == "op" and tok[2] in (";", "&"))):
            return Pipeline([SimpleCommand([], [], [], line)], negate, timed, line)
        commands = [self.parse_command()]
        stderr_pipes = [False]
        while True:
            tok = self.peek()
            if tok[1] == "op" and tok[2] in ("|", "|&"):
                self.advance()
                stderr_pipes[-1] = tok[2] == "|&"
                self.skip_newlines()
                commands.append(self.parse_command())
                stderr_pipes.append(False)
            else:
                break
        if len(commands) == 1 and not negate and not timed:
            return commands[0]
        return Pipeline(commands, negate, timed, line, stderr_pipes)

    # ------------------------------------------------------------------ commands
    def parse_command(self):
        tok = self.peek()
        aliases = self.aliases() if callable(self.aliases) else self.aliases
        if tok[1] == "word" and tok[2].plain is not None and aliases and tok[0] >= self._alias_end:
            if self._expand_alias(tok):
                tok = self.peek()
        if tok[1] == "word":
            text = tok[2].plain
            if text is not None and text in RESERVED:
                line = self.line_at(tok[0])
                if text == "if":
                    node = self.parse_if()
                elif text in ("while", "until"):
                    node = self.parse_loop(text == "until")
                elif text == "for":
                    node = self.parse_for()
                elif text == "select":
                    node = self.parse_select()
                elif text == "case":
                    node = self.parse_case()
                elif text == "{":
                    self.advance()
                    body = self.parse_compound_list()
                    self.expect_reserved("}")
                    node = BraceGroup(body, [], line)
                elif text == "[[":
                    node = self.parse_cond_command()
                elif text == "function":
                    return self.parse_function_keyword()
                else:
                    raise self.unexpected(tok)
                node.line = line
                self.parse_trailing_redirs(node.redirs)
                return node
            # name() { ... }
            if text is not None and self._is_funcdef_start(tok):
                return self.parse_function(text, tok[0])
        elif tok[1] == "op" and tok[2] == "(":
            line = self.line_at(tok[0])
            self.advance()
            if self.peek()[1] == "op" and self.peek()[2] == "(" and self.peek()[0] == tok[0] + 1:
                # "((" arithmetic command
                arith = self._try_arith_command(tok[0])
                if arith is not None:
                    self.parse_trailing_redirs(arith.redirs)
                    return arith
            body = self.parse_compound_list(close_paren=True)
            self.expect_op(")")
            node = Subshell(body, [], line)
            self.parse_trailing_redirs(node.redirs)
            return node
        return self.parse_simple_command()

    def _expand_alias(self, tok) -> bool:
        name = tok[2].plain
        aliases = self.aliases() if callable(self.aliases) else self.aliases
        value = aliases.get(name)
        if value is None or name in self._alias_guard:
            return False
        start, end = tok[0], tok[3]
        self.src = self.src[:start] + value + self.src[end:]
        self.n = len(self.src)
        self._newlines = [k for k, c in enumerate(self.src) if c == "\n"]
        self._peeked = None
        self.i = start
        self._alias_guard.add(name)
        # a value ending in a blank makes the next word eligible too
        self._alias_end = start + len(value) if not value.endswith((" ", "\t")) else start + len(value) - 1
        if not value.endswith((" ", "\t")):
            self._alias_guard = set()
        return True

    def _is_funcdef_start(self, tok) -> bool:
        if not is_name_word(tok[2].plain):
            return False
        j = tok[3]
        s = self.src
        while j < self.n and s[j] in " \t":
            j += 1
        if j < self.n and s[j] == "(":
            k = j + 1
            while k < self.n and s[k] in " \t":
                k += 1
            return k < self.n and s[k] == ")"
        return False

    def parse_function(self, name: str, start: int):
        line = self.line_at(start)
        self.advance()
        self.expect_op("(")
        self.expect_op(")")
        return self._function_body(name, start, line)

    def parse_function_keyword(self):
        tok = self.advance()
        start = tok[0]
        line = self.line_at(start)
        name_tok = self.peek()
        if name_tok[1] != "word":
            raise self.unexpected(name_tok)
        self.advance()
        name = self._token_text(name_tok)
        tok = self.peek()
        if tok[1] == "op" and tok[2] == "(":
            self.advance()
            self.expect_op(")")
        return self._function_body(name, start, line)

    def _function_body(self, name: str, start: int, line: int):
        self.skip_newlines()
        tok = self.peek()
        if tok[1] == "eof":
            raise self.incomplete("syntax error: unexpected end of file")
        body = self.parse_command()
        if isinstance(body, SimpleCommand):
            raise self.unexpected(tok)
        return FunctionDef(name, body, line, self.src[start:self.i].strip())

    def _try_arith_command(self, start: int):
        """After ``(`` with another ``(`` next: parse ``(( expr ))``; None when it is
        really a nested subshell."""
        s = self.src
        j = self._arith_close(start + 2)
        if not s.startswith("))", j):
            return None
        expr = self._parse_text_word(s[start + 2:j], start + 2)
        self._peeked = None
        self.i = j + 2
        return ArithCommand(expr, [], self.line_at(start))

    def parse_trailing_redirs(self, redirs: list) -> None:
        while True:
            tok = self.peek()
            if tok[1] == "ionum" or (tok[1] == "op" and tok[2] in REDIR_OPS):
                redirs.append(self.parse_redir())
            else:
                return

    def parse_redir(self) -> Redir:
        tok = self.advance()
        fd = fd_var = None
        if tok[1] == "ionum":
            if isinstance(tok[2], int):
                fd = tok[2]
            else:
                fd_var = tok[2]
            tok = self.peek()
            if tok[1] != "op" or tok[2] not in REDIR_OPS:
                raise self.unexpected(tok)
            self.advance()
        op = tok[2]
        target_tok = self.peek()
        if target_tok[1] != "word":
            raise self.unexpected(target_tok)
        self.advance()
        word = target_tok[2]
        if op in ("<<", "<<-"):
            quoted = any(not isinstance(p, Lit) for p in word.parts)
            delim = _heredoc_delimiter(word)
            doc = HereDoc(Word([]), quoted, op == "<<-", delim)
            self.pending_heredocs.append(doc)
            return Redir(op, doc, fd, fd_var)
        return Redir(op, word, fd, fd_var)

    def _read_heredoc(self, doc: HereDoc) -> None:
        s = self.src
        lines = []
        i = self.i
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
            doc.body = self._parse_heredoc_text(text, self.i)
        self.i = i
        self._peeked = None

    def _parse_heredoc_text(self, text: str, pos: int) -> Word:
        sub = Parser(text, None, self.line_at(pos))
        parts = sub.read_dq_parts(heredoc=True)
        return Word(parts)

    def _parse_text_word(self, text: str, pos: int) -> Word:
        """Expansions inside ``(( ))``/``$(( ))``: like double-quoted text, quotes removed."""
        sub = Parser(text, None, self.line_at(pos))
        parts = sub.read_dq_parts(heredoc=True, arith=True)
        if not parts:
            return Word(parts, "", "", text)
        if len(parts) == 1 and isinstance(parts[0], Lit):
            # no expansions inside: the text is used as is (no tilde or glob in arithmetic)
            return Word(parts, None, parts[0].text, text)
        return Word(parts, None, None, text)

    def parse_simple_command(self) -> SimpleCommand:
        tok = self.peek()
        line = self.line_at(tok[0])
        assigns: list[Assign] = []
        words: list[Word] = []
        redirs: list[Redir] = []
        while True:
            tok = self.peek()
            kind = tok[1]
            if kind == "word":
                if not words:
                    assign = self._try_assignment(tok)
                    if assign is not None:
                        assigns.append(assign)
                        continue
                elif words[0].plain in ("declare", "typeset", "local", "export", "readonly") and \
                        self._looks_like_array_assign(tok):
                    # declare -a x=(1 2): parse the element list as one word
                    assign = self._try_assignment(tok)
                    if assign is not None:
                        words.append(assign)
                        continue
                self.advance()
                words.append(tok[2])
            elif kind == "ionum" or (kind == "op" and tok[2] in REDIR_OPS):
                redirs.append(self.parse_redir())
            else:
                break
        if not assigns and not words and not redirs:
            raise self.unexpected(self.peek())
        return SimpleCommand(assigns, words, redirs, line)

    def _looks_like_array_assign(self, tok) -> bool:
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
            if k < 0:
                return False
            j = k + 1
        return s.startswith("=", j) or s.startswith("+=", j)

    def _try_assignment(self, tok) -> Assign | None:
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
            # name[index]=
            k = self._closing(j, newline_ends=True)
            if k < 0 or not (s.startswith("=", k + 1) or s.startswith("+=", k + 1)):
                return None
            index = self._parse_text_word(s[j + 1:k], j + 1)
            j = k + 1
        append = False
        if s.startswith("+=", j):
            append = True
            j += 2
        elif s.startswith("=", j):
            j += 1
        else:
            return None
        self._peeked = None
        if j < self.n and s[j] == "(" and index is None:
            self.i = j + 1
            elements = self._parse_array_elements()
            return Assign(name, None, None, elements, append)
        self.i = j
        if j >= self.n or s[j] in WORD_END:
            value = Word([], "")
        else:
            value = self.read_word(assignment=True)
        return Assign(name, value, index, None, append)

    def _closing(self, k: int, pair: str = "[]", depth: int = 0, newline_ends: bool = False,
                 semicolons: list[int] | None = None) -> int:
        """Index from ``k`` where the nesting of ``pair`` (``depth`` levels already open) closes,
        or -1 when the text (with ``newline_ends``, the line) ends first. ``;`` at the outer
        level go into ``semicolons``."""
        s = self.src
        opener, closer = pair
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

    def _parse_array_elements(self) -> list:
        elements = []
        while True:
            # blanks, newlines and comments separate elements
            while True:
                self.skip_blanks()
                if self.i < self.n and self.src[self.i] == "\n":
                    self.i += 1
                    self._after_newline()
                    continue
                break
            if self.i >= self.n:
                raise self.incomplete("unexpected EOF while looking for matching `)'")
            c = self.src[self.i]
            if c == ")":
                self.i += 1
                return elements
            if c in ";&|<>(":
                raise self.error(f"syntax error near unexpected token `{c}'")
            if c == "[":
                # [key]=value
                s = self.src
                k = self._closing(self.i)
                if k >= 0 and (s.startswith("=", k + 1) or s.startswith("+=", k + 1)):
                    key = self._parse_text_word(s[self.i + 1:k], self.i + 1)
                    self.i = k + (2 if s[k + 1] == "=" else 3)
                    if self.i < self.n and s[self.i] not in WORD_END:
                        value = self.read_word(assignment=True)
                    else:
                        value = Word([], "")
                    elements.append((key, value))
                    continue
            elements.append(self.read_word())

    # ------------------------------------------------------------------ compound commands
    def parse_if(self) -> If:
        self.advance()
        clauses = []
        cond = self.parse_compound_list()
        self.expect_reserved("then")
        body = self.parse_compound_list()
        clauses.append((cond, body))
        else_body = None
        while True:
            tok = self.peek()
            if self.is_reserved(tok, "elif"):
                self.advance()
                cond = self.parse_compound_list()
                self.expect_reserved("then")
                body = self.parse_compound_list()
                clauses.append((cond, body))
            elif self.is_reserved(tok, "else"):
                self.advance()
                else_body = self.parse_compound_list()
                self.expect_reserved("fi")
                break
            else:
                self.expect_reserved("fi")
                break
        return If(clauses, else_body, [])

    def parse_loop(self, until: bool) -> Loop:
        self.advance()
        cond = self.parse_compound_list()
        body = self._parse_do_group()
        return Loop(cond, body, until, [])

    def _parse_do_group(self):
        tok = self.peek()
        if self.is_reserved(tok, "{"):
            self.advance()
            body = self.parse_compound_list()
            self.expect_reserved("}")
            return body
        self.expect_reserved("do")
        body = self.parse_compound_list()
        self.expect_reserved("done")
        return body

    def _parse_for_head(self):
        self.advance()
        tok = self.peek()
        if tok[1] != "word":
            raise self.unexpected(tok)
        self.advance()
        var = self._token_text(tok)
        # optional: newlines, then `in words` or `;`/newline
        tok = self.peek()
        words = None
        if tok[1] == "op" and tok[2] == ";":
            self.advance()
            self.skip_newlines()
            return var, None
        self.skip_newlines()
        tok = self.peek()
        if self.is_reserved(tok, "in"):
            self.advance()
            words = []
            while True:
                tok = self.peek()
                if tok[1] == "word":
                    self.advance()
                    words.append(tok[2])
                elif tok[1] == "op" and tok[2] == ";":
                    self.advance()
                    break
                elif tok[1] == "nl":
                    break
                else:
                    raise self.unexpected(tok)
            self.skip_newlines()
        return var, words

    def parse_for(self):
        start = self.peek()[0]
        self.advance()
        self.skip_blanks()
        if self.src.startswith("((", self.i):
            return self.parse_arith_for()
        self._peeked = None
        self.i = start
        var, words = self._parse_for_head()
        body = self._parse_do_group()
        return For(var, words, body, [])

    def parse_select(self):
        var, words = self._parse_for_head()
        body = self._parse_do_group()
        return Select(var, words, body, [])

    def parse_arith_for(self):
        s = self.src
        semicolons: list[int] = []
        j = self._arith_close(self.i + 2, semicolons)
        if not s.startswith("))", j):
            raise self.error("syntax error: `))' expected")
        parts_pos = [self.i + 2] + [k + 1 for k in semicolons]
        if len(parts_pos) != 3:
            raise self.error("syntax error: arithmetic expression required")
        texts = [s[parts_pos[0]:parts_pos[1] - 1], s[parts_pos[1]:parts_pos[2] - 1], s[parts_pos[2]:j]]
        exprs = [self._parse_text_word(t, parts_pos[k]) if t.strip() else None for k, t in enumerate(texts)]
        self.i = j + 2
        self._peeked = None
        tok = self.peek()
        if tok[1] == "op" and tok[2] == ";":
            self.advance()
        self.skip_newlines()
        body = self._parse_do_group()
        return ArithFor(exprs[0], exprs[1], exprs[2], body, [])

    def parse_case(self) -> Case:
        self.advance()
        tok = self.peek()
        if tok[1] != "word":
            raise self.unexpected(tok)
        self.advance()
        word = tok[2]
        self.skip_newlines()
        self.expect_reserved("in")
        items = []
        while True:
            self.skip_newlines()
            tok = self.peek()
            if self.is_reserved(tok, "esac"):
                self.advance()
                break
            if tok[1] == "eof":
                raise self.incomplete("syntax error: unexpected end of file")
            if tok[1] == "op" and tok[2] == "(":
                self.advance()
            patterns = []
            while True:
                tok = self.peek()
                if tok[1] != "word":
                    raise self.unexpected(tok)
                self.advance()
                patterns.append(tok[2])
                tok = self.peek()
                if tok[1] == "op" and tok[2] == "|":
                    self.advance()
                    continue
                if tok[1] == "op" and tok[2] == ")":
                    self.advance()
                    break
                raise self.unexpected(tok)
            self.skip_newlines()
            tok = self.peek()
            body = None
            if not (tok[1] == "op" and tok[2] in (";;", ";&", ";;&")) and not self.is_reserved(tok, "esac"):
                body = self.parse_compound_list(frozenset({"esac"}))
            tok = self.peek()
            term = ";;"
            if tok[1] == "op" and tok[2] in (";;", ";&", ";;&"):
                self.advance()
                term = tok[2]
            elif not self.is_reserved(tok, "esac"):
                raise self.unexpected(tok)
            items.append(CaseItem(patterns, body, term))
        return Case(word, items, [])

    # ------------------------------------------------------------------ [[ ]]
    def parse_cond_command(self) -> CondCommand:
        self.advance()
        expr = self._cond_or()
        tok = self._cond_peek()
        if not (tok[1] == "word" and tok[2].plain == "]]"):
            raise self.unexpected(tok)
        self.advance()
        return CondCommand(expr, [])

    def _cond_peek(self):
        while True:
            tok = self.peek()
            if tok[1] == "nl":
                self.advance()
                continue
            if tok[1] == "eof":
                raise self.incomplete("unexpected EOF while looking for `]]'")
            return tok

    def _cond_or(self):
        return self._cond_chain("||", CondOr, self._cond_and)

    def _cond_and(self):
        return self._cond_chain("&&", CondAnd, self._cond_not)

    def _cond_chain(self, op: str, node_type, operand):
        """``operand (op operand)*``, grouped from the left."""
        left = operand()
        while True:
            tok = self._cond_peek()
            if not (tok[1] == "op" and tok[2] == op):
                return left
            self.advance()
            left = node_type(left, operand())

    def _cond_not(self):
        tok = self._cond_peek()
        if tok[1] == "word" and tok[2].plain == "!":
            self.advance()
            return CondNot(self._cond_not())
        return self._cond_primary()

    def _cond_word(self) -> Word:
        tok = self._cond_peek()
        if tok[1] == "word":
            self.advance()
            return tok[2]
        raise self.error(f"syntax error in conditional expression: unexpected token `{tok[2]}'", tok[0])

    def _cond_primary(self):
        tok = self._cond_peek()
        if tok[1] == "op" and tok[2] == "(":
            self.advance()
            expr = self._cond_or()
            tok = self._cond_peek()
            if not (tok[1] == "op" and tok[2] == ")"):
                raise self.unexpected(tok)
            self.advance()
            return expr
        if tok[1] != "word":
            raise self.error(f"syntax error in conditional expression: unexpected token `{tok[2]}'", tok[0])
        text = tok[2].plain
        if text == "]]":
            raise self.error("syntax error in conditional expression", tok[0])
        if text is not None and len(text) == 2 and text[0] == "-" and text[1] in UNARY_TESTS:
            # unary operator unless it's followed by a binary operator or ]]
            self.advance()
            nxt = self._cond_peek()
            if nxt[1] == "word" and nxt[2].plain != "]]" and not _is_cond_binop(nxt):
                operand = self._cond_word()
                return CondUnary(text, operand)
            if nxt[1] == "word" and nxt[2].plain == "]]":
                return CondWord(tok[2])
            left = tok[2]
        else:
            self.advance()
            left = tok[2]
        nxt = self._cond_peek()
        if _is_cond_binop(nxt):
            op = nxt[2] if nxt[1] == "op" else nxt[2].plain
            self.advance()
            if op == "=~":
                right = self._read_regex_word()
            else:
                right = self._cond_word()
            if op == "==":
                op = "="
            return CondBinary(op, left, right)
        return CondWord(left)

    def _read_regex_word(self) -> Word:
        """The right side of ``=~``: parentheses and | are literal regex characters here."""
        self.skip_blanks()
        self._peeked = None
        parts: list = []
        depth = 0
        s = self.src
        while self.i < self.n:
            c = s[self.i]
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
            elif c in "|<>&;" :
                _append_lit(parts, c)
                self.i += 1
            elif c in " \t" and depth > 0:
                _append_lit(parts, c)
                self.i += 1
            else:
                start = self.i
                sub = self.read_word_parts(stop=frozenset(" \t\n()|<>&;"))
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

    def read_word_parts(self, stop: frozenset = WORD_END, assignment: bool = False,
                        brace_depth_stop: bool = False) -> list:
        """Parts of one word starting at self.i, up to an unquoted ``stop`` character."""
        s, n = self.src, self.n
        parts: list = []
        lit: list[str] = []
        i = self.i
        brace_depth = 0
        start = i
        while i < n:
            c = s[i]
            if c in stop:
                if brace_depth_stop and c == "}" and brace_depth > 0:
                    brace_depth -= 1
                    lit.append(c)
                    i += 1
                    continue
                # <( and >( start a process substitution at the beginning of a word
                if c in "<>" and i == start and i + 1 < n and s[i + 1] == "(":
                    self.i = i + 2
                    body = self.parse_compound_list(close_paren=True)
                    self._expect_close_paren()
                    parts.append(ProcSub(c, body))
                    i = self.i
                    continue
                # extglob group after a pattern char: @(a|b)
                if c == "(" and lit and lit[-1] and lit[-1][-1] in "?*+@!" and stop is WORD_END:
                    j = self._match_paren(i)
                    lit.append(s[i:j + 1])
                    i = j + 1
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
                    raise self.incomplete("unexpected EOF while looking for matching `''")
                _flush_lit(parts, lit)
                parts.append(Quoted(s[i + 1:j]))
                i = j + 1
            elif c == '"':
                _flush_lit(parts, lit)
                self.i = i + 1
                inner = self.read_dq_parts()
                parts.append(DQ(inner))
                i = self.i
            elif c == "$" or c == "`":
                # literal text before a lone `$` stays a part of its own
                _flush_lit(parts, lit)
                i = self._read_expansion(i, parts, lit, in_dq=False)
            elif brace_depth_stop and c == "{":
                brace_depth += 1
                lit.append(c)
                i += 1
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
                    if c == "{" and brace_depth_stop:
                        brace_depth += 1
                    lit.append(c)
                    i += 1
                    continue
                lit.append(s[i:j])
                i = j
        _flush_lit(parts, lit)
        self.i = i
        return parts

    def _match_paren(self, i: int) -> int:
        j = group_end(self.src, i)
        if j < 0:
            raise self.incomplete("unexpected EOF while looking for matching `)'")
        return j

    def _expect_close_paren(self) -> None:
        tok = self.peek()
        if tok[1] == "op" and tok[2] == ")":
            self.advance()
            return
        raise self.unexpected(tok)

    def _read_expansion(self, i: int, parts: list, lit: list[str], in_dq: bool) -> int:
        """Read the ``$...`` or backquoted expansion at ``i`` into ``parts`` (a ``$`` that starts
        none stays literal text); returns where reading goes on."""
        self.i = i
        part = self.read_dollar(in_dq=in_dq) if self.src[i] == "$" else self.read_backtick()
        if part is None:
            lit.append("$")
            return i + 1
        _flush_lit(parts, lit)
        parts.append(part)
        return self.i

    def read_dq_parts(self, heredoc: bool = False, arith: bool = False) -> list:
        """Inside double quotes (self.i after the opening quote); consumes the closing one.
        ``heredoc``: the whole text, double quotes literal; ``arith``: quotes removed."""
        s, n = self.src, self.n
        parts: list = []
        lit: list[str] = []
        i = self.i
        while True:
            if i >= n:
                if heredoc:
                    break
                self.i = n
                raise self.incomplete("unexpected EOF while looking for matching `\"'")
            c = s[i]
            if c == '"' and not heredoc:
                i += 1
                break
            if c == '"' and arith:
                i += 1
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
                continue
            j = i + 1
            while j < n and s[j] not in '"\\$`\'':
                j += 1
            lit.append(s[i:j])
            i = j
        _flush_lit(parts, lit)
        self.i = i
        return parts

    def read_backtick(self) -> CmdSub:
        s = self.src
        i = self.i + 1
        buf = []
        while True:
            if i >= self.n:
                self.i = self.n
                raise self.incomplete("unexpected EOF while looking for matching ``'")
            c = s[i]
            if c == "`":
                break
            if c == "\\" and i + 1 < self.n and s[i + 1] in "$`\\":
                buf.append(s[i + 1])
                i += 2
                continue
            buf.append(c)
            i += 1
        text = "".join(buf)
        sub = Parser(text, None, self.line_at(self.i))
        try:
            body = sub.parse_program()
        except Incomplete as e:
            raise ParseError(e.message, e.line) from None
        self.i = i + 1
        return CmdSub(body)

    def read_dollar(self, in_dq: bool = False):
        """At ``$``: returns a part (self.i after it), or None for a literal ``$``."""
        s = self.src
        i = self.i
        nxt = s[i + 1] if i + 1 < self.n else ""
        if nxt == "(":
            if s.startswith("$((", i):
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
                body = self.parse_compound_list(close_paren=True)
                tok = self.peek()
                if not (tok[1] == "op" and tok[2] == ")"):
                    raise self.unexpected(tok)
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
            expr = self._parse_text_word(s[i + 2:j], i + 2)
            self.i = j + 1
            return ArithSub(expr)
        if nxt == "'" and not in_dq:
            j = i + 2
            while j < self.n and s[j] != "'":
                if s[j] == "\\":
                    j += 1
                j += 1
            if j >= self.n:
                self.i = self.n
                raise self.incomplete("unexpected EOF while looking for matching `''")
            self.i = j + 1
            return Quoted(decode_ansi_c(s[i + 2:j]))
        if nxt == '"' and not in_dq:
            self.i = i + 2
            return DQ(self.read_dq_parts())
        if nxt and nxt in NAME_START:
            j = i + 2
            while j < self.n and s[j] in NAME_CHARS:
                j += 1
            self.i = j
            return Param(s[i + 1:j])
        if nxt and nxt in SPECIAL_PARAMS:
            self.i = i + 2
            return Param(nxt)
        return None

    def _try_arith_sub(self, i: int):
        s = self.src
        j = self._arith_close(i + 3)
        if not s.startswith("))", j):
            return None
        expr = self._parse_text_word(s[i + 3:j], i + 3)
        self.i = j + 2
        return ArithSub(expr)

    def _arith_close(self, j: int, semicolons: list[int] | None = None) -> int:
        """Index of the ``)`` that closes the ``(`` before ``j``: arithmetic text ends there
        when ``))`` follows."""
        j = self._closing(j, "()", depth=1, semicolons=semicolons)
        if j < 0:
            raise self.incomplete("unexpected EOF while looking for matching `))'")
        return j

    def read_braced_param(self, in_dq: bool) -> Param:
        """After ``${``; consumes through the closing ``}``."""
        s, n = self.src, self.n
        i = self.i
        if i >= n:
            raise self.incomplete("unexpected EOF while looking for matching `}'")
        length = indirect = False
        # ${#} is the argument count; ${#name} a length
        if s[i] == "#" and i + 1 < n and s[i + 1] != "}":
            length = True
            i += 1
        elif s[i] == "!" and i + 1 < n and s[i + 1] != "}":
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
            k = self._closing(i)
            if k < 0:
                raise self.incomplete("unexpected EOF while looking for matching `]'")
            inner = s[i + 1:k]
            index = Word([Lit(inner)], inner) if inner in ("@", "*") else self._parse_text_word(inner, i + 1)
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
            param.arg = self._param_word(frozenset(":}"), in_dq, arith=True)
            if self.i < n and s[self.i] == ":":
                self.i += 1
                param.arg2 = self._param_word(frozenset("}"), in_dq, arith=True)
        elif op in ("/", "//", "/#", "/%"):
            param.arg = self._param_word(frozenset("/}"), in_dq, pattern=True)
            if self.i < n and s[self.i] == "/":
                self.i += 1
                param.arg2 = self._param_word(frozenset("}"), in_dq)
        elif op == "@":
            j = self.i
            while j < n and s[j] != "}":
                j += 1
            param.arg = Word([Lit(s[self.i:j])], s[self.i:j])
            self.i = j
        else:
            param.arg = self._param_word(frozenset("}"), in_dq, pattern=op in ("#", "##", "%", "%%", "^", "^^", ",", ",,", "~", "~~"))
        if self.i >= n:
            raise self.incomplete("unexpected EOF while looking for matching `}'")
        if s[self.i] != "}":
            return self._bad_substitution(self.i)
        self.i += 1
        return param

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

    def _param_word(self, stop: frozenset, in_dq: bool, pattern: bool = False, arith: bool = False) -> Word:
        s = self.src
        if in_dq and not pattern:
            # inside "${x:-...}" the word is double-quoted text, single quotes literal
            parts = self._read_dq_until(stop)
            return Word([DQ(parts)] if parts else [])
        if in_dq and pattern:
            parts = self.read_word_parts(stop=stop, brace_depth_stop=True)
            return Word(parts)
        parts = self.read_word_parts(stop=stop, brace_depth_stop=True)
        if self.i < self.n and s[self.i] not in stop:
            # blanks and operators are literal inside ${...}
            more = []
            while self.i < self.n and s[self.i] not in stop:
                c = s[self.i]
                if c in " \t\n;&|<>()":
                    more.append(Lit(c))
                    self.i += 1
                else:
                    more.extend(self.read_word_parts(stop=stop | frozenset(" \t\n;&|<>()"), brace_depth_stop=True))
            parts = _merge_lits(parts + more)
        del arith
        if len(parts) == 1 and isinstance(parts[0], Lit):
            return Word(parts, parts[0].text)
        return Word(parts)

    def _read_dq_until(self, stop: frozenset) -> list:
        s, n = self.src, self.n
        parts: list = []
        lit: list[str] = []
        i = self.i
        depth = 0
        while True:
            if i >= n:
                self.i = n
                raise self.incomplete("unexpected EOF while looking for matching `}'")
            c = s[i]
            if c in stop and not (c == "}" and depth > 0):
                break
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            if c == "\\" and i + 1 < n and s[i + 1] in '$`\\"}':
                lit.append(s[i + 1])
                i += 2
                continue
            if c == '"':
                # a nested double-quoted string inside "${x:-"..."}"
                _flush_lit(parts, lit)
                self.i = i + 1
                parts.extend(self.read_dq_parts())
                i = self.i
                continue
            if c == "$" and i + 1 < n and s[i + 1] == "'":
                # $'...' keeps its meaning inside "${x:-...}" (bash's extquote)
                _flush_lit(parts, lit)
                self.i = i
                parts.append(self.read_dollar(in_dq=False))
                i = self.i
                continue
            if c == "$" or c == "`":
                i = self._read_expansion(i, parts, lit, in_dq=True)
                continue
            lit.append(c)
            i += 1
        _flush_lit(parts, lit)
        self.i = i
        return parts


UNARY_TESTS = frozenset("abcdefghknoprstuvwxzGLNOS")
COND_BINOPS = frozenset({"=", "==", "!=", "=~", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt",
                         "-ot", "-ef", "<", ">"})


def _is_cond_binop(tok) -> bool:
    if tok[1] == "op":
        return tok[2] in ("<", ">")
    if tok[1] == "word":
        return tok[2].plain in COND_BINOPS
    return False


def is_name_word(text: str | None) -> bool:
    # function names may contain more than variable names (e.g. dashes, dots, colons)
    if not text:
        return False
    return all(c not in "$`'\"\\=" for c in text) and text not in RESERVED and not isdigits(text[0]) or \
        (isdigits(text[0]) and not isdigits(text) and "=" not in text)


def _append_lit(parts: list, text: str) -> None:
    if parts and isinstance(parts[-1], Lit):
        parts[-1] = Lit(parts[-1].text + text)
    else:
        parts.append(Lit(text))


def _merge_lits(parts: list) -> list:
    out: list = []
    for p in parts:
        if isinstance(p, Lit) and out and isinstance(out[-1], Lit):
            out[-1] = Lit(out[-1].text + p.text)
        else:
            out.append(p)
    return out


def _heredoc_delimiter(word: Word) -> str:
    out = []
    for p in word.parts:
        if isinstance(p, (Lit, Quoted)):
            out.append(p.text)
        elif isinstance(p, DQ):
            out.append("".join(q.text if isinstance(q, Lit) else "" for q in p.parts))
        elif isinstance(p, Param):
            out.append("$" + p.name)
    return "".join(out)


def parse(src: str, aliases: dict[str, str] | None = None) -> CommandList:
    return Parser(src, aliases).parse_program()


def check_complete(src: str) -> str:
    """``complete``, ``incomplete`` or ``invalid``."""
    parser = Parser(src)
    try:
        parser.parse_program()
    except Incomplete:
        return "incomplete"
    except ParseError:
        return "invalid"
    except RecursionError:
        return "invalid"
    # a script would run these, but a frontend should wait for more lines: a here-doc still
    # open at the end, or a final backslash-newline continuation
    if parser.warnings:
        return "incomplete"
    tail = src.rstrip("\n") if src.endswith("\\\n") else src
    if (len(tail) - len(tail.rstrip("\\"))) % 2 == 1:
        return "incomplete"
    return "complete"
