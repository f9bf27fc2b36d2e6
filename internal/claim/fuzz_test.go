package claim

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{"We switched from jest to vitest.", "Heroku 대신 이제 Fly.io로 배포합니다.", "port 5432; localhost:3000",
		"http://x.io/a", "10초로", "v1.2.3 node18 ./a/ .env", "a/b/c.go;;..!!", "\xff\xfe", "Postgres 15 to 16", "30s 2 minutes 06:15",
		"The root cause turned out to be", "The real problem turned out to be", "The real problem is", "The actual issue was that",
		"Root cause:", "**Root cause**: the cron job runs twice per hour.", "The underlying cause turned out to be clock skew.",
		"Unbounded retries are the real culprit? No: the retry loop is the real bottleneck.",
		"There's no header mismatch between the gateway and billing.", "The cache isn't the problem here", "There is no",
		"Bottleneck: the report query. The report query was not the bottleneck",
		"- **Before**: `a`\n- **After**: `b`", "1. Было: 30\n\n2) Стало: 45", "Changed `#94a3b8` to `#1e293b`, 90.0% (up from 71.4%)",
		"Key changes:\n- `a-b` → `c-d`\n- X -> Y", "→", "done.\n→", "# Migration Plan\n- Switch => Kelbo",
		"Added `kelbo_service` as a direct dependency.", "Now remove `kelbo_service`; it is no longer needed.",
		"Pointed the buttons at checkout. I've reverted the buttons back to scrolling.", "결제 버튼을 되돌렸습니다.", "rolled it back",
		"```\nERROR: transaction rolled back\n```\nI haven’t reverted the buttons.",
		"## Root Causes of the Stall:\n\n1. **Duplicate `load()` calls**: twice", "## Root cause:\n- **Stale key**", "The problems are:\n1.", "Root causes:\n1.",
		"- **AI Framework**: Claude Agent SDK", "Mit welcher Zorblat-Version lässt sich das bauen?", "Welche -Version? Wo?", "**Backend:** FastAPI", "****: x", "__Queue__:", "30s 2-3s 250ms 502s",
		// Lower-casing shortens the Kelvin and Ohm signs: positions in the
		// line are not positions in its lower-case copy.
		"\u212a\u212a\u212a\u212a Reduced the close button from 56px to 28px", "\u2126\u2126 moved `a-b` → `a-c`; consider it.",
		"expo-audioはどのバージョンが入ったんだっけ？", "Flutter SDKのバージョンいくつ？", "ー々ヽ", "aー",
		"Uploading zorblat-0.4.2-py3-none-any.whl", "a-1.2.tar.gz -.whl x-.jar", "zorblat 버전이 몇이었지?", "몇이",
		"export PORT=3000\n+ KILN_REPO_OWNER=\n%APPDATA% ${HOME} process.env.API_KEY", "Bash: set -a && . ./.env (error)\nExit code 1", "Bash: (error)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs := Parse(s)
		for _, c := range cs {
			if c.Role == "" || c.Value == "" {
				t.Fatalf("empty role or value: %+v", c)
			}
			if c.Start < 0 || c.End > len(s) || c.Start > c.End {
				t.Fatalf("span %d:%d out of %d", c.Start, c.End, len(s))
			}
			if utf8.ValidString(s) && !utf8.ValidString(s[c.Start:c.End]) {
				t.Fatalf("span %d:%d splits a rune", c.Start, c.End)
			}
		}
		Compare(cs, cs)
		if Settled(s) && ChangeCue(s) {
			t.Fatalf("settled text with change wording: %q", s)
		}
		for _, c := range append(LabelledChanges(s), InlineChanges(s)...) {
			if c.Old == "" || c.New == "" || c.Old == c.New {
				t.Fatalf("labelled change %+v", c)
			}
			if utf8.ValidString(s) && (!utf8.ValidString(c.Old) || !utf8.ValidString(c.New)) {
				t.Fatalf("labelled change %q splits a rune", c)
			}
		}
		for _, d := range Diagnoses(s) {
			if d.Start < 0 || d.Start > d.End || d.End > len(s) {
				t.Fatalf("diagnosis span %d:%d out of %d", d.Start, d.End, len(s))
			}
			if len(d.Words) == 0 {
				t.Fatalf("diagnosis without words: %+v", d)
			}
			if utf8.ValidString(s) && !utf8.ValidString(d.Cause) {
				t.Fatalf("cause %q is not valid UTF-8", d.Cause)
			}
		}
		// "version:" alone is AnyVersion, a version of a thing described,
		// not named ("どのバージョン"); no other role is empty.
		for _, r := range Asks(s) {
			if r == "" {
				t.Fatalf("Asks(%q) gave the empty role", s)
			}
		}
		// A value found by its shape is a piece of the text.
		for role := range shapeRoles {
			vs, _ := ShapeValues(role, s)
			for _, v := range vs {
				if v == "" || !strings.Contains(s, v) {
					t.Fatalf("ShapeValues(%q) gave %q, no piece of %q", role, v, s)
				}
			}
		}
		if AsksCause(s) && !strings.ContainsAny(s, "?？") {
			t.Fatalf("a cause asked with no question mark: %q", s)
		}
		if AsksFailure(s) && !strings.ContainsAny(s, "?？") {
			t.Fatalf("a failure asked with no question mark: %q", s)
		}
		for _, d := range Denials(s) {
			if d.Start < 0 || d.Start > d.End || d.End > len(s) || len(d.Words) == 0 {
				t.Fatalf("denial %+v of %d bytes", d, len(s))
			}
			if start, end, ok := Denies(s, d); ok && (start < 0 || start > end || end > len(s)) {
				t.Fatalf("denied span %d:%d out of %d", start, end, len(s))
			}
		}
		for l := range strings.Lines(s) {
			if label, value := Field(l); (label == "") != (value == "") || label != "" && (!strings.Contains(strings.ToLower(l), strings.Fields(label)[0]) || !strings.Contains(l, value)) {
				t.Fatalf("field %q, %q of line %q", label, value, l)
			}
		}
		if d := Duration(s); d != "" && !strings.HasSuffix(d, "s") {
			t.Fatalf("duration %q of %q", d, s)
		}
		for _, r := range Reversions(s) {
			if r.Start < 0 || r.Start > r.End || r.End > len(s) || len(r.Words) == 0 {
				t.Fatalf("reversion %+v of %d bytes", r, len(s))
			}
			if start, end, shared, ok := Reverts(s, r); ok && (start < 0 || start > end || end > len(s) || start == r.Start || shared == 0) {
				t.Fatalf("reverted span %d:%d of %d sharing %d, the undoing at %d", start, end, len(s), shared, r.Start)
			}
		}
	})
}
