mkdir -p proj/src/lib proj/docs proj/tests
touch proj/src/main.c proj/src/lib/util.c proj/docs/README.md proj/tests/test_main.c
find proj -name '*.c' | sort
find proj -type d | sort
for f in proj/src/*.c; do echo "source: $f"; done
