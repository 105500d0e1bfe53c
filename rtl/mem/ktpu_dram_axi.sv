// ktpu_dram_axi: an AXI4 slave port in front of a memory that speaks the
// SoC's native DRAM protocol (rtl/mem/ktpu_dram.sv's header): the DRAM
// model in simulation, ktpu_fpga_dram's block RAM on the board. It is what
// a memory controller's AXI port looks like to ktpu_axi_bridge.
//
// One read and one write burst are held at a time; each is cut into beats
// (INCR, AxSIZE 5) on two native ports of the memory, one for reads and one
// for writes, so R and B are independent as AXI requires: a slow RREADY
// never holds a B back. The memory's latency (the model's 64 cycles) and its
// one beat a cycle per native port are what the bridge sees; with reads and
// writes on separate native ports a read accepted in the same cycle as a
// write to the same beat does not see it, which AXI allows and the bridge's
// ordering rule never lets happen. The burst's last beat is marked in the
// native tag, so the last write's ack is the B and the last read is RLAST.
//
// stall_i: {ar, aw, w, r, b}, bench back-pressure (0 in both tops): a
// ready held low, or a valid not raised; once raised a valid is held.
`default_nettype none

module ktpu_dram_axi #(
  parameter int AddrBits = 24,        // the memory's address space
  parameter int AxiAddrBits = 32,
  parameter int IdBits = 4
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_i,
  input  wire logic [4:0]             stall_i,
  // AXI4 slave
  input  wire logic [IdBits-1:0]      awid_i,
  input  wire logic [AxiAddrBits-1:0] awaddr_i,
  input  wire logic [7:0]             awlen_i,
  input  wire logic                   awvalid_i,
  output logic                        awready_o,
  input  wire logic [255:0]           wdata_i,
  input  wire logic [31:0]            wstrb_i,
  input  wire logic                   wlast_i,
  input  wire logic                   wvalid_i,
  output logic                        wready_o,
  output logic      [IdBits-1:0]      bid_o,
  output logic      [1:0]             bresp_o,
  output logic                        bvalid_o,
  input  wire logic                   bready_i,
  input  wire logic [IdBits-1:0]      arid_i,
  input  wire logic [AxiAddrBits-1:0] araddr_i,
  input  wire logic [7:0]             arlen_i,
  input  wire logic                   arvalid_i,
  output logic                        arready_o,
  output logic      [IdBits-1:0]      rid_o,
  output logic      [255:0]           rdata_o,
  output logic      [1:0]             rresp_o,
  output logic                        rlast_o,
  output logic                        rvalid_o,
  input  wire logic                   rready_i,
  // two native ports of ktpu_dram: [0] reads, [1] writes
  output logic      [1:0]             req_valid_o,
  input  wire logic [1:0]             req_ready_i,
  output logic      [1:0]             req_write_o,
  output logic      [2*AddrBits-1:0]  req_addr_o,
  output logic      [511:0]           req_wdata_o,
  output logic      [63:0]            req_wstrb_o,
  output logic      [15:0]            req_tag_o,
  input  wire logic [1:0]             rsp_valid_i,
  output logic      [1:0]             rsp_ready_o,
  input  wire logic [511:0]           rsp_rdata_i,
  input  wire logic [15:0]            rsp_tag_i
);
  if (IdBits > 6 || AxiAddrBits < AddrBits) begin : gen_bad_params
    $error("ktpu_dram_axi: IdBits <= 6 (the native tag carries it), AxiAddrBits >= AddrBits");
  end
  logic st_ar, st_aw, st_w, st_r, st_b;
  assign {st_ar, st_aw, st_w, st_r, st_b} = stall_i;

  // ---------------------------------------------------------------- reads
  logic                rb_v_q;        // a read burst is being cut into beats
  logic [IdBits-1:0]   rb_id_q;
  logic [AddrBits-6:0] rb_beat_q;     // next beat address
  logic [7:0]          rb_left_q;     // beats after the next
  logic                rd_go;
  assign rd_go     = rb_v_q && req_ready_i[0];
  assign arready_o = !st_ar && (!rb_v_q || (rd_go && rb_left_q == 8'd0));

  always_ff @(posedge clk_i) begin
    if (rst_i) rb_v_q <= 1'b0;
    else if (arvalid_i && arready_o) begin
      rb_v_q    <= 1'b1;
      rb_id_q   <= arid_i;
      rb_beat_q <= araddr_i[AddrBits-1:5];
      rb_left_q <= arlen_i;
    end else if (rd_go) begin
      rb_v_q    <= rb_left_q != 8'd0;
      rb_beat_q <= rb_beat_q + 1'b1;
      rb_left_q <= rb_left_q - 8'd1;
    end
  end
  assign req_valid_o[0]          = rb_v_q;
  assign req_write_o[0]          = 1'b0;
  assign req_addr_o[0 +: AddrBits] = {rb_beat_q, 5'd0};
  assign req_wdata_o[0 +: 256]   = 256'd0;
  assign req_wstrb_o[0 +: 32]    = 32'd0;
  assign req_tag_o[0 +: 8]       = {1'b0, rb_left_q == 8'd0, 6'(rb_id_q)};

  logic r_held_q;   // RVALID raised and not yet taken: it may not fall
  assign rvalid_o = rsp_valid_i[0] && (r_held_q || !st_r);
  assign rdata_o  = rsp_rdata_i[0 +: 256];
  assign rid_o    = IdBits'(rsp_tag_i[5:0]);
  assign rlast_o  = rsp_tag_i[6];
  assign rresp_o  = 2'b00;
  assign rsp_ready_o[0] = rready_i && (r_held_q || !st_r);   // not from rsp_valid_i: no comb. loop

  // ---------------------------------------------------------------- writes
  logic                wb_v_q;
  logic [IdBits-1:0]   wb_id_q;
  logic [AddrBits-6:0] wb_beat_q;
  logic [7:0]          wb_left_q;
  logic                wr_go;
  assign wready_o  = wb_v_q && req_ready_i[1] && !st_w;
  assign wr_go     = wvalid_i && wready_o;
  assign awready_o = !st_aw && (!wb_v_q || (wr_go && wb_left_q == 8'd0));

  always_ff @(posedge clk_i) begin
    if (rst_i) wb_v_q <= 1'b0;
    else if (awvalid_i && awready_o) begin
      wb_v_q    <= 1'b1;
      wb_id_q   <= awid_i;
      wb_beat_q <= awaddr_i[AddrBits-1:5];
      wb_left_q <= awlen_i;
    end else if (wr_go) begin
      wb_v_q    <= wb_left_q != 8'd0;
      wb_beat_q <= wb_beat_q + 1'b1;
      wb_left_q <= wb_left_q - 8'd1;
    end
  end
  assign req_valid_o[1]        = wb_v_q && wvalid_i && !st_w;
  assign req_write_o[1]        = 1'b1;
  assign req_addr_o[AddrBits +: AddrBits] = {wb_beat_q, 5'd0};
  assign req_wdata_o[256 +: 256] = wdata_i;
  assign req_wstrb_o[32 +: 32]  = wstrb_i;
  assign req_tag_o[8 +: 8]      = {1'b1, wb_left_q == 8'd0, 6'(wb_id_q)};

  // the last beat's ack is the B; the others are dropped
  logic b_held_q;
  logic b_last;
  assign b_last   = rsp_tag_i[14];
  assign bvalid_o = rsp_valid_i[1] && b_last && (b_held_q || !st_b);
  assign bid_o    = IdBits'(rsp_tag_i[13:8]);
  assign bresp_o  = 2'b00;
  assign rsp_ready_o[1] = !b_last || (bready_i && (b_held_q || !st_b));

  always_ff @(posedge clk_i) begin
    r_held_q <= !rst_i && rvalid_o && !rready_i;
    b_held_q <= !rst_i && bvalid_o && !bready_i;
  end

`ifndef SYNTHESIS
  // WLAST must mark the burst's last beat (the checker says so too; here the
  // model would otherwise start the next burst with this one's data)
  always_ff @(posedge clk_i) begin
    if (!rst_i && wr_go && wlast_i != (wb_left_q == 8'd0))
      $fatal(1, "ktpu_dram_axi: WLAST %0d with %0d beats left in the burst", wlast_i, wb_left_q);
  end
`endif

  logic unused;
  assign unused = ^{awaddr_i, araddr_i, rsp_tag_i[7], rsp_tag_i[15], rsp_rdata_i[511:256]};
endmodule

`default_nettype wire
