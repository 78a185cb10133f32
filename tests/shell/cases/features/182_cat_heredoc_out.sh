cat <<EOF > heredoc_out.txt
written
EOF
cat heredoc_out.txt
