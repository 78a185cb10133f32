x=$(trap 'echo cmdsub-exit' EXIT; echo val); echo "[$x]"
