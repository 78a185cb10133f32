# an error a lookup notices (a bad array subscript) is said where bash says it, once, and under
# errexit ends the shell wherever it is (bash's report_error), in any context
a=(1)
( set -e; if echo ${a[-5]}; then echo then; fi; echo end $? ); echo "rc=$?"
( set -e; echo ${a[-5]} || true; echo end $? ); echo "rc=$?"
( set -e; f() { echo ${a[-5]}; echo inf; }; f; echo end ); echo "rc=$?"
( set -e; x=$(echo ${a[-5]}; echo incs); echo end $? $x ); echo "rc=$?"
( set -e; shopt -s inherit_errexit; x=$(echo ${a[-5]}; echo incs); echo end $? $x ); echo "rc=$?"
( set -e; [[ ${a[-5]} ]]; echo end $? ); echo "rc=$?"
( set -e; (( a[-5] )); echo end $? ); echo "rc=$?"
( set -e; b=${a[-5]}x; echo end $? ); echo "rc=$?"
( set -e; for v in ${a[-5]} q; do echo $v; done; echo end ); echo "rc=$?"
( set -e; case x in ${a[-5]}|l*) echo m;; *) echo n;; esac; echo end $? ); echo "rc=$?"
( set -e; let "x=a[-5]"; echo end $? ); echo "rc=$?"
( set -e; trap "echo ERR" ERR; let "x=a[-5]"; echo end $? ); echo "rc=$?"
( trap "echo ERR" ERR; let "x=a[-5]"; echo end $? ); echo "rc=$?"
let "x=a[-5]" || echo or
case ${y} in ${a[-5]}|l*) for v in $(echo c); do echo "body $v"; done; (echo sub);; esac
echo ${a[-5]} $(echo c)
