"""The one quoting function against GNU itself: ls --quoting-style for every style ls has,
rm's and cat's messages for the two message styles, head's for the C locale's quote()."""
from __future__ import annotations

import subprocess

import pytest

from sandbox_kernel.commands._lib.quoting import quote
from tests.support.prereqs import host_tool

NAMES = ["a", "a b", "it's", 'a"b', "a$b", "\n", "\n\n", "a\n\nb", "x\n", "it's\n", "\x01'",
         "a\xe9\nb", "\xe9", "it's a\nname", "'", "a'b'c", "#a", "a#", "~a", "{", "{a}", "a=b",
         "a:b", "a\tb", "a\\b", "'\n'", "\n'", "a\x7fb", "\udcff", "a\udcffb", 'a"\'b',
         "a\nb'c", "\x1b[31m", "\xe9'", "\u65e5\u672c", "a\u200bb", "a\u2028b", "?", "a*", "a@b"]
LOCALES = [("C", False), ("C.UTF-8", True)]

pytestmark = host_tool("ls")


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def _gnu(argv: list[bytes], locale: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(argv, env={"LC_ALL": locale, "PATH": "/usr/bin:/bin"},
                          capture_output=True, cwd=cwd, timeout=30)


@pytest.mark.parametrize("locale,utf8", LOCALES)
def test_ls_styles_like_gnu(tmp_path, locale, utf8):
    for name in NAMES:
        path = tmp_path / _text(_bytes(name))
        path.touch()
        for style in ("literal", "shell", "shell-always", "shell-escape", "shell-escape-always",
                      "c", "escape"):
            done = _gnu([b"ls", b"-d", b"--quoting-style=" + style.encode(), b"--", _bytes(name)],
                        locale, cwd=tmp_path)
            assert quote(name, style, utf8) == _text(done.stdout[:-1]), (style, name)
        path.unlink()


@pytest.mark.parametrize("locale,utf8", LOCALES)
def test_message_styles_like_gnu(locale, utf8):
    for name in NAMES:
        removed = _gnu([b"rm", b"--", b"/nonexistent/" + _bytes(name)], locale).stderr
        want = _text(removed.split(b"cannot remove ", 1)[1].rsplit(b": No such", 1)[0])
        assert quote("/nonexistent/" + name, utf8=utf8) == want, name
        catted = _gnu([b"cat", b"--", _bytes(name)], locale, cwd="/").stderr
        want = _text(catted.split(b"cat: ", 1)[1].rsplit(b": No such", 1)[0])
        assert quote(name, "shell-escape", utf8, colon=True) == want, name


def test_locale_style_like_gnu_in_the_c_locale():
    for name in NAMES:
        if not name:
            continue
        done = _gnu([b"head", b"-n", _bytes(name), b"/dev/null"], "C").stderr
        assert quote(name, "locale", utf8=False) == _text(done.split(b"lines: ", 1)[1][:-1]), name
