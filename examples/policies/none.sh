#!/bin/sh
# none - the policy that changes nothing: the driver's defaults, faults
# and all. cufs-experiment also takes the word "none" for it.
#   none.sh MOUNT PID
exit 0
