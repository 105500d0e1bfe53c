// Bench for ktpu_acc (rtl/acc): every output sub-tile is checked bit for bit
// against the C reference (ktpu_ref_acc_op), in order, plus the sticky flags
// and their counters. The harness models the cluster chain as a fixed delay
// of --lat cycles (the accumulator must not care which) and applies random
// back-pressure on both outputs.
//
//   acc_tb [--seed N] [--lat L] [--expect reuse|underflow|overflow]
//
// Without --expect, runs every scenario and exits 0 only if all checks pass
// and no simulation assertion fired. With --expect X, provokes that one
// violation and exits 0 only if the assertion fired in the exact cycle the
// violation happens (a bench that expects its assertion to fire).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vktpu_acc.h"
#include "verilated.h"
#include "ktpu_tb.h"
#include "ktpu_ref.h"

namespace {

const int kLanes = 16;
const int kDepth = KTPU_ACC_DEPTH;
const int kReuse = KTPU_ACC_REUSE_MIN;

// ---- the bench kit's random stream, seeded in main -------------------------
TbRng g_rng(1);
uint32_t rnd32() { return g_rng.next32(); }
uint32_t rnd(uint32_t n) { return n ? rnd32() % n : 0; }
int32_t rnd_range(int32_t lo, int32_t hi) { return lo + (int32_t)rnd((uint32_t)(hi - lo + 1)); }

// ---- wide-port bit access ---------------------------------------------------
template <class W> void put_bits(W &w, int lsb, int width, uint32_t v) {
    for (int b = 0; b < width; b++) {
        int pos = lsb + b;
        uint32_t &word = w[pos / 32];
        uint32_t m = 1u << (pos % 32);
        word = ((v >> b) & 1u) ? (word | m) : (word & ~m);
    }
}
template <class W> uint32_t get_bits(const W &w, int lsb, int width) {
    uint32_t v = 0;
    for (int b = 0; b < width; b++) {
        int pos = lsb + b;
        if ((w[pos / 32] >> (pos % 32)) & 1u) v |= 1u << b;
    }
    return v;
}

uint32_t fp22(int s, int e, uint32_t f) { return ((uint32_t)s << 21) | ((uint32_t)e << 14) | (f & 0x3FFF); }

struct Cmd {
    int op = KTPU_ACC_OP_LOAD;
    int addr = 0;
    int32_t p[kLanes] = {0};
    uint8_t sa[4] = {0xA0, 0xA0, 0xA0, 0xA0};
    uint8_t sb[4] = {0xA0, 0xA0, 0xA0, 0xA0};
    uint32_t peer[kLanes] = {0};
    bool force = false;   // issue even if it breaks the reuse distance
};

struct OutRec {
    int addr;
    uint32_t v[kLanes];
    const char *what;
    int op;
    uint32_t t_before[kLanes];   // for the failure message
};

struct Chain {
    uint64_t due;
    int32_t p[kLanes];
    uint8_t sa[4], sb[4];
};

bool is_tile_op(int op) { return op != KTPU_ACC_OP_FWD; }

class Bench {
public:
    Bench(VerilatedContext *ctx, int lat) : ctx_(ctx), lat_(lat), top_(new Vktpu_acc(ctx)) {
        for (auto &t : tile_) for (auto &e : t) e = 0;
        for (auto &c : last_issue_) c = -1000000;
    }
    ~Bench() { top_->final(); }

    // Checks and results.
    long elems = 0, emits = 0, pouts = 0, cmds = 0, idle_cycles = 0;   // checks, fails: the kit's (ktpu_tb.h)
    uint64_t cycle = 0;
    uint64_t first_error_cycle = 0;
    bool saw_error = false;
    bool back_pressure = true;   // random ready on the outputs
    bool stall_outputs = false;  // both outputs not ready at all
    int idle_pct = 0;            // random idle cycles between commands

    void reset() {
        top_->rst_ni = 0;
        top_->cmd_valid_i = 0;
        top_->res_valid_i = 0;
        top_->peer_in_valid_i = 0;
        top_->emit_ready_i = 0;
        top_->peer_out_ready_i = 0;
        top_->stat_clear_i = 0;
        for (int i = 0; i < 4; i++) tick();
        top_->rst_ni = 1;
    }

    // Issue cmds in order, as fast as reuse distance, credits, peer-in space
    // and the idle percentage allow. Returns the issue cycle of each.
    std::vector<uint64_t> run(const std::vector<Cmd> &cs, uint64_t max_cycles = ~0ull) {
        std::vector<uint64_t> at;
        size_t i = 0;
        uint64_t start = cycle;
        while (i < cs.size() && !fails && cycle - start < max_cycles) {
            const Cmd &c = cs[i];
            bool eligible = true;
            if (is_tile_op(c.op) && !c.force &&
                (int64_t)cycle - last_issue_[c.addr] < kReuse)
                eligible = false;
            if (idle_pct && (int)rnd(100) < idle_pct) eligible = false;
            bool issued = step(eligible ? &c : nullptr);
            if (issued) { at.push_back(cycle - 1); i++; }
        }
        return at;
    }

    // Idle until the accumulator is quiet and every expected output arrived.
    void drain(int max_cycles = 100000) {
        int n = 0;
        while ((top_->busy_o || !exp_emit_.empty() || !exp_pout_.empty() || !chain_.empty()) &&
               !fails) {
            step(nullptr);
            if (++n > max_cycles) { fail("drain: timed out"); return; }
        }
        // A quiet accumulator has retired everything it was given.
        check(top_->inflight_o == 0, "inflight_o is 0 when idle");
    }

    void check_flags() {
        check(top_->flags_o == (exp_flags_ & 7u), "sticky flags");
        check(top_->cnt_acc_ovf_o == cnt_aovf_, "ACC_OVERFLOW counter");
        check(top_->cnt_acc_unf_o == cnt_aunf_, "ACC_UNDERFLOW counter");
        check(top_->cnt_f16_ovf_o == cnt_fovf_, "FP16_OVERFLOW counter");
        if (fails)
            fprintf(stderr, "  flags hw %x ref %x; counters hw %u/%u/%u ref %u/%u/%u\n",
                    top_->flags_o, exp_flags_, top_->cnt_acc_ovf_o, top_->cnt_acc_unf_o,
                    top_->cnt_f16_ovf_o, cnt_aovf_, cnt_aunf_, cnt_fovf_);
    }

    void clear_stats() {
        top_->stat_clear_i = 1;
        step(nullptr);
        top_->stat_clear_i = 0;
        exp_flags_ = 0; cnt_aovf_ = cnt_aunf_ = cnt_fovf_ = 0;
    }

    uint32_t ref_tile(int addr, int lane) const { return tile_[addr][lane]; }
    void idle(int n) { for (int i = 0; i < n && !fails; i++) step(nullptr); }
    // A chain result in the next cycle that no command asked for.
    void inject_result() {
        Chain ch{};
        ch.due = cycle;
        chain_.push_front(ch);
    }
    bool busy() const { return top_->busy_o; }
    bool emit_valid() const { return top_->emit_valid_o; }
    uint32_t last_pout(int lane) const { return last_pout_[lane]; }

    void check(bool ok, const char *what) {
        checks++;
        if (!ok && !fails) {
            fprintf(stderr, "FAIL cycle %llu: %s\n", (unsigned long long)cycle, what);
            fails++;
        }
    }
    void fail(const char *what) { check(false, what); }

private:
    VerilatedContext *ctx_;
    int lat_;
    std::unique_ptr<Vktpu_acc> top_;
    uint32_t tile_[kDepth][kLanes];
    int64_t last_issue_[kDepth];
    std::deque<Chain> chain_;
    std::deque<OutRec> exp_emit_, exp_pout_;
    std::deque<std::vector<uint32_t>> peer_q_;
    unsigned exp_flags_ = 0;
    uint32_t cnt_aovf_ = 0, cnt_aunf_ = 0, cnt_fovf_ = 0;
    uint32_t last_pout_[kLanes] = {0};
    // The last few operations on each element, for failure messages.
    std::deque<std::string> hist_[kDepth][kLanes];

    void tick() {
        top_->clk_i = 0; top_->eval();
        top_->clk_i = 1; top_->eval();
        ctx_->timeInc(1);
        cycle++;
        if (ctx_->gotError() && !saw_error) { saw_error = true; first_error_cycle = cycle - 1; }
    }

    // One cycle: offer command c (or none). Returns true if it was accepted.
    bool step(const Cmd *c) {
        // Chain result due this cycle?
        bool res = !chain_.empty() && chain_.front().due == cycle;
        top_->res_valid_i = res;
        if (res) {
            const Chain &ch = chain_.front();
            for (int l = 0; l < kLanes; l++)
                put_bits(top_->res_p_i, 19 * l, 19, (uint32_t)ch.p[l] & 0x7FFFF);
            uint32_t sa = 0, sb = 0;
            for (int k = 0; k < 4; k++) {
                sa |= (uint32_t)ch.sa[k] << (8 * k);
                sb |= (uint32_t)ch.sb[k] << (8 * k);
            }
            top_->res_sa_i = sa;
            top_->res_sb_i = sb;
        } else {
            // Garbage on the data when not valid: it must be ignored.
            for (int l = 0; l < kLanes; l++) put_bits(top_->res_p_i, 19 * l, 19, rnd32());
        }
        top_->emit_ready_i = stall_outputs ? 0 : back_pressure ? (rnd(4) != 0) : 1;
        top_->peer_out_ready_i = stall_outputs ? 0 : back_pressure ? (rnd(4) != 0) : 1;
        top_->clk_i = 0;
        top_->cmd_valid_i = 0;
        top_->peer_in_valid_i = 0;
        top_->eval();
        bool offer = c != nullptr;
        if (c && c->op == KTPU_ACC_OP_ADD_PEER && !top_->peer_in_ready_o) offer = false;
        if (offer) {
            top_->cmd_valid_i = 1;
            top_->cmd_op_i = c->op;
            top_->cmd_addr_i = c->addr;
            if (c->op == KTPU_ACC_OP_ADD_PEER) {
                top_->peer_in_valid_i = 1;
                for (int l = 0; l < kLanes; l++) put_bits(top_->peer_in_data_i, 22 * l, 22, c->peer[l]);
            }
        } else {
            top_->cmd_op_i = rnd(7);   // ready may depend on op; valid low must win
            top_->cmd_addr_i = rnd(kDepth);
        }
        top_->eval();
        bool issued = offer && top_->cmd_ready_o;
        if (offer && !issued && c->op == KTPU_ACC_OP_ADD_PEER) {
            // Keep the pairing simple: no peer push without its command.
            top_->peer_in_valid_i = 0;
            top_->eval();
        }
        if (issued) accept(*c);
        else if (!res) idle_cycles++;
        if (res) chain_.pop_front();
        // Outputs.
        if (top_->emit_valid_o && top_->emit_ready_i) {
            if (exp_emit_.empty()) fail("emit with nothing expected");
            else {
                const OutRec &e = exp_emit_.front();
                compare(e, top_->emit_data_o, 16, top_->emit_addr_o);
                exp_emit_.pop_front();
                emits++;
            }
        }
        if (top_->peer_out_valid_o && top_->peer_out_ready_i) {
            if (exp_pout_.empty()) fail("peer out with nothing expected");
            else {
                const OutRec &e = exp_pout_.front();
                compare(e, top_->peer_out_data_o, 22, top_->peer_out_addr_o);
                for (int l = 0; l < kLanes; l++) last_pout_[l] = get_bits(top_->peer_out_data_o, 22 * l, 22);
                exp_pout_.pop_front();
                pouts++;
            }
        }
        tick();
        return issued;
    }

    template <class W> void compare(const OutRec &e, const W &data, int width, uint32_t addr) {
        checks++;
        if ((int)addr != e.addr && !fails) {
            fprintf(stderr, "FAIL cycle %llu: %s address %u, expected %d\n",
                    (unsigned long long)cycle, e.what, addr, e.addr);
            fails++;
        }
        for (int l = 0; l < kLanes; l++) {
            uint32_t got = get_bits(data, width * l, width);
            checks++; elems++;
            if (got != e.v[l] && !fails) {
                fprintf(stderr,
                        "FAIL cycle %llu: %s tile %d element (%d,%d): got 0x%06x expected 0x%06x\n",
                        (unsigned long long)cycle, e.what, e.addr, l / 4, l % 4, got, e.v[l]);
                fprintf(stderr, "  op %d, tile element before it 0x%06x; history:\n", e.op, e.t_before[l]);
                for (const std::string &h : hist_[e.addr][l]) fprintf(stderr, "    %s\n", h.c_str());
                fails++;
            }
        }
    }

    void accept(const Cmd &c) {
        cmds++;
        if (is_tile_op(c.op)) last_issue_[c.addr] = (int64_t)cycle;
        Chain ch;
        ch.due = cycle + (uint64_t)lat_;
        memcpy(ch.p, c.p, sizeof ch.p);
        memcpy(ch.sa, c.sa, 4);
        memcpy(ch.sb, c.sb, 4);
        chain_.push_back(ch);
        OutRec o16{c.addr, {0}, "emit", c.op, {0}}, o22{c.addr, {0}, "peer out", c.op, {0}};
        for (int l = 0; l < kLanes; l++) {
            o16.t_before[l] = o22.t_before[l] = tile_[c.addr][l];
            unsigned fl = 0;
            uint32_t pout = 0;
            uint16_t out16 = 0;
            ktpu_ref_acc_op((enum ktpu_acc_op)c.op, &tile_[c.addr][l], c.p[l], c.sa[l / 4],
                            c.sb[l % 4], c.peer[l], &pout, &out16, &fl);
            exp_flags_ |= fl;
            char line[160];
            snprintf(line, sizeof line, "op %d T 0x%06x p %d sa 0x%02x sb 0x%02x peer 0x%06x -> T 0x%06x out 0x%06x/0x%04x fl %x",
                     c.op, o16.t_before[l], c.p[l], c.sa[l / 4], c.sb[l % 4], c.peer[l],
                     tile_[c.addr][l], pout, out16, fl);
            hist_[c.addr][l].push_back(line);
            if (hist_[c.addr][l].size() > 4) hist_[c.addr][l].pop_front();
            cnt_aovf_ += (fl & KTPU_FLAG_ACC_OVERFLOW) != 0;
            cnt_aunf_ += (fl & KTPU_FLAG_ACC_UNDERFLOW) != 0;
            cnt_fovf_ += (fl & KTPU_FLAG_FP16_OVERFLOW) != 0;
            o16.v[l] = out16;
            o22.v[l] = pout;
        }
        if (c.op == KTPU_ACC_OP_EMIT || c.op == KTPU_ACC_OP_ADD_EMIT) exp_emit_.push_back(o16);
        if (c.op == KTPU_ACC_OP_SEND || c.op == KTPU_ACC_OP_FWD) exp_pout_.push_back(o22);
    }
};

// ---- stimulus helpers ---------------------------------------------------------
int32_t rand_p() {
    switch (rnd(8)) {
    case 0: return 0;
    case 1: return rnd(2) ? 131072 : -131072;            // full-scale block sums
    case 2: return rnd(2) ? -129024 : 129024;
    case 3: { int32_t v = 1 << rnd(18); return rnd(2) ? -v : v; }
    case 4: return rnd_range(-64, 64);
    default: return rnd_range(-131072, 131072);
    }
}
uint8_t rand_scale() {
    switch (rnd(4)) {
    case 0: return 0xA0;
    case 1: return (uint8_t)(rnd(2) ? 0x00 : 0xFF);        // extremes
    default: return (uint8_t)rnd(256);
    }
}
uint32_t rand_fp22() {
    switch (rnd(6)) {
    case 0: return 0;
    case 1: return fp22(rnd(2), 127, rnd(2) ? 0x3FFF : rnd(0x4000));
    case 2: return fp22(rnd(2), 1 + rnd(3), rnd(0x4000));
    default: return fp22(rnd(2), 30 + rnd(60), rnd(0x4000));
    }
}
void fill_v(Cmd &c) {
    for (auto &p : c.p) p = rand_p();
    for (auto &s : c.sa) s = rand_scale();
    for (auto &s : c.sb) s = rand_scale();
}
void fill_peer(Cmd &c) { for (auto &p : c.peer) p = rand_fp22(); }
Cmd mk(int op, int addr) { Cmd c; c.op = op; c.addr = addr; return c; }
// LOAD +0 then ADD_PEER p: sets a tile to exactly the FP22 values in vals.
void set_tile(std::vector<Cmd> &cs, int addr, const uint32_t vals[kLanes]) {
    Cmd l = mk(KTPU_ACC_OP_LOAD, addr);          // all P = 0: T = +0
    cs.push_back(l);
    Cmd a = mk(KTPU_ACC_OP_ADD_PEER, addr);
    for (int k = 0; k < kLanes; k++) a.peer[k] = vals[k];
    cs.push_back(a);
}

// ---- scenarios ----------------------------------------------------------------
void sc_random(Bench &b, int n, int naddr) {
    std::vector<Cmd> cs;
    std::vector<bool> defined(kDepth, false);
    int base = (int)rnd(kDepth - naddr);
    for (int i = 0; i < n; i++) {
        int addr = base + (int)rnd(naddr);
        int op = (int)rnd(7);
        if (!defined[addr] && op != KTPU_ACC_OP_FWD) op = KTPU_ACC_OP_LOAD;
        Cmd c = mk(op, addr);
        fill_v(c);                 // also for ops that must ignore it
        fill_peer(c);
        if (op == KTPU_ACC_OP_LOAD) defined[addr] = true;
        cs.push_back(c);
    }
    b.run(cs);
    b.drain();
}

// Ties at 15 bits: Z = 2M+1 with M in [2^14, 2^15) has 16 significant bits,
// the last being the round bit. Split Z (or a difference) into T = 2tm (an
// FP22, <= 15 bits) and an odd addend w, choosing the bit length b of the
// smaller of the two, so every alignment distance from 0 to 16 in both
// orders is covered, for sums and differences, at random binades 2^k.
struct TiePair { uint32_t t; int sv; uint32_t w; };
uint32_t fp22_of(int s, uint32_t mag, int k) {        // mag x 2^k, mag <= 2^16
    int msb = 31 - __builtin_clz(mag);
    uint32_t frac = msb >= 14 ? (mag >> (msb - 14)) : (mag << (14 - msb));
    return fp22(s, 63 + msb + k, frac);
}
uint32_t rand_bits(int b) {                           // exactly b significant bits
    return b <= 1 ? 1u : ((1u << (b - 1)) | rnd(1u << (b - 1)));
}
TiePair make_tie(int kind, int b, int k, uint32_t wmax) {
    TiePair r;
    int s = (int)rnd(2);
    uint32_t M = (1u << 14) | rnd(1u << 14);
    uint32_t w = 1, tm = 1;
    // Longest smaller operand each kind allows (w < Z < 2^16, T <= 2^16).
    const int maxb[4] = {16, 15, 14, 15};
    if (b > maxb[kind]) b = maxb[kind];
    if (wmax < 0xFFFF && b > 15) b = 15;
    bool ok = false;
    for (int tries = 0; tries < 1000 && !ok; tries++) {
        M = (1u << 14) | rnd(1u << 14);
        uint32_t Z = 2 * M + 1;
        if (kind == 0) {            // sum, w the smaller: T = Z - w
            w = rand_bits(b) | 1u;
            if (w >= Z) continue;
            tm = (Z - w) / 2;
        } else if (kind == 1) {     // sum, T the smaller: w = Z - T
            tm = rand_bits(b);
            if (2 * tm >= Z) continue;
            w = Z - 2 * tm;
        } else if (kind == 2) {     // difference, T the larger: T = Z + w
            w = rand_bits(b) | 1u;
            tm = (Z + w) / 2;
            if (tm > (1u << 15)) continue;
        } else {                    // difference, w the larger: w = Z + T
            tm = rand_bits(b);
            w = Z + 2 * tm;
        }
        ok = w <= wmax && tm >= 1 && tm <= (1u << 15);
    }
    if (!ok) { fprintf(stderr, "acc_tb: tie construction failed (kind %d, b %d)\n", kind, b); exit(2); }
    r.t = fp22_of(s, 2 * tm, k);
    r.sv = kind >= 2 ? !s : s;
    r.w = w;
    return r;
}
void sc_ties(Bench &b) {
    std::vector<Cmd> cs;
    int addr = 0;
    // Block contribution: scale bytes with M = 0 make v = P x 2^(EA+EB-40).
    for (int rep = 0; rep < 3; rep++)
        for (int kind = 0; kind < 4; kind++)
            for (int bits = 1; bits <= 17; bits++) {
                int ea = 20 + (int)rnd(11) - 5, eb = 20 + (int)rnd(11) - 5;
                int k = ea + eb - 40;
                Cmd c = mk(KTPU_ACC_OP_ADD, addr);
                for (int i = 0; i < 4; i++) { c.sa[i] = (uint8_t)(ea << 3); c.sb[i] = (uint8_t)(eb << 3); }
                uint32_t tv[kLanes];
                for (int l = 0; l < kLanes; l++) {
                    TiePair t = make_tie(kind, bits, k, 131071);
                    tv[l] = t.t;
                    c.p[l] = t.sv ? -(int32_t)t.w : (int32_t)t.w;
                }
                set_tile(cs, addr, tv);
                cs.push_back(c);
                cs.push_back(mk(KTPU_ACC_OP_SEND, addr));
                addr = (addr + 1) % 64;
            }
    // Peer addend: w is an FP22 too (<= 15 bits), so it is the smaller
    // operand of a sum or of a difference (kinds 0 and 2).
    for (int rep = 0; rep < 3; rep++)
        for (int kind = 0; kind < 4; kind += 2)
            for (int bits = 1; bits <= 15; bits++) {
                int k = (int)rnd(80) - 50;
                uint32_t tv[kLanes], pv[kLanes];
                for (int l = 0; l < kLanes; l++) {
                    TiePair t = make_tie(kind, bits, k, 0x7FFF);
                    tv[l] = t.t;
                    pv[l] = fp22_of(t.sv, t.w, k);
                }
                set_tile(cs, addr, tv);
                Cmd a = mk(KTPU_ACC_OP_ADD_PEER, addr);
                memcpy(a.peer, pv, sizeof pv);
                cs.push_back(a);
                cs.push_back(mk(KTPU_ACC_OP_SEND, addr));
                addr = (addr + 1) % 64;
            }
    // R22(v) alone (FWD): P odd with 16 bits at unit mantissas is a tie; with
    // other mantissas the product has 16..25 bits.
    for (int rep = 0; rep < 8; rep++) {
        Cmd c = mk(KTPU_ACC_OP_FWD, addr);
        for (int l = 0; l < kLanes; l++) {
            int32_t odd = (int32_t)((1u << 15) | rnd(1u << 15) | 1u);
            c.p[l] = (l & 1) ? -odd : odd;
        }
        if (rep & 1) for (int k = 0; k < 4; k++) { c.sa[k] = (uint8_t)(0xA0 | rnd(8)); c.sb[k] = (uint8_t)(0x98 | rnd(8)); }
        cs.push_back(c);
    }
    b.run(cs);
    b.drain();
}

// Far subtraction with a sticky that decides the rounding: v the larger by
// 17..26 binades minus a T whose low fraction bits lie below everything the
// aligner shifts exactly. Found by search: keep the cases where dropping T's
// low four fraction bits changes the reference result (T - v is then a tie
// up to those bits), so the sticky of the shifted-out part is what rounds.
void sc_far_sticky(Bench &b) {
    std::vector<Cmd> cs;
    int found = 0, addr = 64;
    Cmd c = mk(KTPU_ACC_OP_ADD, addr);
    uint32_t tv[kLanes];
    int lane = 0;
    long stuck = 0;
    // A search takes 8M to 30M tries for the seeds tried (0.1 s per million);
    // the budget leaves room for unlucky seeds (20M failed seed 18 at lat 54).
    for (long tries = 0; tries < 200000000 && found < 48; tries++) {
        if (++stuck > 200000) {                  // scales of this row/column too small:
            found -= lane;                       // start the command over
            c = mk(KTPU_ACC_OP_ADD, addr);
            lane = 0;
            stuck = 0;
        }
        int i = lane / 4, j = lane % 4;
        int32_t p = rnd_range(1 << 12, 131072) * (rnd(2) ? 1 : -1);
        uint8_t sa = j ? c.sa[i] : (uint8_t)rnd(256);   // row scale fixed by lane (i, 0)
        uint8_t sb = i ? c.sb[j] : (uint8_t)rnd(256);   // column scale by lane (0, j)
        int64_t mant; int e2;
        ktpu_ref_scale_product(p, sa, sb, &mant, &e2);
        uint64_t am = (uint64_t)(mant < 0 ? -mant : mant);
        int msb = 63 - __builtin_clzll(am) + e2;        // exponent of v's MSB
        int te = msb - 17 - (int)rnd(10) + 63;           // T 17..26 binades below
        if (te < 1 || te > 127) continue;
        uint32_t t = fp22(mant < 0 ? 0 : 1, te, rnd(0x4000) | 1u);   // opposite sign
        uint32_t t_trunc = t & ~0xFu;
        if (ktpu_ref_r22_add_contribution(t, p, sa, sb, nullptr) ==
            ktpu_ref_r22_add_contribution(t_trunc, p, sa, sb, nullptr))
            continue;
        // Lanes fill in order; a lane shares its row and column scale bytes
        // with the lanes before it.
        c.sa[i] = sa; c.sb[j] = sb; c.p[lane] = p; tv[lane] = t;
        found++;
        stuck = 0;
        if (++lane == kLanes) {
            set_tile(cs, addr, tv);
            cs.push_back(c);
            cs.push_back(mk(KTPU_ACC_OP_SEND, addr));
            addr++;
            c = mk(KTPU_ACC_OP_ADD, addr);
            lane = 0;
        }
    }
    b.check(found >= 32, "far-sticky search found its cases");
    b.run(cs);
    b.drain();
}

// Rounding carries: an all-ones significand plus half an ulp (or more)
// rounds up into the next binade; also the plain binade carry of a sum.
void sc_carries(Bench &b) {
    std::vector<Cmd> cs;
    int addr = 100;
    for (int rep = 0; rep < 24; rep++) {
        uint32_t tv[kLanes], pv[kLanes];
        for (int l = 0; l < kLanes; l++) {
            int e = 2 + (int)rnd(120);
            int s = (int)rnd(2);
            tv[l] = fp22(s, e, 0x3FFF - (rep % 3 == 2 ? rnd(4) : 0));
            // addend: half an ulp (tie, rounds up to even), half an ulp plus
            // a bit, or a value of similar size (binade carry of the sum).
            switch (l % 4) {
            case 0: pv[l] = fp22(s, e - 15, 0); break;
            case 1: pv[l] = fp22(s, e - 15, 1 + rnd(0x3FFE)); break;
            case 2: pv[l] = fp22(s, e - (int)rnd(3), rnd(0x4000)); break;
            default: pv[l] = fp22(s, e - 16 - (int)rnd(3), rnd(0x4000)); break;
            }
        }
        set_tile(cs, addr, tv);
        Cmd a = mk(KTPU_ACC_OP_ADD_PEER, addr);
        memcpy(a.peer, pv, sizeof pv);
        cs.push_back(a);
        cs.push_back(mk(KTPU_ACC_OP_SEND, addr));
        // The same with the block contribution: T = 1.111..1 x 2^e and
        // v = P exactly (scale 1.0).
        Cmd l0 = mk(KTPU_ACC_OP_LOAD, addr + 1);
        Cmd ad = mk(KTPU_ACC_OP_ADD, addr + 1);
        for (int l = 0; l < kLanes; l++) {
            int sh = (int)rnd(3);
            l0.p[l] = 0x7FFF << sh;                   // exactly representable
            ad.p[l] = (1 << sh) >> 1 ? (1 << sh) >> 1 : 0;
            if (sh == 0) { l0.p[l] = 0x7FFF * 4; ad.p[l] = 2 + (int32_t)rnd(3); }
        }
        cs.push_back(l0);
        cs.push_back(ad);
        cs.push_back(mk(KTPU_ACC_OP_EMIT, addr + 1));
        cs.push_back(mk(KTPU_ACC_OP_SEND, addr + 1));
        addr = 100 + (addr - 100 + 2) % 32;
    }
    b.run(cs);
    b.drain();
}

// Cancellation: T + (-T) and R22(v) - v give exactly +0 (never -0); near
// cancellation leaves few bits and needs the long normalising shift.
void sc_cancel(Bench &b) {
    std::vector<Cmd> cs;
    int addr = 200;
    for (int rep = 0; rep < 16; rep++) {
        Cmd l0 = mk(KTPU_ACC_OP_LOAD, addr);
        Cmd ad = mk(KTPU_ACC_OP_ADD, addr);
        for (int l = 0; l < kLanes; l++) {
            int32_t p = (int32_t)rnd(0x8000) << rnd(3);     // <= 15 significant bits
            l0.p[l] = (l & 1) ? -p : p;
            ad.p[l] = -l0.p[l] + ((l % 4 == 3) ? (rnd(2) ? 1 : -1) : 0);
        }
        for (int k = 0; k < 4; k++) { l0.sa[k] = ad.sa[k] = rand_scale(); l0.sb[k] = ad.sb[k] = rand_scale(); }
        cs.push_back(l0);
        cs.push_back(ad);
        cs.push_back(mk(KTPU_ACC_OP_SEND, addr));
        uint32_t tv[kLanes], pv[kLanes];
        for (int l = 0; l < kLanes; l++) {
            tv[l] = fp22(rnd(2), 1 + rnd(127), rnd(0x4000));
            pv[l] = tv[l] ^ (1u << 21);                      // exactly -T
            if (l % 4 == 1) pv[l] = (tv[l] ^ (1u << 21)) ^ (1u << rnd(14));     // near
            if (l % 4 == 2 && ((tv[l] >> 14) & 0x7F) > 1) pv[l] = (tv[l] ^ (1u << 21)) - (1u << 14); // d = 1
        }
        set_tile(cs, addr + 1, tv);
        Cmd a = mk(KTPU_ACC_OP_ADD_PEER, addr + 1);
        memcpy(a.peer, pv, sizeof pv);
        cs.push_back(a);
        cs.push_back(mk(KTPU_ACC_OP_SEND, addr + 1));
        cs.push_back(mk(KTPU_ACC_OP_EMIT, addr + 1));
        addr = 200 + (addr - 200 + 2) % 32;
    }
    b.run(cs);
    b.drain();
}

// Saturation at the top of FP22 (ACC_OVERFLOW) and flush below 2^-62
// (ACC_UNDERFLOW); the sticky flags and their counters.
void sc_range(Bench &b) {
    b.clear_stats();
    std::vector<Cmd> cs;
    int addr = 300;
    for (int rep = 0; rep < 8; rep++) {
        uint32_t tv[kLanes], pv[kLanes];
        for (int l = 0; l < kLanes; l++) {
            int s = (int)rnd(2);
            switch (l % 4) {
            case 0: tv[l] = fp22(s, 127, 0x3FFF); pv[l] = fp22(s, 127, rnd(0x4000)); break;  // overflow
            case 1: tv[l] = fp22(s, 127, 0x3FFF); pv[l] = fp22(s, 127 - 15, rnd(2)); break;   // tie at max
            case 2: tv[l] = fp22(s, 1, 1 + rnd(0x3FFF)); pv[l] = fp22(!s, 1, 0); break;       // underflow
            default: tv[l] = fp22(s, 2, 0); pv[l] = fp22(!s, 1, 0x3FFF); break;              // 2^-76: underflow
            }
        }
        set_tile(cs, addr, tv);
        Cmd a = mk(KTPU_ACC_OP_ADD_PEER, addr);
        memcpy(a.peer, pv, sizeof pv);
        cs.push_back(a);
        cs.push_back(mk(KTPU_ACC_OP_SEND, addr));
        addr++;
    }
    b.run(cs);
    b.drain();
    b.check_flags();
}

// FP16 outputs: normals, exact subnormals, subnormal ties, the smallest
// subnormal, round-to-zero (always +0), 65504, 65519 (no overflow), 65520
// and above (saturate, FP16_OVERFLOW).
void sc_fp16(Bench &b) {
    b.clear_stats();
    std::vector<Cmd> cs;
    int addr = 350;
    for (int rep = 0; rep < 40; rep++) {
        uint32_t tv[kLanes];
        for (int l = 0; l < kLanes; l++) {
            int s = (int)rnd(2);
            switch (l) {
            case 0: tv[l] = fp22(s, 63 - 14 - 1 - (int)rnd(12), rnd(0x4000)); break;  // subnormal range
            case 1: tv[l] = fp22(s, 63 - 24 - (int)rnd(3), rnd(0x4000)); break;       // near 2^-24 / 2^-25
            case 2: tv[l] = fp22(s, 63 - 25, 0); break;                                // 2^-25: tie to 0
            case 3: tv[l] = fp22(s, 63 - 25, 1 + rnd(0x3FFF)); break;                  // just above: 2^-24
            case 4: tv[l] = fp22(s, 63 - 26 - (int)rnd(30), rnd(0x4000)); break;       // rounds to +0
            case 5: tv[l] = fp22(s, 63 + 15, 0x3FF0); break;                           // 65504
            case 6: tv[l] = fp22(s, 63 + 15, 0x3FF0 | rnd(8)); break;                  // 65504..65519
            case 7: tv[l] = fp22(s, 63 + 15, 0x3FF8 | rnd(8)); break;                  // >= 65520: overflow
            case 8: tv[l] = fp22(s, 63 + 16 + (int)rnd(48), rnd(0x4000)); break;       // far above
            case 9: tv[l] = fp22(s, 63 - 15 + (int)rnd(2), 0x3FF8 | rnd(8)); break;    // subnormal -> normal carry
            case 10: tv[l] = fp22(s, 63 - 15 - (int)rnd(9), (rnd(0x400) << 4) | 8); break; // subnormal ties
            case 11: tv[l] = 0; break;
            default: tv[l] = fp22(s, 63 - 14 + (int)rnd(30), rnd(0x4000)); break;      // normals
            }
        }
        set_tile(cs, addr, tv);
        cs.push_back(mk(KTPU_ACC_OP_EMIT, addr));
        addr = 350 + (addr - 350 + 1) % 16;
    }
    b.run(cs);
    b.drain();
    b.check_flags();
}

// A 4x4 output accumulated over 32 K-blocks into one sub-tile, LOAD then
// ADD then ADD_EMIT, checked against the reference GEMM (ktpu_ref_gemm_mx)
// as well as op by op. One sub-tile: the driver pads to REUSE_MIN.
void sc_ksweep(Bench &b, int kblocks) {
    const int K = 32 * kblocks;
    std::vector<int8_t> qa(4 * K), qb(4 * K);
    std::vector<uint8_t> sa(4 * kblocks), sb(4 * kblocks);
    for (auto &q : qa) q = (int8_t)rnd_range(-64, 63);
    for (auto &q : qb) q = (int8_t)rnd_range(-64, 63);
    for (auto &s : sa) s = (uint8_t)(0x90 + rnd(0x20));
    for (auto &s : sb) s = (uint8_t)(0x90 + rnd(0x20));
    std::vector<Cmd> cs;
    const int addr = 400;
    for (int kb = 0; kb < kblocks; kb++) {
        Cmd c = mk(kb == 0 ? KTPU_ACC_OP_LOAD : (kb == kblocks - 1 ? KTPU_ACC_OP_ADD_EMIT : KTPU_ACC_OP_ADD), addr);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                c.p[4 * i + j] = ktpu_ref_block_dot(&qa[i * K + kb * 32], &qb[j * K + kb * 32]);
        for (int k = 0; k < 4; k++) { c.sa[k] = sa[k * kblocks + kb]; c.sb[k] = sb[k * kblocks + kb]; }
        cs.push_back(c);
    }
    cs.push_back(mk(KTPU_ACC_OP_SEND, addr));
    b.run(cs);
    b.drain();
    std::vector<uint32_t> tile(16);
    std::vector<uint16_t> c16(16);
    ktpu_ref_gemm_mx(4, 4, (size_t)K, qa.data(), sa.data(), qb.data(), sb.data(), tile.data(), c16.data());
    for (int l = 0; l < kLanes; l++) {
        b.check(b.ref_tile(addr, l) == tile[l], "K sweep: op-by-op reference equals ktpu_ref_gemm_mx");
        b.check(b.last_pout(l) == tile[l], "K sweep: SENT tile equals ktpu_ref_gemm_mx");
    }
}

// Tilings: ntiles sub-tiles swept over kblocks K-blocks, K outermost, as the
// cluster node's sweep issues them. ntiles = REUSE_MIN must run with no idle
// cycle at all; smaller tilings get padded by the driver.
void sc_tiling(Bench &b, int ntiles, int kblocks, bool expect_no_idle) {
    std::vector<Cmd> cs;
    const int base = 448;
    for (int kb = 0; kb < kblocks; kb++)
        for (int t = 0; t < ntiles; t++) {
            Cmd c = mk(kb == 0 ? KTPU_ACC_OP_LOAD : (kb == kblocks - 1 ? KTPU_ACC_OP_ADD_EMIT : KTPU_ACC_OP_ADD), base + t);
            fill_v(c);
            cs.push_back(c);
        }
    int save_idle = b.idle_pct;
    bool save_bp = b.back_pressure;
    b.idle_pct = 0;
    b.back_pressure = false;
    std::vector<uint64_t> at = b.run(cs);
    b.drain();
    b.idle_pct = save_idle;
    b.back_pressure = save_bp;
    if (expect_no_idle && at.size() == cs.size())
        b.check(at.back() - at.front() == cs.size() - 1, "tiling at REUSE_MIN issues every cycle");
}

// Peer round trip: SEND a tile, feed what came out back in as ADD_PEER onto
// the same tile: every element must become exactly 2T (exponent + 1).
void sc_peer_roundtrip(Bench &b) {
    std::vector<Cmd> cs;
    const int addr = 480;
    uint32_t tv[kLanes];
    for (int rep = 0; rep < 20; rep++) {
        for (int l = 0; l < kLanes; l++) tv[l] = fp22(rnd(2), 1 + rnd(125), rnd(0x4000));
        if (rep == 0) tv[3] = 0;
        cs.clear();
        set_tile(cs, addr, tv);
        cs.push_back(mk(KTPU_ACC_OP_SEND, addr));
        b.run(cs);
        b.drain();
        Cmd a = mk(KTPU_ACC_OP_ADD_PEER, addr);
        for (int l = 0; l < kLanes; l++) a.peer[l] = b.last_pout(l);
        cs.clear();
        cs.push_back(a);
        cs.push_back(mk(KTPU_ACC_OP_SEND, addr));
        b.run(cs);
        b.drain();
        for (int l = 0; l < kLanes; l++) {
            uint32_t t = tv[l];
            uint32_t two = ((t >> 14) & 0x7F) == 0 ? 0 : t + (1u << 14);
            b.check(b.last_pout(l) == two, "peer round trip gives exactly 2T");
        }
    }
}

// FWD: peer out = R22(v), nothing written: the tile is SENT afterwards and
// must be unchanged.
void sc_fwd(Bench &b) {
    std::vector<Cmd> cs;
    const int addr = 490;
    Cmd l0 = mk(KTPU_ACC_OP_LOAD, addr);
    fill_v(l0);
    cs.push_back(l0);
    for (int rep = 0; rep < 40; rep++) {
        Cmd f = mk(KTPU_ACC_OP_FWD, addr);      // same address, back to back
        fill_v(f);
        cs.push_back(f);
    }
    cs.push_back(mk(KTPU_ACC_OP_SEND, addr));
    b.run(cs);
    b.drain();
}

// Output credits: with both consumers stalled, exactly ACC_OUT_DEPTH
// output-producing commands of each kind are accepted (cmd_ready_o falls
// for the next one, the pipeline never overruns a FIFO); released, every
// result comes out in order.
void sc_credits(Bench &b) {
    for (int kind = 0; kind < 2; kind++) {
        std::vector<Cmd> cs;
        for (int t = 0; t < 8; t++) {            // 8 defined tiles
            Cmd l = mk(KTPU_ACC_OP_LOAD, 456 + t);
            fill_v(l);
            cs.push_back(l);
        }
        b.run(cs);
        b.drain();
        cs.clear();
        for (int n = 0; n < 3 * KTPU_ACC_OUT_DEPTH; n++) {
            Cmd c = mk(kind ? KTPU_ACC_OP_SEND : (n & 1 ? KTPU_ACC_OP_EMIT : KTPU_ACC_OP_ADD_EMIT), 456 + n % 8);
            fill_v(c);
            cs.push_back(c);
        }
        b.stall_outputs = true;
        std::vector<uint64_t> at = b.run(cs, 400);
        b.check(at.size() == KTPU_ACC_OUT_DEPTH, "stalled outputs: exactly ACC_OUT_DEPTH commands accepted");
        if (at.size() != KTPU_ACC_OUT_DEPTH)
            fprintf(stderr, "  accepted %zu with the %s output stalled\n", at.size(), kind ? "peer" : "emit");
        b.stall_outputs = false;
        std::vector<Cmd> rest(cs.begin() + (long)at.size(), cs.end());
        b.run(rest);
        b.drain();
    }
}

// busy: once busy_o falls after LOAD + ADD_EMIT, the emitted sub-tile must
// already be waiting (retired means every effect is visible), and a command
// to the same tile issued in that very cycle must see the new value without
// tripping the reuse check.
void sc_busy(Bench &b) {
    for (int rep = 0; rep < 10; rep++) {
        const int addr = 500 + rep % 4;
        std::vector<Cmd> cs;
        Cmd l0 = mk(KTPU_ACC_OP_LOAD, addr);
        fill_v(l0);
        Cmd ad = mk(KTPU_ACC_OP_ADD_EMIT, addr);
        fill_v(ad);
        cs.push_back(l0);
        cs.push_back(ad);
        b.stall_outputs = true;
        b.run(cs);
        b.check(b.busy(), "busy right after a command");
        int guard = 0;
        while (b.busy() && guard++ < 1000) b.idle(1);
        b.check(b.emit_valid(), "when busy falls, the last command's output is out");
        b.stall_outputs = false;
        std::vector<Cmd> e;
        Cmd em = mk(KTPU_ACC_OP_EMIT, addr);
        em.force = true;                        // gated by busy only
        e.push_back(em);
        b.run(e);
        b.drain();
    }
}

// ---- violation modes ------------------------------------------------------------
int expect_mode(VerilatedContext *ctx, const std::string &what, int lat) {
    ctx->fatalOnError(false);
    Bench b(ctx, lat);
    b.back_pressure = false;
    b.reset();
    uint64_t expect_at = 0;
    if (what == "reuse") {
        // REUSE_MIN - 1 tiles round robin with no padding: the second command
        // to tile 0 comes REUSE_MIN - 1 cycles after the first.
        std::vector<Cmd> cs;
        for (int kb = 0; kb < 2; kb++)
            for (int t = 0; t < kReuse - 1; t++) {
                Cmd c = mk(kb ? KTPU_ACC_OP_ADD : KTPU_ACC_OP_LOAD, t);
                c.force = true;
                cs.push_back(c);
            }
        std::vector<uint64_t> at = b.run(cs);
        expect_at = at[kReuse - 1] + (uint64_t)lat;          // its pop cycle
        b.drain();
    } else if (what == "underflow") {
        // A chain result with no command waiting: pops an empty FIFO.
        b.idle(3);
        b.inject_result();
        expect_at = b.cycle;
        b.idle(3);
    } else if (what == "overflow") {
        // More commands in flight than the command FIFO holds: the chain is
        // longer than KTPU_ACC_CMD_DEPTH allows (run with --lat > depth).
        // LOADs need no output credit, so nothing throttles them.
        std::vector<Cmd> cs;
        for (int i = 0; i < KTPU_ACC_CMD_DEPTH + 1; i++) cs.push_back(mk(KTPU_ACC_OP_LOAD, i));
        std::vector<uint64_t> at = b.run(cs);
        expect_at = at[KTPU_ACC_CMD_DEPTH];
    } else {
        fprintf(stderr, "acc_tb: unknown --expect %s (reuse, underflow, overflow)\n", what.c_str());
        return 2;
    }
    if (!b.saw_error) {
        printf("acc_tb --expect %s: FAIL, no assertion fired (expected in cycle %llu)\n",
               what.c_str(), (unsigned long long)expect_at);
        return 1;
    }
    if (b.first_error_cycle != expect_at) {
        printf("acc_tb --expect %s: FAIL, assertion in cycle %llu, expected %llu\n", what.c_str(),
               (unsigned long long)b.first_error_cycle, (unsigned long long)expect_at);
        return 1;
    }
    printf("acc_tb --expect %s: 1 check passed (assertion fired in cycle %llu, as expected)\n",
           what.c_str(), (unsigned long long)expect_at);
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    uint64_t seed = 1;
    int lat = KTPU_CLUSTER_DP_LATENCY;
    const char *expect_opt = nullptr;
    tb_args(argc, argv, "acc_tb", {{"--seed", &seed}, {"--lat", &lat}, {"--expect", &expect_opt}});
    std::string expect = expect_opt ? expect_opt : "";
    if (lat < 2) { fprintf(stderr, "acc_tb: --lat must be >= 2 (command FIFO fall-through)\n"); return 2; }
    g_rng = TbRng(seed);
    auto ctx = tb_context(argc, argv, seed);
    if (!expect.empty()) return expect_mode(ctx.get(), expect, lat);

    ctx->fatalOnError(false);   // report assertion failures as check failures
    Bench b(ctx.get(), lat);
    b.reset();
    struct { const char *name; unsigned long long before; } log[24];
    int nlog = 0;
    auto note = [&](const char *n) { log[nlog].name = n; log[nlog].before = checks; nlog++; };

    b.idle_pct = 10;
    note("random, 24 tiles");      sc_random(b, 6000, 24);
    b.idle_pct = 0;
    note("random, 512 tiles");     sc_random(b, 4000, 512);
    note("random, 9 tiles");       sc_random(b, 2000, 9);
    b.check_flags();
    note("rounding ties");         sc_ties(b);
    note("far sticky (search)");   sc_far_sticky(b);
    note("carries");               sc_carries(b);
    note("cancellation");          sc_cancel(b);
    note("overflow/underflow");    sc_range(b);
    note("FP16 outputs");          sc_fp16(b);
    note("K sweep, 32 blocks");    sc_ksweep(b, 32);
    note("tiling = REUSE_MIN");    sc_tiling(b, kReuse, 24, true);
    note("tiling < REUSE_MIN");    sc_tiling(b, 3, 12, false);
    note("peer round trip");       sc_peer_roundtrip(b);
    note("FWD");                   sc_fwd(b);
    note("busy");                  sc_busy(b);
    note("output credits");        sc_credits(b);
    b.check_flags();
    b.check(!ctx->gotError(), "no simulation assertion fired");
    log[nlog].name = nullptr; log[nlog].before = checks;
    for (int i = 0; i < nlog; i++)
        printf("  %-22s %7llu checks\n", log[i].name, log[i + 1].before - log[i].before);
    printf("acc_tb seed %llu lat %d: %ld commands, %ld emits, %ld peer-outs, %ld elements, %llu cycles\n",
           (unsigned long long)seed, lat, b.cmds, b.emits, b.pouts, b.elems,
           (unsigned long long)b.cycle);
    printf("%s: %llu checks, %llu failed\n", fails ? "FAIL" : "PASS", checks, fails);
    return fails ? 1 : 0;
}
