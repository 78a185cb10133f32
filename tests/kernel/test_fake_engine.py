"""Protocol paths tested with a scripted fake engine (tests/kernel/fake_kernel.py)."""

import pytest

from tests.support.kernelclient import collect, execute, interrupt_after_output, shell_reply, start_kernel, stream_text


@pytest.fixture(scope="module")
def fake():
    with start_kernel("sandbox-fake") as (km, kc):
        yield km, kc


def test_engine_that_ignores_cancellation_still_gets_a_reply(fake):
    km, kc = fake
    reply, messages, elapsed = interrupt_after_output(km, kc, "echo started\nstubborn 60")
    assert reply["status"] == "error" and reply["ename"] == "Interrupted"
    assert elapsed < 6  # grace period, then the task is cancelled
    assert execute(kc, "echo after")[0]["status"] == "ok"


def test_cpu_loop_engine_sees_the_token(fake):
    km, kc = fake
    reply, messages, elapsed = interrupt_after_output(km, kc, "echo started\nspin 60")
    assert reply["ename"] == "Interrupted" and reply["evalue"] == "spin interrupted"
    assert elapsed < 3


def test_output_from_threads_is_complete(fake):
    km, kc = fake
    reply, messages = execute(kc, "threads 20")
    lines = stream_text(messages).splitlines()
    assert sorted(lines) == sorted(f"t{t}-{i}" for t in range(20) for i in range(20))
    assert len(messages) < 20


def test_stdin_input_request_and_eof_without_stdin(fake):
    km, kc = fake
    reply, messages = execute(kc, "input name? ", allow_stdin=False)
    assert stream_text(messages) == "no stdin\n"
    msg_id = kc.execute("input name? ", allow_stdin=True)
    request = kc.get_stdin_msg(timeout=10)
    assert request["msg_type"] == "input_request" and request["content"]["prompt"] == "name?"
    kc.input("Ada")
    messages = collect(kc, msg_id)
    assert shell_reply(kc, msg_id)["content"]["status"] == "ok"
    assert stream_text(messages) == "got 'Ada'\n"


def test_interrupt_while_waiting_for_input(fake):
    km, kc = fake
    msg_id = kc.execute("input wait? ", allow_stdin=True)
    kc.get_stdin_msg(timeout=10)
    km.interrupt_kernel()
    reply = shell_reply(kc, msg_id, 10)["content"]
    collect(kc, msg_id)
    assert reply["status"] == "ok"  # the fake engine treats None as a value
    assert execute(kc, "echo alive")[0]["status"] == "ok"


def test_display_and_ordering(fake):
    km, kc = fake
    reply, messages = execute(kc, "echo before\ndisplay\necho after")
    kinds = [(m["msg_type"], m["content"].get("text")) for m in messages]
    assert kinds == [("stream", "before\n"), ("display_data", None), ("stream", "after\n")]


def test_subshells_are_refused(fake):
    km, kc = fake
    msg = kc.session.msg("create_subshell_request", {})
    kc.control_channel.send(msg)
    reply = kc.control_channel.get_msg(timeout=10)
    assert reply["content"]["status"] == "error"
    assert "not supported" in reply["content"]["evalue"]
    kc.kernel_info()
    info = kc.get_shell_msg(timeout=10)["content"]
    assert "kernel subshells" not in info["supported_features"]
    assert "debugger" not in info["supported_features"]
    assert "subshells are not supported" in info["banner"]
