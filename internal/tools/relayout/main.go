// Command relayout rewrites the module's Go files after packages moved: every import
// path, every string holding one, the package clause and the qualified names of a package
// whose name changed with its folder, and the relative paths ("../labs/...") that
// reached a folder from where a file used to be. It is relayout.sh's Go half; the moves
// themselves are git mv's, done first. Run from the module's folder with each move as
// OLD=NEW (folders relative to it):
//
//	go run ./internal/tools/relayout replay=internal/reenact backend=internal/backend
//
// It is idempotent: what is rewritten already no longer matches. Where a package's new
// name is spelt already in a file that imports it, the import keeps the old name as an
// alias and the file is named on stderr.
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// move is one folder's move.
type move struct{ old, new string }

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "relayout:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	var moves []move
	words := map[string]bool{}
	for _, a := range args {
		if w, ok := strings.CutPrefix(a, "-words="); ok {
			for _, x := range strings.Split(w, ",") {
				words[x] = true
			}
			continue
		}
		o, n, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("%q is not OLD=NEW", a)
		}
		moves = append(moves, move{path.Clean(o), path.Clean(n)})
	}
	// The longest folder first, so backend/cluster is matched before backend.
	sort.SliceStable(moves, func(i, j int) bool { return len(moves[i].old) > len(moves[j].old) })
	out, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		return fmt.Errorf("go list -m: %w", err)
	}
	module := strings.TrimSpace(string(out))
	return filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || p == filepath.Join("internal", "tools", "relayout")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		return rewrite(filepath.ToSlash(p), module, moves, words)
	})
}

// topLevel is every name declared at the top of the Go files in dir, which a file's
// import of that name would clash with.
func topLevel(dir string) map[string]bool {
	names := map[string]bool{}
	entries, _ := os.ReadDir(filepath.FromSlash(dir))
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(filepath.FromSlash(dir), e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = true
						}
					}
				}
			}
		}
	}
	return names
}

// newPath maps a folder (or file) relative to the module through the moves; ok says one
// applied.
func newPath(p string, moves []move) (string, bool) {
	for _, m := range moves {
		if p == m.old {
			return m.new, true
		}
		if rest, ok := strings.CutPrefix(p, m.old+"/"); ok {
			return m.new + "/" + rest, true
		}
	}
	return p, false
}

// oldPath maps a folder now in the tree back to where it was before the moves.
func oldPath(p string, moves []move) string {
	best := move{}
	for _, m := range moves {
		if (p == m.new || strings.HasPrefix(p, m.new+"/")) && len(m.new) > len(best.new) {
			best = m
		}
	}
	if best.new == "" {
		return p
	}
	return best.old + strings.TrimPrefix(p, best.new)
}

var relative = regexp.MustCompile(`^((?:\.\./)+)([\w.-].*)$`)

// rewrite rewrites one Go file in place, if anything in it changes.
func rewrite(file, module string, moves []move, words map[string]bool) error {
	src, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		return err
	}
	dir := path.Dir(file)
	oldDir := oldPath(dir, moves)
	changed := false

	// Import paths, and the names of packages whose name changed with their folder.
	renames := map[string]string{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		rel, ok := strings.CutPrefix(p, module+"/")
		if !ok {
			continue
		}
		np, moved := newPath(rel, moves)
		if !moved {
			continue
		}
		imp.Path.Value = strconv.Quote(module + "/" + np)
		changed = true
		oldName, newName := path.Base(rel), path.Base(np)
		if imp.Name != nil || oldName == newName {
			continue
		}
		if spelt(f, imp, newName) || topLevel(dir)[newName] {
			imp.Name = ast.NewIdent(oldName)
			fmt.Fprintf(os.Stderr, "%s: spells %s already; it imports %s as %s\n", file, newName, np, oldName)
			continue
		}
		renames[oldName] = newName
	}
	if len(renames) > 0 {
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil {
					if nn, ok := renames[id.Name]; ok {
						id.Name = nn
					}
				}
			}
			return true
		})
	}

	// The package clause of a package whose name changed with its folder.
	if np, moved := newPath(oldDir, moves); moved && path.Base(oldDir) != path.Base(np) && dir == np {
		oldName, newName := path.Base(oldDir), path.Base(np)
		switch f.Name.Name {
		case oldName:
			f.Name.Name, changed = newName, true
		case oldName + "_test":
			f.Name.Name, changed = newName+"_test", true
		}
		if f.Doc != nil {
			for _, c := range f.Doc.List {
				if t, ok := strings.CutPrefix(c.Text, "// Package "+oldName+" "); ok {
					c.Text, changed = "// Package "+newName+" "+t, true
				}
			}
		}
	}

	// Strings: import paths in them, relative paths that no longer reach from here, and a
	// folder named by one of words ("labcluster/artifacts.go" in a message).
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		ns := s
		for _, m := range moves {
			if words[m.old] {
				ns = regexp.MustCompile(`(^|[^\w/.-])`+regexp.QuoteMeta(m.old)+`/`).ReplaceAllString(ns, "${1}"+m.new+"/")
			}
		}
		if rel, ok := strings.CutPrefix(s, module+"/"); ok {
			if np, moved := newPath(rel, moves); moved {
				ns = module + "/" + np
			}
		} else if m := relative.FindStringSubmatch(s); m != nil && !exists(path.Join(dir, s)) {
			target := path.Join(oldDir, s)
			if !strings.HasPrefix(target, "../") {
				nt, _ := newPath(target, moves)
				if exists(nt) {
					if r, err := filepath.Rel(dir, nt); err == nil {
						ns = filepath.ToSlash(r)
						if strings.HasSuffix(s, "/") {
							ns += "/"
						}
					}
				}
			}
		}
		if ns != s {
			lit.Value, changed = strconv.Quote(ns), true
		}
		return true
	})
	// filepath.Join("..", "labs", ...): the leading literal elements as one path.
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !isJoin(call.Fun) {
			return true
		}
		var elems []string
		for _, a := range call.Args {
			lit, ok := a.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				break
			}
			s, _ := strconv.Unquote(lit.Value)
			elems = append(elems, s)
		}
		if len(elems) < 2 || elems[0] != ".." {
			return true
		}
		joined := path.Join(elems...)
		if exists(path.Join(dir, joined)) {
			return true
		}
		target := path.Join(oldDir, joined)
		nt, _ := newPath(target, moves)
		if strings.HasPrefix(target, "../") || !exists(nt) {
			return true
		}
		r, err := filepath.Rel(dir, nt)
		if err != nil {
			return true
		}
		var args []ast.Expr
		for _, e := range strings.Split(filepath.ToSlash(r), "/") {
			args = append(args, &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(e)})
		}
		call.Args = append(args, call.Args[len(elems):]...)
		changed = true
		return true
	})

	// Comments: "package old" and old.Name of a package whose name changed, and the old
	// name as a word where it is one of words (a name that is no English word).
	for old, nw := range packageRenames(moves) {
		qual := regexp.MustCompile(`\b` + regexp.QuoteMeta(old) + `\.([A-Z])`)
		word := regexp.MustCompile(`\b` + regexp.QuoteMeta(old) + `\b`)
		pkg := regexp.MustCompile(`\bpackage ` + regexp.QuoteMeta(old) + `\b`)
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				t := pkg.ReplaceAllString(c.Text, "package "+nw)
				if renames[old] != "" || words[old] || path.Base(oldDir) == old {
					t = qual.ReplaceAllString(t, nw+".$1")
				}
				if words[old] {
					t = word.ReplaceAllString(t, nw)
				}
				if t != c.Text {
					c.Text, changed = t, true
				}
			}
		}
	}
	if !changed {
		return nil
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return fmt.Errorf("format %s: %w", file, err)
	}
	return os.WriteFile(file, buf.Bytes(), 0o644)
}

// packageRenames maps the old name of each package whose name changed to its new one.
func packageRenames(moves []move) map[string]string {
	out := map[string]string{}
	for _, m := range moves {
		if path.Base(m.old) != path.Base(m.new) {
			out[path.Base(m.old)] = path.Base(m.new)
		}
	}
	return out
}

// spelt reports whether name is an identifier anywhere in f other than a package
// qualifier: a declaration, a local, the name of an import other than self.
func spelt(f *ast.File, self *ast.ImportSpec, name string) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && id.Obj == nil {
				// A qualifier: its own name does not count, its selection does not either.
				return false
			}
		case *ast.Ident:
			if n.Name == name {
				found = true
			}
		}
		return !found
	})
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if imp == self {
			continue
		}
		if imp.Name != nil && imp.Name.Name == name || imp.Name == nil && path.Base(p) == name {
			found = true
		}
	}
	return found
}

// isJoin reports whether fun is filepath.Join or path.Join.
func isJoin(fun ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Join" {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && (id.Name == "filepath" || id.Name == "path")
}

// exists reports whether p (relative to the module's folder) is there.
func exists(p string) bool {
	_, err := os.Stat(filepath.FromSlash(p))
	return err == nil
}
