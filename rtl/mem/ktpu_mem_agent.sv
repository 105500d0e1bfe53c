// ktpu_mem_agent: the memory agent, a mesh endpoint in front of one DRAM
// port (SPEC §8; message layouts in data/ktpu.def, design in docs/mem.md).
//
// Requests arrive on the request plane, answers leave on the response plane.
//   MEM_RD    streaming entry read: FP16 rows through ktpu_quant, or MXFP7
//             storage passed through; one MEM_DATA flit per (entry, lane),
//             tagged with both.
//   MEM_WR    write burst: descriptor + data flits, byte mask, 8-byte
//             granular addresses (a flit may straddle two DRAM beats).
//             1-D (flit i at ADDR + i*STRIDE) or 2-D (ROWS != 0: COLS columns
//             of ROWS flits, STRIDE between rows, STRIDE2 between columns).
//   MEM_QJOB  quantise-on-upload: FP16 tensor -> MXFP7 storage in DRAM.
// Every request is checked whole before anything is done: format, alignment
// and the address window [win_base_i, win_limit_i) (also capped at the DRAM
// size). A refused request is consumed and answered by one MEM_ACK with the
// status and the offending address; nothing of it reaches DRAM.
//
// Structure, in request order:
//   front end  (ktpu_mem_front) takes request flits, checks them
//              (ktpu_mem_check, 4 cycles), queues reads and jobs (iq) or
//              performs a write burst itself.
//   issuer     takes reads from iq into up to QueueDepth streams
//              (ktpu_mem_iter each) and issues DRAM reads from them, one per
//              cycle, one K block of a stream at a time in turn, as long as it
//              holds a credit for the response FIFO (rf); each beat's name
//              (requester, entry, lane, address) goes into mf.
//   responses  the in-order DRAM read data from rf, named by mf: MX beats
//              become MEM_DATA flits, FP16 beat pairs go through the
//              quantiser and become MEM_DATA flits, or, for a job, storage
//              beats written back (the write-back iterator).
//   output     one register onto the response plane, round-robin over the
//              six flit sources (MX data, quantised data, refusal, write
//              ack, job done, grouped-read refusal).
// Ordering: DRAM applies a request when it accepts it. Reads of several
// requests interleave (they change nothing); a write burst waits until every
// earlier read that overlaps it is issued (queued reads by a bound on their
// extent) and every earlier job is done, a job until every earlier read is
// issued, and it lets nothing after it issue until its write-back is
// acknowledged. So requests take effect as if in arrival order. One read's MEM_DATA leave in its
// walk order (K-block-major), which the node's streaming start relies on.
// No deadlock (docs/noc.md): DRAM responses are always accepted (rf has a
// reserved slot for every read issued; write responses are dropped), and
// consuming a request never needs the request plane; it needs only the
// response plane, which every endpoint drains unconditionally.
`default_nettype none

module ktpu_mem_agent #(
  parameter int X          = 1,    // this node's mesh coordinates (src of its answers)
  parameter int Y          = 0,
  parameter int AddrBits   = 24,   // DRAM byte address bits
  parameter int RspDepth   = 128,  // read beats in flight + buffered (>= latency + a few)
  parameter int QueueDepth = ktpu_pkg::MEM_STREAMS,  // requests queued ahead of the issuer,
                                                      // and streams in flight
  parameter int GroupWait  = ktpu_pkg::MEM_GROUP_WAIT // cycles a partial grouped read is kept
) (
  input  wire logic                clk_i,
  input  wire logic                rst_i,
  // request plane, mesh -> agent
  input  wire logic                req_valid_i,
  output logic                     req_ready_o,
  input  wire logic [287:0]        req_flit_i,
  // response plane, agent -> mesh
  output logic                     rsp_valid_o,
  input  wire logic                rsp_ready_i,
  output logic      [287:0]        rsp_flit_o,
  // one DRAM port (rtl/mem/ktpu_dram.sv contract)
  output logic                     dram_req_valid_o,
  input  wire logic                dram_req_ready_i,
  output logic                     dram_req_write_o,
  output logic      [AddrBits-1:0] dram_req_addr_o,
  output logic      [255:0]        dram_req_wdata_o,
  output logic      [31:0]         dram_req_wstrb_o,
  output logic      [7:0]          dram_req_tag_o,
  input  wire logic                dram_rsp_valid_i,
  output logic                     dram_rsp_ready_o,
  input  wire logic [255:0]        dram_rsp_rdata_i,
  input  wire logic [7:0]          dram_rsp_tag_i,
  // address window and status (saturating counters)
  input  wire logic [31:0]         win_base_i,
  input  wire logic [31:0]         win_limit_i,       // exclusive
  output logic      [31:0]         win_err_count_o,   // WINDOW refusals
  output logic      [31:0]         bad_req_count_o,   // ALIGN / BADREQ answers
  output logic      [31:0]         nonfinite_count_o, // non-finite blocks quantised
  output logic      [31:0]         nonfinite_addr_o   // address of the latest one
);

  if (ktpu_pkg::FLIT_BITS != 32'd288 || ktpu_pkg::FLIT_HDR_LSB != 32'd256 || ktpu_pkg::ENTRY_WORDS != 32'd4) begin : gen_bad_defs
    $error("ktpu_mem_agent: written for 288-bit flits and 4-lane entries");
  end
  if (AddrBits < 6 || AddrBits > 31) begin : gen_bad_addr
    $error("ktpu_mem_agent: AddrBits must be 6..31");
  end
  if (RspDepth < 4 || (1 << $clog2(RspDepth)) != RspDepth) begin : gen_bad_rsp
    $error("ktpu_mem_agent: RspDepth must be a power of two >= 4");
  end
  if (QueueDepth < 2 || (1 << $clog2(QueueDepth)) != QueueDepth) begin : gen_bad_q
    $error("ktpu_mem_agent: QueueDepth must be a power of two >= 2");
  end

  localparam logic [3:0] TyWr   = 4'(ktpu_pkg::MSG_MEM_WR);
  localparam logic [3:0] TyQj   = 4'(ktpu_pkg::MSG_MEM_QJOB);
  localparam logic [3:0] TyData = 4'(ktpu_pkg::MSG_MEM_DATA);
  localparam logic [3:0] TyAck  = 4'(ktpu_pkg::MSG_MEM_ACK);
  localparam logic [3:0] StOk   = 4'(ktpu_pkg::MEMST_OK);
  localparam logic [3:0] StNf   = 4'(ktpu_pkg::MEMST_NONFINITE);
  localparam logic [3:0] StGrp  = 4'(ktpu_pkg::MEMST_GROUP);
  localparam logic [3:0] TyRd   = 4'(ktpu_pkg::MSG_MEM_RD);
  // DRAM tags: bit 7 write, bit 6 job write-back (reads carry 0).
  localparam logic [7:0] TagRd  = 8'h00;
  localparam logic [7:0] TagWr  = 8'h80;
  localparam logic [7:0] TagWb  = 8'hC0;

  // A response-plane flit from this node.
  function automatic logic [287:0] mkflit(input logic [3:0] dx, input logic [3:0] dy,
                                          input logic [3:0] ty, input logic [7:0] txn,
                                          input logic [255:0] payload);
    mkflit = {ktpu_pkg::flit_pack(dx, dy, 4'(X), 4'(Y), ty, txn, 1'b1), payload};
  endfunction

  function automatic logic [255:0] ack_payload(input logic [3:0] code, input logic [3:0] op,
                                               input logic [31:0] addr, input logic [31:0] cnt);
    ack_payload = {160'd0, cnt, addr, 24'd0, op, code};
  endfunction

  logic        gclk;               // clk_i, stopped while the agent is asleep (clock gate, below)

  // ---- shared wires -----------------------------------------------------------
  logic        wr_clear;           // no earlier read still to issue overlaps the write burst
  logic [31:0] wr_lo, wr_hi;       // the front end's write burst's bytes [lo, hi)
  logic        fe_wr_valid;        // front end's write beat
  logic [31:0] fe_wr_addr;
  logic [255:0] fe_wr_data;
  logic [31:0] fe_wr_strb;
  logic        fe_wr_take;
  logic        wb_v_q;             // job write-back beat
  logic [31:0] wb_addr_q;
  logic [255:0] wb_data_q;
  logic        wb_take;
  logic        is_rd_valid;        // issuer's read beat
  logic [31:0] is_rd_addr;
  logic        is_rd_take;

  // ==== front end (ktpu_mem_front) and grouped reads (ktpu_mem_gather) ===============
  // Issue queue entries: {job, fp16, members - 1, members, base, stride,
  // groups, per_group, dst, dstride, total}, a member being its requester's
  // {dx, dy, txn} (one but for a grouped read; a job answers member 0);
  // write acks due: {dx, dy, txn, status, beats}.
  localparam int GN = ktpu_pkg::MEM_GROUP_MAX;
  localparam int NW = $clog2(GN);
  localparam int GW = 16 * GN;
  localparam int QW = 1 + 1 + NW + GW + 32 + 32 + 16 + 16 + 32 + 32 + 32;
  localparam int AW = 4 + 4 + 8 + 4 + 9;
  logic          iq_push, iq_pop, iq_empty, iq_full;
  logic [$clog2(QueueDepth):0] iq_count;
  logic [QW-1:0] iq_wdata, iq_head;
  logic          aq_push, aq_pop, aq_empty, aq_full;
  logic [AW-1:0] aq_wdata, aq_head;
  logic [3:0]    cur_dx, cur_dy;
  logic [7:0]    cur_txn;
  logic          q_job, q_fp16;
  logic [31:0]   q_base, q_stride, q_dst, q_dstride, q_total;
  logic [15:0]   q_groups, q_per;
  logic [3:0]    q_gid;
  logic [2:0]    q_gn;
  logic          fe_push, fe_full;
  logic          g_job, g_fp16;          // what the gather queues: a request, or a group's read
  logic [31:0]   g_base, g_stride, g_dst, g_dstride, g_total;
  logic [15:0]   g_groups, g_per;
  logic [NW-1:0] g_n1;
  logic [GW-1:0] g_members;
  logic          gref_v, gref_take, g_idle;
  logic [15:0]   gref_member;
  logic [31:0]   gref_addr;
  logic [287:0]  gref_f;
  logic [3:0]    ack_code;
  logic [8:0]    ack_beats;
  logic          ref_v, ref_take, fe_idle;
  logic [3:0]    ref_dx, ref_dy, ref_op, ref_code;
  logic [7:0]    ref_txn;
  logic [31:0]   ref_addr, win_err, bad_req;
  logic [287:0]  ref_f;
  ktpu_mem_front #(.AddrBits(AddrBits)) u_front (
    .clk_i(gclk), .rst_i,
    .req_valid_i, .req_ready_o, .req_flit_i, .win_base_i, .win_limit_i,
    .req_dx_o(cur_dx), .req_dy_o(cur_dy), .req_txn_o(cur_txn),
    .q_push_o(fe_push), .q_full_i(fe_full), .q_job_o(q_job), .q_fp16_o(q_fp16), .q_base_o(q_base),
    .q_stride_o(q_stride), .q_groups_o(q_groups), .q_per_o(q_per), .q_dst_o(q_dst),
    .q_dstride_o(q_dstride), .q_total_o(q_total), .q_gid_o(q_gid), .q_gn_o(q_gn),
    .wr_clear_i(wr_clear), .wr_lo_o(wr_lo), .wr_hi_o(wr_hi),
    .wr_valid_o(fe_wr_valid), .wr_take_i(fe_wr_take), .wr_addr_o(fe_wr_addr), .wr_data_o(fe_wr_data),
    .wr_strb_o(fe_wr_strb),
    .ack_push_o(aq_push), .ack_full_i(aq_full), .ack_code_o(ack_code), .ack_beats_o(ack_beats),
    .ref_valid_o(ref_v), .ref_take_i(ref_take), .ref_dx_o(ref_dx), .ref_dy_o(ref_dy),
    .ref_txn_o(ref_txn), .ref_op_o(ref_op), .ref_code_o(ref_code), .ref_addr_o(ref_addr),
    .idle_o(fe_idle), .win_err_count_o(win_err), .bad_req_count_o(bad_req));
  ktpu_mem_gather #(.Wait(GroupWait)) u_gather (
    .clk_i(gclk), .rst_i,
    .in_push_i(fe_push), .in_full_o(fe_full), .in_job_i(q_job), .in_fp16_i(q_fp16), .in_base_i(q_base),
    .in_stride_i(q_stride), .in_groups_i(q_groups), .in_per_i(q_per), .in_dst_i(q_dst), .in_dstride_i(q_dstride),
    .in_total_i(q_total), .in_member_i({cur_dx, cur_dy, cur_txn}), .in_gid_i(q_gid), .in_gn_i(q_gn),
    .out_push_o(iq_push), .out_full_i(iq_full), .out_job_o(g_job), .out_fp16_o(g_fp16), .out_base_o(g_base),
    .out_stride_o(g_stride), .out_groups_o(g_groups), .out_per_o(g_per), .out_dst_o(g_dst),
    .out_dstride_o(g_dstride), .out_total_o(g_total), .out_n1_o(g_n1), .out_members_o(g_members),
    .ref_valid_o(gref_v), .ref_take_i(gref_take), .ref_member_o(gref_member), .ref_addr_o(gref_addr),
    .idle_o(g_idle));
  assign iq_wdata = {g_job, g_fp16, g_n1, g_members, g_base, g_stride, g_groups, g_per, g_dst, g_dstride,
                     g_total};
  assign aq_wdata = {cur_dx, cur_dy, cur_txn, ack_code, ack_beats};
  assign ref_f  = mkflit(ref_dx, ref_dy, TyAck, ref_txn, ack_payload(ref_code, ref_op, ref_addr, 32'd0));
  assign gref_f = mkflit(gref_member[15:12], gref_member[11:8], TyAck, gref_member[7:0],
                         ack_payload(StGrp, TyRd, gref_addr, 32'd0));

  // ==== issuer ==================================================================
  // Entry reads are served as up to NStream streams at once, interleaved one
  // K block at a time (round robin; a stream walks K-block-major, see
  // ktpu_mem_iter): no request is served whole while another waits, so every
  // requester's first K block lands early (a node starts a K pass as soon as
  // its block is in, docs/node.md). A quantise job runs alone in stream 0:
  // it starts when every stream has finished issuing, and nothing after it
  // starts until its write-back is acknowledged.
  // Each beat issued pushes its name {job, fp16, members - 1, members,
  // entry, lane, half, address} into mf, in issue order: DRAM answers in
  // that order, so mf's head names rf's head.
  localparam int NStream = QueueDepth;
  localparam int SW = $clog2(NStream);
  localparam int MW = 1 + 1 + NW + GW + 16 + 2 + 1 + 32;
  logic        job_done;           // pulse: the running job is finished and answered
  logic [$clog2(RspDepth):0] credit_q;
  logic        rf_pop;
  logic        job_busy_q;         // a job is issuing or its write-back is not yet acked

  logic          iqh_job, iqh_fp16;
  logic [NW-1:0] iqh_n1;
  logic [GW-1:0] iqh_members;
  logic [31:0]   iqh_base, iqh_stride, iqh_dst, iqh_dstride, iqh_total;
  logic [15:0]   iqh_groups, iqh_per;
  assign {iqh_job, iqh_fp16, iqh_n1, iqh_members, iqh_base, iqh_stride, iqh_groups, iqh_per,
          iqh_dst, iqh_dstride, iqh_total} = iq_head;

  logic [NStream-1:0] st_act, st_load, st_last, st_blk;
  logic [31:0]        st_addr [NStream];
  logic [15:0]        st_entry [NStream];
  logic [1:0]         st_lane [NStream];
  logic [NStream-1:0] st_half;
  logic [NStream-1:0] st_fp16_q, st_job_q;
  logic [NW-1:0]      st_n1_q [NStream];
  logic [GW-1:0]      st_members_q [NStream];
  logic [31:0]        st_lo_q [NStream], st_hi_q [NStream];   // a read's bytes [lo, hi)
  logic [SW-1:0]      st_rr_q, sel, free_st;
  logic               have_free, any_act, load_rd, load_job;
  always_comb begin
    have_free = 1'b0; free_st = '0;
    for (int s = NStream - 1; s >= 0; s--)
      if (!st_act[s]) begin have_free = 1'b1; free_st = SW'(s); end
    // the first active stream at or after st_rr_q
    sel = st_rr_q;
    for (int k = NStream - 1; k >= 0; k--)
      if (st_act[SW'(st_rr_q + SW'(k))]) sel = SW'(st_rr_q + SW'(k));
  end
  assign any_act  = st_act != '0;
  assign load_rd  = !iq_empty && !iqh_job && have_free && !job_busy_q;
  assign load_job = !iq_empty && iqh_job && !any_act && !job_busy_q;
  assign iq_pop   = load_rd || load_job;
  // A write burst goes ahead of earlier reads, queued or being issued, when
  // it overlaps none of them (they see DRAM as it was either way); it waits
  // for a job, queued or running, to finish. The queued reads are checked
  // against one bound: every read pushed since iq was last empty lies in
  // [iqr_lo_q, iqr_hi_q) (iq is distributed RAM, its entries cannot all be
  // compared). So a C written while A and BT reads queue goes first unless
  // C lies between them, and a write never starves behind a busy queue.
  // "Empty" here is iq_count: an entry pushed in cycle k is at iq's head
  // (iq_empty low) only in cycle k + 2 (ktpu_fifo), and a read that waits
  // in iq for a stream must be in the bound from k + 1 on.
  logic [31:0] iqr_lo_q, iqr_hi_q;
  logic        iq_job_q;           // a job was pushed since iq was last empty
  logic        iq_none;
  assign iq_none = iq_count == '0;
  always_ff @(posedge gclk) begin
    if (rst_i || (iq_none && !iq_push)) begin
      iq_job_q <= 1'b0;
      iqr_lo_q <= '1;
      iqr_hi_q <= '0;
    end else if (iq_push) begin
      if (g_job) begin
        iq_job_q <= 1'b1;
        if (iq_none) begin iqr_lo_q <= '1; iqr_hi_q <= '0; end
      end else begin
        if (iq_none) iq_job_q <= 1'b0;
        if (iq_none || g_base < iqr_lo_q) iqr_lo_q <= g_base;
        if (iq_none || g_dst > iqr_hi_q) iqr_hi_q <= g_dst;
      end
    end
  end
  always_comb begin
    wr_clear = !job_busy_q && !iq_job_q && (iq_none || !(iqr_lo_q < wr_hi && wr_lo < iqr_hi_q));
    for (int s = 0; s < NStream; s++)
      if (st_act[s] && st_lo_q[s] < wr_hi && wr_lo < st_hi_q[s]) wr_clear = 1'b0;
  end
  assign is_rd_valid = any_act && (credit_q != '0);
  assign is_rd_addr  = st_addr[sel];

  for (genvar s = 0; s < NStream; s++) begin : gen_stream
    assign st_load[s] = (load_rd && free_st == SW'(s)) || (load_job && s == 0);
    ktpu_mem_iter u_iter (
      .clk_i(gclk), .rst_i,
      .load_i(st_load[s]), .base_i(iqh_base), .stride_i(iqh_stride), .groups_i(iqh_groups),
      .per_group_i(iqh_per), .four_lanes_i(!iqh_job), .fp16_i(iqh_fp16),
      .step_i(is_rd_take && sel == SW'(s)), .active_o(st_act[s]), .addr_o(st_addr[s]),
      .half_o(st_half[s]), .lane_o(st_lane[s]), .entry_o(st_entry[s]), .last_o(st_last[s]),
      .block_end_o(st_blk[s])
    );
    always_ff @(posedge gclk) begin
      if (st_load[s]) begin
        st_job_q[s]  <= iqh_job;
        st_fp16_q[s] <= iqh_fp16;
        st_n1_q[s]      <= iqh_n1;
        st_members_q[s] <= iqh_members;
        st_lo_q[s]   <= iqh_base;
        st_hi_q[s]   <= iqh_dst;   // a job's is never looked at: wr_clear waits for job_busy_q
      end
    end
  end

  logic          mf_push, mf_empty;
  logic [MW-1:0] mf_wdata, mf_head;
  assign mf_push  = is_rd_take;
  assign mf_wdata = {st_job_q[sel], st_fp16_q[sel], st_n1_q[sel], st_members_q[sel],
                     st_entry[sel], st_lane[sel], st_half[sel], st_addr[sel]};

  // A beat's credit comes back the cycle after it leaves rf (rf_pop_q): the
  // pop is decided by the response-plane output's arbitration, which must
  // not run on into the credit's adder (docs/timing.md); a credit a cycle
  // late is one beat of RspDepth.
  logic rf_pop_q;
  always_ff @(posedge gclk) begin
    if (rst_i) begin
      st_rr_q    <= '0;
      job_busy_q <= 1'b0;
      credit_q   <= ($clog2(RspDepth)+1)'(RspDepth);
      rf_pop_q   <= 1'b0;
    end else begin
      rf_pop_q <= rf_pop;
      // stay on a stream for one K block, then hand over
      if (is_rd_take) st_rr_q <= (st_blk[sel] || st_last[sel]) ? SW'(sel + SW'(1)) : sel;
      if (load_job) job_busy_q <= 1'b1;
      else if (job_done) job_busy_q <= 1'b0;
      credit_q <= credit_q - ($clog2(RspDepth)+1)'(is_rd_take) + ($clog2(RspDepth)+1)'(rf_pop_q);
    end
  end

  // ==== DRAM request mux ===========================================================
  // Job write-back first (it drains what the job's reads brought in), then the
  // front end's burst (only runs while the issuer is idle), then reads.
  always_comb begin
    dram_req_valid_o = 1'b0;
    dram_req_write_o = 1'b0;
    dram_req_addr_o  = is_rd_addr[AddrBits-1:0];
    dram_req_wdata_o = 256'd0;
    dram_req_wstrb_o = 32'd0;
    dram_req_tag_o   = TagRd;
    wb_take = 1'b0; fe_wr_take = 1'b0; is_rd_take = 1'b0;
    if (wb_v_q) begin
      dram_req_valid_o = 1'b1;
      dram_req_write_o = 1'b1;
      dram_req_addr_o  = wb_addr_q[AddrBits-1:0];
      dram_req_wdata_o = wb_data_q;
      dram_req_wstrb_o = 32'hFFFF_FFFF;
      dram_req_tag_o   = TagWb;
      wb_take          = dram_req_ready_i;
    end else if (fe_wr_valid) begin
      dram_req_valid_o = 1'b1;
      dram_req_write_o = 1'b1;
      dram_req_addr_o  = fe_wr_addr[AddrBits-1:0];
      dram_req_wdata_o = fe_wr_data;
      dram_req_wstrb_o = fe_wr_strb;
      dram_req_tag_o   = TagWr;
      fe_wr_take       = dram_req_ready_i;
    end else if (is_rd_valid) begin
      dram_req_valid_o = 1'b1;
      is_rd_take       = dram_req_ready_i;
    end
  end

  // ==== DRAM responses ===========================================================
  // Always accepted: read data has a credited slot in rf; write responses are
  // dropped (a burst is acknowledged when DRAM accepts it; a job's write-back
  // beats are counted).
  logic          rf_push, rf_empty, rf_full;
  logic [255:0]  rf_head;
  logic [31:0]   job_acked_q;
  logic          wack_dec;
  logic [8:0]    aqh_beats;
  assign dram_rsp_ready_o = 1'b1;
  assign rf_push = dram_rsp_valid_i && !dram_rsp_tag_i[7];
  assign aqh_beats = aq_head[8:0];

  // ==== response side =============================================================
  // rf's head is the beat mf's head names. Every MEM_DATA flit is made once
  // per member (a grouped read's, in turn; the beat or block leaves with
  // the last member's copy).
  logic          rs_step;
  logic          m_job, m_fp16, m_half;
  logic [NW-1:0] m_n1;
  logic [GW-1:0] m_members;
  logic [15:0]   m_entry;
  logic [1:0]    m_lane;
  logic [31:0]   m_addr;
  assign {m_job, m_fp16, m_n1, m_members, m_entry, m_lane, m_half, m_addr} = mf_head;

  // FP16: the first beat of a block waits here for the second.
  logic [255:0]  lo_q;
  logic [31:0]   lo_addr_q;
  // Quantiser tag: {job, members - 1, members, entry, lane, block address}.
  localparam int TW = 1 + NW + GW + 16 + 2 + 32;
  logic          qi_valid, qi_ready, qo_valid, qo_ready, qo_nf;
  logic [TW-1:0] qi_tag, qo_tag;
  logic [223:0]  qo_q;
  logic [7:0]    qo_scale;
  logic          mx_v_q, mx_take, qd_v_q, qd_take;
  logic [287:0]  mx_f_q, qd_f_q;

  assign qi_valid = !rf_empty && m_fp16 && m_half;
  assign qi_tag   = {m_job, m_n1, m_members, m_entry, m_lane, lo_addr_q};
  // MXFP7: the beat's flit for member mx_rep_q
  logic          mx_load;
  logic [NW-1:0] mx_rep_q;
  logic [15:0]   mx_mem;
  assign mx_load = !rf_empty && !m_fp16 && (!mx_v_q || mx_take);
  assign mx_mem  = m_members[16*mx_rep_q +: 16];
  always_comb begin
    rs_step = 1'b0;
    if (!rf_empty) begin
      if (!m_fp16)      rs_step = mx_load && mx_rep_q == m_n1;
      else if (!m_half) rs_step = 1'b1;
      else              rs_step = qi_ready;
    end
  end
  assign rf_pop = rs_step;

  always_ff @(posedge gclk) begin
    if (rst_i) begin
      mx_v_q   <= 1'b0;
      mx_rep_q <= '0;
    end else begin
      if (mx_load) mx_v_q <= 1'b1;
      else if (mx_take) mx_v_q <= 1'b0;
      if (mx_load) mx_rep_q <= (mx_rep_q == m_n1) ? '0 : mx_rep_q + NW'(1);
    end
  end
  always_ff @(posedge gclk) begin
    if (rs_step && m_fp16 && !m_half) begin
      lo_q      <= rf_head;
      lo_addr_q <= m_addr;
    end
    if (mx_load)
      mx_f_q <= mkflit(mx_mem[15:12], mx_mem[11:8], TyData, mx_mem[7:0],
                       {m_entry, 5'd0, 1'b0, m_lane, rf_head[231:0]});
  end

  // The quantiser's own clock: stopped while it holds no block and none
  // enters, i.e. through every MXFP7 stream (its eleven stages of 16 lanes
  // were ~6% of a 2-cluster SoC's simulation time during an MXFP7 GEMM).
  // Its outputs are only read with valid_o, and an empty pipe is ready.
  logic qclk;
  ktpu_clk_gate u_qgate (.clk_i(clk_i), .en_i(rst_i || qi_valid || q_busy), .gclk_o(qclk));
  ktpu_quant #(.TagBits(TW)) u_quant (
    .clk_i(qclk), .rst_i,
    .valid_i(qi_valid), .ready_o(qi_ready), .x_i({rf_head, lo_q}), .tag_i(qi_tag),
    .valid_o(qo_valid), .ready_i(qo_ready), .q_o(qo_q), .scale_o(qo_scale),
    .nonfinite_o(qo_nf), .tag_o(qo_tag), .busy_o(q_busy)
  );

  logic          qo_job;
  logic [NW-1:0] qo_n1;
  logic [GW-1:0] qo_members;
  logic [15:0]   qo_entry;
  logic [1:0]    qo_lane;
  logic [31:0]   qo_addr;
  assign {qo_job, qo_n1, qo_members, qo_entry, qo_lane, qo_addr} = qo_tag;
  // a quantised block's flit for member qd_rep_q; the block leaves with the last
  logic          qd_load;
  logic [NW-1:0] qd_rep_q;
  logic [15:0]   qd_mem;
  assign qd_load  = qo_valid && !qo_job && (!qd_v_q || qd_take);
  assign qd_mem   = qo_members[16*qd_rep_q +: 16];
  assign qo_ready = qo_job ? (!wb_v_q || wb_take) : ((!qd_v_q || qd_take) && qd_rep_q == qo_n1);

  // Quantise job: write-back walk, counts, answer.
  logic        job_q;            // a job's write-back is in progress
  logic [3:0]  job_dx_q, job_dy_q;
  logic [7:0]  job_txn_q;
  logic [31:0] job_total_q, job_nf_q, job_nf_addr_q;
  logic [31:0] iw_addr;
  logic        qdone_v_q, qdone_take;
  logic [287:0] qdone_f_q;
  logic        job_fin;
  assign job_fin  = job_q && (job_acked_q == job_total_q) && (!qdone_v_q || qdone_take);
  assign job_done = job_fin;

  ktpu_mem_iter u_iter_wb (
    .clk_i(gclk), .rst_i,
    .load_i(load_job), .base_i(iqh_dst), .stride_i(iqh_dstride),
    .groups_i(iqh_groups), .per_group_i(iqh_per), .four_lanes_i(1'b0), .fp16_i(1'b0),
    .step_i(qo_valid && qo_ready && qo_job), .active_o(unused_iw_active), .addr_o(iw_addr),
    .half_o(unused_iw_half), .lane_o(unused_iw_lane), .entry_o(unused_iw_entry), .last_o(unused_iw_last),
    .block_end_o(unused_iw_blk)
  );

  logic [31:0] nf_count_q, nf_addr_q;
  always_ff @(posedge gclk) begin
    if (rst_i) begin
      qd_v_q     <= 1'b0;
      qd_rep_q   <= '0;
      wb_v_q     <= 1'b0;
      job_q      <= 1'b0;
      qdone_v_q  <= 1'b0;
      nf_count_q <= 32'd0;
      nf_addr_q  <= 32'd0;
    end else begin
      if (qd_load) qd_v_q <= 1'b1;
      else if (qd_take) qd_v_q <= 1'b0;
      if (qd_load) qd_rep_q <= (qd_rep_q == qo_n1) ? '0 : qd_rep_q + NW'(1);
      if (qo_valid && qo_ready && qo_job) wb_v_q <= 1'b1;
      else if (wb_take) wb_v_q <= 1'b0;
      if (qo_valid && qo_ready && qo_nf) begin
        if (nf_count_q != 32'hFFFF_FFFF) nf_count_q <= nf_count_q + 32'd1;
        nf_addr_q <= qo_addr;
      end
      if (load_job) job_q <= 1'b1;
      else if (job_fin) job_q <= 1'b0;
      if (job_fin) qdone_v_q <= 1'b1;
      else if (qdone_take) qdone_v_q <= 1'b0;
    end
  end
  always_ff @(posedge gclk) begin
    if (qd_load)
      qd_f_q <= mkflit(qd_mem[15:12], qd_mem[11:8], TyData, qd_mem[7:0],
                       {qo_entry, 5'd0, qo_nf, qo_lane, qo_scale, qo_q});
    if (qo_valid && qo_ready && qo_job) begin
      wb_addr_q <= iw_addr;
      wb_data_q <= {24'd0, qo_scale, qo_q};
    end
    if (load_job) begin
      job_dx_q    <= iqh_members[15:12];
      job_dy_q    <= iqh_members[11:8];
      job_txn_q   <= iqh_members[7:0];
      job_total_q <= iqh_total;
      job_nf_q    <= 32'd0;
      job_acked_q <= 32'd0;
    end else begin
      if (dram_rsp_valid_i && dram_rsp_tag_i == TagWb) job_acked_q <= job_acked_q + 32'd1;
      if (qo_valid && qo_ready && qo_job && qo_nf) begin
        job_nf_q <= job_nf_q + 32'd1;
        if (job_nf_q == 32'd0) job_nf_addr_q <= qo_addr;
      end
    end
    if (job_fin)
      qdone_f_q <= mkflit(job_dx_q, job_dy_q, TyAck, job_txn_q,
                          ack_payload((job_nf_q != 32'd0) ? StNf : StOk, TyQj,
                                      (job_nf_q != 32'd0) ? job_nf_addr_q : 32'd0, job_nf_q));
  end

  // Write acks: answered when DRAM has acknowledged the burst's beats.
  logic         wack_v_q, wack_take;
  logic [287:0] wack_f_q;
  logic [3:0]   aqh_dx, aqh_dy, aqh_code;
  logic [7:0]   aqh_txn;
  assign {aqh_dx, aqh_dy, aqh_txn, aqh_code} = aq_head[AW-1:9];
  assign wack_dec = !aq_empty && (!wack_v_q || wack_take);
  assign aq_pop   = wack_dec;
  always_ff @(posedge gclk) begin
    if (rst_i) wack_v_q <= 1'b0;
    else if (wack_dec) wack_v_q <= 1'b1;
    else if (wack_take) wack_v_q <= 1'b0;
  end
  always_ff @(posedge gclk) begin
    if (wack_dec)
      wack_f_q <= mkflit(aqh_dx, aqh_dy, TyAck, aqh_txn,
                         ack_payload(aqh_code, TyWr, 32'd0, 32'(aqh_beats)));
  end

  // ==== response-plane output ========================================================
  logic         out_v_q;
  logic [287:0] out_f_q;
  localparam int NSrc = 6;
  logic [2:0]      rr_q;
  logic [NSrc-1:0] src_v, take;
  logic [287:0]    src_f [NSrc];
  logic            load_out;
  assign src_v    = {gref_v, qdone_v_q, wack_v_q, ref_v, qd_v_q, mx_v_q};
  assign src_f[0] = mx_f_q;
  assign src_f[1] = qd_f_q;
  assign src_f[2] = ref_f;
  assign src_f[3] = wack_f_q;
  assign src_f[4] = qdone_f_q;
  assign src_f[5] = gref_f;
  assign load_out = !out_v_q || rsp_ready_i;
  always_comb begin
    take = '0;
    // source (r + k) mod NSrc for each pointer value r, a constant per term:
    // no index arithmetic in front of the arbitration (docs/timing.md)
    for (int r = 0; r < NSrc; r++)
      for (int k = NSrc - 1; k >= 0; k--)
        if (rr_q == 3'(r) && load_out && src_v[(r + k) % NSrc]) take = NSrc'(1) << ((r + k) % NSrc);
  end
  assign {gref_take, qdone_take, wack_take, ref_take, qd_take, mx_take} = take;

  always_ff @(posedge gclk) begin
    if (rst_i) begin
      out_v_q <= 1'b0;
      rr_q    <= 3'd0;
    end else if (load_out) begin
      out_v_q <= (take != '0);
      for (int i = 0; i < NSrc; i++)
        if (take[i]) rr_q <= (i == NSrc - 1) ? 3'd0 : 3'(i + 1);
    end
  end
  always_ff @(posedge gclk) begin
    if (load_out)
      for (int i = 0; i < NSrc; i++) if (take[i]) out_f_q <= src_f[i];
  end
  assign rsp_valid_o = out_v_q;
  assign rsp_flit_o  = out_f_q;

  assign win_err_count_o   = win_err;
  assign bad_req_count_o   = bad_req;
  assign nonfinite_count_o = nf_count_q;
  assign nonfinite_addr_o  = nf_addr_q;

  // Outputs nobody needs here, and address bits above AddrBits (the window
  // check already keeps every address below 2^AddrBits).
  logic        unused_iw_active, unused_iw_half, unused_iw_last, unused_iw_blk, unused_mf_full;
  logic [1:0]  unused_iw_lane;
  logic [15:0] unused_iw_entry;
  logic        unused_addr_bits;
  assign unused_addr_bits = ^{fe_wr_addr, wb_addr_q, is_rd_addr};

  // ==== clock gate ========================================================================
  // Everything runs on gclk (the quantiser on qclk, stopped further: see
  // u_qgate), which stops while the agent is asleep (no request
  // being taken or queued, no stream, no read beat in flight or buffered: mf
  // names every beat from its issue to its use, no block in the quantiser,
  // no job, no flit or ack waiting to leave) and neither a request flit nor
  // a DRAM response arrives: the next edge would change nothing then
  // (docs/mem.md, "Clock gate").
  logic [$clog2(RspDepth):0]   rf_count, mf_count;
  logic [$clog2(QueueDepth):0] aq_count;
  logic q_busy, asleep;
  assign asleep = fe_idle && g_idle && !rf_pop_q && iq_count == '0 && aq_count == '0 && mf_count == '0 && !any_act &&
                  !job_busy_q && !job_q && !q_busy && src_v == '0 && !out_v_q;
  ktpu_clk_gate u_gate (.clk_i(clk_i), .en_i(rst_i || req_valid_i || dram_rsp_valid_i || !asleep),
                        .gclk_o(gclk));

  // ==== queues ============================================================================
  // rf: DRAM read data, RspDepth x 256 bits, and mf: their names, RspDepth x
  // MW bits, block RAM (credits bound both). iq/aq: a few entries each,
  // distributed RAM.
  ktpu_fifo #(.Width(256), .Depth(RspDepth), .Primitive("block"), .Name("mem_agent.rf")) u_rf (
    .clk_i(gclk), .rst_ni(!rst_i), .push_i(rf_push), .wdata_i(dram_rsp_rdata_i), .pop_i(rf_pop),
    .rdata_o(rf_head), .empty_o(rf_empty), .full_o(rf_full), .count_o(rf_count)
  );
  ktpu_fifo #(.Width(QW), .Depth(QueueDepth), .Primitive("distributed"), .Name("mem_agent.iq")) u_iq (
    .clk_i(gclk), .rst_ni(!rst_i), .push_i(iq_push), .wdata_i(iq_wdata), .pop_i(iq_pop),
    .rdata_o(iq_head), .empty_o(iq_empty), .full_o(iq_full), .count_o(iq_count)
  );
  ktpu_fifo #(.Width(MW), .Depth(RspDepth), .Primitive("block"), .Name("mem_agent.mf")) u_mf (
    .clk_i(gclk), .rst_ni(!rst_i), .push_i(mf_push), .wdata_i(mf_wdata), .pop_i(rf_pop),
    .rdata_o(mf_head), .empty_o(mf_empty), .full_o(unused_mf_full), .count_o(mf_count)
  );
  ktpu_fifo #(.Width(AW), .Depth(QueueDepth), .Primitive("distributed"), .Name("mem_agent.aq")) u_aq (
    .clk_i(gclk), .rst_ni(!rst_i), .push_i(aq_push),
    .wdata_i(aq_wdata),
    .pop_i(aq_pop), .rdata_o(aq_head), .empty_o(aq_empty), .full_o(aq_full), .count_o(aq_count)
  );

`ifndef SYNTHESIS
  always_ff @(posedge gclk) begin
    if (!rst_i) begin
      assert (!(rf_push && rf_full)) else $error("ktpu_mem_agent: read data without a credit");
      assert (!(!rf_empty && mf_empty)) else $error("ktpu_mem_agent: read data without its name");
    end
  end
  // what the sleep condition leaves to others: read credits (mf), a job's
  // write-back beat (the job); a straddling write beat: ktpu_mem_front's
  always_ff @(posedge clk_i) begin
    if (!rst_i && asleep)
      assert (rf_count == '0 && credit_q == ($clog2(RspDepth)+1)'(RspDepth) && !wb_v_q)
        else $error("ktpu_mem_agent: asleep with read data, a read credit out or a write beat pending");
  end
`endif

endmodule

`default_nettype wire
