`default_nettype none
// R16: FP22 (S1 E7 M14, bias 63) to IEEE binary16, round to nearest even
// (SPEC §3.5). Subnormal results are produced exactly; a rounded magnitude
// above 65504 gives +/-65504 and raises ovf_o; anything that is or rounds to
// zero gives 0x0000 (never -0). Combinational; the lane registers it.
//
// One formula covers normal and subnormal results: with e16 = E + 15 the
// FP16 biased exponent, shift the 15-bit significand right by 5 - max(e16, 1)
// (4 for normals, more for subnormals) and round to 11 bits. Adding the rounded
// significand, hidden bit included, to (max(e16, 1) - 1) << 10 gives the
// encoding: the hidden bit bumps the exponent field back up, a rounding
// carry moves it one further, and a subnormal rounding up to 2^-14 lands on
// the smallest normal -- no special cases.
module ktpu_acc_r16 (
  input  logic [21:0] fp22_i,
  output logic [15:0] fp16_o,
  output logic        ovf_o
);

  localparam int unsigned EBias16 = 15;
  // FP22 biased e -> FP16 biased e16 = e - 63 + 15.
  localparam int unsigned EDiff   = ktpu_pkg::FP22_BIAS - EBias16;   // 48
  // Beyond the normal shift of 4, a further 12 leaves the round bit below
  // the significand's MSB, so the result is 0 whatever follows: larger
  // subnormal shifts are clamped to 12.
  localparam int unsigned ShClamp = 12;

  logic        sgn;
  logic [6:0]  e22;
  logic [14:0] sig;
  logic signed [8:0] e16;     // -47 .. 79
  logic [8:0]  e16c;          // max(e16, 1), as unsigned
  logic [3:0]  sh;            // extra right shift of subnormals, beyond 4
  logic [26:0] wide;          // sig << 12, then >> sh: 11 kept, round, 15 sticky
  logic [10:0] kept;
  logic        rnd, stk, inc;
  logic [11:0] rsig;          // rounded significand, up to 2048
  logic [18:0] enc;           // (e16c - 1) << 10 + rsig, before the range check

  always_comb begin
    sgn  = fp22_i[21];
    e22  = fp22_i[20:14];
    sig  = {1'b1, fp22_i[13:0]};
    e16  = $signed({2'b00, e22}) - 9'(EDiff);
    e16c = (e16 < 9'sd1) ? 9'd1 : 9'(e16);
    // The total shift is 5 - e16c: 4 for normals, 4 + (1 - e16) below.
    if (e16 < 9'sd1) begin
      sh = ((9'sd1 - e16) > 9'(ShClamp)) ? 4'(ShClamp) : 4'(9'sd1 - e16);
    end else begin
      sh = 4'd0;
    end
    wide = {sig, 12'd0} >> sh;
    kept = wide[26:16];
    rnd  = wide[15];
    stk  = |wide[14:0];
    inc  = rnd && (stk || kept[0]);
    rsig = 12'(kept) + 12'(inc);
    enc  = {(e16c - 9'd1), 10'd0} + 19'(rsig);

    ovf_o  = 1'b0;
    if (e22 == 7'd0 || enc == 19'd0) begin
      fp16_o = 16'h0000;
    end else if (enc > 19'(ktpu_pkg::FP16_MAX_BITS)) begin
      fp16_o = {sgn, 15'(ktpu_pkg::FP16_MAX_BITS)};
      ovf_o  = 1'b1;
    end else begin
      fp16_o = {sgn, enc[14:0]};
    end
  end
endmodule
`default_nettype wire
