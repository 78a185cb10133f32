# cd checks each `..` against the directory before it; OLDPWD starts exported but unset;
# a new shell without $PWD starts in the physical directory
cd nonexistent_ZZ/..
echo status=$?
mkdir -p d/sub
cd d/sub/..
echo status=$? ${PWD##*/}
cd ..
declare -p OLDPWD | sed 's/=.*//'
env | grep -c '^OLDPWD='
mkdir -p t
ln -s t l
cd l
bash -c 'basename $(pwd)'
unset PWD
bash -c 'basename $(pwd)'
