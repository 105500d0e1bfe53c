/* ktpu_gdb: see ktpu_gdb.h. Packets are "$data#cs" (cs: the sum of data's
 * bytes mod 256, two hex digits), each acknowledged with '+'; a 0x03 byte
 * outside a packet is Ctrl-C. The target's registers are described to gdb
 * by a target.xml (qXfer:features:read), so gdb needs no "set architecture". */
#include "ktpu_gdb.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_PACKET 4096
#define MAX_BREAKS 64

static const char target_xml[] =
    "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM \"gdb-target.dtd\"><target version=\"1.0\">"
    "<architecture>riscv:rv32</architecture><feature name=\"org.gnu.gdb.riscv.cpu\">"
#define R(n, name, type) "<reg name=\"" name "\" bitsize=\"32\" type=\"" type "\" regnum=\"" #n "\"/>"
    R(0, "zero", "int") R(1, "ra", "code_ptr") R(2, "sp", "data_ptr") R(3, "gp", "data_ptr")
    R(4, "tp", "data_ptr") R(5, "t0", "int") R(6, "t1", "int") R(7, "t2", "int") R(8, "fp", "data_ptr")
    R(9, "s1", "int") R(10, "a0", "int") R(11, "a1", "int") R(12, "a2", "int") R(13, "a3", "int")
    R(14, "a4", "int") R(15, "a5", "int") R(16, "a6", "int") R(17, "a7", "int") R(18, "s2", "int")
    R(19, "s3", "int") R(20, "s4", "int") R(21, "s5", "int") R(22, "s6", "int") R(23, "s7", "int")
    R(24, "s8", "int") R(25, "s9", "int") R(26, "s10", "int") R(27, "s11", "int") R(28, "t3", "int")
    R(29, "t4", "int") R(30, "t5", "int") R(31, "t6", "int") R(32, "pc", "code_ptr")
#undef R
    "</feature></target>";

int ktpu_gdb_accept(unsigned port, char *err, size_t len)
{
    int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in a = {0};
    socklen_t al = sizeof a;
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 1) ||
        getsockname(s, (struct sockaddr *)&a, &al)) {
        snprintf(err, len, "--gdb: cannot listen on localhost:%u: %s", port, strerror(errno));
        if (s >= 0) close(s);
        return -1;
    }
    fprintf(stderr, "ktpu-sim: gdb: waiting on localhost:%u (target remote localhost:%u)\n",
            (unsigned)ntohs(a.sin_port), (unsigned)ntohs(a.sin_port));
    int c = accept(s, NULL, NULL);
    close(s);
    if (c < 0) {
        snprintf(err, len, "--gdb: accept: %s", strerror(errno));
        return -1;
    }
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return c;
}

/* ---- packets ---- */

static int get_byte(int fd)
{
    unsigned char b;
    return read(fd, &b, 1) == 1 ? b : -1;
}

static int send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w <= 0) return -1;
        p += w, n -= (size_t)w;
    }
    return 0;
}

static int put_packet(int fd, const char *data)
{
    static char buf[2 * MAX_PACKET + 8];
    unsigned sum = 0;
    size_t n = strlen(data);
    if (n > 2 * MAX_PACKET) n = 2 * MAX_PACKET;
    buf[0] = '$';
    memcpy(buf + 1, data, n);
    for (size_t i = 0; i < n; i++) sum += (unsigned char)data[i];
    snprintf(buf + 1 + n, 4, "#%02x", sum & 255u);
    return send_all(fd, buf, n + 4);   /* the '+' that follows is read (and skipped) by get_packet */
}

/* The next packet's data into buf (NUL-ended), acknowledged; 0x03 outside a
 * packet comes back as the packet "\x03". -1: the connection dropped. */
static int get_packet(int fd, char *buf, size_t cap)
{
    for (;;) {
        int c = get_byte(fd);
        if (c < 0) return -1;
        if (c == 0x03) {
            strcpy(buf, "\x03");
            return 0;
        }
        if (c != '$') continue;   /* '+', '-' and noise */
        size_t n = 0;
        while ((c = get_byte(fd)) >= 0 && c != '#')
            if (n + 1 < cap) buf[n++] = (char)c;
        buf[n] = 0;
        if (c < 0 || get_byte(fd) < 0 || get_byte(fd) < 0) return -1;
        if (send_all(fd, "+", 1)) return -1;
        return 0;
    }
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* a register as gdb wants it: little-endian bytes in hex */
static void put_reg(char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) sprintf(p + 2 * i, "%02x", (v >> (8 * i)) & 255u);
}

static uint32_t get_reg(const char *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)(hexval(p[2 * i]) << 4 | hexval(p[2 * i + 1])) << (8 * i);
    return v;
}

/* ---- the session ---- */

struct session {
    int fd;
    const struct ktpu_gdb_target *t;
    uint32_t breaks[MAX_BREAKS];
    unsigned nbreaks;
};

static int is_break(const struct session *s, uint32_t pc)
{
    for (unsigned i = 0; i < s->nbreaks; i++)
        if (s->breaks[i] == pc) return 1;
    return 0;
}

/* A 0x03 waiting on the connection (Ctrl-C while running). */
static int interrupted(int fd)
{
    struct pollfd p = {fd, POLLIN, 0};
    unsigned char b;
    while (poll(&p, 1, 0) > 0 && recv(fd, &b, 1, MSG_PEEK) == 1) {
        if (b != 0x03 && b != '+') return 0;   /* a packet: for after the stop */
        if (read(fd, &b, 1) != 1) return 0;
        if (b == 0x03) return 1;
    }
    return 0;
}

/* step (once) or continue; the stop reply into out. Returns the target's
 * last answer. */
static int resume(struct session *s, int once, uint64_t max_steps, int *exit_status, char *out)
{
    const struct ktpu_gdb_target *t = s->t;
    for (uint64_t n = 0;; n++) {
        int r = t->step(t->ctx, exit_status);
        if (r == KTPU_GDB_EXITED) {
            sprintf(out, "W%02x", *exit_status & 255);
            return r;
        }
        if (r == KTPU_GDB_FAILED) {
            strcpy(out, "X06");   /* SIGABRT: the harness has said why */
            return r;
        }
        if (once || is_break(s, t->reg(t->ctx, 32))) break;
        if (!(n & 4095) && interrupted(s->fd)) {
            strcpy(out, "S02");   /* SIGINT */
            return r;
        }
        if (n >= max_steps) {
            strcpy(out, "S18");   /* SIGXCPU: the cycle limit */
            return r;
        }
    }
    strcpy(out, "S05");   /* SIGTRAP */
    return KTPU_GDB_RAN;
}

int ktpu_gdb_serve(int fd, const struct ktpu_gdb_target *t, uint64_t max_steps, int *exit_status, int *detached)
{
    static struct session s;
    static char in[MAX_PACKET + 1], out[2 * MAX_PACKET + 1];
    s = (struct session){.fd = fd, .t = t};
    *detached = 0;
    int last = KTPU_GDB_RAN;
    for (;;) {
        if (get_packet(fd, in, sizeof in)) return last;
        char *p = in;
        unsigned long a = 0, n = 0;
        out[0] = 0;
        switch (*p++) {
        case '?':
            strcpy(out, "S05");
            break;
        case 'g':
            for (unsigned i = 0; i < 33; i++) put_reg(out + 8 * i, t->reg(t->ctx, i));
            break;
        case 'G':
            strcpy(out, "OK");
            for (unsigned i = 0; i < 33 && strlen(p) >= 8 * (i + 1); i++)
                if (get_reg(p + 8 * i) != t->reg(t->ctx, i) && t->set_reg(t->ctx, i, get_reg(p + 8 * i)))
                    strcpy(out, "E01");
            break;
        case 'p':
            n = strtoul(p, NULL, 16);
            if (n <= 32) put_reg(out, t->reg(t->ctx, (unsigned)n));
            else strcpy(out, "E01");
            break;
        case 'P':
            n = strtoul(p, &p, 16);
            strcpy(out, n <= 32 && *p == '=' && !t->set_reg(t->ctx, (unsigned)n, get_reg(p + 1)) ? "OK" : "E01");
            break;
        case 'm':
            a = strtoul(p, &p, 16);
            n = *p == ',' ? strtoul(p + 1, NULL, 16) : 0;
            if (n > MAX_PACKET / 2) n = MAX_PACKET / 2;
            for (unsigned long i = 0; i < n; i++) {
                uint8_t b;
                if (t->read(t->ctx, (uint32_t)(a + i), &b)) {
                    if (!i) strcpy(out, "E01");
                    break;
                }
                sprintf(out + 2 * i, "%02x", b);
            }
            break;
        case 'M':
            a = strtoul(p, &p, 16);
            n = *p == ',' ? strtoul(p + 1, &p, 16) : 0;
            p = strchr(p, ':');
            strcpy(out, "OK");
            for (unsigned long i = 0; p && i < n; i++)
                if (t->write(t->ctx, (uint32_t)(a + i), (uint8_t)(hexval(p[1 + 2 * i]) << 4 | hexval(p[2 + 2 * i])))) {
                    strcpy(out, "E01");
                    break;
                }
            break;
        case 'c':
        case 's':
            if (*p && t->set_reg(t->ctx, 32, (uint32_t)strtoul(p, NULL, 16))) {   /* "c addr": resume there */
                put_packet(fd, "E01");
                continue;
            }
            last = resume(&s, in[0] == 's', max_steps, exit_status, out);
            if (put_packet(fd, out) || last != KTPU_GDB_RAN) return last;
            continue;
        case 'Z':
        case 'z':
            /* Z0/Z1 (software and hardware breakpoints alike: the PC is
             * compared before each step) */
            if ((*p == '0' || *p == '1') && p[1] == ',') {
                a = strtoul(p + 2, NULL, 16);
                if (in[0] == 'Z' && !is_break(&s, (uint32_t)a) && s.nbreaks < MAX_BREAKS) s.breaks[s.nbreaks++] = (uint32_t)a;
                if (in[0] == 'z')
                    for (unsigned i = 0; i < s.nbreaks; i++)
                        if (s.breaks[i] == a) s.breaks[i--] = s.breaks[--s.nbreaks];
                strcpy(out, "OK");
            }
            break;
        case 'q':
            if (!strncmp(p, "Supported", 9)) {
                sprintf(out, "PacketSize=%x;qXfer:features:read+", MAX_PACKET);
            } else if (!strncmp(p, "Xfer:features:read:target.xml:", 30)) {
                a = strtoul(p + 30, &p, 16);
                n = *p == ',' ? strtoul(p + 1, NULL, 16) : 0;
                size_t len = sizeof target_xml - 1;
                if (a >= len) {
                    strcpy(out, "l");
                } else {
                    if (n > MAX_PACKET - 1) n = MAX_PACKET - 1;
                    if (n > len - a) n = len - a;
                    out[0] = a + n < len ? 'm' : 'l';
                    memcpy(out + 1, target_xml + a, n);
                    out[1 + n] = 0;
                }
            } else if (!strcmp(p, "Attached")) {
                strcpy(out, "1");
            } else if (!strcmp(p, "C")) {
                strcpy(out, "QC1");   /* one thread, id 1 */
            } else if (!strcmp(p, "fThreadInfo")) {
                strcpy(out, "m1");
            } else if (!strcmp(p, "sThreadInfo")) {
                strcpy(out, "l");
            }
            break;
        case 'H':   /* thread selection */
        case 'T':   /* thread alive */
            strcpy(out, "OK");
            break;
        case 'k':
            return last;
        case 'D':
            put_packet(fd, "OK");
            *detached = 1;
            return last;
        case 0x03:   /* Ctrl-C while stopped: already stopped */
            strcpy(out, "S02");
            break;
        default:
            break;   /* unsupported: the empty reply */
        }
        if (put_packet(fd, out)) return last;
    }
}
