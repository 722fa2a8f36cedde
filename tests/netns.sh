# shellcheck shell=sh
# Two test "nodes" on one machine, for tests/cluster.sh and tests/slurm.sh
# (sourced): Linux network namespaces joined by a veth link (10.N.7.1 and
# 10.N.7.2), each entered with its own host name (nodea, nodeb), /tmp
# (WORK/tmp-NODE bound over it; TMPDIR=/tmp) and /etc/hosts. The test's
# trees stay visible at their paths even when they live under /tmp (a CI
# clone there): each is bound back into the node's /tmp from a private
# tmpfs (on /mnt, in the node's mount namespace only) that held it while
# /tmp was covered. Entered with nsenter, not "ip netns
# exec", which mounts a sysfs of its own and hides /sys/fs/cgroup (slurmd
# needs it). Made by this run, named after its pid (two checks may run at
# once), removed by mc_nodes_down.
#   mc_nodes_up WORK [KEEP...]: 0, or 1 with the reason in $mc_nodes_why.
#     KEEP: directories the nodes must see (the source and build trees).
#     Writes WORK/node (node NAME CMD...: CMD on node NAME) and WORK/agent
#     (what mpirun takes for ssh: agent HOST COMMAND...). Sets $mc_net (N).
mc_nodes_up() {
    w=$1; shift; id=$$; mc_net=$((id % 200 + 20))
    # Under /tmp: the top directory of each tree to keep (at most two).
    k1=""; k2=""
    for p in "$w" "$@"; do
        real=$(cd "$p" 2>/dev/null && pwd -P) || continue
        case $real in
            /tmp/?*) top=/tmp/$(printf '%s' "${real#/tmp/}" | cut -d/ -f1)
                     [ "$top" = "$k1" ] || [ "$top" = "$k2" ] || { [ -z "$k1" ] && k1=$top || k2=$top; } ;;
        esac
    done
    mc_nsa=mcnA$id; mc_nsb=mcnB$id; va=mcvA$id; vb=mcvB$id
    stash=""
    for d in /mnt /srv /media /opt; do [ -d "$d" ] && { stash=$d; break; }; done
    [ -n "$k1$k2" ] && [ -z "$stash" ] && { mc_nodes_why="the test's tree is under /tmp and no /mnt, /srv, /media or /opt to keep it visible on the nodes"; return 1; }
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
exec nsenter --net=/run/netns/\$ns unshare --uts --mount sh -c '
    hostname "\$0" && mount --bind "$w/hosts" /etc/hosts || exit 1
    k1="$k1"; k2="$k2"
    if [ -n "\$k1\$k2" ]; then
        # The trees under /tmp, kept on a private tmpfs outside it while
        # /tmp is covered, then bound back at their paths.
        mount -t tmpfs none "$stash" && mkdir "$stash/1" "$stash/2" || exit 1
        [ -z "\$k1" ] || mount --bind "\$k1" "$stash/1" || exit 1
        [ -z "\$k2" ] || mount --bind "\$k2" "$stash/2" || exit 1
    fi
    mount --bind "$w/tmp-\$0" /tmp || exit 1
    [ -z "\$k1" ] || { mkdir -p "\$k1" && mount --bind "$stash/1" "\$k1"; } || exit 1
    [ -z "\$k2" ] || { mkdir -p "\$k2" && mount --bind "$stash/2" "\$k2"; } || exit 1
    TMPDIR=/tmp; export TMPDIR
    exec "\$@"' "\$n" "\$@"
EOF
    cat > "$w/agent" <<EOF
#!/bin/sh
h=\$1; shift
exec "$w/node" "\$h" sh -c "\$*"
EOF
    chmod +x "$w/node" "$w/agent"
    touch "/tmp/mc-not-on-nodes.$id" 2>/dev/null
    "$w/node" nodeb sh -c 'hostname; [ ! -e "/tmp/mc-not-on-nodes.$1" ] || echo "/tmp is not its own"; ls -d "$0"' "$w" "$id" > "$w/h" 2> "$w/nserr"
    rm -f "/tmp/mc-not-on-nodes.$id"
    [ "$(cat "$w/h")" = "$(printf 'nodeb\n%s' "$w")" ] \
        || { mc_nodes_why="cannot give a namespace its own host name and /tmp ($(cat "$w/nserr") $(cat "$w/h"))"; return 1; }
    return 0
}

mc_nodes_down() {
    [ -n "${mc_nsa:-}" ] && ip netns del "$mc_nsa" 2>/dev/null
    [ -n "${mc_nsb:-}" ] && ip netns del "$mc_nsb" 2>/dev/null
    return 0
}
