"""Expander, arithmetic, patterns and interpreter details (run in-process via run_script)."""
import pytest

from sandbox_kernel.cli import run_script
from sandbox_kernel.shell import pattern
from sandbox_kernel.shell.eval.arith import ArithError, evaluate
from sandbox_kernel.shell.eval.word import brace_expand, brace_sequence
from sandbox_kernel.shell.state import LimitExceeded


def sh(src, stdin=b""):
    out, err, status = run_script(src, stdin=stdin)
    return out.decode(), err.decode(), status


class Env:
    def __init__(self, **values):
        self.values = {k: str(v) for k, v in values.items()}

    def arith_get(self, name, index):
        return self.values.get(name if index is None else f"{name}[{index}]", "")

    def arith_set(self, name, index, value):
        self.values[name if index is None else f"{name}[{index}]"] = str(value)

    def arith_step(self, name, delta):
        return None  # x++ the general way (arith_get, then arith_set)

    def arith_number(self, name):
        return None  # the general way (arith_get)


@pytest.mark.parametrize("expr,value", [
    ("1+2*3", 7), ("(1+2)*3", 9), ("2**10", 1024), ("2**3**2", 512), ("-7/2", -3), ("-7%3", -1),
    ("7%-3", 1), ("1<<62<<1", -9223372036854775808), ("~0", -1), ("!5", 0), ("5>3 && 2>1", 1),
    ("0 || 0", 0), ("3 > 2 ? 10 : 20", 10), ("0x10 + 010 + 2#11", 27), ("36#z", 35),
    ("9223372036854775807 + 1", -9223372036854775808), ("1,2,3", 3), ("x=5, x*2", 10),
    ("a + b", 5), ("c", 3), ("5 & 3 | 8 ^ 1", 9), (" ", 0),
])
def test_arith_values(expr, value):
    env = Env(a=2, b=3, c="a+1")
    assert evaluate(expr, env) == value


def test_arith_assignment_ops():
    env = Env(x=10)
    assert evaluate("x += 5", env) == 15 and env.values["x"] == "15"
    assert evaluate("x++", env) == 15 and env.values["x"] == "16"
    assert evaluate("--x", env) == 15
    assert evaluate("x <<= 2", env) == 60
    assert evaluate("x %= 7", env) == 4


@pytest.mark.parametrize("expr", ["1/0", "1 +", "(1", "5 % 0", "2 ** -1", "1 ? 2", "08", "3#9"])
def test_arith_errors(expr):
    with pytest.raises(ArithError):
        evaluate(expr, Env())


def test_brace_sequences():
    assert brace_sequence("1..5", 100) == ["1", "2", "3", "4", "5"]
    assert brace_sequence("5..1..2", 100) == ["5", "3", "1"]
    assert brace_sequence("01..03", 100) == ["01", "02", "03"]
    assert brace_sequence("a..e..2", 100) == ["a", "c", "e"]
    assert brace_sequence("a..5", 100) is None
    words = ["".join(t) for t in brace_expand(list("x{a,b{1,2}}y"), 100)]
    assert words == ["xay", "xb1y", "xb2y"]
    assert ["".join(t) for t in brace_expand(list("{a}"), 100)] == ["{a}"]
    # an all-literal word expands as strings; an unmatched brace stays literal
    assert brace_expand("{{a,b}", 100) == ["{a", "{b"]


def test_brace_products_are_bounded_before_they_are_built():
    assert len(brace_expand("{1..10}{1..10}", 100)) == 100
    with pytest.raises(LimitExceeded):
        brace_expand("{1..10}{1..10}x{a,b}", 100)
    with pytest.raises(LimitExceeded):
        brace_sequence("1..101", 100)


@pytest.mark.parametrize("pat,text,ok", [
    ("*.txt", "a.txt", True), ("*.txt", "a.txtx", False), ("a?c", "abc", True),
    ("[a-c]x", "bx", True), ("[!a-c]x", "bx", False), ("[[:digit:]]*", "9z", True),
    (r"\*", "*", True), (r"\*", "a", False), ("@(a|b)c", "bc", True), ("!(*.c)", "x.h", True),
    ("!(*.c)", "x.c", False), ("+(ab)", "ababab", True), ("?(x)y", "y", True), ("*(a|b)", "abba", True),
    ("[]]", "]", True), ("[a-]", "-", True),
])
def test_pattern_match(pat, text, ok):
    assert pattern.match(pat, text) is ok


def test_pattern_strip_and_replace():
    assert pattern.strip_prefix("a/b/c", "*/", False) == "b/c"
    assert pattern.strip_prefix("a/b/c", "*/", True) == "c"
    assert pattern.strip_suffix("f.tar.gz", ".*", False) == "f.tar"
    assert pattern.strip_suffix("f.tar.gz", ".*", True) == "f"
    assert pattern.replace("aXbXc", "X", "-", "//") == "a-b-c"
    assert pattern.replace("aXbXc", "X", "-", "/") == "a-bXc"
    assert pattern.replace("abc", "a", "Z", "/#") == "Zbc"
    assert pattern.replace("abc", "c", "Z", "/%") == "abZ"
    assert pattern.replace("aaa", "a*", "X", "/") == "X"


def test_glob_against_vfs():
    out, _, _ = sh("mkdir -p d/e; touch d/a.txt d/b.txt d/.h d/e/c.txt; echo d/*.txt; echo d/*; "
                   "shopt -s globstar; echo d/**/*.txt; echo d/*.none")
    assert out.splitlines() == ["d/a.txt d/b.txt", "d/a.txt d/b.txt d/e",
                                "d/a.txt d/b.txt d/e/c.txt", "d/*.none"]


def test_redirections_and_fds():
    out, err, status = sh('exec 3>f3; echo to3 >&3; exec 3>&-; cat f3; echo e 2>&1 1>/dev/null >&2 | cat; '
                          '{ echo o; echo e >&2; } 2>err >out; cat out err; echo x >&5')
    assert out == "to3\ne\no\ne\n"
    assert "5: Bad file descriptor" in err


def test_errexit_and_err_trap():
    # a function does not inherit ERR (no errtrace), but errexit ends the shell inside it
    out, _, status = sh("set -e; trap 'echo trapped $?' ERR; f() { false; }; if f; then :; fi; f; echo no")
    assert out == "" and status == 1
    out, _, status = sh("trap 'echo trapped $?' ERR; f() { false; }; f; set -E; f; echo end")
    assert out == "trapped 1\ntrapped 1\ntrapped 1\nend\n" and status == 0


def test_unbound_variable_exits():
    out, err, status = sh("set -u; echo ${nope}; echo never")
    assert status == 127 and out == "" and "nope: unbound variable" in err


def test_arith_error_aborts_line_only():
    out, err, status = sh("echo $((1/0)); echo same line\necho next line")
    assert out == "next line\n" and "division by 0" in err


def test_read_from_stdin():
    out, _, status = sh("while read -r l; do echo \"<$l>\"; done; read x; echo st=$?", stdin=b"a\nb")
    assert out == "<a>\nst=1\n"  # like bash: a last line without newline ends the loop


def test_printf_builtin():
    out, err, status = sh("printf '%s|%5.2f|%-3d|%x\\n' a 3.14159 7 255; printf '%d\\n' abc")
    assert out == "a| 3.14|7  |ff\n0\n" and status == 1 and "invalid number" in err


def test_deep_recursion_within_default_limit():
    out, err, status = sh("f() { (( $1 > 0 )) && f $(( $1 - 1 )); return 0; }; f 900; echo done")
    assert out == "done\n" and err == ""

# scripts checked by their whole stdout: {test id: (script, stdout)}
STDOUT_CASES = {
    "regex_match_posix_semantics": (
        '[[ abc12 =~ ^[[:alpha:]]+[0-9]{2}$ ]] && echo class; [[ xyz =~ x|xy ]] && echo "${BASH_REMATCH[0]}"; '
        '[[ "]" =~ []a] ]] && echo bracket; [[ a.c =~ "." ]] && echo literal-dot',
        "class\nxy\nbracket\nliteral-dot\n"),
    "word_splitting_and_quotes": (
        'v="  a  b  "; printf "<%s>" $v "$v"; echo; IFS=:; w="x::y:"; printf "<%s>" $w; echo',
        "<a><b><  a  b  >\n<x><><y>\n"),
    "at_and_star": (
        'set -- "a b" c; printf "[%s]" "$@"; printf "[%s]" "$*"; printf "[%s]" $@; '
        'printf "[%s]" "x$@y"; set --; printf "[%s]" "$@"; echo',
        "[a b][c][a b c][a][b][c][xa b][cy][]\n"),
    "cmdsub_and_subshell_isolation": (
        'x=1; y=$(x=2; cd /; echo $x); (x=3); echo $x $y; pwd',
        "1 2\n/workspace\n"),
    "heredoc_expansion_and_tabs": (
        'x=v\ncat <<EOF\n$x \\$x `echo c`\nEOF\ncat <<-X\n\t\tindented\n\tX\n',
        "v $x c\nindented\n"),
    "read_builtin_variants": (
        'read -r a b <<< "1 2 3"; echo "$a|$b"; IFS=, read -ra x <<< "p,q"; echo ${x[1]}; '
        'read -n2 c <<< "xyz"; echo $c; read -d: d <<< "k:v"; echo $d',
        "1|2 3\nq\nxy\nk\n"),
    "declare_print_format": (
        'a=(x "y z"); declare -A m=([k]=v); n=1; declare -p a m n',
        'declare -a a=([0]="x" [1]="y z")\ndeclare -A m=([k]="v" )\ndeclare -- n="1"\n'),
    "assoc_order_matches_bash": (
        "declare -A m; for k in apple banana cherry date; do m[$k]=1; done; echo ${!m[@]}",
        "cherry apple date banana\n"),
    "case_and_cond_patterns": (
        'x=file.tar.gz; case $x in *.tar.*) echo tar;; esac; [[ $x == *.gz ]] && echo gz; '
        '[[ $x =~ ^([a-z]+)\\.(.*)$ ]] && echo "${BASH_REMATCH[2]}"',
        "tar\ngz\ntar.gz\n"),
    "getopts": (
        'while getopts "ab:" o -a -b x -c; do echo "$o ${OPTARG-}"; done 2>/dev/null; echo $OPTIND',
        "a \nb x\n? \n5\n"),
    "nested_shell_state_isolation": (
        "f() { :; }; x=1; export y=2; bash -c 'type -t f || echo nof; echo ${x-unset} $y'",
        "nof\nunset 2\n"),
    "function_printing_like_bash": (
        "f() { local x=1; if [ $x ]; then echo y; fi; }; declare -f f",
        "f () \n{ \n    local x=1;\n    if [ $x ]; then\n        echo y;\n    fi\n}\n"),
    "file_substitution_and_assoc_arith": (
        "printf 'abc\\n\\n' > f; x=$(<f); echo \"[$x]\"; declare -A m=([k]=4); (( m[k] += 1 )); "
        "echo ${m[k]} $(( m[k] * 2 ))",
        "[abc]\n5 10\n"),
    "printf_time_and_byte_widths": (
        "printf '%(%Y-%m-%d)T|%3s|\\n' 86400 é",
        "1970-01-02| \u00e9|\n"),
    "aliases_in_interactive_style": (
        "shopt -s expand_aliases\nalias greet='echo hi'\ngreet there",
        "hi there\n"),
}


@pytest.mark.parametrize("script,expected", STDOUT_CASES.values(), ids=STDOUT_CASES.keys())
def test_script_stdout(script, expected):
    out, _, _ = sh(script)
    assert out == expected
