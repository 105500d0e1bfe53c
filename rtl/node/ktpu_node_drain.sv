`default_nettype none
// Cluster node drain: FP16 sub-tiles from the accumulator's emit port into
// row-major C in DRAM, as MEM_WR bursts (data/ktpu.def, memory agent).
//
// Jobs (one per fused-drain GEMM or DRAIN) are queued in issue order, and the
// accumulator emits in issue order, so the n-th emit belongs to the job at
// the head and its place is known by counting: sub-tile (g, h) of a job
// lands at C + 4g*stride + 8h (4 FP16 = 8 bytes per sub-tile row).
//
// Four horizontally adjacent sub-tiles (h = 4q .. 4q+3) share their rows'
// 32 bytes, so they are gathered into one burst: a descriptor flit
// {addr = C + 4g*stride + 32q, stride, COUNT = 4, MASK} and 4 data flits,
// data flit r carrying row r of the four sub-tiles (sub-tile s at payload
// bytes 8s..8s+7). The last group of a row may hold fewer than four: MASK
// covers 8 bytes per sub-tile present and nothing else. 5 flits per 4
// sub-tiles instead of 5 per one. One group gathers while the previous one
// is being sent.
module ktpu_node_drain #(
  parameter int unsigned X     = 0,     // this node (src of the bursts)
  parameter int unsigned Y     = 1,
  parameter int unsigned MemX  = 1,     // the memory agent
  parameter int unsigned MemY  = 0,
  parameter int unsigned JobDepth = 4
) (
  input  wire          clk_i,
  input  wire          rst_i,
  input  wire          job_push_i,
  input  wire [31:0]   job_base_i,
  input  wire [31:0]   job_stride_i,
  input  wire [15:0]   job_gm_i,
  input  wire [15:0]   job_gn_i,
  output logic         job_full_o,
  input  wire          emit_valid_i,
  output logic         emit_ready_o,
  input  wire [255:0]  emit_data_i,
  output logic         out_valid_o,
  input  wire          out_ready_i,
  output logic [287:0] out_flit_o,
  input  wire          ack_i,          // a MEM_ACK answering one of our bursts
  output logic         busy_o
);
  localparam logic [7:0] WrTxn = 8'hE0;

  // ---- job queue ---------------------------------------------------------
  logic [95:0] job_head;
  logic        job_empty, job_pop;
  logic [$clog2(JobDepth+1)-1:0] job_count;
  ktpu_fifo #(.Width(96), .Depth(JobDepth), .Primitive("distributed"),
              .Name("ktpu_node_drain job FIFO")) u_jobs (
    .clk_i(clk_i), .rst_ni(!rst_i),
    .push_i(job_push_i), .wdata_i({job_gn_i, job_gm_i, job_stride_i, job_base_i}),
    .pop_i(job_pop), .rdata_o(job_head), .empty_o(job_empty), .full_o(job_full_o),
    .count_o(job_count)
  );
  logic [31:0] j_base, j_stride;
  logic [15:0] j_gm, j_gn;
  assign {j_gn, j_gm, j_stride, j_base} = job_head;

  // ---- gather ------------------------------------------------------------
  logic [15:0]  g_q, h_q;
  logic [31:0]  row_q;           // C + 4g*stride
  logic         row_ok_q;        // row_q set up for the head job
  logic [255:0] cbuf_q [4];
  logic [2:0]   ccnt_q;
  logic [31:0]  caddr_q, cstride_q;
  logic         cfull_q;
  logic         take, last_h, last_g;

  assign last_h       = h_q == j_gn - 16'd1;
  assign last_g       = g_q == j_gm - 16'd1;
  assign emit_ready_o = !job_empty && row_ok_q && !cfull_q;
  assign take         = emit_valid_i && emit_ready_o;
  assign job_pop      = take && last_h && last_g;

  // ---- send --------------------------------------------------------------
  logic [255:0] obuf_q [4];
  logic [2:0]   ocnt_q;
  logic [31:0]  oaddr_q, ostride_q;
  logic [2:0]   ost_q;           // 0 idle, 1 descriptor, 2..5 data row 0..3
  logic         move;
  assign move = cfull_q && (ost_q == 3'd0);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      g_q      <= '0;
      h_q      <= '0;
      row_ok_q <= 1'b0;
      ccnt_q   <= '0;
      cfull_q  <= 1'b0;
      ost_q    <= '0;
    end else begin
      if (!row_ok_q && !job_empty) begin
        row_q    <= j_base;
        row_ok_q <= 1'b1;
      end
      if (take) begin
        cbuf_q[ccnt_q[1:0]] <= emit_data_i;
        if (ccnt_q == 3'd0) begin
          caddr_q   <= row_q + 32'({h_q, 3'd0});
          cstride_q <= j_stride;
        end
        ccnt_q <= ccnt_q + 3'd1;
        if (ccnt_q == 3'd3 || last_h) cfull_q <= 1'b1;
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
        ocnt_q    <= ccnt_q;
        oaddr_q   <= caddr_q;
        ostride_q <= cstride_q;
        ccnt_q    <= '0;
        cfull_q   <= 1'b0;
        ost_q     <= 3'd1;
      end else if (ost_q != 3'd0 && out_ready_i) begin
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
      payload[32*ktpu_pkg::WR_CTRL_WORD + ktpu_pkg::WR_CTRL_COUNT_LSB +: 8] = 8'd4;
      payload[32*ktpu_pkg::WR_MASK_WORD +: 32]   = mask;
    end else if (ost_q >= 3'd2) begin
      for (int s = 0; s < 4; s++)
        if (3'(s) < ocnt_q) payload[64*s +: 64] = obuf_q[s][64*orow +: 64];
    end
  end
  assign out_valid_o = ost_q != 3'd0;
  assign out_flit_o  = {4'(MemX), 4'(MemY), 4'(X), 4'(Y), 4'(ktpu_pkg::MSG_MEM_WR), WrTxn,
                        ost_q == 3'd5, 3'b000, payload};

  // ---- write acks outstanding ---------------------------------------------
  logic [15:0] wr_out_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) wr_out_q <= '0;
    else wr_out_q <= wr_out_q + 16'(out_valid_o && out_ready_i && ost_q == 3'd1) - 16'(ack_i);
  end

  assign busy_o = !job_empty || job_count != '0 || ccnt_q != '0 || cfull_q ||
                  ost_q != 3'd0 || wr_out_q != '0;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (!rst_i && ack_i && wr_out_q == '0)
      $error("ktpu_node_drain: write ack with no burst outstanding");
  end
`endif
endmodule
`default_nettype wire
