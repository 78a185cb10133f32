/* sandbox-kernel guest agent: PID 1's successor in the microVM (see guest/README.md).
 *
 * Speaks the framed protocol of guest/README.md over the virtio-serial port named
 * "agent": many requests at once (each has an id), exec output streamed as it happens,
 * file operations in <= 1 MiB chunks. Every request is validated; a malformed frame gets
 * an ERROR reply and the agent keeps serving. Build: gcc -static -Os -o vm-agent agent.c
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/random.h>
#include <netinet/in.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/fsuid.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAGIC0 'V'
#define MAGIC1 'M'
#define VERSION 2
#define HDR 12
#define MAX_PAYLOAD ((1u << 20) + 65536u)
#define CHUNK (1u << 20)
#define MAX_PATH 4096
#define MAX_ARGS 4096
#define MAX_PROCS 64
#define STDIN_PENDING_MAX (4u << 20)
#define STREAM_WINDOW (1u << 20)     /* bytes a connection may send before the host grants more (CREDIT) */
#define EXIT_GRACE_MS 150
#define STDIN_SCAN_MS 40            /* how often a demand-driven stdin looks for a waiting reader */
#define CGROUP_ROOT "/sys/fs/cgroup"
#define MEMORY_RESERVE (64ull << 20) /* kept back from every exec for the kernel and the agent */
#define MAX_STALE_CGROUPS 256
#define MAX_CGROUP_PIDS 4096         /* processes of one command looked at (signals, stdin) */
#define HOUSEKEEPING_IDLE_MS 20      /* idle time after which cgroups are made and removed */
#define AGENT_NICE -10               /* the agent answers even while a command floods the CPU */
#define MAX_KEPT 64                  /* cgroups of commands that kept their daemons, watched */
#define LIST_DEPTH 256               /* directory levels a LIST descends; deeper ones are marked */

enum { R_HELLO = 1, R_EXEC, R_STDIN, R_SIGNAL, R_READ, R_WRITE, R_LIST, R_STAT, R_MKDIR,
       R_REMOVE, R_SYNC, R_SHUTDOWN, R_RESIZE, R_CONNECT, R_LISTEN, R_CREDIT };
enum { A_READY = 64, A_PONG, A_STDOUT, A_STDERR, A_EXIT, A_DATA, A_ENTRIES, A_OK, A_ERROR,
       A_STDIN_ACK, A_ACCEPT, A_STDIN_WANTED };
enum { T_PATH = 1, T_ARG, T_ENV, T_CWD, T_DATA, T_OFFSET, T_LENGTH, T_TIMEOUT_MS,
       T_OUTPUT_LIMIT, T_SIGNAL, T_FLAGS, T_MODE, T_MTIME_NS, T_TIME_NS, T_SEED, T_ERRNO,
       T_MESSAGE, T_EXIT_KIND, T_EXIT_CODE, T_NAME, T_SIZE, T_TYPE, T_TARGET, T_VERSION,
       T_UPTIME_NS, T_PID, T_PORT, T_ROWS, T_COLS, T_PIDS_MAX, T_MEMORY_MAX, T_OOM_KILLS,
       T_FORKS_REFUSED, T_UID, T_GID };
enum { KIND_EXITED = 1, KIND_SIGNALED, KIND_TIMED_OUT, KIND_OUTPUT_LIMIT };
enum { TY_FILE = 1, TY_DIR, TY_SYMLINK, TY_OTHER };
/* exec flags */
#define XF_STDIN 1u
#define XF_PTY 2u
#define XF_STDIN_DEMAND 4u  /* stdin is a pipe fed on request: STDIN_WANTED when a reader waits */
#define XF_KEEP 8u          /* its processes may outlive it; else its cgroup is killed at its end */
/* signal flags */
#define SF_WHOLE_COMMAND 1u  /* every process of the command, and none may outlive it */
/* write flags */
#define WF_CREATE 1u
#define WF_TRUNCATE 2u
#define WF_PARENTS 4u
/* list / mkdir / remove flags */
#define LF_RECURSIVE 1u
/* credit flags */
#define CF_CLOSE 1u         /* the host is done with the connection: close it */

static int port = -1;

/* ------------------------------------------------------------------ output framing */
static void write_all(int fd, const void *buf, size_t n) {
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) { struct pollfd f = { fd, POLLOUT, 0 }; poll(&f, 1, 100); continue; }
            return;
        }
        p += w; n -= (size_t)w;
    }
}

static void put32(unsigned char *b, uint32_t v) { b[0] = v >> 24; b[1] = v >> 16; b[2] = v >> 8; b[3] = v; }
static uint32_t get32(const unsigned char *b) { return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]; }

static void send_frame(uint8_t type, uint32_t id, const void *payload, uint32_t n) {
    unsigned char h[HDR] = { MAGIC0, MAGIC1, VERSION, type };
    put32(h + 4, id); put32(h + 8, n);
    write_all(port, h, HDR);
    if (n) write_all(port, payload, n);
}

/* a growable TLV builder for replies */
struct out { unsigned char *b; size_t n, cap; };
static void out_raw(struct out *o, const void *p, size_t n) {
    if (o->n + n > o->cap) { o->cap = (o->n + n) * 2 + 256; o->b = realloc(o->b, o->cap); }
    memcpy(o->b + o->n, p, n); o->n += n;
}
static void out_field(struct out *o, uint16_t tag, const void *p, uint32_t n) {
    unsigned char h[6] = { tag >> 8, tag & 255 }; put32(h + 2, n);
    out_raw(o, h, 6); if (n) out_raw(o, p, n);
}
static void out_u64(struct out *o, uint16_t tag, uint64_t v) {
    unsigned char b[8]; put32(b, v >> 32); put32(b + 4, (uint32_t)v); out_field(o, tag, b, 8);
}
static void out_str(struct out *o, uint16_t tag, const char *s) { out_field(o, tag, s, strlen(s)); }

static void send_error(uint32_t id, int err, const char *fmt, ...) {
    char msg[512]; va_list ap; va_start(ap, fmt); vsnprintf(msg, sizeof msg, fmt, ap); va_end(ap);
    struct out o = { 0 };
    out_u64(&o, T_ERRNO, (uint64_t)err); out_str(&o, T_MESSAGE, msg);
    send_frame(A_ERROR, id, o.b, o.n); free(o.b);
}
static void send_ok(uint32_t id) { send_frame(A_OK, id, NULL, 0); }

/* ------------------------------------------------------------------ request parsing */
struct req {
    const char *path, *cwd; uint32_t path_n, cwd_n;
    const unsigned char *data; uint32_t data_n; int has_data;
    uint64_t offset, length, timeout_ms, output_limit, flags, mode, mtime_ns, time_ns, sig, port, rows, cols;
    uint64_t pids_max, memory_max, uid, gid;
    int has_mode, has_mtime, has_time, has_length, has_sig, has_port, has_user;
    const unsigned char *seed; uint32_t seed_n;
    char *args[MAX_ARGS + 1]; int nargs;
    char *envs[MAX_ARGS + 1]; int nenvs;
};

static uint64_t get64(const unsigned char *b) { return (uint64_t)get32(b) << 32 | get32(b + 4); }

/* Fields are copied into NUL-terminated strings where they are used as C strings; a value
 * holding a NUL is rejected (it would silently truncate a path or an argument). */
static char *dup_cstr(const unsigned char *p, uint32_t n) {
    if (memchr(p, 0, n)) return NULL;
    char *s = malloc(n + 1); memcpy(s, p, n); s[n] = 0; return s;
}

static void free_req(struct req *r) {
    for (int i = 0; i < r->nargs; i++) free(r->args[i]);
    for (int i = 0; i < r->nenvs; i++) free(r->envs[i]);
    free((char *)r->path); free((char *)r->cwd);
}

/* returns NULL on success, else a message */
static const char *parse_req(const unsigned char *p, uint32_t n, struct req *r) {
    memset(r, 0, sizeof *r);
    uint32_t off = 0;
    while (off < n) {
        if (n - off < 6) return "truncated field header";
        uint16_t tag = (uint16_t)(p[off] << 8 | p[off + 1]);
        uint32_t len = get32(p + off + 2);
        off += 6;
        if (len > n - off) return "field length exceeds frame";
        const unsigned char *v = p + off;
        off += len;
        int is64 = tag == T_OFFSET || tag == T_LENGTH || tag == T_TIMEOUT_MS || tag == T_OUTPUT_LIMIT ||
                   tag == T_FLAGS || tag == T_MODE || tag == T_MTIME_NS || tag == T_TIME_NS || tag == T_SIGNAL ||
                   tag == T_PORT || tag == T_ROWS || tag == T_COLS || tag == T_PIDS_MAX || tag == T_MEMORY_MAX ||
                   tag == T_UID || tag == T_GID;
        if (is64 && len != 8) return "integer field must be 8 bytes";
        switch (tag) {
        case T_PATH: case T_CWD: {
            if (len == 0 || len > MAX_PATH) return "path length out of range";
            if (v[0] != '/') return "path must be absolute";
            char *s = dup_cstr(v, len); if (!s) return "path contains NUL";
            if (tag == T_PATH) { free((char *)r->path); r->path = s; r->path_n = len; }
            else { free((char *)r->cwd); r->cwd = s; r->cwd_n = len; }
            break; }
        case T_ARG: case T_ENV: {
            char *s = dup_cstr(v, len); if (!s) return "argument contains NUL";
            if (tag == T_ARG) { if (r->nargs >= MAX_ARGS) { free(s); return "too many arguments"; } r->args[r->nargs++] = s; }
            else {
                if (!strchr(s, '=') || s[0] == '=') { free(s); return "environment entry must be NAME=VALUE"; }
                if (r->nenvs >= MAX_ARGS) { free(s); return "too many environment entries"; }
                r->envs[r->nenvs++] = s;
            }
            break; }
        case T_DATA: r->data = v; r->data_n = len; r->has_data = 1; break;
        case T_SEED: r->seed = v; r->seed_n = len; break;
        case T_OFFSET: r->offset = get64(v); break;
        case T_LENGTH: r->length = get64(v); r->has_length = 1; break;
        case T_TIMEOUT_MS: r->timeout_ms = get64(v); break;
        case T_OUTPUT_LIMIT: r->output_limit = get64(v); break;
        case T_FLAGS: r->flags = get64(v); break;
        case T_MODE: r->mode = get64(v); r->has_mode = 1; break;
        case T_MTIME_NS: r->mtime_ns = get64(v); r->has_mtime = 1; break;
        case T_TIME_NS: r->time_ns = get64(v); r->has_time = 1; break;
        case T_SIGNAL: r->sig = get64(v); r->has_sig = 1; break;
        case T_PORT: r->port = get64(v); r->has_port = 1; break;
        case T_ROWS: r->rows = get64(v); break;
        case T_COLS: r->cols = get64(v); break;
        case T_PIDS_MAX: r->pids_max = get64(v); break;
        case T_MEMORY_MAX: r->memory_max = get64(v); break;
        case T_UID: r->uid = get64(v); r->has_user |= 1; break;
        case T_GID: r->gid = get64(v); r->has_user |= 2; break;
        default: return "unknown field";
        }
    }
    if (r->has_user && (r->has_user != 3 || r->uid >= 1u << 31 || r->gid >= 1u << 31)) return "UID and GID go together, each below 2^31";
    r->args[r->nargs] = NULL; r->envs[r->nenvs] = NULL;
    return NULL;
}

/* ------------------------------------------------------------------ processes */
struct proc {
    uint32_t id; pid_t pid; int used;
    int in, out, err;               /* -1 when closed; a PTY or socket has in = dup(out) */
    int is_socket;
    uint64_t credit;                /* a connection: bytes the host still takes (CREDIT refills) */
    unsigned char *pending; size_t pending_n; int stdin_eof;
    uint64_t sent, limit; int limit_hit, timed_out;
    int64_t deadline_ms;            /* 0 = none */
    int exited; int status; int64_t exit_ms;
    char *cgroup;                   /* its own cgroup directory, or NULL without cgroups */
    int demand, wanted;             /* stdin on request; STDIN_WANTED sent and not yet answered */
    int stop_all;                   /* stopped as a whole: nothing of it may outlive the leader */
    int keep;                       /* XF_KEEP: its daemons may outlive it */
    uint64_t oom_base, forks_base;  /* the cgroup's counters at the start (cgroups are reused) */
    uint64_t cg_mem, cg_pids;       /* the limits its cgroup has */
    ino_t stdin_ino; int64_t next_scan_ms;
};
static struct proc procs[MAX_PROCS];

static int64_t now_ms(void) {
    struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct proc *proc_by_id(uint32_t id) {
    for (int i = 0; i < MAX_PROCS; i++) if (procs[i].used && procs[i].id == id) return &procs[i];
    return NULL;
}

static void close_fd(int *fd) { if (*fd >= 0) { close(*fd); *fd = -1; } }

/* ------------------------------------------------------------------ cgroups
 * Each exec runs in a cgroup of its own under the root: pids.max stops fork bombs,
 * memory.max makes the OOM killer pick inside the command, never starve the guest, and
 * cgroup.kill reaches processes that left the process group (setsid daemons). */
static int cgroups_ok;
static uint32_t cgroup_serial;
static char *stale_cgroups[MAX_STALE_CGROUPS];
/* Making and removing a cgroup costs milliseconds under TCG: both happen when the agent is
 * idle (a spare is made ahead, empty ones are removed later), never between request and reply. */
static char *spare_cgroup;
/* what the spare already has (a reused one): limits written and counters, so an exec that
 * wants the same limits does no cgroup file I/O at start */
static uint64_t spare_mem, spare_pids, spare_oom, spare_forks;
static int housekeeping_due;

static int write_text(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    int e = errno; close(fd); errno = e;
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

static void cgroups_init(void) {
    mkdir(CGROUP_ROOT, 0755);
    /* favordynmods: moving a process into a cgroup skips an RCU grace period (4 ms -> 1 ms) */
    unsigned long flags = MS_NOSUID | MS_NODEV | MS_NOEXEC;
    if (mount("cgroup2", CGROUP_ROOT, "cgroup2", flags, "favordynmods") &&
        mount("cgroup2", CGROUP_ROOT, "cgroup2", flags, NULL) && errno != EBUSY) return;
    cgroups_ok = write_text(CGROUP_ROOT "/cgroup.subtree_control", "+memory +pids") == 0;
    /* with the cpu controller a command's processes share one scheduling weight: a fork
     * bomb is one contender against the agent, not a thousand */
    if (cgroups_ok) write_text(CGROUP_ROOT "/cgroup.subtree_control", "+cpu");
    housekeeping_due = cgroups_ok;
}

static char *new_cgroup(void) {
    char *dir = malloc(64);
    snprintf(dir, 64, CGROUP_ROOT "/exec-%u", ++cgroup_serial);
    if (mkdir(dir, 0755)) { free(dir); return NULL; }
    return dir;
}

static uint64_t cgroup_counter(const char *dir, const char *file, const char *key) {
    char path[256], buf[1024]; snprintf(path, sizeof path, "%s/%s", dir, file);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1); close(fd);
    if (n <= 0) return 0;
    buf[n] = 0;
    size_t k = strlen(key);
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (!strncmp(line, key, k) && line[k] == ' ') return strtoull(line + k + 1, NULL, 10);
    return 0;
}

/* the processes in a cgroup (at most max) */
static int cgroup_pids(const char *dir, pid_t *pids, int max) {
    char path[128], buf[MAX_CGROUP_PIDS * 8];
    snprintf(path, sizeof path, "%s/cgroup.procs", dir);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1); close(fd);
    if (n <= 0) return 0;
    buf[n] = 0;
    int count = 0;
    for (char *s = buf; *s && count < max; ) {
        char *end; long pid = strtol(s, &end, 10);
        if (end == s) break;
        pids[count++] = (pid_t)pid;
        s = end; while (*s == '\n') s++;
    }
    return count;
}

/* every process in the cgroup, also those that left their process group */
static void kill_cgroup(const char *dir) {
    char path[128]; snprintf(path, sizeof path, "%s/cgroup.kill", dir);
    write_text(path, "1");
}

/* removed when the agent is idle; one still holding background processes once they are gone */
static void remove_cgroup(char *dir) {
    if (!dir) return;
    housekeeping_due = 1;
    for (int i = 0; i < MAX_STALE_CGROUPS; i++) if (!stale_cgroups[i]) { stale_cgroups[i] = dir; return; }
    rmdir(dir);  /* list full: now, or never */
    free(dir);
}

static void cgroup_housekeeping(void) {
    housekeeping_due = 0;
    for (int i = 0; i < MAX_STALE_CGROUPS; i++)
        if (stale_cgroups[i] && (rmdir(stale_cgroups[i]) == 0 || errno == ENOENT)) { free(stale_cgroups[i]); stale_cgroups[i] = NULL; }
    if (cgroups_ok && !spare_cgroup) {
        spare_cgroup = new_cgroup();
        spare_mem = spare_pids = spare_oom = spare_forks = 0;  /* fresh: kernel defaults */
    }
}

/* The cgroup for a new exec (the spare, or a new one) with its limits set; NULL without
 * cgroups. *dir_fd is an open directory for clone3's CLONE_INTO_CGROUP. */
static char *make_cgroup(struct req *r, int *dir_fd, uint64_t *oom_base, uint64_t *forks_base,
                         uint64_t *mem_set, uint64_t *pids_set) {
    *dir_fd = -1; *oom_base = *forks_base = *mem_set = *pids_set = 0;
    if (!cgroups_ok) return NULL;
    char *dir = spare_cgroup, path[128], value[32];
    uint64_t had_mem = spare_mem, had_pids = spare_pids;
    *oom_base = spare_oom; *forks_base = spare_forks;
    if (!dir) { dir = new_cgroup(); had_mem = had_pids = 0; *oom_base = *forks_base = 0; }
    spare_cgroup = NULL;
    housekeeping_due = 1;
    if (!dir) return NULL;
    static uint64_t total_ram;
    if (!total_ram) { struct sysinfo si; if (sysinfo(&si) == 0) total_ram = (uint64_t)si.totalram * si.mem_unit; }
    uint64_t cap = total_ram > 2 * MEMORY_RESERVE ? total_ram - MEMORY_RESERVE : total_ram / 2;
    uint64_t mem = r->memory_max && r->memory_max < cap ? r->memory_max : cap;
    uint64_t pids = r->pids_max ? r->pids_max : UINT64_MAX;
    if (mem && mem != had_mem) {
        snprintf(path, sizeof path, "%s/memory.max", dir); snprintf(value, sizeof value, "%llu", (unsigned long long)mem);
        write_text(path, value);
    }
    if (pids != had_pids) {
        snprintf(path, sizeof path, "%s/pids.max", dir);
        if (r->pids_max) snprintf(value, sizeof value, "%llu", (unsigned long long)r->pids_max);
        else strcpy(value, "max");
        write_text(path, value);
    }
    *mem_set = mem ? mem : had_mem; *pids_set = pids;  /* kept for when it is the spare again */
    *dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (*dir_fd < 0) { rmdir(dir); free(dir); return NULL; }
    return dir;
}

static int cgroup_populated(const char *dir) {
    return cgroup_counter(dir, "cgroup.events", "populated") != 0;
}

/* cgroups of commands whose daemons were kept (XF_KEEP): while one is populated, /dev/shm
 * may be theirs and is left alone */
static char *kept_cgroups[MAX_KEPT];
static uint64_t kept_forks[MAX_KEPT];  /* refused forks when it was kept */

static void keep_cgroup(const char *dir, uint64_t forks) {
    for (int i = 0; i < MAX_KEPT; i++)
        if (!kept_cgroups[i]) { kept_cgroups[i] = strdup(dir); kept_forks[i] = forks; return; }
}

/* kept processes that ran into their process limit since are a fork bomb, not a server */
static void kill_kept_bombs(void) {
    for (int i = 0; i < MAX_KEPT; i++)
        if (kept_cgroups[i] && cgroup_counter(kept_cgroups[i], "pids.events", "max") > kept_forks[i])
            kill_cgroup(kept_cgroups[i]);
}

static int daemons_alive(void) {
    int alive = 0;
    for (int i = 0; i < MAX_KEPT; i++) {
        if (!kept_cgroups[i]) continue;
        if (cgroup_populated(kept_cgroups[i])) alive = 1;
        else { free(kept_cgroups[i]); kept_cgroups[i] = NULL; }
    }
    return alive;
}

static int remove_tree(const char *path);

/* /dev/shm is guest memory that would outlive the command that filled it: emptied when no
 * command runs and no kept daemon might use it */
static void clear_shm_when_idle(void) {
    for (int i = 0; i < MAX_PROCS; i++) if (procs[i].used && !procs[i].is_socket) return;
    if (daemons_alive()) return;
    DIR *d = opendir("/dev/shm");
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char full[300]; snprintf(full, sizeof full, "/dev/shm/%s", e->d_name);
        remove_tree(full);
    }
    closedir(d);
}

/* fork() straight into the cgroup (clone3 CLONE_INTO_CGROUP: no migration afterwards, which
 * costs a millisecond under TCG); *placed says whether that worked */
struct clone3_args { uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls,
                     set_tid, set_tid_size, cgroup; };
#define CLONE_INTO_CGROUP_FLAG 0x200000000ULL

static pid_t fork_into(int dir_fd, int *placed) {
    *placed = 0;
    if (dir_fd >= 0) {
        struct clone3_args args; memset(&args, 0, sizeof args);
        args.flags = CLONE_INTO_CGROUP_FLAG; args.exit_signal = SIGCHLD; args.cgroup = (uint64_t)dir_fd;
        long pid = syscall(SYS_clone3, &args, sizeof args);
        if (pid >= 0) { *placed = 1; return (pid_t)pid; }
        if (errno != ENOSYS && errno != EINVAL && errno != E2BIG && errno != EOPNOTSUPP) return -1;
    }
    return fork();
}

static void kill_group(struct proc *p, int sig) {
    if (p->pid <= 0 || p->exited) return;
    kill(-p->pid, sig);
    if (sig == SIGKILL && p->cgroup) kill_cgroup(p->cgroup);  /* also whatever left the group */
}

/* every process of the command, also those that left its process group */
static void signal_cgroup(struct proc *p, int sig) {
    pid_t pids[MAX_CGROUP_PIDS];
    int n = p->cgroup ? cgroup_pids(p->cgroup, pids, MAX_CGROUP_PIDS) : 0;
    for (int i = 0; i < n; i++) if (pids[i] > 1) kill(pids[i], sig);
}

/* ------------------------------------------------------------------ stdin on request
 * The host asks the notebook user for input only when a guest process really waits for it:
 * a task blocked in read(2) on this exec's stdin pipe while the pipe is empty. */
static int reads_pipe(pid_t pid, const char *tid, ino_t ino) {
    char path[320], buf[256];
    snprintf(path, sizeof path, "/proc/%d/task/%s/syscall", (int)pid, tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1); close(fd);
    if (n <= 0) return 0;
    buf[n] = 0;
    long nr; unsigned long arg;
    if (sscanf(buf, "%ld 0x%lx", &nr, &arg) != 2) return 0;   /* "running" */
    if (nr != 0 && nr != 17 && nr != 19) return 0;             /* read, pread64, readv */
    char link[64], want[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%lu", (int)pid, arg);
    ssize_t k = readlink(path, link, sizeof link - 1);
    if (k <= 0) return 0;
    link[k] = 0;
    snprintf(want, sizeof want, "pipe:[%lu]", (unsigned long)ino);
    return strcmp(link, want) == 0;
}

static int process_reads_pipe(pid_t pid, ino_t ino) {
    char path[64]; snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d) return 0;
    struct dirent *e; int found = 0;
    while (!found && (e = readdir(d))) if (e->d_name[0] != '.') found = reads_pipe(pid, e->d_name, ino);
    closedir(d);
    return found;
}

static int stdin_waited_for(struct proc *p) {
    int queued = 0;
    if (ioctl(p->in, FIONREAD, &queued) == 0 && queued > 0) return 0;
    int found = 0;
    if (p->cgroup) {  /* only this command's processes */
        pid_t pids[MAX_CGROUP_PIDS];
        int n = cgroup_pids(p->cgroup, pids, MAX_CGROUP_PIDS);
        for (int i = 0; i < n && !found; i++) found = process_reads_pipe(pids[i], p->stdin_ino);
        return found;
    }
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && !found && (e = readdir(d))) if (e->d_name[0] >= '1' && e->d_name[0] <= '9') found = process_reads_pipe((pid_t)atoi(e->d_name), p->stdin_ino);
    if (d) closedir(d);
    return found;
}

static char **base_env;

static void do_exec(uint32_t id, struct req *r) {
    if (r->nargs == 0) { send_error(id, EINVAL, "exec: no argv"); return; }
    if (proc_by_id(id)) { send_error(id, EEXIST, "exec: request id %u already running", id); return; }
    int slot = -1;
    for (int i = 0; i < MAX_PROCS; i++) if (!procs[i].used) { slot = i; break; }
    if (slot < 0) { send_error(id, EAGAIN, "exec: too many processes (max %d)", MAX_PROCS); return; }
    const char *cwd = r->cwd ? r->cwd : "/";
    struct stat st;
    if (stat(cwd, &st) || !S_ISDIR(st.st_mode)) { send_error(id, errno ? errno : ENOTDIR, "exec: cwd %s: %s", cwd, strerror(errno ? errno : ENOTDIR)); return; }
    int pi[2] = { -1, -1 }, po[2] = { -1, -1 }, pe[2] = { -1, -1 }, pf[2], master = -1, slave = -1;
    int use_pty = (r->flags & XF_PTY) != 0;
    if (use_pty) {
        if (r->rows > 1000 || r->cols > 1000) { send_error(id, EINVAL, "exec: terminal size over 1000"); return; }
        struct winsize ws = { (unsigned short)(r->rows ? r->rows : 24), (unsigned short)(r->cols ? r->cols : 80), 0, 0 };
        if (openpty(&master, &slave, NULL, NULL, &ws)) { send_error(id, errno, "exec: openpty: %s", strerror(errno)); return; }
        fcntl(master, F_SETFD, FD_CLOEXEC); fcntl(slave, F_SETFD, FD_CLOEXEC);
    } else {
        if ((r->flags & (XF_STDIN | XF_STDIN_DEMAND)) && pipe2(pi, O_CLOEXEC)) { send_error(id, errno, "exec: pipe: %s", strerror(errno)); return; }
        if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC)) { send_error(id, errno, "exec: pipe: %s", strerror(errno)); return; }
    }
    if (pipe2(pf, O_CLOEXEC)) { send_error(id, errno, "exec: pipe: %s", strerror(errno)); return; }
    /* environment: the agent's base, overridden by the request's entries */
    int nbase = 0; while (base_env[nbase]) nbase++;
    char **env = calloc((size_t)nbase + r->nenvs + 1, sizeof *env); int ne = 0;
    for (int i = 0; i < nbase; i++) {
        size_t k = strcspn(base_env[i], "="); int overridden = 0;
        for (int j = 0; j < r->nenvs; j++) if (!strncmp(r->envs[j], base_env[i], k + 1)) overridden = 1;
        if (!overridden) env[ne++] = base_env[i];
    }
    for (int j = 0; j < r->nenvs; j++) env[ne++] = r->envs[j];
    env[ne] = NULL;
    kill_kept_bombs();
    int cg_dir, placed;
    uint64_t oom_base, forks_base, cg_mem, cg_pids;
    char *cgroup = make_cgroup(r, &cg_dir, &oom_base, &forks_base, &cg_mem, &cg_pids);
    pid_t pid = fork_into(cg_dir, &placed);
    if (pid == 0) {
        sigset_t all; sigemptyset(&all); sigprocmask(SIG_SETMASK, &all, NULL);
        signal(SIGPIPE, SIG_DFL);
        if (cg_dir >= 0 && !placed) {  /* an older kernel: join the cgroup by hand */
            int procs = openat(cg_dir, "cgroup.procs", O_WRONLY | O_CLOEXEC);
            if (procs < 0 || write(procs, "0", 1) != 1) _exit(126);
        }
        setsid();
        setpriority(PRIO_PROCESS, 0, 0);  /* not the agent's raised priority */
        if (r->has_user) {  /* an unprivileged command: drop root before anything of it runs */
            gid_t g = (gid_t)r->gid;
            if (setgroups(1, &g) || setgid(g) || setuid((uid_t)r->uid)) {
                int e = errno; write_all(pf[1], &e, sizeof e); _exit(126);
            }
        }
        if (use_pty) {
            ioctl(slave, TIOCSCTTY, 0);
            dup2(slave, 0); dup2(slave, 1); dup2(slave, 2);
        } else {
            int nul = open("/dev/null", O_RDONLY);
            dup2(pi[0] >= 0 ? pi[0] : nul, 0); dup2(po[1], 1); dup2(pe[1], 2);
        }
        if (chdir(cwd)) _exit(126);
        environ = env;
        execvp(r->args[0], r->args);
        int e = errno;
        write_all(pf[1], &e, sizeof e);
        _exit(e == ENOENT ? 127 : 126);
    }
    free(env);
    if (cg_dir >= 0) close(cg_dir);
    close(pf[1]);
    if (use_pty) close(slave); else { close(po[1]); close(pe[1]); if (pi[0] >= 0) close(pi[0]); }
    if (pid < 0) {
        send_error(id, errno, "exec: fork: %s", strerror(errno));
        remove_cgroup(cgroup);
        close(pf[0]);
        if (use_pty) close(master); else { close(po[0]); close(pe[0]); if (pi[1] >= 0) close(pi[1]); }
        return;
    }
    int e = 0; ssize_t got;
    while ((got = read(pf[0], &e, sizeof e)) < 0 && errno == EINTR);
    close(pf[0]);
    if (got == sizeof e) {  /* exec failed: report it like a shell would, as status 126/127 */
        char msg[600]; int n = snprintf(msg, sizeof msg, "%s: %s\n", r->args[0], strerror(e));
        send_frame(A_STDERR, id, msg, (uint32_t)n);
    }
    struct proc *p = &procs[slot];
    memset(p, 0, sizeof *p);
    p->used = 1; p->id = id; p->pid = pid; p->cgroup = cgroup; p->keep = (r->flags & XF_KEEP) != 0;
    p->oom_base = oom_base; p->forks_base = forks_base; p->cg_mem = cg_mem; p->cg_pids = cg_pids;
    if (!use_pty && (r->flags & XF_STDIN_DEMAND)) {
        struct stat pst;
        if (fstat(pi[1], &pst) == 0) { p->demand = 1; p->stdin_ino = pst.st_ino; p->next_scan_ms = now_ms() + 5; }
    }
    if (use_pty) { p->out = master; p->in = dup(master); p->err = -1; }
    else { p->in = pi[1]; p->out = po[0]; p->err = pe[0]; }
    if (p->in >= 0) fcntl(p->in, F_SETFL, O_NONBLOCK);
    p->limit = r->output_limit;
    if (r->timeout_ms) p->deadline_ms = now_ms() + (int64_t)r->timeout_ms;
    struct out o = { 0 }; out_u64(&o, T_PID, (uint64_t)pid);
    send_frame(A_OK, id, o.b, o.n); free(o.b);
}

static void send_stdin_ack(struct proc *p, uint64_t n, int closed) {
    struct out o = { 0 }; out_u64(&o, T_LENGTH, n); out_u64(&o, T_FLAGS, (uint64_t)closed);
    send_frame(A_STDIN_ACK, p->id, o.b, o.n); free(o.b);
}

/* write what the pipe accepts now; the rest waits for POLLOUT */
static void flush_stdin(struct proc *p) {
    size_t done = 0;
    while (p->in >= 0 && done < p->pending_n) {
        ssize_t w = write(p->in, p->pending + done, p->pending_n - done);
        if (w < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN) break;
            /* reader gone: drop the rest, tell the host to stop sending */
            send_stdin_ack(p, p->pending_n, 1);
            p->pending_n = 0; done = 0; close_fd(&p->in); return;
        }
        done += (size_t)w;
    }
    if (done) {
        memmove(p->pending, p->pending + done, p->pending_n - done);
        p->pending_n -= done;
        send_stdin_ack(p, done, 0);
    }
    if (p->in >= 0 && p->stdin_eof && p->pending_n == 0) {
        if (p->is_socket) shutdown(p->in, SHUT_WR);  /* half-close: the peer sees end of input */
        close_fd(&p->in);
    }
}

static void do_stdin(uint32_t id, const unsigned char *data, uint32_t n) {
    struct proc *p = proc_by_id(id);
    if (!p) return;  /* the process finished meanwhile: nothing to feed */
    p->wanted = 0;
    if (p->in < 0) { if (n) send_stdin_ack(p, n, 1); return; }
    if (n == 0) { p->stdin_eof = 1; flush_stdin(p); return; }
    if (p->pending_n + n > STDIN_PENDING_MAX) { send_error(id, ENOBUFS, "stdin: host sent more than the window"); return; }
    p->pending = realloc(p->pending, p->pending_n + n);
    memcpy(p->pending + p->pending_n, data, n); p->pending_n += n;
    flush_stdin(p);
}

static void forward_output(struct proc *p, int *fd, uint8_t type) {
    static unsigned char buf[65536];
    size_t want = sizeof buf;
    if (p->is_socket && p->credit < want) want = (size_t)p->credit;
    if (!want) return;  /* the host's window is full: the data waits in the socket */
    ssize_t r = read(*fd, buf, want);
    if (r < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (r <= 0) { close_fd(fd); return; }
    size_t n = (size_t)r;
    if (p->limit_hit) return;  /* drained and dropped until the group dies */
    if (p->limit && p->sent + n > p->limit) {
        n = (size_t)(p->limit - p->sent);
        p->limit_hit = 1; p->stop_all = 1;
        kill_group(p, SIGKILL);
    }
    if (n) send_frame(type, p->id, buf, (uint32_t)n);
    p->sent += n;
    if (p->is_socket) p->credit -= n;
}

static void finish_proc(struct proc *p) {
    struct out o = { 0 };
    int kind, code;
    if (p->timed_out) { kind = KIND_TIMED_OUT; code = 124; }
    else if (p->limit_hit) { kind = KIND_OUTPUT_LIMIT; code = 128 + SIGKILL; }
    else if (WIFSIGNALED(p->status)) { kind = KIND_SIGNALED; code = WTERMSIG(p->status); }
    else { kind = KIND_EXITED; code = WEXITSTATUS(p->status); }
    out_u64(&o, T_EXIT_KIND, (uint64_t)kind); out_u64(&o, T_EXIT_CODE, (uint64_t)code);
    uint64_t oom_total = 0, forks_total = 0;
    if (p->cgroup) {
        oom_total = cgroup_counter(p->cgroup, "memory.events", "oom_kill");
        forks_total = cgroup_counter(p->cgroup, "pids.events", "max");
        uint64_t ooms = oom_total - p->oom_base, refused = forks_total - p->forks_base;
        if (ooms) out_u64(&o, T_OOM_KILLS, ooms);
        if (refused) out_u64(&o, T_FORKS_REFUSED, refused);
        /* a command that ran into its process limit leaves a fork bomb behind, not a server */
        if (refused) kill_cgroup(p->cgroup);
    }
    send_frame(A_EXIT, p->id, o.b, o.n); free(o.b);
    /* the command is over, and so is everything it started (setsid, nohup, &) unless it
     * may keep daemons */
    int populated = p->cgroup && cgroup_populated(p->cgroup);
    if (populated && !p->keep) p->stop_all = 1;
    if (!p->cgroup && !p->keep && p->pid > 0) kill(-p->pid, SIGKILL);  /* no cgroups: its group at least */
    if (p->stop_all && p->cgroup) kill_cgroup(p->cgroup);
    if (populated && p->keep) keep_cgroup(p->cgroup, forks_total);
    close_fd(&p->in); close_fd(&p->out); close_fd(&p->err);
    /* an empty cgroup serves the next exec (no mkdir/rmdir between back-to-back commands) */
    if (p->cgroup && !p->stop_all && !spare_cgroup && !populated) {
        spare_cgroup = p->cgroup; spare_oom = oom_total; spare_forks = forks_total;
        spare_mem = p->cg_mem; spare_pids = p->cg_pids;
    } else remove_cgroup(p->cgroup);
    int was_command = !p->is_socket;
    free(p->pending);
    memset(p, 0, sizeof *p);
    if (was_command) clear_shm_when_idle();
}

static void reap(void) {
    int status; pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        for (int i = 0; i < MAX_PROCS; i++)
            if (procs[i].used && procs[i].pid == pid) {
                procs[i].exited = 1; procs[i].status = status; procs[i].exit_ms = now_ms();
            }
    }
}

/* ------------------------------------------------------------------ files */
static int type_of(mode_t m) { return S_ISREG(m) ? TY_FILE : S_ISDIR(m) ? TY_DIR : S_ISLNK(m) ? TY_SYMLINK : TY_OTHER; }

static void add_stat(struct out *o, const char *name, int dirfd, const char *leaf, const struct stat *st) {
    if (name) out_str(o, T_NAME, name);
    out_u64(o, T_TYPE, (uint64_t)type_of(st->st_mode));
    out_u64(o, T_MODE, st->st_mode & 07777);
    out_u64(o, T_SIZE, (uint64_t)st->st_size);
    out_u64(o, T_MTIME_NS, (uint64_t)st->st_mtim.tv_sec * 1000000000ull + (uint64_t)st->st_mtim.tv_nsec);
    if (S_ISLNK(st->st_mode)) {
        char t[MAX_PATH + 1]; ssize_t n = readlinkat(dirfd, leaf, t, MAX_PATH);
        if (n >= 0) out_field(o, T_TARGET, t, (uint32_t)n);
    }
}

static int mkdirs(const char *path, mode_t mode) {
    char buf[MAX_PATH + 1]; size_t n = strlen(path);
    if (n > MAX_PATH) { errno = ENAMETOOLONG; return -1; }
    memcpy(buf, path, n + 1);
    for (char *s = buf + 1; ; s++) {
        if (*s == '/' || *s == 0) {
            char c = *s; *s = 0;
            if (mkdir(buf, mode) && errno != EEXIST) return -1;
            struct stat st;
            if (stat(buf, &st) == 0 && !S_ISDIR(st.st_mode)) { errno = ENOTDIR; return -1; }
            *s = c;
            if (!c) return 0;
        }
    }
}

static int is_regular(int fd) {
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

static void do_read(uint32_t id, struct req *r) {
    if (!r->path) { send_error(id, EINVAL, "read: no path"); return; }
    uint64_t want = r->has_length ? r->length : CHUNK;
    if (want > CHUNK) { send_error(id, EINVAL, "read: length over %u", CHUNK); return; }
    /* non-blocking and regular files only: a FIFO or device planted in the guest must not
     * hang or flood the agent */
    int fd = open(r->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) { send_error(id, errno, "%s: %s", r->path, strerror(errno)); return; }
    if (!is_regular(fd)) { close(fd); send_error(id, EINVAL, "%s: not a regular file", r->path); return; }
    unsigned char *buf = malloc(want ? want : 1); size_t got = 0;
    while (got < want) {
        ssize_t n = pread(fd, buf + got, want - got, (off_t)(r->offset + got));
        if (n < 0) { if (errno == EINTR) continue; int e = errno; close(fd); free(buf); send_error(id, e, "%s: %s", r->path, strerror(e)); return; }
        if (n == 0) break;
        got += (size_t)n;
    }
    close(fd);
    send_frame(A_DATA, id, buf, (uint32_t)got); free(buf);
}

static void do_write(uint32_t id, struct req *r) {
    if (!r->path) { send_error(id, EINVAL, "write: no path"); return; }
    if (r->data_n > CHUNK) { send_error(id, EINVAL, "write: chunk over %u", CHUNK); return; }
    if (r->flags & WF_PARENTS) {
        char dir[MAX_PATH + 1]; strcpy(dir, r->path);
        char *slash = strrchr(dir, '/'); if (slash && slash != dir) { *slash = 0; if (mkdirs(dir, 0755)) { send_error(id, errno, "%s: %s", dir, strerror(errno)); return; } }
    }
    int oflags = O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | ((r->flags & WF_CREATE) ? O_CREAT : 0);
    int fd = open(r->path, oflags, r->has_mode ? (mode_t)(r->mode & 07777) : 0644);
    if (fd < 0) { send_error(id, errno, "%s: %s", r->path, strerror(errno)); return; }
    if (!is_regular(fd)) { close(fd); send_error(id, EINVAL, "%s: not a regular file", r->path); return; }
    if ((r->flags & WF_TRUNCATE) && ftruncate(fd, 0)) { int e = errno; close(fd); send_error(id, e, "%s: %s", r->path, strerror(e)); return; }
    size_t done = 0;
    while (done < r->data_n) {
        ssize_t n = pwrite(fd, r->data + done, r->data_n - done, (off_t)(r->offset + done));
        if (n < 0) { if (errno == EINTR) continue; int e = errno; close(fd); send_error(id, e, "%s: %s", r->path, strerror(e)); return; }
        done += (size_t)n;
    }
    if (r->has_mode) fchmod(fd, (mode_t)(r->mode & 07777));
    if (r->has_mtime) {
        struct timespec ts[2] = { { (time_t)(r->mtime_ns / 1000000000ull), (long)(r->mtime_ns % 1000000000ull) } };
        ts[1] = ts[0]; futimens(fd, ts);
    }
    close(fd);
    send_ok(id);
}

static void flush_entries(uint32_t id, struct out *o) {
    if (o->n) send_frame(A_ENTRIES, id, o->b, (uint32_t)o->n);
    o->n = 0;
}

/* the entries of the open directory d (closed here). A subdirectory that is not descended
 * (unreadable, too deep, path too long) carries T_ERRNO: the host then knows its contents
 * are unknown, not gone. */
static void list_dir(uint32_t id, DIR *d, const char *dir, const char *rel, int recursive, struct out *o, int depth) {
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char full[MAX_PATH + 256], name[MAX_PATH + 256];
        if (snprintf(full, sizeof full, "%s/%s", strcmp(dir, "/") ? dir : "", e->d_name) >= (int)sizeof full ||
            snprintf(name, sizeof name, "%s%s%s", rel, *rel ? "/" : "", e->d_name) >= (int)sizeof name) continue;
        struct stat st;
        /* relative to the open directory: an entry whose full path is over PATH_MAX is still
         * listed (the host reports what it cannot hold; nothing is left out silently) */
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW)) continue;  /* vanished meanwhile */
        add_stat(o, name, dirfd(d), e->d_name, &st);
        DIR *sub = NULL;
        if (recursive && S_ISDIR(st.st_mode)) {
            int err = depth + 1 >= LIST_DEPTH ? ELOOP : strlen(full) >= MAX_PATH ? ENAMETOOLONG : 0;
            if (!err && !(sub = opendir(full))) err = errno;
            if (err) out_u64(o, T_ERRNO, (uint64_t)err);
        }
        if (o->n > 256 * 1024) flush_entries(id, o);
        if (sub) list_dir(id, sub, full, name, recursive, o, depth + 1);
    }
    closedir(d);
}

static void do_list(uint32_t id, struct req *r) {
    if (!r->path) { send_error(id, EINVAL, "list: no path"); return; }
    DIR *d = opendir(r->path);
    if (!d) { send_error(id, errno, "%s: %s", r->path, strerror(errno)); return; }
    struct out o = { 0 };
    list_dir(id, d, r->path, "", (r->flags & LF_RECURSIVE) != 0, &o, 0);
    flush_entries(id, &o); free(o.b);
    send_ok(id);
}

static void do_stat(uint32_t id, struct req *r) {
    if (!r->path) { send_error(id, EINVAL, "stat: no path"); return; }
    struct stat st;
    if (lstat(r->path, &st)) { send_error(id, errno, "%s: %s", r->path, strerror(errno)); return; }
    struct out o = { 0 }; add_stat(&o, NULL, AT_FDCWD, r->path, &st);
    send_frame(A_OK, id, o.b, o.n); free(o.b);
}

static void do_mkdir(uint32_t id, struct req *r) {
    if (!r->path) { send_error(id, EINVAL, "mkdir: no path"); return; }
    mode_t mode = r->has_mode ? (mode_t)(r->mode & 07777) : 0755;
    int rc = (r->flags & LF_RECURSIVE) ? mkdirs(r->path, mode) : mkdir(r->path, mode);
    if (rc) { send_error(id, errno, "%s: %s", r->path, strerror(errno)); return; }
    if (r->has_mtime) {
        struct timespec ts[2] = { { (time_t)(r->mtime_ns / 1000000000ull), (long)(r->mtime_ns % 1000000000ull) } };
        ts[1] = ts[0]; utimensat(AT_FDCWD, r->path, ts, 0);
    }
    send_ok(id);
}

static int remove_tree(const char *path) {
    struct stat st;
    if (lstat(path, &st)) return -1;
    if (!S_ISDIR(st.st_mode)) return unlink(path);
    DIR *d = opendir(path); if (!d) return -1;
    struct dirent *e; int rc = 0;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char full[MAX_PATH + 256];
        if (snprintf(full, sizeof full, "%s/%s", path, e->d_name) >= (int)sizeof full) { errno = ENAMETOOLONG; rc = -1; continue; }
        if (remove_tree(full)) rc = -1;
    }
    closedir(d);
    return rmdir(path) ? -1 : rc;
}

static void do_remove(uint32_t id, struct req *r) {
    if (!r->path) { send_error(id, EINVAL, "remove: no path"); return; }
    if (!strcmp(r->path, "/")) { send_error(id, EPERM, "remove: refusing to remove /"); return; }
    struct stat st;
    if (lstat(r->path, &st)) { send_error(id, errno, "%s: %s", r->path, strerror(errno)); return; }
    int rc = S_ISDIR(st.st_mode) ? ((r->flags & LF_RECURSIVE) ? remove_tree(r->path) : rmdir(r->path)) : unlink(r->path);
    if (rc) { send_error(id, errno, "%s: %s", r->path, strerror(errno)); return; }
    send_ok(id);
}

/* After a resume from a saved state every clone shares the same clock and RNG state. */
static void do_sync(uint32_t id, struct req *r) {
    if (r->has_time) {
        struct timespec ts = { (time_t)(r->time_ns / 1000000000ull), (long)(r->time_ns % 1000000000ull) };
        if (clock_settime(CLOCK_REALTIME, &ts)) { send_error(id, errno, "sync: clock: %s", strerror(errno)); return; }
    }
    if (r->seed_n) {
        if (r->seed_n > 4096) { send_error(id, EINVAL, "sync: seed over 4096 bytes"); return; }
        struct rand_pool_info *info = malloc(sizeof *info + r->seed_n);
        info->entropy_count = (int)r->seed_n * 8; info->buf_size = (int)r->seed_n;
        memcpy(info->buf, r->seed, r->seed_n);
        int fd = open("/dev/urandom", O_WRONLY | O_CLOEXEC);
        int bad = fd < 0 || ioctl(fd, RNDADDENTROPY, info) || ioctl(fd, RNDRESEEDCRNG);
        int e = errno;
        if (fd >= 0) close(fd);
        free(info);
        if (bad) { send_error(id, e, "sync: reseed: %s", strerror(e)); return; }
    }
    send_ok(id);
}

static void do_resize(uint32_t id, struct req *r) {
    struct proc *p = proc_by_id(id);
    if (!p || p->out < 0 || p->is_socket) return;
    if (!r->rows || !r->cols || r->rows > 1000 || r->cols > 1000) { send_error(id, EINVAL, "resize: rows and cols must be 1..1000"); return; }
    struct winsize ws = { (unsigned short)r->rows, (unsigned short)r->cols, 0, 0 };
    ioctl(p->out, TIOCSWINSZ, &ws);  /* the kernel sends SIGWINCH to the foreground group */
}

/* A TCP connection to a guest port, streamed like an exec: STDIN frames in, STDOUT frames
 * out, EXIT when the guest side closes. */
static void do_connect(uint32_t id, struct req *r) {
    if (!r->has_port || r->port < 1 || r->port > 65535) { send_error(id, EINVAL, "connect: port must be 1..65535"); return; }
    if (proc_by_id(id)) { send_error(id, EEXIST, "connect: request id %u in use", id); return; }
    int slot = -1;
    for (int i = 0; i < MAX_PROCS; i++) if (!procs[i].used) { slot = i; break; }
    if (slot < 0) { send_error(id, EAGAIN, "connect: too many streams (max %d)", MAX_PROCS); return; }
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)r->port), .sin_addr = { htonl(INADDR_LOOPBACK) } };
    if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof a)) {
        int e = errno; if (s >= 0) close(s);
        send_error(id, e, "connect: 127.0.0.1:%u: %s", (unsigned)r->port, strerror(e)); return;
    }
    struct proc *p = &procs[slot];
    memset(p, 0, sizeof *p);
    p->used = 1; p->id = id; p->is_socket = 1; p->out = s; p->in = dup(s); p->err = -1;
    p->credit = STREAM_WINDOW;
    fcntl(p->in, F_SETFL, O_NONBLOCK);
    p->exited = 1; p->exit_ms = INT64_MAX / 4;  /* no process: done when the guest side closes */
    send_ok(id);
}

/* A guest-side listener (the egress proxy port): each accepted connection becomes a stream
 * with an agent-chosen id (high bit set), announced by ACCEPT, then streamed like CONNECT. */
static int listen_fd = -1;
static uint32_t next_stream_id = 1;

static void do_listen(uint32_t id, struct req *r) {
    if (!r->has_port || r->port < 1 || r->port > 65535) { send_error(id, EINVAL, "listen: port must be 1..65535"); return; }
    if (listen_fd >= 0) close(listen_fd);
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), one = 1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)r->port), .sin_addr = { htonl(INADDR_LOOPBACK) } };
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 64)) {
        int e = errno; if (s >= 0) close(s); listen_fd = -1;
        send_error(id, e, "listen: 127.0.0.1:%u: %s", (unsigned)r->port, strerror(e)); return;
    }
    listen_fd = s;
    send_ok(id);
}

static void accept_stream(void) {
    int c = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
    if (c < 0) return;
    int slot = -1;
    for (int i = 0; i < MAX_PROCS; i++) if (!procs[i].used) { slot = i; break; }
    if (slot < 0) { close(c); return; }
    struct proc *p = &procs[slot];
    memset(p, 0, sizeof *p);
    p->used = 1; p->id = 0x80000000u | next_stream_id; next_stream_id = next_stream_id % 0x7FFFFFFFu + 1;
    p->is_socket = 1; p->out = c; p->in = dup(c); p->err = -1;
    p->credit = STREAM_WINDOW;
    fcntl(p->in, F_SETFL, O_NONBLOCK);
    p->exited = 1; p->exit_ms = INT64_MAX / 4;
    send_frame(A_ACCEPT, p->id, NULL, 0);
}

/* The host took LENGTH more bytes of a connection's output (never more than the window in
 * flight), or (FLAGS CF_CLOSE) wants no more of it: the connection is closed and ends with EXIT. */
static void do_credit(uint32_t id, struct req *r) {
    struct proc *p = proc_by_id(id);
    if (!p || !p->is_socket) return;  /* ended meanwhile */
    if (r->flags & CF_CLOSE) { close_fd(&p->in); close_fd(&p->out); p->pending_n = 0; return; }
    uint64_t room = STREAM_WINDOW - p->credit;
    p->credit += r->length < room ? r->length : room;
}

static void do_shutdown(uint32_t id) {
    for (int i = 0; i < MAX_PROCS; i++) if (procs[i].used) kill_group(&procs[i], SIGKILL);
    send_ok(id);
    sync();
    if (getpid() == 1) reboot(RB_POWER_OFF);
    exit(0);
}

static void do_hello(uint32_t id, const unsigned char *p, uint32_t n) {
    struct out o = { 0 };
    struct timespec ts; clock_gettime(CLOCK_BOOTTIME, &ts);
    out_u64(&o, T_VERSION, VERSION);
    out_u64(&o, T_UPTIME_NS, (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
    if (n <= 4096) out_field(&o, T_DATA, p, n);
    send_frame(A_PONG, id, o.b, o.n); free(o.b);
}

static void handle(uint8_t type, uint32_t id, const unsigned char *p, uint32_t n) {
    if (type == R_STDIN) { do_stdin(id, p, n); return; }
    if (type == R_HELLO) { do_hello(id, p, n); return; }
    struct req r;
    const char *bad = parse_req(p, n, &r);
    if (bad) { send_error(id, EINVAL, "malformed request (type %u): %s", type, bad); free_req(&r); return; }
    switch (type) {
    case R_EXEC: do_exec(id, &r); break;
    case R_SIGNAL: {
        struct proc *pr = proc_by_id(id);
        if (!r.has_sig || r.sig < 1 || r.sig > 64) send_error(id, EINVAL, "signal: bad signal number");
        else if (pr) {
            kill_group(pr, (int)r.sig);
            if (r.flags & SF_WHOLE_COMMAND) { pr->stop_all = 1; signal_cgroup(pr, (int)r.sig); }
        }
        break; }
    case R_READ: case R_WRITE: case R_LIST: case R_STAT: case R_MKDIR: case R_REMOVE:
        /* as the given user: its permissions, and it owns what is made (a symlink it planted
         * leads only where it could write itself) */
        if (r.has_user) { setfsgid((gid_t)r.gid); setfsuid((uid_t)r.uid); }
        if (type == R_READ) do_read(id, &r);
        else if (type == R_WRITE) do_write(id, &r);
        else if (type == R_LIST) do_list(id, &r);
        else if (type == R_STAT) do_stat(id, &r);
        else if (type == R_MKDIR) do_mkdir(id, &r);
        else do_remove(id, &r);
        if (r.has_user) { setfsuid(0); setfsgid(0); }
        break;
    case R_SYNC: do_sync(id, &r); break;
    case R_SHUTDOWN: do_shutdown(id); break;
    case R_RESIZE: do_resize(id, &r); break;
    case R_CONNECT: do_connect(id, &r); break;
    case R_LISTEN: do_listen(id, &r); break;
    case R_CREDIT: do_credit(id, &r); break;
    default: send_error(id, EINVAL, "unknown request type %u", type);
    }
    free_req(&r);
}

/* ------------------------------------------------------------------ main loop */
static char *find_port(void) {
    static char path[300];
    for (int tries = 0; tries < 1000; tries++) {
        DIR *d = opendir("/sys/class/virtio-ports");
        struct dirent *e;
        while (d && (e = readdir(d))) {
            char f[300], name[64] = { 0 };
            snprintf(f, sizeof f, "/sys/class/virtio-ports/%s/name", e->d_name);
            int fd = open(f, O_RDONLY); if (fd < 0) continue;
            ssize_t r = read(fd, name, sizeof name - 1); close(fd);
            if (r > 0 && !strcmp(name, "agent\n")) {
                snprintf(path, sizeof path, "/dev/%s", e->d_name);
                if (access(path, F_OK) == 0) { closedir(d); return path; }
            }
        }
        if (d) closedir(d);
        usleep(10000);
    }
    return NULL;
}

int main(int argc, char **argv) {
    char *path = argc > 1 ? argv[1] : find_port();
    if (!path || (port = open(path, O_RDWR | O_CLOEXEC)) < 0) { perror("vm-agent: port"); return 1; }
    signal(SIGPIPE, SIG_IGN);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    setpriority(PRIO_PROCESS, 0, AGENT_NICE);
    cgroups_init();
    static char *default_env[] = { "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                                   "HOME=/root", "LANG=C.UTF-8", "TERM=dumb", "USER=root", "LOGNAME=root",
                                   "SHELL=/bin/bash", NULL };
    base_env = default_env;
    sigset_t mask; sigemptyset(&mask); sigaddset(&mask, SIGCHLD);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    int sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);

    { struct out o = { 0 }; struct timespec ts; clock_gettime(CLOCK_BOOTTIME, &ts);
      out_u64(&o, T_VERSION, VERSION);
      out_u64(&o, T_UPTIME_NS, (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
      send_frame(A_READY, 0, o.b, o.n); free(o.b); }

    size_t cap = MAX_PAYLOAD + HDR + 65536, len = 0;
    unsigned char *buf = malloc(cap);
    int resyncing = 0;
    for (;;) {
        struct pollfd fds[3 + 3 * MAX_PROCS]; int who[3 + 3 * MAX_PROCS], nf = 0;
        fds[nf] = (struct pollfd){ port, POLLIN, 0 }; who[nf++] = -1;
        fds[nf] = (struct pollfd){ sfd, POLLIN, 0 }; who[nf++] = -2;
        fds[nf] = (struct pollfd){ listen_fd, POLLIN, 0 }; who[nf++] = -3;  /* fd -1 is ignored */
        int64_t now = now_ms(), wake = -1;
        for (int i = 0; i < MAX_PROCS; i++) {
            struct proc *p = &procs[i];
            if (!p->used) continue;
            if (p->out >= 0 && (!p->is_socket || p->credit))
                { fds[nf] = (struct pollfd){ p->out, POLLIN, 0 }; who[nf++] = i; }
            if (p->err >= 0) { fds[nf] = (struct pollfd){ p->err, POLLIN, 0 }; who[nf++] = i; }
            if (p->in >= 0 && p->pending_n) { fds[nf] = (struct pollfd){ p->in, POLLOUT, 0 }; who[nf++] = i; }
            int64_t t = -1;
            if (p->deadline_ms && !p->exited) t = p->deadline_ms;
            if (p->exited) t = p->exit_ms + EXIT_GRACE_MS;
            if (t >= 0 && (wake < 0 || t < wake)) wake = t;
            if (p->demand && !p->wanted && !p->exited && p->in >= 0 && !p->stdin_eof && !p->pending_n &&
                (wake < 0 || p->next_scan_ms < wake)) wake = p->next_scan_ms;
        }
        int timeout = wake < 0 ? -1 : (int)(wake > now ? wake - now : 0);
        if (housekeeping_due && (timeout < 0 || timeout > HOUSEKEEPING_IDLE_MS)) timeout = HOUSEKEEPING_IDLE_MS;
        int ready = poll(fds, (nfds_t)nf, timeout);
        if (ready == 0 && housekeeping_due) cgroup_housekeeping();
        if (ready < 0 && errno != EINTR) continue;
        if (fds[2].revents & POLLIN) accept_stream();
        for (int k = 3; ready > 0 && k < nf; k++) {
            if (!fds[k].revents) continue;
            struct proc *p = &procs[who[k]];
            if (fds[k].fd == p->out) forward_output(p, &p->out, A_STDOUT);
            else if (fds[k].fd == p->err) forward_output(p, &p->err, A_STDERR);
            else if (fds[k].fd == p->in) flush_stdin(p);
        }
        if (fds[1].revents) { struct signalfd_siginfo si; while (read(sfd, &si, sizeof si) > 0); }
        reap();
        now = now_ms();
        for (int i = 0; i < MAX_PROCS; i++) {
            struct proc *p = &procs[i];
            if (!p->used) continue;
            if (!p->exited && p->deadline_ms && now >= p->deadline_ms && !p->timed_out) {
                p->timed_out = 1; p->stop_all = 1; kill_group(p, SIGKILL);
            }
            if (p->demand && !p->wanted && !p->exited && p->in >= 0 && !p->stdin_eof && !p->pending_n &&
                now >= p->next_scan_ms) {
                p->next_scan_ms = now + STDIN_SCAN_MS;
                if (stdin_waited_for(p)) { p->wanted = 1; send_frame(A_STDIN_WANTED, p->id, NULL, 0); }
            }
            /* done when the leader is reaped and its output is drained; background children
             * still holding the pipes get a short grace, then their output is dropped */
            if (p->exited && ((p->out < 0 && p->err < 0) || now >= p->exit_ms + EXIT_GRACE_MS)) {
                for (int round = 0; round < 64 && p->out >= 0; round++) {
                    struct pollfd f = { p->out, POLLIN, 0 }; if (poll(&f, 1, 0) <= 0) break; forward_output(p, &p->out, A_STDOUT);
                }
                for (int round = 0; round < 64 && p->err >= 0; round++) {
                    struct pollfd f = { p->err, POLLIN, 0 }; if (poll(&f, 1, 0) <= 0) break; forward_output(p, &p->err, A_STDERR);
                }
                finish_proc(p);
            }
        }
        if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        ssize_t r = read(port, buf + len, cap - len);
        if (r <= 0) { if (r < 0 && errno == EINTR) continue; usleep(20000); continue; }  /* host side not connected */
        len += (size_t)r;
        size_t off = 0;
        while (len - off >= 2) {
            if (resyncing || buf[off] != MAGIC0 || buf[off + 1] != MAGIC1) {
                /* skip garbage up to the next magic */
                size_t j = off + 1;
                while (j + 1 < len && !(buf[j] == MAGIC0 && buf[j + 1] == MAGIC1)) j++;
                if (!resyncing) send_error(0, EPROTO, "bad frame magic: skipped to the next frame");
                resyncing = 0;
                if (j + 1 >= len) { off = (buf[len - 1] == MAGIC0) ? len - 1 : len; break; }
                off = j; continue;
            }
            if (len - off < HDR) break;
            uint8_t version = buf[off + 2], type = buf[off + 3];
            uint32_t id = get32(buf + off + 4), n = get32(buf + off + 8);
            if (version != VERSION || n > MAX_PAYLOAD) {
                send_error(id, EPROTO, version != VERSION ? "unsupported protocol version %u" : "frame length %u over limit",
                           version != VERSION ? version : n);
                off += 2; resyncing = 1; continue;
            }
            if (len - off < HDR + (size_t)n) break;
            handle(type, id, buf + off + HDR, n);
            off += HDR + n;
        }
        memmove(buf, buf + off, len - off); len -= off;
    }
}
