// build/ktpu-sim: the SoC co-simulator (SPEC §2, fixed contract; §11).
// main() only decides what runs: the options (ktpu_sim_opts.cpp), the
// sibling build for another cluster count, and which ELFs are loaded; the
// run itself is ktpu_sim_rtl.cpp (the RTL) or ktpu_sim_iss.cpp (--iss).
#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

#include "ktpu_sim_host.h"
#include "ktpu_sim_opts.h"
#include "ktpu_sim_run.h"
#include "ktpu_version.h"

using namespace ktpu_sim;

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    const unsigned kClusters = KTPU_SIM_CLUSTERS;
    // A build is one machine (its cluster count) with one datapath (RTL or
    // model); any other runs the sibling build that has it.
    unsigned long want = opt.clusters >= 0 ? (unsigned long)opt.clusters : kClusters;
    bool model = opt.dp_model || KTPU_SIM_DP_MODEL;
    if (want != kClusters || model != (bool)KTPU_SIM_DP_MODEL) {
        std::string sib = exe_dir() + "/ktpu-sim" + (want == 2 ? "" : "-" + std::to_string(want)) +
                          (model ? "-dpm" : "");
        const char *what = opt.dp_model ? "--dp-model" : "--clusters";
        if (access(sib.c_str(), X_OK) != 0)
            die("%s", (std::string(what) + ": no build of that machine beside this program (looked for " + sib +
                       "); built by make: ktpu-sim, ktpu-sim-1, ktpu-sim-4 and, with the datapath model, the same "
                       "names ending -dpm")
                          .c_str());
        execv(sib.c_str(), argv);
        die("cannot run %s", sib.c_str());
    }
    if (opt.version) {
        std::printf("ktpu-sim %s (%u cluster%s, %u memory agent%s%s)\n", KTPU_VERSION, kClusters, kClusters > 1 ? "s" : "",
                    (unsigned)KTPU_SIM_MEM_PORTS, KTPU_SIM_MEM_PORTS > 1 ? "s" : "",
                    KTPU_SIM_DP_MODEL ? ", the datapath's functional model" : "");
        return 0;
    }
    if (opt.use_clusters > (long)kClusters)
        die("%s", ("--use-clusters " + std::to_string(opt.use_clusters) + ": this machine has " +
                   std::to_string(kClusters) + " clusters (see --clusters)").c_str());
    // What is loaded: the program, the GEMM firmware, or the boot image's two ELFs.
    std::string fw_default, boot_elf, resident_elf;
    std::vector<const char *> progs;
    if (opt.boot) {
        boot_elf = exe_dir() + "/fw/ktpu_boot.elf";
        resident_elf = exe_dir() + "/fw/ktpu_gemm_resident.elf";
        for (const std::string *f : {&boot_elf, &resident_elf})
            if (access(f->c_str(), R_OK) != 0)
                die("boot image part %s not found (make build/fw/ktpu_boot.elf build/fw/ktpu_gemm_resident.elf)",
                    f->c_str());
        progs = {boot_elf.c_str(), resident_elf.c_str()};
    } else {
        if (opt.gemm() && !opt.firmware) {
            fw_default = exe_dir() + "/fw/ktpu_gemm.elf";
            opt.firmware = fw_default.c_str();
        }
        if (opt.gemm()) opt.elf = opt.firmware;
        if (opt.gemm() && access(opt.firmware, R_OK) != 0)
            die("GEMM firmware %s not found (make build/fw/ktpu_gemm.elf, or give --firmware FILE)",
                opt.firmware);
        progs = {opt.elf};
    }
    return opt.iss ? run_iss(opt) : run_rtl(opt, progs, argv[0]);
}
