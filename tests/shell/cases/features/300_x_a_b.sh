x="a.b.c"; echo ${x//./ }; arr=(${x//./ }); echo ${#arr[@]}
