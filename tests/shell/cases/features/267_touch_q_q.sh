touch q1 q2; x=q*; echo $x; echo "$x"
