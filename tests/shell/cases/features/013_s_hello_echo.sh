s=hello; echo ${s/l*/X} ${s/*l/X} ${s//?/.}
