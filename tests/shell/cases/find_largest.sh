mkdir -p data
printf '%0100d' 0 > data/a
printf '%0300d' 0 > data/b
printf '%050d' 0 > data/c
largest="" size=0
for f in data/*; do
  s=$(wc -c < "$f")
  (( s > size )) && { size=$s; largest=$f; }
done
echo "$largest $size"
