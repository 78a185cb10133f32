for n in 1 5 10 15; do
  if [ $n -lt 5 ]; then
    echo "$n small"
  elif [ $n -lt 12 ]; then
    echo "$n medium"
  else
    echo "$n large"
  fi
done
