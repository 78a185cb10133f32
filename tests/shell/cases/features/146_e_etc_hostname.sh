[[ -e /etc/hostname ]] && echo hostfile
