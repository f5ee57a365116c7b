package skewview

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/labtui/labtui/internal/backend"
	"github.com/labtui/labtui/internal/jobspec"
	"github.com/labtui/labtui/internal/reenact"
	"github.com/labtui/labtui/internal/session"
	"github.com/labtui/labtui/internal/skew"
	"github.com/labtui/labtui/tui/theme"
)

const seedBurst = "../../../labs/04-event-time-and-processing-time/scenarios/seed-burst.jsonl"

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, no bold.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// Given the seed burst's picture drawn at PictureSize, the view is the title line over
// the drawing, every line the view's width.
func TestTheViewShowsTheTitleOverThePicture(t *testing.T) {
	rs, err := reenact.Results(context.Background(), seedBurst, reenact.Config{Job: jobspec.Options{Trace: true}, Drain: true})
	if err != nil {
		t.Fatal(err)
	}
	m := New(theme.New()).SetSize(90, 24).SetFocused(true)
	w, h := m.PictureSize()
	if w != 90 || h != 23 {
		t.Fatalf("picture size %dx%d, want 90x23", w, h)
	}
	m = m.setPicture("run 1, seed burst", skew.RenderStyled(skew.Build(rs, skew.Options{}), w, h, m.style()))
	view := m.View()
	golden.RequireEqual(t, []byte(view))
	lines := strings.Split(view, "\n")
	if len(lines) != 24 {
		t.Errorf("%d lines, want 24", len(lines))
	}
	for _, l := range lines {
		if ansi.StringWidth(l) != 90 {
			t.Errorf("%q is %d cells wide, want 90", l, ansi.StringWidth(l))
		}
	}
	if !strings.HasPrefix(lines[0], "skew · run 1, seed burst") || !strings.Contains(lines[0], "s or esc: back to the panes") {
		t.Errorf("title line %q", lines[0])
	}
}

// Before a picture arrives the view says so; a note shows in the title line; a drawing
// made for another size is cut or padded to the view's until the next arrives.
func TestTheViewSaysWhatIsMissingAndFitsAnOldDrawing(t *testing.T) {
	m := New(theme.New()).SetSize(60, 6).setNote("drawing…")
	golden.RequireEqual(t, []byte(m.View()))
	if !strings.Contains(m.View(), "no picture yet") || !strings.Contains(m.View(), "drawing…") {
		t.Errorf("empty view %q", m.View())
	}
	m = m.setPicture("old", strings.Repeat(strings.Repeat("x", 80)+"\n", 10))
	lines := strings.Split(m.View(), "\n")
	if len(lines) != 6 || ansi.StringWidth(lines[3]) != 60 {
		t.Errorf("an old drawing is not fitted: %d lines, %q", len(lines), lines[3])
	}
	if m.SetSize(60, 0).View() != "" {
		t.Error("a view of no lines draws something")
	}
}

// TestRefreshBuildsOnceAndDrawsAgainAtANewSize: the seed burst's run is built once (its
// command's DrawnMsg shows it), not again while its results stay; a resize draws the
// same picture again at the new size, without a build.
func TestRefreshBuildsOnceAndDrawsAgainAtANewSize(t *testing.T) {
	rs, err := reenact.Results(context.Background(), seedBurst, reenact.Config{Job: jobspec.Options{Trace: true}, Drain: true})
	if err != nil {
		t.Fatal(err)
	}
	s := session.New(session.Config{})
	s.Apply(backend.Update{Run: 1, Results: rs})
	run := s.Current()
	m := New(theme.New()).SetSize(90, 24)
	m, cmd := m.Refresh(run, s, false)
	if cmd == nil {
		t.Fatal("no build of a run with results")
	}
	if again, c := m.Refresh(run, s, true); c != nil || again.Built(run.ID, run.Results.Len()) != nil {
		t.Error("a second build began while the first was under way")
	}
	m, _ = m.Update(cmd())
	built := m.Built(run.ID, run.Results.Len())
	if built == nil || !strings.Contains(m.View(), "records") {
		t.Fatalf("the build is not shown:\n%s", m.View())
	}
	if _, c := m.Refresh(run, s, false); c != nil {
		t.Error("a picture of the same results was built again")
	}
	m = m.SetSize(60, 20)
	m, cmd = m.Refresh(run, s, false)
	if cmd == nil {
		t.Fatal("no drawing at the new size")
	}
	if d := cmd().(DrawnMsg); d.model != nil {
		t.Error("a resize built the picture again")
	} else if m, _ = m.Update(d); m.Stale() || m.Built(run.ID, run.Results.Len()) != built {
		w, h := m.DrawnSize()
		t.Errorf("after the resize: drawn at %dx%d, the same picture %v", w, h, m.Built(run.ID, run.Results.Len()) == built)
	}
}
