package exportcheck

import (
	"fmt"
	"go/format"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// Rename unexports what keys name (keys as Find gives them) in every file of the module in
// dir that declares or uses it, and the first word of its doc comment. It leaves a key
// alone, with why, when the new name is spelt anywhere in the package already (a local, a
// builtin, an import: the compiler would not always notice the shadowing), when a method
// of that name would clash, or when keep says one of its files must not be edited.
// keep is given paths relative to dir.
func Rename(dir string, keys []string, keep func(file string) bool) (done []string, left map[string]string, err error) {
	c, err := load(dir)
	if err != nil {
		return nil, nil, err
	}
	dir, _ = filepath.Abs(dir)
	left = map[string]string{}
	type edit struct {
		offset int
		old    string
		new    string
	}
	edits := map[string][]edit{}
	docs := map[string][]edit{}
	for _, k := range keys {
		d, ok := c.declared[k]
		if !ok {
			left[k] = "not declared outside internal/"
			continue
		}
		old := d.obj.Name()
		name := unexported(old)
		pkg := d.obj.Pkg()
		if d.kind == "method" {
			recv := d.obj.Type().(*types.Signature).Recv().Type()
			if obj, _, _ := types.LookupFieldOrMethod(recv, true, pkg, name); obj != nil {
				left[k] = fmt.Sprintf("%s already has a field or method %s", recv, name)
				continue
			}
		} else if c.idents[pkg.Path()][name] {
			left[k] = fmt.Sprintf("package %s already spells %s", pkg.Name(), name)
			continue
		}
		var kept string
		for _, o := range c.occ[k] {
			if rel, _ := filepath.Rel(dir, o.file); keep(rel) {
				kept = rel
				break
			}
		}
		if kept != "" {
			left[k] = "used in " + kept + ", which is kept as it is"
			continue
		}
		if d.kind != "method" {
			c.idents[pkg.Path()][name] = true
		}
		seen := map[occurrence]bool{}
		for _, o := range c.occ[k] {
			if !seen[o] && o.name == old {
				seen[o] = true
				edits[o.file] = append(edits[o.file], edit{o.offset, old, name})
			}
		}
		file := filepath.Join(dir, strings.Split(d.pos, ":")[0])
		docs[file] = append(docs[file], edit{lineOf(d.pos), old, name})
		done = append(done, k)
	}
	files := map[string]bool{}
	for f := range edits {
		files[f] = true
	}
	for f := range docs {
		files[f] = true
	}
	for f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return done, left, err
		}
		es := edits[f]
		sort.Slice(es, func(i, j int) bool { return es[i].offset > es[j].offset })
		for _, e := range es {
			if string(src[e.offset:e.offset+len(e.old)]) != e.old {
				return done, left, fmt.Errorf("%s:#%d is not %s", f, e.offset, e.old)
			}
			src = append(src[:e.offset:e.offset], append([]byte(e.new), src[e.offset+len(e.old):]...)...)
		}
		lines := strings.Split(string(src), "\n")
		for _, e := range docs[f] {
			// The doc comment is the run of // lines just above the declaration's line.
			i := e.offset - 2
			for i >= 0 && strings.HasPrefix(strings.TrimSpace(lines[i]), "//") {
				i--
			}
			first := i + 1
			if first <= e.offset-2 {
				l := lines[first]
				indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
				if rest, ok := strings.CutPrefix(strings.TrimLeft(l, " \t"), "// "+e.old); ok && (rest == "" || !isIdentRune(rune(rest[0]))) {
					lines[first] = indent + "// " + e.new + rest
				}
			}
		}
		out, err := format.Source([]byte(strings.Join(lines, "\n")))
		if err != nil {
			return done, left, fmt.Errorf("format %s: %w", f, err)
		}
		if err := os.WriteFile(f, out, 0o644); err != nil {
			return done, left, err
		}
	}
	return done, left, nil
}

// unexported is name with its leading capitals lowered: Row is row, REST rest, TMLog tmLog.
func unexported(name string) string {
	r := []rune(name)
	n := 0
	for n < len(r) && unicode.IsUpper(r[n]) {
		n++
	}
	if n > 1 && n < len(r) && unicode.IsLower(r[n]) {
		n--
	}
	for i := range n {
		r[i] = unicode.ToLower(r[i])
	}
	return string(r)
}

// lineOf is the line of a file:line position.
func lineOf(pos string) int {
	var line int
	fmt.Sscanf(pos[strings.LastIndexByte(pos, ':')+1:], "%d", &line)
	return line
}

// isIdentRune reports whether r can continue an identifier.
func isIdentRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
