package pause

import (
	"os"
	"testing"
)

func TestCommand(t *testing.T) {
	for _, tc := range []struct {
		prompt  string
		off, ok bool
	}{
		{"/memory-layer:memory-off", true, true},
		{"/memory-off", true, true},
		{"  /memory-layer:memory-on  ", false, true},
		{"/memory-on please", false, true},
		{"/memory-offline", false, false},
		{"/memory-search off", false, false},
		{"turn /memory-off", false, false},
		{"memory-off", false, false},
	} {
		off, ok := Command(tc.prompt)
		if off != tc.off || ok != tc.ok {
			t.Errorf("Command(%q) = %v, %v; want %v, %v", tc.prompt, off, ok, tc.off, tc.ok)
		}
	}
}

func TestSetPaused(t *testing.T) {
	dir := t.TempDir()
	for _, s := range []string{"7f0c-uuid", "../../etc/passwd", ""} {
		if Paused(dir, s) {
			t.Fatalf("%q paused before Set", s)
		}
		if err := Set(dir, s, true); err != nil {
			t.Fatal(err)
		}
		if !Paused(dir, s) {
			t.Errorf("%q not paused", s)
		}
		if err := Set(dir, s, true); err != nil { // again: no error
			t.Fatal(err)
		}
		if err := Set(dir, s, false); err != nil {
			t.Fatal(err)
		}
		if Paused(dir, s) {
			t.Errorf("%q still paused", s)
		}
		if err := Set(dir, s, false); err != nil { // resumed twice: no error
			t.Fatal(err)
		}
	}
	if Paused(dir, "a") != false || Set(dir, "a", true) != nil || Paused(dir, "b") {
		t.Error("pausing one session paused another")
	}
	fi, err := os.Stat(path(dir, "a"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("paused file: %v %v", fi, err)
	}
}
