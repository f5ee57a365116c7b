// Package exportcheck finds exported identifiers that no other package uses: the
// functions, types, variables, constants and methods a package outside internal/ exports
// although nothing outside it, tests included, refers to them. Such a name is API nobody
// asked for; it should be unexported unless it is documented API.
//
// It type-checks every package of the module and its tests from source, with the
// dependencies read from the export data `go list -export` builds, so it needs the go
// command on PATH and takes about as long as compiling the module's tests.
package exportcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Unused is one exported identifier nothing outside its package refers to.
type Unused struct {
	// Key names it: "path/to/pkg.Name", or "path/to/pkg.Type.Method" for a method.
	Key string
	// Pos is where it is declared, as file:line relative to the module's folder.
	Pos string
	// Kind is "func", "type", "var", "const" or "method".
	Kind string
}

// listed is the part of `go list -json` this package reads.
type listed struct {
	ImportPath   string
	Name         string
	Dir          string
	GoFiles      []string
	TestGoFiles  []string
	XTestGoFiles []string
	Export       string
	ImportMap    map[string]string
	ForTest      string
	Module       *struct{ Path string }
	Error        *struct{ Err string }
}

// Find lists the unused exports of the module in dir, sorted by Key. Packages under an
// internal/ folder, package main and declarations in _test.go files are not checked.
// A method is checked only when its type is used outside its package (else the type is
// the finding); a method that implements an interface any loaded package declares
// (error, fmt.Stringer, tea.Model, json.Marshaler, ...) counts as used, as do interface
// methods. Struct fields are not checked.
func Find(dir string) ([]Unused, error) {
	c, err := load(dir)
	if err != nil {
		return nil, err
	}
	return c.unused(), nil
}

// load type-checks the module in dir and its tests.
func load(dir string) (*checker, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	pkgs, err := goList(dir)
	if err != nil {
		return nil, err
	}
	module, err := modulePath(dir)
	if err != nil {
		return nil, err
	}
	byID := map[string]*listed{}
	for _, p := range pkgs {
		byID[p.ImportPath] = p
	}
	inModule := func(path string) bool { return path == module || strings.HasPrefix(path, module+"/") }

	fset := token.NewFileSet()
	c := &checker{uses: map[string]bool{}, declared: map[string]decl{}, ifaces: map[*types.Interface]bool{},
		occ: map[string][]occurrence{}, idents: map[string]map[string]bool{}}
	for _, p := range pkgs {
		plain := plainPath(p.ImportPath)
		if !inModule(plain) || strings.HasSuffix(p.ImportPath, ".test") {
			continue
		}
		// A package with tests is checked once, as its test variant (its files and its
		// in-package tests); its external test package is a unit of its own.
		// Another package recompiled for a test binary adds nothing its own unit lacks.
		if p.ForTest == "" && byID[p.ImportPath+" ["+p.ImportPath+".test]"] != nil ||
			p.ForTest != "" && p.ForTest != plain && !strings.HasSuffix(p.Name, "_test") {
			continue
		}
		if p.Error != nil {
			return nil, fmt.Errorf("go list %s: %s", p.ImportPath, p.Error.Err)
		}
		if err := c.check(fset, p, byID, dir, inModule); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// modulePath is the path of the module in dir.
func modulePath(dir string) (string, error) {
	cmd := exec.Command("go", "list", "-m")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list -m in %s: %w", dir, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// plainPath is an import path without go list's test-variant suffix: "p [p.test]" is "p".
func plainPath(id string) string {
	if i := strings.IndexByte(id, ' '); i >= 0 {
		return id[:i]
	}
	return id
}

// goList runs go list over the module with the tests and the export data of every
// dependency.
func goList(dir string) ([]*listed, error) {
	cmd := exec.Command("go", "list", "-e", "-export", "-deps", "-test",
		"-json=ImportPath,Name,Dir,GoFiles,TestGoFiles,XTestGoFiles,Export,ImportMap,ForTest,Module,Error", "./...")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list in %s: %v: %s", dir, err, stderr.String())
	}
	var pkgs []*listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(listed)
		if err := dec.Decode(p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("read go list's output: %w", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// decl is an exported identifier a checked package declares.
type decl struct {
	kind string
	pos  string
	obj  types.Object
	// recv is the key of a method's receiver type; empty for anything else.
	recv string
}

// checker collects what the module declares and what each package uses of another.
type checker struct {
	uses     map[string]bool
	declared map[string]decl
	ifaces   map[*types.Interface]bool
	// named are the interfaces seen, for the implements test.
	named []*types.Interface
	// types are the named types the module's packages declare, for forInterfaces.
	types []types.Type
	// occ is where each keyed object is declared or used, for Rename.
	occ map[string][]occurrence
	// idents are the identifiers each package's files spell, for Rename's clash test.
	idents map[string]map[string]bool
}

// occurrence is one identifier in a file.
type occurrence struct {
	file   string
	offset int
	name   string
}

// check type-checks one unit and records its declarations and its uses of other packages.
func (c *checker) check(fset *token.FileSet, p *listed, byID map[string]*listed, root string, inModule func(string) bool) error {
	// go list gives a test variant its package's files and its in-package tests, an
	// external test package its own files, as GoFiles.
	files := p.GoFiles
	var syntax []*ast.File
	for _, f := range files {
		af, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		syntax = append(syntax, af)
	}
	// Within a test binary every package that imports the one under test is recompiled
	// as "q [p.test]"; export data names it plainly, so plain paths resolve to the variant.
	suffix := ""
	if i := strings.IndexByte(p.ImportPath, ' '); i >= 0 {
		suffix = p.ImportPath[i:]
	}
	lookup := func(path string) (io.ReadCloser, error) {
		id := path
		if mapped, ok := p.ImportMap[path]; ok {
			id = mapped
		} else if suffix != "" && byID[path+suffix] != nil {
			id = path + suffix
		}
		q := byID[id]
		if q == nil || q.Export == "" {
			return nil, fmt.Errorf("no export data for %s (as %s)", path, id)
		}
		return os.Open(q.Export)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup)}
	pkg, err := conf.Check(plainPath(p.ImportPath), fset, syntax, info)
	if err != nil {
		return fmt.Errorf("type-check %s: %w", p.ImportPath, err)
	}
	c.collectInterfaces(pkg, map[*types.Package]bool{})
	c.record(fset, pkg, syntax, info)
	if inModule(pkg.Path()) || strings.HasSuffix(pkg.Path(), "_test") {
		for _, name := range pkg.Scope().Names() {
			if tn, ok := pkg.Scope().Lookup(name).(*types.TypeName); ok && !tn.IsAlias() {
				c.types = append(c.types, tn.Type())
			}
		}
	}
	for _, obj := range info.Uses {
		if obj.Pkg() == nil || obj.Pkg().Path() == pkg.Path() {
			continue
		}
		if k := key(obj); k != "" {
			c.uses[k] = true
		}
	}
	plain := plainPath(p.ImportPath)
	if pkg.Name() == "main" || strings.HasSuffix(pkg.Name(), "_test") || isInternal(plain) || !inModule(plain) {
		return nil
	}
	for id, obj := range info.Defs {
		if obj == nil || !id.IsExported() {
			continue
		}
		file := fset.Position(obj.Pos()).Filename
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		d := decl{obj: obj}
		switch o := obj.(type) {
		case *types.Func:
			sig := o.Type().(*types.Signature)
			if sig.Recv() == nil {
				d.kind = "func"
			} else if types.IsInterface(sig.Recv().Type()) {
				continue
			} else {
				d.kind = "method"
				d.recv = key(recvTypeName(sig.Recv().Type()))
			}
		case *types.TypeName:
			if o.Parent() != pkg.Scope() {
				continue
			}
			d.kind = "type"
		case *types.Var:
			if o.IsField() || o.Parent() != pkg.Scope() {
				continue
			}
			d.kind = "var"
		case *types.Const:
			if o.Parent() != pkg.Scope() {
				continue
			}
			d.kind = "const"
		default:
			continue
		}
		if rel, err := filepath.Rel(root, file); err == nil {
			file = rel
		}
		d.pos = fmt.Sprintf("%s:%d", file, fset.Position(obj.Pos()).Line)
		c.declared[key(obj)] = d
	}
	return nil
}

// record remembers where pkg's files name keyed objects, and every identifier they spell.
func (c *checker) record(fset *token.FileSet, pkg *types.Package, syntax []*ast.File, info *types.Info) {
	names := c.idents[pkg.Path()]
	if names == nil {
		names = map[string]bool{}
		c.idents[pkg.Path()] = names
	}
	for _, f := range syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				names[id.Name] = true
			}
			return true
		})
	}
	add := func(id *ast.Ident, obj types.Object) {
		if k := key(obj); k != "" {
			pos := fset.Position(id.Pos())
			c.occ[k] = append(c.occ[k], occurrence{file: pos.Filename, offset: pos.Offset, name: id.Name})
		}
	}
	for id, obj := range info.Defs {
		add(id, obj)
	}
	for id, obj := range info.Uses {
		add(id, obj)
	}
}

// collectInterfaces remembers every interface type pkg and its imports declare.
func (c *checker) collectInterfaces(pkg *types.Package, seen map[*types.Package]bool) {
	if seen[pkg] {
		return
	}
	seen[pkg] = true
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		if it, ok := tn.Type().Underlying().(*types.Interface); ok && !c.ifaces[it] && it.NumMethods() > 0 {
			c.ifaces[it] = true
			c.named = append(c.named, it)
		}
	}
	for _, imp := range pkg.Imports() {
		c.collectInterfaces(imp, seen)
	}
}

// unused is what the module declares outside internal/ that no other package uses.
func (c *checker) unused() []Unused {
	// A type counts as used when it is named outside, when one of its members is used
	// outside, or when it appears in the type of something used outside (an option type
	// only ever passed along, a result never named).
	used := map[string]bool{}
	for k := range c.uses {
		used[k] = true
	}
	var mark func(t types.Type, seen map[types.Type]bool)
	mark = func(t types.Type, seen map[types.Type]bool) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Named:
			if k := key(t.Origin().Obj()); k != "" {
				used[k] = true
				mark(t.Underlying(), seen)
			}
			if args := t.TypeArgs(); args != nil {
				for i := range args.Len() {
					mark(args.At(i), seen)
				}
			}
		case *types.Alias:
			mark(types.Unalias(t), seen)
		case *types.Pointer:
			mark(t.Elem(), seen)
		case *types.Slice:
			mark(t.Elem(), seen)
		case *types.Array:
			mark(t.Elem(), seen)
		case *types.Map:
			mark(t.Key(), seen)
			mark(t.Elem(), seen)
		case *types.Chan:
			mark(t.Elem(), seen)
		case *types.Signature:
			for i := range t.Params().Len() {
				mark(t.Params().At(i).Type(), seen)
			}
			for i := range t.Results().Len() {
				mark(t.Results().At(i).Type(), seen)
			}
		case *types.Struct:
			for i := range t.NumFields() {
				if f := t.Field(i); f.Exported() || f.Embedded() {
					mark(f.Type(), seen)
				}
			}
		case *types.Interface:
			for i := range t.NumMethods() {
				mark(t.Method(i).Type(), seen)
			}
		}
	}
	seen := map[types.Type]bool{}
	for k, d := range c.declared {
		if c.uses[k] {
			mark(d.obj.Type(), seen)
			if d.recv != "" {
				used[d.recv] = true
			}
		}
	}
	ifaces := c.forInterfaces()
	var out []Unused
	for k, d := range c.declared {
		if used[k] {
			continue
		}
		if d.kind == "method" && (!used[d.recv] || ifaces[k] || errorMethod(d.obj.(*types.Func))) {
			continue
		}
		out = append(out, Unused{Key: k, Pos: d.pos, Kind: d.kind})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// forInterfaces are the keys of the methods that make one of the module's types (their
// own or promoted by embedding, on the type or a pointer to it) satisfy an interface any
// loaded package declares. It goes by names, not signatures: an interface and a type
// type-checked in different packages are different objects here, and a generic interface
// has no method set until instantiated.
func (c *checker) forInterfaces() map[string]bool {
	out := map[string]bool{}
	for _, t := range c.types {
		ms := types.NewMethodSet(types.NewPointer(t))
		if ms.Len() == 0 {
			continue
		}
		has := map[string]types.Object{}
		for i := range ms.Len() {
			has[ms.At(i).Obj().Name()] = ms.At(i).Obj()
		}
		for _, it := range c.named {
			all := true
			for i := range it.NumMethods() {
				if has[it.Method(i).Name()] == nil {
					all = false
					break
				}
			}
			if !all {
				continue
			}
			for i := range it.NumMethods() {
				if k := key(has[it.Method(i).Name()]); k != "" {
					out[k] = true
				}
			}
		}
	}
	return out
}

// errorMethod reports whether m is one the errors package looks for on an error value
// (Error, Unwrap, Is, As), through interfaces it declares inside its functions.
func errorMethod(m *types.Func) bool {
	switch m.Name() {
	case "Error", "Unwrap", "Is", "As":
	default:
		return false
	}
	recv := m.Type().(*types.Signature).Recv().Type()
	errType := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	return types.Implements(recv, errType) || types.Implements(types.NewPointer(recv), errType)
}

// key names an object the same way in every package that sees it, whichever copy of it
// (from source or from export data) a type-check holds. Fields and locals have no key.
func key(obj types.Object) string {
	if obj == nil || obj.Pkg() == nil {
		return ""
	}
	switch o := obj.(type) {
	case *types.Func:
		o = o.Origin()
		sig := o.Type().(*types.Signature)
		if sig.Recv() == nil {
			return o.Pkg().Path() + "." + o.Name()
		}
		tn := recvTypeName(sig.Recv().Type())
		if tn == nil {
			return ""
		}
		return tn.Pkg().Path() + "." + tn.Name() + "." + o.Name()
	case *types.Var:
		if o.IsField() || o.Parent() != o.Pkg().Scope() {
			return ""
		}
	case *types.TypeName, *types.Const:
		if o.Parent() != o.Pkg().Scope() {
			return ""
		}
	default:
		return ""
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// recvTypeName is the named type of a method's receiver, T for T and *T.
func recvTypeName(t types.Type) *types.TypeName {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// isInternal reports whether path has an internal element: no API, not checked.
func isInternal(path string) bool {
	for _, el := range strings.Split(path, "/") {
		if el == "internal" {
			return true
		}
	}
	return false
}
