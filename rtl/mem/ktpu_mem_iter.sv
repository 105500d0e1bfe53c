// ktpu_mem_iter: the beat order of one memory-agent stream (SPEC §8).
//
// Visits, for g < groups, kb < per_group, lane < lanes, half < halves:
//   addr = base + (g*lanes + lane)*stride + kb*block_bytes + 32*half
// with lanes 4 (an L1 entry: four rows) or 1 (a quantise job: one row), and
// FP16 blocks (64 bytes, two 32-byte beats) or MXFP7 blocks (32 bytes, one
// beat). entry = g*per_group + kb counts entries in visiting order.
// The agent runs one copy where it issues DRAM reads and one where the
// responses come back (and one for quantise-job write-back): responses are in
// order, so the same walk on both sides names every beat without carrying
// its address or entry through the DRAM.
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
  input  wire logic        four_lanes_i,  // 1: 4 lanes, 0: 1 lane
  input  wire logic        fp16_i,        // 1: 64-byte blocks, 2 beats each
  input  wire logic        step_i,        // the current beat is done
  output logic             active_o,      // a walk is in progress
  output logic [31:0]      addr_o,
  output logic             half_o,
  output logic [1:0]       lane_o,
  output logic [15:0]      entry_o,
  output logic             last_o         // the current beat is the walk's last
);
  logic        active_q, four_q, fp16_q;
  logic [31:0] stride_q, grp_base_q, lane_off_q, kb_off_q;
  logic [15:0] groups_q, per_group_q, g_q, kb_q, entry_q;
  logic [1:0]  lane_q;
  logic        half_q;

  logic half_end, lane_end, kb_end, g_end;
  assign half_end = !fp16_q || half_q;
  assign lane_end = half_end && (four_q ? (lane_q == 2'd3) : 1'b1);
  assign kb_end   = lane_end && (kb_q == per_group_q - 16'd1);
  assign g_end    = kb_end && (g_q == groups_q - 16'd1);

  assign active_o = active_q;
  assign addr_o   = grp_base_q + lane_off_q + kb_off_q + {26'd0, half_q, 5'd0};
  assign half_o   = half_q;
  assign lane_o   = lane_q;
  assign entry_o  = entry_q;
  assign last_o   = g_end;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      active_q <= 1'b0;
    end else if (load_i) begin
      active_q <= 1'b1;
    end else if (step_i && g_end) begin
      active_q <= 1'b0;
    end
  end

  // Walk state: meaningful only while active_q, so not reset.
  always_ff @(posedge clk_i) begin
    if (load_i) begin
      four_q      <= four_lanes_i;
      fp16_q      <= fp16_i;
      stride_q    <= stride_i;
      groups_q    <= groups_i;
      per_group_q <= per_group_i;
      grp_base_q  <= base_i;
      lane_off_q  <= 32'd0;
      kb_off_q    <= 32'd0;
      g_q         <= 16'd0;
      kb_q        <= 16'd0;
      entry_q     <= 16'd0;
      lane_q      <= 2'd0;
      half_q      <= 1'b0;
    end else if (step_i && active_q) begin
      half_q <= fp16_q && !half_q;
      if (half_end) begin
        lane_q     <= lane_end ? 2'd0 : lane_q + 2'd1;
        lane_off_q <= lane_end ? 32'd0 : lane_off_q + stride_q;
      end
      if (lane_end) begin
        entry_q  <= entry_q + 16'd1;
        kb_q     <= kb_end ? 16'd0 : kb_q + 16'd1;
        kb_off_q <= kb_end ? 32'd0 : kb_off_q + (fp16_q ? 32'd64 : 32'd32);
      end
      if (kb_end) begin
        g_q        <= g_q + 16'd1;
        grp_base_q <= grp_base_q + (four_q ? {stride_q[29:0], 2'b00} : stride_q);
      end
    end
  end

endmodule

`default_nettype wire
