# $_ after an assignment-only command is empty; after declare NAME=(...) it is NAME
: foo; x=1; echo "[$_]"; : foo; x=1 y=2; echo "[$_]"; : foo; x=$(echo hi); echo "[$_]"; : foo; x=1 >/dev/null; echo "[$_]"; : foo; declare -a b=(1 2) c; echo "[$_]"; : foo; export z=(1); echo "[$_]"
: foo; x=$_; echo "[$x]"; : foo; a=(1 2); echo "[$_]"; declare a=(1 2); echo "[$_]"; declare -g d=(1 2); echo "[$_]"; declare s=bar; echo "[$_]"
: foo; a[1]=x; echo "[$_]"; :; for i in 1 2; do j=$i; done; echo "[$_]"; : foo; x=$(echo a) y=$_; echo "[$y]"
