echo $((  ))
