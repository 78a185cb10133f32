# the menu layout (on stderr): columns from COLUMNS, tab padding, number widths
greek='alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu'
for cols in unset 80 40 20 200 5 abc 0 -3 ' 60' 33x; do
  echo "== COLUMNS=$cols"
  if [ "$cols" = unset ]; then unset COLUMNS; else COLUMNS=$cols; fi
  select x in $greek; do :; done </dev/null 2>&1
done
COLUMNS=80
echo "== short list stays one column"
select x in a b c; do :; done </dev/null 2>&1
echo "== many items"
select x in $(seq 1 23) a-much-longer-item; do :; done </dev/null 2>&1
echo "== single item"
select x in only; do :; done </dev/null 2>&1
