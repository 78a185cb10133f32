/* sandbox-kernel guest: a minimal `sudo` (see guest/README.md, "Users").
 *
 * Absent by default. `%vm config sudo=on` installs it setuid root as /usr/local/bin/sudo:
 * then it runs COMMAND as root for anyone, without a password, like a NOPASSWD sudoers
 * line (the guest is single-user and `%%vm --root` gives root anyway; this is for scripts
 * that call sudo). Build: gcc -static -Os -o sudo sudo.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int usage(const char *why) {
    if (why) fprintf(stderr, "sudo: %s\n", why);
    fprintf(stderr, "usage: sudo [-E] [-H] [-n] [-u root] [--] COMMAND [ARG]...\n"
                    "(this sudo runs COMMAND as root; nothing else)\n");
    return 1;
}

int main(int argc, char **argv) {
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--")) { i++; break; }
        if (!strcmp(argv[i], "-E") || !strcmp(argv[i], "-H") || !strcmp(argv[i], "-n")) continue;
        if (!strcmp(argv[i], "-u") && i + 1 < argc && (!strcmp(argv[i + 1], "root") || !strcmp(argv[i + 1], "0"))) { i++; continue; }
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return usage(NULL) - 1;
        char why[300]; snprintf(why, sizeof why, "option '%.200s' is not supported", argv[i]);
        return usage(why);
    }
    if (i >= argc) return usage("no command");
    if (setgroups(0, NULL) || setgid(0) || setuid(0)) { perror("sudo"); return 1; }
    setenv("HOME", "/root", 1); setenv("USER", "root", 1); setenv("LOGNAME", "root", 1);
    execvp(argv[i], argv + i);
    int e = errno;
    fprintf(stderr, "sudo: %s: %s\n", argv[i], strerror(e));
    return e == ENOENT ? 127 : 126;
}
