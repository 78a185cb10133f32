"""The test suite: one package, importable from the repository's root (pyproject's pytest
``pythonpath``), so shared helpers are ``tests.support.*`` and no test edits sys.path."""
