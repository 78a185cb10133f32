cd /tmp && echo $PWD && cd - >/dev/null
