`default_nettype none
// One accumulator lane: element (i, j) of a 4x4 sub-tile.
//
// Computes R22(T + v) exactly (SPEC §3.3-3.5), where v is either the block
// contribution P x (8+MA)(8+MB) x 2^(EA+EB-46) or an FP22 peer value, and T is
// the resident FP22 element (or zero). Then R16 of the result for emits.
// The stages are drawn in docs/acc.md; the numbers below are cycles after the
// command was popped (stage k means "registered k cycles after the pop").
//
//   1  |P|, sign; mantissa product (8+MA)(8+MB); exponent sum      (inputs here)
//   2  normalise |P| (LZC + left shift)           -> DSP A/B input registers
//   3  Np x m                                      -> DSP M register
//   4                                              -> DSP P register
//   5  normalise the product (MSB at 24..26); peer operand mux     (peer here)
//   6  T arrives from the tile RAM: order |T|, |v|, swap           (T here)
//   7  align the smaller operand (a second DSP48E2, multiplying by 2^k)
//   8  pick the product window (d > 16 or not), sticky from the bits below
//      it; add / subtract (one carry chain)
//   9  leading-zero count and normalise in three steps; sticky by mask
//  10  round to nearest even at 15 bits; saturate / flush          -> r22_o
//  11  R16, first half: shift, round bit, sticky (register inside ktpu_acc_r16)
//  12  R16, second half: encode, range (saturation: the register's set)
//                                                                 -> r16_o
//
// No register here has a reset: control (valid, op) lives in ktpu_acc. The
// two multipliers are ktpu_dsp_mul instances whose pipeline registers are
// the DSP48E2's own (stages 3/4/5 and 7/8).
module ktpu_acc_lane #(
  parameter int unsigned PWidth = 19  // chain partial width (SPEC §4: 19-bit signed)
) (
  input  logic                     clk_i,
  // stage 1
  input  logic signed [PWidth-1:0] p_i,
  input  logic [7:0]               sa_i,       // row scale byte {E[4:0], M[2:0]}
  input  logic [7:0]               sb_i,       // column scale byte
  input  logic                     v_zero_i,   // the op has no block contribution
  // stage 5
  input  logic                     use_peer_i, // ADD_PEER: the addend is peer_i
  input  logic [21:0]              peer_i,
  // stage 6
  input  logic [21:0]              t_i,        // resident element from the tile RAM
  input  logic                     t_zero_i,   // LOAD / FWD: T is taken as +0
  // stage 10
  output logic [21:0]              r22_o,
  output logic                     acc_ovf_o,
  output logic                     acc_unf_o,
  // stage 11
  output logic [15:0]              r16_o,
  output logic                     f16_ovf_o
);

  // |P| <= 2^(PWidth-1) - 1 fits PWidth-1 bits; the contract bound
  // |P| <= 131072 (ktpu_acc checks it in simulation) needs 18 of the 19.
  // NW = 26 keeps the aligner's operand inside the DSP's 27-bit A port.
  localparam int unsigned MagW  = PWidth - 1;
  localparam int unsigned LzW   = $clog2(MagW);
  // Np in [2^(MagW-1), 2^MagW) times m in [64, 225] lies in [2^(MagW+5), 2^(MagW+8)).
  localparam int unsigned NW    = MagW + 8;         // normalised significand width
  localparam int unsigned FracW = ktpu_pkg::FP22_FRAC_BITS;   // 14
  localparam int unsigned SigW  = FracW + 1;        // 15 with the hidden one
  // Working sum: big significand, 2 guard bits, 1 sticky bit, 1 carry bit.
  localparam int unsigned SumW  = NW + 4;
  localparam int unsigned ShMax = NW + 2;           // every shift beyond it loses all bits
  localparam int unsigned DW    = $clog2(ShMax + 1);

  // Exponents are of the MSB of a normalised significand, biased by 63 like
  // FP22's own field, so T and peer exponents need no arithmetic at all.
  // Operands: v in [23, 104], T and peer in [1, 127]: BW = 7 bits unsigned.
  // After the sum: up to 128 and down to 1 - SumW, signed: EW = 10 bits.
  localparam int unsigned BW = 7;
  localparam int unsigned EW = 10;
  // v's biased exponent is e - 46 + (NW - 1) + 63 - lz - sh.
  localparam int unsigned VBias = ktpu_pkg::FP22_BIAS + NW - 1 - ktpu_pkg::BLOCK_EXP_OFFSET;

  if (PWidth < 8 || NW > 26) begin : gen_bad_pwidth
    $fatal(1, "ktpu_acc_lane: PWidth must be 8..19 (the aligner's DSP A port is 27 bits)");
  end

  function automatic logic [LzW:0] lzc_mag(input logic [MagW-1:0] x);
    lzc_mag = (LzW + 1)'(MagW);
    for (int k = 0; k < MagW; k++) if (x[k]) lzc_mag = (LzW + 1)'(MagW - 1 - k);
  endfunction


  // ---- stage 1: magnitude, sign, scale pieces ------------------------------
  logic [MagW-1:0]  mag2_q;
  logic             sgn2_q, zero2_q;
  logic [7:0]       m2_q;    // (8+MA)(8+MB) in [64, 225]
  logic [5:0]       e2_q;    // EA + EB in [0, 62]
  always_ff @(posedge clk_i) begin
    mag2_q  <= p_i[PWidth-1] ? MagW'(-p_i) : MagW'(p_i);
    sgn2_q  <= p_i[PWidth-1];
    zero2_q <= v_zero_i || (p_i == '0);
    m2_q    <= 8'({5'd1, sa_i[2:0]} * {5'd1, sb_i[2:0]});
    e2_q    <= 6'(sa_i[7:3]) + 6'(sb_i[7:3]);
  end

  // ---- stage 2: normalise |P| so the product needs only a 3-way fix-up ----
  logic [LzW:0]     lz2;
  assign lz2 = lzc_mag(mag2_q);
  logic [LzW:0]     lz3_q;
  logic             sgn3_q, zero3_q;
  logic [5:0]       e3_q;
  always_ff @(posedge clk_i) begin
    lz3_q   <= lz2;
    sgn3_q  <= sgn2_q;
    zero3_q <= zero2_q;
    e3_q    <= e2_q;
  end

  // ---- stages 3, 4: the scale multiply, in a DSP48E2 -----------------------
  // Its A and B registers are stage 3's (the normalised |P| and m), M stage
  // 4's, P stage 5's: prod5 = (|P| << lz) x m three cycles after stage 2.
  logic [NW-1:0]    prod5;
  logic [LzW:0]     lz4_q, lz5_q;
  logic             sgn4_q, sgn5_q, zero4_q, zero5_q;
  logic [5:0]       e4_q, e5_q;
  ktpu_dsp_mul #(.AW(MagW), .BW(8), .PW(NW), .AReg(1), .BReg(1), .MReg(1), .PReg(1)) u_scale_mul (
    .clk_i, .a_i(mag2_q << lz2), .b_i(m2_q), .p_o(prod5)
  );
  always_ff @(posedge clk_i) begin
    {lz4_q, sgn4_q, zero4_q, e4_q} <= {lz3_q, sgn3_q, zero3_q, e3_q};
    {lz5_q, sgn5_q, zero5_q, e5_q} <= {lz4_q, sgn4_q, zero4_q, e4_q};
  end

  // ---- stage 5: normalise the product; choose the addend -------------------
  // v = prod x 2^(e - 46 - lz) = nv x 2^(e - 46 - lz - sh); the MSB of nv is
  // bit NW-1, so its exponent is e - 46 - lz - sh + NW - 1.
  logic [1:0]       sh5;
  logic [NW-1:0]    nv5;
  logic [BW-1:0]    ev5;
  always_comb begin
    if (prod5[NW-1])      sh5 = 2'd0;
    else if (prod5[NW-2]) sh5 = 2'd1;
    else                  sh5 = 2'd2;
    nv5 = prod5 << sh5;
    ev5 = BW'(e5_q) + BW'(VBias) - BW'(lz5_q) - BW'(sh5);
  end

  // An FP22 operand as (sign, zero, exponent, NW-bit significand).
  logic [6:0] pe5;
  assign pe5 = peer_i[20:14];

  logic             sv6_q, zv6_q;
  logic [NW-1:0]    nv6_q;
  logic [BW-1:0]    ev6_q;
  always_ff @(posedge clk_i) begin
    if (use_peer_i) begin
      sv6_q <= peer_i[21];
      zv6_q <= (pe5 == 7'd0);
      nv6_q <= {1'b1, peer_i[13:0], (NW - SigW)'(0)};
      ev6_q <= pe5;
    end else begin
      sv6_q <= sgn5_q;
      zv6_q <= zero5_q;
      nv6_q <= nv5;
      ev6_q <= ev5;
    end
  end

  // ---- stage 6: T arrives; order the operands by magnitude -----------------
  logic [6:0]       te6;
  logic             zt6;
  logic [NW-1:0]    nt6;
  logic [BW-1:0]    et6;
  assign te6 = t_i[20:14];
  assign zt6 = t_zero_i || (te6 == 7'd0);
  assign nt6 = {1'b1, t_i[13:0], (NW - SigW)'(0)};
  assign et6 = te6;

  // Magnitude keys {exponent + offset, significand}; a zero operand keys 0,
  // so it is always the smaller one and aligns to nothing.
  logic [BW+NW-1:0] kv6, kt6;
  logic             v_big6;
  logic [BW-1:0]    dvt6, dtv6;
  // d beyond ShMax = 28 loses every bit anyway: clamp. Bit tests, not a
  // comparator (d > 28: d >= 32, or 29..31).
  if (ShMax != 28 || DW != 5 || BW != 7) begin : gen_bad_clamp
    $fatal(1, "ktpu_acc_lane: clamp_d is written for ShMax 28, 5-bit shifts, 7-bit exponents");
  end
  function automatic logic [DW-1:0] clamp_d(input logic [BW-1:0] d);
    clamp_d = (d[6] || d[5] || (d[4] && d[3] && d[2] && (d[1] || d[0]))) ? DW'(ShMax) : d[4:0];
  endfunction
  assign kv6 = zv6_q ? '0 : {ev6_q, nv6_q};
  assign kt6 = zt6   ? '0 : {et6, nt6};
  assign v_big6 = kv6 > kt6;
  assign dvt6 = ev6_q - et6;
  assign dtv6 = et6 - ev6_q;

  logic             sb7_q, sub7_q, zs7_q;
  logic [NW-1:0]    nb7_q;
  logic [BW-1:0]    eb7_q;
  logic [DW-1:0]    d7_q;
  always_ff @(posedge clk_i) begin
    if (v_big6) begin
      sb7_q <= sv6_q;  nb7_q <= nv6_q;  eb7_q <= ev6_q;
      d7_q  <= clamp_d(dvt6);
      zs7_q <= zt6;
      sub7_q <= sv6_q ^ t_i[21];
    end else begin
      sb7_q <= t_i[21];  nb7_q <= nt6;  eb7_q <= et6;
      d7_q  <= clamp_d(dtv6);
      zs7_q <= zv6_q;
      sub7_q <= sv6_q ^ t_i[21];
    end
    // Both zero: kt6 = kv6 = 0 picks T as "big"; stage 10 sees a zero sum.
    if (zt6 && !v_big6) nb7_q <= '0;
  end

  // ---- stage 7: align the smaller operand in a DSP48E2 used as a shifter --
  // {ns, 00} >> d is ns x 2^(16-d) >> 14: the product's bits above 14 are
  // the aligned operand and everything below is the sticky. B = 2^(16-d)
  // must fit the 18-bit B port, so for d > 16 the multiplier takes
  // B = 2^(33-d) instead and stage 8 reads the product 17 bits higher (bits
  // above 31, sticky below): the choice between the two windows is one more
  // input of the adder's LUTs, where a fabric pre-shift of ns cost a 26-bit
  // mux. A zero small operand multiplies by B = 0. Two guard bits keep a
  // shift of <= 2 exact, which is every case in which a subtraction can
  // cancel more than one leading bit.
  localparam int unsigned PW    = NW + 16;          // product width
  localparam int unsigned HiSh  = 17;               // the second window's offset
  logic             hi7;
  logic [16:0]      pow7;
  // 5-bit arithmetic: 33 - d for d in 17..28 is 5..16, the same modulo 32.
  assign hi7  = d7_q > DW'(16);
  assign pow7 = zs7_q ? 17'd0 :
                hi7   ? (17'd1 << (DW'(16 + HiSh) - d7_q)) : (17'd1 << (DW'(16) - d7_q));

  // The small operand ns goes straight into the DSP's A register (stage 7);
  // B = pow7 comes from fabric registers; P is stage 8's register.
  logic [PW-1:0]    prod8;
  ktpu_dsp_mul #(.AW(NW), .BW(17), .PW(PW), .AReg(1), .BReg(0), .MReg(0), .PReg(1)) u_align_mul (
    .clk_i, .a_i(v_big6 ? nt6 : nv6_q), .b_i(pow7), .p_o(prod8)
  );
  logic [NW+2:0]    a8_q;
  logic             hi8_q, sb8_q, sub8_q;
  logic [BW-1:0]    eb8_q;
  always_ff @(posedge clk_i) begin
    a8_q   <= {nb7_q, 3'b000};
    hi8_q  <= hi7;
    sb8_q  <= sb7_q;
    sub8_q <= sub7_q;
    eb8_q  <= eb7_q;
  end
  logic [NW+2:0]    b8;
  assign b8 = hi8_q ? {(HiSh)'(0), prod8[PW-1:14+HiSh], (prod8[13+HiSh:0] != '0)}
                    : {prod8[PW-1:14], (prod8[13:0] != 14'd0)};

  // ---- stage 8: one add or subtract; |big| >= |small| so never negative ---
  // Subtraction as a + ~b + 1: one carry chain, the inversion folded into
  // its LUTs (an adder and a subtractor with a mux after them cost twice).
  logic [SumW-1:0]  s9_q;
  logic             sb9_q;
  logic [BW:0]      eb9_q;     // eb + 1: the exponent of bit SumW-1
  always_ff @(posedge clk_i) begin
    s9_q  <= {1'b0, a8_q} + ({1'b0, b8} ^ {SumW{sub8_q}}) + SumW'(sub8_q);
    sb9_q <= sb8_q;
    eb9_q <= (BW + 1)'(eb8_q) + (BW + 1)'(1);
  end

  // ---- stage 9: normalise (MSB to bit SumW-1) -------------------------------
  // The big operand's MSB sat at bit SumW-2 with exponent eb, so bit SumW-1
  // carries exponent eb + 1.
  // Leading zeros removed in three steps (16; 0, 4, 8 or 12; 0..3): a 4:1
  // step is one LUT6 per bit, as cheap as a 2:1 step, so three steps cost
  // less than the five of a binary shifter. Only the 15 bits kept after the
  // hidden one (fraction and round bit) are needed from the last step; the
  // sticky is the OR of the sum's bits that end up below them, i.e. of
  // bits k with k + lz <= 13, masked directly.
  if (SumW != 30 || SigW != 15) begin : gen_bad_sumw
    $fatal(1, "ktpu_acc_lane: the normaliser is written for a 30-bit sum and 15-bit significands");
  end
  logic [SumW-1:0]  a9, b9;
  // c9[29] is the hidden one and the low bits are the sticky's: not needed.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [SumW-1:0]  c9;
  /* verilator lint_on UNUSEDSIGNAL */
  logic             lz16_9;
  logic [1:0]       lz4_9, lz1_9;
  logic [4:0]       lz9;
  logic             st9;
  // Counts of the two lower steps for either outcome of the first:
  // h (lz < 16, from s9[29:14]) and l (lz >= 16, from s9[13:0]).
  logic [1:0]       lzh4_9, lzh1_9, lzl4_9, lzl1_9;
  // Only the top three bits of each decide (the next step's count).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0]      bh9, bl9;
  /* verilator lint_on UNUSEDSIGNAL */
  function automatic logic [1:0] lz_nib(input logic [11:0] x);  // leading zero nibbles, max 3
    if (x[11:8] != 4'd0)     lz_nib = 2'd0;
    else if (x[7:4] != 4'd0) lz_nib = 2'd1;
    else if (x[3:0] != 4'd0) lz_nib = 2'd2;
    else                     lz_nib = 2'd3;
  endfunction
  function automatic logic [1:0] lz_top(input logic [2:0] x);   // leading zeros, max 3
    if (x[2])      lz_top = 2'd0;
    else if (x[1]) lz_top = 2'd1;
    else if (x[0]) lz_top = 2'd2;
    else           lz_top = 2'd3;
  endfunction
  always_comb begin
    // All three counts straight from the sum, side by side: each step's
    // count would otherwise wait for the step before (the longest LUT path
    // of the accumulator, through the exponent's subtraction).
    lz16_9 = (s9_q[29:14] == 16'd0);
    lzh4_9 = lz_nib(s9_q[29:18]);
    bh9    = s9_q[29:14] << {lzh4_9, 2'b00};
    lzh1_9 = lz_top(bh9[15:13]);
    lzl4_9 = lz_nib({s9_q[13:2]});
    bl9    = {s9_q[13:0], 2'b00} << {lzl4_9, 2'b00};
    lzl1_9 = lz_top(bl9[15:13]);
    lz4_9  = lz16_9 ? lzl4_9 : lzh4_9;
    lz1_9  = lz16_9 ? lzl1_9 : lzh1_9;
    lz9    = {lz16_9, lz4_9, lz1_9};
    a9 = lz16_9 ? {s9_q[13:0], 16'd0} : s9_q;
    b9 = a9 << {lz4_9, 2'b00};
    c9 = b9 << lz1_9;
    // The sticky: the sum's bits below the kept ones, k + lz <= 13. With
    // lz >= 16 there are none, and the h count is then 15, which masks
    // every bit: so the h count alone gives the mask.
    st9 = (s9_q[13:0] & (14'h3FFF >> {lzh4_9, lzh1_9})) != 14'd0;
  end
  logic [SigW-1:0]  n10_q;     // fraction (hidden one dropped) and the round bit
  logic             st10_q;
  logic signed [EW-1:0] e10_q;
  logic             sb10_q, z10_q;
  always_ff @(posedge clk_i) begin
    n10_q  <= c9[28 -: SigW];
    st10_q <= st9;
    e10_q  <= $signed(EW'(eb9_q)) - $signed(EW'(lz9));
    sb10_q <= sb9_q;
    z10_q  <= (s9_q == '0);
  end

  // ---- stage 10: round to nearest even at 15 bits, then range -------------
  // {exponent, fraction} + inc: a carry out of the fraction (1.11..1 rounding
  // up) lands in the exponent and leaves the fraction 0, which is exactly
  // 1.0 x 2^(e+1). One incrementer does the rounding and the carry.
  logic [13:0]      frac10;
  logic             rnd10, inc10;
  logic signed [EW-1:0] eb10;    // biased exponent after rounding
  assign rnd10  = n10_q[0];
  assign inc10  = rnd10 && (st10_q || n10_q[1]);
  assign {eb10, frac10} = {e10_q, n10_q[SigW-1:1]} + (EW + 14)'(inc10);
  // Range by bit tests: above 127 is !sign && bits 8:7 set; below 1 is
  // negative or zero.
  logic ovf10, unf10;
  assign ovf10 = !eb10[EW-1] && (eb10[EW-2:7] != '0);
  assign unf10 = eb10[EW-1] || (eb10 == '0);

  always_ff @(posedge clk_i) begin
    acc_ovf_o <= 1'b0;
    acc_unf_o <= 1'b0;
    if (z10_q) begin
      r22_o <= 22'd0;                                   // exact zero is +0
    end else if (ovf10) begin
      r22_o <= {sb10_q, 7'h7F, 14'h3FFF};               // saturate
      acc_ovf_o <= 1'b1;
    end else if (unf10) begin
      r22_o <= 22'd0;                                   // below 2^-62: +0
      acc_unf_o <= 1'b1;
    end else begin
      r22_o <= {sb10_q, eb10[6:0], frac10};
    end
  end

  // ---- stages 11, 12: R16 (both registers inside ktpu_acc_r16) -----------
  ktpu_acc_r16 u_r16 (
    .clk_i  (clk_i),
    .fp22_i (r22_o),
    .fp16_o (r16_o),
    .ovf_o  (f16_ovf_o)
  );
endmodule
`default_nettype wire
