package localcluster

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/labtui/labtui/compose/flink/pythonjar"
)

// labtui submits its job with a copy of flink-python's jar in which a few classes are built
// from labtui's own sources (package compose/flink/pythonjar says which and why). `flink
// run` takes the jar from $FLINK_OPT_DIR (the only flink-python*.jar there) and ships it with
// the job as its user jar, which the TaskManager loads the Python operators' classes from:
// no jar of the cluster changes, and a remote cluster's TaskManagers get the fixes too
// (unless flink-python is in their lib/).

// pythonJarOptDir is the folder given to `flink run` as FLINK_OPT_DIR: the patched
// flink-python jar is its only file.
func (l Layout) pythonJarOptDir() string {
	return filepath.Join(l.Cache, "flink-python-patched-"+FlinkVersion)
}

// pythonJar is the patched jar, named as the wheel's is.
func (l Layout) pythonJar() string {
	return filepath.Join(l.pythonJarOptDir(), "flink-python-"+FlinkVersion+".jar")
}

// wheelPythonJar is flink-python's own jar inside the wheel.
func (l Layout) wheelPythonJar() string {
	home := l.flinkHome()
	if home == "" {
		return ""
	}
	return filepath.Join(home, "opt", "flink-python-"+FlinkVersion+".jar")
}

// pythonJarStamp holds the SHA-256 of the sources the patched jar was built from.
func (l Layout) pythonJarStamp() string { return filepath.Join(l.pythonJarOptDir(), ".built") }

// pythonJarBuilt reports whether the patched jar is there, built from these sources.
func (l Layout) pythonJarBuilt() bool {
	b, err := os.ReadFile(l.pythonJarStamp())
	if err != nil || string(b) != pythonjar.Sum() {
		return false
	}
	_, err = os.Stat(l.pythonJar())
	return err == nil
}

// buildPythonJar compiles the pythonjar sources against the wheel's flink-python jar with the
// JDK's javac (a few seconds) and writes the copy of that jar with their classes in place
// of flink-python's, every other entry copied as it is.
func buildPythonJar(ctx context.Context, l Layout, javaHome string, logf func(string, ...any)) error {
	orig := l.wheelPythonJar()
	if orig == "" {
		return fmt.Errorf("no Flink distribution in %s to patch", l.venv())
	}
	work, err := os.MkdirTemp(l.Cache, ".pythonjar-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	classes, err := compilePythonJarClasses(ctx, work, orig, javaHome, logf)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(l.pythonJarOptDir(), 0o755); err != nil {
		return err
	}
	tmp := filepath.Join(l.pythonJarOptDir(), ".jar-partial")
	if err := patchJar(orig, tmp, classes); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write labtui's copy of %s: %w", orig, err)
	}
	if err := os.Rename(tmp, l.pythonJar()); err != nil {
		return err
	}
	return os.WriteFile(l.pythonJarStamp(), []byte(pythonjar.Sum()), 0o644)
}

// compilePythonJarClasses compiles the sources in work against the jar orig and returns
// each replacing class by its entry name.
func compilePythonJarClasses(ctx context.Context, work, orig, javaHome string, logf func(string, ...any)) (map[string][]byte, error) {
	args := []string{"--release", "11", "-nowarn", "-cp", orig, "-d", filepath.Join(work, "classes")}
	if err := os.MkdirAll(filepath.Join(work, "src"), 0o755); err != nil {
		return nil, err
	}
	for _, p := range pythonjar.Patches() {
		src := filepath.Join(work, "src", p.Source)
		if err := os.WriteFile(src, p.Text, 0o644); err != nil {
			return nil, err
		}
		args = append(args, src)
	}
	opts := Options{Logf: logf}
	javac := command{Path: filepath.Join(javaHome, "bin", "javac"), Args: args, Env: []string{"TMPDIR=" + work}}
	if _, err := opts.run(ctx, javac); err != nil {
		return nil, fmt.Errorf("build labtui's fixes of flink-python (javac of the JDK, which Flink's scripts need too): %w", err)
	}
	classes := map[string][]byte{}
	for _, p := range pythonjar.Patches() {
		b, err := os.ReadFile(filepath.Join(work, "classes", filepath.FromSlash(p.Class)))
		if err != nil {
			return nil, fmt.Errorf("build labtui's fixes of flink-python: %w", err)
		}
		classes[p.Class] = b
	}
	return classes, nil
}

// patchJar writes to dst the jar src with the content of each entry named in classes
// replaced by its value; the other entries are copied without being decompressed. src
// must hold every entry named.
func patchJar(src, dst string, classes map[string][]byte) error {
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
	replaced := map[string]bool{}
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
		data, ok := classes[e.Name]
		if !ok {
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
		replaced[e.Name] = true
	}
	for name := range classes {
		if !replaced[name] {
			return fmt.Errorf("%s has no %s", src, name)
		}
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
