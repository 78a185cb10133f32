x=5; echo $(( x += 1 )); echo $x
