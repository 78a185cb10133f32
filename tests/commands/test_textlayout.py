"""fold, expand, unexpand, column, fmt against GNU coreutils / util-linux (LC_ALL=C)."""
from __future__ import annotations

import pytest

from .helpers import assert_like_gnu, run_cmd

PROSE = ("The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs!\n"
         "How vexingly quick daft zebras jump (said someone) while the five boxing wizards jump "
         "quickly; sphinx of black quartz, judge my vow.\n\n"
         "  Indented paragraph here with several words that will need to be wrapped across lines "
         "because it is long.\n  Second line of the indented one.\nDr. Smith went to Washington. "
         "He said: \"hello.\"  Then left.\n"
         "\tTabbed start line that is also quite long and should wrap somewhere reasonable okay.\n")
TABS = "a\tb\tc\n\tlead\n  \t mixed\t\tend\nno tabs\n1234567\tx\nab\bc\td\n"
SPACES = "        eight\n    four    x\n                sixteen   and  more       spaces\nab      cd\n a       b\n"
COLS = "apple\nbanana\ncherry\nd\nelderberry\nfig\ngrape\nh\nkiwi\nlemon\nmango\n"
TABLE = "name age city\nalice 30 Paris\nbob 4\n\ncarol  25   Rome\n"
FILES = {"prose": PROSE, "tabs": TABS, "spaces": SPACES, "cols": COLS, "table": TABLE,
         "csv": "a,b,c\nddd,,e\nf\n", "long": "x" * 200 + "\n" + "word " * 40 + "\n", "empty": "",
         "comments": ("# This is a comment line that is rather long and should be wrapped by fmt.\n"
                      "# Second comment line.\ncode line here stays\n  # indented comment that also goes "
                      "on and on and on for a while\n#no space after hash but long enough to wrap around "
                      "the width\n\n> quoted reply text that is long enough to need wrapping at forty\n"
                      "> more quoted\n"),
         "ctl": "ab\bcd\refgh\tij klm nop\n" * 3 + "a b c d e f g h i j k l\n\t\t\tx\n"}

CASES = [
    ["fold", "prose"], ["fold", "-w", "20", "prose"], ["fold", "-sw", "20", "prose"], ["fold", "-w20", "-b", "tabs"],
    ["fold", "-w", "5", "tabs"], ["fold", "-s", "-w", "7", "tabs"], ["fold", "-30", "long"],
    ["fold", "-w", "0", "long"],
    ["fold", "-w", "x", "long"], ["fold", "-w", "4", "ctl"], ["fold", "-s", "-w", "5", "ctl"],
    ["fold", "-b", "-w", "3", "ctl"], ["fold", "-bs", "-w", "6", "ctl"], ["fold", "-w", "9", "ctl"],
    ["fold", "-s", "-w", "1", "ctl"], ["expand", "ctl"], ["unexpand", "-a", "ctl"], ["fold", "nope"],
    ["fold", "-s", "long"], ["fold", "-w", "3", "-s", "spaces"],
    ["expand", "tabs"], ["expand", "-t", "4", "tabs"], ["expand", "-t", "2,5,9", "tabs"], ["expand", "-i", "tabs"],
    ["expand", "-4", "tabs"], ["expand", "-t", "3", "-t", "7", "tabs"], ["expand", "-t", "0", "tabs"],
    ["expand", "-t", "5,3", "tabs"], ["expand", "-t", "4,/6", "tabs"], ["expand", "-t", "4,+6", "tabs"],
    ["expand", "-t", "x", "tabs"], ["expand", "nope"],
    ["unexpand", "spaces"], ["unexpand", "-a", "spaces"], ["unexpand", "-t", "4", "spaces"],
    ["unexpand", "--first-only", "-t", "4", "spaces"], ["unexpand", "-a", "tabs"], ["unexpand", "-t", "4,8", "spaces"],
    ["unexpand", "-a", "prose"],
    ["column", "cols"], ["column", "-x", "cols"], ["column", "-c", "30", "cols"], ["column", "-c", "200", "cols"],
    ["column", "-t", "table"], ["column", "-t", "-s", ",", "csv"], ["column", "-t", "-s,", "-o", "|", "csv"],
    ["column", "-t", "-e", "table"], ["column", "-t", "-R", "2", "table"], ["column", "empty"],
    ["column", "-c", "5", "cols"],
    ["fmt", "prose"], ["fmt", "-w", "40", "prose"], ["fmt", "-40", "prose"], ["fmt", "-u", "prose"],
    ["fmt", "-s", "-w", "30", "prose"],
    ["fmt", "-w", "20", "long"], ["fmt", "-c", "-w", "50", "prose"], ["fmt", "-t", "-w", "50", "prose"],
    ["fmt", "-g", "30", "prose"], ["fmt", "-w", "x", "prose"], ["fmt", "nope"],
    ["fmt", "-w", "60", "-g", "50", "prose"],
    ["fmt", "-w", "25", "spaces"], ["fmt", "-p", "#", "-w", "30", "comments"],
    ["fmt", "-p", "# ", "-w", "30", "comments"], ["fmt", "-p", ">", "-w", "25", "comments"],
    ["fmt", "-p", "  #", "-w", "30", "comments"], ["fmt", "-c", "-w", "30", "comments"],
]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c) for c in CASES])
def test_like_gnu(argv):
    assert_like_gnu(argv, FILES, stdin=PROSE)


def test_column_fill_uses_columns_env():
    out, _, status = run_cmd(["column"], stdin=COLS, env={"COLUMNS": "40"})
    assert status == 0 and out.count("\n") == 6
