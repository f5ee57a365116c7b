//go:build race

package tui

// raceEnabled says the race detector slows everything down: timing tests skip.
const raceEnabled = true
