#!/usr/bin/env bash
# relayout.sh moves the packages that are no API under internal/, with names that tell
# them apart, and rewrites every reference to them: import paths and qualified names in
# the Go files (internal/tools/relayout), and the paths in scripts and docs. It is
# idempotent: on a tree where other branches have since added files or imports under the
# old paths, it moves those files and rewrites those imports too, and a second run
# changes nothing. Run it from anywhere in the checkout, then commit what it did:
#
#	internal/tools/relayout.sh && go build ./... && git add -A && git commit
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

# OLD=NEW folders. A subfolder's own move is listed before its parent's.
moves=(
	backend/cluster=internal/backend/clusterplatform # the flinklab Platforms without Docker: labtui's processes, or a running cluster
	backend=internal/backend
	broker=internal/broker
	cli=internal/cli
	diff=internal/diff
	engine=internal/engine
	export=internal/export
	gateway=internal/gateway
	gatewaymeter=internal/enginejob # the lab's job on the engine (the Go port of the PyFlink job)
	labcluster=internal/localcluster # Kafka and Flink as labtui's child processes
	livejob=internal/livejob
	meter=internal/jobspec # the job's contract: its options, what its sinks print, the reader
	minutes=internal/minutes
	recording=internal/recording
	replay=internal/reenact # the job re-enacting a recording offline (not Backend.Replay)
	session=internal/session
	skew=internal/skew
	state=internal/state
)
# Old package names that are no English word: rewritten wherever they stand as a word in
# comments and docs, not only as a qualifier or a path.
words=labcluster,gatewaymeter

# The files. Each tracked file under an old folder goes where the longest matching move
# sends it, so a file a branch added after the first run moves too.
git ls-files -z | while IFS= read -r -d '' f; do
	for m in "${moves[@]}"; do
		old=${m%%=*} new=${m#*=}
		case $f in
		"$old"/*)
			dest=$new/${f#"$old"/}
			mkdir -p "$(dirname "$dest")"
			git mv "$f" "$dest"
			break
			;;
		esac
	done
done
for m in "${moves[@]}"; do
	old=${m%%=*}
	[ -d "$old" ] && find "$old" -type d -empty -delete
done

# The Go files: import paths, package clauses, qualified names, strings and relative paths.
go run ./internal/tools/relayout -words="$words" "${moves[@]}"

# The TUI's layering test names the packages it must not import by their folders.
perl -0pi -e 's/\[\]string\{"engine", "replay", "recording", "gatewaymeter", "livejob"\}/[]string{"internal\/engine", "internal\/reenact", "internal\/recording", "internal\/enginejob", "internal\/livejob"}/' tui/deps_test.go

# Scripts and docs: ./old, old/..., the module path, and the words.
mapfile -d '' texts < <(git ls-files -z -- '*.md' '*.sh' '*.py' '*.txt' '*.yml' '.ci/*' '*.java' '*/Dockerfile' \
	'labs/*/conformance/*' 'labs/*/anchor/*' 'tui/smoke/*' ':!*.go' ':!*/testdata/*' ':!*.jsonl' ':!*.gz' \
	':!internal/tools/relayout.sh')
for m in "${moves[@]}"; do
	old=${m%%=*} new=${m#*=}
	OLD=$old NEW=$new perl -pi -e '
		my ($o, $n) = (quotemeta $ENV{OLD}, $ENV{NEW});
		s{(?<![\w./-])(\./)?$o(?=/)}{$1$n}g;
		s{(?<![\w./-])\./$o(?![\w/-]|\.\w)}{./$n}g;
		s{github\.com/labtui/labtui/$o(?![\w-])}{github.com/labtui/labtui/$n}g;
	' "${texts[@]}"
done
for w in ${words//,/ }; do
	for m in "${moves[@]}"; do
		[ "${m%%=*}" = "$w" ] || continue
		new=${m#*=}
		W=$w N=${new##*/} perl -pi -e 's{(?<![\w/-])$ENV{W}\b}{$ENV{N}}g' "${texts[@]}"
	done
done
gofmt -l $(git ls-files '*.go') || true
