# pushd/popd/dirs with +N/-N, -n, and their usage errors
mkdir -p a b c; top=$PWD
show() { "$@" > shown 2>/dev/null; echo "$1: $?"; sed "s#$top#T#g" shown; }
show pushd a; show pushd ../b; show pushd ../c; show dirs -v
show pushd +1; show pushd -0; show pushd -n /tmp
show popd +1; show popd -1; show dirs +0; show dirs -1
show dirs +9; show pushd +9; show popd +9; show popd zzz; show popd -z; show pushd . .
show dirs a; show dirs -l a; show dirs -x; show pushd nonexistent
show popd -n; show dirs; show popd; show popd; show popd; show pushd; show pushd -0; show pushd +1
show dirs -p; dirs -c; show dirs
