attempt=0
try_op() { (( ++attempt >= 3 )); }
until try_op; do
  echo "attempt $attempt failed"
done
echo "succeeded after $attempt"
