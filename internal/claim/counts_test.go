package claim

import (
	"slices"
	"testing"
)

func TestCountChange(t *testing.T) {
	for _, tc := range []struct {
		text, role, value, replaces string
	}{
		{"I trimmed the rollout from 9 canaries down to 4 to save time.", "number of canaries", "4", "9"},
		{"### 3 Shared Queues (down from 7)", "number of queues", "3", "7"},
		{"- Merged 8 lambdas into 2 bigger lambdas", "number of lambdas", "2", "8"},
		{"The pool went from 6 to 10 sockets last week.", "number of sockets", "10", "6"},
		{"Widgets: 14 tiles → 9", "number of tiles", "9", "14"},
		{"We now run 3 shards instead of 5.", "", "", ""}, // a setting count: its own role
	} {
		var got *Claim
		for _, c := range Parse(tc.text) {
			if CountRole(c.Role) {
				got = &c
			}
		}
		if tc.role == "" {
			if got != nil {
				t.Errorf("%q: got %+v, want no count claim", tc.text, *got)
			}
			continue
		}
		if got == nil || got.Role != tc.role || got.Value != tc.value || got.Replaces != tc.replaces || got.Weak {
			t.Errorf("%q: got %+v, want %s = %s replacing %s", tc.text, got, tc.role, tc.value, tc.replaces)
		}
	}
}

// TestCountAloneNoClaim: a count said without a change is no claim; two
// counts of different things are no change of either.
func TestCountAloneNoClaim(t *testing.T) {
	for _, text := range []string{
		"The plan has 9 canaries and 4 regions.",
		"3 files changed, 233 insertions",
		"Sent 12 invites to 5 teams.",
		"We moved 4 tickets to 2 columns.",
	} {
		if i := slices.IndexFunc(Parse(text), func(c Claim) bool { return CountRole(c.Role) }); i >= 0 {
			t.Errorf("%q: got a count claim %+v", text, Parse(text)[i])
		}
	}
}

func TestCounts(t *testing.T) {
	text := "Setup done. Created 9 Staged Canaries: a, b, c."
	s, e, ok := Counts(text, "number of canaries", "9")
	if !ok || text[s:e] != "Created 9 Staged Canaries: a, b, c." {
		t.Errorf("Counts = %d:%d %v", s, e, ok)
	}
	if _, _, ok := Counts("a 9-canary rollout", "number of canaries", "9"); !ok {
		t.Error("a joined count not read")
	}
	for _, text := range []string{"9 regions and canaries", "the 9th canary", "19 canaries"} {
		if _, _, ok := Counts(text, "number of canaries", "9"); ok {
			t.Errorf("%q counted as 9 canaries", text)
		}
	}
}

// TestCountCompare: a change of count replaces the count it names, and two
// changes of a count conflict only when the newer names the older.
func TestCountCompare(t *testing.T) {
	older := Parse("Cut the rollout from 9 canaries to 4.")
	newer := Parse("Back to 6 canaries, up from 4.")
	if rel, role, ov, nv := Compare(older, newer); rel != Supersedes || role != "number of canaries" || ov != "4" || nv != "6" {
		t.Errorf("Compare = %v %q %q %q", rel, role, ov, nv)
	}
	other := Parse("Raised it from 2 canaries to 3.")
	if rel, _, _, _ := Compare(older, other); rel == Supersedes || rel == Contradicts {
		t.Errorf("unrelated change of count: %v", rel)
	}
}
