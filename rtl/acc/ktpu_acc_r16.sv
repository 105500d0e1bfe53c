`default_nettype none
// R16: FP22 (S1 E7 M14, bias 63) to IEEE binary16, round to nearest even
// (SPEC §3.5). Subnormal results are produced exactly; a rounded magnitude
// above 65504 gives +/-65504 and raises ovf_o; anything that is or rounds to
// zero gives 0x0000 (never -0).
//
// One formula covers normal and subnormal results. The FP16 biased exponent
// is e16 = e22 - 48. Round the 15-bit significand to 11 bits after a right
// shift of 4 (normals, e16 >= 1) or 4 + (1 - e16) (subnormals), then add the
// rounded significand, hidden bit included, to (max(e16, 1) - 1) << 10: the
// hidden bit bumps the exponent field back up, a rounding carry moves it one
// further, and a subnormal rounding up to 2^-14 lands on the smallest normal
// -- no special cases.
//
// Two register stages (no reset: datapath only): input in cycle t, fp16_o
// and ovf_o registered, valid in cycle t+2. The output register holds the
// saturation as its synchronous set/reset (65504 is a constant), so the
// saturating mux costs no LUT. Zero (exponent field 0) needs no case of its
// own: it takes the largest subnormal shift, which leaves nothing, so its
// encoding is 0.
module ktpu_acc_r16 (
  input  logic        clk_i,
  input  logic [21:0] fp22_i,
  output logic [15:0] fp16_o,
  output logic        ovf_o
);
  // e22 of the smallest normal FP16 (2^-14) and of 2^16 (the first value
  // that overflows whatever its significand): 49 and 79, as bit tests below.
  localparam int unsigned ENorm   = ktpu_pkg::FP22_BIAS - 15 + 1;
  localparam int unsigned EOver   = ktpu_pkg::FP22_BIAS - 15 + 31;
  if (ENorm != 49 || EOver != 79) begin : gen_bad_bias
    $fatal(1, "ktpu_acc_r16: the bit tests below assume FP22 bias 63");
  end

  // ---- first half: shift, round bit, sticky --------------------------------
  logic [6:0]  e22;
  logic [14:0] sig;
  logic        normal, big;
  logic [3:0]  sh;            // extra right shift of subnormals, beyond 4
  // y[14] and y[2:0] are not needed (hidden bit, sticky taken by mask).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [14:0] y;             // sig >> sh: kept bits at 13:4, round bit at 3
  /* verilator lint_on UNUSEDSIGNAL */
  logic        stk, inc;
  always_comb begin
    e22  = fp22_i[20:14];
    sig  = {1'b1, fp22_i[13:0]};
    // e22 >= 49 = 7'b0110001; e22 >= 79 = 7'b1001111.
    normal = e22[6] || (e22[5] && e22[4] && (e22[3:0] != 4'd0));
    big    = e22[6] && (e22[5] || e22[4] || (e22[3:0] == 4'hF));
    // Subnormal shift 49 - e22, clamped at 12 (the round bit then lies above
    // the MSB: zero whatever follows). A table, not a subtractor.
    unique case (e22)
      7'd48: sh = 4'd1;   7'd47: sh = 4'd2;   7'd46: sh = 4'd3;   7'd45: sh = 4'd4;
      7'd44: sh = 4'd5;   7'd43: sh = 4'd6;   7'd42: sh = 4'd7;   7'd41: sh = 4'd8;
      7'd40: sh = 4'd9;   7'd39: sh = 4'd10;  7'd38: sh = 4'd11;
      default: sh = normal ? 4'd0 : 4'd12;
    endcase
    y   = sig >> sh;
    // Sticky: the sig bits below the round bit, i.e. below bit 3 + sh,
    // masked directly instead of shifted out.
    stk = (sig & ~(15'h7FFF << (5'd3 + 5'(sh)))) != 15'd0;
    inc = y[3] && (stk || y[4]);
  end

  // For normals the hidden bit y[14] is 1, so (e16 - 1) << 10 + kept is
  // {e16, kept[9:0]}; for subnormals the hidden bit is shifted down and the
  // field is 0. And e16 = e22 - 48 is e22 - 16 modulo 32 on the 5 bits that
  // matter: flip bit 4. One 15-bit increment then does all the rounding and
  // carrying.
  logic        sgn_q, big_q, inc_q;
  logic [14:0] pre_q;         // {e16 or 0, kept[9:0]}
  always_ff @(posedge clk_i) begin
    sgn_q  <= fp22_i[21];
    big_q  <= big;
    inc_q  <= inc;
    pre_q  <= {(normal ? {~e22[4], e22[3:0]} : 5'd0), y[13:4]};
  end

  // ---- second half: encode, range ------------------------------------------
  // Below 2^16, enc <= 29 << 10 + 2048 = 0x7C00: overflow is enc[14:10] = 31.
  // big_q first: its pre_q is not an encoding (and may read as 0).
  // 15 bits: a normal below big has e16 <= 30, so pre_q + 1 <= 0x7C00.
  logic [14:0] enc;
  logic        sat;
  assign enc = pre_q + 15'(inc_q);
  assign sat = big_q || enc[14:10] == 5'h1F;
  always_ff @(posedge clk_i) begin
    ovf_o <= sat;
    if (sat) fp16_o <= {sgn_q, 15'(ktpu_pkg::FP16_MAX_BITS)};
    else     fp16_o <= {sgn_q && (enc[14:0] != 15'd0), enc[14:0]};  // never -0
  end
endmodule
`default_nettype wire
