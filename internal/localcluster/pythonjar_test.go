package localcluster

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/labtui/labtui/compose/flink/pythonjar"
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
	r := openJar(t, dst)
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
// are compiled into a copy of it, then the copy survives a double release (checkDoubleRelease).
func TestLabtuisFlinkPythonJarSurvivesADoubleRelease(t *testing.T) {
	cache := os.Getenv("LABTUI_REAL_CLUSTER")
	if cache == "" {
		t.Skip("set LABTUI_REAL_CLUSTER to an install's cache folder to build labtui's flink-python jar")
	}
	javaHome, err := findJavaHome()
	if err != nil {
		t.Fatal(err)
	}
	orig := Layout{Cache: cache}.wheelPythonJar()
	work := t.TempDir()
	classes, err := compilePythonJarClasses(context.Background(), work, orig, javaHome, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	patched := filepath.Join(work, "flink-python.jar")
	if err := patchJar(orig, patched, classes); err != nil {
		t.Fatal(err)
	}
	checkDoubleRelease(t, javaHome, orig, patched)
}

// Given the two flink-python jars of the compose lab's Flink image, copied out of it into
// $LABTUI_IMAGE_PYTHON_JARS (wheel/ and patched/, backend-compose.sh does it), then the
// image's copy differs from the wheel's jar in exactly the classes classes.txt names, each
// built from labtui's source, and survives a double release as the cluster backends' copy
// does: the image and localcluster build the same fix.
func TestComposeImagesFlinkPythonJarSurvivesADoubleRelease(t *testing.T) {
	dir := os.Getenv("LABTUI_IMAGE_PYTHON_JARS")
	if dir == "" {
		t.Skip("set LABTUI_IMAGE_PYTHON_JARS to a folder with the Flink image's wheel/ and patched/ flink-python jars")
	}
	javaHome, err := findJavaHome()
	if err != nil {
		t.Fatal(err)
	}
	name := "flink-python-" + FlinkVersion + ".jar"
	orig, patched := filepath.Join(dir, "wheel", name), filepath.Join(dir, "patched", name)
	replaced := map[string]bool{}
	for _, p := range pythonjar.Patches() {
		replaced[p.Class] = true
	}
	a, b := openJar(t, orig), openJar(t, patched)
	entries := map[string]*zip.File{}
	for _, f := range b.File {
		entries[f.Name] = f
	}
	if len(a.File) != len(b.File) {
		t.Errorf("the wheel's jar has %d entries, the image's copy %d", len(a.File), len(b.File))
	}
	changed := 0
	for _, f := range a.File {
		g, ok := entries[f.Name]
		switch {
		case !ok:
			t.Errorf("the image's copy has no %s", f.Name)
		case f.CRC32 != g.CRC32 && !replaced[f.Name]:
			t.Errorf("the image's copy changed %s, which classes.txt does not name", f.Name)
		case f.CRC32 == g.CRC32 && replaced[f.Name]:
			t.Errorf("the image's copy has flink-python's own %s", f.Name)
		case f.CRC32 != g.CRC32:
			changed++
		}
	}
	if changed != len(replaced) {
		t.Errorf("%d classes replaced, classes.txt names %d", changed, len(replaced))
	}
	checkDoubleRelease(t, javaHome, orig, patched)
}

// openJar opens the jar at path for the rest of the test.
func openJar(t *testing.T, path string) *zip.ReadCloser {
	t.Helper()
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// checkDoubleRelease runs testdata/SharedResourcesCheck.java against flink-python's jar
// orig and labtui's copy patched: the copy's PythonSharedResources survives Beam's double
// release (and closes the Python environments) where flink-python's throws, and both throw
// any other failure. The check fails on the jar with the bug, so it can fail.
func checkDoubleRelease(t *testing.T, javaHome, orig, patched string) {
	t.Helper()
	ctx := context.Background()
	check := filepath.Join(t.TempDir(), "check")
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
