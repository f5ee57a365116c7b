package clusterplatform

import (
	"context"
	"errors"
	"strings"
	"testing"

	project "github.com/labtui/labtui/compose"
)

// A TaskManager labtui did not start is never killed or started, and Down stops
// nothing: the sentence says what to do instead.
func TestRemoteRefusesToKillWhatItDidNotStart(t *testing.T) {
	p := &remote{logf: func(string, ...any) {}}
	if err := p.KillTaskManager(context.Background()); !errors.Is(err, errNotOurs) || !strings.Contains(err.Error(), "did not start") {
		t.Fatalf("kill: %v", err)
	}
	if err := p.StartTaskManager(context.Background()); !errors.Is(err, errNotOurs) {
		t.Fatalf("start: %v", err)
	}
	if err := p.Down(context.Background()); err != nil {
		t.Fatalf("down: %v", err)
	}
}

func TestDoctorErrorNamesEachFixAndTheDoctor(t *testing.T) {
	r := project.Report{Results: []project.Result{
		{Name: "Java 17+", Status: project.Problem, Fix: "Install a JDK 17 or later."},
		{Name: "Disk", Status: project.OK},
	}}
	err := doctorError("cluster", r)
	if err == nil {
		t.Fatal("no error for a report with a problem")
	}
	for _, want := range []string{"Java 17+: Install a JDK 17 or later.", "labtui doctor --backend cluster", "embedded lab"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if doctorError("cluster", project.Report{}) != nil {
		t.Error("an error for a clean report")
	}
}
