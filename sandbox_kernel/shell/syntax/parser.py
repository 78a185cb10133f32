"""Hand-written recursive-descent parser for the bash language (the grammar over ``Lexer``).

``Parser(src).parse_program()`` returns a CommandList; ``next_command()`` parses one
top-level complete command at a time (bash runs each before parsing the next, so earlier
lines still run when a later one is a syntax error). ``Incomplete`` means more input could
finish the text (the kernel's is_complete); ``ParseError`` is a real syntax error.
"""
from __future__ import annotations

from ...chars import isdigits
from collections.abc import Callable

from .ast import (
    AndOr, ArithCommand, ArithFor, Assign, BraceGroup, Case, CaseItem, CommandList, CondAnd,
    CondBinary, CondCommand, CondExpr, CondNot, CondOr, CondUnary, CondWord, For, FunctionDef, If,
    Loop, Node, Pipeline, Redir, Select, SimpleCommand, Subshell, Word,
)
from .lexer import CLOSERS, KEEP_STATUS, RESERVED, Aliases, Incomplete, Lexer, ParseError, Token, is_name

#: the commands that start with a reserved word (and take trailing redirections)
CompoundCommand = If | Loop | For | Select | ArithFor | Case | BraceGroup | CondCommand
REDIR_OPS = frozenset({"<", ">", ">>", ">|", "<>", "<&", ">&", "&>", "&>>", "<<", "<<-", "<<<"})


class Parser(Lexer):
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
                self.after_newline()
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
            self.after_newline()
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

    def parse_and_or(self) -> Node:
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

    def parse_pipeline(self) -> Node:
        tok = self.peek()
        negate = timed = posix_time = False
        line = self.line_at(tok[0])
        if self.is_reserved(tok, "time"):
            self.advance()
            timed = True
            tok = self.peek()
            if tok[1] == "word" and tok[2].plain == "-p":
                self.advance()
                posix_time = True
                tok = self.peek()
        while self.is_reserved(tok, "!"):
            self.advance()
            negate = not negate
            tok = self.peek()
        if timed and (tok[1] in ("nl", "eof") or (tok[1] == "op" and tok[2] in (";", "&"))):
            return Pipeline([SimpleCommand([], [], [], line)], negate, timed, line, posix_time=posix_time)
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
        return Pipeline(commands, negate, timed, line, stderr_pipes, posix_time)

    # ------------------------------------------------------------------ commands
    def parse_command(self) -> Node:
        tok = self.peek()
        # the command word, and the first word of an alias's value, again and again
        while self.expand_alias(tok):
            tok = self.peek()
        if tok[1] == "word":
            text = tok[2].plain
            if text is not None and text in RESERVED:
                line = self.line_at(tok[0])
                node: CompoundCommand
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
            # name() { ... }; a name with expansions in it ($foo-bar) is an error only when the
            # definition runs, as in bash
            if self._is_funcdef_start(tok):
                return self.parse_function(text if text is not None else self.token_text(tok), tok[0])
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
            subshell = Subshell(body, [], line)
            self.parse_trailing_redirs(subshell.redirs)
            return subshell
        return self.parse_simple_command()

    def _is_funcdef_start(self, tok: Token) -> bool:
        text = tok[2].plain
        if text is not None and not is_name_word(text):
            return False
        if text is None and (tok[2].source is None or tok[2].source in RESERVED or is_assignment(tok[2].source)):
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

    def parse_function(self, name: str, start: int) -> FunctionDef:
        line = self.line_at(start)
        self.advance()
        self.expect_op("(")
        self.expect_op(")")
        return self._function_body(name, start, line)

    def parse_function_keyword(self) -> FunctionDef:
        tok = self.advance()
        start = tok[0]
        line = self.line_at(start)
        name_tok = self.peek()
        if name_tok[1] != "word":
            raise self.unexpected(name_tok)
        self.advance()
        name = self.token_text(name_tok)
        tok = self.peek()
        if tok[1] == "op" and tok[2] == "(":
            self.advance()
            self.expect_op(")")
        return self._function_body(name, start, line)

    def _function_body(self, name: str, start: int, line: int) -> FunctionDef:
        self.skip_newlines()
        tok = self.peek()
        if tok[1] == "eof":
            raise self.incomplete("syntax error: unexpected end of file")
        body = self.parse_command()
        if isinstance(body, (SimpleCommand, FunctionDef)):
            # the body is a compound command (f() g() { ...; } is an error)
            raise self.unexpected(tok)
        return FunctionDef(name, body, line, self.src[start:self.i].strip())

    def _try_arith_command(self, start: int) -> ArithCommand | None:
        """After ``(`` with another ``(`` next: parse ``(( expr ))``; None when it is
        really a nested subshell."""
        s = self.src
        j = self.arith_close(start + 2)
        if not s.startswith("))", j):
            return None
        expr = self.parse_text_word(s[start + 2:j], start + 2)
        self.seek(j + 2)
        return ArithCommand(expr, [], self.line_at(start))

    def parse_trailing_redirs(self, redirs: list[Redir]) -> None:
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
            return Redir(op, self.add_heredoc(op, word), fd, fd_var)
        return Redir(op, word, fd, fd_var)

    def parse_simple_command(self) -> SimpleCommand:
        tok = self.peek()
        line = self.line_at(tok[0])
        assigns: list[Assign] = []
        words: list[Word | Assign] = []
        redirs: list[Redir] = []
        name: str | None = None  # the command name, when it is a plain word
        while True:
            tok = self.peek()
            kind = tok[1]
            if kind == "word":
                if not words and (assigns or redirs) and self.expand_alias(tok):
                    # the command word after assignments and redirections
                    continue
                if not words:
                    assign = self.read_assignment(tok)
                    if assign is not None:
                        assigns.append(assign)
                        continue
                elif name == "let" and self.looks_like_array_assign(tok) and self._paren_follows(tok):
                    # let x=( 1 + 2 ): bash reads the parenthesized text as one argument
                    words.append(self._let_paren_word(tok))
                    continue
                elif name in ("declare", "typeset", "local", "export", "readonly") and \
                        self.looks_like_array_assign(tok):
                    # declare -a x=(1 2): parse the element list as one word
                    assign = self.read_assignment(tok)
                    if assign is not None:
                        words.append(assign)
                        continue
                self.advance()
                if not words:
                    name = tok[2].plain
                elif tok[2].source is not None and is_assignment(tok[2].source):
                    tok[2].assign_like = True
                words.append(tok[2])
            elif kind == "ionum" or (kind == "op" and tok[2] in REDIR_OPS):
                redirs.append(self.parse_redir())
            else:
                break
        if not assigns and not words and not redirs:
            raise self.unexpected(self.peek())
        return SimpleCommand(assigns, words, redirs, line)

    def _paren_follows(self, tok: Token) -> bool:
        s = self.src
        eq = s.find("=", tok[0])
        return 0 <= eq < tok[3] and s.startswith("(", eq + 1)

    def _let_paren_word(self, tok: Token) -> Word:
        s = self.src
        start = s.find("(", tok[0])
        end = self.closing(start, "()")
        if end < 0:
            raise self.incomplete("unexpected EOF while looking for matching `)'")
        self.seek(end + 1)
        return self.parse_text_word(s[tok[0]:end + 1], tok[0])

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

    def _parse_do_group(self) -> CommandList:
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

    def _parse_for_head(self) -> tuple[str, list[Word] | None]:
        self.advance()
        tok = self.peek()
        if tok[1] != "word":
            raise self.unexpected(tok)
        self.advance()
        var = self.token_text(tok)
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

    def parse_for(self) -> For | ArithFor:
        start = self.peek()[0]
        self.advance()
        self.skip_blanks()
        if self.src.startswith("((", self.i):
            return self.parse_arith_for()
        self.seek(start)
        var, words = self._parse_for_head()
        body = self._parse_do_group()
        return For(var, words, body, [])

    def parse_select(self) -> Select:
        var, words = self._parse_for_head()
        body = self._parse_do_group()
        return Select(var, words, body, [])

    def parse_arith_for(self) -> ArithFor:
        s = self.src
        semicolons: list[int] = []
        j = self.arith_close(self.i + 2, semicolons)
        if not s.startswith("))", j):
            raise self.error("syntax error: `))' expected")
        parts_pos = [self.i + 2] + [k + 1 for k in semicolons]
        if len(parts_pos) != 3:
            raise self.error("syntax error: arithmetic expression required")
        texts = [s[parts_pos[0]:parts_pos[1] - 1], s[parts_pos[1]:parts_pos[2] - 1], s[parts_pos[2]:j]]
        exprs = [self.parse_text_word(t, parts_pos[k]) if t.strip() else None for k, t in enumerate(texts)]
        self.seek(j + 2)
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
        """``[[ expr ]]``, parsed as bash does (a syntax error in it keeps ``$?``)."""
        self.advance()
        try:
            expr = self._cond_or()
            tok = self._cond_peek()
            if not self._is_cond_end(tok):
                raise self.error("syntax error in conditional expression", tok[0])
        except Incomplete:
            raise
        except ParseError as e:
            if e.status == 2:
                e.status = KEEP_STATUS
            raise
        self.advance()
        return CondCommand(expr, [])

    @staticmethod
    def _is_cond_end(tok: Token) -> bool:
        return tok[1] == "word" and tok[2].plain == "]]"

    def _cond_peek(self) -> Token:
        while True:
            tok = self.peek()
            if tok[1] == "nl":
                self.advance()
                continue
            if tok[1] == "eof":
                raise self.incomplete("unexpected EOF while looking for `]]'")
            return tok

    def _cond_or(self) -> CondExpr:
        return self._cond_chain("||", CondOr, self._cond_and)

    def _cond_and(self) -> CondExpr:
        return self._cond_chain("&&", CondAnd, self._cond_term)

    def _cond_chain(self, op: str, node_type: type[CondAnd] | type[CondOr],
                    operand: Callable[[], CondExpr]) -> CondExpr:
        """``operand (op operand)*``, grouped from the left."""
        left = operand()
        while True:
            tok = self._cond_peek()
            if not (tok[1] == "op" and tok[2] == op):
                return left
            self.advance()
            left = node_type(left, operand())

    def _cond_operand(self, kind: str) -> Word:
        """The word after a unary or binary operator."""
        tok = self._cond_peek()
        if tok[1] != "word" or self._is_cond_end(tok):
            raise self.error(f"unexpected argument `{self._cond_text(tok)}' to conditional {kind} operator", tok[0])
        self.advance()
        word: Word = tok[2]
        return word

    def _cond_text(self, tok: Token) -> str:
        return self.token_text(tok) if tok[1] in ("word", "ionum") else str(tok[2])

    def _cond_term(self) -> CondExpr:
        tok = self._cond_peek()
        if tok[1] == "op" and tok[2] == "(":
            self.advance()
            expr = self._cond_or()
            tok = self._cond_peek()
            if not (tok[1] == "op" and tok[2] == ")"):
                raise self.error("expected `)'", tok[0])
            self.advance()
            return expr
        if tok[1] != "word":
            raise self.error(f"unexpected token `{self._cond_text(tok)}' in conditional command", tok[0])
        text = tok[2].plain
        if text == "]]":
            raise self.error("syntax error in conditional expression", tok[0])
        self.advance()
        if text == "!":
            return CondNot(self._cond_term())
        if text is not None and len(text) == 2 and text[0] == "-" and text[1] in UNARY_TESTS:
            # bash: a unary operator always takes the next word (even `==`) as its operand
            return CondUnary(text, self._cond_operand("unary"))
        left = tok[2]
        nxt = self._cond_peek()
        if _is_cond_binop(nxt):
            op = nxt[2] if nxt[1] == "op" else nxt[2].plain
            self.advance()
            if op == "=~":
                right = self.read_regex_word()
            elif op in ("=", "==", "!="):
                # the pattern is read (and matched) as with extglob on
                self.force_extglob = True
                try:
                    right = self._cond_operand("binary")
                finally:
                    self.force_extglob = False
            else:
                right = self._cond_operand("binary")
            if op == "==":
                return CondBinary("=", left, right, "==")
            return CondBinary(op, left, right)
        if self._is_cond_end(nxt) or (nxt[1] == "op" and nxt[2] in ("&&", "||", ")")):
            return CondWord(left)
        raise self.error("conditional binary operator expected", nxt[0])

    def sub_parser(self, text: str, first_line: int) -> Parser:
        return Parser(text, self.aliases, first_line, self.extglob)

UNARY_TESTS = frozenset("abcdefghknoprstuvwxzGLNOS")
COND_BINOPS = frozenset({"=", "==", "!=", "=~", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt",
                         "-ot", "-ef", "<", ">"})


def _is_cond_binop(tok: Token) -> bool:
    if tok[1] == "op":
        return tok[2] in ("<", ">")
    if tok[1] == "word":
        return tok[2].plain in COND_BINOPS
    return False


def is_name_word(text: str | None) -> bool:
    """Can ``text`` name a function? More than a variable name: dashes, dots, colons and an
    ``=`` that does not make it an assignment (``func-name=ext () {...}``)."""
    if not text or is_assignment(text):
        return False
    return all(c not in "$`'\"\\" for c in text) and text not in RESERVED and not isdigits(text[0]) or \
        (isdigits(text[0]) and not isdigits(text))


def is_assignment(text: str) -> bool:
    """Does the word ``text`` start with ``NAME=``, ``NAME+=`` or ``NAME[...]=``?"""
    head = text.split("=", 1)[0]
    if head == text:
        return False
    head = head.removesuffix("+")
    if head.endswith("]") and "[" in head:
        head = head[:head.index("[")]
    return is_name(head)


def parse(src: str, aliases: Aliases = None) -> CommandList:
    return Parser(src, aliases).parse_program()


def check_complete(src: str) -> str:
    """``complete``, ``incomplete`` or ``invalid``."""
    return completeness(src)[0]


def completeness(src: str) -> tuple[str, str | None]:
    """check_complete's answer, and for an incomplete text how the next line joins it in
    history (``Incomplete.join``)."""
    parser = Parser(src)
    try:
        parser.parse_program()
    except Incomplete as e:
        return "incomplete", e.join
    except ParseError:
        return "invalid", None
    except RecursionError:
        return "invalid", None
    # a script would run these, but a frontend should wait for more lines: a here-doc still
    # open at the end, or a final backslash-newline continuation
    if parser.warnings:
        return "incomplete", None
    tail = src.rstrip("\n") if src.endswith("\\\n") else src
    if (len(tail) - len(tail.rstrip("\\"))) % 2 == 1:
        return "incomplete", None
    return "complete", None


__all__ = ["Incomplete", "ParseError", "Parser", "check_complete", "completeness", "is_name_word", "parse"]
