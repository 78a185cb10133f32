# stat formats, chmod modes, du sizes, file types
printf 'hello' > f && mkdir d && ln -s f l && : > empty
stat -c '%n %s %a %A %F %h' f d l empty
stat -c '%N' l f
stat -L -c '%n %F %s' l
stat --printf='%n:%s\n' f d
stat --printf='%n\t%a\n' f
stat -c '%5s|%-5s|%05s|%04a|%%' f
stat nope 2>&1; echo "status=$?"
stat -c '%F' /dev/null
chmod 600 f && stat -c %a f
chmod u+x,g+r f && stat -c %a f
chmod a=r f && stat -c %a f
chmod -w f; stat -c %a f
chmod 755 d && chmod o-rx d && stat -c %a d
chmod +x f && stat -c '%a %A' f
chmod g=u f && stat -c %a f
chmod = f && stat -c %a f
chmod 4755 f && stat -c '%a %A' f
chmod 1777 d && stat -c '%a %A' d
chmod -v 644 f
chmod -c 644 f
chmod zz f 2>&1; echo "status=$?"
chmod 644 2>&1; echo "status=$?"
chmod 644 nope 2>&1; echo "status=$?"
mkdir -p r/s && touch r/s/t && chmod -R 700 r && stat -c '%a %n' r r/s r/s/t
chmod 644 f && chmod --reference=f r/s/t && stat -c %a r/s/t
mkdir -p du/sub && printf '%5000s' x > du/sub/big && printf 'abc' > du/small
du du | sort -k2
du -a du | sort -k2
du -s du
du -sh du
du -c du/sub du/small
du -b du/small du/sub/big
du --max-depth=0 du
du -d 1 du | sort -k2
du nope 2>&1; echo "status=$?"
printf '#!/bin/sh\necho hi\n' > script.sh
printf 'plain text\n' > text.txt
printf '{"a": [1, 2]}\n' > data.json
printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x20\x08\x06\0\0\0' > img.png
printf 'GIF89a\x02\0\x03\0' > img.gif
printf 'a\r\nb\r\n' > dos.txt
printf 'caf\xc3\xa9\n' > utf8.txt
file f d l empty script.sh text.txt data.json img.png img.gif dos.txt utf8.txt
file -b text.txt; file -i text.txt; file --mime-type img.png
file nope; echo "status=$?"
