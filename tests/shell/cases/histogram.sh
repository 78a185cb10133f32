data=(3 7 1 5 7 2)
max=0
for v in "${data[@]}"; do (( v > max )) && max=$v; done
for ((row=max; row>0; row--)); do
  line=""
  for v in "${data[@]}"; do (( v >= row )) && line+="# " || line+="  "; done
  echo "${line% }"
done | sed 's/ *$//'
