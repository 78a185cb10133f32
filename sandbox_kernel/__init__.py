"""sandbox_kernel: a Jupyter kernel with a sandboxed Linux-like machine per notebook."""
__version__ = "0.1.0"
