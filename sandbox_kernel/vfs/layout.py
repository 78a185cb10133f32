"""The initial tree of a new sandbox."""
from __future__ import annotations

from collections.abc import Iterable

from .fs import VFS, Dir, File, ROOT_UID, USER_UID

ETC_FILES = {
    "/etc/passwd": b"root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000:Sandbox User:/home/user:/bin/bash\n",
    "/etc/group": b"root:x:0:\nuser:x:1000:\n",
    "/etc/hostname": b"sandbox\n",
    "/etc/hosts": b"127.0.0.1\tlocalhost\n127.0.1.1\tsandbox\n",
    "/etc/os-release": (b'PRETTY_NAME="sandbox_kernel VFS"\nNAME="sandbox"\nID=sandbox\n'
                        b'VERSION_ID="1"\nHOME_URL="https://jupyter.org"\n'),
    "/etc/shells": b"/bin/sh\n/bin/bash\n",
}

#: Content of a /usr/bin entry: the shell recognises it and runs the registered command.
COMMAND_STUB = b"#!/bin/sh\n# sandbox_kernel built-in command\n"


def make_vfs(max_bytes: int, max_inodes: int, commands: Iterable[str] = (), seed: int | None = None) -> VFS:
    fs = VFS(max_bytes=max_bytes, max_inodes=max_inodes, seed=seed)
    for d in ("/usr/bin", "/usr/local/bin", "/usr/lib", "/usr/share", "/etc", "/dev", "/proc", "/var/log", "/root"):
        fs.install_dir_as_root(d, 0o700 if d == "/root" else 0o755)
    fs.install_dir_as_root("/tmp", 0o1777)
    fs.install_dir_as_root("/home", 0o755)  # root's, like any /home; only the user's dir is theirs
    fs.install_dir_as_root("/home/user", 0o755, USER_UID)
    fs.install_dir_as_root("/workspace", 0o755, USER_UID)
    fs.root.entries["bin"] = _symlink(fs, "usr/bin")
    for path, data in ETC_FILES.items():
        fs.install_file_as_root(path, data)
    for kind in ("null", "zero", "random", "urandom"):
        fs.install_device("/dev/" + kind, "random" if kind == "urandom" else kind)
    for n, name in enumerate(("stdin", "stdout", "stderr")):
        fs.install_device("/dev/" + name, f"fd:{n}")
    fs.install_dir_as_root("/dev/fd", 0o755)
    for n in range(3):
        fs.install_device(f"/dev/fd/{n}", f"fd:{n}")
    usr = fs.root.entries["usr"]
    bindir = usr.entries["bin"] if isinstance(usr, Dir) else None
    assert isinstance(bindir, Dir)  # made above
    for name in commands:
        if "/" not in name:
            bindir.entries[name] = File(fs._alloc_ino(), 0o755, ROOT_UID, ROOT_UID, 0.0, COMMAND_STUB)
    return fs


def _symlink(fs: VFS, target: str):
    import time
    from .fs import Symlink
    return Symlink(fs._alloc_ino(), ROOT_UID, ROOT_UID, time.time(), target)
