"""Clients of the kernel, for a frontend's side (a script driving a notebook with nbclient, the
tests): vfs (``VfsClient``, ``AsyncVfsClient``: the ``sandbox.vfs`` comm from Python). The
kernel never imports this package."""
