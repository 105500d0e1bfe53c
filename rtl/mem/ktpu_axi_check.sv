// ktpu_axi_check: AXI4 protocol assertions on one link (a master, a slave
// and the wires between), for simulation; it drives nothing. It stops the
// run ($fatal, naming the link and the rule) on:
// - a VALID that falls before its READY, or a payload that changes while
//   VALID waits (AW, W, AR, R, B);
// - a VALID high in reset (from the second reset cycle: synchronous-reset
//   logic is undefined until the first edge);
// - a burst that is not what this project's links carry: INCR, AxSIZE 5
//   (32-byte beats), an aligned address, not crossing a 4 KiB page;
// - a write burst whose WLAST is not on its AWLEN + 1-th beat (W may lead
//   or follow its AW: the two are matched in order);
// - per ID: an R beat with no read of that ID outstanding or an RLAST that
//   is not on the burst's last beat, a B with no write of that ID whose
//   data have all been sent; and, at the end, nothing is counted wrong.
// It keeps up to Outstanding bursts per ID and direction (fixed arrays).
// Simulation only: the whole module is left out of synthesis (the board's
// file list carries it, as the two tops share one list of blocks).
`ifndef SYNTHESIS
`default_nettype none

module ktpu_axi_check #(
  parameter     Name = "axi",
  parameter int AddrBits = 32,
  parameter int IdBits = 4,
  parameter int Outstanding = 128   // ktpu_axi_bridge's Flight
) (
  input wire logic                clk_i,
  input wire logic                rst_i,
  input wire logic [IdBits-1:0]   awid_i,
  input wire logic [AddrBits-1:0] awaddr_i,
  input wire logic [7:0]          awlen_i,
  input wire logic [2:0]          awsize_i,
  input wire logic [1:0]          awburst_i,
  input wire logic                awvalid_i,
  input wire logic                awready_i,
  input wire logic [255:0]        wdata_i,
  input wire logic [31:0]         wstrb_i,
  input wire logic                wlast_i,
  input wire logic                wvalid_i,
  input wire logic                wready_i,
  input wire logic [IdBits-1:0]   bid_i,
  input wire logic [1:0]          bresp_i,
  input wire logic                bvalid_i,
  input wire logic                bready_i,
  input wire logic [IdBits-1:0]   arid_i,
  input wire logic [AddrBits-1:0] araddr_i,
  input wire logic [7:0]          arlen_i,
  input wire logic [2:0]          arsize_i,
  input wire logic [1:0]          arburst_i,
  input wire logic                arvalid_i,
  input wire logic                arready_i,
  input wire logic [IdBits-1:0]   rid_i,
  input wire logic [255:0]        rdata_i,
  input wire logic [1:0]          rresp_i,
  input wire logic                rlast_i,
  input wire logic                rvalid_i,
  input wire logic                rready_i
);
  localparam int Ids = 1 << IdBits;
  localparam int OB = $clog2(Outstanding);

  // ---------------------------------------------------------------- stability
  typedef struct packed {
    logic [IdBits-1:0] id; logic [AddrBits-1:0] addr; logic [7:0] len; logic [2:0] size; logic [1:0] burst;
  } ax_t;
  ax_t aw, ar, aw_q, ar_q;
  assign aw = '{awid_i, awaddr_i, awlen_i, awsize_i, awburst_i};
  assign ar = '{arid_i, araddr_i, arlen_i, arsize_i, arburst_i};
  logic [288:0] w_q;
  logic [IdBits+1:0] b_q;
  logic [IdBits+258:0] r_q;
  // sim-only: initial values, so the first clock edge checks nothing undefined
  logic aw_wait_q = 1'b0, w_wait_q = 1'b0, b_wait_q = 1'b0, ar_wait_q = 1'b0, r_wait_q = 1'b0;
  logic rst_q = 1'b0;   // reset seen at a clock edge already: from then on the valids are low

  always_ff @(posedge clk_i) begin
    aw_wait_q <= !rst_i && awvalid_i && !awready_i;
    w_wait_q  <= !rst_i && wvalid_i && !wready_i;
    b_wait_q  <= !rst_i && bvalid_i && !bready_i;
    ar_wait_q <= !rst_i && arvalid_i && !arready_i;
    r_wait_q  <= !rst_i && rvalid_i && !rready_i;
    aw_q <= aw; ar_q <= ar;
    w_q  <= {wlast_i, wstrb_i, wdata_i};
    b_q  <= {bid_i, bresp_i};
    r_q  <= {rid_i, rresp_i, rlast_i, rdata_i};
    rst_q <= rst_i;
    if (rst_i && rst_q && (awvalid_i || wvalid_i || bvalid_i || arvalid_i || rvalid_i))
      $fatal(1, "%s: a VALID is high in reset", Name);
    if (aw_wait_q && (!awvalid_i || aw != aw_q)) $fatal(1, "%s: AW dropped or changed before AWREADY", Name);
    if (w_wait_q && (!wvalid_i || {wlast_i, wstrb_i, wdata_i} != w_q))
      $fatal(1, "%s: W dropped or changed before WREADY", Name);
    if (b_wait_q && (!bvalid_i || {bid_i, bresp_i} != b_q)) $fatal(1, "%s: B dropped or changed before BREADY", Name);
    if (ar_wait_q && (!arvalid_i || ar != ar_q)) $fatal(1, "%s: AR dropped or changed before ARREADY", Name);
    if (r_wait_q && (!rvalid_i || {rid_i, rresp_i, rlast_i, rdata_i} != r_q))
      $fatal(1, "%s: R dropped or changed before RREADY", Name);
  end

  // ---------------------------------------------------------------- burst shape
  function automatic logic bad_shape(input logic [11:0] addr, input logic [7:0] len,
                                     input logic [2:0] size, input logic [1:0] burst);
    return burst != 2'b01 || size != 3'd5 || addr[4:0] != 5'd0 ||
           {1'b0, addr[11:5]} + {1'b0, len[6:0]} > 8'd127 || len > 8'd127;
  endfunction
  logic aw_go, w_go, b_go, ar_go, r_go;
  assign aw_go = awvalid_i && awready_i;
  assign w_go  = wvalid_i && wready_i;
  assign b_go  = bvalid_i && bready_i;
  assign ar_go = arvalid_i && arready_i;
  assign r_go  = rvalid_i && rready_i;

  always_ff @(posedge clk_i) begin
    if (!rst_i && aw_go && bad_shape(awaddr_i[11:0], awlen_i, awsize_i, awburst_i))
      $fatal(1, "%s: AW burst %0d len %0d size %0d at 0x%0h: not INCR of 32-byte beats within a 4 KiB page",
             Name, awburst_i, awlen_i, awsize_i, awaddr_i);
    if (!rst_i && ar_go && bad_shape(araddr_i[11:0], arlen_i, arsize_i, arburst_i))
      $fatal(1, "%s: AR burst %0d len %0d size %0d at 0x%0h: not INCR of 32-byte beats within a 4 KiB page",
             Name, arburst_i, arlen_i, arsize_i, araddr_i);
  end

  // ---------------------------------------------------------------- writes
  // AW lengths and IDs in order, W burst lengths (counted to WLAST) in order;
  // the heads are matched whenever both exist.
  logic [7:0]        awq_len [Outstanding];
  logic [IdBits-1:0] awq_id  [Outstanding];
  logic [7:0]        wq_len  [Outstanding];
  logic [OB:0]       awq_n_q, wq_n_q;
  logic [OB-1:0]     awq_h_q, wq_h_q;
  logic [7:0]        w_beats_q;          // beats of the W burst under way
  logic [OB:0]       wr_done_q [Ids];    // writes of that ID with AW and all W, not yet B
                                         // (a match counts in its own cycle: a B may come then)
  logic              match;
  assign match = awq_n_q != '0 && wq_n_q != '0;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      awq_n_q <= '0; wq_n_q <= '0; awq_h_q <= '0; wq_h_q <= '0; w_beats_q <= '0;
      for (int i = 0; i < Ids; i++) wr_done_q[i] <= '0;
    end else begin
      if (aw_go) begin
        if (awq_n_q == (OB+1)'(Outstanding)) $fatal(1, "%s: more than %0d AW ahead of their W", Name, Outstanding);
        awq_len[OB'(awq_h_q + OB'(awq_n_q))] <= awlen_i;
        awq_id[OB'(awq_h_q + OB'(awq_n_q))]  <= awid_i;
      end
      if (w_go) begin
        if (!wlast_i && w_beats_q == 8'd255) $fatal(1, "%s: W burst of more than 256 beats", Name);
        w_beats_q <= wlast_i ? 8'd0 : w_beats_q + 8'd1;
        if (wlast_i) begin
          if (wq_n_q == (OB+1)'(Outstanding)) $fatal(1, "%s: more than %0d W bursts ahead of their AW", Name, Outstanding);
          wq_len[OB'(wq_h_q + OB'(wq_n_q))] <= w_beats_q;
        end
      end
      if (match) begin
        if (awq_len[awq_h_q] != wq_len[wq_h_q])
          $fatal(1, "%s: W burst of %0d beats for an AW of AWLEN %0d (WLAST misplaced)",
                 Name, wq_len[wq_h_q] + 8'd1, awq_len[awq_h_q]);
        awq_h_q <= awq_h_q + 1'b1;
        wq_h_q  <= wq_h_q + 1'b1;
      end
      awq_n_q <= awq_n_q + (OB+1)'(aw_go) - (OB+1)'(match);
      wq_n_q  <= wq_n_q + (OB+1)'(w_go && wlast_i) - (OB+1)'(match);
      for (int i = 0; i < Ids; i++)
        wr_done_q[i] <= wr_done_q[i] + (OB+1)'(match && awq_id[awq_h_q] == IdBits'(i))
                                     - (OB+1)'(b_go && bid_i == IdBits'(i));
      if (b_go && wr_done_q[bid_i] == '0 && !(match && awq_id[awq_h_q] == bid_i))
        $fatal(1, "%s: B for ID %0d with no write of that ID complete (AW and WLAST)", Name, bid_i);
    end
  end

  // ---------------------------------------------------------------- reads
  logic [7:0]  arq_len [Ids][Outstanding];
  logic [OB:0] arq_n_q [Ids];
  logic [OB-1:0] arq_h_q [Ids];
  logic [7:0]  r_beat_q [Ids];

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      for (int i = 0; i < Ids; i++) begin arq_n_q[i] <= '0; arq_h_q[i] <= '0; r_beat_q[i] <= '0; end
    end else begin
      if (ar_go) begin
        if (arq_n_q[arid_i] == (OB+1)'(Outstanding))
          $fatal(1, "%s: more than %0d reads of ID %0d outstanding", Name, Outstanding, arid_i);
        arq_len[arid_i][OB'(arq_h_q[arid_i] + OB'(arq_n_q[arid_i]))] <= arlen_i;
      end
      if (r_go) begin
        if (arq_n_q[rid_i] == '0)
          $fatal(1, "%s: R beat for ID %0d with no read of that ID outstanding", Name, rid_i);
        if (rlast_i != (r_beat_q[rid_i] == arq_len[rid_i][arq_h_q[rid_i]]))
          $fatal(1, "%s: RLAST %0d on beat %0d of an ARLEN %0d burst (ID %0d)",
                 Name, rlast_i, r_beat_q[rid_i], arq_len[rid_i][arq_h_q[rid_i]], rid_i);
        r_beat_q[rid_i] <= rlast_i ? 8'd0 : r_beat_q[rid_i] + 8'd1;
        if (rlast_i) arq_h_q[rid_i] <= arq_h_q[rid_i] + 1'b1;
      end
      for (int i = 0; i < Ids; i++)
        arq_n_q[i] <= arq_n_q[i] + (OB+1)'(ar_go && arid_i == IdBits'(i))
                                 - (OB+1)'(r_go && rlast_i && rid_i == IdBits'(i));
    end
  end

endmodule

`default_nettype wire
`endif
