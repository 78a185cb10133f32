"""Archives over the VFS: tar (c/x/t, gzip/bzip2/xz via the stdlib), gzip/gunzip/zcat,
zip/unzip. Archives are standard formats: GNU tar, gzip and Info-ZIP read what these write
and vice versa.

Modules, one a format: tar (the command), gzip (gzip, gunzip, zcat), zip (zip, unzip);
common holds what more than one of them uses."""
