x=$(cat <<EOF
inner heredoc
EOF
); echo "$x"
