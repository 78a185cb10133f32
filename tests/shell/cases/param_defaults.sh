unset a; b=""; c=value
echo "[${a:-default}] [${b:-default}] [${c:-default}]"
echo "[${a-default}] [${b-default}] [${c-default}]"
echo "[${a:+alt}] [${b:+alt}] [${c:+alt}]"
echo "[${a+alt}] [${b+alt}] [${c+alt}]"
echo "${d:=assigned}"; echo "d=$d"
: ${e:=also}; echo "e=$e"
