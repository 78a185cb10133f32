# a script whose first line (first two after #!) has a NUL byte, or an ELF header, is refused
# as a binary file (126); NUL bytes further on are dropped, as bash's reader does
printf 'echo one \0 echo two\n' > bin.sh
bash bin.sh; echo "bash=$?"
chmod +x bin.sh; ./bin.sh; echo "exec=$?"
printf '#!/bin/bash\necho hi\n\0echo x\n' > late.sh
bash late.sh; echo "late=$?"
printf '#!/bin/bash\n\0echo hi\n' > second.sh
bash second.sh; echo "second=$?"
printf '\177ELF\1\1' > elf
bash elf; echo "elf=$?"
printf 'echo a\0b\n' > src.sh
bash src.sh; echo "src=$?"
printf 'echo first\necho x\0y\n' > later.sh
. ./later.sh; echo "source=$?"
