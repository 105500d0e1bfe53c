/* gen_defs: data/ktpu.def -> SystemVerilog package + C header (SPEC §12).
 *
 * usage: gen_defs DEF_FILE OUT_SV OUT_H
 * Every name must be unique after expansion and every field must fit in 32
 * bits; a violation stops the build with the file and line. Both outputs are
 * written through sim/ref/ktpu_out.c (the one output writer) and replaced
 * only when both were written completely. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktpu_out.h"

#define MAX_ITEMS 1024
#define NAME_LEN 64
#define DOC_LEN 160

struct item {
    char name[NAME_LEN]; /* expanded name, e.g. FP22_EXP_LSB */
    unsigned long value;
    int is_hex; /* masks and register offsets: unsigned hex in C */
    char doc[DOC_LEN];
    char group[NAME_LEN]; /* enums: the GROUP, for the name lists */
    char ename[NAME_LEN]; /* enums: the NAME inside it */
    char rblock[NAME_LEN]; /* registers: the BLOCK (e.g. MMIO), for the access lists */
    char rname[NAME_LEN];  /* registers: the NAME inside it */
    int rd, wr;            /* registers: readable, writable */
    char fgroup[NAME_LEN]; /* fields (their _LSB item): the GROUP, for the pack functions */
    char fname[NAME_LEN];  /* fields: the NAME inside it */
    unsigned long msb;     /* fields: the top bit (value holds the LSB) */
};

/* pack lines: the groups that get a function building their word */
#define MAX_PACKS 8
static char packs[MAX_PACKS][NAME_LEN];
static int n_packs;

static struct item items[MAX_ITEMS];
static int n_items;
static const char *def_path;
static int line_no;

static void die(const char *msg, const char *arg)
{
    fprintf(stderr, "%s:%d: error: %s%s%s\n", def_path, line_no, msg,
            arg ? ": " : "", arg ? arg : "");
    exit(1);
}

static unsigned long parse_num(const char *s)
{
    char buf[64];
    size_t n = 0;
    for (; *s && n + 1 < sizeof buf; s++)
        if (*s != '_') buf[n++] = *s;
    buf[n] = '\0';
    if (n == 0 || buf[0] == '-') die("bad number", s);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(buf, &end, 0);
    if (*end || errno || v > 0xFFFFFFFFull) die("bad or out-of-range number", buf);
    return (unsigned long)v;
}

static void check_ident(const char *s)
{
    if (!isupper((unsigned char)s[0])) die("names are UPPER_CASE", s);
    for (; *s; s++)
        if (!(isupper((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_'))
            die("names are UPPER_CASE", s);
}

static void add(const char *a, const char *b, const char *suffix, unsigned long v,
                int is_hex, const char *doc)
{
    if (n_items == MAX_ITEMS) die("too many items", NULL);
    struct item *it = &items[n_items];
    int n = snprintf(it->name, NAME_LEN, "%s%s%s%s", a, b ? "_" : "", b ? b : "",
                     suffix ? suffix : "");
    if (n >= NAME_LEN) die("name too long", a);
    for (int i = 0; i < n_items; i++)
        if (!strcmp(items[i].name, it->name)) die("duplicate name", it->name);
    it->value = v;
    it->is_hex = is_hex || v > 0x7FFFFFFFul;
    snprintf(it->doc, DOC_LEN, "%s", doc ? doc : "");
    n_items++;
}

static void lower(char *dst, const char *src)
{
    for (; *src; src++) *dst++ = (char)tolower((unsigned char)*src);
    *dst = '\0';
}

/* A pack line's function: GROUP's 32-bit word from one argument per field,
 * in file order, each placed at its bits (fields named RSVD are zero and
 * take no argument). SystemVerilog: ktpu_pkg::<group>_pack, each argument
 * as wide as its field and named <field>_i (`type` is a keyword); C: ktpu_<group>_pack, each argument masked to its
 * field, as the hardware's field is. */
static void emit_pack(FILE *sv, FILE *h, const char *group)
{
    char lg[NAME_LEN], ln[NAME_LEN];
    lower(lg, group);
    fprintf(sv, "  // %s's word from its fields (RSVD zero)\n  function automatic logic [31:0] %s_pack(", group, lg);
    fprintf(h, "\n/* %s's word from its fields (RSVD zero), each masked to its bits */\n#ifndef __ASSEMBLER__\nstatic inline unsigned ktpu_%s_pack(",
            group, lg);
    int first = 1;
    for (int i = 0; i < n_items; i++) {
        const struct item *it = &items[i];
        if (strcmp(it->fgroup, group) || !strcmp(it->fname, "RSVD")) continue;
        lower(ln, it->fname);
        fprintf(sv, "%sinput logic [%lu:0] %s_i", first ? "" : ", ", it->msb - it->value, ln);
        fprintf(h, "%sunsigned %s", first ? "" : ", ", ln);
        first = 0;
    }
    fprintf(sv, ");\n    %s_pack = 32'd0;\n", lg);
    fprintf(h, ")\n{\n    return 0u");
    for (int i = 0; i < n_items; i++) {
        const struct item *it = &items[i];
        if (strcmp(it->fgroup, group) || !strcmp(it->fname, "RSVD")) continue;
        lower(ln, it->fname);
        fprintf(sv, "    %s_pack[%lu:%lu] = %s_i;\n", lg, it->msb, it->value, ln);
        unsigned long w = it->msb - it->value + 1, mask = w == 32 ? 0xFFFFFFFFul : (1ul << w) - 1;
        fprintf(h, " |\n           (%s & 0x%lXu) << %lu", ln, mask, it->value);
    }
    fprintf(sv, "  endfunction\n");
    fprintf(h, ";\n}\n#endif\n");
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: gen_defs DEF_FILE OUT_SV OUT_H\n");
        return 2;
    }
    def_path = argv[1];
    FILE *in = fopen(def_path, "r");
    if (!in) { perror(def_path); return 1; }

    char line[512];
    while (fgets(line, sizeof line, in)) {
        line_no++;
        if (!strchr(line, '\n') && !feof(in)) die("line too long", NULL);
        char *doc = strstr(line, "--");
        if (doc) {
            *doc = '\0';
            doc += 2;
            while (isspace((unsigned char)*doc)) doc++;
            doc[strcspn(doc, "\n")] = '\0';
        }
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *tok[6];
        int nt = 0;
        for (char *t = strtok(line, " \t\r\n"); t; t = strtok(NULL, " \t\r\n"))
            if (nt < 6) tok[nt++] = t; else die("too many words", t);
        if (nt == 0) continue;

        if (!strcmp(tok[0], "const") && nt == 3) {
            check_ident(tok[1]);
            add(tok[1], NULL, NULL, parse_num(tok[2]), 0, doc);
        } else if (!strcmp(tok[0], "enum") && nt == 4) {
            check_ident(tok[1]); check_ident(tok[2]);
            add(tok[1], tok[2], NULL, parse_num(tok[3]), 0, doc);
            snprintf(items[n_items - 1].group, NAME_LEN, "%s", tok[1]);
            snprintf(items[n_items - 1].ename, NAME_LEN, "%s", tok[2]);
        } else if (!strcmp(tok[0], "field") && nt == 5) {
            check_ident(tok[1]); check_ident(tok[2]);
            unsigned long msb = parse_num(tok[3]), lsb = parse_num(tok[4]);
            if (msb < lsb || msb > 31) die("field needs 31 >= MSB >= LSB", tok[2]);
            unsigned long w = msb - lsb + 1;
            unsigned long mask = (w == 32 ? 0xFFFFFFFFul : ((1ul << w) - 1)) << lsb;
            add(tok[1], tok[2], "_LSB", lsb, 0, doc);
            snprintf(items[n_items - 1].fgroup, NAME_LEN, "%s", tok[1]);
            snprintf(items[n_items - 1].fname, NAME_LEN, "%s", tok[2]);
            items[n_items - 1].msb = msb;
            add(tok[1], tok[2], "_MSB", msb, 0, NULL);
            add(tok[1], tok[2], "_WIDTH", w, 0, NULL);
            add(tok[1], tok[2], "_MASK", mask & 0xFFFFFFFFul, 1, NULL);
        } else if (!strcmp(tok[0], "reg") && nt == 5) {
            check_ident(tok[1]); check_ident(tok[2]);
            if (strcmp(tok[4], "ro") && strcmp(tok[4], "wo") && strcmp(tok[4], "rw"))
                die("access is ro, wo or rw", tok[4]);
            unsigned long off = parse_num(tok[3]);
            if (off & 3) die("register offsets are word aligned", tok[2]);
            char full[NAME_LEN * 2];
            snprintf(full, sizeof full, "%s_%s", tok[1], tok[2]);
            char docbuf[DOC_LEN];
            snprintf(docbuf, sizeof docbuf, "[%s] %s", tok[4], doc ? doc : "");
            add(full, NULL, "_OFFSET", off, 1, docbuf);
            struct item *it = &items[n_items - 1];
            snprintf(it->rblock, NAME_LEN, "%s", tok[1]);
            snprintf(it->rname, NAME_LEN, "%s", tok[2]);
            it->rd = strcmp(tok[4], "wo") != 0;
            it->wr = strcmp(tok[4], "ro") != 0;
        } else if (!strcmp(tok[0], "pack") && nt == 2) {
            check_ident(tok[1]);
            int nf = 0;
            for (int i = 0; i < n_items; i++) nf += !strcmp(items[i].fgroup, tok[1]);
            if (!nf) die("pack names a group with no field above it", tok[1]);
            if (n_packs == MAX_PACKS) die("too many pack lines", tok[1]);
            snprintf(packs[n_packs++], NAME_LEN, "%s", tok[1]);
        } else {
            die("unknown line (const/field/enum/reg/pack with the right word count)", tok[0]);
        }
    }
    fclose(in);

    struct ktpu_out o_sv, o_h;
    char oerr[KTPU_OUT_ERR_LEN];
    if (ktpu_out_open(&o_sv, argv[2], oerr)) { fprintf(stderr, "gen_defs: %s\n", oerr); return 1; }
    if (ktpu_out_open(&o_h, argv[3], oerr)) {
        fprintf(stderr, "gen_defs: %s\n", oerr);
        ktpu_out_abort(&o_sv);
        return 1;
    }
    FILE *sv = o_sv.f, *h = o_h.f;
    const char *banner = "generated from data/ktpu.def by scripts/gen_defs.c -- do not edit";
    /* UNUSEDPARAM off inside: every design reads a few of the constants. It
     * matters once the package holds a function (pack lines): Verilator then
     * keeps the package in a design that imports nothing from it and warns
     * for each constant. */
    fprintf(sv, "// %s\n`ifndef KTPU_PKG_SV\n`define KTPU_PKG_SV\n/* verilator lint_off UNUSEDPARAM */\npackage ktpu_pkg;\n",
            banner);
    fprintf(h, "/* %s */\n#ifndef KTPU_DEFS_H\n#define KTPU_DEFS_H\n\n", banner);
    for (int i = 0; i < n_items; i++) {
        const struct item *it = &items[i];
        if (it->doc[0]) {
            fprintf(sv, "  // %s\n", it->doc);
            fprintf(h, "/* %s */\n", it->doc);
        }
        fprintf(sv, "  localparam int unsigned %s = 32'd%lu;\n", it->name, it->value);
        /* Plain int where it fits, so signed C arithmetic stays signed;
         * masks, register offsets and values past INT32_MAX as unsigned hex. */
        if (it->is_hex)
            fprintf(h, "#define KTPU_%s 0x%08lXu\n", it->name, it->value);
        else
            fprintf(h, "#define KTPU_%s %lu\n", it->name, it->value);
    }
    for (int p = 0; p < n_packs; p++) emit_pack(sv, h, packs[p]);
    fprintf(sv, "endpackage\n/* verilator lint_on UNUSEDPARAM */\n`endif\n");
    /* Per enum group, an X-macro list so C code can name codes from this one
     * table (error messages say CLERR_MEM, not 11): KTPU_<GROUP>_LIST(X)
     * expands X(NAME, VALUE, "doc") for each member, in file order. */
    for (int i = 0; i < n_items; i++) {
        if (!items[i].group[0]) continue;
        int first = 1;
        for (int j = 0; j < i; j++)
            if (!strcmp(items[j].group, items[i].group)) first = 0;
        if (!first) continue;
        fprintf(h, "\n/* X(NAME, VALUE, DOC) for every %s_* code */\n#define KTPU_%s_LIST(X)",
                items[i].group, items[i].group);
        for (int j = i; j < n_items; j++) {
            if (strcmp(items[j].group, items[i].group)) continue;
            fprintf(h, " \\\n    X(%s, %lu, \"", items[j].ename, items[j].value);
            for (const char *d = items[j].doc; *d; d++) {
                if (*d == '"' || *d == '\\') fputc('\\', h);
                fputc(*d, h);
            }
            fputc('"', h);
            fputc(')', h);
        }
        fputc('\n', h);
    }
    /* Per register block, the access map: KTPU_<BLOCK>_REG_LIST(X) expands
     * X(NAME, OFFSET, READABLE, WRITABLE) for each register, in file order
     * (the instruction-set model decodes MMIO from it). */
    for (int i = 0; i < n_items; i++) {
        if (!items[i].rblock[0]) continue;
        int first = 1;
        for (int j = 0; j < i; j++)
            if (!strcmp(items[j].rblock, items[i].rblock)) first = 0;
        if (!first) continue;
        fprintf(h, "\n/* X(NAME, OFFSET, READABLE, WRITABLE) for every %s register */\n#define KTPU_%s_REG_LIST(X)",
                items[i].rblock, items[i].rblock);
        for (int j = i; j < n_items; j++)
            if (!strcmp(items[j].rblock, items[i].rblock))
                fprintf(h, " \\\n    X(%s, 0x%08lXu, %d, %d)", items[j].rname, items[j].value, items[j].rd,
                        items[j].wr);
        fputc('\n', h);
    }
    fprintf(h, "\n#endif\n");
    if (ktpu_out_commit(&o_sv, oerr) || ktpu_out_commit(&o_h, oerr)) {
        fprintf(stderr, "gen_defs: %s\n", oerr);
        ktpu_out_abort(&o_h);
        return 1;
    }
    return 0;
}
