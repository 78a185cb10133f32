mkdir e && cd e && echo * && echo "rc=$?"
