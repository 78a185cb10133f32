# many small files, find, wc
mkdir -p proj/src proj/docs
for i in $(seq 1 300); do
  echo "line $i" > "proj/src/f$i.c"
  echo "doc $i" > "proj/docs/d$i.md"
done
find proj -name '*.c' | wc -l
cat proj/src/*.c | wc -l
rm -r proj
echo ok
