"""od, xxd and hexdump layouts (expected texts measured with GNU od, vim xxd, util-linux)."""
import struct

from .helpers import new_fs, run_cmd_bytes

HB = b"hello world\n\001\377\tabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"


def test_od_default_and_char_formats():
    assert run_cmd_bytes(["od"], stdin=b"abc")[0] == b"0000000 061141 000143\n0000003\n"
    assert run_cmd_bytes(["od", "-c"], stdin=HB)[0].splitlines()[0] == \
        b"0000000   h   e   l   l   o       w   o   r   l   d  \\n 001 377  \\t   a"
    assert run_cmd_bytes(["od", "-a"], stdin=HB)[0].splitlines()[0] == \
        b"0000000   h   e   l   l   o  sp   w   o   r   l   d  nl soh del  ht   a"
    assert run_cmd_bytes(["od", "-An", "-tx1", "-N5"], stdin=HB)[0] == b" 68 65 6c 6c 6f\n"
    assert run_cmd_bytes(["od", "-j", "3", "-N", "4", "-tc"], stdin=HB)[0] == b"0000003   l   o       w\n0000007\n"
    assert run_cmd_bytes(["od", "-c"], stdin=b"a" * 50)[0] == (
        b"0000000" + b"   a" * 16 + b"\n*\n0000060   a   a\n0000062\n")
    assert run_cmd_bytes(["od", "-tx1z", "-Ax"], stdin=HB)[0].splitlines()[0] == \
        b"000000 68 65 6c 6c 6f 20 77 6f 72 6c 64 0a 01 ff 09 61  >hello world....a<"
    assert run_cmd_bytes(["od"], stdin=b"")[0] == b"0000000\n"


def test_od_mixed_widths_and_floats():
    out = run_cmd_bytes(["od", "-td1", "-tc"], stdin=HB)[0].splitlines()
    assert out[0] == b"0000000  104  101  108  108  111   32  119  111  114  108  100   10    1   -1    9   97"
    assert out[1] == b"           h    e    l    l    o         w    o    r    l    d   \\n  001  377   \\t    a"
    nums = struct.pack("<4f", 1.5, 3.25, -0.1, 100.0)
    assert run_cmd_bytes(["od", "-tf4"], stdin=nums)[0] == \
        b"0000000             1.5            3.25            -0.1             100\n0000020\n"
    assert run_cmd_bytes(["od", "-tf8"], stdin=struct.pack("<d", 0.1))[0] == \
        b"0000000                      0.1\n0000010\n"


def test_xxd_forms_and_reverse():
    assert run_cmd_bytes(["xxd"], stdin=b"abc")[0] == b"00000000: 6162 63                                  abc\n"
    assert run_cmd_bytes(["xxd", "-g1", "-c8", "-l", "12"], stdin=HB)[0] == (
        b"00000000: 68 65 6c 6c 6f 20 77 6f  hello wo\n00000008: 72 6c 64 0a              rld.\n")
    assert run_cmd_bytes(["xxd", "-p"], stdin=b"hello\n")[0] == b"68656c6c6f0a\n"
    assert run_cmd_bytes(["xxd", "-u", "-s", "2", "-l", "4"], stdin=HB)[0] == \
        b"00000002: 6C6C 6F20                                llo \n"
    assert run_cmd_bytes(["xxd", "-i"], stdin=b"hello\n")[0] == b"  0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x0a\n"
    fs = new_fs()
    fs.write_bytes("/workspace/hb", b"hi")
    assert run_cmd_bytes(["xxd", "-i", "hb"], fs=fs)[0] == \
        b"unsigned char hb[] = {\n  0x68, 0x69\n};\nunsigned int hb_len = 2;\n"
    assert run_cmd_bytes(["xxd", "-b", "-l", "2"], stdin=HB)[0] == \
        b"00000000: 01101000 01100101                                      he\n"
    dump = run_cmd_bytes(["xxd"], stdin=HB)[0]
    assert run_cmd_bytes(["xxd", "-r"], stdin=dump)[0] == HB
    assert run_cmd_bytes(["xxd", "-r", "-p"], stdin=b"68656c6c6f0a\n")[0] == b"hello\n"


def test_hexdump_canonical_and_default():
    assert run_cmd_bytes(["hexdump", "-C"], stdin=HB[:18])[0] == (
        b"00000000  68 65 6c 6c 6f 20 77 6f  72 6c 64 0a 01 ff 09 61  |hello world....a|\n"
        b"00000010  62 63                                             |bc|\n00000012\n")
    assert run_cmd_bytes(["hexdump"], stdin=b"abc")[0] == b"0000000 6261 0063" + b" " * 30 + b"\n0000003\n"
    assert run_cmd_bytes(["hexdump", "-C", "-n", "5", "-s", "3"], stdin=HB)[0] == (
        b"00000003  6c 6f 20 77 6f                                    |lo wo|\n00000008\n")
    assert run_cmd_bytes(["hexdump", "-C"], stdin=b"a" * 50)[0] == (
        b"00000000  61 61 61 61 61 61 61 61  61 61 61 61 61 61 61 61  |aaaaaaaaaaaaaaaa|\n*\n"
        b"00000030  61 61                                             |aa|\n00000032\n")
    assert run_cmd_bytes(["hexdump", "-C"], stdin=b"")[0] == b""
    assert run_cmd_bytes(["hexdump", "nosuch"])[2] == 1


def test_hexdump_format_strings():
    data = b"hello world, this is hexdump!"
    assert run_cmd_bytes(["hexdump", "-e", '16/1 "%02x " "\\n"'], stdin=data)[0] == (
        b"68 65 6c 6c 6f 20 77 6f 72 6c 64 2c 20 74 68 69\n"
        b"73 20 69 73 20 68 65 78 64 75 6d 70 21         \n")
    assert run_cmd_bytes(["hexdump", "-v", "-e", '/1 "%02X "'], stdin=b"AB")[0] == b"41 42 "
    assert run_cmd_bytes(["hexdump", "-e", '4/4 "%08x " "\\n"'], stdin=data)[0].splitlines()[1] == \
        b"73692073 78656820 706d7564 00000021"
    assert run_cmd_bytes(["hexdump", "-e", '"%07.7_Ax\\n"', "-e", '4/1 "%3d" "\\n"'], stdin=b"ab")[0] == \
        b" 97 98      \n0000002\n"
    assert run_cmd_bytes(["hexdump", "-e", '8/1 "%_u|" "\\n"'], stdin=b"\0\x01\x7f\x80\xff a")[0] == \
        b"nul|soh|del|80|ff| |a||\n"
    assert run_cmd_bytes(["hexdump", "-e", '"%s"'], stdin=data) == (
        b"", b"hexdump: %s requires a precision or a byte count\n", 1)
