"""policy.py: the admin's limits and ceilings from the kernel's arguments (secrets, the egress log
and the VM cap: tests/hostile/test_policy_options.py)."""
import pytest


def test_admin_policy_from_kernel_arguments():
    import argparse

    from sandbox_kernel import policy

    def parse(*argv):
        parser = argparse.ArgumentParser()
        policy.add_arguments(parser)
        return policy.from_arguments(parser.parse_args(list(argv)))

    p = parse()
    assert p.limits.wall_time == 600.0 and p.ceilings.wall_time == 86400.0  # notebooks: 10 minutes
    p = parse("--limit", "wall_time=120", "--limit", "vfs_bytes=8G", "--max-limit", "string_bytes=16M")
    assert p.limits.wall_time == 120.0 and p.limits.vfs_bytes == 8 * 1024**3
    assert p.ceilings.vfs_bytes == 8 * 1024**3  # the admin's own default may be asked for
    assert p.limits.string_bytes == p.ceilings.string_bytes == 16 * 1024**2  # a low ceiling lowers the default
    with pytest.raises(ValueError, match="above --max-limit"):
        parse("--limit", "wall_time=120", "--max-limit", "wall_time=60")
    with pytest.raises(ValueError, match="unknown limit"):
        parse("--limit", "walltime=1")
