echo hello | wc -c
