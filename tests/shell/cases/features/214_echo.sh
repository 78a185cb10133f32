echo ${BASH_VERSINFO[@]:0:2}
