#!/bin/bash
# Call 5 (device tool, carrying .device/kpkg-final and .device/wheels): the final over the 84
# held-out shapes only (.device/ws/heldout.json: the grid's held-out shapes, each with the
# configuration the width-group router sends it to), build 11b.
LIB=.device/kpkg-final/cake_library/library ONLY=.device/ws/heldout.json TAG=heldout timeout 400 bash bench/library/run_h200.sh final 0 0
