"""Variables and their attributes: declare/typeset, local, export, readonly, unset, shift, let."""
from __future__ import annotations

import re

from ..eval.arith import ArithError, evaluate as arith_evaluate
from ..eval.word import shell_quote
from ..state import ShellError, Var, ordered_keys
from ..syntax.ast import Assign
from ..syntax.lexer import is_name
from ..syntax.parser import Parser
from ..syntax.printer import format_function
from .args import bash_int, too_many_arguments
from .output import err, out
from .registry import builtin


def _quote_value(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`") + '"'


def declare_line(name: str, var: Var) -> str:
    flags = var.attr_flags() or "-"
    if flags != "-":
        flags = "-" + flags
    else:
        flags = "--"
    if var.value is None:
        return f"declare {flags} {name}"
    if isinstance(var.value, dict):
        if var.assoc:
            items = "".join(f"[{_assoc_key(k)}]={_quote_value(var.value[k])} " for k in ordered_keys(var))
            return f"declare {flags} {name}=({items})"
        items = " ".join(f"[{k}]={_quote_value(v)}" for k, v in sorted(var.value.items()))
        return f"declare {flags} {name}=({items})"
    return f"declare {flags} {name}={_quote_value(var.value)}"


def _assoc_key(k: str) -> str:
    if re.fullmatch(r"[A-Za-z0-9_./-]+", k):
        return k
    return _quote_value(k)


async def _declare(sh, argv, fds, local: bool = False) -> int:
    name0 = argv[0]
    if local and not sh.scopes:
        await err(sh, fds, name0, "can only be used in a function")
        return 1
    flags_on: set[str] = set()
    flags_off: set[str] = set()
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if not isinstance(a, str):
            break
        if a == "--":
            i += 1
            break
        if len(a) > 1 and a[0] in "-+" and all(c in "aAfFgilnprtuxIS" for c in a[1:]):
            (flags_on if a[0] == "-" else flags_off).update(a[1:])
            i += 1
            continue
        if len(a) > 1 and a[0] in "-+":
            await err(sh, fds, name0, f"{a[:2]}: invalid option")
            await sh.err(fds, f"{name0}: usage: {name0} [-aAfFgiIlnrtux] [name[=value] ...] or {name0} -p [-aAfFilnrtux] [name ...]\n")
            return 2
        break
    operands = args[i:]
    if "f" in flags_on or "F" in flags_on:
        names = [o for o in operands if isinstance(o, str)] or sorted(sh.functions)
        status = 0
        for n in names:
            f = sh.functions.get(n)
            if f is None:
                status = 1
                continue
            if "F" in flags_on:
                await out(fds, f"{n}\n" if operands else f"declare -f {n}\n")
            else:
                await out(fds, format_function(f) + "\n")
        return status
    if "p" in flags_on or (not operands and not (flags_on - {"g"})):
        return await _declare_print(sh, fds, operands, flags_on)
    if not operands:
        # declare -x etc. without names: list variables with that attribute
        return await _declare_print(sh, fds, [], flags_on | {"p"})
    status = 0
    make_local = (local or (sh.scopes and "g" not in flags_on))
    for op in operands:
        try:
            if isinstance(op, Assign):
                await _declare_one(sh, op.name, op, flags_on, flags_off, make_local)
                continue
            m = re.match(r"([A-Za-z_][A-Za-z_0-9]*)(\[[^\]]*\])?(\+?=)(.*)$", op, re.S)
            if m:
                name, idx, eq, value = m.group(1), m.group(2), m.group(3), m.group(4)
                await _declare_one(sh, name, (idx, eq == "+=", value), flags_on, flags_off, make_local)
            elif is_name(op):
                await _declare_one(sh, op, None, flags_on, flags_off, make_local)
            else:
                await err(sh, fds, name0, f"`{op}': not a valid identifier")
                status = 1
        except ShellError as e:
            await sh.report(fds, f"{name0}: {e.message}" if not e.message.startswith(name0) else e.message)
            status = 1
    return status


async def _declare_one(sh, name: str, value, on: set, off: set, make_local: bool) -> None:
    scope = sh.scopes[-1] if make_local and sh.scopes else sh.globals
    var = scope.get(name)
    if var is None:
        if not make_local:
            var = sh.lookup_var(name) if name not in sh.globals else sh.globals[name]
            if var is not None and sh.scopes and name not in sh.globals:
                scope = sh.find_scope(name)
        if var is None:
            var = Var(None)
            scope[name] = var
    if var.readonly and (value is not None or off - {"r"}):
        if value is not None:
            raise ShellError(f"{name}: readonly variable", 1)
    if "A" in on:
        if not var.assoc and isinstance(var.value, dict) and var.value:
            raise ShellError(f"{name}: cannot convert indexed to associative array", 1)
        var.assoc = True
        if not isinstance(var.value, dict):
            var.value = {} if var.value is None else {"0": var.value}
    if "a" in on and not var.assoc and not isinstance(var.value, dict):
        var.value = {} if var.value is None else {0: var.value}
    for flag, attr in (("i", "integer"), ("l", "lower"), ("u", "upper"), ("x", "exported"), ("n", "nameref")):
        if flag in on:
            setattr(var, attr, True)
            if flag == "l":
                var.upper = False
            if flag == "u":
                var.lower = False
        if flag in off:
            setattr(var, attr, False)
    if isinstance(value, Assign):
        if value.array is not None:
            if "A" not in on and not var.assoc and not isinstance(var.value, dict):
                var.value = {}
            await sh.assign(value)
        else:
            await sh.assign(value)
    elif isinstance(value, tuple):
        idx, append, text = value
        if idx:
            key = idx[1:-1]
            sh.set_element(name, key if var.assoc else sh.arith(key), text, append)
        elif isinstance(var.value, dict) and not append and text.startswith("(") and text.endswith(")"):
            # declare -a x='(1 2)' style: treat as a compound assignment
            p = Parser(f"{name}={text}")
            node = p.parse_program()
            cmd = node.items[0][0]
            for a in cmd.assigns:
                await sh.assign(a)
        else:
            sh.set_var(name, text, append)
    if "r" in on:
        var.readonly = True
    if var.value is not None and (var.lower or var.upper) and isinstance(var.value, str):
        var.value = var.value.lower() if var.lower else var.value.upper()


async def _declare_print(sh, fds, names: list, flags: set) -> int:
    status = 0
    if names:
        for n in names:
            n = n if isinstance(n, str) else n.name
            var = sh.lookup_raw(n) or sh.lookup_var(n)
            if var is None:
                await err(sh, fds, "declare", f"{n}: not found")
                status = 1
                continue
            await out(fds, declare_line(n, var) + "\n")
        return status
    filt = flags - {"p", "g"}
    lines = []
    for n, var in sorted(sh.all_vars().items()):
        if filt:
            attrs = var.attr_flags()
            if not all(f in attrs for f in filt):
                continue
        if "p" in flags or filt:
            lines.append(declare_line(n, var))
        elif var.value is not None:
            lines.append(set_line(n, var))
    await out(fds, "".join(l + "\n" for l in lines))
    return status


def set_line(name: str, var: Var) -> str:
    if isinstance(var.value, dict):
        if var.assoc:
            items = "".join(f"[{_assoc_key(k)}]={_quote_value(var.value[k])} " for k in ordered_keys(var))
        else:
            items = " ".join(f"[{k}]={_quote_value(v)}" for k, v in sorted(var.value.items()))
        return f"{name}=({items})"
    return f"{name}={shell_quote(var.value or '')}"


@builtin("declare", "typeset", usage="declare [-aAfFgiIlnrtux] [-p] [name[=value] ...]", text="""
Set variable values and attributes.
  -f  restrict action or display to function names and definitions
  -F  restrict display to function names only
  -g  create global variables when used in a shell function
  -p  display the attributes and value of each NAME
  -a  to make NAMEs indexed arrays
  -A  to make NAMEs associative arrays
  -i  to make NAMEs have the `integer' attribute
  -l  to convert the value of each NAME to lower case on assignment
  -n  make NAME a reference to the variable named by its value
  -r  to make NAMEs readonly
  -u  to convert the value of each NAME to upper case on assignment
  -x  to make NAMEs export
Using `+' instead of `-' turns off the given attribute. When used in a function, `declare'
makes NAMEs local, as with the `local' command.""")
async def b_declare(sh, argv, fds):
    return await _declare(sh, argv, fds)


@builtin("local", usage="local [option] name[=value] ...", text="""
Define local variables: create a local variable called NAME and give it VALUE. OPTION can be
any option accepted by `declare'. Local variables can only be used within a function; they are
visible only to the function where they are defined and its children.""")
async def b_local(sh, argv, fds):
    if len(argv) == 1 and sh.scopes:
        await out(fds, "".join(set_line(n, v) + "\n" for n, v in sorted(sh.scopes[-1].items()) if v.value is not None))
        return 0
    return await _declare(sh, argv, fds, local=True)


@builtin("export", usage="export [-fn] [name[=value] ...] or export -p", text="""
Set export attribute for shell variables: mark each NAME for automatic export to the
environment of subsequently executed commands. If VALUE is supplied, assign VALUE first.
  -f  refer to shell functions
  -n  remove the export property from each NAME
  -p  display a list of all exported variables and functions""")
async def b_export(sh, argv, fds):
    args = argv[1:]
    unexport = False
    show = False
    while args and isinstance(args[0], str) and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        for c in args[0][1:]:
            if c == "n":
                unexport = True
            elif c == "p":
                show = True
            elif c == "f":
                pass
            else:
                await err(sh, fds, "export", f"-{c}: invalid option")
                await sh.err(fds, "export: usage: export [-fn] [name[=value] ...] or export -p\n")
                return 2
        args = args[1:]
    if not args or show:
        lines = [declare_line(n, v) for n, v in sorted(sh.all_vars().items()) if v.exported]
        await out(fds, "".join(l + "\n" for l in lines))
        return 0
    status = 0
    for a in args:
        if isinstance(a, Assign):
            await sh.assign(a)
            var = sh.lookup_var(a.name)
            if var is not None:
                var.exported = not unexport
            continue
        m = re.match(r"([A-Za-z_][A-Za-z_0-9]*)(\+?=)(.*)$", a, re.S)
        if m:
            try:
                sh.set_var(m.group(1), m.group(3), append=m.group(2) == "+=")
            except ShellError as e:
                await sh.report(fds, f"export: {e.message}")
                status = 1
                continue
            var = sh.lookup_var(m.group(1))
            if var is not None:
                var.exported = not unexport
        elif is_name(a):
            var = sh.lookup_var(a)
            if var is None:
                var = Var(None)
                sh.globals[a] = var
            var.exported = not unexport
        else:
            await err(sh, fds, "export", f"`{a}': not a valid identifier")
            status = 1
    return status


@builtin("readonly", usage="readonly [-aAf] [name[=value] ...] or readonly -p", text="""
Mark shell variables as unchangeable. If VALUE is supplied, assign VALUE before marking.
  -a  refer to indexed array variables
  -A  refer to associative array variables
  -p  display a list of all readonly variables""")
async def b_readonly(sh, argv, fds):
    args = [a for a in argv[1:] if not (isinstance(a, str) and a in ("-a", "-A", "-f", "--"))]
    if not args or args == ["-p"]:
        lines = [declare_line(n, v) for n, v in sorted(sh.all_vars().items()) if v.readonly]
        await out(fds, "".join(l + "\n" for l in lines))
        return 0
    flags = ["declare", "-r"] + (["-a"] if "-a" in argv else []) + (["-A"] if "-A" in argv else [])
    if sh.scopes:
        flags.append("-g")
    return await _declare(sh, flags + args, fds)


@builtin("unset", usage="unset [-f] [-v] [-n] [name ...]", text="""
Unset values and attributes of shell variables and functions.
  -f  treat each NAME as a shell function
  -v  treat each NAME as a shell variable
  -n  treat each NAME as a name reference and unset the variable itself
Without options, unset first tries to unset a variable, and if that fails, a function.""")
async def b_unset(sh, argv, fds):
    args = argv[1:]
    mode = None
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        for c in args[0][1:]:
            if c in "fvn":
                mode = c if c != "n" else "v"
            else:
                await err(sh, fds, "unset", f"-{c}: invalid option")
                await sh.err(fds, "unset: usage: unset [-f] [-v] [-n] [name ...]\n")
                return 2
        args = args[1:]
    status = 0
    for name in args:
        if mode == "f":
            sh.functions.pop(name, None)
            continue
        m = re.fullmatch(r"([A-Za-z_][A-Za-z_0-9]*)\[(.*)\]", name, re.S)
        if m:
            var = sh.lookup_var(m.group(1))
            if var is not None and isinstance(var.value, dict):
                key = m.group(2)
                if key in ("@", "*"):
                    var.value = {}
                elif var.assoc:
                    var.value.pop(key, None)
                else:
                    idx = sh.arith(key)
                    if idx < 0 and var.value:
                        idx += max(var.value) + 1
                    var.value.pop(idx, None)
            elif var is not None and sh.arith(m.group(2)) == 0:
                sh.unset_var(m.group(1))
            continue
        if not is_name(name):
            await err(sh, fds, "unset", f"`{name}': not a valid identifier")
            status = 1
            continue
        var = sh.lookup_var(name)
        if var is None and mode is None and name in sh.functions:
            del sh.functions[name]
            continue
        try:
            sh.unset_var(name)
        except ShellError as e:
            await sh.report(fds, f"unset: {e.message}")
            status = 1
    return status


@builtin("shift", usage="shift [n]", text="Shift positional parameters: rename $N+1,$N+2 ... to $1,$2 ... (N defaults to 1).")
async def b_shift(sh, argv, fds):
    n = 1
    if len(argv) > 1:
        try:
            n = bash_int(argv[1])
        except ValueError:
            await err(sh, fds, "shift", f"{argv[1]}: numeric argument required")
            return 1
        if n < 0:
            await err(sh, fds, "shift", f"{argv[1]}: shift count out of range")
            return 1
        if len(argv) > 2:
            raise too_many_arguments(sh, "shift")
    if n > len(sh.positional):
        return 1
    sh.positional = sh.positional[n:]
    return 0


@builtin("let", usage="let arg [arg ...]", text="""
Evaluate arithmetic expressions: each ARG is an arithmetic expression to be evaluated.
Exit status: if the last ARG evaluates to 0, let returns 1; otherwise 0.""")
async def b_let(sh, argv, fds):
    if len(argv) < 2:
        await err(sh, fds, "let", "expression expected")
        return 1
    value = 0
    for a in argv[1:]:
        try:
            value = arith_evaluate(a, sh)
        except ArithError as e:
            await err(sh, fds, "let", e.message)
            return 1
    return 0 if value else 1
