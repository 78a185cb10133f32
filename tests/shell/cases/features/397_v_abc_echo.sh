v=abc; echo ${v:1:1}{x,y}
