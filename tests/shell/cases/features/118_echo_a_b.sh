echo "a b" | (read x y; echo $y)
