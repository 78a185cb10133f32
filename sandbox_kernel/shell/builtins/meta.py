"""About commands and the session: command, builtin, type, hash, alias, unalias, help,
enable, caller, compgen, complete, logout."""
from __future__ import annotations

from ...commands import registry
from ...vfs import normpath
from ..eval import pattern as pat
from ..eval.word import single_quote
from ..syntax.lexer import RESERVED
from ..syntax.printer import format_function
from .output import err, out
from .registry import BUILTINS, HELP, builtin, help_text


def _find_in_path(sh, name: str) -> str | None:
    if "/" in name:
        return name if sh.fs.exists(name, sh.cwd) else None
    path = sh.get_scalar("PATH") or ""
    for d in path.split(":"):
        cand = normpath(name, normpath(d or ".", sh.cwd))
        try:
            stat = sh.fs.stat(cand)
        except OSError:
            continue
        if stat.type == "file" and sh.fs.access(cand, 1):
            return cand
    if registry.lookup(name) is not None:
        return f"/usr/bin/{name}"
    return None


def describe_command(sh, name: str) -> list[tuple[str, str]]:
    """Every meaning of NAME in lookup order: (kind, text)."""
    found = []
    if name in sh.aliases and sh.shopts["expand_aliases"]:
        found.append(("alias", f"{name} is aliased to `{sh.aliases[name]}'"))
    if name in RESERVED:
        found.append(("keyword", f"{name} is a shell keyword"))
    if name in sh.functions:
        found.append(("function", f"{name} is a function\n{format_function(sh.functions[name])}"))
    if name in BUILTINS and name not in ("bash", "sh"):
        found.append(("builtin", f"{name} is a shell builtin"))
    path = _find_in_path(sh, name)
    if path is not None:
        found.append(("file", f"{name} is {path}"))
    return found


@builtin("type", usage="type [-afptP] name [name ...]", text="""
Display information about command type: for each NAME, indicate how it would be interpreted
if used as a command name.
  -a  display all locations containing an executable named NAME
  -f  suppress shell function lookup
  -P  force a PATH search for each NAME
  -p  return the name of the disk file that would be executed
  -t  output a single word: `alias', `keyword', `function', `builtin', `file' or `'""")
async def b_type(sh, argv, fds):
    args = argv[1:]
    flags = ""
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        flags += args[0][1:]
        args = args[1:]
    status = 0
    lines = []
    for name in args:
        found = describe_command(sh, name)
        if "f" in flags:
            found = [f for f in found if f[0] != "function"]
        if "P" in flags:
            found = [f for f in found if f[0] == "file"]
        if not found:
            if "t" not in flags and "p" not in flags and "P" not in flags:
                await err(sh, fds, "type", f"{name}: not found")
            status = 1
            continue
        if "a" not in flags:
            found = found[:1]
        for kind, text in found:
            if "t" in flags:
                lines.append(kind)
            elif "p" in flags or "P" in flags:
                if kind == "file":
                    lines.append(text.split(" is ", 1)[1])
            else:
                lines.append(text)
    await out(fds, "".join(l + "\n" for l in lines))
    return status


@builtin("command", usage="command [-pVv] command [arg ...]", text="""
Execute a simple command or display information about commands: runs COMMAND with ARGS
suppressing shell function lookup.
  -p  use a default value for PATH
  -v  print a description of COMMAND similar to the `type' builtin
  -V  print a more verbose description of each COMMAND""")
async def b_command(sh, argv, fds):
    args = argv[1:]
    verbose = describe = False
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "--":
            args = args[1:]
            break
        for c in args[0][1:]:
            if c == "v":
                describe = True
            elif c == "V":
                verbose = True
            elif c == "p":
                pass
            else:
                await err(sh, fds, "command", f"-{c}: invalid option")
                return 2
        args = args[1:]
    if not args:
        return 0
    if describe or verbose:
        status = 0
        for name in args:
            found = describe_command(sh, name)
            if not found:
                if verbose:
                    await err(sh, fds, "command", f"{name}: not found")
                status = 1
                continue
            kind, text = found[0]
            if verbose:
                await out(fds, text + "\n")
            elif kind == "file":
                await out(fds, text.split(" is ", 1)[1] + "\n")
            elif kind == "alias":
                await out(fds, f"alias {name}='{sh.aliases[name]}'\n")
            else:
                await out(fds, name + "\n")
        return status
    return await sh.run_command(args, fds, allow_functions=False)


@builtin("builtin", usage="builtin [shell-builtin [arg ...]]", text="Execute a shell builtin with ARGs, without performing command lookup (useful inside a function of the same name).")
async def b_builtin(sh, argv, fds):
    if len(argv) < 2:
        return 0
    fn = BUILTINS.get(argv[1])
    if fn is None:
        await err(sh, fds, "builtin", f"{argv[1]}: not a shell builtin")
        return 1
    return await fn(sh, argv[1:], fds)


@builtin("hash", usage="hash [-lr] [-p pathname] [-dt] [name ...]", text="Remember or display program locations. With -r, forget all remembered locations.")
async def b_hash(sh, argv, fds):
    args = argv[1:]
    if "-r" in args:
        sh.hash_table.clear()
        return 0
    names = [a for a in args if not a.startswith("-")]
    if not names:
        if not sh.hash_table:
            await out(fds, "hash: hash table empty\n")
            return 0
        await out(fds, "hits\tcommand\n" + "".join(f"   1\t{p}\n" for p in sh.hash_table.values()))
        return 0
    status = 0
    for n in names:
        path = _find_in_path(sh, n)
        if path is None:
            await err(sh, fds, "hash", f"{n}: not found")
            status = 1
        else:
            sh.hash_table[n] = path
    return status


@builtin("alias", usage="alias [-p] [name[=value] ... ]", text="""
Define or display aliases. Without arguments, `alias' prints the list of aliases in the
reusable form `alias NAME=VALUE'. Otherwise, an alias is defined for each NAME whose VALUE is
given. Aliases are expanded in interactive cells (and after `shopt -s expand_aliases').""")
async def b_alias(sh, argv, fds):
    args = [a for a in argv[1:] if a != "-p"]
    if not args:
        await out(fds, "".join(f"alias {k}={single_quote(v)}\n" for k, v in sorted(sh.aliases.items())))
        return 0
    status = 0
    for a in args:
        if "=" in a:
            name, _, value = a.partition("=")
            sh.aliases[name] = value
        elif a in sh.aliases:
            await out(fds, f"alias {a}={single_quote(sh.aliases[a])}\n")
        else:
            await err(sh, fds, "alias", f"{a}: not found")
            status = 1
    return status


@builtin("unalias", usage="unalias [-a] name [name ...]", text="Remove each NAME from the list of defined aliases. -a removes all alias definitions.")
async def b_unalias(sh, argv, fds):
    args = argv[1:]
    if not args:
        await sh.err(fds, "unalias: usage: unalias [-a] name [name ...]\n")
        return 2
    if "-a" in args:
        sh.aliases.clear()
        return 0
    status = 0
    for a in args:
        if a in sh.aliases:
            del sh.aliases[a]
        else:
            await err(sh, fds, "unalias", f"{a}: not found")
            status = 1
    return status


@builtin("help", usage="help [-s] [pattern ...]", text="Display information about builtin commands. If PATTERN is specified, gives detailed help on all commands matching PATTERN, otherwise the list of help topics is printed.\n  -s  output only a short usage synopsis for each topic matching PATTERN")
async def b_help(sh, argv, fds):
    args = argv[1:]
    short = False
    if args and args[0] == "-s":
        short = True
        args = args[1:]
    if not args:
        names = sorted(HELP)
        text = ("sandbox shell, a bash-compatible shell over the sandbox's filesystem.\n"
                "These shell commands are defined internally. Type `help name' to find out more about\n"
                "the function `name'. Other commands (ls, cat, grep, ...) accept --help.\n\n")
        text += "".join(f" {HELP[n][0]}\n" for n in names)
        await out(fds, text)
        return 0
    status = 0
    for a in args:
        matches = [n for n in sorted(HELP) if pat.match(a, n)] if pat.has_glob(a) else ([a] if a in HELP else [])
        if not matches:
            spec = registry.lookup(a)
            if spec is not None and spec.help:
                await out(fds, spec.help + "\n")
                continue
            await err(sh, fds, "help", f"no help topics match `{a}'.  Try `help help' or `man -k {a}' or `info {a}'.")
            status = 1
            continue
        for n in matches:
            if short:
                await out(fds, f"{n}: {HELP[n][0]}\n")
            else:
                await out(fds, help_text(n) + "\n")
    return status


@builtin("caller", usage="caller [expr]", text="Return the context of the current subroutine call.")
async def b_caller(sh, argv, fds):
    if not sh.funcnames:
        return 1
    caller = sh.funcnames[-2] if len(sh.funcnames) > 1 else "main"
    await out(fds, f"{sh.lineno} {caller}\n")
    return 0


@builtin("enable", usage="enable [-a] [-dnps] [-f filename] [name ...]", text="Enable and disable shell builtins (listing only in the sandbox).")
async def b_enable(sh, argv, fds):
    await out(fds, "".join(f"enable {n}\n" for n in sorted(BUILTINS)))
    return 0


@builtin("compgen", usage="compgen [-abcdefgjksuv] [-W wordlist] [word]", text="Display possible completions of WORD (commands -c, builtins -b, functions -A function, variables -v, aliases -a, files -f, directories -d, keywords -k, words from -W WORDLIST).")
async def b_compgen(sh, argv, fds):
    args = argv[1:]
    kinds = set()
    wordlist = None
    prefix = ""
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-W" and i + 1 < len(args):
            wordlist = args[i + 1].split()
            i += 2
            continue
        if a == "-A" and i + 1 < len(args):
            kinds.add({"function": "F", "variable": "v", "alias": "a", "builtin": "b", "command": "c",
                       "keyword": "k", "file": "f", "directory": "d"}.get(args[i + 1], "?"))
            i += 2
            continue
        if a.startswith("-") and len(a) > 1:
            kinds.update(a[1:])
            i += 1
            continue
        prefix = a
        i += 1
    words: list[str] = []
    if wordlist is not None:
        words += wordlist
    if "a" in kinds:
        words += sorted(sh.aliases)
    if "b" in kinds:
        words += sorted(BUILTINS)
    if "k" in kinds:
        words += sorted(RESERVED)
    if "F" in kinds:
        words += sorted(sh.functions)
    if "c" in kinds:
        words += sorted(set(sh.aliases) | set(BUILTINS) | set(sh.functions) | set(registry.names()) | set(RESERVED))
    if "v" in kinds:
        words += sh.all_variable_names()
    if "f" in kinds or "d" in kinds:
        d, _, base = prefix.rpartition("/")
        try:
            entries = sh.fs.scandir(d or ".", sh.cwd)
        except OSError:
            entries = []
        for name, stat in entries:
            if "d" in kinds and "f" not in kinds and stat.type != "dir":
                continue
            words.append((d + "/" if d else "") + name)
    matches = [w for w in words if w.startswith(prefix)]
    await out(fds, "".join(w + "\n" for w in matches))
    return 0 if matches else 1


@builtin("complete", "compopt", usage="complete [-abcdefgjksuv] [-pr] [name ...]", text="Specify how arguments are to be completed (accepted and ignored in the sandbox).")
async def b_complete(sh, argv, fds):
    return 0


@builtin("logout", usage="logout [n]", text="Exit a login shell.")
async def b_logout(sh, argv, fds):
    await err(sh, fds, "logout", "not login shell: use `exit'")
    return 1
