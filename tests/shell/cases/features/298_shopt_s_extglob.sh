shopt -s extglob; f="a.txt"; [[ $f == !(*.log) ]] && echo not-log
