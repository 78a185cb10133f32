s="  x  "; echo "[${s// /}]"
