package claim

import (
	"strings"
	"testing"
)

func TestCodeChanges(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, text string
		want       [][2]string // old, new
	}{
		{"an arrow", "Key changes: - `kiln-av` → `kiln-audio` (`createPlayer`)", [][2]string{{"kiln-av", "kiln-audio"}}},
		{"an ascii arrow", "renamed `glaze_old` -> `glaze_new` everywhere", [][2]string{{"glaze_old", "glaze_new"}}},
		{"not", "The endpoint should be `/api/v2/kilns` (not `/v1/kilns`).", [][2]string{{"/v1/kilns", "/api/v2/kilns"}}},
		{"instead of", "Fire with `cone6` instead of `cone4` from now on.", [][2]string{{"cone4", "cone6"}}},
		{"replace with", "Replace `KilnStore` with `OvenStore` in the loader.", [][2]string{{"KilnStore", "OvenStore"}}},
		{"from to with change wording", "Change the text colour from `#1e293b` to `#0f172a`.", [][2]string{{"#1e293b", "#0f172a"}}},
		{"two calls", "`kiln.fireAsync()` → `kiln.fire()`", [][2]string{{"kiln.fireAsync()", "kiln.fire()"}}},
		{"from to without change wording", "Copy the glaze from `/tmp/glaze.toml` to `/etc/glaze.toml`.", nil},
		{"a chain of steps", "`parse` → `glaze` → `fire`", nil},
		{"a name mapped to a URL", "`fireKiln(name)` → `POST https://kiln.example/v1/fire`", nil},
		{"a name and a path", "`kiln` → `src/kiln.go`", nil},
		{"a colour and a name", "`#1e293b` instead of `slate`", nil},
		{"the same value", "`cone6` instead of `cone6`", nil},
		{"spans on two lines", "`kiln-av`\n→ `kiln-audio`", nil},
		{"one span", "use `kiln-audio` → now", nil},
		{"a long value", "`" + strings.Repeat("k", 90) + "` → `oven`", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got [][2]string
			for _, c := range CodeChanges(tt.text) {
				got = append(got, [2]string{c.Old, c.New})
				if !strings.Contains(tt.text[c.Start:c.End], "`"+c.Old+"`") || !strings.Contains(tt.text[c.Start:c.End], "`"+c.New+"`") {
					t.Errorf("span %d..%d %q holds not both values", c.Start, c.End, tt.text[c.Start:c.End])
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("CodeChanges(%q) = %q, want %q", tt.text, got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("CodeChanges(%q) = %q, want %q", tt.text, got, tt.want)
				}
			}
		})
	}
}

// FuzzCodeChanges: reading a text for the changes it states never panics,
// and each change is two different values of at most maxCodeValue bytes,
// both inside its span.
func FuzzCodeChanges(f *testing.F) {
	for _, s := range []string{
		"- `kiln-av` → `kiln-audio` (`a`, `b`)",
		"should be `/api/v2/x` (not `/v1/x`)",
		"Change the text from `#1e293b` to `#0f172a`",
		"replace `a` with `b`; `c` instead of `d`",
		"`a` → `b` → `c`",
		"``→``",
		"`\xff` → `\xfe`",
		"from `a` to `b`",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range CodeChanges(text) {
			if c.Start < 0 || c.End > len(text) || c.Start >= c.End {
				t.Fatalf("CodeChanges(%q): span %d..%d", text, c.Start, c.End)
			}
			span := text[c.Start:c.End]
			if c.Old == c.New || c.Old == "" || c.New == "" || len(c.Old) > maxCodeValue+2 || len(c.New) > maxCodeValue+2 ||
				!strings.Contains(span, c.Old) || !strings.Contains(span, c.New) {
				t.Errorf("CodeChanges(%q): %+v", text, c)
			}
		}
	})
}
