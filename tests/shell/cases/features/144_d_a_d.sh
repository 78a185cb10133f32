[ -d / -a -d /tmp ] && echo dirs
