"""In-memory filesystem of a sandbox."""
from .errors import FSError
from .fs import VFS, Dir, File, FileHandle, DeviceHandle, Stat, Symlink, Device, Fifo, normpath, USER_UID, USER_GID
from .layout import make_vfs

# archives (vfs.tar: tarfile and its compressors) are imported from vfs.tar where they are
# used, not here: every sandbox imports the VFS, few make an archive (tests/test_startup.py)
__all__ = ["FSError", "VFS", "Dir", "File", "FileHandle", "DeviceHandle", "Stat", "Symlink",
           "Device", "Fifo", "normpath", "make_vfs", "USER_UID", "USER_GID"]
