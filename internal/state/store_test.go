package state

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/labtui/labtui/internal/minutes"
)

func TestSaveThenLoadKeepsAnswersAndEvidence(t *testing.T) {
	s := NewStore(filepath.Join(t.TempDir(), "nested", "labtui"))
	st := New()
	st.Revision = 3
	st.Answers["4.2b"] = "10:01:09.000, past the window's end"
	st.Steps["4.2"] = Step{Done: true, At: 1795946469000}
	st.Evidence.Hiccup = &Hiccup{Instance: "gw-1", DurationMS: 35000, Late: []Late{{RequestID: "r-103", Watermark: 1795946469000}}}
	if ok, err := s.Save(st); err != nil || !ok {
		t.Fatalf("Save = %v, %v", ok, err)
	}
	got, found, err := NewStore(s.Dir()).Load()
	if err != nil || !found {
		t.Fatalf("Load = %v, %v", found, err)
	}
	if got.Answers["4.2b"] != st.Answers["4.2b"] || !got.Steps["4.2"].Done || got.Evidence.Hiccup.Late[0].RequestID != "r-103" {
		t.Errorf("loaded %+v", got)
	}
	if got.Empty() {
		t.Error("a state with an answer is Empty")
	}
}

func TestLoadWithoutAFileIsEmpty(t *testing.T) {
	st, found, err := NewStore(t.TempDir()).Load()
	if err != nil || found || !st.Empty() {
		t.Errorf("Load = %+v, %v, %v", st, found, err)
	}
}

func TestSaveNeverReplacesANewerRevision(t *testing.T) {
	s := NewStore(t.TempDir())
	newer := New()
	newer.Revision = 5
	newer.Answers["4.1a"] = "newer"
	older := New()
	older.Revision = 4
	older.Answers["4.1a"] = "older"
	s.Save(newer)
	if ok, _ := s.Save(older); ok {
		t.Error("an older revision was written")
	}
	got, _, _ := s.Load()
	if got.Answers["4.1a"] != "newer" {
		t.Errorf("answer = %q", got.Answers["4.1a"])
	}
}

func TestConcurrentSavesLeaveOneWholeFileAndNoTemporaries(t *testing.T) {
	s := NewStore(t.TempDir())
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := New()
			st.Revision = uint64(i)
			st.Answers["4.1a"] = "answer"
			if _, err := s.Save(st); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if _, _, err := s.Load(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(s.Dir())
	if len(entries) != 1 {
		t.Errorf("state dir holds %d files, want only %s", len(entries), FileName)
	}
}

func TestArchiveMovesTheFileAside(t *testing.T) {
	s := NewStore(t.TempDir())
	st := New()
	st.Answers["4.1a"] = "x"
	s.Save(st)
	bak, err := s.Archive()
	if err != nil || bak == "" {
		t.Fatalf("Archive = %q, %v", bak, err)
	}
	if _, found, _ := s.Load(); found {
		t.Error("the file is still there after Archive")
	}
	if _, err := os.Stat(bak); err != nil {
		t.Error(err)
	}
}

func TestDirFollowsXDGStateHome(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/tmp/xdg-state")
	if d := Dir(); d != "/tmp/xdg-state/labtui" {
		t.Errorf("Dir = %s", d)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/learner")
	if d := Dir(); d != "/home/learner/.local/state/labtui" {
		t.Errorf("Dir = %s", d)
	}
}

func TestCloneCopiesComparisonsAndTheMovedSummary(t *testing.T) {
	st := New()
	st.Evidence.Replays = []Replay{{Timestamp: "completed_ts", Compare: &Comparison{
		EventTime:         DiffReport{Summary: "event-time: 3 rows", Lines: []string{"= 3 identical rows"}},
		ProcessingMinutes: []minutes.Row{{Tenant: "acme", Cells: [2]minutes.Cell{minutes.Processing: {USD: 1, Fired: 1}}}},
	}}}
	st.Evidence.MovedSummary = &MovedSummary{Moved: 2}
	c := st.Clone()
	c.Evidence.Replays[0].Compare.EventTime.Lines[0] = "changed"
	c.Evidence.Replays[0].Compare.ProcessingMinutes[0].Cells[minutes.Processing].USD = 9
	c.Evidence.MovedSummary.Moved = 9
	orig := st.Evidence
	if orig.Replays[0].Compare.EventTime.Lines[0] != "= 3 identical rows" || orig.Replays[0].Compare.ProcessingMinutes[0].Cells[minutes.Processing].USD != 1 ||
		orig.MovedSummary.Moved != 2 {
		t.Errorf("the clone shares evidence with the original: %+v", orig)
	}
}

// TestAnUnwritableStateFolderNamesTheFixAndNoTemporaryFile saves where no file can be
// made (in /proc, where even root cannot create one; under a regular file): the error
// names the folder, the reason and LABTUI_STATE_DIR, and no temporary file.
func TestAnUnwritableStateFolderNamesTheFixAndNoTemporaryFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, nil, 0o644)
	dirs := []string{filepath.Join(file, "state")}
	if _, err := os.Stat("/proc/self"); err == nil {
		dirs = append(dirs, "/proc")
	}
	for _, dir := range dirs {
		_, err := NewStore(dir).Save(New())
		if err == nil {
			t.Fatalf("saving in %s succeeded", dir)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "cannot save your answers in "+dir+" (") || !strings.HasSuffix(msg, "): set LABTUI_STATE_DIR or --state-dir to a folder you can write") ||
			strings.Contains(msg, ".tmp") {
			t.Errorf("%s: %q", dir, msg)
		}
	}
}

func TestAStateFileThatIsAFifoIsRefusedAtOnce(t *testing.T) {
	s := NewStore(t.TempDir())
	if err := syscall.Mkfifo(s.Path(), 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, _, err := s.Load(); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe") || !strings.Contains(err.Error(), "--state-dir") {
			t.Errorf("Load of a FIFO = %v", err)
		}
	case <-time.After(60 * time.Second): // the refusal comes at once; the open never ends
		t.Fatal("Load of a FIFO state file hangs")
	}
}
