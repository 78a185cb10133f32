"""Who and where the sandbox is: id, whoami, hostname, uname, nproc, getconf."""
from __future__ import annotations

from ..chars import isdigits
from ._lib.fsutil import group_name
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


@command(
    "whoami",
    help="Usage: whoami [OPTION]...\n"
    "Print the user name associated with the current effective user ID.\nSame as id -un.",
)
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
            await ctx.out(f"{group_name(ctx.fs, gid) if 'n' in flags else gid}{end}")
        elif "G" in flags:
            shown = [group_name(ctx.fs, g) if "n" in flags else str(g) for g in gids]
            await ctx.out(sep.join(shown) + end)
        else:
            groups = ",".join(f"{g}({group_name(ctx.fs, g)})" for g in gids)
            await ctx.out(f"uid={uid}({name}) gid={gid}({group_name(ctx.fs, gid)}) groups={groups}\n")
    return status


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
