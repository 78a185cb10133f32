mkdir -p s1/s2
(cd s1/s2 && echo "in ${PWD##*/}")
echo "back in ${PWD##*/}" | grep -c back
out=$(cd s1; ls)
echo "listing: $out"
