"""kernel/protocol/relay.py: stream coalescing (at most one message per stream per 50 ms, order
kept, split UTF-8 whole, thread safe) and the terminal text it lets through."""
import threading
import time

import pytest

from sandbox_kernel.kernel.protocol.relay import StreamRelay


class Recorder:
    def __init__(self):
        self.messages = []
        self.lock = threading.Lock()

    def __call__(self, name, text):
        with self.lock:
            self.messages.append((time.monotonic(), name, text))


def test_relay_coalesces_a_flood_of_lines():
    rec = Recorder()
    relay = StreamRelay(rec)
    started = time.monotonic()
    n = 0
    while time.monotonic() - started < 0.5:
        relay.write("stdout", b"line %d\n" % n)
        n += 1
    relay.close()
    text = "".join(t for _, _, t in rec.messages)
    assert text == "".join("line %d\n" % i for i in range(n))
    assert n > 1000
    # at most one flush per 50 ms (+ the immediate first one and the final one)
    assert len(rec.messages) <= 0.5 / 0.05 + 3


def test_relay_keeps_order_between_stdout_and_stderr():
    rec = Recorder()
    relay = StreamRelay(rec)
    for i in range(200):
        relay.write("stdout", b"o%d\n" % i)
        relay.write("stderr", b"e%d\n" % i)
    relay.close()
    merged = "".join(t for _, _, t in rec.messages)
    assert merged == "".join("o%d\ne%d\n" % (i, i) for i in range(200))
    for _, name, text in rec.messages:
        assert text[0] == ("o" if name == "stdout" else "e")


def test_relay_sends_trailing_output_without_more_writes():
    rec = Recorder()
    relay = StreamRelay(rec)
    relay.write("stdout", b"a")
    relay.write("stdout", b"b")  # within the interval: held for the flusher thread
    time.sleep(0.3)
    assert "".join(t for _, _, t in rec.messages) == "ab"
    relay.close()


def test_relay_keeps_split_utf8_sequences_whole():
    rec = Recorder()
    relay = StreamRelay(rec)
    data = "héllo → wörld\n".encode()
    for i in range(len(data)):
        relay.write("stdout", data[i:i + 1])
        time.sleep(0.002)
    relay.close()
    assert "".join(t for _, _, t in rec.messages) == "héllo → wörld\n"


def test_relay_is_thread_safe():
    rec = Recorder()
    relay = StreamRelay(rec)

    def writer(tag):
        for i in range(500):
            relay.write("stdout", f"{tag}{i};".encode())

    threads = [threading.Thread(target=writer, args=(t,)) for t in "abcd"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    relay.close()
    parts = "".join(t for _, _, t in rec.messages).split(";")[:-1]
    assert sorted(parts) == sorted(f"{t}{i}" for t in "abcd" for i in range(500))


@pytest.mark.parametrize("raw, shown", [
    ("plain \x1b[1;31mred\x1b[0m\r\n", "plain \x1b[1;31mred\x1b[0m\r\n"),      # colours stay
    ("\x1b]0;Fake title\x07after", "after"),                                   # window title
    ("\x1b]52;c;cm0gLXJmIH4=\x07", ""),                                        # clipboard write
    ("\x1b]8;;http://evil\x1b\\looks safe\x1b]8;;\x1b\\", "looks safe"),     # hidden hyperlink
    ("real\x1b[1A\x1b[2K\x1b[1Gfake", "realfake"),                            # rewriting earlier lines
    ("\x9b2J\x1bc\x1bP+q\x1b\\x", "2Jx"),                                      # C1 CSI, reset, DCS
    ("nul\x00 bell\x07 tab\t back\b", "nul bell tab\t back\b"),
])
def test_stream_text_keeps_only_what_renders_as_text(raw, shown):
    """Red team: raw terminal escapes from sandbox code passed through (spoofing jupyter console)."""
    from sandbox_kernel.kernel.protocol.relay import TerminalText

    assert TerminalText().clean(raw, final=True) == shown


def test_a_sequence_split_between_writes_is_held():
    sent = []
    relay = StreamRelay(lambda name, text: sent.append(text), interval=0)
    for part in (b"ok \x1b[3", b"2mgreen\x1b]0;ti", b"tle\x07 done"):
        relay.write("stdout", part)
        relay.flush()
    relay.close()
    assert "".join(sent) == "ok \x1b[32mgreen done"
