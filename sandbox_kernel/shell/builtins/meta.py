"""About commands and the session: command, builtin, type, hash, alias, unalias, help,
enable, caller, compgen, complete, logout."""
from __future__ import annotations

from ...lazy import TYPE_CHECKING
from ...commands import registry
from .. import pattern as pat
from ..syntax.lexer import RESERVED
from ..hints import not_found_message
from ..lookup import EXECUTABLE, STANDARD_PATH, file_status, search_path
from ..quoting import single_quote
from ..syntax.printer import format_function
from ..state import ordered_values
from .args import parse_options
from .output import err, out
from .registry import BUILTINS, HELP, builtin, help_text

if TYPE_CHECKING:
    from ..api import Fds, ShellAPI


def command_files(sh: ShellAPI, name: str, every: bool = False, standard: bool = False) -> list[tuple[str, bool]]:
    """The files NAME runs as, as (path, hashed): a name with a slash only if it is an
    executable file; else bash's remembered location, or the PATH search (all hits with
    EVERY; STANDARD searches the default PATH, for ``command -p``)."""
    if "/" in name:
        return [(name, False)] if file_status(sh.fs, sh.cwd, name) == EXECUTABLE else []
    path_var = sh.get_scalar("PATH") or ""
    if not every:
        hashed = sh.commands_hash().remembered(name, path_var)
        if hashed is not None:
            return [(hashed, True)]
    return [(p, False) for p in search_path(sh.fs, sh.cwd, name, STANDARD_PATH if standard else path_var, every)]


def describe_command(sh: ShellAPI, name: str, every: bool = False, functions: bool = True,
                     standard: bool = False) -> list[tuple[str, str]]:
    """The meanings of NAME in lookup order, as (kind, text): the first, or all with EVERY
    (kind "file" carries the path as text)."""
    found = []
    if name in sh.aliases and sh.shopts["expand_aliases"]:
        found.append(("alias", sh.aliases[name]))
    if name in RESERVED:
        found.append(("keyword", ""))
    if functions and name in sh.functions:
        found.append(("function", format_function(sh.functions[name])))
    if name in BUILTINS and name not in ("bash", "sh"):
        found.append(("builtin", ""))
    if found and not every:
        return found[:1]
    for path, hashed in command_files(sh, name, every, standard):
        found.append(("hashed" if hashed else "file", path))
    return found


def verbose_description(name: str, kind: str, text: str) -> str:
    if kind == "alias":
        return f"{name} is aliased to `{text}'"
    if kind == "keyword":
        return f"{name} is a shell keyword"
    if kind == "function":
        return f"{name} is a function\n{text}"
    if kind == "builtin":
        return f"{name} is a shell builtin"
    if kind == "hashed":
        return f"{name} is hashed ({text})"
    return f"{name} is {text}"


@builtin("type", usage="type [-afptP] name [name ...]", text="""
Display information about command type: for each NAME, indicate how it would be interpreted
if used as a command name.
  -a  display all locations containing an executable named NAME
  -f  suppress shell function lookup
  -P  force a PATH search for each NAME
  -p  return the name of the disk file that would be executed
  -t  output a single word: `alias', `keyword', `function', `builtin', `file' or `'""")
async def b_type(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    opts, names = parse_options(argv, "afptP")
    flags = "".join(o for o, _ in opts)
    every = "a" in flags
    status = 0
    lines = []
    for name in names:
        if "P" in flags:
            found = [("file", p) for p, _ in command_files(sh, name, every)]
        else:
            found = describe_command(sh, name, every, functions="f" not in flags)
        if not found:
            if "t" not in flags and "p" not in flags and "P" not in flags:
                await err(sh, fds, "type", f"{name}: not found")
            status = 1
            continue
        for kind, text in found:
            if "t" in flags:
                lines.append("file" if kind == "hashed" else kind)
            elif "p" in flags or "P" in flags:
                if kind in ("file", "hashed"):
                    lines.append(text)
            else:
                lines.append(verbose_description(name, kind, text))
    await out(fds, "".join(line + "\n" for line in lines))
    return status


@builtin("command", usage="command [-pVv] command [arg ...]", text="""
Execute a simple command or display information about commands: runs COMMAND with ARGS
suppressing shell function lookup.
  -p  use a default value for PATH
  -v  print a description of COMMAND similar to the `type' builtin
  -V  print a more verbose description of each COMMAND""")
async def b_command(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    opts, args = parse_options(argv, "pvV")
    flags = "".join(o for o, _ in opts)
    standard = "p" in flags
    if not args:
        return 0
    if "v" in flags or "V" in flags:
        found_any = False
        for name in args:
            found = describe_command(sh, name, standard=standard)
            if not found:
                if "V" in flags:
                    await err(sh, fds, "command", f"{name}: not found")
                continue
            found_any = True
            kind, text = found[0]
            if "V" in flags:
                await out(fds, verbose_description(name, kind, text) + "\n")
            elif kind in ("file", "hashed"):
                await out(fds, text + "\n")
            elif kind == "alias":
                await out(fds, f"alias {name}={single_quote(text)}\n")
            else:
                await out(fds, name + "\n")
        return 0 if found_any else 1
    if standard and args[0] not in BUILTINS and "/" not in args[0]:
        files = command_files(sh, args[0], standard=True)
        if not files:
            await sh.report(fds, not_found_message(args[0]))
            return 127
        sh.commands_hash().remember(args[0], files[0][0], 1)
        args = [files[0][0]] + args[1:]
    return await sh.run_command(args, fds, allow_functions=False)


@builtin(
    "builtin",
    usage="builtin [shell-builtin [arg ...]]",
    text=("Execute a shell builtin with ARGs, without performing command lookup (useful inside a function of the "
          "same name)."),
)
async def b_builtin(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    _, args = parse_options(argv, "")
    if not args:
        return 0
    fn = BUILTINS.get(args[0])
    if fn is None:
        await err(sh, fds, "builtin", f"{args[0]}: not a shell builtin")
        return 1
    return await fn(sh, args, fds)


@builtin("hash", usage="hash [-lr] [-p pathname] [-dt] [name ...]", text="""
Remember or display program locations: the full pathname of each command NAME is found
and remembered. Without arguments, the remembered commands are listed with their use counts.
  -d  forget the remembered location of each NAME
  -l  display in a format that may be reused as input
  -p PATHNAME  use PATHNAME as the full pathname of NAME
  -r  forget all remembered locations
  -t  print the remembered location of each NAME""")
async def b_hash(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    opts, names = parse_options(argv, "dlp:rt")
    flags = "".join(o for o, _ in opts)
    table = sh.commands_hash()
    table.sync(sh.get_scalar("PATH") or "")
    if "r" in flags:
        table.forget()
    pathname = next((v for o, v in opts if o == "p"), None)
    if not names:
        if "d" in flags or "t" in flags:
            await err(sh, fds, "hash", f"-{'d' if 'd' in flags else 't'}: option requires an argument")
            return 1
        if "r" in flags or pathname is not None:
            return 0
        if not table.entries:
            await out(fds, "hash: hash table empty\n")
        elif "l" in flags:
            await out(fds, "".join(f"builtin hash -p {p} {n}\n" for n, p, _ in table.listing()))
        else:
            await out(fds, "hits\tcommand\n" + "".join(f"{hits:4d}\t{p}\n" for _, p, hits in table.listing()))
        return 0
    status = 0
    lines = []
    for n in names:
        if pathname is not None:
            table.remember(n, pathname)
        elif "d" in flags or "t" in flags:
            entry = table.entries.get(n)
            if entry is None:
                await err(sh, fds, "hash", f"{n}: not found")
                status = 1
            elif "d" in flags:
                del table.entries[n]
            else:
                lines.append(entry[0] if len(names) == 1 else f"{n}\t{entry[0]}")
        elif "/" not in n and n not in BUILTINS and n not in sh.functions:
            hits = search_path(sh.fs, sh.cwd, n, table.path_var or "")
            if hits:
                table.remember(n, hits[0])
            else:
                await err(sh, fds, "hash", f"{n}: not found")
                status = 1
    await out(fds, "".join(line + "\n" for line in lines))
    return status


@builtin("alias", usage="alias [-p] [name[=value] ... ]", text="""
Define or display aliases. Without arguments, `alias' prints the list of aliases in the
reusable form `alias NAME=VALUE'. Otherwise, an alias is defined for each NAME whose VALUE is
given. Aliases are expanded in interactive cells (and after `shopt -s expand_aliases').""")
async def b_alias(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    opts, args = parse_options(argv, "p")
    if not args or opts:
        await out(fds, "".join(f"alias {k}={single_quote(v)}\n" for k, v in sorted(sh.aliases.items())))
    status = 0
    for a in args:
        if "=" in a:
            name, _, value = a.partition("=")
            sh.own_tables()
            sh.aliases[name] = value
        elif a in sh.aliases:
            await out(fds, f"alias {a}={single_quote(sh.aliases[a])}\n")
        else:
            await err(sh, fds, "alias", f"{a}: not found")
            status = 1
    return status


@builtin(
    "unalias",
    usage="unalias [-a] name [name ...]",
    text="Remove each NAME from the list of defined aliases. -a removes all alias definitions.",
)
async def b_unalias(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    opts, args = parse_options(argv, "a")
    sh.own_tables()
    if opts:
        sh.aliases.clear()
        return 0
    if not args:
        await sh.err(fds, f"unalias: usage: {HELP['unalias'][0]}\n")
        return 2
    status = 0
    for a in args:
        if a in sh.aliases:
            del sh.aliases[a]
        else:
            await err(sh, fds, "unalias", f"{a}: not found")
            status = 1
    return status


@builtin("help", usage="help [-dms] [pattern ...]", text="""
Display information about builtin commands. If PATTERN is specified, gives detailed help on
all commands matching PATTERN, otherwise the list of help topics is printed.
  -d  output short description for each topic
  -m  display usage in pseudo-manpage format
  -s  output only a short usage synopsis for each topic matching PATTERN""")
async def b_help(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    opts, args = parse_options(argv, "dms")
    short = any(o == "s" for o, _ in opts)
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
                await out(fds, f"{help_text(n)}\n")
    return status


@builtin("caller", usage="caller [expr]", text="Return the context of the current subroutine call.")
async def b_caller(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    if not sh.funcnames:
        return 1
    caller = sh.funcnames[-2] if len(sh.funcnames) > 1 else "main"
    await out(fds, f"{sh.lineno} {caller}\n")
    return 0


@builtin(
    "enable",
    usage="enable [-a] [-dnps] [-f filename] [name ...]",
    text="Enable and disable shell builtins (listing only in the sandbox).",
)
async def b_enable(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    parse_options(argv, "adnpsf:")
    await out(fds, "".join(f"enable {n}\n" for n in sorted(BUILTINS)))
    return 0


#: the reserved words in the order `compgen -k` lists them
KEYWORD_ORDER = ("if then else elif fi case esac for select while until do done in function time "
                 "{ } ! [[ ]] coproc").split()

_ACTIONS = {"alias": "a", "builtin": "b", "command": "c", "directory": "d", "export": "e", "file": "f",
            "function": "F", "group": "g", "keyword": "k", "user": "u", "variable": "v"}


async def _completion_words(sh: ShellAPI, kinds: set, prefix: str) -> list[str]:
    words: list[str] = []
    if "a" in kinds:
        words += sorted(sh.aliases)
    if "b" in kinds:
        words += sorted(BUILTINS)
    if "k" in kinds:
        words += KEYWORD_ORDER
    if "F" in kinds:
        words += sorted(sh.functions)
    if "c" in kinds:
        words += sorted(set(sh.aliases) | set(BUILTINS) | set(sh.functions) | set(registry.names()) | set(RESERVED))
    if "v" in kinds:
        words += sh.all_variable_names()
    if "e" in kinds:
        words += sorted(sh.exported_env())
    if "u" in kinds:
        words += ["root", "user"]
    if "g" in kinds:
        words += ["root", "user"]
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
    return [w for w in words if w.startswith(prefix)]


@builtin(
    "compgen",
    usage=("compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C "
           "command] [-X filterpat] [-P prefix] [-S suffix] [word]"),
    text="""
Display the possible completions of WORD: commands -c, builtins -b, functions -A function,
variables -v, aliases -a, files -f, directories -d, keywords -k, the words of -W WORDLIST,
the pathnames matching -G GLOBPAT and the COMPREPLY array a -F FUNCTION sets; -X FILTERPAT
removes the matches of FILTERPAT (keeps them with a leading !), -P/-S add a prefix/suffix.""",
)
async def b_compgen(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    opts, args = parse_options(argv, "abcdefgjksuvo:A:G:W:F:C:X:P:S:")
    prefix = args[0] if args else ""
    kinds = {o for o, _ in opts if len(o) == 1 and o in "abcdefgjksuv"}
    values: dict[str, str] = {o: v or "" for o, v in opts if v is not None}
    for o, v in opts:
        if o == "A":
            if v not in _ACTIONS:
                await err(sh, fds, "compgen", f"{v}: invalid action name")
                return 2
            kinds.add(_ACTIONS[v])
    words = await _completion_words(sh, kinds, prefix)
    if "W" in values:
        words += [w for w in values["W"].split() if w.startswith(prefix)]
    if "G" in values:
        words += pat.glob_paths(sh.fs, sh.cwd, values["G"], dotglob=sh.shopts["dotglob"])
    if "F" in values:
        await err(sh, fds, "compgen", "warning: -F option may not work as you expect")
        fdef = sh.functions.get(values["F"])
        if fdef is not None:
            await sh.call_function(fdef, [values["F"], "compgen", prefix, ""], fds)
            reply = sh.lookup_var("COMPREPLY")
            if reply is not None:
                words += ordered_values(reply)
    if "X" in values:
        filt = values["X"]
        keep = filt.startswith("!")
        filt = filt[1:] if keep else filt
        words = [w for w in words if bool(pat.match(filt, w)) == keep]
    words = [values.get("P", "") + w + values.get("S", "") for w in words]
    await out(fds, "".join(w + "\n" for w in words))
    return 0 if words else 1


@builtin(
    "complete",
    "compopt",
    usage=("complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F "
           "function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]"),
    text="Specify how arguments are to be completed (accepted and ignored in the sandbox).",
)
async def b_complete(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    parse_options(argv, "abcdefgjksuvprDEIo:A:G:W:F:C:X:P:S:" if argv[0] == "complete" else "DEIo:")
    return 0


@builtin("logout", usage="logout [n]", text="Exit a login shell.")
async def b_logout(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    await err(sh, fds, "logout", "not login shell: use `exit'")
    return 1
