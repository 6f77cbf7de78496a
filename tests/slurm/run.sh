#!/usr/bin/env bash
# run.sh — a sweep on a real Slurm, on this one machine: scripts/slurm/ end to end.
#
#   tests/slurm/run.sh            (make test-slurm)
#
# Sets up munge and Slurm in a temporary directory: a munge key made here,
# slurmctld and slurmd on free ports of 127.0.0.1, one node with this
# machine's CPUs and four GPUs as far as Slurm knows (gres/gpu on links to
# /dev/null), proctrack/linuxproc, task/none, select/cons_tres.  Then
# scripts/slurm/submit.sh submits a 4-task array sweeping SPACE, its ids
# starting at 1 (gsearch must rank a task by SLURM_ARRAY_TASK_MIN), and the
# merge after it.  The merged store must equal a single-process sweep of the
# same space: the same sweep identity, configurations, outcomes and times,
# views, one part per shard and no conflict.  The daemons are stopped at the
# end, whatever happens.
#
# Installs slurmctld, slurmd, slurm-client and munge from Debian's packages
# when missing (root, or sudo).  GSEARCH names the binary (default
# build/gsearch), SPACE the space (default spaces/matvec.space), DEVICE the
# device the shards measure on, KEEP=1 keeps the temporary directory.
# GS_RESULT, when set, receives "<passed> <failed>" for `make test`.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
gsearch=${GSEARCH:-$root/build/gsearch}
case $gsearch in /*) ;; *) gsearch=$root/$gsearch ;; esac
space=${SPACE:-spaces/matvec.space}
case $space in /*) ;; *) space=$root/$space ;; esac
shards=4
# The device the shards measure on: the emulated device, whose modeled times
# are deterministic, so shards and a single process must agree exactly
# (DEVICE=fake uses the supervisor's fake GPU worker instead).
DEVICE=${DEVICE:-emu}

passed=0
failed=0
t_start=$(date +%s.%N)
ok() { echo "PASS: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
check() { # check WHAT EXPECTED ACTUAL
	if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: expected '$2', got '$3'"; fi
}
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
finish() {
	echo "slurm: $passed passed, $failed failed (total $(since "$t_start") s)"
	[ -n "${GS_RESULT:-}" ] && echo "$passed $failed" >"$GS_RESULT"
	[ "$failed" -eq 0 ]
	exit
}

# ---- packages ------------------------------------------------------------------
need=()
for p in slurmctld slurmd slurm-client munge sqlite3; do
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	sudo=()
	[ "$(id -u)" -eq 0 ] || sudo=(sudo)
	echo "installing ${need[*]}"
	t=$(date +%s.%N)
	if ! "${sudo[@]}" apt-get update -qq ||
		! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
			--no-install-recommends "${need[@]}" >/dev/null; then
		bad "install ${need[*]}"
		finish
	fi
	echo "installed in $(since "$t") s"
fi
if [ ! -x "$gsearch" ]; then
	bad "no executable $gsearch"
	finish
fi

# ---- munge and Slurm in a temporary directory -----------------------------------
# munged wants every directory above its socket searchable by all, and its
# key readable by it alone
tmp=$(mktemp -d /tmp/gs-slurm.XXXXXX)
chmod 755 "$tmp"
mkdir -p "$tmp"/{key,run,state,spool/gsnode,log,dev,work,single}
chmod 700 "$tmp/key"
pids=()
array= merge=
cleanup() {
	if [ -n "$array$merge" ]; then
		scancel $array $merge 2>/dev/null
		for _ in $(seq 50); do squeue -h 2>/dev/null | grep -q . || break; sleep 0.2; done
	fi
	for ((k = ${#pids[@]} - 1; k >= 0; k--)); do kill "${pids[k]}" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	if [ "${KEEP:-0}" = 1 ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

dd if=/dev/urandom of="$tmp/key/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/key/munge.key"
sock=$tmp/run/munge.sock
munged -F --key-file="$tmp/key/munge.key" --socket="$sock" --pid-file="$tmp/run/munged.pid" \
	--seed-file="$tmp/key/munged.seed" --log-file="$tmp/log/munged.log" \
	>"$tmp/log/munged.out" 2>&1 &
pids+=($!)

read -r port1 port2 < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
for i in 0 1 2 3; do ln -s /dev/null "$tmp/dev/nvidia$i"; done
cpus=$(nproc)
cat >"$tmp/slurm.conf" <<EOF
ClusterName=gstest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port1
SlurmdPort=$port2
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
SlurmUser=$(id -un)
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
GresTypes=gpu
NodeName=gsnode NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=$cpus RealMemory=1000 Gres=gpu:4 State=UNKNOWN
PartitionName=gpu Nodes=gsnode Default=YES MaxTime=INFINITE State=UP
EOF
echo "NodeName=gsnode Name=gpu File=$tmp/dev/nvidia[0-3]" >"$tmp/gres.conf"
export SLURM_CONF=$tmp/slurm.conf

t=$(date +%s.%N)
for _ in $(seq 100); do
	munge -S "$sock" -n >/dev/null 2>&1 && break
	sleep 0.1
done
slurmctld -D -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N gsnode -f "$SLURM_CONF" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
state=
for _ in $(seq 150); do
	state=$(sinfo -h -o %T 2>/dev/null)
	[ "$state" = idle ] && break
	sleep 0.2
done
if [ "$state" != idle ]; then
	bad "slurm up: node state '$state' after 30 s"
	tail -n 20 "$tmp"/log/*.out "$tmp"/log/*.log
	finish
fi
ok "munge, slurmctld and slurmd up, node idle ($(since "$t") s)"

# ---- the sweep as a job array, and the merge after it ------------------------------
name=$(basename "$space")
name=${name%.*}
dev_opt=()
check_opt=()
if [ "$DEVICE" = fake ]; then
	export GSEARCH_FAKE_GPUS=1 GSEARCH_WORKER=$root/tests/sched/fake_worker.py FAKE_ALL_OK=1
	unset DEVICE
else
	export DEVICE # sweep.sbatch passes it on as --device
	dev_opt=(--device "$DEVICE")
	case $DEVICE in emu*) check_opt=(--emu) ;; esac # an emulated device runs emulator sizes
fi

t=$(date +%s.%N)
out=$(cd "$tmp/work" && GSEARCH=$gsearch "$root/scripts/slurm/submit.sh" -n "$shards" -f 1 -c 1 \
	-t 00:10:00 "$space" 2>&1)
echo "$out"
array=$(sed -n 's/^array job \([0-9]*\):.*/\1/p' <<<"$out")
merge=$(sed -n 's/^merge job \([0-9]*\):.*/\1/p' <<<"$out")
if [ -z "$array" ] || [ -z "$merge" ]; then
	bad "submit.sh submitted the array and the merge"
	finish
fi
ok "submit.sh submitted array $array and merge $merge"
slow=$("$root/tests/slow-factor.sh") || exit 2
for _ in $(seq $((1500 * slow))); do
	squeue -h -j "$array,$merge" 2>/dev/null | grep -q . || break
	sleep 0.2
done
if squeue -h -j "$array,$merge" 2>/dev/null | grep -q .; then
	bad "jobs still queued or running after $((300 * slow)) s"
	squeue
fi
t_jobs=$(since "$t")
states=$(scontrol -o show job "$array" | grep -o 'JobState=[A-Z_]*' | sort | uniq -c | xargs)
check "all $shards array tasks completed" "$shards JobState=COMPLETED" "$states"
check "the merge job completed" "JobState=COMPLETED" \
	"$(scontrol -o show job "$merge" | grep -o 'JobState=[A-Z_]*')"
for f in "$tmp"/work/slurm-*.out; do
	[ -f "$f" ] && { echo "--- ${f##*/}"; cat "$f"; }
done
merged=$tmp/work/results/$name.db
if [ ! -f "$merged" ]; then
	bad "merged store results/$name.db exists"
	finish
fi
echo "array and merge: $t_jobs s"

# ---- the same sweep in one process --------------------------------------------------
t=$(date +%s.%N)
(cd "$tmp/single" && "$gsearch" run --quiet --jobs "$cpus" "${dev_opt[@]}" --db single.db \
	"$space" >run.out 2>&1) || { bad "single-process sweep"; cat "$tmp/single/run.out"; }
single=$tmp/single/single.db
echo "single process: $(since "$t") s"

# ---- the merged store equals it ------------------------------------------------------
q() { sqlite3 -cmd ".timeout 5000" "$merged" "ATTACH '$single' AS s" "$@"; }
cols=$(sqlite3 "$single" "SELECT group_concat(name, ', ') FROM pragma_table_info('result')
	WHERE name NOT IN ('sweep_id', 'measured_at')")
valid=$("$gsearch" check "${check_opt[@]}" "$space" 2>/dev/null |
	sed -n 's/^valid *\([0-9]*\).*/\1/p')
n=$(q "SELECT count(*) FROM s.config")
check "the single run stored every valid configuration" "$valid" "$n"
check "same sweep identity" 1 \
	"$(q "SELECT count(*) FROM main.sweep m JOIN s.sweep x USING (ident_hash, shard)")"
check "same configurations" "$n|0" "$(q "SELECT (SELECT count(*) FROM main.config),
	(SELECT count(*) FROM (SELECT idx, params, baseline, variant_hash FROM main.config
	 EXCEPT SELECT idx, params, baseline, variant_hash FROM s.config))")"
check "same outcomes and times ($cols)" "$n|0|0" "$(q "SELECT (SELECT count(*) FROM main.result),
	(SELECT count(*) FROM (SELECT $cols FROM main.result EXCEPT SELECT $cols FROM s.result)),
	(SELECT count(*) FROM (SELECT $cols FROM s.result EXCEPT SELECT $cols FROM main.result))")"
check "outcomes by kind" "$(sqlite3 "$single" "SELECT group_concat(k, ' ') FROM (SELECT
	status || '=' || count(*) AS k FROM result GROUP BY status ORDER BY status)")" \
	"$(q "SELECT group_concat(k, ' ') FROM (SELECT status || '=' || count(*) AS k FROM
	main.result GROUP BY status ORDER BY status)")"
check "merged sweep done, no conflict" "done|0" \
	"$(q "SELECT (SELECT status FROM main.sweep), (SELECT count(*) FROM main.result_conflict)")"
check "one part per shard, from array tasks ranked 0-3" "0/4 1/4 2/4 3/4" \
	"$(q "SELECT group_concat(shard, ' ') FROM (SELECT shard FROM main.sweep_part
	ORDER BY shard)")"
check "shards balanced in valid configurations" 1 \
	"$(q "SELECT max(configs) - min(configs) <= 1 AND sum(configs) = $n FROM main.sweep_part")"
check "views: sweep_1 and $name" "$n|$n" \
	"$(q "SELECT (SELECT count(*) FROM main.sweep_1), (SELECT count(*) FROM main.\"$name\")")"
finish
