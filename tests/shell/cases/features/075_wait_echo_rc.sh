wait 99999; echo "rc=$?"
