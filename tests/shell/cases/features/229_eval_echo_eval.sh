eval 'echo $((1+1))'; eval "echo \$HOME" | grep -c /
