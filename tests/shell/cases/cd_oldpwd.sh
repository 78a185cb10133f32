mkdir -p a/b
cd a/b && basename "$PWD"
cd - > /dev/null && basename "$PWD" | head -c 0
cd a; cd ..; [ -d a ] && echo back
cd /nonexistent 2>/dev/null || echo "cd failed $?"
cd a/b; cd ../..; [ -d a/b ] && echo up-two
