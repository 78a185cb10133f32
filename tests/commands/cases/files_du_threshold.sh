# du -t/--threshold: entries below SIZE left out, or above it with -SIZE; -S keeps files in their directory
mkdir -p a/b; head -c 5000 /dev/zero > a/x; head -c 100 /dev/zero > y; head -c 9000 /dev/zero > a/b/z
du -a -t 4k . | sort -k2; echo "status $?"
du -a -t -4k . | sort -k2
du -b -a --threshold=200 . | sort -k2
du -c -t 8k . | sort -k2
du -S . | sort -k2; du -S -c -b a | sort -k2
for bad in 1x abc '' -0 99999999999999999999999; do du -t "$bad" .; echo "status $?"; done
du --threshold=1x .; echo "status $?"
