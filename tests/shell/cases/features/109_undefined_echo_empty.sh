[[ $undefined ]] || echo empty-test
