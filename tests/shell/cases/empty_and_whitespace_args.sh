f() { echo "$#"; }
f "" ""
f '' a
f $empty
f "$empty"
a=(); f "${a[@]}"
