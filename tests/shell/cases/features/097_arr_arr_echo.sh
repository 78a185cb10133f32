arr=(1 2); arr+=3; echo ${arr[@]}
