package broker

import (
	"errors"
	"fmt"
)

// errPortInUse is matched, through errors.Is, by every error Start returns because the
// port it was asked to listen on is taken by another process.
var errPortInUse = errors.New("port already in use")

// PortInUseError is the error Start returns when its port is taken. Its message names the
// port and the fix, so a command line can print it as it is.
type PortInUseError struct {
	// Port is the TCP port that could not be bound.
	Port int
	// Err is the listener's own error.
	Err error
}

// Error says which port is busy and what the learner can do about it.
func (e *PortInUseError) Error() string {
	return fmt.Sprintf("port %d is already in use: stop what is using it or start labtui with --broker-addr 127.0.0.1:<port>", e.Port)
}

// Unwrap returns the listener's own error.
func (e *PortInUseError) Unwrap() error { return e.Err }

// Is reports whether target is ErrPortInUse.
func (e *PortInUseError) Is(target error) bool { return target == errPortInUse }
