// ktpu_mem_gather: the memory agent's grouped reads (docs/mem.md, "Grouped
// reads"), between the front end and the issue queue.
//
// A read whose RD_CTRL GROUP_N is 2 or more is one member of a group: GROUP_N
// requesters send the same MEM_RD (same GROUP_ID, base, stride, shape and
// format), each when its own L1 region is free. The first member takes a
// gather slot; later members that match it are added; the last one queues
// the read once, with every member's (x, y, txn), and the agent sends each
// MEM_DATA to each member. So DRAM is read once for all of them, and no
// member's data arrives before that member asked for it.
//
// A member is refused (MEMST_GROUP, one MEM_ACK each) when no slot is free
// as it arrives, and every member of a slot is refused when the group is
// not complete Wait cycles after its first member: a group never completes
// partially, and a slot is never held for ever.
// Any other request (an ordinary read, a job) passes straight through.
`default_nettype none

module ktpu_mem_gather #(
  parameter int Slots = ktpu_pkg::MEM_GROUP_SLOTS,
  parameter int MaxN  = ktpu_pkg::MEM_GROUP_MAX,
  parameter int Wait  = ktpu_pkg::MEM_GROUP_WAIT,  // cycles a partial group is kept
  localparam int NW   = $clog2(MaxN),              // member index / count - 1
  localparam int MemW = 16 * MaxN                  // members: {dx, dy, txn} each
) (
  input  wire logic            clk_i,
  input  wire logic            rst_i,
  // the front end's request for the issue queue
  input  wire logic            in_push_i,
  output logic                 in_full_o,
  input  wire logic            in_fp16_i,
  input  wire logic [31:0]     in_base_i,
  input  wire logic [31:0]     in_stride_i,
  input  wire logic [15:0]     in_groups_i,
  input  wire logic [15:0]     in_per_i,
  input  wire logic [15:0]     in_member_i,    // the sender {dx, dy, txn}
  input  wire logic [3:0]      in_gid_i,
  input  wire logic [2:0]      in_gn_i,        // 0, 1: not grouped (a job: 0)
  // the issue queue: the request now (its fields are in_*), with its members
  output logic                 out_push_o,
  input  wire logic            out_full_i,
  output logic [NW-1:0]        out_n1_o,       // members - 1
  output logic [MemW-1:0]      out_members_o,  // member i at [16i +: 16]
  // a refused member's MEM_ACK fields, held until taken
  output logic                 ref_valid_o,
  input  wire logic            ref_take_i,
  output logic [15:0]          ref_member_o,
  output logic [31:0]          ref_addr_o,
  output logic                 idle_o          // no slot in use, no refusal held
);
  if (MaxN < 2 || (1 << NW) != MaxN || MaxN > 7) begin : gen_bad_n
    $error("ktpu_mem_gather: MaxN must be 2 or 4 (a power of two that GROUP_N can name)");
  end
  if (Slots < 1 || Wait < 2) begin : gen_bad_slots
    $error("ktpu_mem_gather: at least one slot and a wait of 2 cycles");
  end
  localparam int AgeW = $clog2(Wait + 1);
  localparam int SW   = (Slots > 1) ? $clog2(Slots) : 1;

  logic [Slots-1:0] v_q, exp_q;            // slot in use; expired (its members are being refused)
  logic [3:0]       gid_q    [Slots];
  logic [2:0]       gn_q     [Slots];
  logic             fp16_q   [Slots];
  logic [31:0]      base_q   [Slots];
  logic [31:0]      stride_q [Slots];
  logic [15:0]      groups_q [Slots];
  logic [15:0]      per_q    [Slots];
  logic [NW:0]      cnt_q    [Slots];       // members arrived (1..MaxN-1 while gathering)
  logic [MemW-1:0]  mem_q    [Slots];
  logic [AgeW-1:0]  age_q    [Slots];

  // ---- the arriving member --------------------------------------------------
  logic             grouped, hit, have_free, complete;
  logic [SW-1:0]    hit_s, free_s;
  logic [MemW-1:0]  hit_members;
  always_comb begin
    grouped = in_gn_i >= 3'd2;
    hit = 1'b0; hit_s = '0; have_free = 1'b0; free_s = '0;
    for (int s = Slots - 1; s >= 0; s--) begin
      if (v_q[s] && !exp_q[s] && gid_q[s] == in_gid_i && gn_q[s] == in_gn_i && fp16_q[s] == in_fp16_i &&
          base_q[s] == in_base_i && stride_q[s] == in_stride_i && groups_q[s] == in_groups_i &&
          per_q[s] == in_per_i) begin
        hit = 1'b1; hit_s = SW'(s);
      end
      if (!v_q[s]) begin have_free = 1'b1; free_s = SW'(s); end
    end
    complete    = hit && (32'(cnt_q[hit_s]) + 32'd1 == 32'(in_gn_i));
    hit_members = mem_q[hit_s];
    for (int i = 0; i < MaxN; i++)
      if (32'(cnt_q[hit_s]) == i) hit_members[16*i +: 16] = in_member_i;
  end

  assign in_full_o     = out_full_i || ref_v_q;
  assign out_push_o    = in_push_i && (!grouped || complete);
  assign out_n1_o      = grouped ? NW'(in_gn_i - 3'd1) : '0;
  assign out_members_o = grouped ? hit_members : MemW'(in_member_i);

  // ---- refusals: an arrival with no slot, then expired slots' members ----
  logic             ref_v_q;
  logic [15:0]      ref_member_q;
  logic [31:0]      ref_addr_q;
  logic             any_exp;
  logic [SW-1:0]    exp_s;
  always_comb begin
    any_exp = 1'b0; exp_s = '0;
    for (int s = Slots - 1; s >= 0; s--)
      if (exp_q[s]) begin any_exp = 1'b1; exp_s = SW'(s); end
  end
  logic arrive_refused, emit_exp;
  assign arrive_refused = in_push_i && grouped && !hit && !have_free;
  // an expired slot gives up one member a cycle when no arrival needs the register
  assign emit_exp = any_exp && !in_push_i && (!ref_v_q || ref_take_i);

  assign ref_valid_o  = ref_v_q;
  assign ref_member_o = ref_member_q;
  assign ref_addr_o   = ref_addr_q;
  assign idle_o       = v_q == '0 && !ref_v_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      v_q     <= '0;
      exp_q   <= '0;
      ref_v_q <= 1'b0;
    end else begin
      if (ref_take_i) ref_v_q <= 1'b0;
      for (int s = 0; s < Slots; s++)
        if (v_q[s] && !exp_q[s] && 32'(age_q[s]) == Wait - 1) exp_q[s] <= 1'b1;
      if (emit_exp) begin
        ref_v_q      <= 1'b1;
        ref_member_q <= mem_q[exp_s][16*(32'(cnt_q[exp_s]) - 1) +: 16];
        ref_addr_q   <= base_q[exp_s];
        cnt_q[exp_s] <= cnt_q[exp_s] - (NW+1)'(1);
        if (cnt_q[exp_s] == (NW+1)'(1)) begin
          v_q[exp_s]   <= 1'b0;
          exp_q[exp_s] <= 1'b0;
        end
      end
      if (in_push_i && grouped) begin
        if (hit) begin
          mem_q[hit_s] <= hit_members;
          cnt_q[hit_s] <= cnt_q[hit_s] + (NW+1)'(1);
          if (complete) begin
            v_q[hit_s]   <= 1'b0;
            exp_q[hit_s] <= 1'b0;   // complete in its last cycle: it was in time
          end
        end else if (have_free) begin
          v_q[free_s]      <= 1'b1;
          gid_q[free_s]    <= in_gid_i;
          gn_q[free_s]     <= in_gn_i;
          fp16_q[free_s]   <= in_fp16_i;
          base_q[free_s]   <= in_base_i;
          stride_q[free_s] <= in_stride_i;
          groups_q[free_s] <= in_groups_i;
          per_q[free_s]    <= in_per_i;
          cnt_q[free_s]    <= (NW+1)'(1);
          mem_q[free_s]    <= MemW'(in_member_i);
        end else begin
          ref_v_q      <= 1'b1;
          ref_member_q <= in_member_i;
          ref_addr_q   <= in_base_i;
        end
      end
    end
  end
  // A slot's age: cycles since its first member (saturating at Wait).
  always_ff @(posedge clk_i) begin
    for (int s = 0; s < Slots; s++) begin
      if (in_push_i && grouped && !hit && have_free && free_s == SW'(s)) age_q[s] <= '0;
      else if (v_q[s] && 32'(age_q[s]) < Wait) age_q[s] <= age_q[s] + AgeW'(1);
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (!rst_i) begin
      assert (!(arrive_refused && ref_v_q)) else $error("ktpu_mem_gather: a refusal while one is held");
      assert (!(in_push_i && grouped && 32'(in_gn_i) > MaxN))
        else $error("ktpu_mem_gather: a group larger than MEM_GROUP_MAX passed the check");
    end
  end
`endif

endmodule

`default_nettype wire
