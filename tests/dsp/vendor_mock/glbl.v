// Stand-in for the vendor's glbl module, for tests/dsp/vendor_mock.sh only:
// like the real one it holds GSR high for the first 100 ns of simulated
// time (ROC_WIDTH in ps), which needs Verilator --timing.
`timescale 1 ps / 1 ps
module glbl ();
  parameter ROC_WIDTH = 100000;
  wire GSR;
  reg  GSR_int;
  assign GSR = GSR_int;
  initial begin
    GSR_int = 1'b1;
    #(ROC_WIDTH) GSR_int = 1'b0;
  end
endmodule
