f() { local arr=("$@"); echo ${#arr[@]} "${arr[1]}"; }; f "x y" z
