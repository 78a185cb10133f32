"""Tab and Shift-Tab in %%vm cells, host side (no VM): which word is asked about, and the guest's
reply read as untrusted data."""
from sandbox_kernel.vm import completion as c


def test_what_the_guest_is_asked():
    assert c.completion_request("ech", 3) == (0, "c", "ech", "")
    assert c.completion_request("cat x | wc", 10) == (8, "c", "wc", "")
    assert c.completion_request("A=1 sudo ap", 11) == (9, "c", "ap", "")
    assert c.completion_request("ls fo", 5) == (3, "f", "fo", "")
    assert c.completion_request("./scr", 5) == (0, "f", "./scr", "")  # a path in command position
    assert c.completion_request("echo $HO", 8) == (5, "v", "HO", "")
    assert c.completion_request("echo ${PA", 9) == (5, "v", "PA", "{")
    assert c.completion_request("echo a$(b", 9) == (8, "c", "b", "")
    assert c.completion_request("echo x\\ y", 9) == (8, "f", "y", "")  # after an escaped space: its last part
    assert c.completion_request("echo " + "a" * 5000, 5005) is None


def test_the_guest_reply_is_bounded_and_escaped():
    reply = b"b file\nc\nd/\n\x1b]0;evil\x07\nc\n$(rm -rf ~)\n" + b"\xff\xfe\n" + b"x" * 5000 + b"\n"
    assert c.read_names(reply, "f") == ["\\$\\(rm\\ -rf\\ ~\\)", "b\\ file", "c", "d/"]
    many = b"".join(b"name%d\n" % i for i in range(5000))
    assert len(c.read_names(many, "c")) == c.MAX_NAMES
    assert c.read_names(b"HOME\nPATH\nnot-a-name\n", "v", "{") == ["${HOME}", "${PATH}"]
    assert c.read_help(b"cd is a shell builtin\n\x1b[31mred\x1b[0m") == "cd is a shell builtin\n[31mred[0m"
    assert len(c.read_help(b"y" * 100_000)) == c.MAX_HELP
    assert c.read_help(b"\n") is None


def test_inspection_word():
    assert c.inspection_word("ls -l", 1) == "ls"
    assert c.inspection_word("echo hi | grep x", 12) == "grep"
    assert c.inspection_word("[[ -d x ]]", 1) == "[["
    assert c.inspection_word("echo $(x)", 5) is None
