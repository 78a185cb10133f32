ls /usr/bin | grep -c '^ls$'
