package extract

import (
	"strings"
	"testing"
)

// TestFixSection: the list item under a label naming a fix is how that
// problem was fixed, a lesson quoting the label and the item; a label that
// lists problems to fix, or heads an account of the work, is not.
func TestFixSection(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text, want string
		title            string // how the lesson's title begins
	}{
		{"bold numbered label", "Both applied.\n\n**1. Cart total fix** (`cart.go:42`):\n- Replaced `items[0]` with a length check in `Total()`\n- This matches the checkout page\n",
			"Cart total fix (cart.go:42): Replaced items[0] with a length check in Total()", "Cart total fix: Replaced"},
		{"heading with a status", "## Summary\n\n### 2. **Invoice Rounding Fix (✅ Completed)**\n- Fixed rounding to use `math.Round` on cents\n- Now shows: 10.05, 10.10\n",
			"Invoice Rounding Fix (✅ Completed): Fixed rounding to use math.Round on cents", "Invoice Rounding Fix: Fixed"},
		{"problems to fix", "Two issues to fix:\n- `parseDate` drops the zone\n- `retry` never stops\n", "", ""},
		{"an account", "How It Was Fixed:\n- Retrieved the config via the `admin` API\n", "", ""},
		{"no value in the item", "**Cart fix**:\n- Made it better\n", "", ""},
		{"a sub-label under it", "🛠️ **Quick Fix:**\n**1. Change the model in `oai.py`:**\n```\nmodel = \"x\"\n```\n", "", ""},
	}
	for _, c := range cases {
		msgs := []Message{{Index: 0, Role: "user", Text: "The cart total is wrong, please fix it."}, {Index: 1, Role: "assistant", Text: c.text}}
		got := Offline(msgs)
		checkEntries(t, c.name, msgs, got)
		var lessons []string
		for _, e := range got {
			if e.Type == Lesson {
				lessons = append(lessons, e.Body)
				if !strings.HasPrefix(e.Title, c.title) {
					t.Errorf("%s: title %q, want it to name the fix: %q…", c.name, e.Title, c.title)
				}
			}
		}
		switch {
		case c.want != "" && (len(lessons) != 1 || lessons[0] != c.want):
			t.Errorf("%s: lessons %q, want [%q]", c.name, lessons, c.want)
		case c.want == "" && len(lessons) > 0:
			t.Errorf("%s: lessons %q, want none", c.name, lessons)
		}
		for _, e := range got {
			if e.Type == Lesson && c.want != "" && (len(e.Evidence) != 2 || !strings.Contains(strings.ToLower(e.Evidence[0].Quote), "fix")) {
				t.Errorf("%s: evidence %+v, want the label then the item", c.name, e.Evidence)
			}
		}
	}
}
