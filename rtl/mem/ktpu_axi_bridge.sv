// ktpu_axi_bridge: one SoC DRAM port (the native beat protocol of
// rtl/mem/ktpu_dram.sv's header) as an AXI4 master, for a memory controller
// to attach to (docs/soc.md, "DRAM over AXI4"). Synthesisable.
//
// - Requests are 32-byte beats; consecutive beats of one direction that
//   follow each other in address (no gap cycle, same 4 KiB page, at most
//   MaxBurst) become one INCR burst of AxSIZE 5 (256-bit data). A burst
//   closes when the next request does not extend it, or in the first cycle
//   without a request, so a lone beat waits one cycle.
// - Every burst carries the one ID `Id`, so AXI keeps reads in order and
//   writes in order; the bridge returns the native responses in acceptance
//   order across both, as the native contract says (a write's response, its
//   ack, leaves after the burst's BRESP).
// - The native contract also says a read sees every write accepted before it
//   and none after. AXI orders neither across the read and write channels, so
//   bursts are issued in acceptance order and a burst is held while one of
//   the other direction is in flight in its 4 KiB page (a read until the
//   write's B, a write until the read's last beat). Other pages pass freely,
//   so reads keep streaming under write-backs.
// - RREADY and BREADY are always high: a read burst is issued only when the
//   read-data FIFO has room for all of it, so the slave's R channel never
//   waits on the native side (and B never waits behind R).
// - W beats are offered as soon as their burst has closed, without waiting
//   for AWREADY (AXI4's dependency rules).
// - A response other than OKAY, or an unexpected ID, is counted in
//   axi_err_o (saturating); the native side has no error path, the harness
//   reports the count.
`default_nettype none

module ktpu_axi_bridge #(
  parameter int AddrBits = 24,       // native byte address width
  parameter int AxiAddrBits = 32,
  parameter int IdBits   = 4,
  parameter int unsigned Id = 0,
  parameter int MaxBurst = 16,       // beats, a power of two, 2..128
  parameter int RdDepth  = 128,      // read-data FIFO (beats): reads in flight
  parameter int WrDepth  = 32,       // write-data FIFO (beats)
  parameter int TagDepth = 256,      // native requests accepted, not answered
  parameter int Flight   = 128,      // bursts in flight per direction (power of two)
  parameter int PageSlots = 64       // 4 KiB pages with bursts in flight, per direction
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_i,
  // native side (a slave port, as ktpu_dram's)
  input  wire logic                   req_valid_i,
  output logic                        req_ready_o,
  input  wire logic                   req_write_i,
  input  wire logic [AddrBits-1:0]    req_addr_i,
  input  wire logic [255:0]           req_wdata_i,
  input  wire logic [31:0]            req_wstrb_i,
  input  wire logic [7:0]             req_tag_i,
  output logic                        rsp_valid_o,
  input  wire logic                   rsp_ready_i,
  output logic      [255:0]           rsp_rdata_o,
  output logic      [7:0]             rsp_tag_o,
  // AXI4 master
  output logic      [IdBits-1:0]      awid_o,
  output logic      [AxiAddrBits-1:0] awaddr_o,
  output logic      [7:0]             awlen_o,
  output logic      [2:0]             awsize_o,
  output logic      [1:0]             awburst_o,
  output logic      [3:0]             awcache_o,
  output logic      [2:0]             awprot_o,
  output logic                        awvalid_o,
  input  wire logic                   awready_i,
  output logic      [255:0]           wdata_o,
  output logic      [31:0]            wstrb_o,
  output logic                        wlast_o,
  output logic                        wvalid_o,
  input  wire logic                   wready_i,
  input  wire logic [IdBits-1:0]      bid_i,
  input  wire logic [1:0]             bresp_i,
  input  wire logic                   bvalid_i,
  output logic                        bready_o,
  output logic      [IdBits-1:0]      arid_o,
  output logic      [AxiAddrBits-1:0] araddr_o,
  output logic      [7:0]             arlen_o,
  output logic      [2:0]             arsize_o,
  output logic      [1:0]             arburst_o,
  output logic      [3:0]             arcache_o,
  output logic      [2:0]             arprot_o,
  output logic                        arvalid_o,
  input  wire logic                   arready_i,
  input  wire logic [IdBits-1:0]      rid_i,
  input  wire logic [255:0]           rdata_i,
  input  wire logic [1:0]             rresp_i,
  input  wire logic                   rlast_i,
  input  wire logic                   rvalid_i,
  output logic                        rready_o,
  // health
  output logic      [15:0]            axi_err_o,
  output logic                        idle_o     // nothing accepted is unanswered
);
  localparam int BA = AddrBits - 5;          // beat address bits
  localparam int LB = $clog2(MaxBurst);      // burst length - 1 fits in LB bits
  localparam int BqDepth = 4;                // closed bursts not yet issued
  localparam int OrdDepth = 2 * Flight;      // issued bursts not yet answered

  if (AddrBits < 12 || AddrBits > AxiAddrBits || MaxBurst < 2 || MaxBurst > 128 ||
      (1 << LB) != MaxBurst || RdDepth < MaxBurst || WrDepth < MaxBurst ||
      Id >= (1 << IdBits) || (1 << $clog2(Flight)) != Flight || PageSlots < 2) begin : gen_bad_params
    $error("ktpu_axi_bridge: need 12 <= AddrBits <= AxiAddrBits, MaxBurst a power of two in 2..128 no larger than RdDepth and WrDepth, Id < 2^IdBits, Flight a power of two, PageSlots >= 2");
  end

  typedef struct packed {
    logic          w;
    logic [BA-1:0] beat;
    logic [LB-1:0] len;   // beats - 1
  } burst_t;

  // ---------------------------------------------------------------- accept
  logic tag_full, tag_empty, wd_full, wd_empty, rd_empty, rd_full, ord_full, ord_empty;
  logic [$clog2(TagDepth+1)-1:0] tag_cnt;   // the FIFOs' counts are not needed: full/empty are
  logic [$clog2(WrDepth+1)-1:0]  wd_cnt;
  logic [$clog2(RdDepth+1)-1:0]  rd_cnt;
  logic [$clog2(OrdDepth+1)-1:0] ord_cnt;
  logic [2:0] bq_cnt_q;
  // The open burst holds a burst-queue slot: it is closed into the queue
  // on an idle cycle as well, which must always find room. bq_held_q counts
  // both (queued + open) in a register of its own, so ready is no sum.
  logic ob_v_q;
  logic [2:0] bq_held_q;
  assign req_ready_o = !tag_full && !wd_full && bq_held_q != 3'(BqDepth);
  logic acc;
  assign acc = req_valid_i && req_ready_o;

  // the open burst: what consecutive requests are still extending, and the
  // beat that would extend it (ob_q.beat + len + 1, kept in a register of
  // its own: the request meets a compare, not a sum)
  burst_t ob_q;
  logic [BA-1:0] ob_next_q;
  logic [BA-1:0] req_beat;
  assign req_beat = req_addr_i[AddrBits-1:5];
  logic extend, close;
  assign extend = acc && ob_v_q && ob_q.w == req_write_i && ob_q.len != LB'(MaxBurst - 1) &&
                  req_beat == ob_next_q && req_beat[6:0] != 7'd0;
  assign close  = ob_v_q && !extend;   // pushed into the burst queue this cycle

  always_ff @(posedge clk_i) begin
    if (rst_i) ob_v_q <= 1'b0;
    else if (acc) ob_v_q <= 1'b1;
    else if (close) ob_v_q <= 1'b0;
    if (extend) ob_q.len <= ob_q.len + LB'(1);
    else if (acc) ob_q <= {req_write_i, req_beat, LB'(0)};   // {w, beat, len}
    if (acc) ob_next_q <= req_beat + BA'(1);   // extending or opening: the beat after this one
  end

  ktpu_fifo #(.Width(8), .Depth(TagDepth), .Primitive("block"), .Name("axi_bridge tags")) u_tags (
    .clk_i, .rst_ni(!rst_i), .push_i(acc), .wdata_i(req_tag_i), .pop_i(rsp_valid_o && rsp_ready_i),
    .rdata_o(rsp_tag_o), .empty_o(tag_empty), .full_o(tag_full), .count_o(tag_cnt));

  logic [287:0] wd_head;
  logic         w_go;
  ktpu_fifo #(.Width(288), .Depth(WrDepth), .Primitive("distributed"), .Name("axi_bridge wdata")) u_wdata (
    .clk_i, .rst_ni(!rst_i), .push_i(acc && req_write_i), .wdata_i({req_wstrb_i, req_wdata_i}),
    .pop_i(w_go), .rdata_o(wd_head), .empty_o(wd_empty), .full_o(wd_full), .count_o(wd_cnt));

  // ---------------------------------------------------------------- burst queue (registers)
  burst_t bq_q [BqDepth];
  logic [1:0] bq_head_q, bq_tail_q;
  burst_t head;
  assign head = bq_q[bq_head_q];
  logic issue;   // the head burst leaves on AR or AW this cycle

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      bq_head_q <= '0; bq_tail_q <= '0; bq_cnt_q <= '0; bq_held_q <= '0;
    end else begin
      if (close) bq_tail_q <= bq_tail_q + 2'd1;
      if (issue) bq_head_q <= bq_head_q + 2'd1;
      bq_cnt_q <= bq_cnt_q + 3'(close) - 3'(issue);
      // a request that does not extend opens a burst; closing moves one
      // from open to queued
      bq_held_q <= bq_held_q + 3'(acc && !extend) - 3'(issue);
    end
    // a constant index per entry: Yosys 0.23 puts 32-bit index arithmetic in
    // front of a write at a variable index (docs/timing.md)
    for (int i = 0; i < BqDepth; i++) if (close && bq_tail_q == 2'(i)) bq_q[i] <= ob_q;
  end
`ifndef SYNTHESIS
  always_ff @(posedge clk_i)
    if (!rst_i) assert (bq_held_q == bq_cnt_q + 3'(ob_v_q))
      else $error("ktpu_axi_bridge: %0d bursts held, %0d queued and %0d open", bq_held_q, bq_cnt_q, ob_v_q);
`endif

  // ---------------------------------------------------------------- bursts in flight
  // The read/write ordering rule is kept at 4 KiB page granularity (a burst
  // never crosses a page): per direction, a table of the pages that have
  // bursts in flight, with a count each. A burst waits while the other
  // direction's table holds its page, and while its own table is full and
  // does not hold it. Each issued burst's table slot is queued (bursts of
  // one direction complete in issue order: one ID), so its RLAST or B
  // finds the slot to count down. Exact per page, so a false wait needs a
  // read and a write in flight in one page at once; a few compares of page
  // numbers instead of range compares against every burst in flight, which
  // is what lets Flight bursts be in flight (single-beat bursts at the
  // DRAM's latency need dozens).
  localparam int PB = AddrBits - 12;           // page number bits
  localparam int SW = $clog2(PageSlots);
  localparam int FW = $clog2(Flight + 1);

  // read pages and write pages (flip-flops); a count of 0 is a free slot
  logic [PB-1:0] rp_page_q [PageSlots], wp_page_q [PageSlots];
  logic [FW-1:0] rp_cnt_q [PageSlots], wp_cnt_q [PageSlots];

  logic [PB-1:0] head_page;
  assign head_page = head.beat[BA-1:7];
  logic [PageSlots-1:0] r_hit, w_hit;
  logic r_any_hit, w_any_hit, r_have_free, w_have_free;
  logic [SW-1:0] r_hit_i, w_hit_i, r_free_i, w_free_i, r_slot, w_slot;
  always_comb begin
    r_any_hit = 1'b0; w_any_hit = 1'b0; r_have_free = 1'b0; w_have_free = 1'b0;
    r_hit_i = '0; w_hit_i = '0; r_free_i = '0; w_free_i = '0;
    for (int i = 0; i < PageSlots; i++) begin
      r_hit[i] = rp_cnt_q[i] != '0 && rp_page_q[i] == head_page;
      w_hit[i] = wp_cnt_q[i] != '0 && wp_page_q[i] == head_page;
      if (r_hit[i]) begin r_any_hit = 1'b1; r_hit_i = SW'(i); end
      if (w_hit[i]) begin w_any_hit = 1'b1; w_hit_i = SW'(i); end
      if (rp_cnt_q[i] == '0 && !r_have_free) begin r_have_free = 1'b1; r_free_i = SW'(i); end
      if (wp_cnt_q[i] == '0 && !w_have_free) begin w_have_free = 1'b1; w_free_i = SW'(i); end
    end
  end
  assign r_slot = r_any_hit ? r_hit_i : r_free_i;
  assign w_slot = w_any_hit ? w_hit_i : w_free_i;

  logic hazard;
  assign hazard = head.w ? r_any_hit : w_any_hit;

  // the slot of each burst in flight, in issue order
  logic [SW-1:0] rs_head, ws_head;
  logic rs_empty, rs_full, ws_empty, ws_full;
  logic [$clog2(Flight+1)-1:0] rs_cnt, ws_cnt;
  logic ar_go, aw_go, r_end, b_go;
  ktpu_fifo #(.Width(SW), .Depth(Flight), .Primitive("distributed"), .Name("axi_bridge read slots")) u_rslots (
    .clk_i, .rst_ni(!rst_i), .push_i(ar_go), .wdata_i(r_slot), .pop_i(r_end),
    .rdata_o(rs_head), .empty_o(rs_empty), .full_o(rs_full), .count_o(rs_cnt));
  ktpu_fifo #(.Width(SW), .Depth(Flight), .Primitive("distributed"), .Name("axi_bridge write slots")) u_wslots (
    .clk_i, .rst_ni(!rst_i), .push_i(aw_go), .wdata_i(w_slot), .pop_i(b_go),
    .rdata_o(ws_head), .empty_o(ws_empty), .full_o(ws_full), .count_o(ws_cnt));

  always_ff @(posedge clk_i) begin
    for (int i = 0; i < PageSlots; i++) begin
      if (rst_i) begin
        rp_cnt_q[i] <= '0;
        wp_cnt_q[i] <= '0;
      end else begin
        rp_cnt_q[i] <= rp_cnt_q[i] + FW'(ar_go && r_slot == SW'(i)) - FW'(r_end && rs_head == SW'(i));
        wp_cnt_q[i] <= wp_cnt_q[i] + FW'(aw_go && w_slot == SW'(i)) - FW'(b_go && ws_head == SW'(i));
      end
      if (ar_go && r_slot == SW'(i)) rp_page_q[i] <= head_page;
      if (aw_go && w_slot == SW'(i)) wp_page_q[i] <= head_page;
    end
  end

  // room in the read-data FIFO for beats not yet issued: RdDepth less the
  // read beats issued and not yet handed to the native side (kept as the
  // room, so a burst's fit is one compare, not a sum and a compare)
  localparam int RcBits = $clog2(RdDepth + 1);
  logic [RcBits-1:0] rd_room_q;
  logic rd_fits;
  assign rd_fits = RcBits'(head.len) < rd_room_q;

  // Every condition below only becomes true with time while the head waits
  // (nothing else is issued meanwhile), so a raised AxVALID stays raised.
  logic can_issue;
  assign can_issue = bq_cnt_q != '0 && !hazard && !ord_full &&
                     (head.w ? !ws_full && (w_any_hit || w_have_free)
                             : !rs_full && (r_any_hit || r_have_free) && rd_fits);
  assign awvalid_o = can_issue && head.w;
  assign arvalid_o = can_issue && !head.w;
  assign aw_go     = awvalid_o && awready_i;
  assign ar_go     = arvalid_o && arready_i;
  assign issue     = aw_go || ar_go;

  assign awid_o    = IdBits'(Id);
  assign arid_o    = IdBits'(Id);
  assign awaddr_o  = AxiAddrBits'({head.beat, 5'd0});
  assign araddr_o  = AxiAddrBits'({head.beat, 5'd0});
  assign awlen_o   = 8'(head.len);
  assign arlen_o   = 8'(head.len);
  assign awsize_o  = 3'd5;      // 32 bytes a beat
  assign arsize_o  = 3'd5;
  assign awburst_o = 2'b01;     // INCR
  assign arburst_o = 2'b01;
  assign awcache_o = 4'b0011;   // normal, non-cacheable, bufferable
  assign arcache_o = 4'b0011;
  assign awprot_o  = 3'b000;
  assign arprot_o  = 3'b000;

  logic r_go;
  assign rready_o = 1'b1;
  assign bready_o = 1'b1;
  assign r_go  = rvalid_i;
  assign r_end = rvalid_i && rlast_i;
  assign b_go  = bvalid_i;

  // ---------------------------------------------------------------- W channel
  // Lengths of closed write bursts whose beats are not all sent. Each has at
  // least one beat still in the write-data FIFO, so WrDepth entries suffice.
  logic [LB-1:0] wl_q [WrDepth];
  localparam int WlBits = $clog2(WrDepth);
  logic [WlBits-1:0] wl_head_q, wl_tail_q;
  logic [WlBits:0]   wl_cnt_q;
  logic [LB-1:0]     w_beat_q;
  assign wvalid_o = wl_cnt_q != '0 && !wd_empty;
  assign wlast_o  = w_beat_q == wl_q[wl_head_q];
  assign {wstrb_o, wdata_o} = wd_head;
  assign w_go     = wvalid_o && wready_i;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wl_head_q <= '0; wl_tail_q <= '0; wl_cnt_q <= '0; w_beat_q <= '0;
    end else begin
      if (close && ob_q.w) begin wl_q[wl_tail_q] <= ob_q.len; wl_tail_q <= wl_tail_q + 1'b1; end
      if (w_go) begin
        w_beat_q <= wlast_o ? '0 : w_beat_q + LB'(1);
        if (wlast_o) wl_head_q <= wl_head_q + 1'b1;
      end
      wl_cnt_q <= wl_cnt_q + (WlBits+1)'(close && ob_q.w) - (WlBits+1)'(w_go && wlast_o);
    end
  end

  // ---------------------------------------------------------------- responses
  logic [255:0] rd_head;
  logic         rd_pop;
  ktpu_fifo #(.Width(256), .Depth(RdDepth), .Primitive("block"), .Name("axi_bridge rdata")) u_rdata (
    .clk_i, .rst_ni(!rst_i), .push_i(r_go), .wdata_i(rdata_i), .pop_i(rd_pop),
    .rdata_o(rd_head), .empty_o(rd_empty), .full_o(rd_full), .count_o(rd_cnt));

  // issued bursts in issue (= acceptance) order: which channel answers next
  logic [LB:0] ord_head;
  ktpu_fifo #(.Width(LB + 1), .Depth(OrdDepth), .Primitive("distributed"), .Name("axi_bridge order")) u_order (
    .clk_i, .rst_ni(!rst_i), .push_i(issue), .wdata_i({head.w, head.len}), .pop_i(rsp_valid_o && rsp_ready_i && rsp_last),
    .rdata_o(ord_head), .empty_o(ord_empty), .full_o(ord_full), .count_o(ord_cnt));

  logic          ord_w, rsp_last;
  logic [LB-1:0] rsp_beat_q;
  logic [FW-1:0] b_owed_q;   // B received, acks not yet all answered (<= Flight bursts)
  assign ord_w       = ord_head[LB];
  assign rsp_last    = rsp_beat_q == ord_head[LB-1:0];
  assign rsp_valid_o = !ord_empty && (ord_w ? b_owed_q != '0 : !rd_empty);
  assign rsp_rdata_o = ord_w ? 256'd0 : rd_head;
  assign rd_pop      = rsp_valid_o && rsp_ready_i && !ord_w;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rsp_beat_q <= '0; b_owed_q <= '0; rd_room_q <= RcBits'(RdDepth);
    end else begin
      if (rsp_valid_o && rsp_ready_i) rsp_beat_q <= rsp_last ? '0 : rsp_beat_q + LB'(1);
      b_owed_q <= b_owed_q + FW'(b_go) - FW'(rsp_valid_o && rsp_ready_i && rsp_last && ord_w);
      rd_room_q <= rd_room_q - (ar_go ? RcBits'(head.len) + RcBits'(1) : '0) + RcBits'(rd_pop);
    end
  end

  // ---------------------------------------------------------------- health
  logic bad_b, bad_r;
  assign bad_b = b_go && (bresp_i != 2'b00 || bid_i != IdBits'(Id));
  assign bad_r = r_go && (rresp_i != 2'b00 || rid_i != IdBits'(Id));
  always_ff @(posedge clk_i) begin
    if (rst_i) axi_err_o <= '0;
    else if ((bad_b || bad_r) && axi_err_o != 16'hFFFF) axi_err_o <= axi_err_o + 16'd1;
  end
  assign idle_o = tag_empty && !ob_v_q;

  // A beat or B with nothing in flight to own it is the slave's bug; the
  // counters above would wrap, so stop instead.
`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (!rst_i && r_go && (rs_empty || rd_full))
      $fatal(1, "ktpu_axi_bridge: R beat with no read burst in flight");
    if (!rst_i && b_go && ws_empty)
      $fatal(1, "ktpu_axi_bridge: B with no write burst in flight");
    if (!rst_i && rsp_valid_o && tag_empty)
      $fatal(1, "ktpu_axi_bridge: response with no tag");
  end
`endif

  logic unused;
  assign unused = ^{req_addr_i[4:0], tag_cnt, wd_cnt, rd_cnt, ord_cnt, rs_cnt, ws_cnt};
endmodule

`default_nettype wire
