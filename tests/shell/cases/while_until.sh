i=0
while [ $i -lt 5 ]; do
  i=$((i+1))
  [ $i -eq 3 ] && continue
  echo "i=$i"
done
j=10
until [ $j -le 7 ]; do echo "j=$j"; j=$((j-1)); done
