echo 'x=from_source' > v.sh; f() { . ./v.sh; }; f; echo $x
