package claim

import "testing"

// A change given as a line ending in "from:" with its two sides as labelled
// list items supersedes the older statement of the replaced value. The texts
// are made up.
func TestListedChange(t *testing.T) {
	older := "Keep the worker's **Launch Command:** `bake serve` (unchanged)."
	for _, newer := range []string{
		"### Fix\nSwitch the worker's launch command from:\n- Current: `bake serve`\n- To: `cd worker && ./boot.sh`\n",
		"Change the launch command from:\n\n* Old: `bake serve`\n* New: `cd worker && ./boot.sh`",
	} {
		rel, role, ov, nv := Compare(Parse(older), Parse(newer))
		if rel != Supersedes || ov != "bake serve" || nv != "cd worker && ./boot.sh" {
			t.Errorf("Compare(…, %q) = %v %s: %q -> %q, want supersedes bake serve -> cd worker && ./boot.sh", newer, rel, role, ov, nv)
		}
	}
}

// Labelled items under a line that says no change, or items of a list that
// is no change, replace nothing.
func TestListedChangeNeedsItsShape(t *testing.T) {
	for _, text := range []string{
		"Copy the files from:\n- Current: `./assets`\n- To: `./public`",            // no change wording
		"Change the launch command from:\n- Note: `bake serve`\n- To: `./boot.sh`", // the first item is no side
		"Change the launch command from:\n- Current: `bake serve`",                 // one side only
		"Change the launch command from:\n- Current: `bake serve`\n- To: `bake serve`",
	} {
		for _, c := range Parse(text) {
			if c.Replaces != "" {
				t.Errorf("Parse(%q) has %+v, want nothing replaced", text, c)
			}
		}
	}
}
