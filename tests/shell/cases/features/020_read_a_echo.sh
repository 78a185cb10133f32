read a <<< ""; echo "rc=$? [$a]"
