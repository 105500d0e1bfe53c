// ktpu_axi_dram_port: one SoC DRAM port reaching a memory over AXI4, the
// way both tops wire it (docs/soc.md, "DRAM over AXI4"): ktpu_axi_bridge
// (AXI master, ID `Id`), the AXI4 link with its protocol checker
// (simulation only), and ktpu_dram_axi (AXI slave) in front of two native
// ports of a memory: [0] reads, [1] writes. In ktpu_sim_top the memory is
// the DRAM model; in ktpu_fpga_top it is the on-chip ktpu_fpga_dram. A
// board with a DDR4 controller keeps ktpu_axi_bridge and puts the
// controller's AXI4 slave port where ktpu_dram_axi is (docs/fpga.md).
`default_nettype none

module ktpu_axi_dram_port #(
  parameter     Name     = "axi",    // the checker's name for this link
  parameter int AddrBits = 24,
  parameter int IdBits   = 4,
  parameter int unsigned Id = 0
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_i,
  input  wire logic [4:0]            stall_i,   // slave back-pressure {ar, aw, w, r, b} (benches)
  // native side: the SoC's DRAM port
  input  wire logic                  req_valid_i,
  output logic                       req_ready_o,
  input  wire logic                  req_write_i,
  input  wire logic [AddrBits-1:0]   req_addr_i,
  input  wire logic [255:0]          req_wdata_i,
  input  wire logic [31:0]           req_wstrb_i,
  input  wire logic [7:0]            req_tag_i,
  output logic                       rsp_valid_o,
  input  wire logic                  rsp_ready_i,
  output logic      [255:0]          rsp_rdata_o,
  output logic      [7:0]            rsp_tag_o,
  // two native ports of the memory behind the slave
  output logic      [1:0]            m_req_valid_o,
  input  wire logic [1:0]            m_req_ready_i,
  output logic      [1:0]            m_req_write_o,
  output logic      [2*AddrBits-1:0] m_req_addr_o,
  output logic      [511:0]          m_req_wdata_o,
  output logic      [63:0]           m_req_wstrb_o,
  output logic      [15:0]           m_req_tag_o,
  input  wire logic [1:0]            m_rsp_valid_i,
  output logic      [1:0]            m_rsp_ready_o,
  input  wire logic [511:0]          m_rsp_rdata_i,
  input  wire logic [15:0]           m_rsp_tag_i,
  // health
  output logic      [15:0]           axi_err_o,  // responses not OKAY or with a wrong ID
  output logic                       idle_o
);
  logic [IdBits-1:0] awid, bid, arid, rid;
  logic [31:0]       awaddr, araddr;
  logic [7:0]        awlen, arlen;
  logic [2:0]        awsize, arsize, awprot, arprot;
  logic [1:0]        awburst, arburst, bresp, rresp;
  logic [3:0]        awcache, arcache;
  logic              awvalid, awready, wlast, wvalid, wready, bvalid, bready;
  logic              arvalid, arready, rlast, rvalid, rready;
  logic [255:0]      wdata, rdata;
  logic [31:0]       wstrb;

  // The port's own clock, as the clusters' and the agents' (docs/simulation.md,
  // "Idle clusters"): stopped while the bridge holds nothing accepted and
  // unanswered and no request arrives. The bridge is idle only once its
  // last response has left, after the last AXI4 handshake: the slave and
  // the checker have seen every edge that changes them, the link carries no
  // valid, and the memory owes the slave nothing.
  logic pclk, idle;
  ktpu_clk_gate u_gate (.clk_i(clk_i), .en_i(rst_i || req_valid_i || !idle), .gclk_o(pclk));
  assign idle_o = idle;

  ktpu_axi_bridge #(.AddrBits(AddrBits), .IdBits(IdBits), .Id(Id)) u_bridge (
    .clk_i(pclk), .rst_i, .req_valid_i, .req_ready_o, .req_write_i, .req_addr_i, .req_wdata_i,
    .req_wstrb_i, .req_tag_i, .rsp_valid_o, .rsp_ready_i, .rsp_rdata_o, .rsp_tag_o,
    .awid_o(awid), .awaddr_o(awaddr), .awlen_o(awlen), .awsize_o(awsize), .awburst_o(awburst),
    .awcache_o(awcache), .awprot_o(awprot), .awvalid_o(awvalid), .awready_i(awready),
    .wdata_o(wdata), .wstrb_o(wstrb), .wlast_o(wlast), .wvalid_o(wvalid), .wready_i(wready),
    .bid_i(bid), .bresp_i(bresp), .bvalid_i(bvalid), .bready_o(bready),
    .arid_o(arid), .araddr_o(araddr), .arlen_o(arlen), .arsize_o(arsize), .arburst_o(arburst),
    .arcache_o(arcache), .arprot_o(arprot), .arvalid_o(arvalid), .arready_i(arready),
    .rid_i(rid), .rdata_i(rdata), .rresp_i(rresp), .rlast_i(rlast), .rvalid_i(rvalid), .rready_o(rready),
    .axi_err_o, .idle_o(idle));

`ifndef SYNTHESIS
  ktpu_axi_check #(.Name(Name), .IdBits(IdBits)) u_check (
    .clk_i(pclk), .rst_i,
    .awid_i(awid), .awaddr_i(awaddr), .awlen_i(awlen), .awsize_i(awsize), .awburst_i(awburst),
    .awvalid_i(awvalid), .awready_i(awready),
    .wdata_i(wdata), .wstrb_i(wstrb), .wlast_i(wlast), .wvalid_i(wvalid), .wready_i(wready),
    .bid_i(bid), .bresp_i(bresp), .bvalid_i(bvalid), .bready_i(bready),
    .arid_i(arid), .araddr_i(araddr), .arlen_i(arlen), .arsize_i(arsize), .arburst_i(arburst),
    .arvalid_i(arvalid), .arready_i(arready),
    .rid_i(rid), .rdata_i(rdata), .rresp_i(rresp), .rlast_i(rlast), .rvalid_i(rvalid), .rready_i(rready));
`endif

  ktpu_dram_axi #(.AddrBits(AddrBits), .IdBits(IdBits)) u_slave (
    .clk_i(pclk), .rst_i, .stall_i,
    .awid_i(awid), .awaddr_i(awaddr), .awlen_i(awlen), .awvalid_i(awvalid), .awready_o(awready),
    .wdata_i(wdata), .wstrb_i(wstrb), .wlast_i(wlast), .wvalid_i(wvalid), .wready_o(wready),
    .bid_o(bid), .bresp_o(bresp), .bvalid_o(bvalid), .bready_i(bready),
    .arid_i(arid), .araddr_i(araddr), .arlen_i(arlen), .arvalid_i(arvalid), .arready_o(arready),
    .rid_o(rid), .rdata_o(rdata), .rresp_o(rresp), .rlast_o(rlast), .rvalid_o(rvalid), .rready_i(rready),
    .req_valid_o(m_req_valid_o), .req_ready_i(m_req_ready_i), .req_write_o(m_req_write_o),
    .req_addr_o(m_req_addr_o), .req_wdata_o(m_req_wdata_o), .req_wstrb_o(m_req_wstrb_o),
    .req_tag_o(m_req_tag_o), .rsp_valid_i(m_rsp_valid_i), .rsp_ready_o(m_rsp_ready_o),
    .rsp_rdata_i(m_rsp_rdata_i), .rsp_tag_i(m_rsp_tag_i));

  // the slave ignores the cache and protection attributes; the checker the size and burst type
  logic unused;
  assign unused = ^{awcache, awprot, arcache, arprot, awsize, arsize, awburst, arburst};
endmodule

`default_nettype wire
