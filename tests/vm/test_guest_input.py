"""Validation at the host/guest boundary (no VM needed): every path, argument, environment entry
and limit is checked before the agent is sent anything, with one error type and a clear message."""
from __future__ import annotations

import asyncio

import pytest

from sandbox_kernel.engine import CancelToken, Streams
from sandbox_kernel.sandbox import Sandbox
from sandbox_kernel.vm import protocol as P
from sandbox_kernel.vm.guestinput import MAX_WORD_BYTES, GuestInputError, check_exec

from .vm_helpers import Recorder


@pytest.mark.parametrize("path, message", [
    ("relative/file", "must be absolute"),
    ("", "must be absolute"),
    ("/workspace/../etc/passwd", "must not contain '..'"),
    ("/..", "must not contain '..'"),
    ("/workspace/a\0b", "NUL"),
    ("/" + "a" * 5000, "longer than 4096"),
    (b"/bytes", "must be a string"),
])
def test_bad_guest_paths(path, message):
    with pytest.raises(GuestInputError, match=message):
        P.check_path(path)


@pytest.mark.parametrize("path", ["/", "/workspace/a..b", "/workspace/.hidden/./x", "/tmp/...", "/workspace/ü"])
def test_good_guest_paths(path):
    assert P.check_path(path) == path.encode()


def ok(**kw):
    base = dict(argv=["/bin/true"], env={"A": "1"}, cwd="/workspace")
    base.update(kw)
    argv, env, cwd = base.pop("argv"), base.pop("env"), base.pop("cwd")
    return check_exec(argv, env, cwd, **base)


@pytest.mark.parametrize("changes, message", [
    (dict(argv=[]), "needs a program"),
    (dict(argv=[""]), "program name .* is empty"),
    (dict(argv=["/bin/echo", "a\0b"]), "NUL"),
    (dict(argv=["/bin/echo", 3]), "must be strings"),
    (dict(argv=["/bin/echo"] * 5000), "too many arguments"),
    (dict(argv=["/bin/echo", "x" * MAX_WORD_BYTES]), "argument 1 is 128 KiB.*MAX_ARG_STRLEN"),
    (dict(argv=["/bin/echo"] + ["x" * 100_000] * 11), "together"),
    (dict(env={"": "x"}), "empty name"),
    (dict(env={"A=B": "x"}), "contains '=' or NUL"),
    (dict(env={"A": "x\0y"}), "NUL"),
    (dict(env={"BIG": "x" * MAX_WORD_BYTES}), "environment variable BIG is 128 KiB"),
    (dict(cwd="workspace"), "must be absolute"),
    (dict(cwd="/workspace/../.."), "'..'"),
    (dict(timeout=float("inf")), "time limit"),
    (dict(timeout=float("nan")), "time limit"),
    (dict(timeout=0), "time limit"),
    (dict(timeout=True), "time limit"),
    (dict(output_limit=-1), "output limit must be"),
    (dict(output_limit=1.5), "whole number"),
    (dict(pids_max=0), "vm_processes must be 1.."),
    (dict(pids_max=10**12), "vm_processes must be"),
    (dict(memory_max=4096), "vm_memory_bytes must be"),
])
def test_bad_exec_requests(changes, message):
    with pytest.raises(GuestInputError, match=message):
        ok(**changes)


def test_a_good_exec_request_passes_unchanged():
    request = ok(timeout=40.0, output_limit=2 << 20, pids_max=1024, memory_max=1 << 30)
    assert (request.argv, request.env, request.cwd, request.timeout, request.pids_max) == (
        ["/bin/true"], {"A": "1"}, "/workspace", 40.0, 1024)
    assert issubclass(GuestInputError, P.ProtocolError)  # the client's own checks raise it too


def run_vm(sandbox: Sandbox, code: str):
    out, err = Recorder(), Recorder()
    result = asyncio.run(sandbox.run("vm", code, Streams(out, err, CancelToken()), sandbox.limits))
    return result, err.text


def test_a_huge_cell_is_refused_before_any_vm_starts():
    sandbox = Sandbox()
    result, err = run_vm(sandbox, "echo " + "x" * 200_000)
    assert result.status == 2 and "argument 2 is 195 KiB" in err and "put long text in a file" in err
    assert sandbox.engine("vm").machine is None and "starting the microVM" not in err


def test_an_infinite_wall_time_is_a_clear_error_not_a_traceback():
    sandbox = Sandbox()
    with pytest.raises(ValueError):  # %limits refuses it already; the engine checks again
        sandbox.limits.set_from_text("wall_time", "inf")
    sandbox.limits.wall_time = float("inf")
    result, err = run_vm(sandbox, "true")
    assert result.status == 2 and "the time limit must be" in err and "Traceback" not in err
    assert sandbox.engine("vm").machine is None
