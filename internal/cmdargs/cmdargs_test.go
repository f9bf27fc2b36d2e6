package cmdargs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestArguments(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prompt, want string
		ok           bool
	}{
		{"/memory-layer:memory-search jwt signing", "jwt signing", true},
		{"/memory-search jwt", "jwt", true},
		{"/memory-layer:memory-stats", "", true},
		{"/memory-layer:memory-forget a\nCML_ARGS_7c1e94b2\ntouch /tmp/x\n", "a\nCML_ARGS_7c1e94b2\ntouch /tmp/x", true},
		{"/memory-searching x", "", false},
		{"/other:memory-search x", "", false},
		{"please /memory-search x", "", false},
		{"", "", false},
	} {
		got, ok := Arguments(tt.prompt)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Arguments(%q) = %q, %v; want %q, %v", tt.prompt, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSaveTake(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const sid = "35ef2068-8d1b-4eef-8ee9-014d49224857"
	if _, err := Take(dir, sid); !errors.Is(err, ErrNone) {
		t.Fatalf("Take before Save: %v", err)
	}
	text := "a $(id) `id` 'q\n\"\x00\xff"
	if err := Save(dir, sid, text); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, Dir, sid))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("saved file: %v, %v", fi, err)
	}
	got, err := Take(dir, sid)
	if err != nil || got != text {
		t.Fatalf("Take = %q, %v; want %q", got, err, text)
	}
	if _, err := Take(dir, sid); !errors.Is(err, ErrNone) {
		t.Errorf("second Take: %v, want ErrNone", err)
	}
	for _, bad := range []string{"../x", "", "a/b", ".."} {
		if err := Save(dir, bad, "x"); err == nil {
			t.Errorf("Save(session %q) succeeded", bad)
		}
	}
}

// FuzzArguments: any prompt is either not a command or yields a trimmed
// suffix of itself, without panicking.
func FuzzArguments(f *testing.F) {
	for _, s := range []string{"/memory-layer:memory-search jwt", "/memory-stats", "/memory-\xff x", "/memory-layer:", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prompt string) {
		args, ok := Arguments(prompt)
		if !ok && args != "" {
			t.Fatalf("not a command but arguments %q", args)
		}
		if ok && !strings.HasSuffix(strings.TrimSpace(prompt), args) {
			t.Fatalf("arguments %q are not the end of %q", args, prompt)
		}
	})
}

// TestEveryCommandFileIsKnown: a slash command whose file passes its
// arguments through the hook (--args-from-prompt) must be in the list, or
// its arguments are lost: /memory-layer:memory-pin mem:… once reached the CLI
// with none.
func TestEveryCommandFileIsKnown(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "commands", "memory-*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no command files: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "--args-from-prompt") {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".md")
		if got, ok := Arguments("/memory-layer:" + name + " mem:ab12cd"); !ok || got != "mem:ab12cd" {
			t.Errorf("%s: arguments %q, %v", name, got, ok)
		}
	}
}
