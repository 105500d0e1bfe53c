`default_nettype none
// The cluster datapath's functional model: the same module name, ports and
// timing as rtl/tensor/ktpu_cluster_dp.sv, for the co-simulators built with
// --dp-model (ktpu-sim-dpm, docs/simulation.md "The datapath's model"). Never
// synthesised; no regression binary is built from it but its own checks.
//
// Why it is equal at the ports: in the RTL every register of the datapath
// (the skew lines, the 512 DSP48E2s' A/B/D/AD/M/P/C registers) is enabled
// by en_i alone, so the whole cascade is a delay of ChainLatency enabled
// cycles around a pure function of one operand pair: the 16 exact block dot
// products sum_k A[i][k] * B[j][k], each fitting 19 bits signed (|sum| <=
// 32 * 64 * 64 = 2^17, so no bit pattern of the int7 inputs overflows).
// Here that function is computed as the pair enters and carried down a
// line of ChainLatency registers with the same enable; the valid pipeline,
// its reset and the output register are the RTL's, line for line. Only the
// contents of never-valid outputs before the line first fills differ (both
// start from random values). The cluster datapath bench runs against this
// file as against the RTL (tensor_cluster_dp_model), and whole GEMMs on
// both co-simulators must match in every output line (soc_dp_model).
module ktpu_cluster_dp #(
  parameter int unsigned Lanes       = ktpu_pkg::TILE_ROWS,
  parameter int unsigned BlockK      = ktpu_pkg::MX_BLOCK_K,
  parameter int unsigned EB          = ktpu_pkg::MX_ELEM_BITS,
  parameter int unsigned PartialBits = ktpu_pkg::CLUSTER_PARTIAL_BITS
) (
  input  wire                   clk_i,
  input  wire                   rst_i,
  input  wire                   en_i,
  input  wire                   valid_i,
  input  wire  [Lanes*BlockK*EB-1:0] a_i,
  input  wire  [Lanes*BlockK*EB-1:0] b_i,
  output logic                  valid_o,
  output logic [Lanes*Lanes*PartialBits-1:0] partial_o
);
  // The RTL's ChainLatency (operands to the last CU's P); the output
  // register is the one cycle more of CLUSTER_DP_LATENCY.
  localparam int unsigned ChainLatency = ktpu_pkg::CLUSTER_DP_LATENCY - 1;
  localparam int unsigned LaneBits = BlockK * EB;
  localparam int unsigned PB = PartialBits;

  if (PB < 2 * EB + $clog2(BlockK) || ChainLatency < 2) begin : gen_bad_geometry
    $fatal(1, "ktpu_cluster_dp (model): a %0d-term sum of int%0d products does not fit %0d bits",
           BlockK, EB, PB);
  end

  // The operands as elements: lane l's element k is at bit EB * (BlockK * l + k)
  // of a_i / b_i (docs/datapath.md), so element e = BlockK * l + k. Split at
  // constant positions (a shift and a mask each in Verilator's C++, where a
  // part-select at a loop index into the 896-bit ports is a call).
  logic signed [EB-1:0] a_el [Lanes*BlockK];
  logic signed [EB-1:0] b_el [Lanes*BlockK];
  for (genvar e = 0; e < Lanes * BlockK; e++) begin : gen_el
    assign a_el[e] = a_i[EB*e +: EB];
    assign b_el[e] = b_i[EB*e +: EB];
  end

  logic [Lanes*Lanes*PB-1:0] dot;
  always_comb begin
    for (int i = 0; i < Lanes; i++) begin
      for (int j = 0; j < Lanes; j++) begin
        int sum;
        sum = 0;
        for (int k = 0; k < BlockK; k++)
          sum = sum + int'(a_el[BlockK*i + k]) * int'(b_el[BlockK*j + k]);
        dot[PB*(Lanes*i + j) +: PB] = PB'(sum);
      end
    end
  end

  logic [Lanes*Lanes*PB-1:0] line_q [ChainLatency];
  logic [ChainLatency-1:0]   vpipe_q;
  always_ff @(posedge clk_i) begin
    if (en_i) begin
      line_q[0] <= dot;
      for (int s = 1; s < ChainLatency; s++) line_q[s] <= line_q[s-1];
    end
  end

  // ---- valid pipeline and output register: as in the RTL -----------------------
  always_ff @(posedge clk_i) begin
    if (rst_i)     vpipe_q <= '0;
    else if (en_i) vpipe_q <= {vpipe_q[ChainLatency-2:0], valid_i};
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) valid_o <= 1'b0;
    else       valid_o <= en_i & vpipe_q[ChainLatency-1];
    if (en_i) partial_o <= line_q[ChainLatency-1];
  end
endmodule
`default_nettype wire
