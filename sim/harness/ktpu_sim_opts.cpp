// ktpu-sim's command line (see ktpu_sim_opts.h): the help text and the
// parser. Every value goes through ktpu_arg (sim/ref).
#include "ktpu_sim_opts.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ktpu_arg.h"
#include "ktpu_gemm_job.h"

namespace ktpu_sim {
namespace {

const char *kUsage =
    "usage: ktpu-sim [options] PROGRAM.elf\n"
    "       ktpu-sim [options] --gemm A.npy BT.npy -o C.npy\n"
    "       ktpu-sim [options] --gemm-gen MxKxN [--dist D] [-o C.npy]\n"
    "       ktpu-sim [options] --boot [--uart-in IMAGE | --uart-pty FILE]\n"
    "Runs PROGRAM on the simulated KohakuTPU SoC (RV32IM CPU, 128 KiB RAM at 0,\n"
    "MMIO at 0x10000000, DRAM at 0x80000000, the mesh with the memory agent and\n"
    "the clusters) from reset. UART output goes to stdout; the exit status is the\n"
    "one the program writes to SIM_EXIT.\n"
    "\n"
    "options:\n"
    "  --max-cycles N     stop after N cycles with a time-out (default 50000000;\n"
    "                     a GEMM's: 4000000 + 8 per 512 MACs of its padded shape)\n"
    "  --trace FILE       write an FST waveform to FILE (one cycle = 10 ns, the\n"
    "                     FPGA build's 100 MHz clock)\n"
    "  --trace-from N     ... starting at cycle N (default 0: from reset)\n"
    "  --trace-to N       ... ending after cycle N (default: the end of the run)\n"
    "  --trace-depth D    ... D levels of the hierarchy below the top (default all)\n"
    "  --timeline FILE    write a Chrome trace-event JSON of the run to FILE (open\n"
    "                     it in ui.perfetto.dev or chrome://tracing; 1 us there is\n"
    "                     one cycle): each cluster's fill, sweep, drain, idle,\n"
    "                     starved and back-pressured cycles, the CPU's function\n"
    "                     and GEMM phase (docs/soc.md)\n"
    "  --progress S       a progress line on stderr every S seconds of host time\n"
    "                     (cycles, cycles/s, instructions; default 10, 0: none)\n"
    "  --seed N           seed of the random initial register values and of\n"
    "                     --gemm-gen operands (default 1)\n"
    "  --dram-latency N   DRAM read latency in cycles (default 64)\n"
    "  --dram-latency1 N  memory agent 1's DRAM ports answer after N cycles instead\n"
    "                     (the 4-cluster machine: one port slower than the other)\n"
    "  --lockstep         check every retired instruction against the C model\n"
    "  --gdb PORT         wait for gdb on localhost:PORT (0: any free port, printed)\n"
    "                     and let it drive the run (registers, memory, breakpoints,\n"
    "                     step, continue, Ctrl-C); on the RTL it implies --lockstep\n"
    "                     and registers and memory are read-only:\n"
    "                     gdb-multiarch PROGRAM.elf -ex 'target remote :PORT'\n"
    "  --iss              run PROGRAM on the C instruction-set model alone, not the\n"
    "                     RTL (millions of instructions a second): the CPU, RAM,\n"
    "                     DRAM, UART, timer and mailbox, one cycle per instruction;\n"
    "                     an access to the clusters' mesh port or the accelerator's\n"
    "                     registers ends the run, named (status 125)\n"
    "  --uart-in FILE     bytes fed to the UART receiver, in order, as it takes them\n"
    "  --uart-pty FILE    bridge the UART to a new pseudo-terminal, whose path is\n"
    "                     written to FILE (for ktpu-upload --port); the clock\n"
    "                     starts when its first byte arrives (at most 60 s);\n"
    "                     UART output goes to the terminal and to stdout\n"
    "  --boot             run the boot image instead of a program: the UART\n"
    "                     bootloader and the built-in firmware under it\n"
    "                     (fw/ktpu_boot.elf, fw/ktpu_gemm_resident.elf beside this\n"
    "                     program, SPEC 9.1, docs/boot.md); with --gemm or\n"
    "                     --gemm-gen the built-in firmware then runs the GEMM\n"
    "  --stats            print cycles, instructions and CPI to stderr at the end\n"
    "  --clusters N       run the machine with N clusters: 1, 2 (this default) or 4\n"
    "                     (1 and 2: one memory agent; 4: two, each with its own DRAM\n"
    "                     port, every cluster's reads and writes spread over both)\n"
    "                     (runs the sibling build ktpu-sim-N beside this program)\n"
    "  --dp-model         the clusters' datapath as its functional model, equal to\n"
    "                     the RTL at its ports (sim/model/ktpu_cluster_dp.sv): the\n"
    "                     same cycles and results, about 1.6x the simulation speed\n"
    "                     during a GEMM (runs the sibling build ktpu-sim[-N]-dpm;\n"
    "                     make bench uses it, make test checks it against the RTL\n"
    "                     and runs every other test on the RTL builds)\n"
    "  --mem-window B,L   the memory agent's address window [B, L), bytes of DRAM\n"
    "                     (default 0,16777216: all of it); firmware reads it back\n"
    "                     from MEM_WIN_BASE/LIMIT\n"
    "  --cluster-hold P   stress: each cluster's mesh links are held (nothing moves)\n"
    "                     for about P% of the cycles, in stretches of 1..256 cycles\n"
    "                     drawn from --seed (0..90, default 0)\n"
    "  --hold-only C      with --cluster-hold: hold cluster C only (the others run\n"
    "                     ahead of it)\n"
    "  --help             this text\n"
    "  --version          the build's version (git describe)\n"
    "Options take their value as --opt VALUE or --opt=VALUE; plusargs (+name) are\n"
    "refused (the model's are set through the options above).\n"
    "Numbers are decimal digits only (no sign, blanks, 0x or octal: 010 is ten)\n"
    "and must be in the option's range, else status 125 with the option named.\n"
    "A value that should be a file name may not begin with '-' (-o --stats is\n"
    "refused; write ./--stats).\n"
    "\n"
    "GEMM (SPEC 2): the built-in GEMM firmware on A (M x K) and BT (N x K), .npy\n"
    "as numpy writes them (FP16, float32 or float64 rounded to FP16 to nearest\n"
    "even, either byte order, C or Fortran order); C (M x N, FP16, C order) is\n"
    "written to C.npy only if every check passed.\n"
    "M and N are padded to multiples of 4, K to 32, with zeros (and trimmed).\n"
    "Every C tile the firmware announces is compared bit for bit with the C\n"
    "reference; at the end every element must be covered, the canaries around C\n"
    "and the operands untouched. A report follows (tiles, cycles, MACs/cycle and\n"
    "% of peak, per-cluster counters, DRAM beats, error against FP64 and the\n"
    "exact MXFP7 product).\n"
    "  --gemm A.npy BT.npy  operands from files\n"
    "  --gemm-gen MxKxN   generated operands (from --seed and --dist)\n"
    "  --dist D           normal (default), uniform, relu (A post-ReLU),\n"
    "                     lowrank (A of rank 4), worst (full-scale blocks,\n"
    "                     alternating signs, subnormals, per-block scales;\n"
    "                     with --preq also elements at -64)\n"
    "  --preq             store the operands pre-quantised (MXFP7, FMT_MX), by\n"
    "                     the reference quantiser\n"
    "  -o FILE            where C goes (needed with --gemm, optional with --gemm-gen)\n"
    "  --firmware FILE    GEMM firmware (default fw/ktpu_gemm.elf beside this program)\n"
    "  --use-clusters N   ask the firmware to use N clusters (default all)\n"
    "  --no-split-k       ask the firmware not to split K across clusters (JOB_FLAGS\n"
    "                     NO_SPLIT; by default a C of fewer tiles than clusters is\n"
    "                     split-K, checked in the planner's order: docs/gemm.md)\n"
    "  --no-qjob          FP16: lend the firmware no scratch region, so it reads the\n"
    "                     operands online (by default it may quantise them once into\n"
    "                     one, JOB_FLAGS QJOB, when its cost model says it pays;\n"
    "                     none is lent under a narrowed --mem-window)\n"
    "  --csv FILE         append one result row (shape, cycles, % of peak) to FILE\n"
    "  --test-corrupt-ref R,C  flip the last bit of reference element C[R][C]\n"
    "                     (shows the tile check failing)\n"
    "M, K, N are 1..65536 each, and the job must fit the simulated DRAM (16 MiB);\n"
    "both are checked before anything is generated or read into memory.\n"
    "\n"
    "Files: inputs (PROGRAM, A.npy, BT.npy, --firmware) are read from regular\n"
    "files only. Every output (-o, --csv, --trace,\n"
    "--timeline) is opened before the\n"
    "simulation starts, as a fresh temporary file beside it (mkstemp), and\n"
    "renamed over it at the end (synced first); an existing output that is not\n"
    "a regular file (a directory, device, FIFO or symbolic link) is refused.\n"
    "A run that does not pass replaces no C.npy.\n"
    "\n"
    "exit status: the program's SIM_EXIT status; 124 time-out; 125 harness error\n"
    "(bad option, input or output path, unloadable ELF, a SIM_EXIT store that is\n"
    "not a 32-bit sw); 126 lockstep mismatch; 130, 143 stopped by SIGINT, SIGTERM\n"
    "(the waveform is kept and the cycles are printed). With --gemm:\n"
    "0 every check passed and the job is done; 1 a check failed (mismatch,\n"
    "coverage, canary, flags); 2 the job reported an error (named) or ended with\n"
    "numeric flags; 124, 125 as above.\n";

uint64_t num(const char *opt, const char *v, uint64_t lo, uint64_t hi)
{
    uint64_t x = 0;
    char err[KTPU_ARG_ERR_LEN];
    if (ktpu_arg_u64(opt, v, lo, hi, &x, err)) die("%s", err);
    return x;
}

const char *file(const char *opt, const char *v)
{
    char err[KTPU_ARG_ERR_LEN];
    if (ktpu_arg_file(opt, v, err)) die("%s", err);
    return v;
}

// n numbers joined by sep (e.g. MxKxN), each in [lo, hi], into out
void tuple(const char *opt, const char *v, char sep, const char *form, const char *const *names, unsigned n,
           uint64_t lo, uint64_t hi, uint64_t *out)
{
    char err[KTPU_ARG_ERR_LEN];
    if (ktpu_arg_tuple(opt, v, sep, form, names, n, lo, hi, out, err)) die("%s", err);
}

}  // namespace

[[noreturn]] void die(const char *fmt, const char *arg)
{
    std::fprintf(stderr, "ktpu-sim: error: ");
    std::fprintf(stderr, fmt, arg);
    std::fprintf(stderr, "\n");
    std::exit(kExitHarness);
}

Options parse(int argc, char **argv)
{
    Options o;
    static const char *const flags[] = {"--help", "--version", "--boot", "--iss", "--lockstep", "--stats",
                                        "--preq", "--no-split-k", "--no-qjob", nullptr};
    char nerr[KTPU_ARG_ERR_LEN];
    argv = ktpu_arg_normalise(&argc, argv, flags, nerr);
    if (!argv) die("%s", nerr);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) {
            std::fputs(kUsage, stdout);
            std::exit(0);
        } else if (!std::strcmp(a, "--version")) {
            o.version = true;   // answered by the machine --clusters names
        } else if (!std::strcmp(a, "--max-cycles")) {
            o.max_cycles = num(a, v, 1, UINT64_MAX); i++;
            o.max_cycles_given = true;
        } else if (!std::strcmp(a, "--trace")) {
            o.trace = file(a, v); i++;
        } else if (!std::strcmp(a, "--timeline")) {
            o.timeline = file(a, v); i++;
        } else if (!std::strcmp(a, "--trace-from")) {
            o.trace_from = num(a, v, 0, UINT64_MAX); i++;
        } else if (!std::strcmp(a, "--trace-to")) {
            o.trace_to = num(a, v, 0, UINT64_MAX); i++;
        } else if (!std::strcmp(a, "--trace-depth")) {
            o.trace_depth = num(a, v, 1, 99); i++;
        } else if (!std::strcmp(a, "--progress")) {
            o.progress_s = num(a, v, 0, 86400); i++;
        } else if (!std::strcmp(a, "--seed")) {
            o.seed = num(a, v, 0, UINT64_MAX); i++;
        } else if (!std::strcmp(a, "--dram-latency")) {
            o.dram_latency = (long)num(a, v, 1, 100000); i++;
        } else if (!std::strcmp(a, "--dram-latency1")) {
            o.dram_latency1 = (long)num(a, v, 1, 100000); i++;
        } else if (!std::strcmp(a, "--uart-in")) {
            o.uart_in = file(a, v); i++;
        } else if (!std::strcmp(a, "--uart-pty")) {
            o.uart_pty = file(a, v); i++;
        } else if (!std::strcmp(a, "--boot")) {
            o.boot = true;
        } else if (!std::strcmp(a, "--gdb")) {
            o.gdb_port = (long)num(a, v, 0, 65535); i++;
        } else if (!std::strcmp(a, "--iss")) {
            o.iss = true;
        } else if (!std::strcmp(a, "--lockstep")) {
            o.lockstep = true;
        } else if (!std::strcmp(a, "--stats")) {
            o.stats = true;
        } else if (!std::strcmp(a, "--gemm")) {
            o.gemm_a = file(a, v);
            if (i + 2 >= argc) die("%s needs two files: A.npy BT.npy", a);
            o.gemm_b = file(a, argv[i + 2]); i += 2;
        } else if (!std::strcmp(a, "--gemm-gen")) {
            static const char *const names[3] = {"M", "K", "N"};
            tuple(a, v, 'x', "MxKxN, e.g. 64x128x64", names, 3, 1, KTPU_GEMM_MAX_DIM, o.shape);
            o.gen = v; i++;
        } else if (!std::strcmp(a, "--dist")) {
            if (!v) die("%s needs a distribution", a);
            o.dist = v; i++;
        } else if (!std::strcmp(a, "-o")) {
            o.out_c = file(a, v); i++;
        } else if (!std::strcmp(a, "--firmware")) {
            o.firmware = file(a, v); i++;
        } else if (!std::strcmp(a, "--csv")) {
            o.csv = file(a, v); i++;
        } else if (!std::strcmp(a, "--preq")) {
            o.preq = true;
        } else if (!std::strcmp(a, "--no-split-k")) {
            o.no_split = true;
        } else if (!std::strcmp(a, "--no-qjob")) {
            o.no_qjob = true;
        } else if (!std::strcmp(a, "--clusters")) {
            uint64_t c = 0;
            char err[KTPU_ARG_ERR_LEN];
            if (ktpu_arg_one_of(a, v, kMachines, 3, &c, err)) die("%s", err);
            o.clusters = (long)c; i++;
        } else if (!std::strcmp(a, "--dp-model")) {
            o.dp_model = true;
        } else if (!std::strcmp(a, "--use-clusters")) {
            o.use_clusters = (long)num(a, v, 1, kMaxClusters); i++;
        } else if (!std::strcmp(a, "--mem-window")) {
            static const char *const names[2] = {"BASE", "LIMIT"};
            tuple(a, v, ',', "BASE,LIMIT", names, 2, 0, KTPU_DRAM_SIM_BYTES, o.win);
            if (o.win[0] >= o.win[1]) die("--mem-window %s: BASE must be below LIMIT", v);
            i++;
        } else if (!std::strcmp(a, "--cluster-hold")) {
            o.hold_pct = (unsigned)num(a, v, 0, 90); i++;
        } else if (!std::strcmp(a, "--hold-only")) {
            o.hold_only = (long)num(a, v, 0, KTPU_SIM_CLUSTERS - 1); i++;
        } else if (!std::strcmp(a, "--test-corrupt-ref")) {
            static const char *const names[2] = {"ROW", "COL"};
            uint64_t rc[2];
            tuple(a, v, ',', "ROW,COL", names, 2, 0, KTPU_GEMM_MAX_DIM - 1, rc);
            o.corrupt_row = (long)rc[0]; o.corrupt_col = (long)rc[1]; i++;
        } else if (a[0] == '-' && a[1]) {
            die("unknown option %s (see --help)", a);
        } else if (a[0] == '+') {
            // a simulator plusarg (+trace): not an option here, and not a program
            char q[KTPU_ARG_QUOTE_LEN];
            die("'%s' is a plusarg: ktpu-sim takes --options (see --help; write ./+name for a file of "
                "that name)", ktpu_arg_quote(q, a));
        } else if (o.elf) {
            die("more than one program given: %s", a);
        } else {
            o.elf = a;
        }
    }
    if (o.version) return o;
    if (o.gemm_a && o.gen) die("%s", "--gemm and --gemm-gen exclude each other");
    if (o.uart_in && o.uart_pty) die("%s", "--uart-in and --uart-pty exclude each other");
    if (!o.trace && (o.trace_from || o.trace_to != UINT64_MAX || o.trace_depth != 99))
        die("%s", "--trace-from, --trace-to and --trace-depth need --trace FILE");
    if (o.trace_from > o.trace_to) die("%s", "--trace-from is after --trace-to");
    if (o.gdb_port >= 0 && !o.iss) o.lockstep = true;   // the model beside the core is the debugger's view
    if (o.iss && (o.gemm() || o.boot || o.lockstep || o.trace || o.timeline || o.uart_pty || o.clusters >= 0 || o.hold_pct || o.dp_model ||
                  o.dram_latency != kDefaultDramLatency || o.dram_latency1 || o.win[0] ||
                  o.win[1] != KTPU_DRAM_SIM_BYTES))
        die("%s", "--iss runs a CPU-only program on the instruction-set model: it has no clusters, RTL, DRAM "
                  "timing or waveform (--gemm, --boot, --lockstep, --trace, --timeline, --uart-pty, "
                  "--clusters, --dp-model, "
                  "--cluster-hold, --dram-latency[1] and --mem-window need the co-simulation)");
    if (o.boot && o.elf) die("a program (%s) and --boot were both given: --boot runs the boot image", o.elf);
    if (o.boot && o.firmware) die("%s", "--boot runs the boot image's built-in firmware: --firmware does not apply");
    if (o.gemm()) {
        if (o.elf) die("a program (%s) and a GEMM were both given: the GEMM runs the firmware of --firmware", o.elf);
        if (o.gemm_a && !o.out_c) die("%s", "--gemm needs -o C.npy");
    } else {
        if (o.out_c || o.preq || o.firmware || o.csv || o.corrupt_row >= 0 || o.use_clusters || o.no_split ||
            o.no_qjob)
            die("%s", "-o, --preq, --firmware, --csv, --use-clusters, --no-split-k, --no-qjob and --test-corrupt-ref need "
                      "--gemm or --gemm-gen");
        if (!o.elf && !o.boot) die("%s", "no program given (see --help)");
    }
    return o;
}


}  // namespace ktpu_sim
