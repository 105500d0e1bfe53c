// ktpu_router: one five-port mesh router (SPEC §7).
//
// Ports N, E, S, W, L (ktpu_pkg PORT_*; port p is bits [p*288 +: 288] of the
// flit vectors). Links are valid/ready: a sender holds its flit until taken,
// a flit moves exactly on valid && ready.
//
// - Input buffering: a FifoDepth-entry register FIFO per input. in_ready_o is
//   "not full", a register, so no combinational path runs from a link's
//   ready back through this router to another link.
// - Routing: XY dimension order from the flit's dst (every flit carries the
//   whole header, so a packet's flits all route alike). X first, then Y; a
//   flit never turns from Y back to X, which is what makes the channel
//   dependency graph acyclic (docs/noc.md). Look-ahead: the route a flit
//   takes here is found before it arrives, by the router that sends it
//   (out_route_o, from its own FIFO's head, beside the arbitration) or, for
//   the local port, as it is written; each FIFO entry keeps it. So no
//   destination compare lies between a FIFO's head and the output
//   arbitration, nor after the output multiplexer on the link.
// - Arbitration: per output, round-robin among the inputs whose head flit
//   wants it; the pointer moves past the winner when a packet's first flit
//   is taken. An output that presents a flit which is not taken stays bound
//   to that input (hold until taken holds through the router too).
// - Wormhole: once an output passes a flit with last = 0 it stays locked to
//   that input until the flit with last = 1 has passed, so packets are never
//   interleaved on a link.
// - Eject stage: the local output reaches its endpoint through a register
//   (ktpu.def ROUTER_EJECT_STAGE; 0: straight), refilled in the cycle the
//   endpoint takes it. What the endpoint sees is a register, so no logic
//   path runs from this router's arbitration into the endpoint (the whole
//   machine's longest paths, docs/timing.md); back, only the endpoint's
//   ready enters the arbitration, as on the router-to-router links.
// Throughput: one flit per cycle per output; latency 1 cycle per hop (FIFO
// register) when the output is free, one more into the endpoint. The
// look-ahead changes no cycle.
// Clock: gated (ktpu_clk_gate) while every input FIFO is empty and no flit
// arrives: with no flit the router presents nothing and no register of it
// changes, so the gate is invisible on the links (docs/noc.md).
`default_nettype none

module ktpu_router #(
  parameter int X         = 0,  // this router's coordinates
  parameter int Y         = 0,
  parameter int FifoDepth = 2,  // flits per input FIFO (2 sustains 1 flit/cycle)
  parameter bit EjectStage = ktpu_pkg::ROUTER_EJECT_STAGE != 0  // a register on the L output
) (
  input  wire logic           clk_i,
  input  wire logic           rst_i,
  input  wire logic [4:0]     in_valid_i,
  output logic      [4:0]     in_ready_o,
  input  wire logic [5*288-1:0] in_flit_i,
  input  wire logic [5*5-1:0] in_route_i,   // per input: its flit's route here (one-hot output),
                                            // from the sender's out_route_o; not read for L
  output logic      [4:0]     out_valid_o,
  input  wire logic [4:0]     out_ready_i,
  output logic      [5*288-1:0] out_flit_o,
  output logic      [5*5-1:0] out_route_o   // per output: its flit's route at the next router
                                            // that way (0 for L and where none can be)
);

  localparam int W    = ktpu_pkg::FLIT_BITS;
  localparam int PtrW = (FifoDepth > 1) ? $clog2(FifoDepth) : 1;

  if (ktpu_pkg::FLIT_BITS != 32'd288 || ktpu_pkg::ROUTER_PORTS != 32'd5) begin : gen_bad_defs
    $error("ktpu_router: written for 288-bit flits and 5 ports");
  end
  if (FifoDepth < 2 || (1 << PtrW) != FifoDepth) begin : gen_bad_depth
    $error("ktpu_router: FifoDepth must be a power of two >= 2");
  end
  localparam int MaxDim = ktpu_pkg::MESH_MAX_DIM;
  localparam int PortN = ktpu_pkg::PORT_N, PortE = ktpu_pkg::PORT_E, PortS = ktpu_pkg::PORT_S;
  localparam int PortW = ktpu_pkg::PORT_W, PortL = ktpu_pkg::PORT_L;
  if (X < 0 || Y < 0 || X >= MaxDim || Y >= MaxDim) begin : gen_bad_xy
    $error("ktpu_router: coordinates must fit the 4-bit header fields");
  end

  localparam int HdrDxLsb = ktpu_pkg::FLIT_HDR_LSB + ktpu_pkg::FLIT_DST_X_LSB;
  localparam int HdrDyLsb = ktpu_pkg::FLIT_HDR_LSB + ktpu_pkg::FLIT_DST_Y_LSB;
  localparam int HdrLast  = ktpu_pkg::FLIT_HDR_LSB + ktpu_pkg::FLIT_LAST_LSB;

  // XY route, one-hot over the outputs, of a flit for (dx, dy) at router (x, y).
  function automatic logic [4:0] xy_route(input logic [3:0] dx, input logic [3:0] dy,
                                          input logic [3:0] x, input logic [3:0] y);
    xy_route = 5'b00000;
    if (dx > x)      xy_route[PortE] = 1'b1;
    else if (dx < x) xy_route[PortW] = 1'b1;
    else if (dy > y) xy_route[PortS] = 1'b1;
    else if (dy < y) xy_route[PortN] = 1'b1;
    else             xy_route[PortL] = 1'b1;
  endfunction

  // ---- clock gate ------------------------------------------------------------
  logic [4:0] head_v;
  logic       ej_busy;   // the eject register holds a flit
  logic       gclk;
  ktpu_clk_gate u_gate (.clk_i(clk_i), .en_i(rst_i || in_valid_i != '0 || head_v != '0 || ej_busy),
                        .gclk_o(gclk));

  // ---- input FIFOs ----------------------------------------------------------
  logic [W-1:0]  head   [5];
  logic [4:0]    want   [5];  // want[p][o]: input p's head flit wants output o
  logic [4:0]    pop;

  for (genvar p = 0; p < 5; p++) begin : gen_in
    logic [W-1:0]  mem_q   [FifoDepth];  // register FIFO (no RAM primitive: 2 entries)
    logic [4:0]    route_q [FifoDepth];  // ... and each entry's route here
    logic [PtrW-1:0] rd_q, wr_q;
    logic [PtrW:0]   cnt_q;
    logic            push;
    logic [4:0]      in_route;

    assign in_ready_o[p] = (cnt_q != (PtrW+1)'(FifoDepth));
    assign push          = in_valid_i[p] && in_ready_o[p];
    assign head_v[p]     = (cnt_q != '0);
    assign head[p]       = mem_q[rd_q];
    assign want[p]       = head_v[p] ? route_q[rd_q] : 5'b00000;
    // the local port's flits are routed as they are written (a node sends
    // no route); the others come with theirs
    if (p == PortL) begin : gen_route_here
      assign in_route = xy_route(in_flit_i[p*W + HdrDxLsb +: 4], in_flit_i[p*W + HdrDyLsb +: 4], 4'(X), 4'(Y));
      /* verilator lint_off UNUSEDSIGNAL */
      wire [4:0] unused_route = in_route_i[p*5 +: 5];
      /* verilator lint_on UNUSEDSIGNAL */
    end else begin : gen_route_sent
      assign in_route = in_route_i[p*5 +: 5];
    end

    always_ff @(posedge gclk) begin
      if (rst_i) begin
        rd_q  <= '0;
        wr_q  <= '0;
        cnt_q <= '0;
      end else begin
        if (push) wr_q <= wr_q + 1'b1;
        if (pop[p]) rd_q <= rd_q + 1'b1;
        cnt_q <= cnt_q + (PtrW+1)'(push) - (PtrW+1)'(pop[p]);
      end
    end
    // Payload storage needs no reset: cnt_q says what is valid.
    always_ff @(posedge gclk) begin
      if (push) begin
        mem_q[wr_q]   <= in_flit_i[p*W +: W];
        route_q[wr_q] <= in_route;
      end
    end
  end

  // ---- output arbitration ---------------------------------------------------
  logic [4:0] sel  [5];   // sel[o]: one-hot input selected by output o
  logic [4:0] take [5];   // take[o][p]: output o takes input p's head this cycle

  for (genvar o = 0; o < 5; o++) begin : gen_out
    // The output is bound to owner_q while a packet is mid-flight (mid_q) or
    // while it presents a flit that was not taken (hold_q): without hold_q a
    // newly arrived requester earlier in round-robin order would replace a
    // flit already on the link, breaking hold-until-taken.
    logic       mid_q;
    logic       hold_q;
    logic [4:0] owner_q;       // one-hot
    logic [2:0] ptr_q;         // round-robin: first input to consider
    logic [4:0] req;
    logic [4:0] pick;
    logic [W-1:0] flit;
    logic       a_valid, a_ready;   // the arbitration's flit, and whether it can leave

    // Inputs that can reach this output under XY routing: a flit that came
    // in moving along Y goes on along Y or to L; nothing turns back. The other
    // mux legs are never built (an illegal turn would be a routing bug, which
    // the assertions below report).
    localparam logic [4:0] Legal =
        (o == PortE) ? ((5'b1 << PortW) | (5'b1 << PortL)) :
        (o == PortW) ? ((5'b1 << PortE) | (5'b1 << PortL)) :
        (o == PortN) ? ((5'b1 << PortS) | (5'b1 << PortE) | (5'b1 << PortW) | (5'b1 << PortL)) :
        (o == PortS) ? ((5'b1 << PortN) | (5'b1 << PortE) | (5'b1 << PortW) | (5'b1 << PortL)) :
                       5'b11111;

    always_comb begin
      for (int p = 0; p < 5; p++) req[p] = want[p][o] && Legal[p];
    end

    // Round-robin: first requester at or after ptr_q, wrapping.
    always_comb begin
      pick = 5'b00000;
      // input (r + k) mod 5 for each pointer value r, a constant per term:
      // no index arithmetic in front of the arbitration (docs/timing.md)
      for (int r = 0; r < 5; r++)
        for (int k = 4; k >= 0; k--)
          if (ptr_q == 3'(r) && req[(r + k) % 5]) pick = 5'b00001 << ((r + k) % 5);
    end

    assign sel[o] = (mid_q || hold_q) ? (owner_q & req) : pick;

    always_comb begin
      flit = '0;
      for (int p = 0; p < 5; p++) if (sel[o][p]) flit = head[p];
    end

    // The look-ahead: each legal input's head routed at the next router
    // this way (from the head, not from the multiplexed flit, so the compares
    // run beside the arbitration), then selected as the flit is. None where
    // no router can be (the local port; beyond coordinate 0 or 15).
    localparam int  NextX = (o == PortE) ? X + 1 : (o == PortW) ? X - 1 : X;
    localparam int  NextY = (o == PortS) ? Y + 1 : (o == PortN) ? Y - 1 : Y;
    localparam bit  HasNext = o != PortL && NextX >= 0 && NextY >= 0 && NextX < MaxDim && NextY < MaxDim;
    logic [4:0] next_route;
    if (HasNext) begin : gen_next
      always_comb begin
        next_route = 5'b00000;
        for (int p = 0; p < 5; p++)
          if (sel[o][p] && Legal[p])
            next_route = xy_route(head[p][HdrDxLsb +: 4], head[p][HdrDyLsb +: 4], 4'(NextX), 4'(NextY));
      end
    end else begin : gen_no_next
      assign next_route = 5'b00000;
    end

    assign a_valid               = (sel[o] != 5'b00000);
    assign out_route_o[o*5 +: 5] = next_route;
    assign take[o]               = a_ready ? sel[o] : 5'b00000;

    if (o == PortL && EjectStage) begin : gen_eject
      // one register: the flit the endpoint sees, refilled as it is taken
      logic         ej_v_q;
      logic [W-1:0] ej_q;
      assign a_ready  = !ej_v_q || out_ready_i[o];
      assign ej_busy  = ej_v_q;
      assign out_valid_o[o]       = ej_v_q;
      assign out_flit_o[o*W +: W] = ej_q;
      always_ff @(posedge gclk) begin
        if (rst_i) ej_v_q <= 1'b0;
        else if (a_ready) ej_v_q <= a_valid;
      end
      // loaded on ready alone, a bubble too (ej_v_q says): a_valid in the
      // enable put the arbitration in front of 288 enables (router 13 levels)
      always_ff @(posedge gclk) if (a_ready) ej_q <= flit;
    end else begin : gen_direct
      assign a_ready              = out_ready_i[o];
      assign out_valid_o[o]       = a_valid;
      assign out_flit_o[o*W +: W] = flit;
      if (o == PortL) begin : gen_no_eject
        assign ej_busy = 1'b0;
      end
    end

    always_ff @(posedge gclk) begin
      if (rst_i) begin
        mid_q   <= 1'b0;
        hold_q  <= 1'b0;
        owner_q <= 5'b00000;
        ptr_q   <= 3'd0;
      end else if (take[o] != 5'b00000) begin
        mid_q   <= !flit[HdrLast];
        hold_q  <= 1'b0;
        owner_q <= take[o];
        // The pointer moves past the winner once per packet, at its head.
        if (!mid_q) begin
          for (int p = 0; p < 5; p++)
            if (take[o][p]) ptr_q <= (p == 4) ? 3'd0 : 3'(p + 1);
        end
      end else if (a_valid) begin
        hold_q  <= 1'b1;
        owner_q <= sel[o];
      end
    end

`ifndef SYNTHESIS
    // Hold until taken, on every output (for L, into the eject stage): a
    // flit presented and not taken is presented again, unchanged.
    logic         held_q;
    logic [W-1:0] held_f_q;
    always_ff @(posedge gclk) begin
      held_q <= !rst_i && a_valid && !a_ready;
      if (a_valid && !a_ready) held_f_q <= flit;
      if (!rst_i && held_q)
        assert (a_valid && flit == held_f_q)
          else $error("ktpu_router(%0d,%0d): output %0d changed a flit it presented before it was taken", X, Y, o);
    end
    // A packet whose flits disagree on dst would wedge a bound output.
    always_ff @(posedge gclk) begin
      if (!rst_i && (mid_q || hold_q) && (owner_q & head_v) != 5'b00000)
        assert ((owner_q & ~req) == 5'b00000)
          else $error("ktpu_router(%0d,%0d): packet on output %0d changed route mid-packet", X, Y, o);
      for (int p = 0; p < 5; p++)
        if (!rst_i && want[p][o] && !Legal[p])
          $error("ktpu_router(%0d,%0d): input %0d wants output %0d, not an XY turn", X, Y, p, o);
    end
`endif
  end

  always_comb begin
    pop = 5'b00000;
    for (int o = 0; o < 5; o++) pop = pop | take[o];
  end

`ifndef SYNTHESIS
  // An input's head wants exactly one output, so at most one output takes it.
  always_ff @(posedge gclk) begin
    if (!rst_i) begin
      for (int p = 0; p < 5; p++) begin
        int n;
        n = 0;
        for (int o = 0; o < 5; o++) n += 32'(take[o][p]);
        assert (n <= 1) else $error("ktpu_router(%0d,%0d): input %0d taken twice", X, Y, p);
      end
      // XY: a flit that arrived moving in Y never turns back to X.
      assert (!(want[PortN][PortE] || want[PortN][PortW] || want[PortS][PortE] ||
                want[PortS][PortW]))
        else $error("ktpu_router(%0d,%0d): Y-to-X turn (misrouted flit)", X, Y);
      // The route a head came with is its route here (a sender's look-ahead
      // for the wrong neighbour, or a link to one, would differ).
      for (int p = 0; p < 5; p++)
        if (head_v[p])
          assert (want[p] == xy_route(head[p][HdrDxLsb +: 4], head[p][HdrDyLsb +: 4], 4'(X), 4'(Y)))
            else $error("ktpu_router(%0d,%0d): input %0d came with route %b, not its XY route", X, Y, p, want[p]);
    end
  end
`endif

endmodule

`default_nettype wire
