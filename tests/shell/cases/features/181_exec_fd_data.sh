exec 3<<< "fd3 data"; read -u 3 line; echo "$line"
