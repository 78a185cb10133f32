"""Parser: AST shapes, error positions, incomplete vs invalid input."""
import pytest

from sandbox_kernel.shell.syntax.ast import (AndOr, ArithCommand, ArithFor, ArithSub, BraceGroup, Case,
    CmdSub, CondBinary, CondCommand, DQ, For, FunctionDef, HereDoc, If, Loop, Param, Pipeline, Quoted,
    SimpleCommand, Subshell)
from sandbox_kernel.shell.syntax.parser import Incomplete, ParseError, Parser, check_complete, parse


def first(src):
    return parse(src).items[0][0]


def test_simple_command_words_and_redirs():
    cmd = first("echo hi $x 'q' > out 2>&1")
    assert isinstance(cmd, SimpleCommand)
    assert [w.plain for w in cmd.words[:2]] == ["echo", "hi"]
    assert isinstance(cmd.words[2].parts[0], Param) and cmd.words[2].parts[0].name == "x"
    assert isinstance(cmd.words[3].parts[0], Quoted)
    assert [(r.op, r.fd) for r in cmd.redirs] == [(">", None), (">&", 2)]


def test_assignments_and_arrays():
    cmd = first("a=1 b+=2 c=(x y [5]=z) d[3]=w")
    assert [a.name for a in cmd.assigns] == ["a", "b", "c", "d"]
    assert cmd.assigns[1].append
    assert len(cmd.assigns[2].array) == 3 and isinstance(cmd.assigns[2].array[2], tuple)
    assert cmd.assigns[3].index is not None
    assert cmd.words == []


def test_pipeline_and_lists():
    node = parse("a | b && ! c || d; e &")
    (andor, bg1), (e, bg2) = node.items
    assert isinstance(andor, AndOr) and [op for op, _ in andor.rest] == ["&&", "||"]
    assert isinstance(andor.first, Pipeline) and len(andor.first.commands) == 2
    assert andor.rest[0][1].negate
    assert not bg1 and bg2


def test_compound_commands():
    assert isinstance(first("if a; then b; elif c; then d; else e; fi"), If)
    assert isinstance(first("while a; do b; done"), Loop)
    assert first("until a; do b; done").until
    f = first("for i in 1 2 3; do echo $i; done")
    assert isinstance(f, For) and len(f.words) == 3
    assert first("for i; do :; done").words is None
    assert isinstance(first("for ((i=0;i<3;i++)); do :; done"), ArithFor)
    assert isinstance(first("(a; b)"), Subshell)
    assert isinstance(first("{ a; b; }"), BraceGroup)
    assert isinstance(first("((x+1))"), ArithCommand)
    c = first("case $x in a|b) one;; *) two;& esac")
    assert isinstance(c, Case) and [i.terminator for i in c.items] == [";;", ";&"]
    assert len(c.items[0].patterns) == 2


def test_functions():
    f = first("f() { echo; }")
    assert isinstance(f, FunctionDef) and f.name == "f" and isinstance(f.body, BraceGroup)
    g = first("function g { :; }")
    assert isinstance(g, FunctionDef) and g.name == "g"


def test_expansions_structure():
    w = first('echo "a $b ${c:-d} $(e) $((1+2))"').words[1]
    dq = w.parts[0]
    assert isinstance(dq, DQ)
    kinds = [type(p) for p in dq.parts]
    assert Param in kinds and CmdSub in kinds and ArithSub in kinds
    p = [p for p in dq.parts if isinstance(p, Param) and p.op][0]
    assert p.name == "c" and p.op == ":-"


def test_param_operators():
    ops = {"${a#x}": "#", "${a##x}": "##", "${a%x}": "%", "${a/x/y}": "/", "${a//x/y}": "//",
           "${a:1:2}": ":", "${a^^}": "^^", "${a@Q}": "@"}
    for src, op in ops.items():
        p = first("echo " + src).words[1].parts[0]
        assert p.op == op, src
    assert first("echo ${#a}").words[1].parts[0].length
    assert first("echo ${!a}").words[1].parts[0].indirect


def test_heredoc_bodies():
    cmd = first("cat <<EOF\nhi $x\nEOF\n")
    doc = cmd.redirs[0].target
    assert isinstance(doc, HereDoc) and not doc.quoted
    assert any(isinstance(p, Param) for p in doc.body.parts)
    doc2 = first("cat <<'E'\n$x\nE\n").redirs[0].target
    assert doc2.quoted and doc2.body.parts[0].text == "$x\n"
    doc3 = first("cat <<-E\n\t\tx\n\tE\n").redirs[0].target
    assert doc3.body.parts[0].text == "x\n"


def test_cond_command():
    c = first("[[ $a == b* && -f x ]]")
    assert isinstance(c, CondCommand)
    r = first("[[ $x =~ ^(a|b)+$ ]]").expr
    assert isinstance(r, CondBinary) and r.op == "=~" and r.right.parts[0].text == "^(a|b)+$"


def test_line_numbers():
    node = parse("a\n\nb\nif x\nthen y\nfi\n")
    assert [n.line for n, _ in node.items] == [1, 3, 4]


@pytest.mark.parametrize("src", [
    "if true; then", "echo 'abc", 'echo "abc', "for i in 1 2; do", "f() {", "echo $(ls",
    "case x in", "a &&", "a |", "cat <<EOF\nx", "while true", "echo ${x", "[[ a ==",
])
def test_incomplete(src):
    assert check_complete(src) == "incomplete"


def test_heredoc_ended_by_eof_runs_but_is_incomplete_for_frontends():
    parser = Parser("cat <<EOF\nx")
    parser.parse_program()  # a script runs it, as bash does, with a warning
    assert parser.warnings
    assert check_complete("cat <<EOF\nx") == "incomplete"
    assert check_complete("echo a \\") == "incomplete"
    assert check_complete("echo a \\\\") == "complete"


@pytest.mark.parametrize("src,line", [
    ("fi", 1), ("echo a\n)", 2), ("if true; then fi", 1), ("a\nb\n;; c", 3), ("done", 1),
    ("echo a |& | b", 1),
])
def test_invalid_with_line(src, line):
    with pytest.raises(ParseError) as info:
        Parser(src).parse_program()
    assert not isinstance(info.value, Incomplete)
    assert info.value.line == line
    assert "syntax error" in info.value.message
    assert check_complete(src) == "invalid"


def test_complete():
    for src in ["echo hi", "if a; then b; fi", "f() { :; }\nf", "", "# comment only", "x=1\n"]:
        assert check_complete(src) == "complete", src
