"""Variables and their attributes: declare/typeset, local, export, readonly, unset, shift, let."""
from __future__ import annotations

import re

from ...lazy import TYPE_CHECKING, cast, lazy_compile
from ..quoting import declare_text, double_quote, key_text, shell_quote
from ..state import ArithError, IndexedArray, ShellError, Var, ordered_keys, split_subscript
from ..syntax.ast import Assign, SimpleCommand
from ..syntax.lexer import is_name
from ..syntax.parser import Parser
from ..syntax.printer import format_function
from .args import bash_int, too_many_arguments
from .output import err, out
from .registry import builtin

if TYPE_CHECKING:
    from ..api import Fds, ShellAPI

_OPERAND = lazy_compile(r"([A-Za-z_][A-Za-z_0-9]*)(\[.*\])?(\+?=)(.*)$", re.S)
#: a declare operand's value: a NAME=(...) or NAME=WORD word, (subscript, +=, text) of a
#: NAME[SUB]=TEXT string, or None for a name alone
Operand = Assign | tuple[str | None, bool, str] | None


def declare_line(name: str, var: Var) -> str:
    return declare_text(name, var)


def set_line(name: str, var: Var) -> str:
    """A variable as ``set`` lists it."""
    value = var.value
    if type(value) is IndexedArray:
        return f"{name}=(" + " ".join(f"[{k}]={double_quote(v)}" for k, v in value.items()) + ")"
    if type(value) is dict:
        return f"{name}=(" + "".join(f"[{key_text(k)}]={double_quote(value[k])} " for k in ordered_keys(var)) + ")"
    return f"{name}={shell_quote(value or '')}"


def valid_nameref_target(text: str) -> bool:
    """What ``declare -n ref=TARGET`` accepts: a variable name or ``name[subscript]``."""
    return is_name(text) or split_subscript(text) is not None


async def _declare(sh: ShellAPI, argv, fds: Fds, local: bool = False, visible: bool = False) -> int:
    """declare/typeset/local (and readonly, with ``visible``: it works on the variable a
    name finds, never making a local)."""
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
            await sh.err(fds, f"{name0}: usage: {name0} [-aAfFgiIlnrtux] [name[=value] ...] "
                              f"or {name0} -p [-aAfFilnrtux] [name ...]\n")
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
                if not operands:
                    await out(fds, f"declare -f {n}\n")
                elif sh.shopts["extdebug"]:
                    # with extdebug bash adds where the function was defined
                    await out(fds, f"{n} {f.line} {sh.function_files.get(n, sh.script_source)}\n")
                else:
                    await out(fds, f"{n}\n")
            else:
                await out(fds, format_function(f) + "\n")
        return status
    if local and ("p" in flags_on or not operands):
        return await _print_locals(sh, fds, operands)
    if "p" in flags_on or (not operands and not (flags_on - {"g"})):
        return await _declare_print(sh, fds, operands, flags_on)
    if not operands:
        # declare -x etc. without names: list variables with that attribute
        return await _declare_print(sh, fds, [], flags_on | {"p"})
    status = 0
    where = "local" if local or (sh.scopes and "g" not in flags_on and not visible) else \
        "global" if "g" in flags_on else "visible"
    # bash expands every NAME=VALUE operand before the builtin runs: `local x=$x` reads the
    # outer x, `local a=1 b=$a` the a from before
    texts: list[str | None] = []
    for op in operands:
        if isinstance(op, Assign) and op.array is None and op.index is None:
            texts.append(await sh.expand_word(op.value, assignment=True) if op.value is not None else "")
        else:
            texts.append(None)
    last = operands[-1]
    if isinstance(last, Assign) and texts[-1] is not None:
        sh.last_arg = f"{last.name}{'+=' if last.append else '='}{texts[-1]}"  # $_, as bash sets it
    for op, text in zip(operands, texts):
        try:
            if isinstance(op, Assign):
                await _declare_one(sh, op.name, op, flags_on, flags_off, where, text)
                continue
            m = _OPERAND.match(op)
            if m:
                name, idx, eq, value = m.group(1), m.group(2), m.group(3), m.group(4)
                await _declare_one(sh, name, (idx, eq == "+=", value), flags_on, flags_off, where)
            elif is_name(op):
                await _declare_one(sh, op, None, flags_on, flags_off, where)
            else:
                await err(sh, fds, name0, f"`{op}': not a valid identifier")
                status = 1
        except ShellError as e:
            await sh.report(fds, f"{name0}: {e.message}" if not e.message.startswith(name0) else e.message)
            status = 1
        if sh.pending_warnings:
            await sh.flush_warnings()
    return status


def _target_var(sh: ShellAPI, name: str, where: str) -> Var:
    """The variable ``declare NAME`` works on: ``where`` is "local" (the function's own,
    made when missing; not over a readonly one), "global", or "visible" (the one the name
    finds, else a new global)."""
    if sh.vars_shared and not (where == "local" and sh.scopes and not sh.shares_scope(sh.scopes[-1])):
        sh.own_variables()
    if where == "local" and sh.scopes:
        scope = sh.scopes[-1]
        var = scope.get(name)
        if var is None:
            outer = sh.lookup_raw(name)
            if outer is not None and outer.readonly:
                raise ShellError(f"{name}: readonly variable", 1)
            var = scope[name] = Var(None)
        return var
    var = sh.globals.get(name) if where == "global" else sh.lookup_raw(name)
    if var is None:
        var = sh.globals[name] = Var(None)
    return var


async def _declare_one(sh: ShellAPI, name: str, value: Operand, on: set[str], off: set[str], where: str,
                       text: str | None = None) -> None:
    """One operand: ``value`` is an Assign (``text``: its value, expanded already, when it is
    a plain NAME=VALUE), a (subscript, append, text) tuple, or None (a name alone)."""
    var = _target_var(sh, name, where)
    if "n" in on:
        await _declare_nameref(sh, name, var, value, text)
        _set_flags(sh, var, on - {"n"}, off)
        return
    if var.nameref and "n" in off:
        var.nameref = False
    if var.readonly and value is not None:
        raise ShellError(f"{name}: readonly variable", 1)
    if "A" in on and not var.assoc:
        if type(var.value) is IndexedArray or var.indexed:
            raise ShellError(f"{name}: cannot convert indexed to associative array", 1)
        var.assoc = True
        if var.value is not None:
            var.value = {"0": var.value}
    if "a" in on and var.assoc:
        raise ShellError(f"{name}: cannot convert associative to indexed array", 1)
    if "a" in on and type(var.value) is not IndexedArray:
        if var.value is None:
            var.indexed = True
        else:
            var.value = IndexedArray.of([var.value])
    _set_flags(sh, var, on, off)
    if isinstance(value, Assign):
        if value.array is not None and not var.assoc and not value.append and type(var.value) is not IndexedArray:
            var.value = None
        if text is not None:
            await sh.assign_expanded(value, text)
        else:
            await sh.assign(value)
    elif isinstance(value, tuple):
        idx, append, text = value
        if idx:
            key = await sh.subscript_key(name, idx[1:-1], f"{name}{idx}")
            sh.set_element(name, key, text, append)
        elif (type(var.value) is IndexedArray or var.indexed or var.assoc) and not append \
                and text.startswith("(") and text.endswith(")"):
            # declare -a x='(1 2)': a compound assignment
            node = Parser(f"{name}={text}").parse_program()
            for a in cast(SimpleCommand, node.items[0][0]).assigns:
                await sh.assign(a)
        else:
            sh.set_var(name, text, append)
    if "r" in on:
        var.readonly = True
    if var.value is not None and (var.lower or var.upper) and type(var.value) is str:
        var.value = var.value.lower() if var.lower else var.value.upper()


def _set_flags(sh: ShellAPI, var: Var, on: set, off: set) -> None:
    for flag, attr in (("i", "integer"), ("l", "lower"), ("u", "upper"), ("x", "exported")):
        if flag in on:
            setattr(var, attr, True)
            if flag == "l":
                var.upper = False
            if flag == "u":
                var.lower = False
        if flag in off:
            setattr(var, attr, False)


async def _declare_nameref(sh: ShellAPI, name: str, var: Var, value: Operand, text: str | None = None) -> None:
    """``declare -n ref[=target]``: the reference itself is set (not what it points to)."""
    target: str | None
    if isinstance(value, Assign):
        if value.array is not None:
            raise ShellError(f"{name}: reference variable cannot be an array", 1)
        if text is not None:
            target = text
        else:
            target = await sh.expand_word(value.value, assignment=True) if value.value is not None else ""
    elif isinstance(value, tuple):
        if value[0]:
            raise ShellError(f"{name}: reference variable cannot be an array", 1)
        target = value[2]
    else:
        target = var.value if type(var.value) is str else None
    if target is not None and target != "" and not valid_nameref_target(target):
        raise ShellError(f"`{target}': invalid variable name for name reference", 1)
    if target == name:
        raise ShellError(f"{name}: nameref variable self references not allowed", 1)
    if var.readonly and value is not None:
        raise ShellError(f"{name}: readonly variable", 1)
    if target is not None:
        sh.set_raw(var, target, name)
    var.nameref = True
    sh.namerefs += 1


async def _print_locals(sh: ShellAPI, fds: Fds, names: list) -> int:
    """``local`` / ``local -p [names]``: the current function's variables."""
    scope = sh.scopes[-1] if sh.scopes else {}
    status = 0
    if names:
        for n in names:
            n = n if isinstance(n, str) else n.name
            var = scope.get(n)
            if var is None:
                await err(sh, fds, "local", f"{n}: not found")
                status = 1
                continue
            await out(fds, declare_line(n, var) + "\n")
        return status
    await out(fds, "".join(declare_line(n, v) + "\n" for n, v in sorted(scope.items())))
    return 0


async def _declare_print(sh: ShellAPI, fds: Fds, names: list, flags: set) -> int:
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
async def b_declare(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    return await _declare(sh, argv, fds)


@builtin("local", usage="local [option] name[=value] ...", text="""
Define local variables: create a local variable called NAME and give it VALUE. OPTION can be
any option accepted by `declare'. Local variables can only be used within a function; they are
visible only to the function where they are defined and its children.""")
async def b_local(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    return await _declare(sh, argv, fds, local=True)


def _invalid_element(a: str | Assign) -> str | None:
    """export/readonly take names only: ``a[7]=8`` is not a valid identifier."""
    if isinstance(a, Assign):
        return f"{a.name}[{a.index.source}]" if a.index is not None else None
    m = _OPERAND.match(a)
    return f"{m.group(1)}{m.group(2)}" if m and m.group(2) else None


@builtin("export", usage="export [-fn] [name[=value] ...] or export -p", text="""
Set export attribute for shell variables: mark each NAME for automatic export to the
environment of subsequently executed commands. If VALUE is supplied, assign VALUE first.
  -f  refer to shell functions
  -n  remove the export property from each NAME
  -p  display a list of all exported variables and functions""")
async def b_export(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    args = argv[1:]
    unexport = False
    while args and isinstance(args[0], str) and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        for c in args[0][1:]:
            if c == "n":
                unexport = True
            elif c in "pf":
                pass
            else:
                await err(sh, fds, "export", f"-{c}: invalid option")
                await sh.err(fds, "export: usage: export [-fn] [name[=value] ...] or export -p\n")
                return 2
        args = args[1:]
    if not args:
        lines = [declare_line(n, v) for n, v in sorted(sh.all_vars().items()) if v.exported]
        await out(fds, "".join(l + "\n" for l in lines))
        return 0
    sh.own_variables()  # export changes attributes of variables it finds
    status = 0
    # bash expands every NAME=VALUE operand first: `export x=1 y=$x` reads the x from before,
    # `export FOO=foo v=$(printenv FOO)` runs the substitution before FOO is exported
    args = [await sh.expanded_assign(a) if isinstance(a, Assign) else a for a in args]
    for a in args:
        bad = _invalid_element(a)
        if bad is not None:
            await err(sh, fds, "export", f"`{bad}': not a valid identifier")
            status = 1
            continue
        if isinstance(a, Assign):
            try:
                await sh.assign(a)
            except ShellError as e:
                await sh.report(fds, f"export: {e.message}")
                status = 1
                continue
            var = sh.lookup_var(a.name)
            if var is not None:
                var.exported = not unexport
            continue
        m = _OPERAND.match(a)
        if m:
            try:
                sh.set_var(m.group(1), m.group(4), append=m.group(3) == "+=")
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
async def b_readonly(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    options = [a for a in argv[1:] if isinstance(a, str) and a in ("-a", "-A", "-f", "-p", "--")]
    args = [a for a in argv[1:] if not (isinstance(a, str) and a in ("-a", "-A", "-f", "-p", "--"))]
    if not args:
        lines = [declare_line(n, v) for n, v in sorted(sh.all_vars().items()) if v.readonly]
        await out(fds, "".join(l + "\n" for l in lines))
        return 0
    status = 0
    names = []
    for a in args:
        bad = _invalid_element(a)
        if bad is not None:
            await err(sh, fds, "readonly", f"`{bad}': not a valid identifier")
            status = 1
        else:
            names.append(a)
    if not names:
        return status
    # -a/-A matter only with a value (bash ignores them on a bare name)
    assigning = any(isinstance(a, Assign) or "=" in a for a in names)
    array_flags = [o for o in options if o in ("-a", "-A")] if assigning else []
    return await _declare(sh, ["readonly", "-r"] + array_flags + names, fds, visible=True) or status


@builtin("unset", usage="unset [-f] [-v] [-n] [name ...]", text="""
Unset values and attributes of shell variables and functions.
  -f  treat each NAME as a shell function
  -v  treat each NAME as a shell variable
  -n  treat each NAME as a name reference and unset the variable itself
Without options, unset first tries to unset a variable, and if that fails, a function.""")
async def b_unset(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    args = argv[1:]
    mode = None
    reference = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        for c in args[0][1:]:
            if c in "fv":
                mode = c
            elif c == "n":
                reference = True
            else:
                await err(sh, fds, "unset", f"-{c}: invalid option")
                await sh.err(fds, "unset: usage: unset [-f] [-v] [-n] [name ...]\n")
                return 2
        args = args[1:]
    status = 0
    sh.own_tables()
    for name in args:
        if mode == "f":
            sh.functions.pop(name, None)
            continue
        try:
            ref = split_subscript(name)
            if ref is not None:
                status |= await _unset_element(sh, fds, ref[0], ref[1])
                continue
            if not is_name(name):
                if mode is None:
                    # no variable can have that name: bash unsets a function of it, quietly
                    sh.functions.pop(name, None)
                    continue
                await err(sh, fds, "unset", f"`{name}': not a valid identifier")
                status = 1
                continue
            if reference:
                sh.unset_raw(name)
                continue
            var = sh.lookup_var(name)
            if var is None and mode is None and name in sh.functions:
                del sh.functions[name]
                continue
            sh.unset_var(name)
        except ShellError as e:
            await sh.report(fds, f"unset: {e.message}")
            status = 1
    return status


async def _unset_element(sh: ShellAPI, fds: Fds, name: str, sub: str) -> int:
    """``unset 'name[sub]'``: the subscript is expanded (and evaluated) now."""
    var = sh.lookup_var(name)
    if var is None or var.value is None and not (var.assoc or var.indexed):
        if var is not None and not var.assoc:
            key = await sh.subscript_key(name, sub, f"[{sub}]")
            if key != 0:
                await err(sh, fds, "unset", f"{name}: not an array variable")
                return 1
        return 0
    key = await sh.subscript_key(name, sub, f"[{sub}]", var)
    if type(var.value) is str and key not in (0, "@", "*"):
        await err(sh, fds, "unset", f"{name}: not an array variable")
        return 1
    sh.unset_element(name, key)
    return 0


@builtin("shift", usage="shift [n]",
         text="Shift positional parameters: rename $N+1,$N+2 ... to $1,$2 ... (N defaults to 1).")
async def b_shift(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
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
async def b_let(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    if len(argv) < 2:
        await err(sh, fds, "let", "expression expected")
        return 1
    value = 0
    for a in argv[1:]:
        try:
            value = sh.evaluate_arith(a)
        except ArithError as e:
            await err(sh, fds, "let", e.message)
            return 1
        except ShellError as e:
            if e.fatal:
                raise
            await sh.report(fds, e.message)  # (an assignment to a readonly name)
            return 1
    return 0 if value else 1
