// ktpu_cpu_muldiv: the M extension for ktpu_cpu.
//
// Multiply: four partial products of 17- and 16-bit halves (the high
// halves signed or not as the op reads them), each a ktpu_dsp_mul whose
// operand and product registers are the DSP48E2's own (Yosys 0.23 packs
// none from an inferred multiply), then the sums in 32-bit steps, so no
// carry chain follows a DSP or another chain in the same cycle
// (docs/timing.md): MUL's low word four cycles after req_i rises, MULH*'s
// high word five.
// Divide: restoring, one quotient bit per cycle, 35 cycles (the last puts
// the signed result in a register, off the CPU's result path). Signs are
// stripped at the start and put back at the end, so one unsigned datapath
// serves DIV/DIVU/REM/REMU; the RISC-V special cases (divide by zero gives
// quotient all ones and remainder = dividend; -2^31 / -1 gives -2^31, rem 0)
// fall out of the unsigned loop plus "no quotient negation when b == 0".
//
// Handshake: req_i is held high with op_i stable until done_o pulses (one
// cycle, result_o valid in it); a_i and b_i are read in the cycle req_i
// rises (the multiplier's operand registers, the divider's start). The unit
// is idle in the cycle after done, so a back-to-back M instruction starts
// cleanly.
`default_nettype none

module ktpu_cpu_muldiv (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  input  wire logic        req_i,
  input  wire logic [2:0]  op_i,    // funct3 of the OP / funct7=1 encoding
  input  wire logic [31:0] a_i,
  input  wire logic [31:0] b_i,
  output logic             done_o,
  output logic [31:0]      result_o
);
  // funct3: 000 MUL, 001 MULH, 010 MULHSU, 011 MULHU,
  //         100 DIV, 101 DIVU, 110 REM, 111 REMU
  logic is_div;
  assign is_div = op_i[2];

  typedef enum logic [1:0] {Idle, Mul, Div} state_e;
  state_e      state_q;
  logic [5:0]  cnt_q;

  // ---- multiplier (DSP) ----
  // a = ah·2^17 + al (ah signed, al unsigned), b likewise:
  // a·b = hh·2^34 + (lh + hl)·2^17 + ll
  logic a_signed, b_signed;
  assign a_signed = (op_i == 3'b001) || (op_i == 3'b010);
  assign b_signed = (op_i == 3'b001);
  // the halves: low 17 bits as a positive 18-bit number, high 16 bits
  // sign-extended when the operand is signed
  logic [17:0] a_lo, b_lo;
  logic [15:0] a_hi, b_hi;
  assign a_lo = {1'b0, a_i[16:0]};
  assign b_lo = {1'b0, b_i[16:0]};
  assign a_hi = {a_signed & a_i[31], a_i[31:17]};
  assign b_hi = {b_signed & b_i[31], b_i[31:17]};
  // The four products, each a ktpu_dsp_mul with its operand and product
  // registers in the DSP (AREG/BREG, PREG): two cycles from a_i/b_i.
  logic        [33:0] p_ll;
  logic signed [33:0] p_lh, p_hl;
  logic signed [31:0] p_hh;
  ktpu_dsp_mul #(.AW(18), .BW(18), .PW(34), .Signed(1'b1), .AReg(1), .BReg(1), .MReg(0), .PReg(1))
    u_ll (.clk_i, .a_i(a_lo), .b_i(b_lo), .p_o(p_ll));
  ktpu_dsp_mul #(.AW(18), .BW(16), .PW(34), .Signed(1'b1), .AReg(1), .BReg(1), .MReg(0), .PReg(1))
    u_lh (.clk_i, .a_i(a_lo), .b_i(b_hi), .p_o(p_lh));
  ktpu_dsp_mul #(.AW(16), .BW(18), .PW(34), .Signed(1'b1), .AReg(1), .BReg(1), .MReg(0), .PReg(1))
    u_hl (.clk_i, .a_i(a_hi), .b_i(b_lo), .p_o(p_hl));
  ktpu_dsp_mul #(.AW(16), .BW(16), .PW(32), .Signed(1'b1), .AReg(1), .BReg(1), .MReg(0), .PReg(1))
    u_hh (.clk_i, .a_i(a_hi), .b_i(b_hi), .p_o(p_hh));
  logic signed [34:0] mid_q;          // lh + hl
  logic        [32:0] lo_q;           // the low word, with its carry out
  logic        [1:0]  ll_hi_q;
  logic signed [31:0] hh_q, hi_q;
  always_ff @(posedge clk_i) begin
    // the low word needs only the low 15 bits of lh + hl
    lo_q    <= {1'b0, p_ll[31:0]} + {1'b0, p_lh[14:0] + p_hl[14:0], 17'd0};
    mid_q   <= 35'(p_lh) + 35'(p_hl);   // bits 14:0 are lo_q's
    ll_hi_q <= p_ll[33:32];
    hh_q    <= p_hh;
    // the high word: hh·4 + ll's bits 33:32 (a concatenation), + (lh + hl) >> 15,
    // + the low word's carry, in one chain
    hi_q    <= {hh_q[29:0], ll_hi_q} + 32'($signed(mid_q[34:15])) + 32'(lo_q[32]);
  end

  // ---- divider ----
  logic [31:0] dvs_q, quo_q, rem_q;
  logic        neg_q_q, neg_r_q;
  logic        div_signed;
  assign div_signed = !op_i[0];
  logic [31:0] a_abs;
  assign a_abs = (div_signed && a_i[31]) ? 32'd0 - a_i : a_i;
  // The divisor is kept as given: subtracting |b| is adding b when b is
  // negative (33-bit, {1, b} = -|b|, also for b = -2^31), so the invert of a
  // subtraction and the choice share one LUT per bit and no negation of b
  // is needed. trial[32] set: {rem, next bit} < |b|.
  logic        dvs_neg_q;
  logic [32:0] trial;
  assign trial = {rem_q, quo_q[31]} + ({dvs_neg_q, dvs_q} ^ {33{!dvs_neg_q}}) + 33'(!dvs_neg_q);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      state_q <= Idle;
      cnt_q   <= 6'd0;
    end else begin
      unique case (state_q)
        Idle: if (req_i) begin
          state_q <= is_div ? Div : Mul;
          cnt_q   <= is_div ? 6'd33 : op_i[1:0] == 2'b00 ? 6'd2 : 6'd3;
        end
        Mul, Div: begin
          cnt_q <= cnt_q - 6'd1;
          if (cnt_q == 6'd0) state_q <= Idle;
        end
        default: state_q <= Idle;
      endcase
    end
  end

  always_ff @(posedge clk_i) begin
    if (state_q == Idle) begin
      dvs_q   <= b_i;
      dvs_neg_q <= div_signed && b_i[31];
      quo_q   <= a_abs;
      rem_q   <= 32'd0;
      neg_q_q <= div_signed && (a_i[31] ^ b_i[31]) && (b_i != 32'd0);
      neg_r_q <= div_signed && a_i[31];
    end else if (state_q == Div && cnt_q > 6'd1) begin
      if (!trial[32]) begin
        rem_q <= trial[31:0];
        quo_q <= {quo_q[30:0], 1'b1};
      end else begin
        rem_q <= {rem_q[30:0], quo_q[31]};
        quo_q <= {quo_q[30:0], 1'b0};
      end
    end
  end

  assign done_o = state_q != Idle && cnt_q == 6'd0;

  // One negation serves quotient and remainder: -x = (x ^ ~0) + 1.
  logic [31:0] div_res, div_out;
  logic        div_neg;
  assign div_res = op_i[1] ? rem_q : quo_q;
  assign div_neg = op_i[1] ? neg_r_q : neg_q_q;
  assign div_out = (div_res ^ {32{div_neg}}) + 32'(div_neg);
  logic [31:0] div_q;
  always_ff @(posedge clk_i) div_q <= div_out;   // read at done, a cycle after the last step
  always_comb begin
    if (is_div)                   result_o = div_q;
    else if (op_i[1:0] == 2'b00)  result_o = lo_q[31:0];
    else                          result_o = hi_q;
  end

  // hh's top bits are beyond the 64-bit product
  logic unused;
  assign unused = ^{hh_q[31:30], mid_q[14:0]};
endmodule

`default_nettype wire
