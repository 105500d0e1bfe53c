`default_nettype none
// Bench top for ktpu_ram: every primitive at both read latencies, at the
// shapes the design uses (L1 entry 928 bits, accumulator sub-tile 352 bits),
// all 512 deep, one shared stimulus. The "ultra" instances read through
// re_nc_i, which the harness drops on same-address collisions (unsupported).
module tb_ram (
  input  wire          clk_i,
  input  wire          we_i,
  input  wire  [8:0]   waddr_i,
  input  wire  [927:0] wdata_i,
  input  wire          re_i,
  input  wire          re_nc_i,
  input  wire  [8:0]   raddr_i,
  output wire  [927:0] block1_o,
  output wire  [351:0] block2_o,
  output wire  [71:0]  ultra1_o,
  output wire  [351:0] ultra2_o,
  output wire  [31:0]  dist1_o,
  output wire  [31:0]  dist2_o
);
  ktpu_ram #(.Width(928), .Depth(512), .ReadLatency(1), .Primitive("block")) u_block1 (
    .clk_i, .we_i, .waddr_i, .wdata_i(wdata_i), .re_i, .raddr_i, .rdata_o(block1_o));
  ktpu_ram #(.Width(352), .Depth(512), .ReadLatency(2), .Primitive("block")) u_block2 (
    .clk_i, .we_i, .waddr_i, .wdata_i(wdata_i[351:0]), .re_i, .raddr_i, .rdata_o(block2_o));
  ktpu_ram #(.Width(72), .Depth(512), .ReadLatency(1), .Primitive("ultra")) u_ultra1 (
    .clk_i, .we_i, .waddr_i, .wdata_i(wdata_i[71:0]), .re_i(re_nc_i), .raddr_i, .rdata_o(ultra1_o));
  ktpu_ram #(.Width(352), .Depth(512), .ReadLatency(2), .Primitive("ultra")) u_ultra2 (
    .clk_i, .we_i, .waddr_i, .wdata_i(wdata_i[351:0]), .re_i(re_nc_i), .raddr_i, .rdata_o(ultra2_o));
  ktpu_ram #(.Width(32), .Depth(512), .ReadLatency(1), .Primitive("distributed")) u_dist1 (
    .clk_i, .we_i, .waddr_i, .wdata_i(wdata_i[31:0]), .re_i, .raddr_i, .rdata_o(dist1_o));
  ktpu_ram #(.Width(32), .Depth(512), .ReadLatency(2), .Primitive("distributed")) u_dist2 (
    .clk_i, .we_i, .waddr_i, .wdata_i(wdata_i[31:0]), .re_i, .raddr_i, .rdata_o(dist2_o));
  // The wide write data is shared: instances take its low bits.
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_ok = ^wdata_i;
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
`default_nettype wire
