`default_nettype none
// mx_mac: two int7 MACs in one DSP48E2 sharing one activation through the
// pre-adder (seed §2). The packed operand is pure wiring:
//   A = w1 << Shift, D = w0, B = a:  (A + D) * B = w1*a*2^Shift + w0*a
// so P[Shift-1:0] accumulates w0*a and P[47:Shift] accumulates w1*a (with a
// borrow from the lower field when it is negative; the extraction corrects it).
// Shift = 19 is the largest that fits the 27-bit pre-adder at w1 = w0 = -64 and
// leaves 5 guard bits: a K=32 sum of int7 products fits the lower field.
//
// Register configuration (identical in every instance, so every DSP has the
// same operand-to-P latency, Latency = 4):
//   A, D: one stage (A2, D)   -> AD -> M -> P
//   B:    two stages (B1, B2) ------> M -> P
// B needs one stage more than A/D because A/D pass the AD register; with
// BREG=1 the activation would meet the previous cycle's weights.
// The fabric feeding A/B/D is not reset (SPEC: DSP-feeding registers are not),
// and neither is anything here: results never depend on old state, because a
// chain's first stage adds 0 and every later stage adds exactly its upstream.
// Pin modes are parameters so the 0 LUT / 0 FF claim holds per instance:
//   CascadeIn: Z = PCIN (else 0);  AddC: W = C (else 0)
module ktpu_mx_mac #(
  parameter int unsigned Shift     = ktpu_pkg::MAC_PACK_SHIFT,
  parameter bit          CascadeIn = 1'b0,
  parameter bit          AddC      = 1'b0
) (
  input  wire         clk_i,
  input  wire         en_i,     // clock enable of every stage (a stall)
  input  wire  [6:0]  w1_i,     // upper weight (row i+1), int7
  input  wire  [6:0]  w0_i,     // lower weight (row i), int7
  input  wire  [6:0]  a_i,      // shared activation, int7
  input  wire  [47:0] c_i,      // added on W when AddC
  input  wire  [47:0] pcin_i,   // added on Z when CascadeIn
  output wire  [47:0] p_o,
  output wire  [47:0] pcout_o
);
  localparam int unsigned ElemBits = ktpu_pkg::MX_ELEM_BITS;
  // |w1*2^S + w0| <= 2^26 (27-bit pre-adder) and S >= 2*ElemBits (disjoint fields).
  if (ElemBits != 7 || Shift < 2 * ElemBits || Shift > 19) begin : gen_bad_shift
    $fatal(1, "ktpu_mx_mac: Shift=%0d / ElemBits=%0d do not pack into the 27-bit pre-adder",
           Shift, ElemBits);
  end

  wire [29:0] a_port = {{(30 - 7 - Shift){w1_i[6]}}, w1_i, {Shift{1'b0}}};
  wire [26:0] d_port = {{20{w0_i[6]}}, w0_i};
  wire [17:0] b_port = {{11{a_i[6]}}, a_i};
  // OPMODE = {W, Z, Y, X}: X = Y = M (the two partial products), Z/W per mode.
  localparam logic [1:0] OpW = AddC ? 2'b11 : 2'b00;
  localparam logic [2:0] OpZ = CascadeIn ? 3'b001 : 3'b000;
  localparam logic [8:0] OpMode = {OpW, OpZ, 2'b01, 2'b01};
  // INMODE: A2 (bit 0 = 0), A not gated (1 = 0), D enabled (2 = 1), add (3 = 0), B2 (4 = 0).
  localparam logic [4:0] InMode = 5'b00100;

  // Outputs of features the datapath does not use.
  /* verilator lint_off UNUSEDSIGNAL */
  wire [29:0] acout_unused;
  wire [17:0] bcout_unused;
  wire [3:0]  carryout_unused;
  wire [7:0]  xorout_unused;
  wire        carrycascout_unused, multsignout_unused, overflow_unused, underflow_unused;
  wire        patb_unused, pat_unused;
  /* verilator lint_on UNUSEDSIGNAL */

  // Every input is connected by name (the vendor model treats a floating pin
  // through === 1'bz); unused features get constants. CEA1 follows the
  // enable although AREG=1 uses only A2: harmless, and no reading of UG579
  // about which enable a one-stage A register takes can then freeze it.
  DSP48E2 #(
    .AMULTSEL("AD"), .BMULTSEL("B"), .PREADDINSEL("A"), .USE_MULT("MULTIPLY"),
    .A_INPUT("DIRECT"), .B_INPUT("DIRECT"),
    .AREG(1), .ACASCREG(1), .DREG(1), .ADREG(1), .BREG(2), .BCASCREG(2),
    .CREG(1), .MREG(1), .PREG(1),
    .INMODEREG(0), .OPMODEREG(0), .CARRYINSELREG(0), .ALUMODEREG(0), .CARRYINREG(0),
    .USE_SIMD("ONE48"), .USE_PATTERN_DETECT("NO_PATDET"), .USE_WIDEXOR("FALSE"),
    .AUTORESET_PATDET("NO_RESET")
  ) u_dsp (
    .CLK(clk_i),
    .A(a_port), .B(b_port), .C(c_i), .D(d_port), .PCIN(pcin_i),
    .ACIN(30'd0), .BCIN(18'd0), .CARRYCASCIN(1'b0), .MULTSIGNIN(1'b0),
    .INMODE(InMode), .OPMODE(OpMode), .ALUMODE(4'b0000),
    .CARRYIN(1'b0), .CARRYINSEL(3'b000),
    .CEA1(en_i), .CEA2(en_i), .CED(en_i), .CEAD(en_i), .CEB1(en_i), .CEB2(en_i),
    .CEC(AddC ? en_i : 1'b0), .CEM(en_i), .CEP(en_i),
    .CEINMODE(1'b0), .CECTRL(1'b0), .CEALUMODE(1'b0), .CECARRYIN(1'b0),
    .RSTA(1'b0), .RSTB(1'b0), .RSTC(1'b0), .RSTD(1'b0), .RSTM(1'b0), .RSTP(1'b0),
    .RSTINMODE(1'b0), .RSTCTRL(1'b0), .RSTALUMODE(1'b0), .RSTALLCARRYIN(1'b0),
    .P(p_o), .PCOUT(pcout_o),
    .ACOUT(acout_unused), .BCOUT(bcout_unused), .CARRYOUT(carryout_unused),
    .CARRYCASCOUT(carrycascout_unused), .MULTSIGNOUT(multsignout_unused),
    .OVERFLOW(overflow_unused), .UNDERFLOW(underflow_unused),
    .PATTERNBDETECT(patb_unused), .PATTERNDETECT(pat_unused), .XOROUT(xorout_unused)
  );
endmodule
`default_nettype wire
