echo ${PWD:+pwdset}
