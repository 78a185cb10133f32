"""Which module defines each command, so a sandbox lists every command without importing
every command module (that import costs ~0.1 s of each kernel start; a module loads on the
first use of one of its commands). tests/commands/test_registry.py checks this table
against the registrations: a new command must be added here."""
from __future__ import annotations

#: module (under sandbox_kernel) -> the commands it registers, space-separated
COMMAND_MODULES: dict[str, str] = {
    "commands.archive": "gunzip gzip tar unzip zcat zip",
    "commands.awk": "awk gawk",
    "commands.cat": "cat",
    "commands.checksums": "b2sum cksum md5sum sha1sum sha224sum sha256sum sha384sum sha512sum",
    "commands.cmp": "cmp",
    "commands.cutpaste": "cut paste",
    "commands.date": "date",
    "commands.diff": "diff",
    "commands.diskusage": "df du",
    "commands.display": "display",
    "commands.dump": "hexdump od xxd",
    "commands.encoding": "base32 base64",
    "commands.expr": "expr",
    "commands.fileops": "cp ln mkdir mkfifo mv rm rmdir sync touch truncate",
    "commands.filetype": "file",
    "commands.find": "find",
    "commands.grep": "egrep fgrep grep",
    "commands.headtail": "head tail",
    "commands.joincomm": "comm join",
    "commands.jq": "jq",
    "commands.linefilters": "nl rev tac uniq",
    "commands.ls": "dir ls vdir",
    "commands.patch": "patch",
    "commands.pathnames": "basename dirname mktemp pwd readlink realpath",
    "commands.proc": "sleep time timeout",
    "commands.sed": "sed",
    "commands.sort": "sort",
    "commands.stat": "chgrp chmod chown stat",
    "commands.system": "clear env false getconf hostname id kill nproc printenv ps true uname which whoami",
    "commands.teesplit": "split tee",
    "commands.textgen": "seq shuf yes",
    "commands.textlayout": "column expand fmt fold unexpand",
    "commands.tr": "tr",
    "commands.tree": "tree",
    "commands.wc": "wc",
    "commands.xargs": "xargs",
    "js.commands": "js node",
    "vm.commands": "vm",
}
