"""Helpers shared by commands, one of each: quoting (names in messages), dates, sizes, textio
(text I/O, locale), fsutil (modes, owners, paths), posix_regex, printf (stat/find formats),
versionsort, programs (PATH lookup, running programs), lineblocks, diffcore, mimebundle. Nothing
here registers a command."""
