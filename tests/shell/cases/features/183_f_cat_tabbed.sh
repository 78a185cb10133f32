f() { cat <<-EOF
	tabbed $1
	EOF
}; f arg
