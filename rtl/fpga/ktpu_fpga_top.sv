// ktpu_fpga_top: the board build (docs/fpga.md). One clock pin, a reset
// button, the serial port's pins, two LEDs, and inside: the SoC with its
// local RAM initialised from the boot image (RamInit, the files
// build/ktpu-mem writes from the bootloader and the built-in firmware), one
// memory agent, and the accelerator DRAM reached over AXI4 (one
// ktpu_axi_bridge per SoC DRAM port) in on-chip block RAM (ktpu_fpga_dram
// behind ktpu_dram_axi; a DDR4 controller's AXI4 port takes the place of
// the latter two: docs/fpga.md).
//
// Reset: the button is asynchronous; it is synchronised to the clock (two
// flops) and stretched to ResetCycles, and the flops start in reset, so the
// machine also resets at configuration. The UART's divider is ClkHz / Baud
// (115200 baud at 100 MHz: 868 clocks a bit, 0.006% fast); the bootloader
// listens 2 s for an upload after reset (BOOT_WAIT).
// LEDs: led_o[0] blinks at about ClkHz / 2^27 (the clock runs), led_o[1] is
// set by a SIM_EXIT store (the program finished; harmless otherwise).
`default_nettype none

module ktpu_fpga_top #(
  parameter int ClkHz       = 100_000_000,
  parameter int Baud        = 115_200,
  parameter int Clusters    = 2,
  parameter int DramBits    = 21,        // on-chip DRAM: 2 MiB
  parameter int ResetCycles = 16,
  parameter     RamInit     = ""         // untyped: build/ktpu-mem's PREFIX
) (
  input  wire logic       clk_i,
  input  wire logic       rst_btn_i,     // active high, asynchronous
  input  wire logic       uart_rxd_i,
  output logic            uart_txd_o,
  output logic            uart_rts_o,    // to the host adapter's CTS (optional)
  output logic [1:0]      led_o
);
  localparam int Div = (ClkHz + Baud / 2) / Baud;

  // ---------------------------------------------------------------- reset
  (* ASYNC_REG = "TRUE" *) logic [1:0] sync_q = 2'b11;
  logic [$clog2(ResetCycles + 1)-1:0] hold_q = '0;
  logic rst_q = 1'b1;
  always_ff @(posedge clk_i) begin
    sync_q <= {sync_q[0], rst_btn_i};
    if (sync_q[1]) begin
      hold_q <= '0;
      rst_q  <= 1'b1;
    end else if (hold_q != ($clog2(ResetCycles + 1))'(ResetCycles)) begin
      hold_q <= hold_q + 1'b1;
    end else begin
      rst_q  <= 1'b0;
    end
  end

  // ---------------------------------------------------------------- SoC
  localparam int P = 2;   // DRAM ports: the CPU's window, the memory agent
  logic [P-1:0]          req_valid, req_ready, req_write, rsp_valid, rsp_ready;
  logic [P*DramBits-1:0] req_addr;
  logic [P*256-1:0]      req_wdata, rsp_rdata;
  logic [P*32-1:0]       req_wstrb;
  logic [P*8-1:0]        req_tag, rsp_tag;
  logic                  exit_v;

  /* verilator lint_off PINCONNECTEMPTY */
  ktpu_soc #(.DramAddrBits(DramBits), .Clusters(Clusters), .MemPorts(1),
             .UartClksPerBit(Div), .BootWait(2 * ClkHz), .RamInit(RamInit)) u_soc (
    .clk_i, .rst_i(rst_q),
    .ld_valid_i(1'b0), .ld_addr_i(32'd0), .ld_be_i(4'd0), .ld_data_i(32'd0),
    .uart_txd_o, .uart_rxd_i, .uart_rts_o,
    .sim_exit_valid_o(exit_v), .sim_exit_code_o(), .sim_exit_be_o(),
    .mbox_valid_o(), .mbox_cmd_o(), .mbox_arg0_o(), .mbox_arg1_o(), .mbox_resp_i(32'd0),
    .dram_req_valid_o(req_valid[0]), .dram_req_ready_i(req_ready[0]),
    .dram_req_write_o(req_write[0]), .dram_req_addr_o(req_addr[0 +: DramBits]),
    .dram_req_wdata_o(req_wdata[0 +: 256]), .dram_req_wstrb_o(req_wstrb[0 +: 32]),
    .dram_req_tag_o(req_tag[0 +: 8]), .dram_rsp_valid_i(rsp_valid[0]),
    .dram_rsp_ready_o(rsp_ready[0]), .dram_rsp_rdata_i(rsp_rdata[0 +: 256]),
    .dram_rsp_tag_i(rsp_tag[0 +: 8]),
    .mem_req_valid_o(req_valid[1]), .mem_req_ready_i(req_ready[1]),
    .mem_req_write_o(req_write[1]), .mem_req_addr_o(req_addr[DramBits +: DramBits]),
    .mem_req_wdata_o(req_wdata[256 +: 256]), .mem_req_wstrb_o(req_wstrb[32 +: 32]),
    .mem_req_tag_o(req_tag[8 +: 8]), .mem_rsp_valid_i(rsp_valid[1]),
    .mem_rsp_ready_o(rsp_ready[1]), .mem_rsp_rdata_i(rsp_rdata[256 +: 256]),
    .mem_rsp_tag_i(rsp_tag[8 +: 8]),
    .mem_win_base_i(32'd0), .mem_win_limit_i(32'(1 << DramBits)),
    .mem_win_err_o(), .mem_bad_req_o(), .mem_nonfinite_o(), .stray_rq_o(), .stray_rs_o(),
    .cl_hold_i(14'd0), .cl_act_o()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // ---------------------------------------------------------------- DRAM over AXI4
  // Each SoC DRAM port is an AXI4 master (ktpu_axi_bridge, ID = the port)
  // in front of two ports of the on-chip DRAM ([2p] reads, [2p + 1]
  // writes), the path ktpu-sim simulates (docs/fpga.md, "DRAM").
  logic [2*P-1:0]          m_req_valid, m_req_ready, m_req_write, m_rsp_valid, m_rsp_ready;
  logic [2*P*DramBits-1:0] m_req_addr;
  logic [P*512-1:0]        m_req_wdata, m_rsp_rdata;
  logic [P*64-1:0]         m_req_wstrb;
  logic [P*16-1:0]         m_req_tag, m_rsp_tag;

  for (genvar p = 0; p < P; p++) begin : gen_port
    logic [15:0] axi_err;
    logic        idle;
    ktpu_axi_dram_port #(.Name(p == 0 ? "axi cpu" : "axi agent0"), .AddrBits(DramBits), .Id(p)) u_port (
      .clk_i, .rst_i(rst_q), .stall_i(5'd0),
      .req_valid_i(req_valid[p]), .req_ready_o(req_ready[p]), .req_write_i(req_write[p]),
      .req_addr_i(req_addr[p*DramBits +: DramBits]), .req_wdata_i(req_wdata[p*256 +: 256]),
      .req_wstrb_i(req_wstrb[p*32 +: 32]), .req_tag_i(req_tag[p*8 +: 8]),
      .rsp_valid_o(rsp_valid[p]), .rsp_ready_i(rsp_ready[p]),
      .rsp_rdata_o(rsp_rdata[p*256 +: 256]), .rsp_tag_o(rsp_tag[p*8 +: 8]),
      .m_req_valid_o(m_req_valid[2*p +: 2]), .m_req_ready_i(m_req_ready[2*p +: 2]),
      .m_req_write_o(m_req_write[2*p +: 2]), .m_req_addr_o(m_req_addr[2*p*DramBits +: 2*DramBits]),
      .m_req_wdata_o(m_req_wdata[p*512 +: 512]), .m_req_wstrb_o(m_req_wstrb[p*64 +: 64]),
      .m_req_tag_o(m_req_tag[p*16 +: 16]), .m_rsp_valid_i(m_rsp_valid[2*p +: 2]),
      .m_rsp_ready_o(m_rsp_ready[2*p +: 2]), .m_rsp_rdata_i(m_rsp_rdata[p*512 +: 512]),
      .m_rsp_tag_i(m_rsp_tag[p*16 +: 16]), .axi_err_o(axi_err), .idle_o(idle));
    logic unused;   // the on-chip slave always answers OKAY with the right ID
    assign unused = ^{axi_err, idle};
  end

  ktpu_fpga_dram #(.Ports(2 * P), .AddrBits(DramBits)) u_dram (
    .clk_i, .rst_i(rst_q),
    .req_valid_i(m_req_valid), .req_ready_o(m_req_ready), .req_write_i(m_req_write),
    .req_addr_i(m_req_addr), .req_wdata_i(m_req_wdata), .req_wstrb_i(m_req_wstrb), .req_tag_i(m_req_tag),
    .rsp_valid_o(m_rsp_valid), .rsp_ready_i(m_rsp_ready), .rsp_rdata_o(m_rsp_rdata), .rsp_tag_o(m_rsp_tag)
  );

  // ---------------------------------------------------------------- LEDs
  logic [26:0] beat_q = '0;
  logic        done_q = 1'b0;
  always_ff @(posedge clk_i) begin
    beat_q <= beat_q + 27'd1;
    if (rst_q) done_q <= 1'b0;
    else if (exit_v) done_q <= 1'b1;
  end
  assign led_o = {done_q, beat_q[26]};
endmodule

`default_nettype wire
