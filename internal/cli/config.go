package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/labtui/labtui/internal/gateway"
	"github.com/labtui/labtui/internal/regularfile"
)

// fileOnlyKeys are the config file's keys that are not flags of any command.
var fileOnlyKeys = []string{"prices"}

// loadConfig settles every option of cmd once, from the first of its three sources that
// has it: the command line, then a LABTUI_* variable (the key in capitals, - as _; an
// empty variable counts as unset), then the config file, then the flag's default. Each
// value is parsed strictly, by the flag's own parser and the option's rule; a bad one,
// an unknown key in the file, or a file that is missing (when named) or does not parse,
// is one sentence naming where it came from, and exit status 2. The values land in the
// options the flags are bound to; where each came from, in a.where.
func (a *app) loadConfig(cmd *cobra.Command) error {
	file, path, err := readConfigFile(cmd)
	if err != nil {
		return exitError{code: 2, msg: err.Error()}
	}
	names := optionNames(cmd.Root())
	if err := unknownKeys(names, file, path); err != nil {
		return exitError{code: 2, msg: err.Error()}
	}
	if err := unknownVariables(names, os.Environ()); err != nil {
		return exitError{code: 2, msg: err.Error()}
	}
	where := map[string]string{}
	var bad error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if bad == nil && f.Name != "help" {
			bad = settle(cmd.Name(), f, file, path, where)
		}
	})
	if bad != nil {
		return exitError{code: 2, msg: bad.Error()}
	}
	a.where = where
	if p, ok := file["prices"]; ok {
		if a.global.Prices, err = parsePrices(p, path); err != nil {
			return exitError{code: 2, msg: err.Error()}
		}
	}
	return nil
}

// envName is the LABTUI_* variable of an option.
func envName(key string) string {
	return "LABTUI_" + strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
}

// settle gives flag f its value from the first source that has one and checks it
// against the option's rule, recording in where where the value came from.
func settle(cmd string, f *pflag.Flag, file map[string]any, path string, where map[string]string) error {
	r := ruleFor(cmd, f.Name, f)
	var (
		from     string              // where the value came from
		describe func(string) string // a value as it was given there
		values   []string            // what to set f to; none when the command line did
	)
	env := envName(f.Name)
	switch raw, inFile := file[f.Name]; {
	case f.Changed:
		from, describe = "--"+f.Name, func(v string) string { return "--" + f.Name + " " + quoteIfNeeded(v) }
	case os.Getenv(env) != "":
		from, describe = env, func(v string) string { return env + "=" + quoteIfNeeded(v) }
		values = []string{os.Getenv(env)}
	case inFile:
		from, describe = f.Name+" in "+path, func(v string) string { return f.Name + ": " + quoteIfNeeded(v) + " in " + path }
		var err error
		if values, err = fileValues(raw, f); err != nil {
			return fmt.Errorf("%s in %s %v: give %s", f.Name, path, err, r.accept)
		}
	default:
		return nil
	}
	for _, s := range values {
		if err := f.Value.Set(s); err != nil {
			return badValue(describe(s), r)
		}
	}
	where[f.Name] = from
	return check(f, r, describe)
}

// check applies the option's rules to the value f now holds, item by item for a list:
// a duration in whole milliseconds, then the rule r.
func check(f *pflag.Flag, r rule, describe func(string) string) error {
	if err := wholeMilliseconds(f, describe); err != nil {
		return err
	}
	if r.ok == nil {
		return nil
	}
	items := []string{f.Value.String()}
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		items = sv.GetSlice()
		if len(items) == 0 && f.Value.Type() == "stringSlice" {
			// --tenants '' is a list of nothing: the rule says whether nothing will do.
			items = []string{""}
		}
	}
	for _, s := range items {
		if !r.ok(s) {
			return badValue(describe(s), r)
		}
	}
	return nil
}

// badValue is the sentence for a value an option does not take; what says where it
// came from and what it was ("--rate 0", "LABTUI_RATE=banana", "rate: x in FILE").
func badValue(what string, r rule) error {
	if r.accept == "" {
		return fmt.Errorf("%s is not accepted", what)
	}
	return fmt.Errorf("%s is not accepted: give %s", what, r.accept)
}

// fileValues turns a config file's value into the text the flag's parser reads: one
// text for a scalar, one a list item for a list option.
func fileValues(raw any, f *pflag.Flag) ([]string, error) {
	_, isList := f.Value.(pflag.SliceValue)
	switch v := raw.(type) {
	case nil:
		return nil, errors.New("has no value")
	case []any:
		if !isList {
			return nil, errors.New("is a list, not one value")
		}
		out := make([]string, 0, len(v))
		for _, x := range v {
			s, ok := scalarText(x)
			if !ok {
				return nil, fmt.Errorf("holds %v, not a plain value", x)
			}
			out = append(out, s)
		}
		if f.Value.Type() == "stringSlice" { // its parser reads one comma-separated text
			return []string{strings.Join(out, ",")}, nil
		}
		return out, nil
	}
	s, ok := scalarText(raw)
	if !ok {
		return nil, errors.New("is a map, not a value")
	}
	return []string{s}, nil
}

// scalarText is a YAML scalar as the text a flag's parser reads.
func scalarText(x any) (string, bool) {
	switch v := x.(type) {
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case int:
		return strconv.Itoa(v), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case uint64:
		return strconv.FormatUint(v, 10), true
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), true
	case time.Time: // YAML reads 2026-11-29T10:00:00Z as a timestamp
		return v.Format(time.RFC3339Nano), true
	}
	return "", false
}

func quoteIfNeeded(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\"'\\") || !strconv.IsPrint(firstRune(s)) {
		return strconv.Quote(s)
	}
	return s
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return ' '
}

// readConfigFile reads the config file: --config, else LABTUI_CONFIG, else
// config.yaml (or config.yml) in configDir(), which may be absent. It returns the
// file's top-level keys and the file's path ("" when there is none). The file is YAML
// (JSON is YAML too); a key given twice is an error, and a key with no value stays, as
// nil, so that it can be reported.
//
// The file is read only if it is an ordinary file of at most maxConfigBytes: a named
// pipe would block the start until something wrote to it, and /dev/zero would be read
// until memory ran out.
// maxConfigBytes is the largest config file read; labtui's settings take a few hundred
// bytes.
const maxConfigBytes = 1 << 20

func readConfigFile(cmd *cobra.Command) (map[string]any, string, error) {
	path := os.Getenv("LABTUI_CONFIG")
	if f := cmd.Flags().Lookup("config"); f != nil && f.Changed {
		path = f.Value.String()
	}
	named := path != ""
	if !named {
		for _, name := range []string{"config.yaml", "config.yml"} {
			if p := filepath.Join(configDir(), name); fileExists(p) {
				path = p
				break
			}
		}
		if path == "" {
			return nil, "", nil
		}
	}
	data, err := regularfile.Read(path, maxConfigBytes)
	if errors.Is(err, os.ErrNotExist) && named {
		return nil, "", fmt.Errorf("config file %s does not exist: fix the --config path or LABTUI_CONFIG", path)
	}
	var special *regularfile.NotRegularError
	var large *regularfile.TooLargeError
	if errors.As(err, &special) || errors.As(err, &large) {
		return nil, "", fmt.Errorf("config file %v: give --config or LABTUI_CONFIG a YAML file", err)
	}
	if err != nil {
		return nil, "", fmt.Errorf("config file %s cannot be read (%v): fix its permissions or move it aside", path, err)
	}
	var file map[string]any
	if err := yaml.Unmarshal(data, &file); err != nil {
		return nil, "", fmt.Errorf("config file %s cannot be read (%v): fix it or move it aside", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	return file, path, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// optionNames are the long names of every flag of every command under root.
func optionNames(root *cobra.Command) []string {
	seen := map[string]bool{}
	var names []string
	add := func(f *pflag.Flag) {
		if !seen[f.Name] {
			seen[f.Name] = true
			names = append(names, f.Name)
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(add)
		c.PersistentFlags().VisitAll(add)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return names
}

// unknownKeys reports a key of the config file that is no option of any command.
func unknownKeys(options []string, file map[string]any, path string) error {
	known := map[string]bool{}
	for _, k := range options {
		known[k] = k != "help" && k != "config"
	}
	for _, k := range fileOnlyKeys {
		known[k] = true
	}
	var keys []string
	for k := range file {
		keys = append(keys, k)
	}
	first, hint, rest := unknown(keys, known)
	if first == "" {
		return nil
	}
	more := ""
	if len(rest) > 0 {
		more = fmt.Sprintf(" and %d more (%s)", len(rest), strings.Join(rest, ", "))
	}
	return fmt.Errorf("config file %s has the unknown key %q%s%s: its keys are the long flag names of labtui's commands (labtui COMMAND --help) and prices", path, first, hint, more)
}

// unknown sorts the names that known does not hold: the first, with a hint naming the
// known name nearest it (" (did you mean X?)", or ""), and the rest; "" for none.
func unknown(names []string, known map[string]bool) (first, hint string, rest []string) {
	var bad []string
	for _, n := range names {
		if !known[n] {
			bad = append(bad, n)
		}
	}
	if len(bad) == 0 {
		return "", "", nil
	}
	sort.Strings(bad)
	if near := nearest(bad[0], known); near != "" {
		hint = " (did you mean " + near + "?)"
	}
	return bad[0], hint, bad[1:]
}

// nearest returns the known key closest to k, if it is within two edits (one for a
// key of up to five letters).
func nearest(k string, known map[string]bool) string {
	best, bestD := "", min(3, len(k)/3+1)
	for c, ok := range known {
		if !ok {
			continue
		}
		if d := editDistance(k, c); d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// configDir is labtui's folder under the user's XDG config directory.
func configDir() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "labtui")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".config", "labtui")
	}
	return "."
}

// parsePrices reads the config file's prices: {model: [input_usd_per_1k,
// output_usd_per_1k]}, laid over the default price table.
func parsePrices(raw any, path string) (gateway.PriceTable, error) {
	p := gateway.DefaultPrices()
	entries, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("prices in %s must map each model to [input_usd_per_1k, output_usd_per_1k]", path)
	}
	for model, val := range entries {
		pair, ok := val.([]any)
		if !ok || len(pair) != 2 {
			return nil, fmt.Errorf("prices.%s in %s must be [input_usd_per_1k, output_usd_per_1k]", model, path)
		}
		var f [2]float64
		for i, x := range pair {
			switch n := x.(type) {
			case float64:
				f[i] = n
			case int:
				f[i] = float64(n)
			default:
				return nil, fmt.Errorf("prices.%s in %s must hold two numbers, not %v", model, path, x)
			}
		}
		p[model] = gateway.Price{InputPer1K: f[0], OutputPer1K: f[1]}
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("prices in %s: %v", path, err)
	}
	return p, nil
}
