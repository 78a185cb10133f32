dates="2024-03-15 1999-12-31 bad-date"
for d in $dates; do
  if [[ $d =~ ^([0-9]{4})-([0-9]{2})-([0-9]{2})$ ]]; then
    echo "y=${BASH_REMATCH[1]} m=${BASH_REMATCH[2]} d=${BASH_REMATCH[3]}"
  else
    echo "invalid: $d"
  fi
done
re='^[a-z]+@[a-z]+\.[a-z]{2,}$'
for e in a@b.com bad@x "x y@z.org"; do [[ $e =~ $re ]] && echo "ok $e" || echo "no $e"; done
