/* Never ends: for the --max-cycles time-out check. */
#include "isa.h"
TEST_BEGIN
1:  j 1b
TEST_END
