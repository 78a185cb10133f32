"""Path name commands: readlink, realpath, basename, dirname, pwd, mktemp."""
from __future__ import annotations

import errno
import stat as st

from ..vfs import FSError, normpath
from ._lib.fsutil import join_path
from ._lib.quoting import quote, strerror
from .options import UsageError, getopt
from .registry import CommandContext, command

MAX_HOPS = 40


def canonicalize(fs, path: str, cwd: str, mode: str) -> str:
    """Resolve every symlink of ``path``. ``mode``: ``e`` every component must exist,
    ``f`` all but the last, ``m`` none (missing parts are taken lexically).
    Raises FSError (ENOENT, ENOTDIR, ELOOP, EACCES)."""
    if path == "":
        raise FSError(errno.ENOENT, path)
    full = path if path.startswith("/") else cwd.rstrip("/") + "/" + path
    pending = [p for p in full.split("/") if p not in ("", ".")]
    pending.reverse()
    resolved: list[str] = []
    hops = 0
    lexical = False  # once a component is missing (mode m), the rest is lexical
    while pending:
        comp = pending.pop()
        if comp == ".":
            continue
        if comp == "..":
            if resolved:
                resolved.pop()
            continue
        candidate = "/" + "/".join(resolved + [comp])
        if lexical:
            resolved.append(comp)
            continue
        try:
            info = fs.lstat(candidate)
        except FSError as e:
            if mode == "m" or (mode == "f" and not pending and e.errno == errno.ENOENT):
                resolved.append(comp)
                lexical = True
                continue
            raise FSError(e.errno, path) from None
        if st.S_ISLNK(info.st_mode):
            hops += 1
            if hops > MAX_HOPS:
                raise FSError(errno.ELOOP, path)
            target = fs.readlink(candidate)
            if target.startswith("/"):
                resolved = []
            pending.extend(reversed([p for p in target.split("/") if p not in ("", ".")]))
            continue
        if pending and not st.S_ISDIR(info.st_mode):
            if mode == "m":
                resolved.append(comp)
                lexical = True
                continue
            raise FSError(errno.ENOTDIR, path)
        resolved.append(comp)
    return "/" + "/".join(resolved)


def relative_path(target: str, start: str) -> str:
    t = [p for p in target.split("/") if p]
    s = [p for p in start.split("/") if p]
    i = 0
    while i < len(t) and i < len(s) and t[i] == s[i]:
        i += 1
    return "/".join([".."] * (len(s) - i) + t[i:]) or "."


# ============================================================================ readlink
READLINK_HELP = """\
Usage: readlink [OPTION]... FILE...
Print value of a symbolic link or canonical file name

  -f, --canonicalize            canonicalize by following every symlink in
                                every component of the given name recursively;
                                all but the last component must exist
  -e, --canonicalize-existing   canonicalize by following every symlink in
                                every component of the given name recursively,
                                all components must exist
  -m, --canonicalize-missing    canonicalize by following every symlink in
                                every component of the given name recursively,
                                without requirements on components existence
  -n, --no-newline              do not output the trailing delimiter
  -q, --quiet
  -s, --silent                  suppress most error messages (on by default)
  -v, --verbose                 report error messages
  -z, --zero                    end each output line with NUL, not newline
      --help                    display this help and exit"""


@command("readlink", help=READLINK_HELP)
async def readlink(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "efmnqsvz", {
        "canonicalize": "f", "canonicalize-existing": "e", "canonicalize-missing": "m",
        "no-newline": "n", "quiet": "q", "silent": "s", "verbose": "v", "zero": "z"}, status=1)
    mode = None
    no_newline = verbose = zero = False
    for key, _ in opts:
        if key in "efm":
            mode = key
        elif key == "n":
            no_newline = True
        elif key in "qs":
            verbose = False
        elif key == "v":
            verbose = True
        elif key == "z":
            zero = True
    if not operands:
        raise UsageError("missing operand", 1)
    if no_newline and len(operands) > 1:
        await ctx.error("ignoring --no-newline with multiple arguments")
        no_newline = False
    end = "" if no_newline else ("\0" if zero else "\n")
    status = 0
    for path in operands:
        try:
            if mode is None:
                result = ctx.fs.readlink(path, ctx.cwd)
            else:
                result = canonicalize(ctx.fs, path, ctx.cwd, mode)
        except FSError as e:
            if verbose:
                await ctx.error(f"{path}: {strerror(e)}")
            status = 1
            continue
        await ctx.out(result + end)
    return status


# ============================================================================ realpath
REALPATH_HELP = """\
Usage: realpath [OPTION]... FILE...
Print the resolved absolute file name;
all but the last component must exist

  -e, --canonicalize-existing  all components of the path must exist
  -m, --canonicalize-missing   no path components need exist or be a directory
  -L, --logical                resolve '..' components before symlinks
  -P, --physical               resolve symlinks as encountered (default)
  -q, --quiet                  suppress most error messages
      --relative-to=DIR        print the resolved path relative to DIR
      --relative-base=DIR      print absolute paths unless paths below DIR
  -s, --strip, --no-symlinks   don't expand symlinks
  -z, --zero                   end each output line with NUL, not newline
      --help                   display this help and exit"""


@command("realpath", help=REALPATH_HELP)
async def realpath(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "emLPqsz", {
        "canonicalize-existing": "e", "canonicalize-missing": "m", "logical": "L",
        "physical": "P", "quiet": "q", "strip": "s", "no-symlinks": "s", "zero": "z",
        "relative-to=": None, "relative-base=": None}, status=1)
    mode = "f"
    logical = strip = quiet = zero = False
    rel_to = rel_base = None
    for key, val in opts:
        if key in "em":
            mode = key
        elif key == "L":
            logical = True
        elif key == "P":
            logical = False
        elif key == "s":
            strip = True
        elif key == "q":
            quiet = True
        elif key == "z":
            zero = True
        elif key == "relative-to":
            rel_to = val
        elif key == "relative-base":
            rel_base = val
    if not operands:
        raise UsageError("missing operand", 1)
    fs, cwd = ctx.fs, ctx.cwd

    def resolve(path: str) -> str:
        if strip or logical:
            lexical = normpath(path, cwd) if path else ""
            if path == "":
                raise FSError(errno.ENOENT, path)
            if strip:
                if mode == "e" and not fs.exists(lexical, follow=False):
                    raise FSError(errno.ENOENT, path)
                if mode == "f":
                    parent = lexical.rsplit("/", 1)[0] or "/"
                    if not fs.is_dir(parent):
                        raise FSError(errno.ENOENT, path)
                return lexical
            return canonicalize(fs, lexical, "/", mode)
        return canonicalize(fs, path, cwd, mode)

    end = "\0" if zero else "\n"
    try:
        base_to = resolve(rel_to) if rel_to is not None else None
        base = resolve(rel_base) if rel_base is not None else None
    except FSError as e:
        await ctx.error(f"{e.filename}: {strerror(e)}")
        return 1
    if base_to is None and base is not None:
        base_to = base
    status = 0
    for path in operands:
        try:
            result = resolve(path)
        except FSError as e:
            if not quiet:
                await ctx.error(f"{path}: {strerror(e)}")
            status = 1
            continue
        if base_to is not None:
            if base is None or result == base or result.startswith(base.rstrip("/") + "/"):
                if base is None or base_to == base or _under(base_to, base):
                    result = relative_path(result, base_to)
        await ctx.out(result + end)
    return status


def _under(path: str, base: str) -> bool:
    return path == base or path.startswith(base.rstrip("/") + "/")


# ============================================================================ basename / dirname
BASENAME_HELP = """\
Usage: basename NAME [SUFFIX]
  or:  basename OPTION... NAME...
Print NAME with any leading directory components removed.
If specified, also remove a trailing SUFFIX.

  -a, --multiple       support multiple arguments and treat each as a NAME
  -s, --suffix=SUFFIX  remove a trailing SUFFIX; implies -a
  -z, --zero           end each output line with NUL, not newline
      --help           display this help and exit"""


def base_name(name: str, suffix: str = "") -> str:
    stripped = name.rstrip("/")
    if not stripped:
        return "/" if name else ""
    base = stripped.rsplit("/", 1)[-1]
    if suffix and base != suffix and base.endswith(suffix):
        base = base[: -len(suffix)]
    return base


def dir_name(name: str) -> str:
    stripped = name.rstrip("/")
    if not stripped:
        return "/" if name.startswith("/") else "."
    if "/" not in stripped:
        return "."
    head = stripped.rsplit("/", 1)[0].rstrip("/")
    return head or "/"


@command("basename", help=BASENAME_HELP)
async def basename(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "as:z", {"multiple": "a", "suffix=": "s", "zero": "z"}, status=1)
    multiple = zero = False
    suffix = ""
    for key, val in opts:
        if key == "a":
            multiple = True
        elif key == "s":
            suffix = val or ""
            multiple = True
        elif key == "z":
            zero = True
    if not operands:
        raise UsageError("missing operand", 1)
    if not multiple:
        if len(operands) > 2:
            raise UsageError(f"extra operand {quote(operands[2], 'locale')}", 1)
        if len(operands) == 2:
            suffix = operands[1]
        operands = operands[:1]
    end = "\0" if zero else "\n"
    await ctx.out("".join(base_name(n, suffix) + end for n in operands))
    return 0


DIRNAME_HELP = """\
Usage: dirname [OPTION] NAME...
Output each NAME with its last non-slash component and trailing slashes
removed; if NAME contains no /'s, output '.' (meaning the current directory).

  -z, --zero     end each output line with NUL, not newline
      --help     display this help and exit"""


@command("dirname", help=DIRNAME_HELP)
async def dirname(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "z", {"zero": "z"}, status=1)
    if not operands:
        raise UsageError("missing operand", 1)
    end = "\0" if opts else "\n"
    await ctx.out("".join(dir_name(n) + end for n in operands))
    return 0


# ============================================================================ pwd
PWD_HELP = """\
Usage: pwd [OPTION]...
Print the full filename of the current working directory.

  -L, --logical   use PWD from environment, even if it contains symlinks
  -P, --physical  avoid all symlinks (default)
      --help      display this help and exit"""


@command("pwd", help=PWD_HELP)
async def pwd(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "LP", {"logical": "L", "physical": "P"}, status=1)
    if operands:
        await ctx.error("ignoring non-option arguments")
    logical = bool(opts) and opts[-1][0] == "L"
    fs, cwd = ctx.fs, ctx.cwd
    if logical:
        env_pwd = ctx.env.get("PWD", "")
        if env_pwd.startswith("/") and "/./" not in env_pwd + "/" and "/../" not in env_pwd + "/":
            try:
                if fs.stat(env_pwd).st_ino == fs.stat(cwd).st_ino:
                    await ctx.out(env_pwd + "\n")
                    return 0
            except FSError:
                pass
    try:
        await ctx.out(fs.realpath(cwd) + "\n")
    except FSError as e:
        await ctx.error(f"error retrieving current directory: {strerror(e)}")
        return 1
    return 0


# ============================================================================ mktemp
MKTEMP_HELP = """\
Usage: mktemp [OPTION]... [TEMPLATE]
Create a temporary file or directory, safely, and print its name.
TEMPLATE must contain at least 3 consecutive 'X's in last component.
If TEMPLATE is not specified, use tmp.XXXXXXXXXX, and --tmpdir is implied.
Files are created u+rw, and directories u+rwx, minus umask restrictions.

  -d, --directory     create a directory, not a file
  -u, --dry-run       do not create anything; merely print a name (unsafe)
  -q, --quiet         suppress diagnostics about file/dir-creation failure
      --suffix=SUFF   append SUFF to TEMPLATE; SUFF must not contain a slash.
                        This option is implied if TEMPLATE does not end in X
  -p DIR, --tmpdir[=DIR]  interpret TEMPLATE relative to DIR; if DIR is not
                        specified, use $TMPDIR if set, else /tmp.  With
                        this option, TEMPLATE must not be an absolute name;
                        unlike with -t, TEMPLATE may contain slashes, but
                        mktemp creates only the final component
  -t                  interpret TEMPLATE as a single file name component,
                        relative to a directory: $TMPDIR, if set; else the
                        directory specified via -p; else /tmp [deprecated]
      --help          display this help and exit"""

_TEMP_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


@command("mktemp", help=MKTEMP_HELP)
async def mktemp(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "dup:qt", {
        "directory": "d", "dry-run": "u", "quiet": "q", "tmpdir==": "p", "suffix=": None}, status=1)
    make_dir = dry = quiet = legacy_t = False
    tmpdir: str | None = None
    use_tmpdir = False
    suffix: str | None = None
    for key, val in opts:
        if key == "d":
            make_dir = True
        elif key == "u":
            dry = True
        elif key == "q":
            quiet = True
        elif key == "t":
            legacy_t = True
        elif key == "p":
            use_tmpdir = True
            tmpdir = val
        elif key == "suffix":
            suffix = val or ""
    if len(operands) > 1:
        raise UsageError("too many templates", 1)
    fs, cwd = ctx.fs, ctx.cwd

    async def fail(message: str) -> int:
        if not quiet:
            await ctx.error(message)
        return 1

    if operands:
        template = operands[0]
    else:
        template = "tmp.XXXXXXXXXX"
        use_tmpdir = True
    if suffix is not None:
        if "/" in suffix:
            return await fail(f"invalid suffix {quote(suffix, 'locale')}, contains directory separator")
    else:
        last = template.rsplit("/", 1)[-1]
        stripped = last.rstrip("X")
        trailing = len(last) - len(stripped)
        if trailing == 0 and "X" in last:
            # text after the last X run is the suffix
            idx = template.rfind("X")
            suffix = template[idx + 1:]
            template = template[:idx + 1]
        else:
            suffix = ""
    base = template
    if not base.endswith("XXX"):
        return await fail(f"too few X's in template {quote(template + suffix, 'locale')}")
    if use_tmpdir or legacy_t:
        if legacy_t and "/" in template:
            return await fail(f"invalid template, {quote(template + suffix, 'locale')}, contains directory separator")
        if use_tmpdir and template.startswith("/") and operands:
            return await fail(
                f"invalid template, {quote(template + suffix, 'locale')}; with --tmpdir, it may not be absolute"
            )
        directory = tmpdir or ctx.env.get("TMPDIR") or "/tmp"
        if legacy_t and ctx.env.get("TMPDIR"):
            directory = ctx.env["TMPDIR"]
        base = join_path(directory, template)
    count = len(base) - len(base.rstrip("X"))
    stem = base[: len(base) - count]
    last_error: FSError | None = None
    for _ in range(100):
        rand = fs.random_bytes(count)
        name = stem + "".join(_TEMP_CHARS[b % len(_TEMP_CHARS)] for b in rand) + suffix
        if dry:
            if not fs.exists(name, cwd, follow=False):
                await ctx.out(name + "\n")
                return 0
            continue
        try:
            if make_dir:
                fs.mkdir(name, cwd, mode=0o700)
            else:
                fs.open(name, "xb", cwd=cwd, perm=0o600).close()
        except FSError as e:
            last_error = e
            if e.errno == errno.EEXIST:
                continue
            break
        await ctx.out(name + "\n")
        return 0
    kind = "directory" if make_dir else "file"
    reason = strerror(last_error) if last_error else "File exists"
    return await fail(f"failed to create {kind} via template {quote(base + suffix, 'locale')}: {reason}")
