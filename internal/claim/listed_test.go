package claim

import "testing"

// A change given as a line ending in "from:" with its two sides as labelled
// list items supersedes the older statement of the replaced value. The texts
// are made up.
func TestListedChange(t *testing.T) {
	older := "The CI image is `ci-base:3`."
	for _, newer := range []string{
		"### Plan\nMove the CI image from:\n- Current: `ci-base:3`\n- To: `ci-slim:5`\n",
		"Change the CI image from:\n\n* Old: `ci-base:3`\n* New: `ci-slim:5`",
		"Change the CI image from:\n- Before: `ci-base:3`\n- After: `ci-slim:5`",
	} {
		rel, role, ov, nv := Compare(Parse(older), Parse(newer))
		if rel != Supersedes || ov != "ci-base:3" || nv != "ci-slim:5" {
			t.Errorf("Compare(…, %q) = %v %s: %q -> %q, want supersedes ci-base:3 -> ci-slim:5", newer, rel, role, ov, nv)
		}
	}
}

// Labelled items under a line that says no change, or items of a list that
// is no change, replace nothing.
func TestListedChangeNeedsItsShape(t *testing.T) {
	for _, text := range []string{
		"Copy the files from:\n- Current: `./assets`\n- To: `./public`",     // no change wording
		"Change the CI image from:\n- Note: `ci-base:3`\n- To: `ci-slim:5`", // the first item is no side
		"Change the CI image from:\n- Current: `ci-base:3`",                 // one side only
		"Change the CI image from:\n- Current: `ci-base:3`\n- To: `ci-base:3`",
	} {
		for _, c := range Parse(text) {
			if c.Replaces != "" {
				t.Errorf("Parse(%q) has %+v, want nothing replaced", text, c)
			}
		}
	}
}
