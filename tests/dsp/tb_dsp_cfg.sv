`default_nettype none
// Bench top for the DSP48E2 model itself: four register configurations, the
// same dynamic stimulus (every input, every clock enable and reset driven
// per cycle), each instance with its own INMODE. Configurations:
//   0: no input registers, MREG=0 (only P), AMULTSEL="AD"
//   1: AREG=BREG=2 (cascade taps at A1/B1), every control input registered
//   2: AREG=BREG=1, AMULTSEL="A" (no pre-adder), CREG=0
//   3: mx_mac's configuration (AREG=DREG=ADREG=1, BREG=2, all else 1)
module tb_dsp_cfg (
  input  wire          clk_i,
  input  wire  [29:0]  a_i,
  input  wire  [17:0]  b_i,
  input  wire  [47:0]  c_i,
  input  wire  [26:0]  d_i,
  input  wire  [47:0]  pcin_i,
  input  wire  [19:0]  inmode_i,   // instance n at [5n +: 5]
  input  wire  [8:0]   opmode_i,
  input  wire  [3:0]   alumode_i,
  input  wire          carryin_i,
  input  wire  [12:0]  ce_i,       // CEA1 CEA2 CEB1 CEB2 CED CEAD CEC CEM CEP CEINMODE CECTRL CEALUMODE CECARRYIN
  input  wire  [9:0]   rst_i,      // RSTA RSTB RSTC RSTD RSTM RSTP RSTINMODE RSTCTRL RSTALUMODE RSTALLCARRYIN
  output wire  [191:0] p_o,        // instance n's P at [48n +: 48]
  output wire  [191:0] pcout_o,
  output wire  [119:0] acout_o,    // instance n's ACOUT at [30n +: 30]
  output wire  [71:0]  bcout_o
);
`ifdef KTPU_GLBL
  glbl glbl ();
`endif
  localparam int AReg[4]  = '{0, 2, 1, 1};
  localparam int BReg[4]  = '{0, 2, 1, 2};
  localparam int DReg[4]  = '{0, 1, 1, 1};
  localparam int AdReg[4] = '{0, 1, 1, 1};
  localparam int MReg[4]  = '{0, 1, 1, 1};
  localparam int CReg[4]  = '{0, 1, 0, 1};
  localparam int CtlReg[4] = '{0, 1, 0, 0};
  localparam int ACasc[4] = '{0, 1, 1, 1};
  localparam int BCasc[4] = '{0, 1, 1, 2};

  for (genvar n = 0; n < 4; n++) begin : gen_dsp
    /* verilator lint_off UNUSEDSIGNAL */
    wire [3:0] carryout;
    wire [7:0] xorout;
    wire       carrycascout, multsignout, overflow, underflow, patb, pat;
    /* verilator lint_on UNUSEDSIGNAL */
    DSP48E2 #(
      .AMULTSEL(n == 2 ? "A" : "AD"), .BMULTSEL("B"), .PREADDINSEL("A"), .USE_MULT("MULTIPLY"),
      .A_INPUT("DIRECT"), .B_INPUT("DIRECT"),
      .AREG(AReg[n]), .ACASCREG(ACasc[n]), .BREG(BReg[n]), .BCASCREG(BCasc[n]),
      .DREG(DReg[n]), .ADREG(AdReg[n]), .MREG(MReg[n]), .CREG(CReg[n]), .PREG(1),
      .INMODEREG(CtlReg[n]), .OPMODEREG(CtlReg[n]), .CARRYINSELREG(CtlReg[n]),
      .ALUMODEREG(CtlReg[n]), .CARRYINREG(CtlReg[n]),
      .RND(48'h0000_5a5a_1234)
    ) u_dsp (
      .CLK(clk_i), .A(a_i), .B(b_i), .C(c_i), .D(d_i), .PCIN(pcin_i),
      .ACIN(30'd0), .BCIN(18'd0), .CARRYCASCIN(1'b0), .MULTSIGNIN(1'b0),
      .INMODE(inmode_i[5*n +: 5]), .OPMODE(opmode_i), .ALUMODE(alumode_i),
      .CARRYIN(carryin_i), .CARRYINSEL(3'b000),
      .CEA1(ce_i[0]), .CEA2(ce_i[1]), .CEB1(ce_i[2]), .CEB2(ce_i[3]), .CED(ce_i[4]),
      .CEAD(ce_i[5]), .CEC(ce_i[6]), .CEM(ce_i[7]), .CEP(ce_i[8]), .CEINMODE(ce_i[9]),
      .CECTRL(ce_i[10]), .CEALUMODE(ce_i[11]), .CECARRYIN(ce_i[12]),
      .RSTA(rst_i[0]), .RSTB(rst_i[1]), .RSTC(rst_i[2]), .RSTD(rst_i[3]), .RSTM(rst_i[4]),
      .RSTP(rst_i[5]), .RSTINMODE(rst_i[6]), .RSTCTRL(rst_i[7]), .RSTALUMODE(rst_i[8]),
      .RSTALLCARRYIN(rst_i[9]),
      .P(p_o[48*n +: 48]), .PCOUT(pcout_o[48*n +: 48]),
      .ACOUT(acout_o[30*n +: 30]), .BCOUT(bcout_o[18*n +: 18]),
      .CARRYOUT(carryout), .CARRYCASCOUT(carrycascout), .MULTSIGNOUT(multsignout),
      .OVERFLOW(overflow), .UNDERFLOW(underflow), .PATTERNBDETECT(patb), .PATTERNDETECT(pat),
      .XOROUT(xorout)
    );
  end
endmodule
`default_nettype wire
