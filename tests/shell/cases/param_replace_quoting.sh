# ${x/pat/rep}: the replacement is expanded as an unquoted word even inside double quotes
# (a backslash quotes any character: "${t//./\/}" is a/b/c), and under patsub_replacement
# (bash 5.2's default) an & that was not quoted is the matched text
t=a.b.c
echo "${t//./\/}" ${t//./\/}
echo "${t//./\\}" ${t//./\\}
echo "${t//./\\\\}" ${t//./\\\\}
echo "${t//./\x}" ${t//./\x}
echo "${t/./\&}" ${t/./\&}
echo "${t//./'\'}" ${t//./'\'}
echo "${t//./"\\"}" ${t//./"\\"}
echo "${t//\./x}" ${t//\./x}
echo "${t//[.]/\/}" "${t//./\\/}"
echo "${t//./\$}" ${t//./\$} "${t//./\"}" "${t//./\}}"
p='\/'; echo "${t//./$p}" ${t//./$p}
s='a\b'; echo "${s//\\/\/}" "${s//\\//}" ${s//\\/x} "${s/\\/\\\\}"
echo "${t//./\ }" ${t//./\ } "${t//./\'}"
echo "${t/#a/\/}" "${t/%c/\/}" "${t^^[.]}"
u='a/b'; echo "${u//\//.}" "${u//'/'/.}" "${u//"/"/.}"
r='\&'; echo "${t/./$r}" ${t/./$r} "${t/./"$r"}"
r='\x'; echo "${t/./$r}" ${t/./$r}
r='\\'; echo "${t/./$r}" ${t/./$r}
r='\\&'; echo "${t/./$r}" ${t/./$r}
r='x\'; echo "${t/./$r}" ${t/./$r}
echo "${t/./"\\"}" ${t/./\\\\} "${t/./\\\\}"
echo "${t//[ab]/<&&>}" "${t/#a/[&]}" "${t/%c/[&]}" "${t/#/[&]}"
echo "${t//./'&'}" "${t//./"&"}" ${t//./\&} "${t//./$'&'}"
echo "${t/./$'\\'}" "${t/./x\y}" ${t/./ }
u='a b'; echo "${u/ /\ }" "${u/ /'}'}" "${u/ /"}"}"
a=(x.y z.w); echo "${a[@]/./&&}" "${a[@]//./\/}"
set -- p.q r.s; echo "${@/./[&]}" "${*/./\/}"
x=aaa; echo "${x//a/&b}" "${x/a*/(&)}"
shopt -u patsub_replacement; echo "${t/./[&]}" "${t/./\/}" "${t/./$r}"
