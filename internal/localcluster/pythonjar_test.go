package localcluster

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Given a jar with folders (one stored deflated, as jar tools do), classes and a
// manifest, when the class is replaced, then the copy holds every entry in the same
// order, the new class, and everything else byte for byte.
func TestPatchJarReplacesOneEntryAndCopiesTheRest(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "in.jar"), filepath.Join(dir, "out.jar")
	entries := []struct {
		name   string
		method uint16
		data   string
	}{
		{"META-INF/", zip.Deflate, ""},
		{"META-INF/MANIFEST.MF", zip.Deflate, "Manifest-Version: 1.0\n"},
		{"org/", zip.Store, ""},
		{"org/A.class", zip.Deflate, "old class"},
		{"org/B.class", zip.Store, "other class"},
	}
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, e := range entries {
		f, err := w.CreateHeader(&zip.FileHeader{Name: e.name, Method: e.method})
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(e.data))
	}
	w.Close()
	if err := os.WriteFile(src, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := patchJar(src, dst, map[string][]byte{"org/A.class": []byte("new class")}); err != nil {
		t.Fatal(err)
	}
	r, err := zip.OpenReader(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if len(r.File) != len(entries) {
		t.Fatalf("%d entries, want %d", len(r.File), len(entries))
	}
	for i, e := range entries {
		if r.File[i].Name != e.name {
			t.Fatalf("entry %d is %s, want %s", i, r.File[i].Name, e.name)
		}
		got, err := jarEntry(dst, e.name)
		if err != nil {
			t.Fatal(err)
		}
		want := e.data
		if e.name == "org/A.class" {
			want = "new class"
		}
		if string(got) != want {
			t.Fatalf("%s holds %q, want %q", e.name, got, want)
		}
	}
	if err := patchJar(src, dst, map[string][]byte{"org/A.class": nil, "org/Missing.class": nil}); err == nil {
		t.Fatal("a jar without the entry was patched without an error")
	}
}

// Given flink-python's jar from the install in $LABTUI_REAL_CLUSTER, when labtui's classes
// are compiled into a copy of it, then testdata/SharedResourcesCheck.java, run against
// each jar, shows the copy's PythonSharedResources surviving Beam's double release (and
// closing the Python environments) where flink-python's throws, and both throwing any
// other failure: the check fails on the jar with the bug, so it can fail.
func TestLabtuisFlinkPythonJarSurvivesADoubleRelease(t *testing.T) {
	cache := os.Getenv("LABTUI_REAL_CLUSTER")
	if cache == "" {
		t.Skip("set LABTUI_REAL_CLUSTER to an install's cache folder to build labtui's flink-python jar")
	}
	javaHome, err := findJavaHome()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	orig := Layout{Cache: cache}.wheelPythonJar()
	work := t.TempDir()
	classes, err := compilePythonJarClasses(ctx, work, orig, javaHome, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	patched := filepath.Join(work, "flink-python.jar")
	if err := patchJar(orig, patched, classes); err != nil {
		t.Fatal(err)
	}
	check := filepath.Join(work, "check")
	opts := Options{Logf: t.Logf}
	if _, err := opts.run(ctx, command{Path: filepath.Join(javaHome, "bin", "javac"),
		Args: []string{"--release", "11", "-nowarn", "-cp", orig, "-d", check, filepath.Join("testdata", "SharedResourcesCheck.java")}}); err != nil {
		t.Fatal(err)
	}
	run := func(jar string) string {
		out, err := exec.CommandContext(ctx, filepath.Join(javaHome, "bin", "java"), "-cp", jar+string(os.PathListSeparator)+check,
			"org.apache.flink.streaming.api.runners.python.beam.SharedResourcesCheck").Output()
		if err != nil {
			t.Fatalf("java with %s: %v", jar, err)
		}
		return string(out)
	}
	want := map[string]string{
		orig: `released-twice threw Reference count must not be negative., 0 of 2 environments closed
released-twice-and-more threw Reference count must not be negative., 0 of 2 environments closed
other-failure threw the control service failed, 0 of 2 environments closed
environment-fails threw the environment's folder is gone, 1 of 2 environments closed
clean returned, 2 of 2 environments closed
`,
		patched: `released-twice returned, 2 of 2 environments closed
released-twice-and-more threw Reference count must not be negative., 2 of 2 environments closed
other-failure threw the control service failed, 2 of 2 environments closed
environment-fails threw the environment's folder is gone, 2 of 2 environments closed
clean returned, 2 of 2 environments closed
`,
	}
	for jar, w := range want {
		if got := run(jar); got != w {
			t.Errorf("with %s:\n%s\nwant:\n%s", jar, got, w)
		}
	}
}
