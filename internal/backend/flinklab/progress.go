package flinklab

import (
	"regexp"
	"strings"
)

// phase is how far `docker compose up` has come, as its output shows.
type phase int

const (
	phaseNone phase = iota
	phasePulling
	phaseBuilding
	phaseStarting
	phaseWaiting
)

// phaseLine is the log line that announces a phase.
var phaseLine = map[phase]string{
	phasePulling:  "pulling images (the first start downloads about 1.5 GB)",
	phaseBuilding: "building the lab's images (a first build downloads about 1 GB and installs PyFlink: minutes)",
	phaseStarting: "starting containers",
	phaseWaiting:  "waiting until every service is healthy",
}

// composeStatus matches the status lines Compose prints without a terminal, such as
// " Container labtui-lab4-kafka-1  Healthy", " kafka Pulled" or " Network labtui-lab4_default  Created".
var composeStatus = regexp.MustCompile(`^\s*(?:(Container|Network|Volume|Image|Service)\s+)?(\S+)\s+` +
	`(Pulling|Pulled|Building|Built|Creating|Created|Recreate|Recreated|Starting|Started|Waiting|Healthy|Exited|Running|` +
	`Stopping|Stopped|Removing|Removed|Killing|Killed|Error)\b(.*)$`)

// buildStep matches a BuildKit step header, "#7 [jobmanager 3/6] RUN python -m venv /opt/venv".
var buildStep = regexp.MustCompile(`^#\d+ \[[^\]]*\d+/\d+\] (.*)$`)

// layerID is a 12-digit image layer id, whose per-layer pull lines are too many to show.
var layerID = regexp.MustCompile(`^[0-9a-f]{12}$`)

// progress turns what `docker compose up` (or kill, down) prints into log lines a
// learner can follow: a line when the phase changes, a line per service or container
// status, one per build step, and every line that mentions an error. Everything else
// (layer downloads, build output) is left out.
type progress struct {
	logf  func(format string, args ...any)
	phase phase
}

// line takes one line of docker's output.
func (p *progress) line(s string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	if m := buildStep.FindStringSubmatch(s); m != nil {
		p.enter(phaseBuilding)
		p.logf("  build %s", truncate(s, 160))
		return
	}
	if m := composeStatus.FindStringSubmatch(s); m != nil {
		kind, name, status, rest := m[1], m[2], m[3], strings.TrimSpace(m[4])
		if kind == "" && layerID.MatchString(name) {
			return
		}
		p.enter(statusPhase(status))
		if kind != "" {
			name = strings.ToLower(kind) + " " + name
		}
		p.logf("  %s %s", name, strings.TrimSpace(strings.ToLower(status)+" "+rest))
		return
	}
	if l := strings.ToLower(s); strings.Contains(l, "error") || strings.Contains(l, "failed") {
		p.logf("  %s", truncate(s, 240))
	}
}

// enter logs the phase's line when the output moves on to a later phase. Compose
// starts and waits for services in turn, so the output goes back and forth between
// starting and waiting: only the first move to each is announced.
func (p *progress) enter(ph phase) {
	if ph <= p.phase {
		return
	}
	p.phase = ph
	p.logf("compose: %s", phaseLine[ph])
}

// statusPhase is the phase a status word belongs to; phaseNone leaves it unchanged.
func statusPhase(status string) phase {
	switch status {
	case "Pulling", "Pulled":
		return phasePulling
	case "Building", "Built":
		return phaseBuilding
	case "Creating", "Created", "Recreate", "Recreated", "Starting", "Started", "Running":
		return phaseStarting
	case "Waiting", "Healthy", "Exited":
		return phaseWaiting
	}
	return phaseNone
}

// truncate shortens s to n bytes with an ellipsis.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
