# [[ =~ ]]: a leading tilde of the pattern expands, and the directory matches literally
HOME=foo
[[ ~ =~ $HOME ]]; echo regex=$?
[[ $HOME =~ ~ ]]; echo regex=$?
HOME='^a$'
[[ ~ =~ $HOME ]]; echo regex=$?
[[ $HOME =~ ~ ]]; echo regex=$?
HOME=/h
[[ /h/x =~ ~/x ]]; echo $?
[[ /root =~ ~root ]]; echo $?
[[ a~ =~ a~ ]]; echo $?
[[ /hb =~ ~b ]]; echo $?
HOME=a.b; [[ axb =~ ~ ]]; echo $?
[[ x =~ ~nosuchuser ]]; echo $?
