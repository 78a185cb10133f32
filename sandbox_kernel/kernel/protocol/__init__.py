"""The Jupyter messaging side of the kernel: a cell's magics and its run under supervision
(cells, magics), its output on IOPub (relay, sanitize), messages refused on their raw frames
(message_size). Imports no other part of ``kernel/``."""
