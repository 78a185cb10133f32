echo "a,b,c" | cut -d, -f2
