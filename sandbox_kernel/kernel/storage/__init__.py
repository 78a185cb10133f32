"""Host storage: the admin's mounts (mounts), the persistent workspace (store) and its catalog
(workspaces), what a kernel without --persist did not keep (lost_files), and host_files, which
runs them for a kernel. Imports no other part of ``kernel/``."""
