# a here-document redirection inside an alias's value reads its body from the input after the
# line the alias is used on; the rest of the value runs as commands
shopt -s expand_aliases
alias c='cat <<EOF
$(echo hi)
EOF
'
c
body from the input
EOF
echo "status $?"
alias d='cat <<END'
d
from the input
END
echo "after d"
alias e='cat <<END; echo in-alias'
e; echo same-line
body line
END
echo done
