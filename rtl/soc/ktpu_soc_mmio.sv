// ktpu_soc_mmio: the SoC's register block at MMIO_BASE (register map in
// data/ktpu.def, described in docs/soc.md): the UART's registers, the platform
// timer, the simulation mailbox and exit register, performance counters,
// the CPU's mesh port and the mesh description firmware discovers the
// clusters from (SOC_MESH, SOC_KINDS0/1: constants from the parameters).
//
// Bus: a request is decoded combinationally; gnt_o falls only while a store
// would overwrite a byte or flit that has not left yet (UART TX, mesh TX), so
// nothing is ever dropped. err_o (with gnt_o) refuses an offset that is not
// in the map, a store to a read-only register, a load from a write-only one
// and a store narrower than a word (be_i not all ones) to any register but
// UART_TX, which takes sb: the CPU replicates a byte or halfword across the
// bus, so taking it would write a made-up word. A narrow SIM_EXIT store is
// also passed out (sim_exit_valid_o with its lanes) so that a harness can
// name it. Reads answer one cycle after the grant.
`default_nettype none

module ktpu_soc_mmio #(
  parameter int          MeshW = ktpu_pkg::MESH_W,
  parameter int          MeshH = ktpu_pkg::MESH_H,
  parameter logic [63:0] Kinds = 64'h3321,  // NODE_* of node y*MeshW + x, 4 bits each
  parameter int unsigned BootWait = ktpu_pkg::BOOT_WAIT_SIM   // read back as BOOT_WAIT
) (
  input  wire logic         clk_i,
  input  wire logic         rst_i,
  // CPU data bus slice (sel_i: the address is in the MMIO window)
  input  wire logic         sel_i,
  input  wire logic         we_i,
  input  wire logic [11:0]  off_i,
  input  wire logic [3:0]   be_i,
  input  wire logic [31:0]  wdata_i,
  output logic              gnt_o,
  output logic              err_o,
  output logic              rvalid_o,
  output logic [31:0]       rdata_o,
  // the memory agent's address window, read back by firmware
  input  wire logic [31:0]  win_base_i,
  input  wire logic [31:0]  win_limit_i,
  // counted events from the rest of the SoC
  input  wire logic         ev_cpu_stall_i,
  input  wire logic         ev_dram_rd_i,
  input  wire logic         ev_dram_wr_i,
  // interrupts and the timer value for the `time` CSR
  output logic              irq_timer_o,
  output logic              irq_ext_o,
  output logic [63:0]       mtime_o,
  // UART byte channels to the serial port (ktpu_uart) and its error counts
  output logic              uart_tx_valid_o,
  output logic [7:0]        uart_tx_data_o,
  input  wire logic         uart_tx_ready_i,
  input  wire logic         uart_rx_valid_i,
  input  wire logic [7:0]   uart_rx_data_i,
  output logic              uart_rx_ready_o,
  input  wire logic [15:0]  uart_frame_err_i,
  input  wire logic [15:0]  uart_overrun_i,
  // simulation control
  output logic              sim_exit_valid_o,
  output logic [30:0]       sim_exit_code_o,
  output logic [3:0]        sim_exit_be_o,    // that store's byte lanes (4'hF: a sw)
  output logic              mbox_valid_o,
  output logic [31:0]       mbox_cmd_o,
  output logic [31:0]       mbox_arg0_o,
  output logic [31:0]       mbox_arg1_o,
  input  wire logic [31:0]  mbox_resp_i,
  // mesh port: one flit out, one flit in (valid/ready, SPEC §7)
  output logic              mesh_tx_valid_o,
  output logic [287:0]      mesh_tx_flit_o,
  input  wire logic         mesh_tx_ready_i,
  input  wire logic         mesh_rx_valid_i,
  input  wire logic [287:0] mesh_rx_flit_i,
  output logic              mesh_rx_ready_o
);
  // Offsets are compared as 32-bit numbers against the generated map.
  localparam int unsigned MeshTx0   = ktpu_pkg::MMIO_MESH_TX0_OFFSET;
  localparam int unsigned MeshRx0   = ktpu_pkg::MMIO_MESH_RX0_OFFSET;
  logic [31:0] off;
  assign off = {20'd0, off_i};

  // SOC_KINDS covers 16 nodes: a bigger mesh could not be described.
  if (MeshW < 1 || MeshH < 1 || MeshW > 15 || MeshH > 15 || MeshW * MeshH > 16) begin : gen_bad_mesh
    $error("ktpu_soc_mmio: the mesh must have 1..16 nodes (SOC_KINDS0/1 hold 16), sides 1..15 (4-bit fields)");
  end
  localparam logic [31:0] SocMesh =
      (32'(MeshW) << ktpu_pkg::SOC_MESH_W_LSB) | (32'(MeshH) << ktpu_pkg::SOC_MESH_H_LSB);

  logic [63:0]  mtime_q, mtimecmp_q;
  logic         mtime_lo_ones_q;   // &mtime_q[31:0], kept a cycle ahead (below)
  logic [31:0]  stall_q, dram_rd_q, dram_wr_q, mesh_tx_n_q, mesh_rx_n_q;
  logic [31:0]  arg0_q, arg1_q;
  logic         tx_valid_q, rx_valid_q, mtx_valid_q, mrx_valid_q, mirq_en_q;
  logic [7:0]   tx_data_q, rx_data_q;
  // Flits as the registers see them: word 0 the header (flit 287:256),
  // word n = 1..8 payload word n-1 (flit 32n-1:32n-32).
  logic [31:0]  mtx_w [9];
  logic [31:0]  mrx_w [9];
  logic [287:0] mtx_flit;
  always_comb begin
    mtx_flit[287:256] = mtx_w[0];
    for (int n = 1; n < 9; n++) mtx_flit[32*n-32 +: 32] = mtx_w[n];
  end

  // The flit words by one equality each (a range compare and a subtraction
  // would be carry chains in front of the CPU's grant: docs/timing.md).
  logic       in_mtx, in_mrx;
  logic [8:0] mtx_hit, mrx_hit;
  always_comb begin
    for (int n = 0; n < 9; n++) begin
      mtx_hit[n] = off == MeshTx0 + 4 * n;
      mrx_hit[n] = off == MeshRx0 + 4 * n;
    end
  end
  assign in_mtx = |mtx_hit;
  assign in_mrx = |mrx_hit;

  // Decode: readable / writable / value.
  logic        rd_ok, wr_ok;
  logic [31:0] rval;
  always_comb begin
    rd_ok = 1'b1; wr_ok = 1'b0; rval = 32'd0;
    if (in_mtx) begin
      rd_ok = 1'b0; wr_ok = 1'b1;   // write-only: a read mux of 9 words saved
    end else if (in_mrx) begin
      for (int n = 0; n < 9; n++) rval = rval | ({32{mrx_hit[n]}} & mrx_w[n]);
    end else begin
      unique case (off)
        ktpu_pkg::MMIO_UART_TX_OFFSET:      begin rd_ok = 1'b0; wr_ok = 1'b1; end
        ktpu_pkg::MMIO_SIM_EXIT_OFFSET:     begin rd_ok = 1'b0; wr_ok = 1'b1; end
        ktpu_pkg::MMIO_MBOX_CMD_OFFSET:     begin rd_ok = 1'b0; wr_ok = 1'b1; end
        ktpu_pkg::MMIO_MESH_TX_SEND_OFFSET: begin rd_ok = 1'b0; wr_ok = 1'b1; end
        ktpu_pkg::MMIO_MESH_RX_POP_OFFSET:  begin rd_ok = 1'b0; wr_ok = 1'b1; end
        ktpu_pkg::MMIO_UART_RX_OFFSET:      rval = {23'd0, rx_valid_q, rx_data_q};
        ktpu_pkg::MMIO_UART_STATUS_OFFSET:  rval = {30'd0, rx_valid_q, !tx_valid_q};
        ktpu_pkg::MMIO_MTIME_LO_OFFSET:     begin wr_ok = 1'b1; rval = mtime_q[31:0]; end
        ktpu_pkg::MMIO_MTIME_HI_OFFSET:     begin wr_ok = 1'b1; rval = mtime_q[63:32]; end
        ktpu_pkg::MMIO_MTIMECMP_LO_OFFSET:  begin wr_ok = 1'b1; rval = mtimecmp_q[31:0]; end
        ktpu_pkg::MMIO_MTIMECMP_HI_OFFSET:  begin wr_ok = 1'b1; rval = mtimecmp_q[63:32]; end
        ktpu_pkg::MMIO_MBOX_ARG0_OFFSET:    begin wr_ok = 1'b1; rval = arg0_q; end
        ktpu_pkg::MMIO_MBOX_ARG1_OFFSET:    begin wr_ok = 1'b1; rval = arg1_q; end
        ktpu_pkg::MMIO_MBOX_RESP_OFFSET:    rval = mbox_resp_i;
        ktpu_pkg::MMIO_UART_ERRORS_OFFSET:  rval = {uart_overrun_i, uart_frame_err_i};
        ktpu_pkg::MMIO_BOOT_WAIT_OFFSET:    rval = 32'(BootWait);
        ktpu_pkg::MMIO_PERF_CPU_STALL_OFFSET: rval = stall_q;
        ktpu_pkg::MMIO_PERF_DRAM_RD_OFFSET:   rval = dram_rd_q;
        ktpu_pkg::MMIO_PERF_DRAM_WR_OFFSET:   rval = dram_wr_q;
        ktpu_pkg::MMIO_PERF_MESH_TX_OFFSET:   rval = mesh_tx_n_q;
        ktpu_pkg::MMIO_PERF_MESH_RX_OFFSET:   rval = mesh_rx_n_q;
        ktpu_pkg::MMIO_MESH_STATUS_OFFSET:  rval = {30'd0, mrx_valid_q, mtx_valid_q};
        ktpu_pkg::MMIO_MESH_IRQ_EN_OFFSET:  begin wr_ok = 1'b1; rval = {31'd0, mirq_en_q}; end
        ktpu_pkg::MMIO_SOC_KINDS0_OFFSET:   rval = Kinds[31:0];
        ktpu_pkg::MMIO_SOC_KINDS1_OFFSET:   rval = Kinds[63:32];
        ktpu_pkg::MMIO_SOC_MESH_OFFSET:     rval = SocMesh;
        ktpu_pkg::MMIO_MEM_WIN_BASE_OFFSET:  rval = win_base_i;
        ktpu_pkg::MMIO_MEM_WIN_LIMIT_OFFSET: rval = win_limit_i;
        default: rd_ok = 1'b0;
      endcase
    end
  end

  logic wr_uart, wr_send;
  assign wr_uart = sel_i && we_i && off == ktpu_pkg::MMIO_UART_TX_OFFSET;
  assign wr_send = sel_i && we_i && off == ktpu_pkg::MMIO_MESH_TX_SEND_OFFSET;
  // Hold a store that would overwrite data still waiting to leave.
  assign gnt_o = !((wr_uart && tx_valid_q) || (wr_send && mtx_valid_q) ||
                   (sel_i && we_i && in_mtx && mtx_valid_q));
  logic narrow;   // a store of fewer than 4 bytes where only sw is defined
  assign narrow = be_i != 4'hF && off != ktpu_pkg::MMIO_UART_TX_OFFSET;
  assign err_o = we_i ? !wr_ok || narrow : !rd_ok;

  logic acc, wr, rd;
  assign acc = sel_i && gnt_o && !err_o;
  assign wr  = acc && we_i;
  assign rd  = acc && !we_i;

  always_ff @(posedge clk_i) begin
    rvalid_o <= !rst_i && sel_i && gnt_o && !we_i;   // refused reads are trapped, never answered
    rdata_o  <= rval;
  end

  // The receive FIFO in front of the receive register: the flits the
  // firmware has not taken yet (completions, while it plans) wait here, not
  // in the response plane's routers, where each would hold the clusters'
  // MEM_DATA flits queued behind it (docs/soc.md, "The receive FIFO").
  logic         rxq_push, rxq_empty, rxq_full;
  logic [287:0] rxq_flit;
  logic [$clog2(ktpu_pkg::SOC_MESH_RX_DEPTH+1)-1:0] unused_rxq_count;
  logic tx_go, mtx_go, mrx_take, uart_rx_take;
  assign rxq_push = mesh_rx_valid_i && !rxq_full;
  ktpu_fifo #(.Width(288), .Depth(ktpu_pkg::SOC_MESH_RX_DEPTH), .Primitive("distributed"), .Name("mesh_rxq")) u_rxq (
    .clk_i, .rst_ni(!rst_i), .push_i(rxq_push), .wdata_i(mesh_rx_flit_i), .pop_i(mrx_take),
    .rdata_o(rxq_flit), .empty_o(rxq_empty), .full_o(rxq_full), .count_o(unused_rxq_count)
  );
  assign tx_go        = tx_valid_q && uart_tx_ready_i;
  assign mtx_go       = mtx_valid_q && mesh_tx_ready_i;
  assign mrx_take     = !rxq_empty && !mrx_valid_q;
  assign uart_rx_take = uart_rx_valid_i && !rx_valid_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      mtime_q <= 64'd0; mtimecmp_q <= '1; mtime_lo_ones_q <= 1'b0;
      stall_q <= 32'd0; dram_rd_q <= 32'd0; dram_wr_q <= 32'd0;
      mesh_tx_n_q <= 32'd0; mesh_rx_n_q <= 32'd0;
      arg0_q <= 32'd0; arg1_q <= 32'd0;
      tx_valid_q <= 1'b0; rx_valid_q <= 1'b0; mtx_valid_q <= 1'b0; mrx_valid_q <= 1'b0;
      mirq_en_q <= 1'b0;
      sim_exit_valid_o <= 1'b0; sim_exit_be_o <= 4'hF; mbox_valid_o <= 1'b0;
      irq_timer_o <= 1'b0;
    end else begin
      // 64-bit count and compare in 32-bit halves (half the carry chain,
      // docs/timing.md): the high half counts when the low half wraps, which
      // a register says (the low half all ones: it will be, after this edge,
      // if it is one less now or is written so), not a 32-input AND in
      // front of the high half's adder
      mtime_q[31:0]   <= mtime_q[31:0] + 32'd1;
      mtime_q[63:32]  <= mtime_q[63:32] + 32'(mtime_lo_ones_q);
      mtime_lo_ones_q <= mtime_q[31:0] == 32'hFFFF_FFFE;
      irq_timer_o <= mtime_q[63:32] > mtimecmp_q[63:32] ||
                     (mtime_q[63:32] == mtimecmp_q[63:32] && mtime_q[31:0] >= mtimecmp_q[31:0]);
      if (ev_cpu_stall_i) stall_q <= stall_q + 32'd1;
      if (ev_dram_rd_i)   dram_rd_q <= dram_rd_q + 32'd1;
      if (ev_dram_wr_i)   dram_wr_q <= dram_wr_q + 32'd1;
      if (mtx_go)   begin mtx_valid_q <= 1'b0; mesh_tx_n_q <= mesh_tx_n_q + 32'd1; end
      if (mrx_take) mrx_valid_q <= 1'b1;
      if (rxq_push) mesh_rx_n_q <= mesh_rx_n_q + 32'd1;   // taken off the mesh
      if (tx_go)        tx_valid_q <= 1'b0;
      if (uart_rx_take) rx_valid_q <= 1'b1;
      sim_exit_valid_o <= 1'b0;
      mbox_valid_o     <= 1'b0;
      if (sel_i && gnt_o && we_i && narrow && off == ktpu_pkg::MMIO_SIM_EXIT_OFFSET) begin
        sim_exit_valid_o <= 1'b1;
        sim_exit_be_o    <= be_i;
      end
      // a read pops only the byte it returns: a poll of the empty register
      // in the cycle a byte arrives must not drop that byte
      if (rd && off == ktpu_pkg::MMIO_UART_RX_OFFSET && rx_valid_q) rx_valid_q <= 1'b0;
      if (wr) begin
        unique case (off)
          ktpu_pkg::MMIO_UART_TX_OFFSET:      tx_valid_q <= 1'b1;
          ktpu_pkg::MMIO_SIM_EXIT_OFFSET: begin
            sim_exit_valid_o <= wdata_i[ktpu_pkg::SIM_EXIT_DONE_LSB];
            sim_exit_be_o    <= 4'hF;
          end
          ktpu_pkg::MMIO_MBOX_CMD_OFFSET:     mbox_valid_o <= 1'b1;
          ktpu_pkg::MMIO_MESH_TX_SEND_OFFSET: mtx_valid_q <= 1'b1;
          ktpu_pkg::MMIO_MESH_RX_POP_OFFSET:  if (mrx_valid_q) mrx_valid_q <= 1'b0;   // as UART_RX
          ktpu_pkg::MMIO_MTIME_LO_OFFSET: begin mtime_q[31:0] <= wdata_i; mtime_lo_ones_q <= &wdata_i; end
          ktpu_pkg::MMIO_MTIME_HI_OFFSET:     mtime_q[63:32] <= wdata_i;
          ktpu_pkg::MMIO_MTIMECMP_LO_OFFSET:  mtimecmp_q[31:0] <= wdata_i;
          ktpu_pkg::MMIO_MTIMECMP_HI_OFFSET:  mtimecmp_q[63:32] <= wdata_i;
          ktpu_pkg::MMIO_MBOX_ARG0_OFFSET:    arg0_q <= wdata_i;
          ktpu_pkg::MMIO_MBOX_ARG1_OFFSET:    arg1_q <= wdata_i;
          ktpu_pkg::MMIO_MESH_IRQ_EN_OFFSET:  mirq_en_q <= wdata_i[0];
          default: ;
        endcase
      end
    end
  end

  // Data registers: no reset needed (each is written before its valid is set).
  always_ff @(posedge clk_i) begin
    if (wr && off == ktpu_pkg::MMIO_UART_TX_OFFSET) tx_data_q <= wdata_i[7:0];
    if (wr && off == ktpu_pkg::MMIO_SIM_EXIT_OFFSET) sim_exit_code_o <= wdata_i[31:1];
    if (wr && off == ktpu_pkg::MMIO_MBOX_CMD_OFFSET) mbox_cmd_o <= wdata_i;
    if (uart_rx_take) rx_data_q <= uart_rx_data_i;
    if (mrx_take) begin
      mrx_w[0] <= rxq_flit[287:256];
      for (int n = 1; n < 9; n++) mrx_w[n] <= rxq_flit[32*n-32 +: 32];
    end
    for (int n = 0; n < 9; n++) if (wr && mtx_hit[n]) mtx_w[n] <= wdata_i;
  end

  assign irq_ext_o       = mrx_valid_q && mirq_en_q;
  assign mtime_o         = mtime_q;
  assign uart_tx_valid_o = tx_valid_q;
  assign uart_tx_data_o  = tx_data_q;
  assign uart_rx_ready_o = !rx_valid_q;
  assign mbox_arg0_o     = arg0_q;
  assign mbox_arg1_o     = arg1_q;
  assign mesh_tx_valid_o = mtx_valid_q;
  assign mesh_tx_flit_o  = mtx_flit;
  assign mesh_rx_ready_o = !rxq_full;

`ifndef SYNTHESIS
  // the wrap register is the AND it stands for, in every cycle out of reset
  always_ff @(posedge clk_i)
    if (!rst_i) assert (mtime_lo_ones_q == &mtime_q[31:0])
      else $error("ktpu_soc_mmio: mtime's wrap register %0b, low half %08x", mtime_lo_ones_q, mtime_q[31:0]);
`endif
endmodule

`default_nettype wire
