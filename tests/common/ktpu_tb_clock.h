// Clocking for the datapath benches, identical under the repository's
// DSP48E2 model and the vendor's (built with --timing): time advances through
// every scheduled event up to each clock edge, so #delays and the vendor
// glbl's 100 ns GSR pulse play out as in a event-driven simulator. With no
// timed events (our model) this is just a clock.
#ifndef KTPU_TB_CLOCK_H
#define KTPU_TB_CLOCK_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include "verilated.h"

template <class Model>
class TbClock {
  public:
    TbClock(VerilatedContext *ctx, Model *m) : ctx_(ctx), m_(m) {
        // 10 ns clock in the model's time precision (ps for the vendor model).
        uint64_t per_ns = 1;
        for (int p = ctx->timeprecision(); p < -9; p++) per_ns *= 10;
        half_ = 5 * per_ns;
        m_->clk_i = 0;
        m_->eval();
    }
    // One clock cycle: half a period low, the rising edge, half a period
    // high (edges at 5, 15, 25 ns ..., never at time 0, where the vendor
    // model is still decoding its attributes). Inputs set before the call
    // are what the rising edge samples; outputs read after it are the
    // registered values of that edge.
    void cycle() {
        advance(half_);
        m_->clk_i = 1;
        m_->eval();
        advance(half_);
        m_->clk_i = 0;
        m_->eval();
        cycles_++;
    }
    uint64_t cycles() const { return cycles_; }
    // Simulated nanoseconds so far.
    uint64_t ns() const { return cycles_ * 10u; }

  private:
    void advance(uint64_t dt) {
        uint64_t until = ctx_->time() + dt;
        while (m_->eventsPending() && m_->nextTimeSlot() < until) {
            ctx_->time(m_->nextTimeSlot());
            m_->eval();
        }
        ctx_->time(until);
        m_->eval();
    }
    VerilatedContext *ctx_;
    Model *m_;
    uint64_t half_ = 5;
    uint64_t cycles_ = 0;
};

// Vendor GSR is held for the first 100 ns: benches idle at least this long.
#ifndef KTPU_TB_IDLE_CYCLES
#define KTPU_TB_IDLE_CYCLES 20  // 200 ns at 10 ns
#endif
static const unsigned kTbIdleCycles = KTPU_TB_IDLE_CYCLES;

#endif
