mkdir gdir && cd gdir
touch b a C .h _x 1
echo *
echo .*
echo [a-c]
for f in *; do echo "$f"; done | wc -l
