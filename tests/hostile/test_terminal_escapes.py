"""Raw terminal escapes from sandbox code never reach a frontend (red team, degraded
findings): streams were cleaned, but `display -t text/plain` of '\\e]0;TITLE\\a\\e[2J', a JS
exception's message and traceback, a JS cell's value and the `read -p` prompt went out raw,
and jupyter console prints all of them. Colours stay, as in streams."""
from __future__ import annotations

import re

from sandbox_kernel.kernel.protocol.relay import safe_output, terminal_safe

#: what a terminal would act on: any escape but SGR (colours), and other control characters
UNSAFE = re.compile(r"\x1b(?!\[[0-9;:]*m)|[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f]")
PAYLOAD = "\x1b]0;TITLE\x07\x1b[2J\x1b[H\x1b]52;c;cHduZWQ=\x07\x1bP+q\x1b\\\x9b\x07"


def test_whole_texts_keep_colours_only():
    assert terminal_safe(f"{PAYLOAD}\x1b[31mred\x1b[0m\tok\n") == "\x1b[31mred\x1b[0m\tok\n"
    assert "\x1b" not in terminal_safe("cut \x1b]0;TIT")  # an unfinished sequence cannot start


def test_display_bundles_are_cleaned_whatever_the_policy():
    for active in (False, True):
        data, _ = safe_output({"text/plain": PAYLOAD + "text", "text/html": "<b>x</b>"}, {}, active, None)
        assert data == {"text/plain": "text", "text/html": "<b>x</b>"}


def test_the_kernel_sends_no_escape(kc):
    from tests.support.kernelclient import collect, execute, shell_reply

    escaped = PAYLOAD.replace("\\", "\\\\").replace("\x1b", "\\x1b").replace("\x07", "\\x07").replace("\x9b", "\\u009b")
    checks = [
        (f"printf '{escaped}' > t; display -t text/plain t; "
         "printf '\\e[32mgreen\\e[0m\\n' > c; display -t text/plain c",
         "display_data"),
        (f"%%js\nthrow new Error('{escaped}boom')", "error"),
        (f"%%js\n'{escaped}value'", "execute_result"),
    ]
    for code, kind in checks:
        reply, messages = execute(kc, code)
        sent = [m["content"] for m in messages if m["msg_type"] == kind]
        assert sent, (kind, messages)
        for content in sent + ([reply] if kind == "error" else []):
            text = repr(content).encode().decode("unicode_escape")
            assert not UNSAFE.search(text), (kind, content)
        if kind == "display_data":
            assert sent[1]["data"]["text/plain"] == "\x1b[32mgreen\x1b[0m\n"
        if kind == "error":
            assert sent[0]["evalue"] == "boom" and any("boom" in line for line in sent[0]["traceback"])
    msg_id = kc.execute(f"read -p $'{escaped}name? ' who; echo \"[$who]\"", allow_stdin=True)
    request = kc.get_stdin_msg(timeout=10)
    assert request["content"]["prompt"] == "name? "
    kc.input("Ada")
    collect(kc, msg_id)
    assert shell_reply(kc, msg_id)["content"]["status"] == "ok"
