echo -e '\e[0m' | od -c | head -1
