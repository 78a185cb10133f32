cat <<EOF
${HOME:+has-home} $((1+1)) \$(not cmd)
EOF
