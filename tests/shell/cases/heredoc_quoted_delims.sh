cat <<"END"
$HOME `date` \n
END
cat << END
  leading spaces kept $((1+1))
END
x=1; cat <<EOF | tr a-z A-Z
lower $x
EOF
