// ktpu_quant: FP16 -> MXFP7 quantiser (SPEC §3.2), one 32-element block per
// cycle, bit-exact to ktpu_ref_quant_block().
//
// Pipeline, 11 register stages (latency 11, throughput one block per
// cycle), elastic: the whole pipe advances when its output is free or taken,
// so a stalled consumer stalls it without losing a block. The stages are cut
// so that no register-to-register path is deeper than about ten LUT levels
// (docs/mem.md; it was 43 with the division in one stage).
//   s1  input register. Then: non-finite test, two levels of the peak =
//       max |x| tree (finite FP16 magnitudes order like their 15-bit
//       patterns), one 15-bit compare and a mux each.
//   s2  eight partial maxima. Then two more levels.
//   s3  two. Then the last level: the peak.
//   s4  the peak. Then the scale byte of the peak.
//   s5  x, scale. Then per element: |x| / scale = sig x 2^(ep - E - 2) / (8+M)
//       with t = E + 2 - ep >= 1 (the peak fixes E >= ep_peak - 1), so
//       q = RNE(floor(sig / (8+M)) / 2^t + remainder): an 11-by-4-bit
//       restoring division (quotient A < 2^8, remainder r; the partial
//       remainder never exceeds 2(8+M) - 1 < 32, so each step is 5 bits
//       wide), two quotient bits per stage: bits 7, 6 here,
//   s6  5, 4,   s7  3, 2,   s8  1, 0.
//   s9  A, r != 0, t. Then round half even on A's bit t-1 with A's lower bits
//       and r as sticky: A >> t and the increment. t >= 9 gives 0
//       (sig < 2^11 <= (8+M) x 2^t / 2).
//   s10 A >> t, increment, sign. Then q = +-(A >> t + inc) in one carry chain.
//   s11 output: q (int7, element k at q_o[7k +: 7], which is exactly bytes
//       0..27 of the storage format), scale, nonfinite, tag.
// A block with Inf/NaN gives q = 0, scale 0xA0 and nonfinite_o; a zero block
// gives q = 0, scale 0xA0.
`default_nettype none

module ktpu_quant #(
  parameter int TagBits = 8  // carried alongside the block (the agent's bookkeeping)
) (
  input  wire logic               clk_i,
  input  wire logic               rst_i,
  input  wire logic               valid_i,
  output logic                    ready_o,
  input  wire logic [32*16-1:0]   x_i,        // element k = x_i[16k +: 16], FP16
  input  wire logic [TagBits-1:0] tag_i,
  output logic                    valid_o,
  input  wire logic               ready_i,
  output logic      [32*7-1:0]    q_o,        // element k = q_o[7k +: 7], int7
  output logic      [7:0]         scale_o,
  output logic                    nonfinite_o,
  output logic      [TagBits-1:0] tag_o,
  output logic                    busy_o      // a block is in the pipeline
);
  if (ktpu_pkg::MX_BLOCK_K != 32'd32 || ktpu_pkg::MX_ELEM_BITS != 32'd7 ||
      ktpu_pkg::MX_SCALE_ONE != 32'hA0) begin : gen_bad_defs
    $error("ktpu_quant: written for 32-element blocks of int7 with scale 1.0 = 0xA0");
  end
  if (TagBits < 1) begin : gen_bad_tag
    $error("ktpu_quant: TagBits must be >= 1");
  end

  // The block-level pipeline: x until s5, then the scale, the non-finite
  // flag and the tag alongside the lanes' state (index = stage).
  localparam int NSt = 11;
  logic adv;  // the whole pipe moves
  logic [NSt:1]       v_q;
  assign busy_o = v_q != '0;
  logic [TagBits-1:0] tag_q [NSt:1];
  logic               nf_q [NSt:2];
  logic [7:0]         scale_q [NSt:5];
  assign adv     = !v_q[NSt] || ready_i;
  assign ready_o = adv;
  assign valid_o = v_q[NSt];

  always_ff @(posedge clk_i) begin
    if (rst_i) v_q <= '0;
    else if (adv) v_q <= {v_q[NSt-1:1], valid_i};
  end

  // ---- s1: non-finite, peak (two levels) -------------------------------------
  logic [32*16-1:0] x1_q, x2_q, x3_q, x4_q, x5_q;
  always_ff @(posedge clk_i) begin
    if (adv) begin
      x1_q     <= x_i;
      tag_q[1] <= tag_i;
      for (int s = 2; s <= NSt; s++) tag_q[s] <= tag_q[s-1];
    end
  end

  function automatic logic [14:0] max15(input logic [14:0] a, input logic [14:0] b);
    max15 = a > b ? a : b;
  endfunction

  logic        nonfinite1;
  logic [14:0] lvl2 [8];
  always_comb begin
    nonfinite1 = 1'b0;
    for (int k = 0; k < 32; k++)
      if (x1_q[16*k + 10 +: 5] == 5'd31) nonfinite1 = 1'b1;
    for (int k = 0; k < 8; k++)
      lvl2[k] = max15(max15(x1_q[64*k +: 15], x1_q[64*k + 16 +: 15]),
                      max15(x1_q[64*k + 32 +: 15], x1_q[64*k + 48 +: 15]));
  end

  // ---- s2, s3: the peak (two levels, then one) ------------------------------------
  logic [14:0] lvl2_q [8];
  logic [14:0] lvl4 [2];
  logic [14:0] lvl4_q [2];
  logic [14:0] peak3;
  always_ff @(posedge clk_i) begin
    if (adv) begin
      x2_q     <= x1_q;
      x3_q     <= x2_q;
      for (int k = 0; k < 8; k++) lvl2_q[k] <= lvl2[k];
      for (int k = 0; k < 2; k++) lvl4_q[k] <= lvl4[k];
      nf_q[2]  <= nonfinite1;
      for (int s = 3; s <= NSt; s++) nf_q[s] <= nf_q[s-1];
    end
  end
  always_comb begin
    for (int k = 0; k < 2; k++)
      lvl4[k] = max15(max15(lvl2_q[4*k], lvl2_q[4*k+1]), max15(lvl2_q[4*k+2], lvl2_q[4*k+3]));
    peak3 = max15(lvl4_q[0], lvl4_q[1]);
  end

  // ---- s4: the scale of the peak --------------------------------------------------
  logic [14:0] peak4_q;
  always_ff @(posedge clk_i) begin
    if (adv) begin
      x4_q    <= x3_q;
      peak4_q <= peak3;
    end
  end

  // The peak is sig x 2^(ep-25), subnormals as ep = 1 without the hidden bit.
  // m = max(8, ceil(sig/126)) = 8 + #{k in 8..16 : sig > 126k};
  // m <= 15: E = ep-1, M = m-8; m = 16, 17: E = ep, M = m-16 (SPEC §3.2).
  // The nine comparisons are a thermometer code (sig > 126k implies it for
  // every smaller k), so M is read from it directly, not counted by a chain
  // of adders.
  logic [10:0] psig;
  logic [4:0]  pep, e4;
  logic [16:8] gt;      // gt[k]: sig > 126k
  logic [2:0]  mm4;
  logic [7:0]  scale4;
  always_comb begin
    pep  = (peak4_q[14:10] == 5'd0) ? 5'd1 : peak4_q[14:10];
    psig = {(peak4_q[14:10] != 5'd0), peak4_q[9:0]};
    for (int k = 8; k <= 16; k++) gt[k] = psig > 11'(126 * k);
    if (gt[15]) begin   // m = 16 or 17
      e4  = pep;
      mm4 = {2'b00, gt[16]};
    end else begin      // m - 8 = gt[8] + ... + gt[14], a thermometer
      e4  = pep - 5'd1;
      mm4 = {gt[11], (gt[9] && !gt[11]) || gt[13],
             (gt[8] && !gt[9]) || (gt[10] && !gt[11]) || (gt[12] && !gt[13]) || gt[14]};
    end
    scale4 = (nf_q[4] || peak4_q == 15'd0) ? 8'hA0 : {e4, mm4};
  end

  // ---- s5 .. s10: per element, divide and round -----------------------------------
  always_ff @(posedge clk_i) begin
    if (adv) begin
      x5_q       <= x4_q;
      scale_q[5] <= scale4;
      for (int s = 6; s <= NSt; s++) scale_q[s] <= scale_q[s-1];
    end
  end

  // Two restoring division steps: quotient bits b and b-1 of sig / (8+M)
  // into a, the partial remainder (< 2 (8+M) <= 30) in rem. With the divisor
  // in 8..15, rem >= 8+M is rem[4] (>= 16) or rem[3] and rem[2:0] >= M: no
  // carry chain for the compare.
  function automatic logic [12:0] div2(input logic [4:0] rem_in, input logic [7:0] a_in,
                                       input logic [1:0] next_bits, input logic [2:0] m,
                                       input int b);
    logic [4:0] rem;
    logic [7:0] a;
    rem = rem_in;
    a   = a_in;
    for (int i = 0; i < 2; i++) begin
      rem = {rem[3:0], next_bits[1 - i]};
      if (rem[4] || (rem[3] && rem[2:0] >= m)) begin
        rem      = rem - {2'b01, m};
        a[b - i] = 1'b1;
      end
    end
    div2 = {rem, a};
  endfunction

  logic [32*7-1:0] q10;
  for (genvar k = 0; k < 32; k++) begin : gen_lane
    // s5: the element's exponent and significand, t, quotient bits 7 and 6
    // (sig[10:8] < 8 <= den gives quotient bits above 7 of zero, so the
    // remainder starts as sig[10:8])
    logic [15:0] x;
    logic [10:0] sig;
    logic [4:0]  ep;
    logic [6:0]  t5;        // E + 2 - ep, >= 1 for every finite element
    logic [12:0] d5, d6, d7, d8;   // {rem, a} after each stage's two steps
    assign x    = x5_q[16*k +: 16];
    assign ep   = (x[14:10] == 5'd0) ? 5'd1 : x[14:10];
    assign sig  = {(x[14:10] != 5'd0), x[9:0]};
    assign t5   = 7'(scale_q[5][7:3]) + 7'd2 - 7'(ep);
    assign d5   = div2({2'b00, sig[10:8]}, 8'd0, sig[7:6], scale_q[5][2:0], 7);

    // s6 .. s8: the remainder, the quotient so far and the dividend's bits
    // still to come; t (as "zero": t >= 9 or 0, else t <= 8); the sign
    logic [12:0] d6_q, d7_q, d8_q;
    logic [5:0]  sig6_q;
    logic [3:0]  sig7_q;
    logic [1:0]  sig8_q;
    logic [3:0]  t6_q, t7_q, t8_q, t9_q;
    logic        z6_q, z7_q, z8_q, z9_q, z10_q;
    logic        s6_q, s7_q, s8_q, s9_q, s10_q;
    always_ff @(posedge clk_i) begin
      if (adv) begin
        // t = 0 never happens for a finite block; keeps q bounded
        {d6_q, sig6_q, t6_q, z6_q, s6_q} <= {d5, sig[5:0], t5[3:0], t5 >= 7'd9 || t5 == 7'd0, x[15]};
        {d7_q, sig7_q, t7_q, z7_q, s7_q} <= {d6, sig6_q[3:0], t6_q, z6_q, s6_q};
        {d8_q, sig8_q, t8_q, z8_q, s8_q} <= {d7, sig7_q[1:0], t7_q, z7_q, s7_q};
        {t9_q, z9_q, s9_q}               <= {t8_q, z8_q, s8_q};
      end
    end
    assign d6 = div2(d6_q[12:8], d6_q[7:0], sig6_q[5:4], scale_q[6][2:0], 5);
    assign d7 = div2(d7_q[12:8], d7_q[7:0], sig7_q[3:2], scale_q[7][2:0], 3);
    assign d8 = div2(d8_q[12:8], d8_q[7:0], sig8_q[1:0], scale_q[8][2:0], 1);

    // s9: round half even at bit t-1 of the quotient, the lower bits and the
    // remainder as sticky
    logic [7:0] a9_q;
    logic [4:0] r9_q;      // the remainder
    logic [8:0] ax;        // a with a zero above, so bit t (t <= 8) exists
    logic       rb, sticky, inc9;
    logic [6:0] sh9;
    always_ff @(posedge clk_i) begin
      if (adv) begin
        a9_q <= d8[7:0];
        r9_q <= d8[12:8];
      end
    end
    always_comb begin
      ax     = {1'b0, a9_q};
      rb     = ax[t9_q - 4'd1];
      sticky = (r9_q != 5'd0) || ((a9_q & ((8'd1 << (t9_q - 4'd1)) - 8'd1)) != 8'd0);
      sh9    = 7'(a9_q >> t9_q);
      inc9   = rb && (sticky || ax[t9_q]);
    end

    // s10: q = +-(sh + inc), as (sh ^ sign) + (inc ^ sign): -(sh + inc) is
    // ~sh + !inc; zero for t out of range and for a non-finite block
    logic [6:0] sh10_q;
    logic       inc10_q;
    always_ff @(posedge clk_i) begin
      if (adv) begin
        sh10_q  <= sh9;
        inc10_q <= inc9;
        z10_q   <= z9_q;
        s10_q   <= s9_q;
      end
    end
    logic c10;
    assign c10 = inc10_q ^ s10_q;
    assign q10[7*k +: 7] = (z10_q || nf_q[10]) ? 7'd0 : (sh10_q ^ {7{s10_q}}) + 7'(c10);
  end

  // ---- s11 -------------------------------------------------------------------------
  logic [32*7-1:0] q11_q;
  always_ff @(posedge clk_i) begin
    if (adv) q11_q <= q10;
  end
  assign q_o         = q11_q;
  assign scale_o     = scale_q[NSt];
  assign nonfinite_o = nf_q[NSt];
  assign tag_o       = tag_q[NSt];

endmodule

`default_nettype wire
