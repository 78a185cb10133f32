v=hello; case $v in h*o) echo ho;; esac
