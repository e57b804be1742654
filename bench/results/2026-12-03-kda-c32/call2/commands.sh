NOANCHORS=1 TIME=all bash bench/kda/run_h200.sh anchors,edges   # carrying .device/kda
