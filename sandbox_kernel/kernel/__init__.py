"""The Jupyter side: the kernel class (kernel.py) and what starts and installs it (launch, app,
install, tour) here; its parts in protocol/ (messages, cells, output), comms/ (the sandbox.vfs and
sandbox.terminal comms) and storage/ (mounts and the persistent workspace)."""
