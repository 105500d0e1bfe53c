`default_nettype none
// Behavioural model of the UltraScale+ DSP48E2 slice (UG579), for simulation
// only: synthesis never reads this file, it maps to the real primitive.
//
// Drop-in contract: the module, port and attribute names, widths, attribute
// types and defaults are the vendor's (tests/dsp/dsp48e2_iface.sh compares
// them against the library description Yosys ships), so every instance
// elaborates unchanged against the vendor simulation model
// (make DSP48E2_MODEL=/path/DSP48E2.v). Inside, only the subset the
// datapath uses is modelled, with the primitive's register stages:
//
//   A  -> [A1] -> [A2] -+                  AREG 0/1/2, ACASCREG as legal
//   D  -> [D]  ---------+- pre-adder -> [AD]  DREG, ADREG 0/1
//                        (INMODE[3:1])  |
//   B  -> [B1] -> [B2] ------------- x -+-> [M] MREG 0/1, BREG 0/1/2
//   C  -> [C]                                CREG 0/1
//   W + X + Y + Z + CARRYIN  -> [P]         PREG 0/1, ALUMODE 0000/0011
//
// Every register has its own clock enable and synchronous reset; reset wins
// over enable, as in the primitive. The control inputs (INMODE, OPMODE,
// ALUMODE, CARRYINSEL, CARRYIN) are registered or not per *REG.
//
// Anything else is refused: an attribute value outside the subset is an
// elaboration error ($fatal; benches build with -Werror-USERFATAL), and a
// dynamic control value outside it (OPMODE, ALUMODE, CARRYINSEL, INMODE
// combinations) is a simulation error at the clock edge that uses it.
// Not modelled at all, and driven 0 so nothing can depend on them: CARRYOUT,
// CARRYCASCOUT, MULTSIGNOUT, OVERFLOW, UNDERFLOW, PATTERN(B)DETECT, XOROUT.
// The vendor's GSR pulse is not modelled: registers start random, which is
// the stronger test of a bench that must not depend on initial state.
module DSP48E2 #(
  parameter integer ACASCREG = 1,
  parameter integer ADREG = 1,
  parameter integer ALUMODEREG = 1,
  parameter AMULTSEL = "A",
  parameter integer AREG = 1,
  parameter AUTORESET_PATDET = "NO_RESET",
  parameter AUTORESET_PRIORITY = "RESET",
  parameter A_INPUT = "DIRECT",
  parameter integer BCASCREG = 1,
  parameter BMULTSEL = "B",
  parameter integer BREG = 1,
  parameter B_INPUT = "DIRECT",
  parameter integer CARRYINREG = 1,
  parameter integer CARRYINSELREG = 1,
  parameter integer CREG = 1,
  parameter integer DREG = 1,
  parameter integer INMODEREG = 1,
  parameter [3:0] IS_ALUMODE_INVERTED = 4'b0000,
  parameter [0:0] IS_CARRYIN_INVERTED = 1'b0,
  parameter [0:0] IS_CLK_INVERTED = 1'b0,
  parameter [4:0] IS_INMODE_INVERTED = 5'b00000,
  parameter [8:0] IS_OPMODE_INVERTED = 9'b000000000,
  parameter [0:0] IS_RSTALLCARRYIN_INVERTED = 1'b0,
  parameter [0:0] IS_RSTALUMODE_INVERTED = 1'b0,
  parameter [0:0] IS_RSTA_INVERTED = 1'b0,
  parameter [0:0] IS_RSTB_INVERTED = 1'b0,
  parameter [0:0] IS_RSTCTRL_INVERTED = 1'b0,
  parameter [0:0] IS_RSTC_INVERTED = 1'b0,
  parameter [0:0] IS_RSTD_INVERTED = 1'b0,
  parameter [0:0] IS_RSTINMODE_INVERTED = 1'b0,
  parameter [0:0] IS_RSTM_INVERTED = 1'b0,
  parameter [0:0] IS_RSTP_INVERTED = 1'b0,
  parameter [47:0] MASK = 48'h3FFFFFFFFFFF,
  parameter integer MREG = 1,
  parameter integer OPMODEREG = 1,
  parameter [47:0] PATTERN = 48'h000000000000,
  parameter PREADDINSEL = "A",
  parameter integer PREG = 1,
  parameter [47:0] RND = 48'h000000000000,
  parameter SEL_MASK = "MASK",
  parameter SEL_PATTERN = "PATTERN",
  parameter USE_MULT = "MULTIPLY",
  parameter USE_PATTERN_DETECT = "NO_PATDET",
  parameter USE_SIMD = "ONE48",
  parameter USE_WIDEXOR = "FALSE",
  parameter XORSIMD = "XOR24_48_96"
) (
  output wire [29:0] ACOUT,
  output wire [17:0] BCOUT,
  output wire CARRYCASCOUT,
  output wire [3:0] CARRYOUT,
  output wire MULTSIGNOUT,
  output wire OVERFLOW,
  output wire [47:0] P,
  output wire PATTERNBDETECT,
  output wire PATTERNDETECT,
  output wire [47:0] PCOUT,
  output wire UNDERFLOW,
  output wire [7:0] XOROUT,
  input wire [29:0] A,
  input wire [29:0] ACIN,
  input wire [3:0] ALUMODE,
  input wire [17:0] B,
  input wire [17:0] BCIN,
  input wire [47:0] C,
  input wire CARRYCASCIN,
  input wire CARRYIN,
  input wire [2:0] CARRYINSEL,
  input wire CEA1,
  input wire CEA2,
  input wire CEAD,
  input wire CEALUMODE,
  input wire CEB1,
  input wire CEB2,
  input wire CEC,
  input wire CECARRYIN,
  input wire CECTRL,
  input wire CED,
  input wire CEINMODE,
  input wire CEM,
  input wire CEP,
  input wire CLK,
  input wire [26:0] D,
  input wire [4:0] INMODE,
  input wire MULTSIGNIN,
  input wire [8:0] OPMODE,
  input wire [47:0] PCIN,
  input wire RSTA,
  input wire RSTALLCARRYIN,
  input wire RSTALUMODE,
  input wire RSTB,
  input wire RSTC,
  input wire RSTCTRL,
  input wire RSTD,
  input wire RSTINMODE,
  input wire RSTM,
  input wire RSTP
);
  // String attributes compare right-aligned in a fixed width (an untyped
  // string parameter takes the width of whatever value overrides it).
  localparam int unsigned SW = 8 * 20;
  localparam [SW-1:0] AMultSel   = SW'(AMULTSEL);
  localparam [SW-1:0] BMultSel   = SW'(BMULTSEL);
  localparam [SW-1:0] PreAddSel  = SW'(PREADDINSEL);
  localparam [SW-1:0] AInput     = SW'(A_INPUT);
  localparam [SW-1:0] BInput     = SW'(B_INPUT);
  localparam [SW-1:0] UseMult    = SW'(USE_MULT);
  localparam [SW-1:0] UseSimd    = SW'(USE_SIMD);
  localparam [SW-1:0] UsePatDet  = SW'(USE_PATTERN_DETECT);
  localparam [SW-1:0] UseWideXor = SW'(USE_WIDEXOR);
  localparam [SW-1:0] AutoResetP = SW'(AUTORESET_PATDET);
  localparam bit AMultAd = (AMultSel == SW'("AD"));

  // ---- elaboration: refuse every attribute value not modelled -------------
  if (AREG < 0 || AREG > 2 || BREG < 0 || BREG > 2) begin : gen_bad_abreg
    $fatal(1, "DSP48E2 model: AREG=%0d BREG=%0d not in 0..2", AREG, BREG);
  end
  // Legal cascade taps (UG579): the cascade register is the last A/B stage,
  // or A1/B1 when two stages are used.
  if (!((AREG == 0 && ACASCREG == 0) || (AREG == 1 && ACASCREG == 1) ||
        (AREG == 2 && (ACASCREG == 1 || ACASCREG == 2)))) begin : gen_bad_acasc
    $fatal(1, "DSP48E2 model: ACASCREG=%0d illegal with AREG=%0d", ACASCREG, AREG);
  end
  if (!((BREG == 0 && BCASCREG == 0) || (BREG == 1 && BCASCREG == 1) ||
        (BREG == 2 && (BCASCREG == 1 || BCASCREG == 2)))) begin : gen_bad_bcasc
    $fatal(1, "DSP48E2 model: BCASCREG=%0d illegal with BREG=%0d", BCASCREG, BREG);
  end
  if (DREG < 0 || DREG > 1 || ADREG < 0 || ADREG > 1 || CREG < 0 || CREG > 1 ||
      MREG < 0 || MREG > 1 || PREG < 0 || PREG > 1 || INMODEREG < 0 || INMODEREG > 1 ||
      OPMODEREG < 0 || OPMODEREG > 1 || ALUMODEREG < 0 || ALUMODEREG > 1 ||
      CARRYINREG < 0 || CARRYINREG > 1 || CARRYINSELREG < 0 || CARRYINSELREG > 1 ||
      OPMODEREG != CARRYINSELREG) begin : gen_bad_reg01
    // OPMODE and CARRYINSEL share CECTRL/RSTCTRL; the model keeps them alike.
    $fatal(1, "DSP48E2 model: a 0/1 register attribute is out of range or OPMODEREG != CARRYINSELREG");
  end
  if (AMultSel != SW'("A") && AMultSel != SW'("AD")) begin : gen_bad_amultsel
    $fatal(1, "DSP48E2 model: AMULTSEL=%s not modelled", AMULTSEL);
  end
  if (BMultSel != SW'("B")) begin : gen_bad_bmultsel
    $fatal(1, "DSP48E2 model: BMULTSEL=%s not modelled (only \"B\")", BMULTSEL);
  end
  if (PreAddSel != SW'("A")) begin : gen_bad_preaddinsel
    $fatal(1, "DSP48E2 model: PREADDINSEL=%s not modelled (only \"A\")", PREADDINSEL);
  end
  if (AInput != SW'("DIRECT") || BInput != SW'("DIRECT")) begin : gen_bad_input
    $fatal(1, "DSP48E2 model: A_INPUT/B_INPUT=CASCADE not modelled");
  end
  if (UseMult != SW'("MULTIPLY")) begin : gen_bad_usemult
    $fatal(1, "DSP48E2 model: USE_MULT=%s not modelled (only \"MULTIPLY\")", USE_MULT);
  end
  if (UseSimd != SW'("ONE48") || UsePatDet != SW'("NO_PATDET") ||
      UseWideXor != SW'("FALSE") || AutoResetP != SW'("NO_RESET")) begin : gen_bad_mode
    $fatal(1, "DSP48E2 model: SIMD, pattern detect, wide XOR and auto-reset are not modelled");
  end
  if (IS_ALUMODE_INVERTED != 4'b0 || IS_CARRYIN_INVERTED != 1'b0 || IS_CLK_INVERTED != 1'b0 ||
      IS_INMODE_INVERTED != 5'b0 || IS_OPMODE_INVERTED != 9'b0 ||
      IS_RSTALLCARRYIN_INVERTED != 1'b0 || IS_RSTALUMODE_INVERTED != 1'b0 ||
      IS_RSTA_INVERTED != 1'b0 || IS_RSTB_INVERTED != 1'b0 || IS_RSTCTRL_INVERTED != 1'b0 ||
      IS_RSTC_INVERTED != 1'b0 || IS_RSTD_INVERTED != 1'b0 || IS_RSTINMODE_INVERTED != 1'b0 ||
      IS_RSTM_INVERTED != 1'b0 || IS_RSTP_INVERTED != 1'b0) begin : gen_bad_invert
    $fatal(1, "DSP48E2 model: inverted pins (IS_*_INVERTED) are not modelled");
  end

  // ---- control registers ----------------------------------------------------
  logic [4:0] inmode_q;
  logic [8:0] opmode_q;
  logic [3:0] alumode_q;
  logic [2:0] carryinsel_q;
  logic       carryin_q;
  always_ff @(posedge CLK) begin
    if (RSTINMODE) inmode_q <= 5'd0;
    else if (CEINMODE) inmode_q <= INMODE;
    if (RSTCTRL) begin
      opmode_q     <= 9'd0;
      carryinsel_q <= 3'd0;
    end else if (CECTRL) begin
      opmode_q     <= OPMODE;
      carryinsel_q <= CARRYINSEL;
    end
    if (RSTALUMODE) alumode_q <= 4'd0;
    else if (CEALUMODE) alumode_q <= ALUMODE;
    if (RSTALLCARRYIN) carryin_q <= 1'b0;
    else if (CECARRYIN) carryin_q <= CARRYIN;
  end
  wire [4:0] inmode     = (INMODEREG == 1) ? inmode_q : INMODE;
  wire [8:0] opmode     = (OPMODEREG == 1) ? opmode_q : OPMODE;
  wire [3:0] alumode    = (ALUMODEREG == 1) ? alumode_q : ALUMODE;
  wire [2:0] carryinsel = (CARRYINSELREG == 1) ? carryinsel_q : CARRYINSEL;
  wire       carryin    = (CARRYINREG == 1) ? carryin_q : CARRYIN;

  // ---- A, B, D, C input registers -----------------------------------------
  // With AREG=1 only A2 exists; A1 is the first of two stages (same for B).
  logic [29:0] a1_q, a2_q;
  logic [17:0] b1_q, b2_q;
  logic [26:0] d_q;
  logic [47:0] c_q;
  always_ff @(posedge CLK) begin
    if (RSTA) begin
      a1_q <= 30'd0;
      a2_q <= 30'd0;
    end else begin
      if (CEA1) a1_q <= A;
      if (CEA2) a2_q <= (AREG == 2) ? a1_q : A;
    end
    if (RSTB) begin
      b1_q <= 18'd0;
      b2_q <= 18'd0;
    end else begin
      if (CEB1) b1_q <= B;
      if (CEB2) b2_q <= (BREG == 2) ? b1_q : B;
    end
    if (RSTD) d_q <= 27'd0;
    else if (CED) d_q <= D;
    if (RSTC) c_q <= 48'd0;
    else if (CEC) c_q <= C;
  end
  // INMODE[0]/[4] pick A1/B1 instead of A2/B2 for the pre-adder and the
  // multiplier (27 bits of A); only meaningful with two stages. The ALU's
  // A:B (X = 11) is always the second stage (UG579 fig. 2-1).
  wire [26:0] a_mux = (AREG == 0) ? A[26:0] : ((AREG == 2 && inmode[0]) ? a1_q[26:0] : a2_q[26:0]);
  wire [17:0] b_mux = (BREG == 0) ? B : ((BREG == 2 && inmode[4]) ? b1_q : b2_q);
  wire [29:0] a_alu = (AREG == 0) ? A : a2_q;
  wire [17:0] b_alu = (BREG == 0) ? B : b2_q;
  wire [26:0] d_mux = (DREG == 1) ? d_q : D;
  wire [47:0] c_mux = (CREG == 1) ? c_q : C;
  assign ACOUT = (AREG == 2 && ACASCREG == 1) ? a1_q : ((AREG == 0) ? A : a2_q);
  assign BCOUT = (BREG == 2 && BCASCREG == 1) ? b1_q : ((BREG == 0) ? B : b2_q);

  // ---- pre-adder (27 bit, wraps like the silicon) and AD register ----------
  // INMODE[1] gates A off, INMODE[2] gates D on, INMODE[3] subtracts A.
  wire [26:0] pre_a = inmode[1] ? 27'd0 : a_mux;
  wire [26:0] pre_d = inmode[2] ? d_mux : 27'd0;
  wire [26:0] ad    = inmode[3] ? (pre_d - pre_a) : (pre_d + pre_a);
  logic [26:0] ad_q;
  always_ff @(posedge CLK) begin
    if (RSTD) ad_q <= 27'd0;
    else if (CEAD) ad_q <= ad;
  end
  wire [26:0] ad_mux = (ADREG == 1) ? ad_q : ad;

  // ---- 27 x 18 signed multiplier and M register -----------------------------
  wire [26:0] mul_a = AMultAd ? ad_mux : a_mux;
  wire signed [44:0] mul = $signed(mul_a) * $signed(b_mux);
  logic [47:0] m_q;
  always_ff @(posedge CLK) begin
    if (RSTM) m_q <= 48'd0;
    else if (CEM) m_q <= {{3{mul[44]}}, mul};
  end
  wire [47:0] m_mux = (MREG == 1) ? m_q : {{3{mul[44]}}, mul};

  // ---- W/X/Y/Z multiplexers and the ALU --------------------------------------
  // The silicon splits M into two partial products on X and Y; their sum is
  // the product, so the model puts M on X and zero on Y (X=01 needs Y=01).
  logic [47:0] p_q;
  logic [47:0] x_v, y_v, z_v, w_v, alu;
  wire  [47:0] p_mux = (PREG == 1) ? p_q : alu;
  always_comb begin
    unique case (opmode[1:0])
      2'b00:   x_v = 48'd0;
      2'b01:   x_v = m_mux;
      2'b10:   x_v = p_mux;
      default: x_v = {a_alu, b_alu};
    endcase
    unique case (opmode[3:2])
      2'b00:   y_v = 48'd0;
      2'b01:   y_v = 48'd0;  // second partial product: folded into X
      2'b10:   y_v = {48{1'b1}};
      default: y_v = c_mux;
    endcase
    unique case (opmode[6:4])
      3'b000:  z_v = 48'd0;
      3'b001:  z_v = PCIN;
      3'b010:  z_v = p_mux;
      3'b011:  z_v = c_mux;
      default: z_v = 48'd0;  // shifted/MACC-extend modes: refused below
    endcase
    unique case (opmode[8:7])
      2'b00:   w_v = 48'd0;
      2'b01:   w_v = p_mux;
      2'b10:   w_v = RND;
      default: w_v = c_mux;
    endcase
    if (alumode == 4'b0011) alu = z_v - (w_v + x_v + y_v + {47'd0, carryin});
    else                    alu = z_v + w_v + x_v + y_v + {47'd0, carryin};
  end
  always_ff @(posedge CLK) begin
    if (RSTP) p_q <= 48'd0;
    else if (CEP) p_q <= alu;
  end
  assign P     = p_mux;
  assign PCOUT = p_mux;

  // ---- dynamic controls outside the modelled subset ---------------------------
  // Checked at every edge where the value reaches the ALU or the multiplier;
  // a registered control only once it was loaded or reset (before that it
  // holds simulation garbage, which the silicon's GSR would have cleared).
  logic inmode_set = 1'b0, ctrl_set = 1'b0, alumode_set = 1'b0;
  always_ff @(posedge CLK) begin
    if (RSTINMODE || CEINMODE) inmode_set <= 1'b1;
    if (RSTCTRL || CECTRL) ctrl_set <= 1'b1;
    if (RSTALUMODE || CEALUMODE) alumode_set <= 1'b1;
  end
  wire check_inmode  = (INMODEREG == 0) || inmode_set;
  wire check_ctrl    = (OPMODEREG == 0) || ctrl_set;
  wire check_alumode = (ALUMODEREG == 0) || alumode_set;
  always_ff @(posedge CLK) begin
    if (check_alumode && alumode != 4'b0000 && alumode != 4'b0011)
      $error("DSP48E2 model: ALUMODE=%b not modelled", alumode);
    if (check_ctrl && (opmode[1:0] == 2'b01) != (opmode[3:2] == 2'b01))
      $error("DSP48E2 model: OPMODE=%b: X=M requires Y=M and vice versa", opmode);
    if (check_ctrl && opmode[6:4] > 3'b011)
      $error("DSP48E2 model: OPMODE Z=%b not modelled", opmode[6:4]);
    if (check_ctrl && carryinsel != 3'b000)
      $error("DSP48E2 model: CARRYINSEL=%b not modelled", carryinsel);
    if (check_inmode && ((inmode[0] && AREG != 2) || (inmode[4] && BREG != 2)))
      $error("DSP48E2 model: INMODE=%b selects A1/B1 that do not exist", inmode);
    if (check_inmode && !AMultAd && inmode[1])
      $error("DSP48E2 model: INMODE[1] with AMULTSEL=\"A\" not modelled");
  end

  // Outputs outside the subset (see the header comment).
  assign CARRYCASCOUT   = 1'b0;
  assign CARRYOUT       = 4'd0;
  assign MULTSIGNOUT    = 1'b0;
  assign OVERFLOW       = 1'b0;
  assign UNDERFLOW      = 1'b0;
  assign PATTERNBDETECT = 1'b0;
  assign PATTERNDETECT  = 1'b0;
  assign XOROUT         = 8'd0;

  // Inputs of unmodelled features: accepted (the port list is the vendor's)
  // and deliberately ignored.
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_ok = ^{ACIN, BCIN, CARRYCASCIN, MULTSIGNIN, MASK, PATTERN, SEL_MASK, SEL_PATTERN,
                     AUTORESET_PRIORITY, XORSIMD};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
