`default_nettype none
// Cluster node instruction queue: the FIFO (NODE_IQ_DEPTH, distributed RAM)
// and its head, checked a cycle ahead of the engine.
//
// The field checks of an instruction (ranges, extents, alignment: every
// CLERR code but LENGTH and FILLFAIL, which the engine decides at dispatch)
// are made on the FIFO's output and registered with it, so the node's
// engine dispatches from registers and its path does not run through the
// products GM x NK, GN x NK, GM x GN and the extents (docs/timing.md: the
// node's longest path was this check, 30 levels). An instruction that
// finds the node idle waits one cycle more; the FIFO and the head hold
// NODE_IQ_DEPTH + 1 instructions, more than the sender's credits. A FILL's
// split over two memory agents (ktpu_node_fill) is found here too, for the
// same reason: the power of two nearest half its groups is a priority
// encoder, a compare and a decode (23 levels when the fill engine did it at
// dispatch, docs/timing.md).
//
// Extents without wrapping: an offset or a count above the depth fails
// alone; below it both fit in log2(depth) + 1 bits and their sum is exact.
module ktpu_node_iq #(
  parameter int unsigned Width    = 241,   // {bad length, src x, src y, txn, payload words 0..6}
  parameter int unsigned X        = 0,     // this node: a SEND, RECV or FWD naming it is refused
  parameter int unsigned Y        = 1,
  parameter int unsigned L1Depth  = ktpu_pkg::L1_DEPTH,
  parameter int unsigned AccDepth = ktpu_pkg::ACC_DEPTH
) (
  input  wire              clk_i,
  input  wire              rst_i,
  input  wire              push_i,
  input  wire [Width-1:0]  wdata_i,
  output logic             full_o,
  output logic             empty_o,    // nothing queued, not even at the head
  output logic             valid_o,    // the head holds an instruction
  output logic [Width-1:0] head_o,
  output logic [7:0]       chk_o,      // its CLERR_* (OK: every field check passed)
  output logic [15:0]      gmgn_o,     // its GM x GN (low 16 bits: a FWD GEMM's packet count)
  output logic [4:0]       half_o,     // {split, sh}: a FILL's first half is 2^sh of its GM groups
  input  wire              pop_i       // the engine is done with the head
);
  localparam int unsigned L1W = $clog2(L1Depth);
  localparam int unsigned TW  = $clog2(AccDepth);
  localparam logic [3:0] OpFill = 4'(ktpu_pkg::CLOP_FILL), OpGemm = 4'(ktpu_pkg::CLOP_GEMM);
  localparam logic [3:0] OpDrain = 4'(ktpu_pkg::CLOP_DRAIN), OpSend = 4'(ktpu_pkg::CLOP_SEND);
  localparam logic [3:0] OpRecv = 4'(ktpu_pkg::CLOP_RECV), OpStatus = 4'(ktpu_pkg::CLOP_STATUS);
  if ((1 << L1W) != L1Depth || (1 << TW) != AccDepth || L1Depth > 32768 || AccDepth > 32768 ||
      Width < 224) begin : gen_bad_params
    $error("ktpu_node_iq: power-of-two depths of at most 2^15 (16-bit offsets), 7 payload words");
  end

  logic [Width-1:0] iq_rdata;
  logic             fifo_empty, hd_load;
  logic [$clog2(ktpu_pkg::NODE_IQ_DEPTH+1)-1:0] fifo_count;   // with what is still in its RAM
  ktpu_fifo #(.Width(Width), .Depth(ktpu_pkg::NODE_IQ_DEPTH), .Primitive("distributed"),
              .Name("ktpu_node instruction FIFO")) u_fifo (
    .clk_i(clk_i), .rst_ni(!rst_i), .push_i(push_i), .wdata_i(wdata_i),
    .pop_i(hd_load), .rdata_o(iq_rdata), .empty_o(fifo_empty), .full_o(full_o),
    .count_o(fifo_count)
  );

  function automatic logic l1_fits(input logic [15:0] off, input logic [31:0] n);
    l1_fits = off <= 16'(L1Depth) && n <= 32'(L1Depth) &&
              (L1W+2)'(off[L1W:0]) + (L1W+2)'(n[L1W:0]) <= (L1W+2)'(L1Depth);
  endfunction
  function automatic logic acc_fits(input logic [15:0] off, input logic [31:0] n);
    acc_fits = off <= 16'(AccDepth) && n <= 32'(AccDepth) &&
               (TW+2)'(off[TW:0]) + (TW+2)'(n[TW:0]) <= (TW+2)'(AccDepth);
  endfunction
  // {split, sh}: 2^sh is the power of two nearest g/2 (g in [2^m, 2^(m+1)):
  // 2^(m-1) or 2^m, the latter when g > 1.5 * 2^m); one group is not split
  function automatic logic [4:0] first_half(input logic [15:0] g);
    logic [3:0] m;
    m = '0;
    for (int i = 1; i < 16; i++) if (g[i]) m = 4'(i);
    first_half = {m != 4'd0, ((g & ~(16'd1 << m)) > (16'd1 << (m - 4'd1))) ? m : m - 4'd1};
  endfunction
  function automatic logic [15:0] fld16(input logic [Width-1:0] q, input int word, input int lsb);
    fld16 = q[32*word + lsb +: 16];
  endfunction

  logic [7:0]  chk;                    // CLERR_* of every check but LENGTH and FILLFAIL
  logic [15:0] chk_gmgn;
  always_comb begin : check
    logic [3:0]  c_op;
    logic [1:0]  c_fmt;
    logic        c_acc, c_emit, c_fwd, c_self;
    logic [15:0] c_aoff, c_boff, c_toff, c_gm, c_gn, c_nk;
    logic [4:0]  c_base, c_stride;      // their alignment bits
    logic [31:0] c_gmnk, c_gnnk, c_gmgn;
    c_op     = iq_rdata[32*ktpu_pkg::CI_OP_WORD + ktpu_pkg::CI_OP_CODE_LSB +: 4];
    c_fmt    = iq_rdata[32*ktpu_pkg::CI_OP_WORD + ktpu_pkg::CI_OP_FMT_LSB +: 2];
    c_acc    = iq_rdata[32*ktpu_pkg::CI_OP_WORD + ktpu_pkg::CI_OP_ACC_LSB];
    c_emit   = iq_rdata[32*ktpu_pkg::CI_OP_WORD + ktpu_pkg::CI_OP_EMIT_LSB];
    c_fwd    = iq_rdata[32*ktpu_pkg::CI_OP_WORD + ktpu_pkg::CI_OP_FWD_LSB];
    c_self   = iq_rdata[32*ktpu_pkg::CI_OP_WORD + ktpu_pkg::CI_OP_PX_LSB +: 4] == 4'(X) &&
               iq_rdata[32*ktpu_pkg::CI_OP_WORD + ktpu_pkg::CI_OP_PY_LSB +: 4] == 4'(Y);
    c_aoff   = fld16(iq_rdata, ktpu_pkg::CI_OFF_WORD, ktpu_pkg::CI_OFF_AOFF_LSB);
    c_boff   = fld16(iq_rdata, ktpu_pkg::CI_OFF_WORD, ktpu_pkg::CI_OFF_BOFF_LSB);
    c_toff   = fld16(iq_rdata, ktpu_pkg::CI_TOFF_WORD, ktpu_pkg::CI_TOFF_TOFF_LSB);
    c_gm     = fld16(iq_rdata, ktpu_pkg::CI_SHAPE_WORD, ktpu_pkg::CI_SHAPE_GM_LSB);
    c_gn     = fld16(iq_rdata, ktpu_pkg::CI_SHAPE_WORD, ktpu_pkg::CI_SHAPE_GN_LSB);
    c_nk     = fld16(iq_rdata, ktpu_pkg::CI_NK_WORD, ktpu_pkg::CI_NK_NK_LSB);
    c_base   = iq_rdata[32*ktpu_pkg::CI_BASE_WORD +: 5];
    c_stride = iq_rdata[32*ktpu_pkg::CI_STRIDE_WORD +: 5];
    c_gmnk   = 32'(c_gm) * 32'(c_nk);
    c_gnnk   = 32'(c_gn) * 32'(c_nk);
    c_gmgn   = 32'(c_gm) * 32'(c_gn);
    chk_gmgn = c_gmgn[15:0];
    chk      = 8'(ktpu_pkg::CLERR_OK);
    unique case (c_op)
      OpFill: begin                                     // L1 offset + groups x per group
        if (c_fmt > 2'(ktpu_pkg::FMT_MX))                    chk = 8'(ktpu_pkg::CLERR_FMT);
        else if (c_gm == '0 || c_nk == '0)                   chk = 8'(ktpu_pkg::CLERR_SHAPE);
        else if (!l1_fits(c_aoff, c_gmnk))
          chk = iq_rdata[32*ktpu_pkg::CI_OP_WORD + ktpu_pkg::CI_OP_SIDE_LSB] ?
                8'(ktpu_pkg::CLERR_L1B) : 8'(ktpu_pkg::CLERR_L1A);
        else if (c_base[4:0] != '0 || c_stride[4:0] != '0)   chk = 8'(ktpu_pkg::CLERR_ALIGN);
      end
      OpGemm: begin
        if (c_gm == '0 || c_gn == '0 || c_nk == '0)         chk = 8'(ktpu_pkg::CLERR_SHAPE);
        else if (c_fwd && (c_nk != 16'd1 || c_acc || c_emit)) chk = 8'(ktpu_pkg::CLERR_FWD);
        else if (c_fwd && c_self)                            chk = 8'(ktpu_pkg::CLERR_PEER);
        else if (!l1_fits(c_aoff, c_gmnk))                   chk = 8'(ktpu_pkg::CLERR_L1A);
        else if (!l1_fits(c_boff, c_gnnk))                   chk = 8'(ktpu_pkg::CLERR_L1B);
        else if (!acc_fits(c_toff, c_gmgn))                  chk = 8'(ktpu_pkg::CLERR_TILE);
        else if (c_emit && (c_base[2:0] != '0 || c_stride[2:0] != '0))
                                                             chk = 8'(ktpu_pkg::CLERR_ALIGN);
      end
      OpDrain: begin
        if (c_gm == '0 || c_gn == '0)                        chk = 8'(ktpu_pkg::CLERR_SHAPE);
        else if (!acc_fits(c_toff, c_gmgn))                  chk = 8'(ktpu_pkg::CLERR_TILE);
        else if (c_base[2:0] != '0 || c_stride[2:0] != '0)   chk = 8'(ktpu_pkg::CLERR_ALIGN);
      end
      OpSend, OpRecv: begin
        if (c_gn == '0)                                      chk = 8'(ktpu_pkg::CLERR_SHAPE);
        else if (!acc_fits(c_toff, 32'(c_gn)))               chk = 8'(ktpu_pkg::CLERR_TILE);
        else if (c_self)                                     chk = 8'(ktpu_pkg::CLERR_PEER);
      end
      OpStatus: ;
      default: chk = 8'(ktpu_pkg::CLERR_OPCODE);
    endcase
  end

  // The head register: loaded whenever it is empty or was taken. The
  // engine's pop is registered first (pop_q): the head's reload, the FIFO's
  // read and its counts start from a register, not from the engine's
  // dispatch decision (docs/timing.md). So the head reads invalid in the
  // cycle after its pop, and back-to-back instructions are two cycles apart.
  logic hd_v_q, pop_q;
  assign hd_load = !fifo_empty && (!hd_v_q || pop_q);
  assign valid_o = hd_v_q && !pop_q;
  assign empty_o = fifo_count == '0 && !valid_o;
  always_ff @(posedge clk_i) begin
    if (rst_i)        pop_q <= 1'b0;
    else              pop_q <= pop_i;
    if (rst_i)        hd_v_q <= 1'b0;
    else if (hd_load) hd_v_q <= 1'b1;
    else if (pop_q)   hd_v_q <= 1'b0;
    if (hd_load) begin
      head_o <= iq_rdata;
      chk_o  <= chk;
      gmgn_o <= chk_gmgn;
      half_o <= first_half(fld16(iq_rdata, ktpu_pkg::CI_SHAPE_WORD, ktpu_pkg::CI_SHAPE_GM_LSB));
    end
  end
endmodule
`default_nettype wire
