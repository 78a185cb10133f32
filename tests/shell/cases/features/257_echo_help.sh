echo --help
