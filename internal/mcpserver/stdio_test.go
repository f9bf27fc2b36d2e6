package mcpserver

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestOverlongLineSkipped checks that a line past maxMessage is answered
// "message too large" and skipped whole, and the next message passes.
// Before, the chunks read after the limit were appended to the marker, so
// the line was answered as invalid JSON, and the marker's spare capacity
// was written into.
func TestOverlongLineSkipped(t *testing.T) {
	t.Parallel()
	const ping = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	long := `{"jsonrpc":"2.0","id":1,"method":"x","pad":"` + strings.Repeat("a", maxMessage+200<<10) + `"}`
	var out bytes.Buffer
	g := &guard{r: bufio.NewReaderSize(strings.NewReader(long+"\n"+ping+"\n"), 64<<10), w: &lineWriter{w: &out}}
	got, err := io.ReadAll(g)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != ping+"\n" {
		t.Errorf("passed on %.200q, want only the ping", got)
	}
	if !strings.Contains(out.String(), "message too large") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("answered %.300q, want one 'message too large'", out.String())
	}
	if string(tooLong) != "\x00too long" {
		t.Errorf("the marker became %q", tooLong)
	}
}
