# $"..." inside arithmetic is a double-quoted string (its quotes removed)
for ((i = "3"; i < "5"; ++i)); do echo $i; done
for ((i = $"3"; i < $"5"; ++i)); do echo $i; done
x=$(( $"3" + 1 )); echo $x
(( y = $"4" )); echo $y
echo $(( "2" * $"3" ))
