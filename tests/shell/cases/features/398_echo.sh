echo $(( 1 + ))
