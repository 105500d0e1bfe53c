`default_nettype none
// Tensor CU: a 4x8x4 tile step, 64 mx_macs as 8 chains of 8 (seed §3).
// Chain c = 4*p + j holds rows 2p (lower field) and 2p+1 (upper field) of A
// against column j of B; its stage k multiplies the k-th elements:
//   w0 = A[2p][k], w1 = A[2p+1][k], a = B[j][k]
// and adds stage k-1 over PCOUT->PCIN (dedicated routing, no fabric).
//
// Operand packing (one lane = one row of A, or one column of B = one row
// of B-transposed; the same layout as the L1 entry, see docs/datapath.md):
//   a_i[56*i + 7*k +: 7] = A[i][k],  b_i[56*j + 7*k +: 7] = B[j][k]   (int7)
//
// Skew: a cascade adds one P register per stage, so stage k's operands are
// delayed by k enabled cycles (plus InDelay, the cluster's offset for this
// CU) in ktpu_delay lines: SRLs, ending straight in the DSP's own A2/D/B1
// input registers, which serve as the lines' output registers.
// Latency: a_i/b_i in cycle t -> p_o in cycle t + InDelay + Latency, with
// Latency = MacLatency + Depth - 1 = 11.
// CascadeIn: the last stage also adds c_i on the DSP's W input (W = C), the
// previous CU's p_o; see ktpu_cluster_dp for why W and why the last stage.
module ktpu_tcu #(
  parameter int unsigned InDelay   = 0,
  parameter bit          CascadeIn = 1'b0,
  // Geometry from ktpu.def (defaults only; any other value is refused below).
  parameter int unsigned Lanes     = ktpu_pkg::TILE_ROWS,
  parameter int unsigned Depth     = ktpu_pkg::TCU_DEPTH,
  parameter int unsigned EB        = ktpu_pkg::MX_ELEM_BITS
) (
  input  wire                 clk_i,
  input  wire                 en_i,      // clock enable of the whole CU (a stall)
  input  wire  [Lanes*Depth*EB-1:0] a_i,
  input  wire  [Lanes*Depth*EB-1:0] b_i,
  input  wire  [8*48-1:0]     c_i,       // chain c at [48*c +: 48]; used if CascadeIn
  output wire  [8*48-1:0]     p_o        // chain c's 48-bit P at [48*c +: 48]
);
  localparam int unsigned Rows  = Lanes;
  localparam int unsigned Cols  = Lanes;
  localparam int unsigned LaneBits = Depth * EB;  // one row/column slice: 56 bits

  if (Depth != 8 || Lanes != 4 || EB != 7 || ktpu_pkg::TILE_ROWS != ktpu_pkg::TILE_COLS ||
      Depth != ktpu_pkg::TCU_DEPTH || Lanes != ktpu_pkg::TILE_ROWS || EB != ktpu_pkg::MX_ELEM_BITS) begin : gen_bad_geometry
    $fatal(1, "ktpu_tcu: built for a 4x8x4 tile of int7 (ktpu.def changed?)");
  end

  wire [47:0] pc [Depth][8];   // PCOUT of stage k, chain c

  for (genvar k = 0; k < Depth; k++) begin : gen_stage
    // Stage k's operands: the k-th element of every A row and B column,
    // delayed together in one line of 4*7 + 4*7 bits.
    wire [Rows*EB-1:0] a_k;
    wire [Cols*EB-1:0] b_k;
    wire [Rows*EB-1:0] a_k_dly;
    wire [Cols*EB-1:0] b_k_dly;
    for (genvar i = 0; i < Rows; i++) begin : gen_a
      assign a_k[EB*i +: EB] = a_i[LaneBits*i + EB*k +: EB];
    end
    for (genvar j = 0; j < Cols; j++) begin : gen_b
      assign b_k[EB*j +: EB] = b_i[LaneBits*j + EB*k +: EB];
    end
    ktpu_delay #(.Width((Rows + Cols) * EB), .Depth(InDelay + k)) u_skew (
      .clk_i, .en_i, .d_i({b_k, a_k}), .q_o({b_k_dly, a_k_dly})
    );

    for (genvar p = 0; p < Rows / 2; p++) begin : gen_pair
      for (genvar j = 0; j < Cols; j++) begin : gen_col
        localparam int unsigned Ch = Cols * p + j;
        wire [47:0] p_unused_or_out;
        ktpu_mx_mac #(
          .CascadeIn(k != 0),
          .AddC(CascadeIn && k == Depth - 1)
        ) u_mac (
          .clk_i, .en_i,
          .w1_i(a_k_dly[EB*(2*p+1) +: EB]),
          .w0_i(a_k_dly[EB*(2*p) +: EB]),
          .a_i(b_k_dly[EB*j +: EB]),
          .c_i((CascadeIn && k == Depth - 1) ? c_i[48*Ch +: 48] : 48'd0),
          .pcin_i((k == 0) ? 48'd0 : pc[(k == 0) ? 0 : k-1][Ch]),
          .p_o(p_unused_or_out),
          .pcout_o(pc[k][Ch])
        );
        if (k == Depth - 1) begin : gen_out
          assign p_o[48*Ch +: 48] = p_unused_or_out;
        end else begin : gen_mid
          // Mid-chain P outputs are not used: the sum leaves on PCOUT.
          /* verilator lint_off UNUSEDSIGNAL */
          wire unused_ok = ^p_unused_or_out;
          /* verilator lint_on UNUSEDSIGNAL */
        end
      end
    end
  end

  // The last stage's PCOUT goes nowhere inside a CU (the CU boundary is on C).
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_pc = ^{pc[Depth-1][0], pc[Depth-1][1], pc[Depth-1][2], pc[Depth-1][3],
                     pc[Depth-1][4], pc[Depth-1][5], pc[Depth-1][6], pc[Depth-1][7]};
  /* verilator lint_on UNUSEDSIGNAL */
  if (!CascadeIn) begin : gen_no_cascade
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_c = ^c_i;
    /* verilator lint_on UNUSEDSIGNAL */
  end
endmodule
`default_nettype wire
