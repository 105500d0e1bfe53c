// ktpu_uart: 8N1 serial port (docs/soc.md, "UART"): one start bit, eight
// data bits LSB first, one stop bit, ClksPerBit clock cycles per bit (the
// baud divider: clock / baud, e.g. 100 MHz / 115200 = 868; co-simulation
// uses ktpu_pkg::UART_SIM_CLKS_PER_BIT).
//
// Receiver: rxd_i passes a two-flop synchroniser (it is asynchronous to the
// clock), then is oversampled at the full clock rate. A falling edge starts a
// frame; half a bit later the start bit must still read low (a shorter low
// pulse is a glitch, ignored). Each bit, the stop bit included, is the
// majority of the three samples around its middle, so one bad sample per
// bit is tolerated, and a sender off by up to about 5% of the baud (at the
// board's divider; 2.5% at the smallest, 4) still has every sample inside
// its bit. A stop bit that reads low is a
// framing error: the byte is dropped and counted, and the receiver waits for
// the line to go high (a break) before it looks for the next start bit.
// A byte is held until rx_ready_i takes it; one that completes while the
// previous is still held is dropped and counted as an overrun. rts_o
// (request to send) is the hardware flow control a sender may follow so
// that no byte is ever overrun: high while a byte that starts now has a
// place, i.e. fewer than two of {the holding byte, a full stage after it
// (rx_ready_i low), a frame already being received}. The frame counts
// because the receiver sees it a synchroniser and half a bit late: at the
// end of one frame the sender already decides on the next. The
// co-simulation's harness starts each byte only while rts_o is high.
//
// Transmitter: tx_ready_o while idle; a byte taken on tx_valid_i is sent as
// one frame, the line held high (idle) between frames.
// Counters: 16 bits each, saturating, cleared only by reset.
`default_nettype none

module ktpu_uart #(
  parameter int ClksPerBit = 868
) (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  // byte side
  input  wire logic        tx_valid_i,
  input  wire logic [7:0]  tx_data_i,
  output logic             tx_ready_o,
  output logic             rx_valid_o,
  output logic [7:0]       rx_data_o,
  input  wire logic        rx_ready_i,
  // line side
  output logic             txd_o,
  input  wire logic        rxd_i,
  output logic             rts_o,
  // error counters
  output logic [15:0]      frame_err_o,
  output logic [15:0]      overrun_o
);
  if (ClksPerBit < 4 || ClksPerBit > 65535) begin : gen_bad_divider
    $fatal(1, "ktpu_uart: ClksPerBit=%0d: must be 4..65535", ClksPerBit);
  end
  localparam int CW = $clog2(ClksPerBit + 1);
  localparam logic [CW-1:0] Full = CW'(ClksPerBit - 1);
  // From the falling edge to the middle sample of the start bit's three.
  localparam logic [CW-1:0] Half = CW'(ClksPerBit / 2);

  // ---------------------------------------------------------------- transmit
  logic [9:0]    tx_sh_q;     // bits still to send, LSB next
  logic [3:0]    tx_n_q;      // bits left in the frame (0: idle)
  logic [CW-1:0] tx_cnt_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      tx_n_q <= 4'd0;
      tx_sh_q <= '1;
      tx_cnt_q <= '0;
    end else if (tx_n_q == 4'd0) begin
      if (tx_valid_i) begin
        tx_sh_q  <= {1'b1, tx_data_i, 1'b0};
        tx_n_q   <= 4'd10;
        tx_cnt_q <= Full;
      end
    end else if (tx_cnt_q != '0) begin
      tx_cnt_q <= tx_cnt_q - CW'(1);
    end else begin
      tx_sh_q  <= {1'b1, tx_sh_q[9:1]};
      tx_n_q   <= tx_n_q - 4'd1;
      tx_cnt_q <= Full;
    end
  end
  assign tx_ready_o = tx_n_q == 4'd0;
  assign txd_o      = tx_n_q == 4'd0 ? 1'b1 : tx_sh_q[0];

  // ---------------------------------------------------------------- receive
  logic [1:0] sync_q;         // synchroniser; [1] is the clocked line
  logic [2:0] win_q;          // the last three samples
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      sync_q <= 2'b11;
      win_q  <= 3'b111;
    end else begin
      sync_q <= {sync_q[0], rxd_i};
      win_q  <= {win_q[1:0], sync_q[1]};
    end
  end
  logic vote;                 // majority of the three samples
  assign vote = (win_q[0] & win_q[1]) | (win_q[1] & win_q[2]) | (win_q[0] & win_q[2]);

  typedef enum logic [1:0] {RxIdle, RxFrame, RxBreak} rx_state_e;
  rx_state_e     rx_st_q;
  logic [3:0]    rx_n_q;      // bits sampled so far in this frame (0 = start)
  logic [CW-1:0] rx_cnt_q;
  logic [7:0]    rx_sh_q;
  logic          hold_v_q;
  logic [7:0]    hold_q;
  logic [15:0]   ferr_q, ovr_q;
  logic          sample, got_byte;
  // win_q[1] is the sample taken one cycle before win_q[0]'s: when the count
  // ends, the window is centred on the bit's middle.
  assign sample   = rx_st_q == RxFrame && rx_cnt_q == '0;
  assign got_byte = sample && rx_n_q == 4'd9 && vote;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rx_st_q  <= RxIdle;
      rx_n_q   <= 4'd0;
      rx_cnt_q <= '0;
      hold_v_q <= 1'b0;
      ferr_q   <= 16'd0;
      ovr_q    <= 16'd0;
    end else begin
      if (rx_valid_o && rx_ready_i) hold_v_q <= 1'b0;
      unique case (rx_st_q)
        RxIdle:
          if (!win_q[0]) begin                 // falling edge seen
            rx_st_q  <= RxFrame;
            rx_n_q   <= 4'd0;
            rx_cnt_q <= Half;
          end
        RxFrame:
          if (rx_cnt_q != '0) rx_cnt_q <= rx_cnt_q - CW'(1);
          else begin
            rx_cnt_q <= Full;
            rx_n_q   <= rx_n_q + 4'd1;
            if (rx_n_q == 4'd0 && vote) rx_st_q <= RxIdle;   // glitch, not a start bit
            else if (rx_n_q >= 4'd1 && rx_n_q <= 4'd8) rx_sh_q <= {vote, rx_sh_q[7:1]};
            else if (rx_n_q == 4'd9) begin
              if (!vote) begin
                rx_st_q <= RxBreak;
                if (ferr_q != 16'hFFFF) ferr_q <= ferr_q + 16'd1;
              end else begin
                rx_st_q <= RxIdle;
                if (hold_v_q && !rx_ready_i) begin
                  if (ovr_q != 16'hFFFF) ovr_q <= ovr_q + 16'd1;
                end else hold_v_q <= 1'b1;
              end
            end
          end
        RxBreak:
          if (win_q[0]) rx_st_q <= RxIdle;
        default: rx_st_q <= RxIdle;
      endcase
    end
  end
  always_ff @(posedge clk_i) begin
    if (got_byte && !(hold_v_q && !rx_ready_i)) hold_q <= rx_sh_q;
  end

  assign rx_valid_o  = hold_v_q;
  assign rx_data_o   = hold_q;
  assign rts_o       = 2'(hold_v_q) + 2'(!rx_ready_i) + 2'(rx_st_q == RxFrame) < 2'd2;
  assign frame_err_o = ferr_q;
  assign overrun_o   = ovr_q;
endmodule

`default_nettype wire
