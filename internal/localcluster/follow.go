package localcluster

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"time"
)

// maxLine bounds a line of the TaskManager's stdout: a longer one is handed over in
// pieces of this size.
const maxLine = 1 << 20

// followTaskManager hands each line the TaskManagers write on stdout (the print sinks,
// and anything else the job prints) to line, in order, until ctx ends, polling every
// interval. When RestartTaskManager starts a new TaskManager it reads the old one's
// file to its end first, then follows the new one's from its beginning, so no line is
// missed or read twice. A last line without its newline is held until it is complete.
func (f *Flink) followTaskManager(ctx context.Context, interval time.Duration, line func(string)) {
	f.mu.Lock()
	gen := f.gen
	f.mu.Unlock()
	var t tailer
	defer t.close()
	for {
		f.mu.Lock()
		latest, changed := f.gen, f.changed
		f.mu.Unlock()
		if t.file == nil {
			t.open(f.taskManagerLogDir(gen))
		}
		t.read(line)
		if latest > gen {
			// A TaskManager starts only once the one before has exited: its file is final.
			t.flush(line)
			t.close()
			gen++
			continue
		}
		select {
		case <-ctx.Done():
			t.read(line)
			return
		case <-changed:
		case <-time.After(interval):
		}
	}
}

// tailer reads a growing file from where it stopped.
type tailer struct {
	file    *os.File
	partial []byte
	buf     []byte
}

// open opens the stdout file (*.out) in dir, if the TaskManager has created it yet.
func (t *tailer) open(dir string) {
	m, _ := filepath.Glob(filepath.Join(dir, "*.out"))
	if len(m) == 0 {
		return
	}
	if fh, err := os.Open(m[0]); err == nil {
		t.file = fh
	}
}

// read hands over every complete line written since the last read.
func (t *tailer) read(line func(string)) {
	if t.file == nil {
		return
	}
	if t.buf == nil {
		t.buf = make([]byte, 64<<10)
	}
	for {
		n, err := t.file.Read(t.buf)
		data := t.buf[:n]
		for len(data) > 0 {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				t.partial = append(t.partial, data...)
				if len(t.partial) >= maxLine {
					t.flush(line)
				}
				break
			}
			if len(t.partial) > 0 {
				line(string(append(t.partial, data[:i]...)))
				t.partial = t.partial[:0]
			} else {
				line(string(data[:i]))
			}
			data = data[i+1:]
		}
		if err == io.EOF || n == 0 || err != nil {
			return
		}
	}
}

// flush hands over a held partial line.
func (t *tailer) flush(line func(string)) {
	if len(t.partial) > 0 {
		line(string(t.partial))
		t.partial = t.partial[:0]
	}
}

func (t *tailer) close() {
	if t.file != nil {
		t.file.Close()
		t.file = nil
	}
}
