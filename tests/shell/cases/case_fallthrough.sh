x=b
case $x in
  a) echo a ;;
  b) echo b ;&
  c) echo c ;;
  d) echo d ;;
esac
case $x in
  b) echo first ;;&
  *) echo second ;;
esac
