[ -x /bin/ls ] && echo exec-ls
