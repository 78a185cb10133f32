"""The Jupyter side: the kernel (protocol hooks), magics, the VFS comm and its client, output
sanitising, install and launch."""
