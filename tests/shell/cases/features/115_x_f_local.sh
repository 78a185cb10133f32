x=1; f() { local x=2; g; }; g() { echo $x; }; f
