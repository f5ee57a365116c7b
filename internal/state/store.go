package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/labtui/labtui/internal/fileerr"
	"github.com/labtui/labtui/internal/regularfile"
	"github.com/labtui/labtui/internal/safetext"
)

// FileName is the name of the saved progress inside the state directory.
const FileName = "lab-04.json"

// maxFileSize is the most a saved file is read of: a file larger than this is not
// labtui's (the evidence it keeps is bounded, and far smaller).
const maxFileSize = 64 << 20

// Dir returns labtui's folder under the user's XDG state directory:
// $XDG_STATE_HOME/labtui, by default ~/.local/state/labtui.
func Dir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "labtui")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "labtui")
	}
	return filepath.Join(os.TempDir(), "labtui-state")
}

// Store saves a State to one file, atomically: a temporary file in the same directory
// is written, synced and renamed over the old one, so a reader or a crash sees the old
// state or the new one, never half of one. A Store is safe for concurrent use; it never
// replaces a revision it saved with an older one (saves run off the TUI's loop and may
// finish out of order).
type Store struct {
	dir string

	mu   sync.Mutex
	last uint64
}

// NewStore returns a Store keeping its file in dir. The directory is created on the
// first Save.
func NewStore(dir string) *Store { return &Store{dir: dir} }

// Path is the file the Store writes.
func (s *Store) Path() string { return filepath.Join(s.dir, FileName) }

// Dir is the directory the Store writes in.
func (s *Store) Dir() string { return s.dir }

// Load reads the saved state. It returns an empty State and false when nothing was
// saved yet.
func (s *Store) Load() (State, bool, error) {
	data, err := regularfile.Read(s.Path(), maxFileSize)
	if errors.Is(err, os.ErrNotExist) {
		return New(), false, nil
	}
	if err != nil {
		return New(), false, fmt.Errorf("cannot read the saved answers (%v): move the file aside, or give --state-dir another folder", err)
	}
	st := New()
	if err := json.Unmarshal(data, &st); err != nil {
		return New(), false, fmt.Errorf("saved answers in %s do not parse (%v): move the file aside", s.Path(), err)
	}
	if st.Version > version {
		return New(), false, fmt.Errorf("saved answers in %s are from a newer labtui (format %d)", s.Path(), st.Version)
	}
	if st.Answers == nil {
		st.Answers = map[string]string{}
	}
	// What the TUI's editor would drop from an answer (a NUL, a control character) is
	// shown escaped, the same in the TUI and on the sheet.
	for id, a := range st.Answers {
		st.Answers[id] = safetext.Text(a)
	}
	if st.Steps == nil {
		st.Steps = map[string]Step{}
	}
	// A file saved over several sessions before runs were numbered on names a run 1 of
	// each: every run gets its own number before anything reads them.
	st.renumber()
	// Load starts a session, whose revisions count from 1: the file's revision is not
	// carried on, so a file's (one at the counter's limit, say) cannot make them look
	// older than what is on disk and stop every save.
	s.mu.Lock()
	s.last = 0
	s.mu.Unlock()
	return st, true, nil
}

// Save writes st atomically, unless a revision newer than st's was saved already; it
// stamps SavedAt. It reports whether it wrote.
func (s *Store) Save(st State) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.Revision < s.last {
		return false, nil
	}
	st.Version = version
	if st.SavedAt.IsZero() {
		st.SavedAt = time.Now().UTC()
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return false, fmt.Errorf("encode answers: %w", err)
	}
	if err := WriteFileAtomic(s.Path(), append(data, '\n')); err != nil {
		return false, fmt.Errorf("cannot save your answers in %s (%s): set LABTUI_STATE_DIR or --state-dir to a folder you can write",
			s.dir, fileerr.Reason(err))
	}
	s.last = st.Revision
	return true, nil
}

// Archive moves the saved file aside, to the next numbered backup (lab-04.json.1.bak,
// then .2.bak, …), so the next start is fresh while every earlier set of answers stays
// on disk. It returns the new path, or "" when there was nothing to move. It holds the
// store's lock, so no Save runs while it moves the file (one between the backup's link
// and the removal of the saved name would be removed with it).
func (s *Store) Archive() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	bak, err := moveAside(s.Path())
	if err != nil {
		return "", fmt.Errorf("move saved answers aside: %w", err)
	}
	return bak, nil
}

// WriteFileAtomic writes data to path through a temporary file in the same directory,
// synced and renamed, creating the directory if needed. An error is a
// *fileerr.WriteError of path (or of its folder, when that cannot be made), which names
// no temporary file.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fileerr.Write(dir, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fileerr.Write(path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fileerr.Write(path, err)
	}
	return nil
}
