a=(x y z); unset 'a[-1]'; echo "${a[@]}"
