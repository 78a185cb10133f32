echo "l1 $LINENO"

f() {
  echo "in f $LINENO"
}
f
echo "l7 $LINENO"
