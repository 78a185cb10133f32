id -u >/dev/null && echo id-ok
