`default_nettype none
// R16: FP22 (S1 E7 M14, bias 63) to IEEE binary16, round to nearest even
// (SPEC §3.5). Subnormal results are produced exactly; a rounded magnitude
// above 65504 gives +/-65504 and raises ovf_o; anything that is or rounds to
// zero gives 0x0000 (never -0). Combinational; the lane registers it.
//
// One formula covers normal and subnormal results. The FP16 biased exponent
// is e16 = e22 - 48. Round the 15-bit significand to 11 bits after a right
// shift of 4 (normals, e16 >= 1) or 4 + (1 - e16) (subnormals), then add the
// rounded significand, hidden bit included, to (max(e16, 1) - 1) << 10: the
// hidden bit bumps the exponent field back up, a rounding carry moves it one
// further, and a subnormal rounding up to 2^-14 lands on the smallest normal
// -- no special cases. All in 7-bit unsigned exponent arithmetic.
module ktpu_acc_r16 (
  input  logic [21:0] fp22_i,
  output logic [15:0] fp16_o,
  output logic        ovf_o
);
  localparam int unsigned EDiff = ktpu_pkg::FP22_BIAS - 15;   // 48
  localparam logic [6:0]  ENorm = 7'(EDiff + 1);             // e22 of the smallest normal
  localparam logic [6:0]  EOver = 7'(EDiff + 31);            // e22 of 2^16 and above
  // A subnormal shift of 12 or more beyond the normal 4 leaves the round bit
  // below the significand's MSB: the result is 0 whatever follows.
  localparam int unsigned ShClamp = 12;

  logic        sgn, subn;
  logic [6:0]  e22, dsub;
  logic [14:0] sig;
  logic [15:0] sigx;          // sig with a zero above, for the round bit at shift 16
  logic [3:0]  sh;
  logic [14:0] mask;          // sig bits below the round bit
  logic [10:0] kept;
  logic        rnd, stk, inc;
  logic [11:0] rsig;          // rounded significand, up to 2048
  logic [4:0]  ebase;         // max(e16, 1) - 1 for e16 <= 30
  logic [15:0] enc;

  always_comb begin
    sgn  = fp22_i[21];
    e22  = fp22_i[20:14];
    sig  = {1'b1, fp22_i[13:0]};
    sigx = {1'b0, sig};
    subn = e22 < ENorm;
    dsub = ENorm - e22;                                   // used only when subn
    sh   = !subn ? 4'd0 : (dsub > 7'(ShClamp)) ? 4'(ShClamp) : dsub[3:0];
    kept = 11'(sig >> (5'd4 + 5'(sh)));   // sh >= 0: at most 11 bits remain
    rnd  = sigx[4'd3 + sh];
    for (int k = 0; k < 15; k++) mask[k] = 32'(k) < 32'(3) + 32'(sh);
    stk  = (sig & mask) != '0;
    inc  = rnd && (stk || kept[0]);
    rsig = 12'(kept) + 12'(inc);
    ebase = subn ? 5'd0 : 5'(e22 - ENorm);
    enc  = {1'b0, ebase, 10'd0} + 16'(rsig);

    ovf_o  = 1'b0;
    if (e22 == 7'd0 || enc == 16'd0) begin
      fp16_o = 16'h0000;
    end else if (e22 >= EOver || enc > 16'(ktpu_pkg::FP16_MAX_BITS)) begin
      fp16_o = {sgn, 15'(ktpu_pkg::FP16_MAX_BITS)};
      ovf_o  = 1'b1;
    end else begin
      fp16_o = {sgn, enc[14:0]};
    end
  end
endmodule
`default_nettype wire
