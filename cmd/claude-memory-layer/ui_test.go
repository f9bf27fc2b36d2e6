package main

import (
	"bytes"
	"errors"
	"testing"
)

// ui takes only --port and --no-open; anything else is a usage error.
func TestParseUI(t *testing.T) {
	for _, tt := range []struct {
		args   []string
		port   int
		noOpen bool
		usage  bool
	}{
		{nil, 0, false, false},
		{[]string{"--port", "8123", "--no-open"}, 8123, true, false},
		{[]string{"--port", "-1"}, 0, false, true},
		{[]string{"--port", "70000"}, 0, false, true},
		{[]string{"--port", "x"}, 0, false, true},
		{[]string{"extra"}, 0, false, true},
		{[]string{"--host", "0.0.0.0"}, 0, false, true},
	} {
		o, err := parseUI(&env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}, tt.args)
		var u usageError
		if tt.usage {
			if !errors.As(err, &u) {
				t.Errorf("ui %q: %v, want a usage error", tt.args, err)
			}
			continue
		}
		if err != nil || o.port != tt.port || o.noOpen != tt.noOpen {
			t.Errorf("ui %q = %+v, %v", tt.args, o, err)
		}
	}
}
