// Package pythonjar holds labtui's fixes of flink-python 2.2.1: Java sources whose
// classes replace flink-python's own in a copy of its jar that labtui's jobs are
// submitted with (as FLINK_OPT_DIR's flink-python jar, which `flink run` ships with the
// job). localcluster builds that copy for --backend cluster and remote; the Flink image
// of the compose lab (../Dockerfile) builds it from this folder for --backend compose.
// classes.txt is the one list of what replaces what.
//
//   - ServerFactory$InetSocketAddressServerFactory: the TaskManager's Python worker talks
//     to its JVM through gRPC services the JVM opens (Beam's Fn API: control, data, state,
//     logging, provisioning, artifacts). flink-python 2.2.1 opens them on every interface,
//     although it tells the worker to use 127.0.0.1 (https://github.com/apache/beam/issues/21598),
//     and no option of Flink or Beam changes that; this one binds the loopback address it
//     names.
//   - PythonSharedResources: cancelling a job can make flink-python 2.2.1 release a Python
//     worker's client once too often while a bundle finishes, and the exception that
//     follows shuts the TaskManager down; this one logs it instead (see the source for the
//     race).
package pythonjar

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
)

//go:embed classes.txt *.java
var files embed.FS

// A Patch is one source and the class of it that replaces flink-python's.
type Patch struct {
	Source string // file name in this folder, e.g. ServerFactory.java
	Class  string // jar entry, e.g. org/apache/beam/.../ServerFactory$InetSocketAddressServerFactory.class
	Text   []byte // the source
}

// Patches returns classes.txt's patches in its order, each with its source. The slice is
// shared: callers read it.
var Patches = sync.OnceValue(func() []Patch {
	list, err := files.ReadFile("classes.txt")
	if err == nil {
		var ps []Patch
		if ps, err = parse(list, files.ReadFile); err == nil {
			return ps
		}
	}
	panic(err) // embedded: the tests read the same files
})

// Sum is the SHA-256 of every patch's name, class and source, in classes.txt's order:
// what a built copy is stamped with.
var Sum = sync.OnceValue(func() string { return sum(Patches()) })

func sum(ps []Patch) string {
	h := sha256.New()
	for _, p := range ps {
		fmt.Fprintf(h, "%s %s %d\n", p.Source, p.Class, len(p.Text))
		h.Write(p.Text)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// parse reads classes.txt: "SOURCE CLASS" a line, # comments and blank lines skipped.
func parse(list []byte, read func(string) ([]byte, error)) ([]Patch, error) {
	var ps []Patch
	sc := bufio.NewScanner(bytes.NewReader(list))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 || !strings.HasSuffix(f[0], ".java") || !strings.HasSuffix(f[1], ".class") {
			return nil, fmt.Errorf("classes.txt line %d: want SOURCE.java CLASS.class, got %q", n, line)
		}
		text, err := read(f[0])
		if err != nil {
			return nil, fmt.Errorf("classes.txt line %d: %w", n, err)
		}
		ps = append(ps, Patch{Source: f[0], Class: f[1], Text: text})
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("classes.txt names no patch")
	}
	return ps, sc.Err()
}
