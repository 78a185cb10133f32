x=3; y=$((x++ + x++)); echo $x $y
