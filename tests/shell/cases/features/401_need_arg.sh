: ${1:?need arg}
