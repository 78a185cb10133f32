"""In-memory filesystem of a sandbox."""
from .errors import FSError
from .fs import VFS, Dir, File, FileHandle, DeviceHandle, Stat, Symlink, Device, normpath, USER_UID, USER_GID
from .layout import make_vfs
from .tar import export_tar, import_tar

__all__ = ["FSError", "VFS", "Dir", "File", "FileHandle", "DeviceHandle", "Stat", "Symlink",
           "Device", "normpath", "make_vfs", "export_tar", "import_tar", "USER_UID", "USER_GID"]
