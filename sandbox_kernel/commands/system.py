"""System information commands: env, printenv, true, false, whoami, id, hostname, uname,
nproc, which, clear, getconf, ps, kill."""
from __future__ import annotations

import signal as _signal
import stat as _stat

from ..chars import isdigits
from ._lib.quoting import quote
from .options import UsageError, getopt
from .registry import CommandContext, command

#: What ``uname`` reports: a fixed, plausible Linux.
KERNEL_NAME = "Linux"
KERNEL_RELEASE = "6.1.0-sandbox"
KERNEL_VERSION = "#1 SMP PREEMPT_DYNAMIC Debian 6.1.0"
MACHINE = "x86_64"
OPERATING_SYSTEM = "GNU/Linux"
#: The sandbox runs one command at a time on one event loop.
PROCESSORS = 1


def hostname_of(ctx: CommandContext) -> str:
    try:
        name = ctx.fs.read_text("/etc/hostname").strip()
    except OSError:
        name = ""
    return name or "sandbox"


def find_executable(ctx: CommandContext, name: str, path_var: str | None = None) -> list[str]:
    """Every PATH match for ``name`` in the VFS (regular file with an execute bit)."""
    if "/" in name:
        return [name] if _is_executable(ctx, name) else []
    path_var = ctx.env.get("PATH", "/usr/bin:/bin") if path_var is None else path_var
    found = []
    for d in path_var.split(":"):
        candidate = f"{d or '.'}/{name}" if d != "/" else f"/{name}"
        if _is_executable(ctx, candidate):
            found.append(candidate)
    return found


def _is_executable(ctx: CommandContext, path: str) -> bool:
    try:
        st = ctx.fs.stat(path, cwd=ctx.cwd)
    except OSError:
        return False
    return _stat.S_ISREG(st.st_mode) and bool(st.st_mode & 0o111)


# ----------------------------------------------------------------------------- env

ENV_HELP = """Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]
Set each NAME to VALUE in the environment and run COMMAND.

Mandatory arguments to long options are mandatory for short options too.
  -i, --ignore-environment  start with an empty environment
  -0, --null           end each output line with NUL, not newline
  -u, --unset=NAME     remove variable from the environment
  -C, --chdir=DIR      change working directory to DIR
      --help     display this help and exit

A mere - implies -i.  If no COMMAND, print the resulting environment.
"""


@command("env", help=ENV_HELP)
async def env_cmd(ctx: CommandContext) -> int:
    opts, rest = getopt(ctx.args, "+i0u:C:", {"ignore-environment": "i", "null": "0",
                                              "unset=": "u", "chdir=": "C"}, status=125)
    env = dict(ctx.env)
    nul = False
    chdir = None
    for o, v in opts:
        if o == "i":
            env = {}
        elif o == "0":
            nul = True
        elif o == "u":
            if "=" in v or not v:
                await ctx.error(f"cannot unset {quote(v, 'locale')}: Invalid argument")
                return 125
            env.pop(v, None)
        elif o == "C":
            chdir = v
    if rest and rest[0] == "-":
        env = {}
        rest = rest[1:]
    while rest and "=" in rest[0] and not rest[0].startswith("="):
        name, _, value = rest.pop(0).partition("=")
        env[name] = value
    if not rest:
        if chdir is not None:
            await ctx.error("must specify command with --chdir (-C)")
            await ctx.err("Try 'env --help' for more information.\n")
            return 125
        if nul:
            await ctx.out("".join(f"{k}={v}\0" for k, v in env.items()))
        else:
            await ctx.out("".join(f"{k}={v}\n" for k, v in env.items()))
        return 0
    if nul:
        await ctx.error("cannot specify --null (-0) with command")
        await ctx.err("Try 'env --help' for more information.\n")
        return 125
    cwd = ctx.cwd
    if chdir is not None:
        target = ctx.resolve(chdir)
        if not ctx.fs.is_dir(target):
            await ctx.error(f"cannot change directory to {quote(chdir, 'locale')}: "
                            f"{'Not a directory' if ctx.fs.exists(target) else 'No such file or directory'}")
            return 125
        cwd = target
    status = await run_command(ctx, rest, env=env, cwd=cwd)
    return status


async def run_command(ctx: CommandContext, argv: list[str], env: dict | None = None,
                      cwd: str | None = None, stdin=None, stdout=None, stderr=None,
                      failure: str = "") -> int:
    """Run argv like a program runner (env, timeout, time): GNU's 127 message when the
    command does not exist, 126 when it is not executable (``failure`` prefixes it, e.g.
    timeout's "failed to run command ")."""
    from .registry import lookup

    name = argv[0]
    if lookup(name) is None or "/" in name:
        path_var = (env if env is not None else ctx.env).get("PATH", "/usr/bin:/bin")
        if "/" in name:
            full = ctx.resolve(name) if cwd is None else _join(cwd, name)
            if not ctx.fs.exists(full):
                await ctx.error(f"{failure}{quote(name, 'locale')}: No such file or directory")
                return 127
            if not _is_executable(ctx, full):
                await ctx.error(f"{failure}{quote(name, 'locale')}: Permission denied")
                return 126
        elif not find_executable(ctx, name, path_var):
            await ctx.error(f"{failure}{quote(name, 'locale')}: No such file or directory")
            return 127
    saved_cwd = ctx.cwd
    if cwd is not None:
        ctx.cwd = cwd
    try:
        return await ctx.run(list(argv), stdin=stdin, stdout=stdout, stderr=stderr, env=env)
    finally:
        ctx.cwd = saved_cwd


def _join(cwd: str, path: str) -> str:
    from ..vfs import normpath
    return normpath(path, cwd)


# ----------------------------------------------------------------------------- printenv

PRINTENV_HELP = """Usage: printenv [OPTION]... [VARIABLE]...
Print the values of the specified environment VARIABLE(s).
If no VARIABLE is specified, print name and value pairs for them all.

  -0, --null     end each output line with NUL, not newline
      --help     display this help and exit
"""


@command("printenv", help=PRINTENV_HELP)
async def printenv(ctx: CommandContext) -> int:
    opts, names = getopt(ctx.args, "0", {"null": "0"})
    end = "\0" if opts else "\n"
    if not names:
        await ctx.out("".join(f"{k}={v}{end}" for k, v in ctx.env.items()))
        return 0
    status = 0
    for name in names:
        if name in ctx.env and "=" not in name:
            await ctx.out(ctx.env[name] + end)
        else:
            status = 1
    return status


# ----------------------------------------------------------------------------- true / false

@command("true", help="Usage: true [ignored command line arguments]\nExit with a status code indicating success.")
async def true_cmd(ctx: CommandContext) -> int:
    return 0


@command("false", help="Usage: false [ignored command line arguments]\nExit with a status code indicating failure.")
async def false_cmd(ctx: CommandContext) -> int:
    return 1


# ----------------------------------------------------------------------------- users

def _passwd(ctx: CommandContext) -> list[list[str]]:
    try:
        text = ctx.fs.read_text("/etc/passwd")
    except OSError:
        text = "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/bash\n"
    return [line.split(":") for line in text.splitlines() if line.count(":") >= 6]


def _groups(ctx: CommandContext) -> list[list[str]]:
    try:
        text = ctx.fs.read_text("/etc/group")
    except OSError:
        text = "root:x:0:\nuser:x:1000:\n"
    return [line.split(":") for line in text.splitlines() if line.count(":") >= 3]


def _group_name(ctx: CommandContext, gid: int) -> str:
    for g in _groups(ctx):
        if g[2] == str(gid):
            return g[0]
    return str(gid)


@command("whoami", help="Usage: whoami [OPTION]...\nPrint the user name associated with the current effective user ID.\nSame as id -un.")
async def whoami(ctx: CommandContext) -> int:
    _, operands = getopt(ctx.args, "", status=1)
    if operands:
        raise UsageError(f"extra operand {quote(operands[0], 'locale')}", 1)
    await ctx.out("user\n")
    return 0


ID_HELP = """Usage: id [OPTION]... [USER]...
Print user and group information for each specified USER,
or (when USER omitted) for the current user.

  -g, --group    print only the effective group ID
  -G, --groups   print all group IDs
  -n, --name     print a name instead of a number, for -ugG
  -r, --real     print the real ID instead of the effective ID, with -ugG
  -u, --user     print only the effective user ID
  -z, --zero     delimit entries with NUL characters, not whitespace;
                   not permitted in default format
"""


@command("id", help=ID_HELP)
async def id_cmd(ctx: CommandContext) -> int:
    opts, users = getopt(ctx.args, "gGnruz", {"group": "g", "groups": "G", "name": "n",
                                       "real": "r", "user": "u", "zero": "z"}, status=1)
    flags = {o for o, _ in opts}
    only = [f for f in "ugG" if f in flags]
    if len(only) > 1:
        await ctx.error("cannot print \"only\" of more than one choice")
        return 1
    if not only and ("n" in flags or "r" in flags):
        await ctx.error("cannot print only names or real IDs in default format")
        return 1
    if not only and "z" in flags:
        await ctx.error("option --zero not permitted in default format")
        return 1
    targets = users or ["user"]
    status = 0
    sep = "\0" if "z" in flags else " "
    end = "\0" if "z" in flags else "\n"
    for who in targets:
        entry = next((p for p in _passwd(ctx) if p[0] == who or (isdigits(who) and p[2] == who)), None)
        if entry is None:
            await ctx.error(f"{quote(who, 'locale')}: no such user")
            status = 1
            continue
        name, uid, gid = entry[0], int(entry[2]), int(entry[3])
        gids = [gid] + [int(g[2]) for g in _groups(ctx)
                        if name in g[3].split(",") and int(g[2]) != gid]
        if "u" in flags:
            await ctx.out(f"{name if 'n' in flags else uid}{end}")
        elif "g" in flags:
            await ctx.out(f"{_group_name(ctx, gid) if 'n' in flags else gid}{end}")
        elif "G" in flags:
            shown = [_group_name(ctx, g) if "n" in flags else str(g) for g in gids]
            await ctx.out(sep.join(shown) + end)
        else:
            groups = ",".join(f"{g}({_group_name(ctx, g)})" for g in gids)
            await ctx.out(f"uid={uid}({name}) gid={gid}({_group_name(ctx, gid)}) groups={groups}\n")
    return status


# ----------------------------------------------------------------------------- host

HOSTNAME_HELP = """Usage: hostname [-s|-f|-d|-i|-I]
Show the system's host name.

  -s, --short           short host name
  -f, --fqdn, --long    long host name (FQDN)
  -d, --domain          DNS domain name
  -i, --ip-address      addresses for the host name
  -I, --all-ip-addresses all addresses for the host
"""


@command("hostname", help=HOSTNAME_HELP)
async def hostname(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "sfdiIA", {"short": "s", "fqdn": "f", "long": "f",
                                          "domain": "d", "ip-address": "i",
                                          "all-ip-addresses": "I", "all-fqdns": "A"}, status=255)
    if operands:
        await ctx.error("you must be root to change the host name")
        return 1
    name = hostname_of(ctx)
    mode = opts[-1][0] if opts else "s"
    if mode == "d":
        await ctx.out("\n")
    elif mode == "i":
        await ctx.out("127.0.1.1\n")
    elif mode == "I":
        await ctx.out("\n")
    elif mode == "s":
        await ctx.out(name.split(".")[0] + "\n")
    else:
        await ctx.out(name + "\n")
    return 0


UNAME_HELP = """Usage: uname [OPTION]...
Print certain system information.  With no OPTION, same as -s.

  -a, --all                print all information, in the following order,
                             except omit -p and -i if unknown:
  -s, --kernel-name        print the kernel name
  -n, --nodename           print the network node hostname
  -r, --kernel-release     print the kernel release
  -v, --kernel-version     print the kernel version
  -m, --machine            print the machine hardware name
  -p, --processor          print the processor type (non-portable)
  -i, --hardware-platform  print the hardware platform (non-portable)
  -o, --operating-system   print the operating system
"""


@command("uname", help=UNAME_HELP)
async def uname(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "asnrvmpio", {
        "all": "a", "kernel-name": "s", "nodename": "n", "kernel-release": "r",
        "kernel-version": "v", "machine": "m", "processor": "p", "hardware-platform": "i",
        "operating-system": "o"}, status=1)
    if operands:
        raise UsageError(f"extra operand {quote(operands[0], 'locale')}", 1)
    flags = {o for o, _ in opts} or {"s"}
    fields = [("s", KERNEL_NAME), ("n", hostname_of(ctx)), ("r", KERNEL_RELEASE),
              ("v", KERNEL_VERSION), ("m", MACHINE), ("p", "unknown"), ("i", "unknown"),
              ("o", OPERATING_SYSTEM)]
    shown = []
    for key, value in fields:
        if key in flags or ("a" in flags and key not in "pi"):
            shown.append(value)
    await ctx.out(" ".join(shown) + "\n")
    return 0


NPROC_HELP = """Usage: nproc [OPTION]...
Print the number of processing units available to the current process,
which may be less than the number of online processors

      --all      print the number of installed processors
      --ignore=N  if possible, exclude N processing units
"""


@command("nproc", help=NPROC_HELP)
async def nproc(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "", {"all": None, "ignore=": None}, status=1)
    if operands:
        raise UsageError(f"extra operand {quote(operands[0], 'locale')}", 1)
    count = PROCESSORS
    for o, v in opts:
        if o == "ignore":
            if not isdigits(v):
                await ctx.error(f"invalid number: {quote(v, 'locale')}")
                return 1
            count = max(1, count - int(v))
    await ctx.out(f"{count}\n")
    return 0


WHICH_HELP = """Usage: which [-a] args
Write the full path of COMMAND(s) to standard output.

  -a  print all matching pathnames of each argument
"""


@command("which", help=WHICH_HELP)
async def which(ctx: CommandContext) -> int:
    opts, names = getopt(ctx.args, "as", None, status=2)
    show_all = any(o == "a" for o, _ in opts)
    silent = any(o == "s" for o, _ in opts)
    status = 0 if names else 1
    for name in names:
        found = find_executable(ctx, name)
        if not found:
            status = 1
            continue
        if not silent:
            await ctx.out("".join(p + "\n" for p in (found if show_all else found[:1])))
    return status


@command("clear", help="Usage: clear [-x]\nClear the terminal screen.\n\n  -x  do not try to clear scrollback")
async def clear(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "xVT:", status=1)
    if operands:
        await ctx.error(f"extra operand {quote(operands[0], 'locale')}")
        return 1
    keep_scrollback = any(o == "x" for o, _ in opts)
    await ctx.out("\x1b[H\x1b[2J" + ("" if keep_scrollback else "\x1b[3J"))
    return 0


# ----------------------------------------------------------------------------- getconf

_CONF = {
    "ARG_MAX": "2097152", "CHILD_MAX": "63459", "CLK_TCK": "100", "HOST_NAME_MAX": "64",
    "LOGIN_NAME_MAX": "256", "NGROUPS_MAX": "65536", "OPEN_MAX": "1024", "PAGESIZE": "4096",
    "PAGE_SIZE": "4096", "_NPROCESSORS_CONF": str(PROCESSORS),
    "_NPROCESSORS_ONLN": str(PROCESSORS), "LONG_BIT": "64", "WORD_BIT": "32", "INT_MAX": "2147483647",
    "UINT_MAX": "4294967295", "LINE_MAX": "2048", "RE_DUP_MAX": "32767", "STREAM_MAX": "16",
    "TZNAME_MAX": "", "PATH": "/bin:/usr/bin", "CHAR_BIT": "8", "SSIZE_MAX": "32767",
    "GNU_LIBC_VERSION": "glibc 2.36", "_POSIX_VERSION": "200809",
    "POSIX2_VERSION": "200809", "BC_SCALE_MAX": "2147483647",
}
_PATH_CONF = {"NAME_MAX": "255", "PATH_MAX": "4096", "PIPE_BUF": "4096", "LINK_MAX": "65000",
              "MAX_CANON": "255", "MAX_INPUT": "255", "FILESIZEBITS": "64",
              "SYMLINK_MAX": "", "_POSIX_NO_TRUNC": "1"}


@command("getconf", help="""Usage: getconf [-v specification] variable_name [pathname]
       getconf -a [pathname]
Print the value of a system configuration variable.""")
async def getconf(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "av:", permute=False)
    if any(o == "a" for o, _ in opts):
        table = {**_CONF, **_PATH_CONF}
        width = max(len(k) for k in table) + 1
        await ctx.out("".join(f"{k:<{width}}{v}\n" for k, v in sorted(table.items())))
        return 0
    if not operands or len(operands) > 2:
        await ctx.err("Usage: getconf [-v specification] variable_name [pathname]\n"
                      "       getconf -a [pathname]\n")
        return 2
    name = operands[0]
    if len(operands) == 2:
        if name not in _PATH_CONF:
            await ctx.error(f"Unrecognized variable `{name}'")
            return 2
        if not ctx.fs.exists(operands[1], cwd=ctx.cwd):
            await ctx.error(f"{operands[1]}: No such file or directory")
            return 1
        await ctx.out(_PATH_CONF[name] + "\n")
        return 0
    if name in _CONF:
        await ctx.out(_CONF[name] + "\n")
        return 0
    if name in _PATH_CONF:
        await ctx.out("undefined\n")
        return 0
    await ctx.error(f"Unrecognized variable `{name}'")
    return 2


# ----------------------------------------------------------------------------- ps / kill

SHELL_PID = 1

PS_HELP = """Usage: ps [-ef] [-o FORMAT]
Report the sandbox's processes: the shell, its background jobs, and ps itself.

  -e, -A, ax   every process (the same as the default here)
  -f           full format: UID PID PPID C STIME TTY TIME CMD
"""


def _shell_runtime(ctx: CommandContext):
    """(the shell, its shared runtime) behind ctx.shell, when the shell exposes them."""
    shell = getattr(ctx.shell, "shell", None)
    return shell, getattr(shell, "rt", None)


def _shell_jobs(ctx: CommandContext) -> dict:
    """pid -> task of the shell's background jobs that are still running."""
    _shell, rt = _shell_runtime(ctx)
    jobs = getattr(rt, "jobs", None)
    if not isinstance(jobs, dict):
        return {}
    return {pid: task for pid, task in jobs.items()
            if isinstance(pid, int) and not (hasattr(task, "done") and task.done())}


@command("ps", help=PS_HELP)
async def ps(ctx: CommandContext) -> int:
    args = [("-" + a) if a in ("ax", "aux", "ef", "e") else a for a in ctx.args]
    opts, operands = getopt(args, "eAfauxo:", status=1)
    if operands:
        raise UsageError(f"unsupported option (BSD syntax): '{operands[0]}'", 1)
    full = any(o in ("f", "u") for o, _ in opts)
    shell, _rt = _shell_runtime(ctx)
    shell_pid = getattr(shell, "pid", SHELL_PID)
    if not isinstance(shell_pid, int):
        shell_pid = SHELL_PID
    procs = [(shell_pid, 0, "bash")]
    # a background job is a subshell of the sandbox's shell
    procs += [(pid, shell_pid, "bash") for pid in sorted(_shell_jobs(ctx))]
    own_pid = max([p for p, _, _ in procs]) + 1
    procs.append((own_pid, shell_pid, "ps"))
    if full:
        lines = ["UID          PID    PPID  C STIME TTY          TIME CMD"]
        lines += [f"user     {pid:>7} {ppid:>7}  0 00:00 pts/0    00:00:00 {cmd}" for pid, ppid, cmd in procs]
    else:
        lines = ["    PID TTY          TIME CMD"]
        lines += [f"{pid:>7} pts/0    00:00:00 {cmd}" for pid, _, cmd in procs]
    await ctx.out("\n".join(lines) + "\n")
    return 0


KILL_HELP = """Usage: kill [-s SIGNAL | -SIGNAL] PID...
  or:  kill -l [SIGNAL]...
Send signals to processes, or list signals.

  -s, --signal=SIGNAL, -SIGNAL
                   specify the name or number of the signal to be sent
  -l, --list       list signal names, or convert signal names to/from numbers
"""


def _signal_names() -> dict[int, str]:
    names = {}
    for sig in _signal.Signals:
        if sig.name.startswith("SIG") and not sig.name.startswith("SIG_") and sig.value < 32:
            names.setdefault(int(sig.value), sig.name[3:])
    names[6] = "ABRT"
    names[17] = "CHLD"
    names[29] = "IO" if 29 not in names else names[29]
    return names


def parse_signal(spec: str) -> int | None:
    names = _signal_names()
    if isdigits(spec):
        n = int(spec)
        return n if n == 0 or n in names else None
    upper = spec.upper()
    if upper.startswith("SIG"):
        upper = upper[3:]
    for n, name in names.items():
        if name == upper:
            return n
    return None


@command("kill", help=KILL_HELP)
async def kill(ctx: CommandContext) -> int:
    args = list(ctx.args)
    names = _signal_names()
    if args and args[0] in ("-l", "--list", "-L", "--table"):
        if len(args) == 1:
            await ctx.out(" ".join(names[n] for n in sorted(names)) + "\n")
            return 0
        status = 0
        for a in args[1:]:
            if isdigits(a):
                n = int(a)
                n = n - 128 if n > 128 else n
                if n in names:
                    await ctx.out(names[n] + "\n")
                    continue
            else:
                n = parse_signal(a)
                if n is not None:
                    await ctx.out(f"{n}\n")
                    continue
            await ctx.error(f"unknown signal: {a}")
            status = 1
        return status
    sig = 15
    if args and args[0] in ("-s", "--signal", "-n"):
        if len(args) < 2:
            raise UsageError("option requires an argument -- 's'", 1)
        parsed = parse_signal(args[1])
        if parsed is None:
            await ctx.error(f"unknown signal: {args[1]}")
            return 1
        sig, args = parsed, args[2:]
    elif args and args[0].startswith("-") and args[0] != "-" and args[0] != "--" and len(args[0]) > 1:
        parsed = parse_signal(args[0][1:])
        if parsed is None:
            await ctx.error(f"unknown signal: {args[0][1:]}")
            return 1
        sig, args = parsed, args[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args:
        raise UsageError("not enough arguments", 1)
    status = 0
    jobs = _shell_jobs(ctx)
    _shell, rt = _shell_runtime(ctx)
    for target in args:
        try:
            pid = int(target)
        except ValueError:
            await ctx.error(f"failed to parse argument: '{target}'")
            status = 1
            continue
        task = jobs.get(pid)
        if task is None:
            await ctx.error(f"({pid}): No such process")
            status = 1
            continue
        if sig != 0:
            # jobs are tasks inside the sandbox: any terminating signal cancels the task
            task.cancel()
            statuses = getattr(rt, "job_status", None)
            if isinstance(statuses, dict):
                statuses[pid] = 128 + sig
    return status
