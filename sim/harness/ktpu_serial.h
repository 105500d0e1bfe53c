// The far end of the SoC's serial port in co-simulation: an 8N1 line at
// KTPU_UART_SIM_CLKS_PER_BIT clock cycles a bit, both ways, clocked once per
// simulated cycle. The transmitter (to the SoC's rxd) starts a byte only
// while the SoC's rts is high (hardware flow control), so the receiver is
// fed "as it asks": no byte is overrun however slowly the program reads. The
// receiver (from the SoC's txd) samples each bit in its middle and hands
// back whole bytes; a stop bit that reads low is counted, not delivered.
#ifndef KTPU_SERIAL_H
#define KTPU_SERIAL_H

#include <cstdint>

class SerialLine {
public:
    static constexpr unsigned kBit = KTPU_UART_SIM_CLKS_PER_BIT;
    // Longest time from a byte's store to its last bit: the register block's
    // holding byte and the one in the shift register, two frames.
    static constexpr unsigned kDrainCycles = 2 * 10 * kBit + 4;

    // Transmit side. Call with the SoC's rts before the clock edge; returns
    // the level to drive on rxd for this cycle. want() says whether a byte
    // is waiting; take() hands it over (called once, when its frame starts).
    template <class Want, class Take>
    int rxd(bool rts, Want want, Take take)
    {
        if (!tx_bits_) {
            if (!rts || !want()) return 1;
            tx_frame_ = 0x200u | ((unsigned)take() << 1);   // stop, data, start
            tx_bits_ = 10;
            tx_left_ = kBit;
        }
        int level = tx_frame_ & 1;
        if (--tx_left_ == 0) {
            tx_frame_ >>= 1;
            tx_left_ = kBit;
            tx_bits_--;
        }
        return level;
    }
    bool sending() const { return tx_bits_ != 0; }

    // Receive side: the SoC's txd after the clock edge. Returns a completed
    // byte (0..255) or -1.
    int txd(int level)
    {
        if (!rx_bits_) {
            if (level) return -1;
            rx_bits_ = 10;           // start bit seen: sample its middle next
            rx_left_ = kBit / 2;
            rx_frame_ = 0;
            return -1;
        }
        if (--rx_left_) return -1;
        rx_left_ = kBit;
        rx_frame_ |= (unsigned)level << (10 - rx_bits_);
        if (--rx_bits_) return -1;
        if (!(rx_frame_ & 0x200u) || (rx_frame_ & 1u)) { framing_++; return -1; }
        return (int)((rx_frame_ >> 1) & 0xFFu);
    }
    bool receiving() const { return rx_bits_ != 0; }
    unsigned framing_errors() const { return framing_; }

private:
    unsigned tx_frame_ = 0, tx_bits_ = 0, tx_left_ = 0;
    unsigned rx_frame_ = 0, rx_bits_ = 0, rx_left_ = 0;
    unsigned framing_ = 0;
};

#endif
