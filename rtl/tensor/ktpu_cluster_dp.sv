`default_nettype none
// Cluster datapath: four tensor CUs reduce one K=32 block exactly, with zero
// fabric adders, and the extraction turns the 8 chain words into 16 partials
// (seed §3.1, §3.2, §4). docs/datapath.md has the ports, packing and timing.
//
// Cross-CU path: CU n's chains end in a last stage that computes
//   P = M + PCIN + C        (X = Y = M, Z = PCIN, W = C)
// with C = CU n-1's P (CREG = 1). Using W for C leaves Z free for PCIN, so the
// upstream partial joins at the END of CU n's own 8-deep cascade instead of
// replacing PCIN at its start (Z = C). That makes the CU-to-CU step cost
// CREG + PREG = 2 cycles instead of a whole 8-stage cascade (9 cycles):
//   CU n's operands are delayed by InDelay = 2n (not 9n), the deepest skew
//   line is 6 + 7 = 13 (SRL16, not SRL32), and the operand-to-partial
//   latency is 18 cycles instead of 39. Same DSP count, same zero fabric adders.
// CREG = 1 keeps the C crossing registered, so each CU can still be placed
// on its own (the seed's reason for not cascading PCOUT across CUs).
//
// Extraction, per chain c = 4p + j (rows 2p, 2p+1, column j):
//   lower = signed P[18:0]                 -> partial (2p,   j)
//   upper = P[47:19] + P[18]               -> partial (2p+1, j)  (borrow correction)
// The whole word is one two's complement sum, so a negative lower field
// borrows one from the upper; adding back its sign bit undoes that. Both
// values are exact block dot products, |P| <= 131072, and fit 19 bits signed,
// so only the low 19 bits of the upper sum are built.
//
// Timing: an operand pair taken in cycle t (valid_i && en_i) appears on
// partial_o with valid_o high in cycle t + Latency (Latency enabled cycles;
// each cycle with en_i low in between adds one). valid_o is high for exactly
// one cycle per operand pair, and partial_o holds its value until the next.
// en_i low freezes everything except the output register, which then
// keeps its contents and drops valid_o. rst_i (synchronous) clears only the
// valid pipeline: the datapath itself is not reset (DSP operand registers
// must not be), and nothing after a reset depends on it.
module ktpu_cluster_dp #(
  // Geometry from ktpu.def (defaults only; any other value is refused below).
  parameter int unsigned Lanes       = ktpu_pkg::TILE_ROWS,
  parameter int unsigned BlockK      = ktpu_pkg::MX_BLOCK_K,
  parameter int unsigned EB          = ktpu_pkg::MX_ELEM_BITS,
  parameter int unsigned PartialBits = ktpu_pkg::CLUSTER_PARTIAL_BITS
) (
  input  wire                   clk_i,
  input  wire                   rst_i,
  input  wire                   en_i,
  input  wire                   valid_i,
  input  wire  [Lanes*BlockK*EB-1:0] a_i,     // L1 A entry bits [895:0]: A[i][k] at [224*i + 7*k]
  input  wire  [Lanes*BlockK*EB-1:0] b_i,     // L1 B entry bits [895:0]: B[j][k] at [224*j + 7*k]
  output logic                  valid_o,
  output logic [Lanes*Lanes*PartialBits-1:0] partial_o  // element (i, j) at [19*(4*i + j) +: 19], signed
);
  localparam int unsigned Tcus      = ktpu_pkg::CLUSTER_TCUS;
  localparam int unsigned Depth     = ktpu_pkg::TCU_DEPTH;
  localparam int unsigned LaneBits  = BlockK * EB;   // 224: one row of A / column of B
  localparam int unsigned SliceBits = Depth * EB;        // 56: one row's K-slice for one CU
  localparam int unsigned PB        = ktpu_pkg::LOWER_FIELD_BITS;  // 19: partial width and field split
  localparam int unsigned HopDelay  = 2;                 // CREG + PREG on the C crossing
  localparam int unsigned MacLatency = 4;                // A2/D, AD, M, P (ktpu_mx_mac)
  localparam int unsigned TcuLatency = MacLatency + Depth - 1;
  // Operands to the last CU's P, then the output register.
  localparam int unsigned ChainLatency = HopDelay * (Tcus - 1) + TcuLatency;
  localparam int unsigned Latency = ChainLatency + 1;

  if (Tcus * Depth != ktpu_pkg::MX_BLOCK_K || PB != ktpu_pkg::MAC_PACK_SHIFT ||
      PB != PartialBits || Lanes != 4 || ktpu_pkg::TILE_COLS != Lanes ||
      Lanes != ktpu_pkg::TILE_ROWS || EB != 7 || EB != ktpu_pkg::MX_ELEM_BITS ||
      BlockK != ktpu_pkg::MX_BLOCK_K || PartialBits != ktpu_pkg::CLUSTER_PARTIAL_BITS) begin : gen_bad_geometry
    $fatal(1, "ktpu_cluster_dp: built for 4 CUs x 8 = K 32 and a 4x4 tile, fields at S");
  end
  if (Latency != ktpu_pkg::CLUSTER_DP_LATENCY) begin : gen_bad_latency
    $fatal(1, "ktpu_cluster_dp: latency %0d differs from ktpu.def CLUSTER_DP_LATENCY", Latency);
  end

  wire [8*48-1:0] chain [Tcus];

  for (genvar n = 0; n < Tcus; n++) begin : gen_tcu
    wire [4*SliceBits-1:0] a_n, b_n;
    for (genvar l = 0; l < 4; l++) begin : gen_lane
      assign a_n[SliceBits*l +: SliceBits] = a_i[LaneBits*l + SliceBits*n +: SliceBits];
      assign b_n[SliceBits*l +: SliceBits] = b_i[LaneBits*l + SliceBits*n +: SliceBits];
    end
    ktpu_tcu #(
      .InDelay(HopDelay * n),
      .CascadeIn(n != 0)
    ) u_tcu (
      .clk_i, .en_i,
      .a_i(a_n), .b_i(b_n),
      .c_i((n == 0) ? {8*48{1'b0}} : chain[(n == 0) ? 0 : n-1]),
      .p_o(chain[n])
    );
  end

  // ---- valid pipeline (the only reset state) ----------------------------------
  logic [ChainLatency-1:0] vpipe_q;
  always_ff @(posedge clk_i) begin
    if (rst_i)     vpipe_q <= '0;
    else if (en_i) vpipe_q <= {vpipe_q[ChainLatency-2:0], valid_i};
  end

  // ---- extraction --------------------------------------------------------------
  logic [16*PB-1:0] part_d;
  always_comb begin
    for (int c = 0; c < 8; c++) begin
      logic [47:0] p;
      p = chain[Tcus-1][48*c +: 48];
      part_d[PB*(4*(2*(c/4))     + c%4) +: PB] = p[PB-1:0];
      part_d[PB*(4*(2*(c/4) + 1) + c%4) +: PB] = p[2*PB-1:PB] + {{(PB-1){1'b0}}, p[PB-1]};
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) valid_o <= 1'b0;
    else       valid_o <= en_i & vpipe_q[ChainLatency-1];
    if (en_i) partial_o <= part_d;
  end

`ifndef SYNTHESIS
  // The 19-bit upper partial is exact only if the full 29-bit sum fits: true
  // for every int7 input (|P| <= 2^17); this catches a broken chain early.
  always_ff @(posedge clk_i) begin
    if (!rst_i && en_i && vpipe_q[ChainLatency-1]) begin
      for (int c = 0; c < 8; c++) begin
        logic [47:0] p;
        logic [28:0] up;
        p  = chain[Tcus-1][48*c +: 48];
        up = p[47:PB] + {28'd0, p[PB-1]};
        assert (up[28:PB-1] == {(29-PB+1){up[PB-1]}})
          else $error("ktpu_cluster_dp: chain %0d upper field %0d exceeds %0d bits", c,
                      $signed(up), PB);
      end
    end
  end
`endif
endmodule
`default_nettype wire
