// ktpu_quant: FP16 -> MXFP7 quantiser (SPEC §3.2), one 32-element block per
// cycle, bit-exact to ktpu_ref_quant_block().
//
// Pipeline, 4 register stages (latency 4, throughput one block per cycle),
// elastic: the whole pipe advances when its output is free or taken, so a
// stalled consumer stalls it without losing a block.
//   s1  input register. Then: non-finite test, peak = max |x| by a 5-level
//       tree (finite FP16 magnitudes order like their 15-bit patterns).
//   s2  x, peak. Then the scale byte of the peak.
//   s3  x, scale. Then per element: |x| / scale = sig x 2^(ep - E - 2) / (8+M)
//       with t = E + 2 - ep >= 1 (the peak fixes E >= ep_peak - 1), so
//       q = RNE(floor(sig / (8+M)) / 2^t + remainder): an 11-by-4-bit
//       division (quotient A < 2^8, remainder r; the partial remainder never
//       exceeds 2(8+M) - 1 < 32, so each step is 5 bits wide), then round
//       half even on A's bit t-1 with A's lower bits and r as sticky.
//       t >= 9 gives 0 (sig < 2^11 <= (8+M) x 2^t / 2).
//   s4  output: q (int7, element k at q_o[7k +: 7], which is exactly bytes
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
  output logic      [TagBits-1:0] tag_o
);
  if (ktpu_pkg::MX_BLOCK_K != 32'd32 || ktpu_pkg::MX_ELEM_BITS != 32'd7 ||
      ktpu_pkg::MX_SCALE_ONE != 32'hA0) begin : gen_bad_defs
    $error("ktpu_quant: written for 32-element blocks of int7 with scale 1.0 = 0xA0");
  end
  if (TagBits < 1) begin : gen_bad_tag
    $error("ktpu_quant: TagBits must be >= 1");
  end

  logic adv;  // the whole pipe moves
  logic v1_q, v2_q, v3_q, v4_q;
  assign adv     = !v4_q || ready_i;
  assign ready_o = adv;
  assign valid_o = v4_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      v1_q <= 1'b0; v2_q <= 1'b0; v3_q <= 1'b0; v4_q <= 1'b0;
    end else if (adv) begin
      v1_q <= valid_i; v2_q <= v1_q; v3_q <= v2_q; v4_q <= v3_q;
    end
  end

  // ---- s1: non-finite, peak ---------------------------------------------------
  logic [32*16-1:0]   x1_q;
  logic [TagBits-1:0] tag1_q;
  always_ff @(posedge clk_i) begin
    if (adv) begin
      x1_q   <= x_i;
      tag1_q <= tag_i;
    end
  end

  logic        nonfinite1;
  logic [14:0] lvl0 [32];
  logic [14:0] lvl1 [16];
  logic [14:0] lvl2 [8];
  logic [14:0] lvl3 [4];
  logic [14:0] lvl4 [2];
  logic [14:0] peak1;
  always_comb begin
    nonfinite1 = 1'b0;
    for (int k = 0; k < 32; k++) begin
      lvl0[k] = x1_q[16*k +: 15];
      if (x1_q[16*k + 10 +: 5] == 5'd31) nonfinite1 = 1'b1;
    end
    for (int k = 0; k < 16; k++) lvl1[k] = (lvl0[2*k] > lvl0[2*k+1]) ? lvl0[2*k] : lvl0[2*k+1];
    for (int k = 0; k < 8; k++)  lvl2[k] = (lvl1[2*k] > lvl1[2*k+1]) ? lvl1[2*k] : lvl1[2*k+1];
    for (int k = 0; k < 4; k++)  lvl3[k] = (lvl2[2*k] > lvl2[2*k+1]) ? lvl2[2*k] : lvl2[2*k+1];
    for (int k = 0; k < 2; k++)  lvl4[k] = (lvl3[2*k] > lvl3[2*k+1]) ? lvl3[2*k] : lvl3[2*k+1];
    peak1 = (lvl4[0] > lvl4[1]) ? lvl4[0] : lvl4[1];
  end

  // ---- s2: the scale of the peak --------------------------------------------------
  logic [32*16-1:0]   x2_q;
  logic [TagBits-1:0] tag2_q;
  logic [14:0]        peak2_q;
  logic               nonfinite2_q;
  always_ff @(posedge clk_i) begin
    if (adv) begin
      x2_q         <= x1_q;
      tag2_q       <= tag1_q;
      peak2_q      <= peak1;
      nonfinite2_q <= nonfinite1;
    end
  end

  // The peak is sig x 2^(ep-25), subnormals as ep = 1 without the hidden bit.
  // m = max(8, ceil(sig/126)) = 8 + #{k in 8..16 : sig > 126k};
  // m <= 15: E = ep-1, M = m-8; m = 16, 17: E = ep, M = m-16 (SPEC §3.2).
  logic [10:0] psig;
  logic [4:0]  pep, m2, e2;
  logic [2:0]  mm2;
  logic [7:0]  scale2;
  always_comb begin
    pep  = (peak2_q[14:10] == 5'd0) ? 5'd1 : peak2_q[14:10];
    psig = {(peak2_q[14:10] != 5'd0), peak2_q[9:0]};
    m2   = 5'd8;
    for (int k = 8; k <= 16; k++)
      if (psig > 11'(126 * k)) m2 = m2 + 5'd1;
    if (m2 <= 5'd15) begin
      e2  = pep - 5'd1;
      mm2 = 3'(m2 - 5'd8);
    end else begin
      e2  = pep;
      mm2 = 3'(m2 - 5'd16);
    end
    scale2 = (nonfinite2_q || peak2_q == 15'd0) ? 8'hA0 : {e2, mm2};
  end

  // ---- s3: per element, divide and round ----------------------------------------
  logic [32*16-1:0]   x3_q;
  logic [TagBits-1:0] tag3_q;
  logic [7:0]         scale3_q;
  logic               nonfinite3_q;
  always_ff @(posedge clk_i) begin
    if (adv) begin
      x3_q         <= x2_q;
      tag3_q       <= tag2_q;
      scale3_q     <= scale2;
      nonfinite3_q <= nonfinite2_q;
    end
  end

  logic [32*7-1:0] q3;
  for (genvar k = 0; k < 32; k++) begin : gen_lane
    logic [15:0] x;
    logic [10:0] sig;
    logic [4:0]  ep;
    logic [4:0]  den;      // 8 + M
    logic [6:0]  t;        // E + 2 - ep, >= 1 for every finite element
    logic [7:0]  a;        // floor(sig / den) < 2^8
    logic [8:0]  ax;       // a with a zero above, so bit t (t <= 8) exists
    logic [4:0]  rem;      // partial remainder < 2 den <= 30
    logic [6:0]  mag;
    logic        rb, sticky;
    logic [6:0]  qk;
    always_comb begin
      x   = x3_q[16*k +: 16];
      ep  = (x[14:10] == 5'd0) ? 5'd1 : x[14:10];
      sig = {(x[14:10] != 5'd0), x[9:0]};
      den = {2'b01, scale3_q[2:0]};
      t   = 7'(scale3_q[7:3]) + 7'd2 - 7'(ep);
      // Restoring division: sig[10:8] < 8 <= den gives quotient bits above
      // 7 of zero, so the remainder starts as sig[10:8].
      rem = {2'b00, sig[10:8]};
      a   = 8'd0;
      for (int b = 7; b >= 0; b--) begin
        rem = {rem[3:0], sig[b]};
        if (rem >= den) begin
          rem  = rem - den;
          a[b] = 1'b1;
        end
      end
      ax     = {1'b0, a};
      rb     = 1'b0;
      sticky = 1'b0;
      if (t >= 7'd9 || t == 7'd0) begin
        mag = 7'd0;  // t = 0 never happens for a finite block; keeps q bounded
      end else begin
        rb     = ax[t[3:0] - 4'd1];
        sticky = (rem != 5'd0) || ((a & ((8'd1 << (t[3:0] - 4'd1)) - 8'd1)) != 8'd0);
        mag    = 7'(a >> t[3:0]) + 7'(rb && (sticky || ax[t[3:0]]));
      end
      if (nonfinite3_q) mag = 7'd0;
      qk = x[15] ? (7'd0 - mag) : mag;
    end
    assign q3[7*k +: 7] = qk;
  end

  // ---- s4 --------------------------------------------------------------------------
  logic [32*7-1:0]    q4_q;
  logic [7:0]         scale4_q;
  logic               nonfinite4_q;
  logic [TagBits-1:0] tag4_q;
  always_ff @(posedge clk_i) begin
    if (adv) begin
      q4_q         <= q3;
      scale4_q     <= scale3_q;
      nonfinite4_q <= nonfinite3_q;
      tag4_q       <= tag3_q;
    end
  end
  assign q_o         = q4_q;
  assign scale_o     = scale4_q;
  assign nonfinite_o = nonfinite4_q;
  assign tag_o       = tag4_q;

endmodule

`default_nettype wire
