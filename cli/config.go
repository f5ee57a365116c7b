package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/labtui/labtui/gateway"
)

// loadConfig reads the config file, if there is one, binds LABTUI_* variables and the
// command's flags, so a flag beats the environment, which beats the file. A missing
// default file is fine; a named file that is missing or a file that does not parse is a
// plain-sentence error that names the file.
func (a *app) loadConfig(cmd *cobra.Command) error {
	v := a.v
	v.SetEnvPrefix("LABTUI")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_", ".", "_"))
	v.AutomaticEnv()
	var bindErr error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if err := v.BindPFlag(f.Name, f); err != nil && bindErr == nil {
			bindErr = err
		}
	})
	if bindErr != nil {
		return bindErr
	}
	path := v.GetString("config")
	if path != "" {
		v.SetConfigFile(path)
	} else {
		v.SetConfigName("config")
		v.SetConfigType("yaml")
		v.AddConfigPath(configDir())
	}
	if err := v.ReadInConfig(); err != nil {
		var notFound viper.ConfigFileNotFoundError
		if errors.As(err, &notFound) {
			return nil
		}
		if path == "" {
			path = v.ConfigFileUsed()
		}
		if os.IsNotExist(errors.Unwrap(err)) || errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("config file %s does not exist: fix the --config path or LABTUI_CONFIG", path)
		}
		return fmt.Errorf("config file %s cannot be read (%v): fix it or move it aside", path, err)
	}
	return nil
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

// prices returns the default price table with the config's "prices" entries laid over
// it: prices: {model: [input_usd_per_1k, output_usd_per_1k]}.
func (a *app) prices() (gateway.PriceTable, error) {
	p := gateway.DefaultPrices()
	raw := a.v.GetStringMap("prices")
	for model, val := range raw {
		pair, ok := val.([]any)
		if !ok || len(pair) != 2 {
			return nil, fmt.Errorf("config prices.%s must be [input_usd_per_1k, output_usd_per_1k]", model)
		}
		var f [2]float64
		for i, x := range pair {
			switch n := x.(type) {
			case float64:
				f[i] = n
			case int:
				f[i] = float64(n)
			default:
				return nil, fmt.Errorf("config prices.%s must hold two numbers", model)
			}
		}
		p[model] = gateway.Price{InputPer1K: f[0], OutputPer1K: f[1]}
	}
	return p, p.Validate()
}
