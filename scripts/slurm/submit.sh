#!/usr/bin/env bash
# submit.sh — a gsearch sweep on a Slurm cluster: a job array of shards, and
# the merge as a job that waits for all of them.
#
#   scripts/slurm/submit.sh [-n TASKS] [-g GPUS] [-c CPUS] [-p PARTITION] [-t TIME]
#                           [-f FIRST] [-s SBATCH_OPTION]... SPACE [GSEARCH_RUN_OPTION]...
#
#   -n TASKS      shards, one array task each (default 4)
#   -f FIRST      the array's first task id (default 0): --array=FIRST-(FIRST+TASKS-1)
#   -g GPUS       GPUs per task (default 1); with more than one, each task gets a
#                 whole node (--nodes=1 --exclusive) and runs a worker per GPU
#   -c CPUS       CPUs per task, its compile threads (default 4)
#   -p PARTITION  the GPU partition (default: the cluster's default partition)
#   -t TIME       time limit per task (default 08:00:00)
#   -s OPTION     any other sbatch option for the array (-s --account=proj),
#                 repeatable
#
# Run it from the directory that is to hold results/ (the repository root,
# say); the options after SPACE go to every `gsearch run` (--set N=8192...).
# It prints the two job ids; when both are done, results/NAME.db holds the
# merged sweep:
#
#   gsearch query results/NAME.db summary
#
# GSEARCH names the binary (default: gsearch on PATH, else build/gsearch) and
# DEVICE the --device of every task; both, and the rest of this shell's
# environment, reach the jobs.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
usage() {
	sed -n "4,5p" "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

tasks=4 gpus=1 cpus=4 time=08:00:00 first=0
part=()
extra=()
while getopts n:g:c:p:t:f:s:h o; do
	case $o in
	n) tasks=$OPTARG ;;
	f) first=$OPTARG ;;
	g) gpus=$OPTARG ;;
	c) cpus=$OPTARG ;;
	p) part=(--partition="$OPTARG") ;;
	t) time=$OPTARG ;;
	s) extra+=("$OPTARG") ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
space=$1
shift
for v in "$tasks" "$gpus" "$cpus" "x$first"; do
	case $v in
	x*[!0-9]* | x) echo "submit.sh: -f needs a number >= 0" >&2; exit 2 ;;
	x*) ;;
	'' | *[!0-9]* | 0) echo "submit.sh: -n, -g and -c need a number >= 1" >&2; exit 2 ;;
	esac
done
if [ ! -f "$space" ]; then
	echo "submit.sh: no space file $space" >&2
	exit 2
fi
export SPACE=$space SHARDS=$tasks
export GSEARCH=${GSEARCH:-$(command -v gsearch || echo "$PWD/build/gsearch")}
export GSEARCH_ARGS="$*"

layout=(--gres="gpu:$gpus" --cpus-per-task="$cpus")
[ "$gpus" -gt 1 ] && layout+=(--nodes=1 --exclusive)

# the space is checked here, where a mistake costs nothing
"$GSEARCH" check "$space" >/dev/null

array=$(sbatch --parsable --array="$first-$((first + tasks - 1))" --time="$time" "${part[@]}" \
	"${layout[@]}" "${extra[@]}" "$here/sweep.sbatch")
array=${array%%;*}
# afterok: only when every task succeeded; kill-on-invalid-dep: a failed
# task cancels the merge instead of leaving it pending for ever
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
	"${part[@]}" "${extra[@]}" "$here/merge.sbatch")
merge=${merge%%;*}

name=$(basename "$space")
echo "array job $array: $tasks shards of $space into results/${name%.*}.shard-I-of-$tasks.db"
echo "merge job $merge: after all of them, into results/${name%.*}.db"
