command -v ls
