`default_nettype none
// Simple dual-port RAM (one write port, one read port, one clock) with the
// primitive named, never left to inference (SPEC §4): Primitive is "block"
// (RAMB36E2/RAMB18E2), "ultra" (URAM288) or "distributed" (LUTRAM).
//   - simulation and Yosys: the behavioural array below, annotated with
//     ram_style so Yosys (memory_libmap) and Vivado map it to that primitive;
//   - FPGA build with +define+KTPU_XPM: the vendor's xpm_memory_sdpram with
//     MEMORY_PRIMITIVE = Primitive (needs the XPM library, Vivado only).
// Timing: a read issued in cycle t (re_i) shows on rdata_o in cycle
// t + ReadLatency (1: the array's output latch; 2: plus the primitive's output
// register, for timing). rdata_o holds its value while no read completes.
// Read during write of the same address in the same cycle: the read returns
// the OLD contents for "block" and "distributed" (read-first, which the XPM
// instance is set to as well). UltraRAM in simple dual port cannot promise
// that, so with Primitive "ultra" such a collision is a simulation error:
// callers must not rely on it. Contents start undefined (random in
// simulation) unless InitFile names a $readmemh file (one hex word a line
// from address 0: the FPGA build's firmware image, which the bitstream holds
// as the primitive's initial contents); there is no reset, as in the
// primitives.
module ktpu_ram #(
  parameter int unsigned Width       = 32,
  parameter int unsigned Depth       = 512,
  parameter int unsigned ReadLatency = 1,
  parameter              Primitive   = "block",
  parameter              InitFile    = ""         // untyped: "" or a path
) (
  input  wire                      clk_i,
  input  wire                      we_i,
  input  wire  [$clog2(Depth)-1:0] waddr_i,
  input  wire  [Width-1:0]         wdata_i,
  input  wire                      re_i,
  input  wire  [$clog2(Depth)-1:0] raddr_i,
  output logic [Width-1:0]         rdata_o
);
  // String parameters compare right-aligned in a fixed width.
  localparam [8*12-1:0] Prim = 96'(Primitive);
  localparam bit IsBlock = (Prim == 96'("block"));
  localparam bit IsUltra = (Prim == 96'("ultra"));
  localparam bit IsDist  = (Prim == 96'("distributed"));
  localparam bit HasInit = InitFile != "";

  if (!IsBlock && !IsUltra && !IsDist) begin : gen_bad_primitive
    $fatal(1, "ktpu_ram: Primitive=%s: must be \"block\", \"ultra\" or \"distributed\"", Primitive);
  end
  if (ReadLatency != 1 && ReadLatency != 2) begin : gen_bad_latency
    $fatal(1, "ktpu_ram: ReadLatency=%0d: must be 1 or 2", ReadLatency);
  end
  if (Width < 1 || Depth < 2) begin : gen_bad_shape
    $fatal(1, "ktpu_ram: Width=%0d Depth=%0d: need Width >= 1, Depth >= 2", Width, Depth);
  end

`ifdef KTPU_XPM
  // Vendor macro (Vivado): same ports, same latencies, same collision rule.
  localparam int unsigned AW = $clog2(Depth);
  localparam WriteModeB = IsUltra ? "no_change" : "read_first";
  xpm_memory_sdpram #(
    .ADDR_WIDTH_A(AW), .ADDR_WIDTH_B(AW),
    .BYTE_WRITE_WIDTH_A(Width), .WRITE_DATA_WIDTH_A(Width), .READ_DATA_WIDTH_B(Width),
    .MEMORY_SIZE(Width * Depth), .MEMORY_PRIMITIVE(Primitive),
    .CLOCKING_MODE("common_clock"), .READ_LATENCY_B(ReadLatency),
    .WRITE_MODE_B(WriteModeB), .MEMORY_INIT_FILE(HasInit ? InitFile : "none"), .MEMORY_INIT_PARAM("0"),
    .USE_MEM_INIT(HasInit ? 1 : 0), .ECC_MODE("no_ecc"), .AUTO_SLEEP_TIME(0), .WAKEUP_TIME("disable_sleep"),
    .MESSAGE_CONTROL(0), .READ_RESET_VALUE_B("0"), .RST_MODE_A("SYNC"), .RST_MODE_B("SYNC"),
    .USE_EMBEDDED_CONSTRAINT(0), .CASCADE_HEIGHT(0), .SIM_ASSERT_CHK(1)
  ) u_xpm (
    .clka(clk_i), .ena(we_i), .wea(we_i), .addra(waddr_i), .dina(wdata_i),
    .clkb(clk_i), .rstb(1'b0), .enb(re_i), .regceb(1'b1),
    .addrb(raddr_i), .doutb(rdata_o),
    .sleep(1'b0), .injectsbiterra(1'b0), .injectdbiterra(1'b0), .sbiterrb(), .dbiterrb()
  );
`else
  logic [Width-1:0] rd_q;  // the array's output latch (first read stage)

  // One branch per primitive: the attribute must be a literal.
  if (IsUltra) begin : gen_ultra
    (* ram_style = "ultra" *) logic [Width-1:0] mem_q [Depth];
    if (HasInit) begin : gen_init
      initial $readmemh(InitFile, mem_q);
    end
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[waddr_i] <= wdata_i;
      if (re_i) rd_q <= mem_q[raddr_i];
    end
  end else if (IsDist) begin : gen_dist
    (* ram_style = "distributed" *) logic [Width-1:0] mem_q [Depth];
    if (HasInit) begin : gen_init
      initial $readmemh(InitFile, mem_q);
    end
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[waddr_i] <= wdata_i;
      if (re_i) rd_q <= mem_q[raddr_i];
    end
  end else begin : gen_block
    (* ram_style = "block" *) logic [Width-1:0] mem_q [Depth];
    if (HasInit) begin : gen_init
      initial $readmemh(InitFile, mem_q);
    end
    always_ff @(posedge clk_i) begin
      if (we_i) mem_q[waddr_i] <= wdata_i;
      if (re_i) rd_q <= mem_q[raddr_i];
    end
  end

  // The output register follows the latch every cycle: the latch holds
  // between reads, so the output does too.
  if (ReadLatency == 2) begin : gen_outreg
    always_ff @(posedge clk_i) rdata_o <= rd_q;
  end else begin : gen_latch
    assign rdata_o = rd_q;
  end
`endif

`ifndef SYNTHESIS
  if (IsUltra) begin : gen_collision_check
    always_ff @(posedge clk_i) begin
      if (we_i && re_i && waddr_i == raddr_i)
        $error("ktpu_ram (ultra): read and write of address %0d in one cycle", raddr_i);
    end
  end
`endif
endmodule
`default_nettype wire
