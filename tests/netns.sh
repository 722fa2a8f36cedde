# shellcheck shell=sh
# Two test "nodes" on one machine, for tests/cluster.sh and tests/slurm.sh
# (sourced): Linux network namespaces joined by a veth link (10.N.7.1 and
# 10.N.7.2), each entered with its own host name (nodea, nodeb), /tmp
# ($work/tmp-NODE) and /etc/hosts. Entered with nsenter, not "ip netns
# exec", which mounts a sysfs of its own and hides /sys/fs/cgroup (slurmd
# needs it). Made by this run, named after its pid
# (two checks may run at once), removed by mc_nodes_down.
#   mc_nodes_up WORK: 0, or 1 with the reason in $mc_nodes_why. Writes
#     WORK/node (node NAME CMD...: CMD on node NAME) and WORK/agent (what
#     mpirun takes for ssh: agent HOST COMMAND...). Sets $mc_net (N).
mc_nodes_up() {
    w=$1; id=$$; mc_net=$((id % 200 + 20))
    mc_nsa=mcnA$id; mc_nsb=mcnB$id; va=mcvA$id; vb=mcvB$id
    mc_nodes_why=""
    # To try the tests' other path on a machine that has namespaces:
    [ -n "${MC_TEST_NO_NETNS:-}" ] && { mc_nodes_why="MC_TEST_NO_NETNS is set"; return 1; }
    command -v ip >/dev/null 2>&1 || { mc_nodes_why="iproute2's ip is not installed"; return 1; }
    command -v unshare >/dev/null 2>&1 && command -v nsenter >/dev/null 2>&1 \
        || { mc_nodes_why="util-linux's unshare or nsenter is not installed"; return 1; }
    { ip netns add "$mc_nsa" && ip netns add "$mc_nsb"; } 2> "$w/nserr" \
        || { mc_nodes_why="cannot make a network namespace ($(cat "$w/nserr"))"; return 1; }
    { ip link add "$va" type veth peer name "$vb" && ip link set "$va" netns "$mc_nsa" && ip link set "$vb" netns "$mc_nsb" \
      && ip -n "$mc_nsa" addr add "10.$mc_net.7.1/24" dev "$va" && ip -n "$mc_nsb" addr add "10.$mc_net.7.2/24" dev "$vb" \
      && ip -n "$mc_nsa" link set "$va" up && ip -n "$mc_nsb" link set "$vb" up \
      && ip -n "$mc_nsa" link set lo up && ip -n "$mc_nsb" link set lo up; } 2> "$w/nserr" \
        || { mc_nodes_why="cannot link two network namespaces with veth ($(cat "$w/nserr"))"; return 1; }
    printf '127.0.0.1 localhost\n10.%s.7.1 nodea\n10.%s.7.2 nodeb\n' "$mc_net" "$mc_net" > "$w/hosts"
    mkdir -p "$w/tmp-nodea" "$w/tmp-nodeb"
    cat > "$w/node" <<EOF
#!/bin/sh
n=\$1; shift
case \$n in nodea) ns=$mc_nsa ;; nodeb) ns=$mc_nsb ;; *) echo "node: unknown node \$n" >&2; exit 1 ;; esac
exec nsenter --net=/run/netns/\$ns unshare --uts --mount sh -c 'hostname "\$0" && mount --bind "$w/tmp-\$0" /tmp && mount --bind "$w/hosts" /etc/hosts && exec "\$@"' "\$n" "\$@"
EOF
    cat > "$w/agent" <<EOF
#!/bin/sh
h=\$1; shift
exec "$w/node" "\$h" sh -c "\$*"
EOF
    chmod +x "$w/node" "$w/agent"
    "$w/node" nodeb hostname > "$w/h" 2> "$w/nserr" && [ "$(cat "$w/h")" = nodeb ] \
        || { mc_nodes_why="cannot give a namespace its own host name and /tmp ($(cat "$w/nserr"))"; return 1; }
    return 0
}

mc_nodes_down() {
    [ -n "${mc_nsa:-}" ] && ip netns del "$mc_nsa" 2>/dev/null
    [ -n "${mc_nsb:-}" ] && ip netns del "$mc_nsb" 2>/dev/null
    return 0
}
