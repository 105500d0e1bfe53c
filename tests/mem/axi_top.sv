// axi_top: tests/mem/axi_tb.cpp's design: one SoC DRAM port through
// ktpu_axi_dram_port (ktpu_axi_bridge, the protocol checker on the AXI4
// link, ktpu_dram_axi with the bench's back-pressure stall_i) to two ports
// of the DRAM model; the burst counts are read off the link inside.
`default_nettype none

module axi_top #(
  parameter int AddrBits = 20   // tests/mem/axi_tb.cpp's kBits
) (
  input  wire logic                clk_i,
  input  wire logic                rst_i,
  input  wire logic [4:0]          stall_i,     // {ar, aw, w, r, b}
  input  wire logic                req_valid_i,
  output logic                     req_ready_o,
  input  wire logic                req_write_i,
  input  wire logic [AddrBits-1:0] req_addr_i,
  input  wire logic [255:0]        req_wdata_i,
  input  wire logic [31:0]         req_wstrb_i,
  input  wire logic [7:0]          req_tag_i,
  output logic                     rsp_valid_o,
  input  wire logic                rsp_ready_i,
  output logic [255:0]             rsp_rdata_o,
  output logic [7:0]               rsp_tag_o,
  output logic [15:0]              axi_err_o,
  output logic                     idle_o,
  output logic [31:0]              aw_bursts_o,   // AW and AR handshakes, for the bench's
  output logic [31:0]              ar_bursts_o,   // burst-length statistics
  output logic [31:0]              gated_o        // cycles with the port's clock stopped
);
  logic [1:0]            m_valid, m_ready, m_write;
  logic [1:0]            s_valid /*verilator split_var*/, s_ready /*verilator split_var*/;
  logic [2*AddrBits-1:0] m_addr;
  logic [511:0]          m_wdata, s_rdata;
  logic [63:0]           m_wstrb;
  logic [15:0]           m_tag, s_tag;

  ktpu_axi_dram_port #(.Name("axi bench"), .AddrBits(AddrBits), .Id(5)) u_port (
    .clk_i, .rst_i, .stall_i, .req_valid_i, .req_ready_o, .req_write_i, .req_addr_i, .req_wdata_i,
    .req_wstrb_i, .req_tag_i, .rsp_valid_o, .rsp_ready_i, .rsp_rdata_o, .rsp_tag_o,
    .m_req_valid_o(m_valid), .m_req_ready_i(m_ready), .m_req_write_o(m_write), .m_req_addr_o(m_addr),
    .m_req_wdata_o(m_wdata), .m_req_wstrb_o(m_wstrb), .m_req_tag_o(m_tag),
    .m_rsp_valid_i(s_valid), .m_rsp_ready_o(s_ready), .m_rsp_rdata_i(s_rdata), .m_rsp_tag_i(s_tag),
    .axi_err_o, .idle_o);

  ktpu_dram #(.Ports(2), .AddrBits(AddrBits)) u_dram (
    .clk_i, .rst_i, .req_valid_i(m_valid), .req_ready_o(m_ready), .req_write_i(m_write),
    .req_addr_i(m_addr), .req_wdata_i(m_wdata), .req_wstrb_i(m_wstrb), .req_tag_i(m_tag),
    .rsp_valid_o(s_valid), .rsp_ready_i(s_ready), .rsp_rdata_o(s_rdata), .rsp_tag_o(s_tag));

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      aw_bursts_o <= '0;
      ar_bursts_o <= '0;
    end else begin
      aw_bursts_o <= aw_bursts_o + 32'(u_port.awvalid && u_port.awready);
      ar_bursts_o <= ar_bursts_o + 32'(u_port.arvalid && u_port.arready);
    end
  end
  always_ff @(posedge clk_i) gated_o <= rst_i ? '0 : gated_o + 32'(!u_port.u_gate.en_q);

endmodule

`default_nettype wire
