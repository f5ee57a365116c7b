package localcluster

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The TaskManager's Python worker talks to its JVM through gRPC services the JVM opens
// (Beam's Fn API: control, data, state, logging, provisioning, artifacts). flink-python
// 2.2.1 opens them on every interface, although it tells the worker to use 127.0.0.1
// (https://github.com/apache/beam/issues/21598), and no option of Flink or Beam changes
// that. So labtui submits its job with a copy of flink-python's jar in which the one class
// that opens them, ServerFactory$InetSocketAddressServerFactory, is built from
// loopback/ServerFactory.java, which binds the loopback address it names. `flink run`
// takes the jar from $FLINK_OPT_DIR (the only flink-python*.jar there) and ships it with
// the job as its user jar, which the TaskManager loads the Python operators' Beam classes
// from: no jar of the cluster changes, and a remote cluster's TaskManagers get the fix too.

//go:embed loopback/ServerFactory.java
var loopbackSource []byte

// loopbackClass is the class file the patched jar replaces.
const loopbackClass = "org/apache/beam/sdk/fn/server/ServerFactory$InetSocketAddressServerFactory.class"

// loopbackOptDir is the folder given to `flink run` as FLINK_OPT_DIR: the patched
// flink-python jar is its only file.
func (l Layout) loopbackOptDir() string {
	return filepath.Join(l.Cache, "flink-python-loopback-"+FlinkVersion)
}

// loopbackJar is the patched jar, named as the wheel's is.
func (l Layout) loopbackJar() string {
	return filepath.Join(l.loopbackOptDir(), "flink-python-"+FlinkVersion+".jar")
}

// wheelPythonJar is flink-python's own jar inside the wheel.
func (l Layout) wheelPythonJar() string {
	home := l.flinkHome()
	if home == "" {
		return ""
	}
	return filepath.Join(home, "opt", "flink-python-"+FlinkVersion+".jar")
}

// loopbackStamp holds the SHA-256 of the source the patched jar was built from.
func (l Layout) loopbackStamp() string { return filepath.Join(l.loopbackOptDir(), ".built") }

// loopbackSourceSum is the SHA-256 of the embedded source.
func loopbackSourceSum() string {
	s := sha256.Sum256(loopbackSource)
	return hex.EncodeToString(s[:])
}

// loopbackBuilt reports whether the patched jar is there, built from this source.
func (l Layout) loopbackBuilt() bool {
	b, err := os.ReadFile(l.loopbackStamp())
	if err != nil || string(b) != loopbackSourceSum() {
		return false
	}
	_, err = os.Stat(l.loopbackJar())
	return err == nil
}

// buildLoopbackJar compiles loopback/ServerFactory.java against the wheel's flink-python
// jar with the JDK's javac (a few seconds) and writes the copy of that jar with the class
// replaced, every other entry copied as it is.
func buildLoopbackJar(ctx context.Context, l Layout, javaHome string, logf func(string, ...any)) error {
	orig := l.wheelPythonJar()
	if orig == "" {
		return fmt.Errorf("no Flink distribution in %s to patch", l.venv())
	}
	work, err := os.MkdirTemp(l.Cache, ".loopback-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	src := filepath.Join(work, "src", "ServerFactory.java")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(src, loopbackSource, 0o644); err != nil {
		return err
	}
	classes := filepath.Join(work, "classes")
	opts := Options{Logf: logf}
	javac := command{Path: filepath.Join(javaHome, "bin", "javac"),
		Args: []string{"--release", "11", "-nowarn", "-cp", orig, "-d", classes, src},
		Env:  []string{"TMPDIR=" + work}}
	if _, err := opts.run(ctx, javac); err != nil {
		return fmt.Errorf("build the loopback fix of flink-python (javac of the JDK, which Flink's scripts need too): %w", err)
	}
	class, err := os.ReadFile(filepath.Join(classes, filepath.FromSlash(loopbackClass)))
	if err != nil {
		return fmt.Errorf("build the loopback fix of flink-python: %w", err)
	}
	if err := os.MkdirAll(l.loopbackOptDir(), 0o755); err != nil {
		return err
	}
	tmp := filepath.Join(l.loopbackOptDir(), ".jar-partial")
	if err := patchJar(orig, tmp, loopbackClass, class); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write the loopback copy of %s: %w", orig, err)
	}
	if err := os.Rename(tmp, l.loopbackJar()); err != nil {
		return err
	}
	return os.WriteFile(l.loopbackStamp(), []byte(loopbackSourceSum()), 0o644)
}

// patchJar writes to dst the jar src with the entry name's content replaced by data; the
// other entries are copied without being decompressed. src must hold name.
func patchJar(src, dst, name string, data []byte) error {
	r, err := zip.OpenReader(src)
	if err != nil {
		return err
	}
	defer r.Close()
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer f.Close()
	w := zip.NewWriter(f)
	replaced := false
	for _, e := range r.File {
		if strings.HasSuffix(e.Name, "/") {
			// A folder: jar tools store some deflated (two bytes of nothing), which
			// zip.Writer refuses to copy as data.
			h := e.FileHeader
			h.Method, h.CRC32, h.CompressedSize64, h.UncompressedSize64 = zip.Store, 0, 0, 0
			if _, err := w.CreateHeader(&h); err != nil {
				return err
			}
			continue
		}
		if e.Name != name {
			if err := w.Copy(e); err != nil {
				return err
			}
			continue
		}
		h := e.FileHeader
		h.Method, h.CRC32, h.CompressedSize64, h.UncompressedSize64 = zip.Deflate, 0, 0, 0
		out, err := w.CreateHeader(&h)
		if err != nil {
			return err
		}
		if _, err := out.Write(data); err != nil {
			return err
		}
		replaced = true
	}
	if !replaced {
		return fmt.Errorf("%s has no %s", src, name)
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

// jarEntry returns the content of the entry name of the jar at path.
func jarEntry(path, name string) ([]byte, error) {
	r, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	for _, e := range r.File {
		if e.Name == name {
			rc, err := e.Open()
			if err != nil {
				return nil, err
			}
			defer rc.Close()
			return io.ReadAll(rc)
		}
	}
	return nil, fmt.Errorf("%s has no %s", path, name)
}
