echo "${!undefined*}" end
