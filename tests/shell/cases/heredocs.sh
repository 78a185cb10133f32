name=World
cat <<EOF
Hello, $name!
Today is $(echo Monday).
EOF
cat <<'EOF'
No $expansion here
EOF
cat <<-EOF
	indented with tabs
	second line
	EOF
cat <<< "here string $name"
