// Command unexport unexports the exported identifiers no other package uses, as
// internal/exportcheck finds them, except those under the paths given as arguments
// (relative to the module's folder; a trailing / means the folder). It prints what it
// renamed and what it left, with why. Run it from the module's folder:
//
//	go run ./internal/tools/unexport tui/ cli/
package main

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/labtui/labtui/internal/exportcheck"
)

func main() {
	keep := func(file string) bool {
		for _, p := range os.Args[1:] {
			if file == p || strings.HasSuffix(p, "/") && strings.HasPrefix(file, p) {
				return true
			}
		}
		return false
	}
	found, err := exportcheck.Find(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var keys []string
	for _, u := range found {
		if keep(strings.Split(u.Pos, ":")[0]) {
			fmt.Printf("kept\t%s\t%s\n", u.Key, u.Pos)
			continue
		}
		keys = append(keys, u.Key)
	}
	done, left, err := exportcheck.Rename(".", keys, keep)
	for _, k := range done {
		fmt.Printf("renamed\t%s\n", k)
	}
	var why []string
	for k, w := range left {
		why = append(why, fmt.Sprintf("left\t%s\t%s", k, w))
	}
	sort.Strings(why)
	fmt.Println(strings.Join(why, "\n"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
