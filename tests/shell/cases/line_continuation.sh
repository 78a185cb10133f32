echo one \
  two \
  three
x="long\
string"; echo "$x"
ls /nonexistent 2>/dev/null \
  || echo "continued or"
