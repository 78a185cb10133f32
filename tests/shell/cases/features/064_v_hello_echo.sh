v=hello; echo "${v^^[el]}"
