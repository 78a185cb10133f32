"""sed's compiled script: addresses, commands, and the error a script or a run stops with."""
from __future__ import annotations

from dataclasses import dataclass, field

from .._lib.posix_regex import PosixRegex


class SedError(Exception):
    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


# ----------------------------------------------------------------------------- script model
@dataclass
class Address:
    kind: str  # "line", "last", "regex", "step", "zero"
    line: int = 0
    step: int = 0
    regex: PosixRegex | None = None  # None with kind "regex": the last regex used


@dataclass
class Command:
    name: str
    addr1: Address | None = None
    addr2: Address | None = None
    addr2_kind: str = ""  # "", "plus" (+N), "tilde" (~N)
    addr2_n: int = 0
    negate: bool = False
    text: str = ""  # a i c text, label, file name
    target: int = -1  # jump target for b t T and '{' (index after matching '}')
    int_arg: int | None = None
    # s command
    regex: PosixRegex | None = None
    replacement: list = field(default_factory=list)
    global_: bool = False
    occurrence: int = 1
    print_: int = 0
    eval_: bool = False
    wfile: str | None = None
    literal: str | None = None  # the replacement when it has no & \\1 or case conversion
    template: str | None = None  # a Python re template when Python's sub() gives GNU's answer
    # y command
    table: dict | None = None
    # range state
    active: bool = False
    closed: bool = False  # a range from a line number ended: it cannot start again
    zero_done: bool = False  # 0,/re/ was tried
    range_end: int = 0
    cmd_index: int = 0
