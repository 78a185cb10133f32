echo a > 'file with space.txt'; for f in *.txt; do echo "[$f]"; done
