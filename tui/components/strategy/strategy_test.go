package strategy

import (
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/labtui/labtui/internal/watermark"
	"github.com/labtui/labtui/tui/theme"
)

func keys(m Model, ks ...tea.KeyMsg) Model {
	for _, k := range ks {
		m, _ = m.Update(k)
	}
	return m
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func TestTheBoundIsPickedWithArrowsOrTypedInSeconds(t *testing.T) {
	m := New(theme.New(), watermark.Strategy{}, 35*time.Second)
	if w := m.Watermarks(); w.OutOfOrderness != 0 || Name(w) != "for_monotonous_timestamps()" {
		t.Fatalf("a monotonous job's picker starts at %+v", w)
	}
	for _, c := range []struct {
		keys []tea.KeyMsg
		want time.Duration
	}{
		{[]tea.KeyMsg{{Type: tea.KeyRight}}, 40 * time.Second},
		{[]tea.KeyMsg{{Type: tea.KeyUp}, {Type: tea.KeyUp}}, 50 * time.Second},
		{[]tea.KeyMsg{{Type: tea.KeyDown}}, 35 * time.Second},
		{[]tea.KeyMsg{runes("1"), runes("2"), runes("0")}, 120 * time.Second},
		{[]tea.KeyMsg{runes("45"), {Type: tea.KeyBackspace}}, 4 * time.Second},
		{[]tea.KeyMsg{runes("9999")}, time.Hour},
		{[]tea.KeyMsg{{Type: tea.KeyRight}, {Type: tea.KeyRight}}, 0},
	} {
		got := keys(m, c.keys...)
		if w := got.Watermarks(); w.OutOfOrderness != c.want {
			t.Errorf("after %v: bound %v, want %v", c.keys, w.OutOfOrderness, c.want)
		}
	}
	chosen := keys(m, runes("45"), tea.KeyMsg{Type: tea.KeyEnter})
	if chosen.Result() != Chosen || Name(chosen.Watermarks()) != "for_bounded_out_of_orderness(45 s)" {
		t.Errorf("enter: %v %s", chosen.Result(), Name(chosen.Watermarks()))
	}
	zero := keys(m, runes("0"), tea.KeyMsg{Type: tea.KeyEnter})
	if zero.Result() != open {
		t.Errorf("a bound of 0 s was accepted as bounded out-of-orderness")
	}
	if keys(m, tea.KeyMsg{Type: tea.KeyEsc}).Result() != Cancelled {
		t.Error("esc did not cancel")
	}
}

func TestTheIntervalIsKeptAcrossAStrategyChange(t *testing.T) {
	m := New(theme.New(), watermark.Strategy{OutOfOrderness: 5 * time.Second, Interval: 50 * time.Millisecond}, 35*time.Second)
	w := keys(m, tea.KeyMsg{Type: tea.KeyRight}).Watermarks()
	if w.OutOfOrderness != 0 || w.Interval != 50*time.Millisecond {
		t.Errorf("watermarks = %+v", w)
	}
}

func TestPPutsTheWatermarksOnTheSourcePerPartition(t *testing.T) {
	m := New(theme.New(), watermark.Strategy{}, 35*time.Second)
	w := keys(m, runes("p")).Watermarks()
	if w.At != watermark.Source || Name(w) != "for_monotonous_timestamps() per partition at the source" {
		t.Errorf("after p: %+v, %s", w, Name(w))
	}
	if back := New(theme.New(), w, 35*time.Second); keys(back, runes("p")).Watermarks().At != watermark.Stream {
		t.Error("p again does not put them back after the parse")
	}
}

// TestAt80ColumnsThePickerSaysWhereTheWatermarksAreMadeAndNothingIsCut: 4.3 asks for w,
// p, enter; at 80 columns the picker named p "site" and never showed which site was
// chosen, and its line on held records was cut.
func TestAt80ColumnsThePickerSaysWhereTheWatermarksAreMadeAndNothingIsCut(t *testing.T) {
	m := New(theme.New(), watermark.Strategy{}, 35*time.Second)
	for _, c := range []struct {
		m    Model
		want []string
	}{
		{m, []string{"[monotonous]", "p: after the parse", "held records arrive behind the watermark, late: dropped", "enter restarts"}},
		{keys(m, runes("p")), []string{"p: per partition at the source"}},
		{keys(m, tea.KeyMsg{Type: tea.KeyRight}), []string{"[bounded, 40 s]", "above the 35 s hold: held records on time"}},
		{keys(m, runes("20")), []string{"[bounded, 20 s]", "not above the 35 s hold: some can be late"}},
	} {
		v := ansi.Strip(c.m.View(80))
		for _, l := range strings.Split(v, "\n") {
			if ansi.StringWidth(l) > 80 || strings.Contains(l, "…") {
				t.Errorf("a line is cut or wider than 80: %q", l)
			}
		}
		for _, w := range c.want {
			if !strings.Contains(v, w) {
				t.Errorf("the picker lacks %q:\n%s", w, v)
			}
		}
	}
}

func TestMain(m *testing.M) {
	// Goldens are plain text: no colour, no bold.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

// TestThePickerOffersBothStrategiesAtAnyWidth: a monotonous job's picker, as it opens
// and moved to a bound of 40 s, at 200 and at 80 cells.
func TestThePickerOffersBothStrategiesAtAnyWidth(t *testing.T) {
	m := New(theme.New(), watermark.Strategy{}, 35*time.Second)
	bounded := keys(m, tea.KeyMsg{Type: tea.KeyRight})
	golden.RequireEqual(t, []byte(strings.Join([]string{m.View(200), bounded.View(200), "---- 80 cells ----", m.View(80), bounded.View(80)}, "\n")))
}
