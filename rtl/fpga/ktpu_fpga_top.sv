// ktpu_fpga_top: the board build (docs/fpga.md). One clock pin, a reset
// button, the serial port's pins, two LEDs, and inside: the SoC with its
// local RAM initialised from the boot image (RamInit, the files
// build/ktpu-mem writes from the bootloader and the built-in firmware), the
// accelerator DRAM in on-chip block RAM (ktpu_fpga_dram; a DDR4 controller
// takes its place with the AXI4 bridge), one memory agent.
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
    .cl_hold_i(14'd0)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  ktpu_fpga_dram #(.Ports(P), .AddrBits(DramBits)) u_dram (
    .clk_i, .rst_i(rst_q),
    .req_valid_i(req_valid), .req_ready_o(req_ready), .req_write_i(req_write),
    .req_addr_i(req_addr), .req_wdata_i(req_wdata), .req_wstrb_i(req_wstrb), .req_tag_i(req_tag),
    .rsp_valid_o(rsp_valid), .rsp_ready_i(rsp_ready), .rsp_rdata_o(rsp_rdata), .rsp_tag_o(rsp_tag)
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
