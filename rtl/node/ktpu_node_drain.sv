`default_nettype none
// Cluster node drain: FP16 sub-tiles from the accumulator's emit port into
// row-major C in DRAM, as MEM_WR bursts (data/ktpu.def, memory agent).
//
// Emit buffer. Every emitted sub-tile first goes into a FIFO as deep as the
// accumulator tile (BufDepth x 256 bits, block RAM): the accumulator never
// waits for memory while the buffer has room, so a fused drain (ADD_EMIT in
// the last K block, one sub-tile per cycle) runs at the sweep's pace and
// tile i's bursts go out under the next GEMM's first K blocks.
//
// Jobs (one per fused-drain GEMM or DRAIN) are queued in issue order, and the
// accumulator emits in issue order, so the n-th emit belongs to the job at
// the head and its place is known by counting: sub-tile (g, h) of a job
// lands at C + 4g*stride + 8h (4 FP16 = 8 bytes per sub-tile row).
//
// Bursts. Four horizontally adjacent sub-tiles (h = 4q .. 4q+3, a group)
// share their rows' 32 bytes: a group is four data flits, flit r carrying row
// r of the four (sub-tile s at payload bytes 8s..8s+7). The full groups of
// one row band (fixed g) go out as one 2-D burst: descriptor {addr = C +
// 4g*stride + 32q0, STRIDE = C stride (row to row), ROWS 4, COLS n, STRIDE2
// 32 (group to group), COUNT 4n, MASK all}, then 4n data flits; n <= MaxCols
// (COUNT <= 255), longer bands take several bursts. The last group of a band
// may hold 1..3 sub-tiles: it is a 1-D burst of 4 flits at the row stride
// whose MASK covers 8 bytes per sub-tile present. So a band of gn sub-tiles
// costs ceil(gn/(4 MaxCols)) + [gn % 4 != 0] descriptors instead of
// ceil(gn/4), which is what keeps the memory agent's per-burst overhead off
// the drain's pace. One group gathers (one buffer read per cycle) while the
// previous one is sent; both take 4 cycles.
//
// Written. Each job carries a tag (TagW bits the node chooses) that comes
// back on written_* once the job's last burst is acknowledged: when that
// burst's last flit leaves, the count of bursts sent so far is its mark, and
// the job is written when the acknowledgement count reaches the mark (the
// agents may acknowledge in any order; every earlier burst then has been).
// Marks wait in a MarkDepth FIFO; while it is full the last flit of the
// next job is held back.
//
// Two memory agents (MemPorts = 2). A job's row bands alternate between
// the agents, band 0 to the nearer one, so every tile's drain spreads over
// both DRAM ports (all of a band's bursts go to one agent: a burst never
// changes agent between its descriptor and its last flit). Writes still
// take effect in the node's order wherever they could overlap: the bands of
// one job are disjoint when the C stride is at least the tile's row bytes
// (8 gn; else the whole job goes to the nearer agent, which keeps its bursts
// in order), and a burst to one agent waits until every burst the earlier
// jobs sent to the other agent is acknowledged (in DRAM). Each agent keeps
// its own bursts in order. The counts per agent come from the acks' source.
module ktpu_node_drain #(
  parameter int unsigned X        = 0,     // this node (src of the bursts)
  parameter int unsigned Y        = 1,
  parameter int unsigned MemX     = 1,     // the memory agent
  parameter int unsigned MemY     = 0,
  parameter int unsigned MemPorts = 1,     // 2: a second agent at (Mem1X, Mem1Y)
  parameter int unsigned Mem1X    = 1,
  parameter int unsigned Mem1Y    = 1,
  parameter bit          Near1    = 1'b0,  // the second agent is the nearer one: band 0's
  parameter int unsigned JobDepth = 4,
  parameter int unsigned BufDepth = ktpu_pkg::ACC_DEPTH,   // emit buffer, sub-tiles
  parameter int unsigned MaxCols  = 63,                    // groups per 2-D burst
  parameter int unsigned TagW     = 1,
  parameter int unsigned MarkDepth = 2
) (
  input  wire          clk_i,
  input  wire          rst_i,
  input  wire          job_push_i,
  input  wire [31:0]   job_base_i,
  input  wire [31:0]   job_stride_i,
  input  wire [15:0]   job_gm_i,
  input  wire [15:0]   job_gn_i,
  input  wire [TagW-1:0] job_tag_i,
  output logic         job_full_o,
  input  wire          emit_valid_i,
  output logic         emit_ready_o,
  input  wire [255:0]  emit_data_i,
  output logic         out_valid_o,
  input  wire          out_ready_i,
  output logic [287:0] out_flit_o,
  input  wire          ack_i,          // a MEM_ACK answering one of our bursts
  input  wire          ack1_i,         // ... from the second agent
  output logic         written_valid_o,   // a job's every burst acknowledged, in job order
  input  wire          written_ready_i,
  output logic [TagW-1:0] written_tag_o,
  output logic         busy_o
);
  localparam logic [7:0] WrTxn = 8'hE0;

  if (MaxCols < 1 || 4 * MaxCols > 255) begin : gen_bad_cols
    $error("ktpu_node_drain: MaxCols must be 1..63 (COUNT = 4 x MaxCols <= 255)");
  end

  // ---- emit buffer -------------------------------------------------------
  logic [255:0] buf_head;
  logic         buf_empty, buf_full, buf_pop;
  logic [$clog2(BufDepth+1)-1:0] buf_count;
  ktpu_fifo #(.Width(256), .Depth(BufDepth), .Primitive("block"),
              .Name("ktpu_node_drain emit buffer")) u_buf (
    .clk_i(clk_i), .rst_ni(!rst_i),
    .push_i(emit_valid_i && !buf_full), .wdata_i(emit_data_i),
    .pop_i(buf_pop), .rdata_o(buf_head), .empty_o(buf_empty), .full_o(buf_full),
    .count_o(buf_count)
  );
  assign emit_ready_o = !buf_full;

  // ---- job queue ---------------------------------------------------------
  logic [96+TagW-1:0] job_head;
  logic        job_empty, job_pop;
  logic [$clog2(JobDepth+1)-1:0] job_count;
  ktpu_fifo #(.Width(96+TagW), .Depth(JobDepth), .Primitive("distributed"),
              .Name("ktpu_node_drain job FIFO")) u_jobs (
    .clk_i(clk_i), .rst_ni(!rst_i),
    .push_i(job_push_i), .wdata_i({job_tag_i, job_gn_i, job_gm_i, job_stride_i, job_base_i}),
    .pop_i(job_pop), .rdata_o(job_head), .empty_o(job_empty), .full_o(job_full_o),
    .count_o(job_count)
  );
  logic [31:0] j_base, j_stride;
  logic [15:0] j_gm, j_gn;
  logic [TagW-1:0] j_tag;
  assign {j_tag, j_gn, j_gm, j_stride, j_base} = job_head;

  // ---- gather ------------------------------------------------------------
  logic [15:0]  g_q, h_q;
  logic [31:0]  row_q;           // C + 4g*stride
  logic         row_ok_q;        // row_q set up for the head job
  logic [255:0] cbuf_q [4];
  logic [2:0]   ccnt_q, cn_q;    // sub-tiles gathered / in this group
  logic [31:0]  caddr_q, cstride_q;
  logic         cfull_q, cfirst_q, clast_q, c2d_q;
  logic         cend_q;          // the job's last group
  logic         cjob0_q;         // the job's first group
  logic         cmem1_q;         // its band goes to the second agent
  logic         j_alt;           // the head job's bands alternate between the agents
  logic [TagW-1:0] ctag_q;
  logic [7:0]   ccols_q;         // 2-D burst: groups in it (set on its first group)
  logic [7:0]   bleft_q;         // groups of the current 2-D burst still to gather
  logic         take, last_h, last_g, move;
  logic [1:0]   slot;
  logic [15:0]  left_h;          // sub-tiles of this band from h on
  logic [13:0]  full_left;       // full groups of this band from h on
  logic [7:0]   ncols;

  assign last_h    = h_q == j_gn - 16'd1;
  assign last_g    = g_q == j_gm - 16'd1;
  assign left_h    = j_gn - h_q;
  assign full_left = left_h[15:2];
  assign ncols     = (full_left > 14'(MaxCols)) ? 8'(MaxCols) : full_left[7:0];
  assign j_alt     = MemPorts > 1 && j_stride >= {13'd0, j_gn, 3'd0};
  // a group may start gathering in the cycle the previous one moves out
  assign take      = !buf_empty && !job_empty && row_ok_q && (!cfull_q || move);
  assign buf_pop   = take;
  assign slot      = (cfull_q && move) ? 2'd0 : ccnt_q[1:0];
  assign job_pop   = take && last_h && last_g;

  // ---- send --------------------------------------------------------------
  logic [255:0] obuf_q [4];
  logic [2:0]   ocnt_q;
  logic [31:0]  oaddr_q, ostride_q;
  logic         olast_q, o2d_q, oend_q;
  logic [TagW-1:0] otag_q;
  logic         otake, ohold, order_hold;
  logic [7:0]   ocols_q;
  logic [2:0]   ost_q;           // 0 idle, 1 descriptor, 2..5 data row 0..3
  logic         mem1_q;          // the burst goes to the second agent
  assign otake = out_valid_o && out_ready_i;
  assign move = cfull_q && (ost_q == 3'd0 || (ost_q == 3'd5 && otake));

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      g_q      <= '0;
      h_q      <= '0;
      row_ok_q <= 1'b0;
      ccnt_q   <= '0;
      cfull_q  <= 1'b0;
      bleft_q  <= '0;
      ost_q    <= '0;
    end else begin
      if (!row_ok_q && !job_empty) begin
        row_q    <= j_base;
        row_ok_q <= 1'b1;
      end
      if (move) begin
        cfull_q <= 1'b0;
        ccnt_q  <= '0;
      end
      if (take) begin
        cbuf_q[slot] <= buf_head;
        if (slot == 2'd0) begin
          // the group's place, and whether it opens / closes a burst
          caddr_q   <= row_q + 32'({h_q, 3'd0});
          cstride_q <= j_stride;
          if (full_left == '0) begin             // partial last group: 1-D burst
            cn_q     <= 3'(left_h);
            c2d_q    <= 1'b0;
            cfirst_q <= 1'b1;
            clast_q  <= 1'b1;
          end else begin
            cn_q     <= 3'd4;
            c2d_q    <= 1'b1;
            cfirst_q <= bleft_q == '0;
            clast_q  <= (bleft_q == '0) ? ncols == 8'd1 : bleft_q == 8'd1;
            ccols_q  <= ncols;
            bleft_q  <= (bleft_q == '0) ? ncols - 8'd1 : bleft_q - 8'd1;
          end
        end
        ccnt_q <= 3'(slot) + 3'd1;
        cend_q <= last_h && last_g;
        if (slot == 2'd0) begin
          cjob0_q <= g_q == '0 && h_q == '0;
          cmem1_q <= MemPorts > 1 && (Near1 ^ (j_alt && g_q[0]));
        end
        ctag_q <= j_tag;
        if (slot == 2'd3 || last_h) cfull_q <= 1'b1;
        if (!last_h) h_q <= h_q + 16'd1;
        else begin
          h_q <= '0;
          if (!last_g) begin
            g_q   <= g_q + 16'd1;
            row_q <= row_q + {j_stride[29:0], 2'b00};
          end else begin
            g_q      <= '0;
            row_ok_q <= 1'b0;      // next job's base next cycle
          end
        end
      end
      if (move) begin
        for (int s = 0; s < 4; s++) obuf_q[s] <= cbuf_q[s];
        ocnt_q    <= cn_q;
        oaddr_q   <= caddr_q;
        ostride_q <= cstride_q;
        olast_q   <= clast_q;
        o2d_q     <= c2d_q;
        ocols_q   <= ccols_q;
        oend_q    <= cend_q;
        otag_q    <= ctag_q;
        ost_q     <= cfirst_q ? 3'd1 : 3'd2;
        mem1_q    <= cmem1_q;
      end else if (otake) begin
        ost_q <= (ost_q == 3'd5) ? 3'd0 : ost_q + 3'd1;
      end
    end
  end

  // ---- flits ---------------------------------------------------------------
  logic [31:0]  mask;
  logic [255:0] payload;
  logic [1:0]   orow;          // data flit row 0..3
  assign orow = 2'(ost_q - 3'd2);
  assign mask = (ocnt_q >= 3'd4) ? 32'hFFFF_FFFF : ((32'd1 << {ocnt_q, 3'd0}) - 32'd1);
  always_comb begin
    payload = '0;
    if (ost_q == 3'd1) begin
      payload[32*ktpu_pkg::WR_ADDR_WORD +: 32]   = oaddr_q;
      payload[32*ktpu_pkg::WR_STRIDE_WORD +: 32] = ostride_q;
      payload[32*ktpu_pkg::WR_MASK_WORD +: 32]   = mask;
      if (o2d_q) begin
        payload[32*ktpu_pkg::WR_CTRL_WORD + ktpu_pkg::WR_CTRL_COUNT_LSB +: 8] = {ocols_q[5:0], 2'b00};
        payload[32*ktpu_pkg::WR_CTRL_WORD + ktpu_pkg::WR_CTRL_ROWS_LSB +: 8]  = 8'd4;
        payload[32*ktpu_pkg::WR_CTRL_WORD + ktpu_pkg::WR_CTRL_COLS_LSB +: 8]  = ocols_q;
        payload[32*ktpu_pkg::WR_STRIDE2_WORD +: 32] = 32'd32;
      end else begin
        payload[32*ktpu_pkg::WR_CTRL_WORD + ktpu_pkg::WR_CTRL_COUNT_LSB +: 8] = 8'd4;
      end
    end else if (ost_q >= 3'd2) begin
      for (int s = 0; s < 4; s++)
        if (3'(s) < ocnt_q) payload[64*s +: 64] = obuf_q[s][64*orow +: 64];
    end
  end
  assign ohold       = (ost_q == 3'd5 && oend_q && mk_full) || (ost_q == 3'd1 && order_hold);
  assign out_valid_o = ost_q != 3'd0 && !ohold;
  assign out_flit_o  = {ktpu_pkg::flit_pack(mem1_q ? 4'(Mem1X) : 4'(MemX), mem1_q ? 4'(Mem1Y) : 4'(MemY), 4'(X), 4'(Y),
                                           4'(ktpu_pkg::MSG_MEM_WR), WrTxn, ost_q == 3'd5 && olast_q),
                        payload};

  // ---- acknowledgements and written jobs ----------------------------------
  logic [15:0] sent_q, acked_q, mk_head, mk_dist;
  // per agent (agent 0's sent as total minus agent 1's; its acks counted
  // on their own, though acked_q - acked1_q gives them, so the hold below
  // costs one subtraction: asserted equal), and at the start of the job in
  // the send stage the bursts the earlier jobs sent to each
  logic [15:0] sent1_q, acked0_q, acked1_q, snap0_q, snap1_q;
  logic [15:0] acked0_d, acked1_d, snap0_d, snap1_d, wait0_d, wait1_d;
  logic        hold0_q, hold1_q;
  logic [$clog2(MarkDepth+1)-1:0] mk_count;
  logic [TagW-1:0] mk_tag;
  logic        mk_empty, mk_full, mk_push, mk_pop, reached;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      sent_q   <= '0;
      acked_q  <= '0;
      sent1_q  <= '0;
      acked0_q <= '0;
      acked1_q <= '0;
      snap0_q  <= '0;
      snap1_q  <= '0;
      hold0_q  <= 1'b0;
      hold1_q  <= 1'b0;
    end else begin
      sent_q   <= sent_q + 16'(otake && ost_q == 3'd1);
      acked_q  <= acked_q + 16'(ack_i);
      sent1_q  <= sent1_q + 16'(otake && ost_q == 3'd1 && mem1_q);
      acked0_q <= acked0_d;
      acked1_q <= acked1_d;
      snap0_q  <= snap0_d;
      snap1_q  <= snap1_d;
      // acked - snap < 0: some earlier job's burst to that agent still
      // unacknowledged. Found for the next cycle from its counts, so the
      // send stage's hold is a register (the two subtractions in front of
      // the drain buffer's read were node2p's longest path: docs/timing.md)
      hold0_q  <= wait0_d[15];
      hold1_q  <= wait1_d[15];
    end
  end
  assign acked0_d = acked0_q + 16'(ack_i && !ack1_i);
  assign acked1_d = acked1_q + 16'(ack_i && ack1_i);
  // a job's first group moves in after the last flit of the job before
  // (sent counts do not move in that cycle: no descriptor leaves)
  assign snap0_d = (move && cjob0_q) ? sent_q - sent1_q : snap0_q;
  assign snap1_d = (move && cjob0_q) ? sent1_q : snap1_q;
  assign wait0_d = acked0_d - snap0_d;
  assign wait1_d = acked1_d - snap1_d;
  assign order_hold = MemPorts > 1 && (mem1_q ? hold0_q : hold1_q);
  // the job's last flit: every one of its bursts has been sent
  assign mk_push = otake && ost_q == 3'd5 && oend_q;
  ktpu_fifo #(.Width(16+TagW), .Depth(MarkDepth), .Primitive("distributed"),
              .Name("ktpu_node_drain mark FIFO")) u_marks (
    .clk_i(clk_i), .rst_ni(!rst_i),
    .push_i(mk_push), .wdata_i({otag_q, sent_q}),
    .pop_i(mk_pop), .rdata_o({mk_tag, mk_head}), .empty_o(mk_empty), .full_o(mk_full),
    .count_o(mk_count)
  );
  // acked - mark in [0, 2^15): the mark reached (never more than 2^15
  // bursts outstanding: the agents' queues are far shorter)
  assign mk_dist         = acked_q - mk_head;
  assign reached         = !mk_dist[15];
  assign written_valid_o = !mk_empty && reached;
  assign written_tag_o   = mk_tag;
  assign mk_pop          = written_valid_o && written_ready_i;

  assign busy_o = !buf_empty || !job_empty || job_count != '0 || ccnt_q != '0 || cfull_q ||
                  ost_q != 3'd0 || sent_q != acked_q || !mk_empty;

  logic unused_ok;
  assign unused_ok = ^{buf_count, mk_count, mk_dist[14:0], wait0_d[14:0], wait1_d[14:0]};

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (!rst_i && ack_i && sent_q == acked_q)
      $error("ktpu_node_drain: write ack with no burst outstanding");
    if (!rst_i)
      assert (acked0_q == 16'(acked_q - acked1_q) && hold0_q == 16'(acked0_q - snap0_q) >= 16'h8000 &&
              hold1_q == 16'(acked1_q - snap1_q) >= 16'h8000)
        else $error("ktpu_node_drain: an agent's hold register is not its count's sign");
  end
`endif
endmodule
`default_nettype wire
