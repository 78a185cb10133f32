str="abc"; [[ ${str:0:1} == a ]] && echo starts
