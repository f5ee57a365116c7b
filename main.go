// Command labtui is the terminal companion for Lab 4 of the Flink course, "Event time and
// processing time". Run it with no arguments for the lab; `labtui --help` lists the rest.
package main

import (
	"os"

	"github.com/labtui/labtui/internal/cli"
)

func main() {
	os.Exit(cli.Execute())
}
