printf 'A\x42C\n'
