printf 'b 2\na 1\n' | sort -k2 -n | cut -d' ' -f1
