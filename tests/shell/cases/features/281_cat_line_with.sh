cat <<EOF
line with trailing backslash \
continued
EOF
