// ktpu_mem_front: the memory agent's front end (docs/mem.md). It takes one
// request at a time off the request plane, checks it whole (ktpu_mem_check,
// 4 cycles: FMul, FAdd1, FAdd2, then FDecide), and then
//   - hands a read or a quantise job to the agent's issue queue (q_*),
//   - performs a write burst itself: its DRAM beats (wr_*, a flit that
//     straddles two beats as two), once no earlier read or job it could
//     overlap is left (wr_clear_i), then asks for its MEM_ACK (ack_*),
//   - or consumes a refused request whole and leaves its answer's fields
//     (ref_*) until the agent's output takes them.
`default_nettype none

module ktpu_mem_front #(
  parameter int AddrBits = 24
) (
  input  wire logic         clk_i,          // the agent's gated clock
  input  wire logic         rst_i,
  // request plane, mesh -> agent
  input  wire logic         req_valid_i,
  output logic              req_ready_o,
  input  wire logic [287:0] req_flit_i,
  input  wire logic [31:0]  win_base_i,
  input  wire logic [31:0]  win_limit_i,
  // the request being handled: its sender
  output logic [3:0]        req_dx_o,
  output logic [3:0]        req_dy_o,
  output logic [7:0]        req_txn_o,
  // a read or a job for the issue queue
  output logic              q_push_o,
  input  wire logic         q_full_i,
  output logic              q_job_o,
  output logic              q_fp16_o,
  output logic [31:0]       q_base_o,
  output logic [31:0]       q_stride_o,
  output logic [15:0]       q_groups_o,
  output logic [15:0]       q_per_o,
  output logic [31:0]       q_dst_o,
  output logic [31:0]       q_dstride_o,
  output logic [31:0]       q_total_o,
  output logic [3:0]        q_gid_o,        // a grouped read's tag and members (0: not grouped)
  output logic [2:0]        q_gn_o,
  // a write burst: its bytes [lo, hi) while it waits, its DRAM beats, its ack
  input  wire logic         wr_clear_i,
  output logic [31:0]       wr_lo_o,
  output logic [31:0]       wr_hi_o,
  output logic              wr_valid_o,
  input  wire logic         wr_take_i,
  output logic [31:0]       wr_addr_o,
  output logic [255:0]      wr_data_o,
  output logic [31:0]       wr_strb_o,
  output logic              ack_push_o,
  input  wire logic         ack_full_i,
  output logic [3:0]        ack_code_o,
  output logic [8:0]        ack_beats_o,
  // a refused request's answer (MEM_ACK), held until taken
  output logic              ref_valid_o,
  input  wire logic         ref_take_i,
  output logic [3:0]        ref_dx_o,
  output logic [3:0]        ref_dy_o,
  output logic [7:0]        ref_txn_o,
  output logic [3:0]        ref_op_o,
  output logic [3:0]        ref_code_o,
  output logic [31:0]       ref_addr_o,
  output logic              idle_o,         // no request in hand
  output logic [31:0]       win_err_count_o,
  output logic [31:0]       bad_req_count_o
);
  localparam int H = ktpu_pkg::FLIT_HDR_LSB;
  localparam logic [3:0] TyWr  = 4'(ktpu_pkg::MSG_MEM_WR);
  localparam logic [3:0] TyQj  = 4'(ktpu_pkg::MSG_MEM_QJOB);
  localparam logic [3:0] StOk  = 4'(ktpu_pkg::MEMST_OK);
  localparam logic [3:0] StWin = 4'(ktpu_pkg::MEMST_WINDOW);
  localparam logic [3:0] StBad = 4'(ktpu_pkg::MEMST_BADREQ);

  function automatic logic [31:0] pw(input logic [287:0] f, input int w);
    pw = f[32*w +: 32];
  endfunction

  // A write flit at 8-byte offset off in its beat: the part in this beat
  // (moved up by off 8-byte units) and the part in the next (moved down by
  // 4 - off). Four-way muxes, not barrel shifters.
  function automatic logic [255:0] shift_up(input logic [255:0] d, input logic [1:0] off);
    unique case (off)
      2'd0: shift_up = d;
      2'd1: shift_up = {d[191:0], 64'd0};
      2'd2: shift_up = {d[127:0], 128'd0};
      default: shift_up = {d[63:0], 192'd0};
    endcase
  endfunction
  // The part moved to the next beat never includes the lowest 8 bytes.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [255:0] shift_down(input logic [255:0] d, input logic [1:0] off);
    unique case (off)
      2'd1: shift_down = {192'd0, d[255:192]};
      2'd2: shift_down = {128'd0, d[255:128]};
      2'd3: shift_down = {64'd0, d[255:64]};
      default: shift_down = 256'd0;
    endcase
  endfunction
  function automatic logic [31:0] shift_up_strb(input logic [31:0] m, input logic [1:0] off);
    unique case (off)
      2'd0: shift_up_strb = m;
      2'd1: shift_up_strb = {m[23:0], 8'd0};
      2'd2: shift_up_strb = {m[15:0], 16'd0};
      default: shift_up_strb = {m[7:0], 24'd0};
    endcase
  endfunction
  function automatic logic [31:0] shift_down_strb(input logic [31:0] m, input logic [1:0] off);
    unique case (off)
      2'd1: shift_down_strb = {24'd0, m[31:24]};
      2'd2: shift_down_strb = {16'd0, m[31:16]};
      2'd3: shift_down_strb = {8'd0, m[31:8]};
      default: shift_down_strb = 32'd0;
    endcase
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  localparam logic [3:0] FIdle = 4'd0, FMul = 4'd1, FAdd1 = 4'd2, FAdd2 = 4'd3, FDecide = 4'd4,
                         FQueue = 4'd5, FWWait = 4'd6, FWData = 4'd7, FWAck = 4'd8,
                         FDrain = 4'd9, FRefuse = 4'd10;
  logic [3:0]   fs_q;
  logic [287:0] cur_q;             // the request's first flit
  logic [3:0]   cur_ty, cur_dx, cur_dy;
  logic [7:0]   cur_txn;
  logic         cur_last;
  assign cur_ty   = cur_q[H + ktpu_pkg::FLIT_TYPE_LSB +: 4];
  assign cur_dx   = cur_q[H + ktpu_pkg::FLIT_SRC_X_LSB +: 4];  // answers go to the sender
  assign cur_dy   = cur_q[H + ktpu_pkg::FLIT_SRC_Y_LSB +: 4];
  assign cur_txn  = cur_q[H + ktpu_pkg::FLIT_TXN_LSB +: 8];
  assign cur_last = cur_q[H + ktpu_pkg::FLIT_LAST_LSB];

  // Payload fields of the three request kinds (same words, read per kind).
  logic [31:0] w0, w1, w2, w3, w4;
  assign w0 = pw(cur_q, 0);
  assign w1 = pw(cur_q, 1);
  assign w2 = pw(cur_q, 2);
  assign w3 = pw(cur_q, 3);
  assign w4 = pw(cur_q, 4);
  logic [15:0] rd_groups, rd_per, qj_rows, qj_blocks;
  logic [1:0]  rd_fmt;
  logic [7:0]  wr_count;
  logic [7:0]  wr_rows;            // 2-D burst (ROWS != 0): columns of ROWS flits
  logic        wr_2d;
  assign rd_groups = w2[ktpu_pkg::RD_SHAPE_GROUPS_LSB +: 16];
  assign rd_per    = w2[ktpu_pkg::RD_SHAPE_PER_GROUP_LSB +: 16];
  assign rd_fmt    = w3[ktpu_pkg::RD_CTRL_FMT_LSB +: 2];
  assign qj_rows   = w4[ktpu_pkg::QJ_SHAPE_ROWS_LSB +: 16];
  assign qj_blocks = w4[ktpu_pkg::QJ_SHAPE_BLOCKS_LSB +: 16];
  assign wr_count  = w2[ktpu_pkg::WR_CTRL_COUNT_LSB +: 8];
  assign wr_rows   = w2[ktpu_pkg::WR_CTRL_ROWS_LSB +: 8];
  assign wr_2d     = wr_rows != 8'd0;

  // The whole-request check (ktpu_mem_check): FMul, FAdd1, FAdd2, then its
  // answer in FDecide.
  logic [3:0]  status;
  logic [31:0] bad_addr, total_q, lo1, hi1;
  ktpu_mem_check #(.AddrBits(AddrBits)) u_check (
    .clk_i(clk_i), .step_i({fs_q == FAdd2, fs_q == FAdd1, fs_q == FMul}), .req_i(cur_q),
    .win_base_i, .win_limit_i, .status_o(status), .bad_addr_o(bad_addr), .total_o(total_q),
    .lo_o(lo1), .hi_o(hi1));

  // The request to queue for the issuer (a read or a job): a read's dst is
  // the end of what it reads (exclusive, below 2^AddrBits).
  logic q_job;
  assign q_job       = cur_ty == TyQj;
  assign q_job_o     = q_job;
  assign q_fp16_o    = q_job || rd_fmt == 2'(ktpu_pkg::FMT_FP16);
  assign q_base_o    = w0;
  assign q_stride_o  = w1;
  assign q_groups_o  = q_job ? qj_rows : rd_groups;
  assign q_per_o     = q_job ? qj_blocks : rd_per;
  assign q_dst_o     = q_job ? w2 : hi1;
  assign q_dstride_o = q_job ? w3 : 32'd0;
  assign q_total_o   = total_q;
  assign q_gid_o     = w3[ktpu_pkg::RD_CTRL_GROUP_ID_LSB +: 4];
  assign q_gn_o      = q_job ? 3'd0 : w3[ktpu_pkg::RD_CTRL_GROUP_N_LSB +: 3];
  assign req_dx_o    = cur_dx;
  assign req_dy_o    = cur_dy;
  assign req_txn_o   = cur_txn;

  // Write bursts: running address and counts; a straddling flit's second beat.
  logic [7:0]   wr_i_q;          // data flits seen
  logic [8:0]   wr_beats_q;      // DRAM beats issued
  logic [31:0]  wr_addr_q;
  logic [7:0]   wr_r_q;          // 2-D: row of the next flit within its column
  logic [31:0]  wr_col_q;        // 2-D: address of the current column's first flit
  logic [31:0]  wr_next;         // address of the flit after this one
  logic         wr_bad_q;
  logic         wr_last_q;       // the flit whose second beat is pending was the last
  logic         b2_v_q;
  logic [31:0]  b2_addr_q;
  logic [255:0] b2_data_q;
  logic [31:0]  b2_strb_q;
  logic [1:0]   off;             // 8-byte offset inside the beat
  logic [255:0] d_in;
  logic [31:0]  m_in;
  logic         in_range, d_ok, in_last;
  assign off      = wr_addr_q[4:3];
  assign d_in     = req_flit_i[255:0];
  assign m_in     = w3;
  assign in_range = (wr_i_q < wr_count);
  assign d_ok     = in_range && (req_flit_i[H + ktpu_pkg::FLIT_TYPE_LSB +: 4] == TyWr);
  assign in_last  = req_flit_i[H + ktpu_pkg::FLIT_LAST_LSB];
  assign wr_next  = (wr_2d && wr_r_q == wr_rows - 8'd1) ? wr_col_q + w4 : wr_addr_q + w1;

  always_comb begin
    wr_valid_o = 1'b0;
    wr_addr_o  = 32'd0;
    wr_data_o  = 256'd0;
    wr_strb_o  = 32'd0;
    if (fs_q == FWData) begin
      if (b2_v_q) begin
        wr_valid_o = 1'b1;
        wr_addr_o  = b2_addr_q;
        wr_data_o  = b2_data_q;
        wr_strb_o  = b2_strb_q;
      end else if (req_valid_i && d_ok) begin
        wr_valid_o = 1'b1;
        wr_addr_o  = {wr_addr_q[31:5], 5'd0};
        wr_data_o  = shift_up(d_in, off);
        wr_strb_o  = shift_up_strb(m_in, off);
      end
    end
  end

  // A write ack is due when the burst's last beat has been accepted by
  // DRAM (FWData takes a flit only in the cycle DRAM takes its beat), and
  // DRAM applies a write when it accepts it: a request anyone makes after
  // the ack sees it. Its write responses, a read latency later, are not
  // waited for.
  assign ack_code_o  = wr_bad_q ? StBad : StOk;
  assign ack_beats_o = wr_beats_q;

  logic         ref_v_q;          // a refusal waits to leave: its answer's fields
  logic [3:0]   ref_code_q, ref_dec_code_q;
  logic [31:0]  ref_addr_q, ref_dec_addr_q;
  logic [31:0]  win_err_q, bad_req_q;
  assign ref_valid_o = ref_v_q;
  assign ref_code_o  = ref_code_q;
  assign ref_addr_o  = ref_addr_q;
  assign win_err_count_o = win_err_q;
  assign bad_req_count_o = bad_req_q;
  assign idle_o      = fs_q == FIdle;

  always_comb begin
    req_ready_o = 1'b0;
    unique case (fs_q)
      FIdle:  req_ready_o = 1'b1;
      FDrain: req_ready_o = 1'b1;
      FWData: req_ready_o = !b2_v_q && (!d_ok || wr_take_i);
      default: ;
    endcase
  end
  assign q_push_o   = (fs_q == FQueue) && !q_full_i;
  assign ack_push_o = (fs_q == FWAck) && !ack_full_i;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      fs_q      <= FIdle;
      b2_v_q    <= 1'b0;
      ref_v_q   <= 1'b0;
      win_err_q <= 32'd0;
      bad_req_q <= 32'd0;
    end else begin
      if (ref_take_i) ref_v_q <= 1'b0;
      unique case (fs_q)
        FIdle: if (req_valid_i) fs_q <= FMul;
        FMul: fs_q <= FAdd1;
        FAdd1: fs_q <= FAdd2;
        FAdd2: fs_q <= FDecide;
        FDecide: begin
          ref_dec_code_q <= status;
          ref_dec_addr_q <= (status == StWin) ? bad_addr : 32'd0;
          if (status != StOk)      fs_q <= cur_last ? FRefuse : FDrain;
          else if (cur_ty == TyWr) fs_q <= FWWait;
          else                     fs_q <= FQueue;
        end
        FQueue: if (!q_full_i) fs_q <= FIdle;
        FWWait: if (wr_clear_i) fs_q <= FWData;
        FWData: begin
          if (b2_v_q) begin
            if (wr_take_i) begin
              b2_v_q <= 1'b0;
              if (wr_last_q) fs_q <= FWAck;
            end
          end else if (req_valid_i && req_ready_o) begin
            if (d_ok) begin
              if (off != 2'd0) begin
                b2_v_q    <= 1'b1;
                b2_addr_q <= {wr_addr_q[31:5], 5'd0} + 32'd32;
                b2_data_q <= shift_down(d_in, off);
                b2_strb_q <= shift_down_strb(m_in, off);
                wr_last_q <= in_last;
              end
            end
            if (in_last && (!d_ok || off == 2'd0)) fs_q <= FWAck;
          end
        end
        FWAck: if (!ack_full_i) fs_q <= FIdle;
        FDrain: if (req_valid_i && in_last) fs_q <= FRefuse;
        FRefuse: if (!ref_v_q || ref_take_i) begin
          ref_v_q    <= 1'b1;
          ref_dx_o   <= cur_dx;
          ref_dy_o   <= cur_dy;
          ref_txn_o  <= cur_txn;
          ref_op_o   <= cur_ty;
          ref_code_q <= ref_dec_code_q;
          ref_addr_q <= ref_dec_addr_q;
          if (ref_dec_code_q == StWin) begin
            if (win_err_q != 32'hFFFF_FFFF) win_err_q <= win_err_q + 32'd1;
          end else begin
            if (bad_req_q != 32'hFFFF_FFFF) bad_req_q <= bad_req_q + 32'd1;
          end
          fs_q <= FIdle;
        end
        default: fs_q <= FIdle;
      endcase
    end
  end

  // Datapath registers of the front end (meaningful per state, not reset).
  always_ff @(posedge clk_i) begin
    if (fs_q == FIdle && req_valid_i) cur_q <= req_flit_i;
    if (fs_q == FDecide) begin    // used only when the burst is accepted: then below 2^AddrBits
      wr_lo_o <= lo1;
      wr_hi_o <= hi1;
    end
    if (fs_q == FWWait) begin
      wr_i_q     <= 8'd0;
      wr_beats_q <= 9'd0;
      wr_addr_q  <= w0;
      wr_bad_q   <= 1'b0;
      wr_r_q     <= 8'd0;
      wr_col_q   <= w0;
    end
    // One process per register: the flit counter, the bad-burst flag and the
    // address advance with every data flit taken.
    if (fs_q == FWData && !b2_v_q && req_valid_i && req_ready_o) begin
      wr_i_q <= wr_i_q + 8'd1;
      if (!d_ok || (in_last && (wr_i_q + 8'd1 != wr_count))) wr_bad_q <= 1'b1;
      if (d_ok) wr_addr_q <= wr_next;
    end
    if (fs_q == FWData && !b2_v_q && req_valid_i && req_ready_o && d_ok) begin
      if (wr_2d && wr_r_q == wr_rows - 8'd1) begin
        wr_r_q   <= 8'd0;
        wr_col_q <= wr_col_q + w4;
      end else begin
        wr_r_q   <= wr_r_q + 8'd1;
      end
    end
    if (wr_take_i) wr_beats_q <= wr_beats_q + 9'd1;
  end

`ifndef SYNTHESIS
  // the agent's clock stops only while the front end is idle: no beat of a
  // straddling write flit may be left then
  always_ff @(posedge clk_i) begin
    if (!rst_i) assert (!(fs_q == FIdle && b2_v_q)) else $error("ktpu_mem_front: idle with a write beat pending");
  end
`endif

endmodule

`default_nettype wire
