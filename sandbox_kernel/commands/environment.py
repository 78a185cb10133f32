"""The environment and the commands found through it: env, printenv, which, true, false."""
from __future__ import annotations

from ._lib.programs import find_executable, run_command
from ._lib.quoting import quote
from .options import getopt
from .registry import CommandContext, command


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


@command("env", help=ENV_HELP, own_help=True)  # `env echo --help` is echo's --help
async def env_cmd(ctx: CommandContext) -> int:
    opts, rest = getopt(ctx.args, "+i0u:C:", {"ignore-environment": "i", "null": "0", "help": "help",
                                              "unset=": "u", "chdir=": "C"}, status=125)
    if any(o == "help" for o, _ in opts):
        await ctx.out(ENV_HELP.strip("\n") + "\n")
        return 0
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
