f() { cat; } <<EOF
from heredoc redirect on function call
EOF
f <<< "here"
