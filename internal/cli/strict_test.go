package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestDurationsFinerThanAMillisecondAreRefusedWhereverTheyCameFrom(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		file string
		args []string
		want string
	}{
		{args: []string{"replay", "--watermark-interval", "1ns"}, want: "--watermark-interval 1ns is not accepted: labtui counts time in whole milliseconds"},
		{args: []string{"replay", "--watermark-interval", "999us"}, want: "--watermark-interval 999µs is not accepted"},
		{args: []string{"replay", "--idleness", "1ns"}, want: "--idleness 1ns is not accepted"},
		{args: []string{"replay", "--forget-after", "1.5ms"}, want: "such as 1ms or 2ms"},
		{env: map[string]string{"LABTUI_FORGET_AFTER": "1ns"}, args: []string{"replay"}, want: "LABTUI_FORGET_AFTER=1ns is not accepted"},
		{file: "out-of-orderness: 10us\n", args: []string{"replay"}, want: "out-of-orderness: 10µs in "},
	} {
		t.Run(c.want, func(t *testing.T) {
			_, code, stderr, _ := settleCLI(t, c.env, c.file, c.args...)
			if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("%v %v %q: exit %d, %q; want one sentence with %q", c.args, c.env, c.file, code, stderr, c.want)
			}
		})
	}
	if _, code, stderr, _ := settleCLI(t, nil, "", "replay", "--watermark-interval", "1ms", "--forget-after", "0s"); code != 0 {
		t.Errorf("whole milliseconds refused: %s", stderr)
	}
}

func TestAMisspeltLabtuiVariableIsNamed(t *testing.T) {
	t.Run("misspelt", func(t *testing.T) {
		_, code, stderr, _ := settleCLI(t, map[string]string{"LABTUI_RAET": "5"}, "", "run", "--headless")
		if code != 2 || !strings.Contains(stderr, "LABTUI_RAET is set, but it is no setting of labtui's (did you mean LABTUI_RATE?)") {
			t.Errorf("exit %d, %q", code, stderr)
		}
	})
	// Settings of other commands, and the variables the lab's scripts use, are no error.
	_, code, stderr, _ := settleCLI(t, map[string]string{"LABTUI_RATE": "5", "LABTUI_CACHE": "/tmp", "LABTUI_BOOTSTRAP": "x",
		"LABTUI_BUILD_NETWORK": "host", "LABTUI_COMPOSE_CACHE": "/tmp", "LABTUI_DEBIAN_MIRROR": "http://mirror"}, "", "diff")
	if code != 0 {
		t.Errorf("known variables refused: %s", stderr)
	}
}

func TestPricesThatAreNoNumberJSONCanWriteAreRefused(t *testing.T) {
	for _, v := range []string{".nan", ".inf", "-.inf", "1e308"} {
		_, code, stderr, _ := settleCLI(t, nil, "prices:\n  flat-10c: ["+v+", 0.1]\n", "replay")
		if code != 2 || !strings.Contains(stderr, "each must be a number from 0 to 1e+06 USD per 1k tokens") {
			t.Errorf("price %s: exit %d, %q", v, code, stderr)
		}
	}
}

func TestFlagValuesAreCheckedBeforeTheLabStarts(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--headless", "--tenants", ""}, `--tenants "" is not accepted: give a comma-separated list of tenant names`},
		{[]string{"run", "--headless", "--rate", "1e9"}, "--rate 1e+09 is not accepted: give a number of requests per second above 0 and at most 50000"},
		{[]string{"--rate", "1e9"}, "--rate 1e+09 is not accepted"},
	} {
		_, code, stderr, _ := settleCLI(t, nil, "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want %q", c.args, code, stderr, c.want)
		}
	}
	if _, code, stderr, _ := settleCLI(t, nil, "", "record", "--simulate", "--out", "x", "--rate", "1e9"); code != 0 {
		t.Errorf("record --simulate refuses a high rate: %s", stderr)
	}
}

// TestAFaultOfAnInstanceOrPartitionTheLabLacksIsRefusedBeforeAnythingStarts: --hiccup
// gw-9 and --stall-partition 7 were refused only when due, after the lab had started
// and written its state.
func TestAFaultOfAnInstanceOrPartitionTheLabLacksIsRefusedBeforeAnythingStarts(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--headless", "--hiccup", "gw-9@1s+1s"}, "--hiccup gw-9@1s+1s is not accepted: the lab's gateway instances are gw-0 … gw-2 (--instances 3)"},
		{[]string{"run", "--headless", "--instances", "5", "--hiccup", "gw-1@1s+1s,gw-5@2s+1s"}, "--hiccup gw-5@2s+1s is not accepted: the lab's gateway instances are gw-0 … gw-4 (--instances 5)"},
		{[]string{"run", "--headless", "--stall-partition", "7@1s+1s"}, "--stall-partition 7@1s+1s is not accepted: the lab's topic has partitions 0 to 2"},
		{[]string{"record", "--simulate", "--out", "x.jsonl", "--hiccup", "gw-9@1s+1s"}, "--hiccup gw-9@1s+1s is not accepted"},
	} {
		dir := t.TempDir()
		args := append(append([]string{}, c.args...), "--state-dir", dir, "--duration", "2s", "--broker-addr", "127.0.0.1:0")
		if c.args[0] == "record" {
			args = append(args[:len(args)-2], "--duration", "1m")
		}
		t.Chdir(dir)
		code, _, stderr := runCLI(t, args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want %q", c.args, code, stderr, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "lab-04.json")); err == nil {
			t.Errorf("%v: the state was written before the refusal", c.args)
		}
	}
}

func TestEveryVariableTheLabJobReadsIsNoMisspelling(t *testing.T) {
	// The lab's scripts set the PyFlink job's variables in the environment labtui runs
	// in (labtui feed and replay beside the job): each must be a known one.
	src, err := os.ReadFile(filepath.Join("..", "..", "labs", "04-event-time-and-processing-time", "job", "gateway_meter.py"))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, m := range regexp.MustCompile(`env_default\("(LABTUI_[A-Z_]+)"`).FindAllStringSubmatch(string(src), -1) {
		env[m[1]] = "1"
	}
	if len(env) < 10 {
		t.Fatalf("found only %d of the job's variables: %v", len(env), env)
	}
	for name := range env {
		if _, code, stderr, _ := settleCLI(t, map[string]string{name: "1"}, "", "diff"); code != 0 {
			t.Errorf("%s, which the lab's job reads, is refused: %s", name, stderr)
		}
	}
}
