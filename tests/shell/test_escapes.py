"""syntax/escapes.py: one decoder, three ways bash reads backslash escapes."""
from sandbox_kernel.shell.syntax.escapes import (ANSI_C, ECHO, PRINTF, PRINTF_B, decode_ansi_c, decode_escape,
                                                 decode_escapes)


def test_octal_rules_differ_by_place():
    # $'\101' and printf '\101' take up to three digits; echo -e wants \0NNN
    assert decode_ansi_c(r"\101") == "A"
    assert decode_escape(r"\101", 0, PRINTF) == ("A", 4, False)
    assert decode_escape(r"\0101", 0, ECHO) == ("A", 5, False)
    assert decode_escape(r"\0101", 0, PRINTF) == ("\b", 4, False)


def test_backslash_c():
    # echo and printf's %b stop all output; a printf format keeps \c; $'\cA' is a control character
    assert decode_escapes(r"ab\cde", echo=True) == ("ab", True)
    assert decode_escape(r"\c", 0, PRINTF_B) == ("", 2, True)
    assert decode_escape(r"\c", 0, PRINTF) == ("\\c", 2, False)
    assert decode_ansi_c(r"\cA") == "\x01"
    assert decode_ansi_c("x\\c") == "x\\c"


def test_quotes_are_escapes_in_ansi_c_and_printf_only():
    assert decode_escape(r"\"", 0, PRINTF) == ('"', 2, False)
    assert decode_escape(r"\'", 0, ANSI_C) == ("'", 2, False)
    assert decode_escape(r"\'", 0, ECHO) == ("\\'", 2, False)


def test_hex_unicode_and_bytes():
    assert decode_ansi_c(r"\x41\u00e9") == "Aé"
    assert decode_ansi_c(r"\xff").encode("utf-8", "surrogateescape") == b"\xff"
    # beyond U+10FFFF: UTF-8's original 4-byte form as raw bytes, as bash writes it
    assert decode_escape(r"\U110000", 0, ANSI_C)[0].encode("utf-8", "surrogateescape") == b"\xf4\x90\x80\x80"
    assert decode_escape(r"\U110000", 0, ECHO)[0].encode("utf-8", "surrogateescape") == b"\xf4\x90\x80\x80"
    assert decode_ansi_c(r"\xq") == r"\xq"
    assert decode_escapes("a\\", echo=True) == ("a\\", False)


def test_ansi_c_strings_are_c_strings():
    # bash keeps C strings: $'...' ends at a NUL, and an octal escape is a byte
    assert decode_ansi_c(r"a\0b") == "a"
    assert decode_ansi_c(r"x\U0z") == "x"
    assert decode_ansi_c(r"\x00") == ""
    assert decode_ansi_c(r"\377").encode("utf-8", "surrogateescape") == b"\xff"
