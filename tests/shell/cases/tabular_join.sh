printf '1 alice\n2 bob\n3 carol\n' > names
printf '1 admin\n3 dev\n' > roles
declare -A role
while read -r id r; do role[$id]=$r; done < roles
while read -r id name; do echo "$name: ${role[$id]:-none}"; done < names
