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
//
// Any other request (an ordinary read, a job) passes straight through, in
// the cycle the front end offers it. A member is taken into a register,
// matched against the slots from there (GMatch: the comparison's result
// registered), and added, refused or queued with its group in the cycle
// after (GAct), so the comparators never sit in front of the issue queue
// or the front end (docs/timing.md). The front end waits meanwhile. A
// member is taken only while the issue queue has room, and only the gather
// pushes it, so a completed group is queued in GAct without waiting: two
// cycles after the front end let its member go, before any later request
// has passed the front end's four-cycle check (a write behind it can only
// be done after the group's read is queued, as arrival order demands).
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
  input  wire logic            in_job_i,
  input  wire logic            in_fp16_i,
  input  wire logic [31:0]     in_base_i,
  input  wire logic [31:0]     in_stride_i,
  input  wire logic [15:0]     in_groups_i,
  input  wire logic [15:0]     in_per_i,
  input  wire logic [31:0]     in_dst_i,
  input  wire logic [31:0]     in_dstride_i,
  input  wire logic [31:0]     in_total_i,
  input  wire logic [15:0]     in_member_i,    // the sender {dx, dy, txn}
  input  wire logic [3:0]      in_gid_i,
  input  wire logic [2:0]      in_gn_i,        // 0, 1: not grouped (a job: 0)
  // the issue queue: a request passed through, or a completed group
  output logic                 out_push_o,
  input  wire logic            out_full_i,
  output logic                 out_job_o,
  output logic                 out_fp16_o,
  output logic [31:0]          out_base_o,
  output logic [31:0]          out_stride_o,
  output logic [15:0]          out_groups_o,
  output logic [15:0]          out_per_o,
  output logic [31:0]          out_dst_o,
  output logic [31:0]          out_dstride_o,
  output logic [31:0]          out_total_o,
  output logic [NW-1:0]        out_n1_o,       // members - 1
  output logic [MemW-1:0]      out_members_o,  // member i at [16i +: 16]
  // a refused member's MEM_ACK fields, held until taken
  output logic                 ref_valid_o,
  input  wire logic            ref_take_i,
  output logic [15:0]          ref_member_o,
  output logic [31:0]          ref_addr_o,
  output logic                 idle_o          // no slot in use, no member held, no refusal held
);
  if (MaxN < 2 || (1 << NW) != MaxN || MaxN > 7) begin : gen_bad_n
    $error("ktpu_mem_gather: MaxN must be 2 or 4 (a power of two that GROUP_N can name)");
  end
  if (Slots < 1 || Wait < 2) begin : gen_bad_slots
    $error("ktpu_mem_gather: at least one slot and a wait of 2 cycles");
  end
  localparam int AgeW = $clog2(Wait + 1);
  localparam int SW   = (Slots > 1) ? $clog2(Slots) : 1;
  localparam logic [1:0] GIdle = 2'd0, GMatch = 2'd1, GAct = 2'd2;

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

  // ---- the member held, and its match -------------------------------------------
  logic [1:0]       gs_q;
  logic             r_fp16_q;
  logic [31:0]      r_base_q, r_stride_q, r_dst_q, r_total_q;
  logic [15:0]      r_groups_q, r_per_q, r_member_q;
  logic [3:0]       r_gid_q;
  logic [2:0]       r_gn_q;
  logic             hit_q, free_q, complete_q;  // GMatch's answer, used in GAct
  logic [SW-1:0]    hit_s_q, free_s_q;

  logic             hit, have_free, complete;
  logic [SW-1:0]    hit_s, free_s;
  always_comb begin
    hit = 1'b0; hit_s = '0; have_free = 1'b0; free_s = '0; complete = 1'b0;
    for (int s = Slots - 1; s >= 0; s--) begin
      if (v_q[s] && !exp_q[s] && gid_q[s] == r_gid_q && gn_q[s] == r_gn_q && fp16_q[s] == r_fp16_q &&
          base_q[s] == r_base_q && stride_q[s] == r_stride_q && groups_q[s] == r_groups_q &&
          per_q[s] == r_per_q) begin
        hit = 1'b1; hit_s = SW'(s);
        complete = 3'(cnt_q[s]) + 3'd1 == gn_q[s];
      end
      if (!v_q[s]) begin have_free = 1'b1; free_s = SW'(s); end
    end
  end
  // the slot's members with the held one added at its place
  logic [MemW-1:0]  hit_members;
  always_comb begin
    hit_members = mem_q[hit_s_q];
    for (int i = 0; i < MaxN; i++)
      if (cnt_q[hit_s_q] == (NW+1)'(i)) hit_members[16*i +: 16] = r_member_q;
  end

  logic grouped, act, act_push;
  assign grouped  = in_gn_i >= 3'd2;
  assign act      = gs_q == GAct && (!complete_q || !out_full_i);
  assign act_push = act && hit_q && complete_q;

  assign in_full_o     = gs_q != GIdle || out_full_i || ref_v_q;
  assign out_push_o    = (in_push_i && !grouped) || act_push;
  assign out_job_o     = (gs_q == GIdle) && in_job_i;
  assign out_fp16_o    = (gs_q == GIdle) ? in_fp16_i : r_fp16_q;
  assign out_base_o    = (gs_q == GIdle) ? in_base_i : r_base_q;
  assign out_stride_o  = (gs_q == GIdle) ? in_stride_i : r_stride_q;
  assign out_groups_o  = (gs_q == GIdle) ? in_groups_i : r_groups_q;
  assign out_per_o     = (gs_q == GIdle) ? in_per_i : r_per_q;
  assign out_dst_o     = (gs_q == GIdle) ? in_dst_i : r_dst_q;
  assign out_dstride_o = (gs_q == GIdle) ? in_dstride_i : 32'd0;   // a read's is 0
  assign out_total_o   = (gs_q == GIdle) ? in_total_i : r_total_q;
  assign out_n1_o      = (gs_q == GIdle) ? '0 : NW'(r_gn_q - 3'd1);
  assign out_members_o = (gs_q == GIdle) ? MemW'(in_member_i) : hit_members;

  // ---- refusals: a member with no slot, then expired slots' members -------
  logic             ref_v_q;
  logic [15:0]      ref_member_q;
  logic [31:0]      ref_addr_q;
  logic             any_exp;
  logic [SW-1:0]    exp_s;
  logic [15:0]      exp_member;            // the expired slot's last member, refused next
  always_comb begin
    any_exp = 1'b0; exp_s = '0;
    for (int s = Slots - 1; s >= 0; s--)
      if (exp_q[s]) begin any_exp = 1'b1; exp_s = SW'(s); end
    exp_member = '0;
    for (int i = 0; i < MaxN; i++)
      if (cnt_q[exp_s] == (NW+1)'(i + 1)) exp_member = mem_q[exp_s][16*i +: 16];
  end
  logic emit_exp;
  // an expired slot gives up one member a cycle while no member is held
  // (nothing else changes a slot between a member's match and its act)
  assign emit_exp = any_exp && gs_q == GIdle && !in_push_i && (!ref_v_q || ref_take_i);

  assign ref_valid_o  = ref_v_q;
  assign ref_member_o = ref_member_q;
  assign ref_addr_o   = ref_addr_q;
  assign idle_o       = v_q == '0 && gs_q == GIdle && !ref_v_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      gs_q    <= GIdle;
      v_q     <= '0;
      exp_q   <= '0;
      ref_v_q <= 1'b0;
    end else begin
      if (ref_take_i) ref_v_q <= 1'b0;
      for (int s = 0; s < Slots; s++)
        if (v_q[s] && !exp_q[s] && 32'(age_q[s]) == Wait - 1) exp_q[s] <= 1'b1;
      if (emit_exp) begin
        ref_v_q      <= 1'b1;
        ref_member_q <= exp_member;
        ref_addr_q   <= base_q[exp_s];
        cnt_q[exp_s] <= cnt_q[exp_s] - (NW+1)'(1);
        // v_q and exp_q bits through loops, not [exp_s] <=: Yosys 0.23 puts
        // 32-bit index arithmetic in front of a variable-index write to a
        // vector (docs/timing.md)
        for (int k = 0; k < Slots; k++)
          if (exp_s == SW'(k) && cnt_q[exp_s] == (NW+1)'(1)) begin
            v_q[k]   <= 1'b0;
            exp_q[k] <= 1'b0;
          end
      end
      unique case (gs_q)
        GIdle:  if (in_push_i && grouped) gs_q <= GMatch;
        GMatch: gs_q <= GAct;
        GAct:   if (act) gs_q <= GIdle;
        default: gs_q <= GIdle;
      endcase
      if (act) begin
        if (hit_q) begin
          mem_q[hit_s_q] <= hit_members;
          cnt_q[hit_s_q] <= cnt_q[hit_s_q] + (NW+1)'(1);
          for (int k = 0; k < Slots; k++)
            if (complete_q && hit_s_q == SW'(k)) begin
              v_q[k]   <= 1'b0;
              exp_q[k] <= 1'b0;   // complete as it expires: it was in time
            end
        end else if (free_q) begin
          for (int k = 0; k < Slots; k++)
            if (free_s_q == SW'(k)) v_q[k] <= 1'b1;
          gid_q[free_s_q]    <= r_gid_q;
          gn_q[free_s_q]     <= r_gn_q;
          fp16_q[free_s_q]   <= r_fp16_q;
          base_q[free_s_q]   <= r_base_q;
          stride_q[free_s_q] <= r_stride_q;
          groups_q[free_s_q] <= r_groups_q;
          per_q[free_s_q]    <= r_per_q;
          cnt_q[free_s_q]    <= (NW+1)'(1);
          mem_q[free_s_q]    <= MemW'(r_member_q);
        end else begin
          ref_v_q      <= 1'b1;   // GIdle's refusal emission waits for this cycle to pass
          ref_member_q <= r_member_q;
          ref_addr_q   <= r_base_q;
        end
      end
    end
  end
  // The member held (taken in GIdle from the front end's fields) and its
  // match (GMatch), and a slot's age: cycles since its first member
  // (saturating).
  always_ff @(posedge clk_i) begin
    if (gs_q == GIdle) begin
      r_fp16_q <= in_fp16_i; r_base_q <= in_base_i; r_stride_q <= in_stride_i; r_dst_q <= in_dst_i;
      r_total_q <= in_total_i; r_groups_q <= in_groups_i; r_per_q <= in_per_i; r_member_q <= in_member_i;
      r_gid_q <= in_gid_i; r_gn_q <= in_gn_i;
    end
    if (gs_q == GMatch) begin
      hit_q <= hit; hit_s_q <= hit_s; complete_q <= complete; free_q <= have_free; free_s_q <= free_s;
    end
    for (int s = 0; s < Slots; s++) begin   // counts up to Wait - 1, where the slot expires
      if (act && !hit_q && free_q && free_s_q == SW'(s)) age_q[s] <= '0;
      else if (v_q[s] && !exp_q[s]) age_q[s] <= age_q[s] + AgeW'(1);
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (!rst_i) begin
      assert (!(act && !hit_q && !free_q && ref_v_q && !ref_take_i))
        else $error("ktpu_mem_gather: a refusal while one is held");
      assert (!(gs_q == GAct && complete_q && out_full_i))
        else $error("ktpu_mem_gather: a completed group waits for the issue queue");
      assert (!(gs_q == GMatch && 32'(r_gn_q) > MaxN))
        else $error("ktpu_mem_gather: a group larger than MEM_GROUP_MAX passed the check");
    end
  end
`endif

endmodule

`default_nettype wire
