"""The kernel's comms: ``sandbox.vfs`` (vfs: the files panel's requests, watches, notices; editors:
``nano FILE`` in the panel's editor) and ``sandbox.terminal`` (terminal, with its line editor
lineedit). Imports ``storage`` (a workspace id's check), never ``protocol``."""
