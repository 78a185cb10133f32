printf 'x\ny\n' > f
cat -n f
cat f f | wc -l
cat - <<< "from stdin"
