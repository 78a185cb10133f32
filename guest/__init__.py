"""The %%vm guest recipe (package data) and its build script, ``build.py``."""
