shopt -s extglob; x="  lead"; echo "[${x##+( )}]"
