#!/bin/bash
# absolute TCP counters summed over the 8 namespaces, one "name value" per line
C="TcpRetransSegs TcpExtTCPTimeouts TcpExtTCPLossProbes TcpExtTCPFastRetrans TcpExtTCPToZeroWindowAdv TcpExtTCPFromZeroWindowAdv TcpExtTCPWantZeroWindowAdv TcpExtTCPRcvQDrop TcpExtTCPBacklogDrop TcpExtPruneCalled TcpExtTCPSpuriousRTOs TcpExtTCPDSACKRecv TcpExtDelayedACKs TcpExtTCPZeroWindowDrop TcpExtTCPRcvCoalesce TcpExtTCPWinProbe TcpExtTCPAbortOnTimeout"
for i in 0 1 2 3 4 5 6 7; do ip netns exec papn$i nstat -az $C 2>/dev/null | awk 'NR>1{print $1, $2}'; done | awk '{s[$1]+=$2} END{for(k in s) print k, s[k]}' | sort
