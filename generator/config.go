package generator

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/labtui/labtui/internal/gateway"
)

// MaxInstances is the largest number of gateway instances a Config may ask for.
const MaxInstances = 64

// MaxLiveRate is the highest rate, in requests per second, a Generator (live, on the wall
// clock) may be asked for: what one was measured to keep up with on 2 cores beside the
// embedded broker and the job (50,000 asked gave 401,826 requests in 8 s; 100,000 asked
// gave 238,107 in 10 s, with the pending completions growing). Below it, a machine that
// does not keep up is reported through WithBehind. A Schedule, on a simulated clock,
// takes any rate.
const MaxLiveRate = 50_000

// Config says what the gateway fleet looks like and where it writes.
type Config struct {
	// Instances is how many gateway instances run, named gw-0 … gw-N-1; default 3.
	Instances int
	// Rate is the total number of requests per second over all instances; default 20.
	// Each request produces two events.
	Rate float64
	// Tenants are the tenants requests are spread over, evenly; default acme, globex,
	// initech, umbrella, hooli.
	Tenants []string
	// Models are the models requests are spread over, evenly; default the priced models
	// of gateway.DefaultPrices.
	Models []string
	// Seed makes the schedule reproducible: the same seed and start time give the same
	// events; default 1.
	Seed int64
	// Brokers are the seed brokers every instance connects to; default 127.0.0.1:9092.
	Brokers []string
	// Topic is where events are written; default gateway-events.
	Topic string
}

// Defaults returns the configuration the lab uses unless told otherwise.
func Defaults() Config {
	return Config{
		Instances: 3,
		Rate:      20,
		Tenants:   []string{"acme", "globex", "initech", "umbrella", "hooli"},
		Models:    gateway.DefaultPrices().Models(),
		Seed:      1,
		Brokers:   []string{"127.0.0.1:9092"},
		Topic:     "gateway-events",
	}
}

// Validate reports, in a plain sentence, the first thing wrong with the configuration of
// a live Generator.
func (c Config) Validate() error {
	if err := c.ValidateSchedule(); err != nil {
		return err
	}
	if c.Rate > MaxLiveRate {
		return fmt.Errorf("rate %g requests/s is more than a live lab can produce: at most %d (record --simulate makes a recording at any rate)", c.Rate, MaxLiveRate)
	}
	if len(c.Brokers) == 0 {
		return fmt.Errorf("at least one broker address is needed, for example 127.0.0.1:9092")
	}
	for _, b := range c.Brokers {
		if strings.TrimSpace(b) == "" {
			return fmt.Errorf("a broker address is empty")
		}
	}
	if c.Topic == "" {
		return fmt.Errorf("the topic name is empty")
	}
	return nil
}

// ValidateSchedule checks what a Schedule needs, in a plain sentence: brokers, topic and
// the live rate limit do not matter to it.
func (c Config) ValidateSchedule() error {
	if c.Instances < 1 || c.Instances > MaxInstances {
		return fmt.Errorf("instances must be between 1 and %d, got %d", MaxInstances, c.Instances)
	}
	if !(c.Rate > 0) || math.IsInf(c.Rate, 0) {
		return fmt.Errorf("rate must be a positive number of requests per second, got %g", c.Rate)
	}
	if err := checkNames("tenant", c.Tenants); err != nil {
		return err
	}
	return checkNames("model", c.Models)
}

func checkNames(what string, names []string) error {
	if len(names) == 0 {
		return fmt.Errorf("at least one %s is needed", what)
	}
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if n == "" {
			return fmt.Errorf("a %s name is empty", what)
		}
		if seen[n] {
			return fmt.Errorf("%s %s is listed twice", what, n)
		}
		seen[n] = true
	}
	return nil
}

// InstanceName returns the name of gateway instance i, as written in every event's
// gateway field: gw-0, gw-1, …
func InstanceName(i int) string { return "gw-" + strconv.Itoa(i) }

// ParseInstance returns the index of a gateway instance named like InstanceName does.
func ParseInstance(name string) (int, error) {
	digits, ok := strings.CutPrefix(name, "gw-")
	i, err := strconv.Atoi(digits)
	if !ok || err != nil || i < 0 || strconv.Itoa(i) != digits {
		return 0, fmt.Errorf("%q is not a gateway instance name: they are gw-0, gw-1, …", name)
	}
	return i, nil
}
