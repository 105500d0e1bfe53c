// ktpu_mem_check: the memory agent's whole-request check (docs/mem.md,
// "Checks"): format, alignment and the exact byte extents against the
// address window, in four steps, each at most one short carry chain between
// registers (docs/timing.md). The agent holds the request's first flit in
// req_i and steps the check with step_i (one-hot: FMul, FAdd1, FAdd2); in
// the cycle after FAdd2 (the agent's FDecide) status_o and bad_addr_o
// answer, and total_o, lo_o and hi_o hold the request's entry count and
// extent 1 for the agent's queue and write path.
`default_nettype none

module ktpu_mem_check #(
  parameter int AddrBits = 24   // DRAM byte address bits: the window is capped at 2^AddrBits
) (
  input  wire logic         clk_i,
  input  wire logic [2:0]   step_i,        // one-hot: bit 0 FMul, bit 1 FAdd1, bit 2 FAdd2
  input  wire logic [287:0] req_i,         // the request's first flit, held while it is checked
  input  wire logic [31:0]  win_base_i,    // the window [base, limit)
  input  wire logic [31:0]  win_limit_i,
  output logic      [3:0]   status_o,      // MEMST_OK, _BADREQ, _ALIGN or _WINDOW, in that precedence
  output logic      [31:0]  bad_addr_o,    // WINDOW: the first byte outside the window
  output logic      [31:0]  total_o,       // entries (read), blocks (job) or ROWS x COLS (write)
  output logic      [31:0]  lo_o,          // extent 1 [lo, hi): a read's or job source's, a write's bytes
  output logic      [31:0]  hi_o
);
  localparam int H = ktpu_pkg::FLIT_HDR_LSB;
  localparam logic [3:0] TyRd   = 4'(ktpu_pkg::MSG_MEM_RD);
  localparam logic [3:0] TyWr   = 4'(ktpu_pkg::MSG_MEM_WR);
  localparam logic [3:0] TyQj   = 4'(ktpu_pkg::MSG_MEM_QJOB);
  localparam logic [3:0] StOk   = 4'(ktpu_pkg::MEMST_OK);
  localparam logic [3:0] StWin  = 4'(ktpu_pkg::MEMST_WINDOW);
  localparam logic [3:0] StAlgn = 4'(ktpu_pkg::MEMST_ALIGN);
  localparam logic [3:0] StBad  = 4'(ktpu_pkg::MEMST_BADREQ);

  logic FMul, FAdd1, FAdd2;
  assign {FAdd2, FAdd1, FMul} = step_i;

  // The request's fields (data/ktpu.def: RD_*, WR_*, QJ_*).
  logic [3:0]  cur_ty;
  logic        cur_last;
  logic [31:0] w0, w1, w2, w3, w4;
  logic [15:0] rd_groups, rd_per, qj_rows, qj_blocks;
  logic [1:0]  rd_fmt;
  logic [2:0]  rd_gn;
  logic [7:0]  wr_count, wr_rows, wr_cols;
  logic        wr_2d;
  assign cur_ty    = req_i[H + ktpu_pkg::FLIT_TYPE_LSB +: 4];
  assign cur_last  = req_i[H + ktpu_pkg::FLIT_LAST_LSB];
  assign w0 = req_i[0 +: 32];
  assign w1 = req_i[32 +: 32];
  assign w2 = req_i[64 +: 32];
  assign w3 = req_i[96 +: 32];
  assign w4 = req_i[128 +: 32];
  assign rd_groups = w2[ktpu_pkg::RD_SHAPE_GROUPS_LSB +: 16];
  assign rd_per    = w2[ktpu_pkg::RD_SHAPE_PER_GROUP_LSB +: 16];
  assign rd_fmt    = w3[ktpu_pkg::RD_CTRL_FMT_LSB +: 2];
  assign rd_gn     = w3[ktpu_pkg::RD_CTRL_GROUP_N_LSB +: 3];
  assign qj_rows   = w4[ktpu_pkg::QJ_SHAPE_ROWS_LSB +: 16];
  assign qj_blocks = w4[ktpu_pkg::QJ_SHAPE_BLOCKS_LSB +: 16];
  assign wr_count  = w2[ktpu_pkg::WR_CTRL_COUNT_LSB +: 8];
  assign wr_rows   = w2[ktpu_pkg::WR_CTRL_ROWS_LSB +: 8];
  assign wr_cols   = w2[ktpu_pkg::WR_CTRL_COLS_LSB +: 8];
  assign wr_2d     = wr_rows != 8'd0;

  // The checks in four steps, each at most one short carry chain between
  // registers: FMul forms the three products (entry
  // count, or a 2-D write's ROWS x COLS; extent 1's and extent 2's
  // (rows - 1) x stride) and each extent's fixed tail; FAdd1 and FAdd2 add
  // the terms of each extent; then they are compared with the window.
  logic [15:0] cnt_a, cnt_b;
  logic [31:0] cnt_p;
  logic [17:0] e1_a, e2_a;
  logic [31:0] e1_b, e2_b;
  logic [49:0] e1_p, e2_p;
  logic [31:0] total_q;            // entries (read), blocks (job) or ROWS x COLS (write)
  // (rows - 1) x stride, saturated at 2^32 - 1: an extent with a saturated
  // term ends at 2^32 or above (every extent's fixed tail is at least one
  // byte, or the request is BADREQ first), outside any window
  // (win_limit_i < 2^32), and a job's two ranges overlap or not as they
  // would unsaturated (each of their starts is below 2^32). So 34 bits
  // hold every sum (three terms below 2^32 and a tail below 2^23).
  logic [31:0] ext1_q, ext2_q;
  logic [33:0] tail1_q, t2_q, lo1_q, t1_q, e12_q, hi1_q, hi2_q;
  logic [4:0]  mask_lo_q;
  logic        bad_q, misaligned_q;
  // bit b: some bit of v below (above) b; a prefix (suffix) OR
  function automatic logic [31:0] or_below(input logic [31:0] v);
    or_below[0] = 1'b0;
    for (int b = 1; b < 32; b++) or_below[b] = or_below[b-1] | v[b-1];
  endfunction
  function automatic logic [31:0] or_above(input logic [31:0] v);
    or_above[31] = 1'b0;
    for (int b = 30; b >= 0; b--) or_above[b] = or_above[b+1] | v[b+1];
  endfunction
  function automatic logic [31:0] sat32(input logic [49:0] p);
    sat32 = (p[49:32] != 18'd0) ? 32'hFFFF_FFFF : p[31:0];   // Yosys 0.23: no `return` of a ?:
  endfunction
  always_comb begin
    if (cur_ty == TyQj)      begin cnt_a = qj_rows;            cnt_b = qj_blocks;         end
    else if (cur_ty == TyWr) begin cnt_a = {8'd0, wr_rows};    cnt_b = {8'd0, wr_cols};   end
    else                     begin cnt_a = rd_groups;          cnt_b = rd_per;            end
    e1_b = w1;
    if (cur_ty == TyRd)      e1_a = {rd_groups, 2'b00} - 18'd1;
    else if (cur_ty == TyQj) e1_a = {2'b00, qj_rows} - 18'd1;
    else if (wr_2d)          e1_a = {10'd0, wr_rows} - 18'd1;
    else                     e1_a = {10'd0, wr_count} - 18'd1;
    // job: destination extent; 2-D write: column extent
    if (cur_ty == TyWr) begin e2_a = {10'd0, wr_cols} - 18'd1; e2_b = w4; end
    else                begin e2_a = {2'b00, qj_rows} - 18'd1;  e2_b = w3; end
  end
  assign cnt_p = 32'(cnt_a) * 32'(cnt_b);
  assign e1_p  = 50'(e1_a) * 50'(e1_b);
  assign e2_p  = 50'(e2_a) * 50'(e2_b);

  // Extents as [lo, hi) in 34 bits: no sum here can wrap. FMul registers
  // the fixed tails (from the flit alone); the flags are registered in FAdd1.
  logic [33:0] win_lo, win_hi, lo1, hi1, lo2, hi2, tail1;
  logic [4:0]  mask_lo, mask_hi;
  logic [31:0] below, above;       // some mask bit below / above bit b
  logic [5:0]  hi_end;             // one past the highest masked byte
  logic        mask_any, bad, misaligned, out1, out2, overlap;
  logic [3:0]  status;
  logic [31:0] bad_addr;
  always_comb begin
    mask_lo  = 5'd0;
    mask_hi  = 5'd0;
    mask_any = (w3 != 32'd0);
    // the lowest and highest set bits: each bit's "first/last set" term
    // (from prefix and suffix ORs) ORed into the index bits, a few LUT
    // levels; a priority chain of if's maps to a 32-deep mux chain
    below = or_below(w3);
    above = or_above(w3);
    for (int b = 0; b < 32; b++) begin
      if (w3[b] && !below[b]) mask_lo = mask_lo | 5'(b);
      if (w3[b] && !above[b]) mask_hi = mask_hi | 5'(b);
    end
    tail1 = 34'd0;
    hi_end = 6'd0;
    bad = 1'b0; misaligned = 1'b0;
    unique case (cur_ty)
      TyRd: begin
        tail1 = 34'(rd_per) << ((rd_fmt == 2'(ktpu_pkg::FMT_FP16)) ? 6 : 5);
        bad = !cur_last || rd_fmt > 2'(ktpu_pkg::FMT_MX) || rd_groups == 16'd0 || rd_per == 16'd0 ||
              total_q > ktpu_pkg::RD_MAX_ENTRIES || 32'(rd_gn) > ktpu_pkg::MEM_GROUP_MAX;
        misaligned = (w0[4:0] != 5'd0) || (w1[4:0] != 5'd0);
      end
      TyQj: begin
        tail1 = 34'(qj_blocks) << 6;
        bad = !cur_last || qj_rows == 16'd0 || qj_blocks == 16'd0;
        misaligned = (w0[4:0] != 5'd0) || (w1[4:0] != 5'd0) || (w2[4:0] != 5'd0) ||
                     (w3[4:0] != 5'd0);
      end
      TyWr: begin
        hi_end = {1'b0, mask_hi} + 6'd1;   // 6 bits: no 34-bit carry chain
        tail1 = 34'(hi_end);
        bad = cur_last || wr_count == 8'd0 ||
              (wr_2d && total_q != 32'(wr_count));
        misaligned = (w0[2:0] != 3'd0) || (w1[2:0] != 3'd0) || (wr_2d && w4[2:0] != 3'd0);
      end
      default: bad = 1'b1;
    endcase
  end

  always_comb begin
    win_lo = 34'(win_base_i);
    win_hi = (34'(win_limit_i) < (34'd1 << AddrBits)) ? 34'(win_limit_i) : (34'd1 << AddrBits);
    lo1 = lo1_q;
    hi1 = hi1_q;
    lo2 = 34'(w2);
    hi2 = hi2_q;
    // A job that reads what it writes would see its own output: refused.
    overlap = (cur_ty == TyQj) && (lo1 < hi2) && (lo2 < hi1);
    out1 = (lo1 < win_lo) || (hi1 > win_hi);
    out2 = (cur_ty == TyQj) && ((lo2 < win_lo) || (hi2 > win_hi));
    if (cur_ty == TyWr && !mask_any) out1 = 1'b0;   // writes nothing
    if (bad_q || overlap)       status = StBad;
    else if (misaligned_q)      status = StAlgn;
    else if (out1 || out2)      status = StWin;
    else                        status = StOk;
    // The offending address: the first byte of the access outside the
    // window (its lowest if that is below the window, else the lowest at or
    // above the window's end).
    if (out1) bad_addr = (lo1 < win_lo) ? lo1[31:0] : ((lo1 > win_hi) ? lo1[31:0] : win_hi[31:0]);
    else      bad_addr = (lo2 < win_lo) ? lo2[31:0] : ((lo2 > win_hi) ? lo2[31:0] : win_hi[31:0]);
  end

  always_ff @(posedge clk_i) begin
    if (FMul) begin
      total_q   <= cnt_p;
      ext1_q    <= sat32(e1_p);
      ext2_q    <= sat32(e2_p);
      tail1_q   <= tail1;
      mask_lo_q <= (cur_ty == TyWr) ? mask_lo : 5'd0;
      t2_q      <= 34'(w2) + (34'(qj_blocks) << 5);
    end
    if (FAdd1) begin
      lo1_q        <= 34'(w0) + 34'(mask_lo_q);
      t1_q         <= 34'(w0) + tail1_q;
      e12_q        <= 34'(ext1_q) + ((cur_ty == TyWr && wr_2d) ? 34'(ext2_q) : 34'd0);
      hi2_q        <= t2_q + 34'(ext2_q);
      bad_q        <= bad;
      misaligned_q <= misaligned;
    end
    if (FAdd2) hi1_q <= t1_q + e12_q;
  end

  assign status_o   = status;
  assign bad_addr_o = bad_addr;
  assign total_o    = total_q;
  assign lo_o       = lo1_q[31:0];
  assign hi_o       = hi1_q[31:0];
endmodule

`default_nettype wire
