// ktpu_soc_seq: the sequencer half of the SoC (SPEC §2, §9): ktpu_cpu, its
// 128 KiB local RAM at 0, the register block at MMIO_BASE, a window onto
// accelerator DRAM at DRAM_BASE and the CPU's mesh port. ktpu_soc puts it on
// the mesh beside the memory agent and the clusters. The DRAM itself is
// outside (ktpu_dram in simulation, a memory controller on an FPGA); this
// module drives one DRAM port. It is also the SoC's synthesis block: the
// clusters, routers and agent are reported as their own blocks.
//
// Local RAM: the CPU needs a fetch read and a data read in the same cycle,
// and the RAM wrapper is simple dual port (one write, one read) without byte
// enables. So the RAM is kept twice, a fetch copy and a data copy, each as
// four byte-lane ktpu_ram instances; every store writes both copies. A store
// therefore reaches the fetch copy in the cycle it is granted, which is what
// makes fence.i a no-op (docs/cpu.md).
//
// DRAM window: a CPU store is posted (one write beat with the word's byte
// strobes); a load issues a read beat and waits for it. The port answers in
// order, so a load after a store sees the store. The acks are counted: an
// MMIO store waits until every posted DRAM store is acknowledged, because
// an MMIO store is how the CPU tells another master (a cluster, the memory
// agent through the mesh, the harness through the mailbox or SIM_EXIT) to
// read what it wrote, and that master reaches DRAM by another path (another
// AXI port, the backdoor) that does not order behind this one.
// The last beat read is kept (a one-beat line buffer, flip-flops), and a read
// that misses also asks for the beat after it (the next-beat buffer): a load
// of another word of either is answered from it the next cycle, so a job
// block is read at one DRAM latency for 16 words instead of one per word.
// Each word is served from them once per read of its beat (reading a word
// again reads the DRAM: a loop polling a DRAM word sees another master's
// write); the next read that misses drops both, and any MMIO access, any
// store outside local RAM and any fence drop them (whatever told the program
// that another master wrote DRAM, a completion or a mailbox answer, came
// through one of those). Two loads of different beats may so be answered
// from reads made in the other order, which RISC-V's memory model allows
// (RVWMO); a fence orders them.
//
// Mesh: the mesh_* ports are the CPU's one flit channel each way; ktpu_soc
// connects them to the two planes. MeshW, MeshH and Kinds describe the mesh
// the port is on; they are only read back through SOC_MESH / SOC_KINDS*.
`default_nettype none

module ktpu_soc_seq #(
  parameter int DramAddrBits = 24,
  parameter int MeshW = ktpu_pkg::MESH_W,
  parameter int MeshH = ktpu_pkg::MESH_H,
  parameter logic [63:0] Kinds = 64'h3321,   // NODE_* of node y*MeshW + x, 4 bits each
  parameter int UartClksPerBit = ktpu_pkg::UART_SIM_CLKS_PER_BIT,   // clock / baud
  parameter int unsigned BootWait = ktpu_pkg::BOOT_WAIT_SIM,        // cycles (MMIO BOOT_WAIT)
  parameter RamPrimitive = "block",  // untyped, as ktpu_ram expects
  // "" (the loader port fills local RAM) or the path prefix P of its initial
  // contents, byte lane l of each word in P<l>.mem (build/ktpu-mem writes them)
  parameter RamInit = ""
) (
  input  wire logic                    clk_i,
  input  wire logic                    rst_i,
  // loader port: writes local RAM (both copies) directly, for a harness or a
  // boot loader while the CPU is held in reset
  input  wire logic                    ld_valid_i,
  input  wire logic [31:0]             ld_addr_i,
  input  wire logic [3:0]              ld_be_i,
  input  wire logic [31:0]             ld_data_i,
  // the serial port (8N1, ktpu_uart): transmit and receive lines, and
  // request-to-send (high while the receiver can take a byte)
  output logic                         uart_txd_o,
  input  wire logic                    uart_rxd_i,
  output logic                         uart_rts_o,
  // simulation control (harmless registers on an FPGA)
  output logic                         sim_exit_valid_o,
  output logic [30:0]                  sim_exit_code_o,
  output logic [3:0]                   sim_exit_be_o,
  output logic                         mbox_valid_o,
  output logic [31:0]                  mbox_cmd_o,
  output logic [31:0]                  mbox_arg0_o,
  output logic [31:0]                  mbox_arg1_o,
  input  wire logic [31:0]             mbox_resp_i,
  // the memory agent's address window (read back through MEM_WIN_*)
  input  wire logic [31:0]             win_base_i,
  input  wire logic [31:0]             win_limit_i,
  // the CPU's mesh port
  output logic                         mesh_tx_valid_o,
  output logic [287:0]                 mesh_tx_flit_o,
  input  wire logic                    mesh_tx_ready_i,
  input  wire logic                    mesh_rx_valid_i,
  input  wire logic [287:0]            mesh_rx_flit_i,
  output logic                         mesh_rx_ready_o,
  // one ktpu_dram port (see docs/soc.md for the protocol)
  output logic                         dram_req_valid_o,
  input  wire logic                    dram_req_ready_i,
  output logic                         dram_req_write_o,
  output logic [DramAddrBits-1:0]      dram_req_addr_o,
  output logic [255:0]                 dram_req_wdata_o,
  output logic [31:0]                  dram_req_wstrb_o,
  output logic [7:0]                   dram_req_tag_o,
  input  wire logic                    dram_rsp_valid_i,
  output logic                         dram_rsp_ready_o,
  input  wire logic [255:0]            dram_rsp_rdata_i,
  input  wire logic [7:0]              dram_rsp_tag_i
);
  localparam int unsigned RamBytes = ktpu_pkg::RAM_BYTES;
  localparam int unsigned RamBase  = ktpu_pkg::RAM_BASE;
  localparam logic [31:0] MmioBase = ktpu_pkg::MMIO_BASE;
  localparam logic [31:0] DramBase = ktpu_pkg::DRAM_BASE;
  localparam int RamWords = RamBytes / 4;
  localparam int RamAw    = $clog2(RamWords);
  localparam logic [7:0] TagWrite = 8'h00, TagRead = 8'h01, TagNext = 8'h02;

  if (DramAddrBits < 6 || DramAddrBits > 28) begin : gen_bad_dram
    $error("ktpu_soc: DramAddrBits must be 6..28");
  end

  // ---------------------------------------------------------------- CPU
  logic        imem_re;
  logic [31:0] imem_addr, imem_rdata;
  logic        d_req, d_we, d_gnt, d_err, d_rvalid;
  logic [31:0] d_addr, d_wdata, d_rdata;
  logic [3:0]  d_be;
  logic        irq_timer, irq_ext;
  logic [63:0] mtime;
  logic        d_fence;

  logic        l_re, l_we;
  logic [31:0] l_raddr, l_waddr, l_wdata, l_rdata;
  logic [3:0]  l_be;

  ktpu_cpu #(.ResetPc(RamBase), .IMemBytes(RamBytes)) u_cpu (
    .clk_i, .rst_i,
    .imem_re_o    (imem_re),
    .imem_addr_o  (imem_addr),
    .imem_rdata_i (imem_rdata),
    .lmem_re_o    (l_re),
    .lmem_raddr_o (l_raddr),
    .lmem_we_o    (l_we),
    .lmem_waddr_o (l_waddr),
    .lmem_be_o    (l_be),
    .lmem_wdata_o (l_wdata),
    .lmem_rdata_i (l_rdata),
    .dbus_req_o   (d_req),
    .dbus_we_o    (d_we),
    .dbus_addr_o  (d_addr),
    .dbus_be_o    (d_be),
    .dbus_wdata_o (d_wdata),
    .dbus_gnt_i   (d_gnt),
    .dbus_err_i   (d_err),
    .dbus_rvalid_i(d_rvalid),
    .dbus_rdata_i (d_rdata),
    .irq_timer_i  (irq_timer),
    .irq_ext_i    (irq_ext),
    .mtime_i      (mtime),
    .fence_o      (d_fence)
  );

  // ---------------------------------------------------------------- decode
  // The data bus carries everything but local RAM, which the CPU reaches
  // through its own port (lmem_*).
  logic sel_mmio, sel_dram;
  assign sel_mmio = d_addr[31:12] == MmioBase[31:12];
  assign sel_dram = d_addr[31:DramAddrBits] == DramBase[31:DramAddrBits];

  // ---------------------------------------------------------------- RAM
  logic [31:0] ram_wdata;
  logic        ram_we;
  logic [3:0]  ram_be;
  logic [RamAw-1:0] ram_waddr;
  always_comb begin
    if (ld_valid_i) begin
      ram_we = 1'b1; ram_be = ld_be_i; ram_waddr = ld_addr_i[RamAw+1:2]; ram_wdata = ld_data_i;
    end else begin
      ram_we = l_we; ram_be = l_be; ram_waddr = l_waddr[RamAw+1:2]; ram_wdata = l_wdata;
    end
  end
  for (genvar l = 0; l < 4; l++) begin : gen_lane
    // both copies start from the lane's file
    localparam LaneInit = RamInit == "" ? "" :
                          {RamInit, l == 0 ? "0.mem" : l == 1 ? "1.mem" : l == 2 ? "2.mem" : "3.mem"};
    ktpu_ram #(.Width(8), .Depth(RamWords), .ReadLatency(1), .Primitive(RamPrimitive),
               .InitFile(LaneInit)) u_fetch (
      .clk_i,
      .we_i   (ram_we && ram_be[l]),
      .waddr_i(ram_waddr),
      .wdata_i(ram_wdata[8*l +: 8]),
      .re_i   (imem_re),
      .raddr_i(imem_addr[RamAw+1:2]),
      .rdata_o(imem_rdata[8*l +: 8])
    );
    ktpu_ram #(.Width(8), .Depth(RamWords), .ReadLatency(1), .Primitive(RamPrimitive),
               .InitFile(LaneInit)) u_data (
      .clk_i,
      .we_i   (ram_we && ram_be[l]),
      .waddr_i(ram_waddr),
      .wdata_i(ram_wdata[8*l +: 8]),
      .re_i   (l_re),
      .raddr_i(l_raddr[RamAw+1:2]),
      .rdata_o(l_rdata[8*l +: 8])
    );
  end

  // ---------------------------------------------------------------- MMIO
  logic        mmio_gnt, mmio_err, mmio_rvalid;
  logic [31:0] mmio_rdata;
  logic        dram_rd_busy_q, dram_answer_q;   // a DRAM-window read in flight; its answer this cycle
  logic        utx_v, utx_r, urx_v, urx_r;
  logic [7:0]  utx_d, urx_d;
  logic [15:0] uart_ferr, uart_ovr;

  ktpu_uart #(.ClksPerBit(UartClksPerBit)) u_uart (
    .clk_i, .rst_i,
    .tx_valid_i(utx_v), .tx_data_i(utx_d), .tx_ready_o(utx_r),
    .rx_valid_o(urx_v), .rx_data_o(urx_d), .rx_ready_i(urx_r),
    .txd_o(uart_txd_o), .rxd_i(uart_rxd_i), .rts_o(uart_rts_o),
    .frame_err_o(uart_ferr), .overrun_o(uart_ovr));

  logic mmio_hold;   // an MMIO store waits for posted DRAM stores (above)
  ktpu_soc_mmio #(.MeshW(MeshW), .MeshH(MeshH), .Kinds(Kinds), .BootWait(BootWait)) u_mmio (
    .clk_i, .rst_i,
    .sel_i          (d_req && sel_mmio && !mmio_hold),
    .we_i           (d_we),
    .be_i           (d_be),
    .off_i          (d_addr[11:0]),
    .wdata_i        (d_wdata),
    .gnt_o          (mmio_gnt),
    .err_o          (mmio_err),
    .rvalid_o       (mmio_rvalid),
    .rdata_o        (mmio_rdata),
    .ev_cpu_stall_i ((d_req && !d_gnt) || dram_rd_busy_q || dram_answer_q),
    .ev_dram_rd_i   (dram_req_valid_o && dram_req_ready_i && !dram_req_write_o),
    .ev_dram_wr_i   (dram_req_valid_o && dram_req_ready_i && dram_req_write_o),
    .irq_timer_o    (irq_timer),
    .irq_ext_o      (irq_ext),
    .mtime_o        (mtime),
    .uart_tx_valid_o(utx_v), .uart_tx_data_o(utx_d), .uart_tx_ready_i(utx_r),
    .uart_rx_valid_i(urx_v), .uart_rx_data_i(urx_d), .uart_rx_ready_o(urx_r),
    .uart_frame_err_i(uart_ferr), .uart_overrun_i(uart_ovr),
    .win_base_i, .win_limit_i,
    .sim_exit_valid_o, .sim_exit_code_o, .sim_exit_be_o,
    .mbox_valid_o, .mbox_cmd_o, .mbox_arg0_o, .mbox_arg1_o, .mbox_resp_i,
    .mesh_tx_valid_o, .mesh_tx_flit_o, .mesh_tx_ready_i,
    .mesh_rx_valid_i, .mesh_rx_flit_i, .mesh_rx_ready_o
  );

  // ---------------------------------------------------------------- DRAM window
  localparam int BeatBits = DramAddrBits - 5;
  // Every DRAM-window read is answered from lb_word_q, a register: the word
  // is selected before it (from the line buffer on a hit, from the port's
  // beat when the read returns), not between a register and the CPU, whose
  // load data goes on through operand forwarding and the ALU into the next
  // pc (docs/timing.md: 51 levels with the select after the register). A
  // read from DRAM is answered one cycle after the beat arrives.
  logic [2:0]          dram_word_q;
  logic                lb_valid_q, lb_hit, lb_rvalid_q;
  logic [BeatBits-1:0] lb_beat_q;
  logic [7:0]          lb_served_q;   // words already answered from this read of the beat
  logic [255:0]        lb_data_q;
  logic [31:0]         lb_word_q;     // the answer to the CPU's read
  assign lb_hit = lb_valid_q && lb_beat_q == d_addr[DramAddrBits-1:5] && !lb_served_q[d_addr[4:2]] && !d_we;
  // the next-beat buffer: asked for (nb_want_q) by a read that misses, read
  // while the CPU waits for that read's own beat (the port is otherwise idle
  // then, and the beat arrives one cycle after it), kept if nothing dropped
  // it meanwhile (nb_live_q)
  logic                nb_want_q, nb_busy_q, nb_live_q, nb_valid_q, nb_hit, nb_go, nb_rvalid;
  logic [BeatBits-1:0] nb_beat_q;
  logic [7:0]          nb_served_q;
  logic [255:0]        nb_data_q;
  assign nb_hit = nb_valid_q && nb_beat_q == d_addr[DramAddrBits-1:5] && !nb_served_q[d_addr[4:2]] && !d_we;

  logic cpu_req;   // the CPU's access goes to the port (a read the buffers cannot answer, or a store)
  assign cpu_req = d_req && sel_dram && !dram_rd_busy_q && !lb_hit && !nb_hit;
  assign dram_req_valid_o = cpu_req || (nb_want_q && dram_rd_busy_q);
  assign dram_req_write_o = cpu_req && d_we;
  assign dram_req_addr_o  = cpu_req ? {d_addr[DramAddrBits-1:5], 5'd0} : {nb_beat_q, 5'd0};
  assign dram_req_wdata_o = {8{d_wdata}};
  assign dram_req_wstrb_o = 32'(d_be) << {d_addr[4:2], 2'b00};
  assign dram_req_tag_o   = !cpu_req ? TagNext : d_we ? TagWrite : TagRead;
  assign dram_rsp_ready_o = 1'b1;   // write acks are counted, the reads are awaited

  // posted stores not yet acknowledged (the port holds at most 256 requests)
  logic [8:0] wr_owed_q;
  logic       dram_wr_go, dram_wr_ack;
  assign dram_wr_go  = cpu_req && dram_req_ready_i && d_we;
  assign dram_wr_ack = dram_rsp_valid_i && dram_rsp_tag_i == TagWrite;
  assign mmio_hold   = d_we && wr_owed_q != '0;
  always_ff @(posedge clk_i) begin
    if (rst_i) wr_owed_q <= '0;
    else wr_owed_q <= wr_owed_q + 9'(dram_wr_go) - 9'(dram_wr_ack);
  end

  logic dram_rvalid, dram_rd_go, lb_drop;
  assign dram_rvalid = dram_rd_busy_q && dram_rsp_valid_i && dram_rsp_tag_i == TagRead;
  assign dram_rd_go  = cpu_req && dram_req_ready_i && !d_we;
  assign nb_go       = !cpu_req && nb_want_q && dram_rd_busy_q && dram_req_ready_i;
  assign nb_rvalid   = nb_busy_q && dram_rsp_valid_i && dram_rsp_tag_i == TagNext;
  assign lb_drop     = (d_req && (sel_mmio || d_we)) || d_fence;
  always_ff @(posedge clk_i) begin
    if (rst_i) dram_rd_busy_q <= 1'b0;
    else if (dram_rd_go) dram_rd_busy_q <= 1'b1;
    else if (dram_rvalid) dram_rd_busy_q <= 1'b0;
    if (cpu_req && dram_req_ready_i) dram_word_q <= d_addr[4:2];   // the word a read's beat answers with
    if (dram_rd_go) begin
      lb_beat_q   <= d_addr[DramAddrBits-1:5];
      lb_served_q <= 8'd1 << d_addr[4:2];
    end else if (d_req && sel_dram && lb_hit) lb_served_q[d_addr[4:2]] <= 1'b1;
    if (dram_rvalid) lb_data_q <= dram_rsp_rdata_i;
    if (dram_rvalid) lb_word_q <= dram_rsp_rdata_i[32*dram_word_q +: 32];
    else if (d_req && sel_dram && lb_hit) lb_word_q <= lb_data_q[32*d_addr[4:2] +: 32];
    else if (d_req && sel_dram && nb_hit) lb_word_q <= nb_data_q[32*d_addr[4:2] +: 32];
    // the CPU waits for its one read, so nothing drops the line while it is read
    if (rst_i || lb_drop || dram_rd_go) lb_valid_q <= 1'b0;
    else if (dram_rvalid) lb_valid_q <= 1'b1;
    lb_rvalid_q <= !rst_i && ((d_req && sel_dram && (lb_hit || nb_hit)) || dram_rvalid);
    dram_answer_q <= !rst_i && dram_rvalid;
    // the next beat: one read of it in flight at most (a miss while it is
    // in flight asks for none), dropped as the line is
    if (rst_i) nb_want_q <= 1'b0;
    else if (dram_rd_go) nb_want_q <= !nb_busy_q;
    else if (nb_go || dram_rvalid) nb_want_q <= 1'b0;   // not sent before the line's own beat came: none
    if (rst_i) nb_busy_q <= 1'b0;
    else if (nb_go) nb_busy_q <= 1'b1;
    else if (nb_rvalid) nb_busy_q <= 1'b0;
    if (dram_rd_go && !nb_busy_q) nb_beat_q <= d_addr[DramAddrBits-1:5] + 1'b1;
    if (nb_go) nb_served_q <= '0;
    else if (d_req && sel_dram && nb_hit) nb_served_q[d_addr[4:2]] <= 1'b1;
    if (nb_rvalid) nb_data_q <= dram_rsp_rdata_i;
    // a read in flight when the next miss goes is an older beat's: not kept
    if (rst_i || lb_drop || dram_rd_go) nb_live_q <= 1'b0;
    else if (nb_go) nb_live_q <= 1'b1;
    if (rst_i || lb_drop || dram_rd_go) nb_valid_q <= 1'b0;
    else if (nb_rvalid) nb_valid_q <= nb_live_q;
  end

  // ---------------------------------------------------------------- bus return
  always_comb begin
    d_gnt = 1'b1; d_err = 1'b0;
    if (sel_mmio) begin d_gnt = mmio_gnt && !mmio_hold; d_err = mmio_err && !mmio_hold; end
    else if (sel_dram) d_gnt = lb_hit || nb_hit || (dram_req_ready_i && !dram_rd_busy_q);
    else d_err = 1'b1;
  end

  // The RAM ports see only word addresses within it; fetch faults and the
  // local range are the CPU's.
  logic unused_ram_addr;
  assign unused_ram_addr = ^{imem_addr[31:RamAw+2], imem_addr[1:0], ld_addr_i[31:RamAw+2], ld_addr_i[1:0],
                             l_raddr[31:RamAw+2], l_raddr[1:0], l_waddr[31:RamAw+2], l_waddr[1:0]};
  assign d_rvalid = mmio_rvalid || lb_rvalid_q;
  assign d_rdata  = mmio_rvalid ? mmio_rdata : lb_word_q;
endmodule

`default_nettype wire
