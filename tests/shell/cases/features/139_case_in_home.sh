case "$HOME" in /home/*) echo home;; *) echo other;; esac
