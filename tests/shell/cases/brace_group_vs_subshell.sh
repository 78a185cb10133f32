x=1
{ x=2; }
echo $x
( x=3 )
echo $x
{ echo a; echo b; } | wc -l
