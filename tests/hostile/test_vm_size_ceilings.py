"""The VM's size is the admin's to bound (red team, item 4's VM counterpart): `%vm config
memory=16G vcpus=16` was accepted from a cell whatever the host. A cell may now choose any
size up to the admin's ceilings (install --max-vm-memory / --max-vm-vcpus; 4G and 4 vCPUs
unless set), and the refusal says how to get more. No VM is booted: the size is checked when
it is configured."""
from __future__ import annotations

import argparse

import pytest

from sandbox_kernel import policy
from sandbox_kernel.sandbox import Sandbox
from sandbox_kernel.vm.engine import VmEngine


def parse(*argv: str) -> policy.Policy:
    parser = argparse.ArgumentParser()
    policy.add_arguments(parser)
    return policy.from_arguments(parser.parse_args(list(argv)))


def test_a_cell_cannot_pass_the_default_ceilings():
    engine = VmEngine(Sandbox())
    text = engine.configure(["memory=16G", "vcpus=16"])
    assert "memory=16384 MB is above this kernel's ceiling of 4096 MB" in text
    assert "install --max-vm-memory" in text
    assert "vcpus=16 is above this kernel's ceiling of 4" in engine.configure(["vcpus=16"])
    assert (engine.config.memory_mb, engine.config.vcpus) == (512, 1)  # nothing applied
    assert engine.configure(["memory=4G", "vcpus=4"]).startswith("vcpus=4 memory=4096 ")
    assert engine.configure(["memory=256", "vcpus=1"]).startswith("vcpus=1 memory=256 ")  # lower again
    assert "ceilings: vcpus=4 memory=4096 MB" in engine.status_text()


def test_the_admin_sets_the_ceilings():
    engine = VmEngine(Sandbox(policy=parse("--max-vm-memory", "16G", "--max-vm-vcpus", "8")))
    assert engine.configure(["memory=16G", "vcpus=8"]).startswith("vcpus=8 memory=16384 ")
    assert "above this kernel's ceiling of 8" in engine.configure(["vcpus=9"])
    small = VmEngine(Sandbox(policy=parse("--max-vm-memory", "256M", "--max-vm-vcpus", "1")))
    assert (small.config.memory_mb, small.config.vcpus) == (256, 1)  # the default fits under them
    args = argparse.ArgumentParser()
    policy.add_arguments(args)
    assert policy.to_argv(args.parse_args(["--max-vm-memory", "8G", "--max-vm-vcpus", "2"])) == [
        "--max-vm-memory", "8G", "--max-vm-vcpus", "2"]


@pytest.mark.parametrize("argv, message", [
    (["--max-vm-memory", "64K"], "--max-vm-memory must be"),
    (["--max-vm-memory", "1T"], "--max-vm-memory must be"),
    (["--max-vm-memory", "lots"], "--max-vm-memory must be"),
    (["--max-vm-vcpus", "0"], "--max-vm-vcpus must be"),
    (["--max-vm-vcpus", "1000"], "--max-vm-vcpus must be"),
])
def test_bad_ceilings_are_refused(argv, message):
    with pytest.raises(ValueError, match=message):
        parse(*argv)
