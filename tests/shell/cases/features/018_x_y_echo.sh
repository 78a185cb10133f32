x=1 y=2; echo $x $y; x=3 echo $x
