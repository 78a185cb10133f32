# cd's quick path (a directory it may enter) and the rest: errors, -, CDPATH, ..
cd /tmp && rm -rf cdcase && mkdir -p cdcase/a/b && cd cdcase && touch f
cd a/b; echo "$PWD|$OLDPWD" | sed "s|$(cd /tmp && pwd)|T|g"; cd ../..
cd f; echo "file $?"; cd nowhere; echo "missing $?"; cd ""; echo "empty $?"
cd - >/dev/null; echo "dash $?"; cd /tmp/cdcase
CDPATH=/tmp/cdcase; cd a >/dev/null; echo "cdpath $? ${PWD##*/}"; unset CDPATH; cd /tmp/cdcase
cd ./a/../a/b/./ ; echo "${PWD#/tmp/}"; cd /tmp/cdcase
( cd a && echo "sub ${PWD##*/}" ); echo "after ${PWD##*/}"
cd /tmp && rm -rf cdcase
# exactly two leading slashes stay in PWD, as bash keeps them
cd //; echo "$PWD"; cd ///; echo "$PWD"; cd //tmp; echo "$PWD"; mkdir -p cdq; cd cdq; echo "$PWD"; cd ..; echo "$PWD"
cd //tmp/../usr; echo "$PWD"; pwd; cd /tmp; cd //tmp/./cdq/; echo "$PWD"; cd /tmp; rmdir cdq
