f() { if true; then echo x; fi; for i in 1; do :; done; }; declare -f f
