"""Which module defines each command, so a sandbox lists every command without importing
every command module (that import costs ~0.1 s of each kernel start; a module loads on the
first use of one of its commands). tests/commands/test_registry.py checks this table
against the registrations: a new command must be added here."""
from __future__ import annotations

#: module (in this package) -> the commands it registers, space-separated
COMMAND_MODULES: dict[str, str] = {
    "archive": "gunzip gzip tar unzip zcat zip",
    "awk": "awk gawk",
    "cat": "cat",
    "checksums": "b2sum cksum md5sum sha1sum sha224sum sha256sum sha384sum sha512sum",
    "cmp": "cmp",
    "cutpaste": "cut paste",
    "datecmd": "date",
    "diff": "diff",
    "diskusage": "df du",
    "display": "display",
    "dump": "hexdump od xxd",
    "encoding": "base32 base64",
    "expr": "expr",
    "fileops": "cp ln mkdir mkfifo mv rm rmdir sync touch truncate",
    "filetype": "file",
    "find": "find",
    "grep": "egrep fgrep grep",
    "headtail": "head tail",
    "joincomm": "comm join",
    "jq": "jq",
    "js": "js node",
    "linefilters": "nl rev tac uniq",
    "ls": "dir ls vdir",
    "patch": "patch",
    "pathnames": "basename dirname mktemp pwd readlink realpath",
    "proc": "sleep time timeout",
    "sed": "sed",
    "sort": "sort",
    "stat": "chgrp chmod chown stat",
    "system": "clear env false getconf hostname id kill nproc printenv ps true uname which whoami",
    "teesplit": "split tee",
    "textgen": "seq shuf yes",
    "textlayout": "column expand fmt fold unexpand",
    "tr": "tr",
    "tree": "tree",
    "vm": "vm",
    "wc": "wc",
    "xargs": "xargs",
}
