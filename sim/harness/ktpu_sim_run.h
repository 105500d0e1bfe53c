// The two ways ktpu-sim runs a program, each from its checked options
// (ktpu_sim_main.cpp picks one): on the RTL (ktpu_sim_rtl.cpp) or on the C
// instruction-set model alone (--iss, ktpu_sim_iss.cpp). Each returns the
// process's exit status.
#ifndef KTPU_SIM_RUN_H
#define KTPU_SIM_RUN_H

#include <vector>

#include "ktpu_sim_opts.h"

namespace ktpu_sim {

// progs: the ELFs loaded, in order (the program, the GEMM firmware, or the
// boot image's two parts); argv0 names the model for its plusargs.
int run_rtl(Options &opt, const std::vector<const char *> &progs, const char *argv0);
int run_iss(const Options &opt);

}  // namespace ktpu_sim
#endif
