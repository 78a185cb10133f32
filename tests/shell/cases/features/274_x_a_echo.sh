x="  a  "; echo [${x}] ["${x}"]
