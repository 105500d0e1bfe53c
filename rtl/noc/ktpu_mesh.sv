// ktpu_mesh: a Width x Height mesh of ktpu_router, one network plane.
//
// Node n = y*Width + x sits at (x, y); its local port is bits [n*288 +: 288]
// of the node vectors (and bit n of the valid/ready vectors). Kinds places
// the nodes: nibble n is a ktpu_pkg NODE_* code. The machine uses two planes
// (request and response, docs/noc.md), i.e. two instances of this module.
//
// Flits that would leave the mesh (dst outside Width x Height) or that reach
// an EMPTY node are consumed at that edge and counted in stray_o instead of
// stalling the link forever: a bad destination costs that flit, never the
// network. Well-formed traffic never makes a stray (the stress bench checks
// stray_o stays 0); an assertion names the first one in simulation.
`default_nettype none

module ktpu_mesh #(
  parameter int               Width     = 2,
  parameter int               Height    = 2,
  parameter logic [4*256-1:0] Kinds     = {256{4'h3}},  // default: every node present
  parameter int               FifoDepth = 2
) (
  input  wire logic                        clk_i,
  input  wire logic                        rst_i,
  input  wire logic [Width*Height-1:0]     node_in_valid_i,   // node -> mesh
  output logic      [Width*Height-1:0]     node_in_ready_o,
  input  wire logic [Width*Height*288-1:0] node_in_flit_i,
  output logic      [Width*Height-1:0]     node_out_valid_o,  // mesh -> node
  input  wire logic [Width*Height-1:0]     node_out_ready_i,
  output logic      [Width*Height*288-1:0] node_out_flit_o,
  output logic      [31:0]                 stray_o
);

  localparam int N = Width * Height;
  localparam int F = 288;

  localparam int MaxDim = ktpu_pkg::MESH_MAX_DIM;
  localparam int PortN = ktpu_pkg::PORT_N, PortE = ktpu_pkg::PORT_E, PortS = ktpu_pkg::PORT_S;
  localparam int PortW = ktpu_pkg::PORT_W, PortL = ktpu_pkg::PORT_L;
  if (Width < 1 || Height < 1 || Width > MaxDim || Height > MaxDim) begin : gen_bad_size
    $error("ktpu_mesh: Width and Height must be 1..16 (4-bit coordinates)");
  end

  // Router port vectors, [node][port].
  logic [4:0]     r_in_valid  [N];
  logic [4:0]     r_in_ready  [N];
  logic [5*F-1:0] r_in_flit   [N];
  logic [4:0]     r_out_valid [N];
  logic [4:0]     r_out_ready [N];
  logic [5*F-1:0] r_out_flit  [N];
  logic [24:0]    r_in_route  [N];  // look-ahead routes (ktpu_router), 5 bits a port
  logic [24:0]    r_out_route [N];
  logic [4:0]     stray       [N];  // output port of router n sinks a flit

  for (genvar y = 0; y < Height; y++) begin : gen_y
    for (genvar x = 0; x < Width; x++) begin : gen_x
      localparam int  Me    = y * Width + x;
      localparam bit  Empty = (Kinds[4*Me +: 4] == 4'(ktpu_pkg::NODE_EMPTY));
      localparam bit  HasN  = (y > 0);
      localparam bit  HasS  = (y < Height - 1);
      localparam bit  HasW  = (x > 0);
      localparam bit  HasE  = (x < Width - 1);
      // Neighbour indices; only used where the neighbour exists.
      localparam int  NN = HasN ? Me - Width : Me;
      localparam int  NS = HasS ? Me + Width : Me;
      localparam int  NW = HasW ? Me - 1 : Me;
      localparam int  NE = HasE ? Me + 1 : Me;

      ktpu_router #(.X(x), .Y(y), .FifoDepth(FifoDepth)) u_router (
        .clk_i, .rst_i,
        .in_valid_i (r_in_valid[Me]),  .in_ready_o (r_in_ready[Me]),  .in_flit_i (r_in_flit[Me]),
        .in_route_i (r_in_route[Me]),
        .out_valid_o(r_out_valid[Me]), .out_ready_i(r_out_ready[Me]), .out_flit_o(r_out_flit[Me]),
        .out_route_o(r_out_route[Me])
      );

      // Into this router: from each neighbour's facing output, from the node.
      assign r_in_valid[Me][PortN] = HasN && r_out_valid[NN][PortS];
      assign r_in_flit[Me][PortN*F +: F] = r_out_flit[NN][PortS*F +: F];
      assign r_in_valid[Me][PortS] = HasS && r_out_valid[NS][PortN];
      assign r_in_flit[Me][PortS*F +: F] = r_out_flit[NS][PortN*F +: F];
      assign r_in_valid[Me][PortW] = HasW && r_out_valid[NW][PortE];
      assign r_in_flit[Me][PortW*F +: F] = r_out_flit[NW][PortE*F +: F];
      assign r_in_valid[Me][PortE] = HasE && r_out_valid[NE][PortW];
      assign r_in_flit[Me][PortE*F +: F] = r_out_flit[NE][PortW*F +: F];
      assign r_in_valid[Me][PortL] = !Empty && node_in_valid_i[Me];
      assign r_in_flit[Me][PortL*F +: F] = node_in_flit_i[Me*F +: F];
      // each link's route travels with its flit; the node sends none (the
      // router routes its flits as they arrive)
      assign r_in_route[Me][PortN*5 +: 5] = r_out_route[NN][PortS*5 +: 5];
      assign r_in_route[Me][PortS*5 +: 5] = r_out_route[NS][PortN*5 +: 5];
      assign r_in_route[Me][PortW*5 +: 5] = r_out_route[NW][PortE*5 +: 5];
      assign r_in_route[Me][PortE*5 +: 5] = r_out_route[NE][PortW*5 +: 5];
      assign r_in_route[Me][PortL*5 +: 5] = 5'b00000;
      assign node_in_ready_o[Me] = !Empty && r_in_ready[Me][PortL];

      // Out of this router: a missing neighbour or an EMPTY node sinks.
      assign r_out_ready[Me][PortN] = HasN ? r_in_ready[NN][PortS] : 1'b1;
      assign r_out_ready[Me][PortS] = HasS ? r_in_ready[NS][PortN] : 1'b1;
      assign r_out_ready[Me][PortW] = HasW ? r_in_ready[NW][PortE] : 1'b1;
      assign r_out_ready[Me][PortE] = HasE ? r_in_ready[NE][PortW] : 1'b1;
      assign r_out_ready[Me][PortL] = Empty ? 1'b1 : node_out_ready_i[Me];
      assign node_out_valid_o[Me] = !Empty && r_out_valid[Me][PortL];
      assign node_out_flit_o[Me*F +: F] = r_out_flit[Me][PortL*F +: F];

      assign stray[Me] = r_out_valid[Me] & {Empty, !HasW, !HasS, !HasE, !HasN};
    end
  end

  // Stray counter: saturating, so it never wraps back to a clean-looking 0.
  // Pipelined (the sinking outputs' valid bits, then their count, then the
  // sum), so that it adds no logic to the links' paths: stray_o counts a
  // flit three cycles after it is sunk. The sum is two 16-bit halves, the
  // low half's carry added to the high one a cycle later (a 33-bit carry
  // chain was the mesh's longest path, docs/timing.md); a carry out of the
  // high half saturates the count for good.
  logic [5*N-1:0] stray_bits_q;
  logic [11:0]    stray_n, stray_n_q;  // up to 5 x 256 at once
  logic [15:0]    stray_lo_q, stray_hi_q;
  logic           stray_c_q, stray_sat_q;
  logic [16:0]    stray_lo_sum, stray_hi_sum;
  always_comb begin
    stray_n = 12'd0;
    for (int b = 0; b < 5 * N; b++) stray_n = stray_n + 12'(stray_bits_q[b]);
  end
  assign stray_lo_sum = {1'b0, stray_lo_q} + {5'd0, stray_n_q};
  assign stray_hi_sum = {1'b0, stray_hi_q} + {16'd0, stray_c_q};
  always_ff @(posedge clk_i) begin
    for (int n = 0; n < N; n++) stray_bits_q[5*n +: 5] <= rst_i ? 5'b00000 : stray[n];
    if (rst_i) begin
      stray_n_q   <= 12'd0;
      stray_lo_q  <= 16'd0;
      stray_hi_q  <= 16'd0;
      stray_c_q   <= 1'b0;
      stray_sat_q <= 1'b0;
    end else begin
      stray_n_q  <= stray_n;
      stray_lo_q <= stray_lo_sum[15:0];
      stray_c_q  <= stray_lo_sum[16];
      stray_hi_q <= stray_hi_sum[15:0];
      if (stray_hi_sum[16]) stray_sat_q <= 1'b1;
    end
  end
  assign stray_o = stray_sat_q ? 32'hFFFF_FFFF : {stray_hi_q, stray_lo_q};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (!rst_i)
      for (int n = 0; n < N; n++)
        assert (stray[n] == 5'b00000)
          else $warning("ktpu_mesh: stray flit at node %0d (port mask %b)", n, stray[n]);
  end
`endif

endmodule

`default_nettype wire
