for f in *.none; do echo "loop $f"; done
