f() { local -a arr=(1 2); echo ${arr[1]}; }; f
