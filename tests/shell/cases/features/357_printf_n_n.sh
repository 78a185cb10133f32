printf '1\n2\n3\n' | tail -n1
