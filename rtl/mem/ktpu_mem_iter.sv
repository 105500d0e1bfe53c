// ktpu_mem_iter: the beat order of one memory-agent stream (SPEC §8).
//
// An entry read (four_lanes_i: 4 lanes, one L1 entry = four rows) visits
// K-block-major, so that a node can start each K pass of a GEMM as soon as
// that K block of every row group has landed (docs/node.md, streaming):
//   for kb < per_group, g < groups, lane < 4, half < halves
// A quantise job (one lane: one row) visits row-major:
//   for g < groups, kb < per_group, half < halves
// Either way the beat is at
//   addr = base + (g*lanes + lane)*stride + kb*block_bytes + 32*half
// with FP16 blocks (64 bytes, two 32-byte beats) or MXFP7 blocks (32 bytes,
// one beat), and entry = g*per_group + kb names it.
// The agent runs one copy per read stream (the beat's name then travels in
// a FIFO beside the DRAM data) and one for quantise-job write-back, which
// walks the job's destination in the order its reads came back.
// All addresses by adders on running sums: no multiplier.
`default_nettype none

module ktpu_mem_iter (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  input  wire logic        load_i,        // start a walk (takes the *_i below)
  input  wire logic [31:0] base_i,
  input  wire logic [31:0] stride_i,
  input  wire logic [15:0] groups_i,      // >= 1
  input  wire logic [15:0] per_group_i,   // >= 1
  input  wire logic        four_lanes_i,  // 1: 4 lanes, K-block-major; 0: 1 lane, row-major
  input  wire logic        fp16_i,        // 1: 64-byte blocks, 2 beats each
  input  wire logic        step_i,        // the current beat is done
  output logic             active_o,      // a walk is in progress
  output logic [31:0]      addr_o,
  output logic             half_o,
  output logic [1:0]       lane_o,
  output logic [15:0]      entry_o,
  output logic             last_o,        // the current beat is the walk's last
  output logic             block_end_o    // ... the last of a K block (entry read) or row (job)
);
  // Two loops around the lanes: the middle one (kb in a job, g in an entry
  // read) and the outer one. Per loop: its count, limit, address step and
  // entry step.
  logic        active_q, four_q, fp16_q;
  logic [31:0] stride_q, base_q, lane_off_q, mid_off_q, out_off_q, mid_step_q, out_step_q;
  logic [15:0] mid_n_q, out_n_q, mid_q, out_q, entry_q, out_entry_q, mid_de_q;
  logic [1:0]  lane_q;
  logic        half_q;

  logic half_end, lane_end, mid_end, out_end;
  assign half_end = !fp16_q || half_q;
  assign lane_end = half_end && (four_q ? (lane_q == 2'd3) : 1'b1);
  assign mid_end  = lane_end && (mid_q == mid_n_q - 16'd1);
  assign out_end  = mid_end && (out_q == out_n_q - 16'd1);

  assign active_o = active_q;
  assign addr_o   = base_q + out_off_q + mid_off_q + lane_off_q + {26'd0, half_q, 5'd0};
  assign half_o   = half_q;
  assign lane_o   = lane_q;
  assign entry_o  = entry_q;
  assign last_o   = out_end;
  assign block_end_o = mid_end;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      active_q <= 1'b0;
    end else if (load_i) begin
      active_q <= 1'b1;
    end else if (step_i && out_end) begin
      active_q <= 1'b0;
    end
  end

  // Walk state: meaningful only while active_q, so not reset.
  logic [31:0] grp_step, blk_step;
  assign grp_step = four_lanes_i ? {stride_i[29:0], 2'b00} : stride_i;
  assign blk_step = fp16_i ? 32'd64 : 32'd32;
  always_ff @(posedge clk_i) begin
    if (load_i) begin
      four_q      <= four_lanes_i;
      fp16_q      <= fp16_i;
      stride_q    <= stride_i;
      base_q      <= base_i;
      mid_n_q     <= four_lanes_i ? groups_i : per_group_i;
      out_n_q     <= four_lanes_i ? per_group_i : groups_i;
      mid_step_q  <= four_lanes_i ? grp_step : blk_step;
      out_step_q  <= four_lanes_i ? blk_step : grp_step;
      mid_de_q    <= four_lanes_i ? per_group_i : 16'd1;
      lane_off_q  <= 32'd0;
      mid_off_q   <= 32'd0;
      out_off_q   <= 32'd0;
      mid_q       <= 16'd0;
      out_q       <= 16'd0;
      entry_q     <= 16'd0;
      out_entry_q <= 16'd0;
      lane_q      <= 2'd0;
      half_q      <= 1'b0;
    end else if (step_i && active_q) begin
      half_q <= fp16_q && !half_q;
      if (half_end) begin
        lane_q     <= lane_end ? 2'd0 : lane_q + 2'd1;
        lane_off_q <= lane_end ? 32'd0 : lane_off_q + stride_q;
      end
      if (lane_end && !mid_end) begin
        mid_q     <= mid_q + 16'd1;
        mid_off_q <= mid_off_q + mid_step_q;
        entry_q   <= entry_q + mid_de_q;
      end
      if (mid_end) begin
        // next outer iteration: a job's next row starts at entry
        // (g+1)*per_group, an entry read's next K block at entry kb+1
        mid_q       <= 16'd0;
        mid_off_q   <= 32'd0;
        out_q       <= out_q + 16'd1;
        out_off_q   <= out_off_q + out_step_q;
        entry_q     <= four_q ? out_entry_q + 16'd1 : entry_q + 16'd1;
        out_entry_q <= out_entry_q + 16'd1;
      end
    end
  end

endmodule

`default_nettype wire
