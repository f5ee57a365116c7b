package diff

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/labtui/labtui/internal/jobspec"
)

// ReadFile reads a run's output from a file (gzip-compressed when its name ends in .gz):
// the jsonl `labtui replay --format jsonl` writes, the print-sink text `labtui replay`
// writes, or a Flink TaskManager's stdout. Lines that are not results (log lines) are
// skipped; a line that looks like a result and is not one is an error naming the file
// and line, since a comparison that silently lost rows would lie.
func ReadFile(path string) ([]jobspec.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read output: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("cannot read output %s: not gzip data (%v)", path, err)
		}
		defer gz.Close()
		r = gz
	}
	rs, err := read(r)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", path, err)
	}
	return rs, nil
}

// read reads a run's output, one result a line, as ReadFile does. An error names the line
// number ("12: sink late: …").
func read(r io.Reader) ([]jobspec.Result, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var rs []jobspec.Result
	for n := 1; sc.Scan(); n++ {
		res, ok, err := jobspec.ParseResultLine(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%d: %v", n, err)
		}
		if ok {
			rs = append(rs, res)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf(" reading: %v", err)
	}
	return rs, nil
}
