# type/command/hash: every PATH hit in order, relative entries kept, exec-only, the hash cache
mkdir -p one two d/cat
printf 'echo one\n' > one/mycmd; printf 'echo two\n' > two/mycmd; chmod +x one/mycmd two/mycmd
touch two/plain
PATH="two:one:/bin:d:$PATH"
type -a mycmd; type -P mycmd; command -v mycmd
type -a -P pwd > pwds; head -2 pwds
type -t plain; command -v plain; type -a plain; echo "type -a plain: $?"
plain; echo "plain: $?"
type -P d/cat; echo "dir: $?"
command -v one/mycmd two/plain; echo "slash: $?"
mycmd
rm two/mycmd
mycmd; echo "cached gone: $?"
hash
hash -t mycmd
type mycmd
hash -r; mycmd; hash
hash -d mycmd; hash; hash -d mycmd; echo "hash -d: $?"
hash -p /bin/ls zz; hash -t zz; hash -l
PATH="two:one:/bin:$PATH"; hash
command -p ls /dev/null; command -pv ls; command -pV ls
PATH=one command -v mycmd
f() { echo function; }
command -v f echo if nosuchcmd; echo "command -v: $?"
type -t f echo if nosuchcmd; echo "type -t: $?"
mkdir -p src; echo 'echo sourced from PATH' > src/lib.sh; echo 'echo sourced from cwd' > lib.sh
PATH="src:$PATH"; . lib.sh
