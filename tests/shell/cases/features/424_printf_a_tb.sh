printf 'a\tb\n' | cut -f1
