echo $(( 09 ))
