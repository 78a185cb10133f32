[ -f /etc/passwd ] && echo passwd
