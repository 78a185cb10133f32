set -e; a=1; [ $a = 2 ] && echo no; echo "reached despite &&"
