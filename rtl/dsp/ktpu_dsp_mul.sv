`default_nettype none
// dsp_mul: a multiply in one DSP48E2, its pipeline registers in the DSP
// (AREG, BREG, MREG, PREG as the parameters say), P = A x B, unsigned or
// (Signed) two's complement.
//
// Written as an instance rather than `a * b` between registers because
// Yosys 0.23 packs none of a DSP48E2's registers from inferred logic
// (synth_xilinx -family xcup leaves AREG = BREG = MREG = PREG = 0 even for
// the plain registered-multiply pattern it packs on xc7), so an inferred
// multiply is a combinational pass through the DSP between fabric
// flip-flops. Here the registers are the DSP's: the latency from a_i/b_i to
// p_o is AReg + MReg + PReg (B's BReg is the A side's AReg when both are
// registered: keep them equal or drive B one cycle later).
// Unsigned operands are zero-extended: A up to 26 bits (the multiplier
// takes A[26:0] as signed), B up to 17 (B[17:0] signed); signed ones are
// sign-extended, A up to 27 bits, B up to 18 (P's bits above AW + BW are
// then copies of the sign). Nothing is reset and every stage is always
// enabled (the accumulator's lanes and the CPU's multiplier run without a
// stall).
module ktpu_dsp_mul #(
  parameter int unsigned AW   = 26,
  parameter int unsigned BW   = 17,
  parameter int unsigned PW   = 43,
  parameter int unsigned AReg = 1,
  parameter int unsigned BReg = 1,
  parameter int unsigned MReg = 1,
  parameter int unsigned PReg = 1,
  parameter bit          Signed = 1'b0
) (
  input  wire          clk_i,
  input  wire [AW-1:0] a_i,
  input  wire [BW-1:0] b_i,
  output wire [PW-1:0] p_o
);
  if (AW < 1 || AW > (Signed ? 27 : 26) || BW < 1 || BW > (Signed ? 18 : 17) || PW < 1 || PW > AW + BW ||
      AReg > 1 || BReg > 1 || MReg > 1 || PReg > 1) begin : gen_bad_params
    $fatal(1, "ktpu_dsp_mul: need 1 <= AW <= 26 (27 signed), 1 <= BW <= 17 (18 signed), PW <= AW + BW, registers 0 or 1");
  end
  wire [29:0] a_port = Signed ? 30'($signed(a_i)) : 30'(a_i);
  wire [17:0] b_port = Signed ? 18'($signed(b_i)) : 18'(b_i);
  /* verilator lint_off UNUSEDSIGNAL */
  wire [47:0] p;   // above PW: zero (AW + BW bits at most), or bits the user drops
  /* verilator lint_on UNUSEDSIGNAL */
  assign p_o = p[PW-1:0];
  // OPMODE = {W, Z, Y, X} = {0, 0, M, M}: P = the product. INMODE 0: A2, B2
  // (the one register stage when AREG/BREG = 1), no pre-adder.
  localparam logic [8:0] OpMode = 9'b00_000_01_01;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [47:0] pcout_unused;
  wire [29:0] acout_unused;
  wire [17:0] bcout_unused;
  wire [3:0]  carryout_unused;
  wire [7:0]  xorout_unused;
  wire        carrycascout_unused, multsignout_unused, overflow_unused, underflow_unused;
  wire        patb_unused, pat_unused;
  /* verilator lint_on UNUSEDSIGNAL */
  // Every input connected by name (the vendor model treats a floating pin
  // through === 1'bz); the D, C and control registers are unused and held.
  // CEA1/CEB1 are enabled although one-stage A/B use only A2/B2 (as in
  // ktpu_mx_mac: no reading of UG579 on which enable they take can freeze them).
  DSP48E2 #(
    .AMULTSEL("A"), .BMULTSEL("B"), .PREADDINSEL("A"), .USE_MULT("MULTIPLY"),
    .A_INPUT("DIRECT"), .B_INPUT("DIRECT"),
    .AREG(AReg), .ACASCREG(AReg), .BREG(BReg), .BCASCREG(BReg),
    .DREG(0), .ADREG(0), .CREG(0), .MREG(MReg), .PREG(PReg),
    .INMODEREG(0), .OPMODEREG(0), .CARRYINSELREG(0), .ALUMODEREG(0), .CARRYINREG(0),
    .USE_SIMD("ONE48"), .USE_PATTERN_DETECT("NO_PATDET"), .USE_WIDEXOR("FALSE"),
    .AUTORESET_PATDET("NO_RESET")
  ) u_dsp (
    .CLK(clk_i),
    .A(a_port), .B(b_port), .C(48'd0), .D(27'd0), .PCIN(48'd0),
    .ACIN(30'd0), .BCIN(18'd0), .CARRYCASCIN(1'b0), .MULTSIGNIN(1'b0),
    .INMODE(5'b00000), .OPMODE(OpMode), .ALUMODE(4'b0000),
    .CARRYIN(1'b0), .CARRYINSEL(3'b000),
    .CEA1(1'b1), .CEA2(1'b1), .CED(1'b0), .CEAD(1'b0), .CEB1(1'b1), .CEB2(1'b1),
    .CEC(1'b0), .CEM(1'b1), .CEP(1'b1),
    .CEINMODE(1'b0), .CECTRL(1'b0), .CEALUMODE(1'b0), .CECARRYIN(1'b0),
    .RSTA(1'b0), .RSTB(1'b0), .RSTC(1'b0), .RSTD(1'b0), .RSTM(1'b0), .RSTP(1'b0),
    .RSTINMODE(1'b0), .RSTCTRL(1'b0), .RSTALUMODE(1'b0), .RSTALLCARRYIN(1'b0),
    .P(p), .PCOUT(pcout_unused),
    .ACOUT(acout_unused), .BCOUT(bcout_unused), .CARRYOUT(carryout_unused),
    .CARRYCASCOUT(carrycascout_unused), .MULTSIGNOUT(multsignout_unused),
    .OVERFLOW(overflow_unused), .UNDERFLOW(underflow_unused),
    .PATTERNBDETECT(patb_unused), .PATTERNDETECT(pat_unused), .XOROUT(xorout_unused)
  );
endmodule
`default_nettype wire
