// Bench top: a mesh with one EMPTY node (placement by Kinds), for the stray
// checks of mesh_stress.cpp built with -DEMPTY_NODE=EmptyNode.
`default_nettype none

module mesh_empty_top #(
  parameter int Width     = 3,
  parameter int Height    = 2,
  parameter int EmptyNode = 4
) (
  input  wire logic                        clk_i,
  input  wire logic                        rst_i,
  input  wire logic [Width*Height-1:0]     node_in_valid_i,
  output logic      [Width*Height-1:0]     node_in_ready_o,
  input  wire logic [Width*Height*288-1:0] node_in_flit_i,
  output logic      [Width*Height-1:0]     node_out_valid_o,
  input  wire logic [Width*Height-1:0]     node_out_ready_i,
  output logic      [Width*Height*288-1:0] node_out_flit_o,
  output logic      [31:0]                 stray_o
);
  localparam logic [1023:0] Kinds =
      {256{4'(ktpu_pkg::NODE_CLUSTER)}} & ~(1024'hF << (4 * EmptyNode));

  ktpu_mesh #(.Width(Width), .Height(Height), .Kinds(Kinds)) u_mesh (
    .clk_i, .rst_i, .node_in_valid_i, .node_in_ready_o, .node_in_flit_i,
    .node_out_valid_o, .node_out_ready_i, .node_out_flit_o, .stray_o
  );
endmodule

`default_nettype wire
