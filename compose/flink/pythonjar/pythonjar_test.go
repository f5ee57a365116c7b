package pythonjar

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every source in this folder is in classes.txt and every line of it names a source here
// and a class of that source's package: the image and localcluster build the same set.
func TestClassesTxtNamesEverySource(t *testing.T) {
	ps := Patches()
	listed := map[string]bool{}
	for _, p := range ps {
		listed[p.Source] = true
		pkg := ""
		for _, line := range strings.Split(string(p.Text), "\n") {
			if strings.HasPrefix(line, "package ") {
				pkg = strings.TrimSuffix(strings.TrimPrefix(line, "package "), ";")
				break
			}
		}
		dir := strings.ReplaceAll(pkg, ".", "/") + "/"
		base := strings.TrimSuffix(p.Source, ".java")
		name := strings.TrimPrefix(p.Class, dir)
		if pkg == "" || !strings.HasPrefix(p.Class, dir) || strings.Contains(name, "/") ||
			(name != base+".class" && !strings.HasPrefix(name, base+"$")) {
			t.Errorf("%s (package %q) cannot compile to %s", p.Source, pkg, p.Class)
		}
	}
	srcs, err := filepath.Glob("*.java")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range srcs {
		if !listed[s] {
			t.Errorf("%s is not in classes.txt: neither build would use it", s)
		}
	}
	if len(srcs) != len(ps) {
		t.Errorf("%d sources, %d patches", len(srcs), len(ps))
	}
}

func TestParseRefusesWhatItCannotBuild(t *testing.T) {
	read := func(name string) ([]byte, error) {
		if name == "A.java" {
			return []byte("package a;"), nil
		}
		return nil, os.ErrNotExist
	}
	for list, want := range map[string]string{
		"":                                     "names no patch",
		"# only a comment\n":                   "names no patch",
		"A.java\n":                             "line 1: want SOURCE.java CLASS.class",
		"A.java a/A.class extra\n":             "line 1: want SOURCE.java CLASS.class",
		"A.class a/A.java\n":                   "line 1: want SOURCE.java CLASS.class",
		"A.java a/A.class\nB.java b/B.class\n": "line 2: file does not exist",
	} {
		_, err := parse([]byte(list), read)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parse(%q) = %v, want an error with %q", list, err, want)
		}
	}
	ps, err := parse([]byte("# c\n\nA.java a/A$B.class\n"), read)
	if err != nil || len(ps) != 1 || ps[0].Class != "a/A$B.class" || string(ps[0].Text) != "package a;" {
		t.Errorf("parse = %+v, %v", ps, err)
	}
}

// A built copy is rebuilt when any source or the class it replaces changes.
func TestSumFollowsTheSources(t *testing.T) {
	ps := Patches()
	base := sum(ps)
	if Sum() != base || len(base) != 64 {
		t.Fatalf("Sum() = %q, sum(Patches()) = %q", Sum(), base)
	}
	for i := range ps {
		for _, change := range []func(*Patch){
			func(p *Patch) { p.Text = append(append([]byte{}, p.Text...), ' ') },
			func(p *Patch) { p.Class += "x" },
			func(p *Patch) { p.Source = "X" + p.Source },
		} {
			c := append([]Patch{}, ps...)
			change(&c[i])
			if sum(c) == base {
				t.Errorf("a change to patch %d (%s) leaves the sum as it was", i, ps[i].Source)
			}
		}
	}
}
