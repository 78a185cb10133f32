"""Helpers shared by commands (text I/O, file utilities, POSIX regexes, diffs, MIME bundles); nothing here registers a command."""
