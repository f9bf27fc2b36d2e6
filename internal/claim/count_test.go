package claim

import (
	"strings"
	"testing"
)

// TestCountChanged checks that a number of things no table lists, changed
// ("14 looms down to 8"), replaces the number stated before, and that
// two numbers of things said without a change are never set against each
// other.
func TestCountChanged(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, older, newer string
		want               Relation
		oldValue, newValue string
	}{
		{"down to", "The mill weaves the order on 14 looms.", "Brought the 14 looms down to 8 after the audit.", Supersedes, "14", "8"},
		{"into", "The mill runs 13 narrow looms.", "Folded 13 looms into 5 wider looms.", Supersedes, "13", "5"},
		{"capitalised heading", "**13 Looms Weaving:**", "Sold 13 looms down to 2 looms.", Supersedes, "13", "2"},
		{"no change said", "The mill runs 13 looms.", "The inventory lists 5 looms.", Unrelated, "", ""},
		{"another thing changed", "The mill runs 13 looms.", "It took 7 kettles down to 2.", Unrelated, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rel, _, ov, nv := Compare(Parse(tt.older), Parse(tt.newer))
			if rel != tt.want || ov != tt.oldValue || nv != tt.newValue {
				t.Fatalf("Compare(%q, %q) = %v %q -> %q, want %v %q -> %q", tt.older, tt.newer, rel, ov, nv, tt.want, tt.oldValue, tt.newValue)
			}
		})
	}
}

// TestCountNeverTakesAName checks that a name said beside a number of things
// replaced is no new number ("4 hinges were replaced by 3 Velloq clips").
func TestCountNeverTakesAName(t *testing.T) {
	t.Parallel()
	for _, c := range Parse("**Lighter lids**: the 4 brass hinges (60 grams) were replaced by 3 Velloq clips") {
		if counting(c.Role) && !isDigits(c.Value) {
			t.Fatalf("claim %+v: a number of things with a name for its value", c)
		}
	}
}

// TestAddressRejectedWithoutPort checks that "not 10.4.0.9" rejects the
// address stated earlier with its port, and that an address is no version.
func TestAddressRejectedWithoutPort(t *testing.T) {
	t.Parallel()
	older := Parse("- **Redis** listening on `10.4.0.9:6379`")
	newer := Parse("Redis is at 10.4.1.7 on the blue network, not 10.4.0.9.")
	rel, _, ov, nv := Compare(older, newer)
	if rel != Supersedes || ov != "10.4.0.9:6379" || nv != "10.4.1.7" {
		t.Fatalf("Compare = %v %q -> %q, want supersedes 10.4.0.9:6379 -> 10.4.1.7", rel, ov, nv)
	}
	for _, c := range Parse("Redis is at 10.4.1.7 on the blue net now.") {
		if strings.HasPrefix(c.Role, "version:") {
			t.Fatalf("an address read as a version: %+v", c)
		}
	}
}

// TestFromWithoutChangeIsASource checks that "from" in a statement that says
// no change and has no "to" after it says where from, not what is replaced.
func TestFromWithoutChangeIsASource(t *testing.T) {
	t.Parallel()
	for _, c := range Parse("The probe cannot see the queue at `10.9.0.3` from the `blue-net` subnet.") {
		if c.Replaces != "" || c.Negated {
			t.Fatalf("claim %+v: a source read as replaced", c)
		}
	}
}

// TestPlannedChangeIsNoChange checks that a change planned or proposed ("plan
// the move from X to Y", "a plan to shift to Y") replaces nothing yet, while
// a plan's contents ("the plan has 13 looms") are still read.
func TestPlannedChangeIsNoChange(t *testing.T) {
	t.Parallel()
	older := Parse("Uploads are stored in Kelbo.")
	for _, newer := range []string{
		"Let me plan the move of the uploads from Kelbo to Quillet.",
		"Here is a plan to shift the uploads from Kelbo to Quillet.",
		"I propose switching from Kelbo to Quillet for uploads.",
	} {
		if rel, _, ov, nv := Compare(older, Parse(newer)); rel == Supersedes || rel == Contradicts {
			t.Errorf("Compare(%q) = %v %q -> %q, want no conflict: a plan is not a change made", newer, rel, ov, nv)
		}
	}
	if rel, _, _, _ := Compare(older, Parse("We moved the uploads from Kelbo to Quillet.")); rel != Supersedes {
		t.Errorf("a change made: %v, want supersedes", rel)
	}
	// A plan named on the line under the heading that opens the text, and
	// a task list's open item, propose; a checked item is done.
	for _, newer := range []string{
		"## Summary\n\nI have created a migration plan to move the uploads to Quillet.\n\n**Benefits:**\n- Uploads stored in Quillet, no Kelbo lock-in",
		"**Week 1**\n- [ ] Move the uploads from Kelbo to Quillet\n- [ ] Update the docs",
	} {
		if rel, _, ov, nv := Compare(older, Parse(newer)); rel == Supersedes || rel == Contradicts {
			t.Errorf("Compare(%q) = %v %q -> %q, want no conflict: a plan is not a change made", newer, rel, ov, nv)
		}
	}
	if rel, _, _, _ := Compare(older, Parse("**Week 1**\n- [x] Moved the uploads from Kelbo to Quillet")); rel != Supersedes {
		t.Errorf("a checked task: %v, want supersedes", rel)
	}
	// A change made under a heading stays made: one naming no plan, one
	// whose own words name a plan (the line under it is read alone), and
	// a line that is no heading ("#123").
	for _, newer := range []string{
		"## Summary\n\nWe moved the uploads from Kelbo to Quillet.",
		"## Backup plan\nTo avoid lock-in, the uploads are stored in Quillet instead of Kelbo.",
		"#123\nplan to keep it simple. The uploads are stored in Quillet instead of Kelbo.",
	} {
		if rel, _, _, _ := Compare(older, Parse(newer)); rel != Supersedes {
			t.Errorf("Compare(%q) = %v, want supersedes: a change made", newer, rel)
		}
	}
}

// TestCountSentElsewhere checks that a number after "to" or "into" is the
// new count of the things only when it counts them: said with their noun,
// after "down to" or "up to", or ending the clause after "into". A version,
// a clock time or a count of where the things went is no new count.
func TestCountSentElsewhere(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		older, newer string
		want         Relation
	}{
		{"The greenhouse has 6 sensors.", "Flashed 6 sensors to 21 yesterday.", Unrelated},
		{"The archive holds 80 scrolls.", "Shifted 80 scrolls to 4 of the vaults.", Unrelated},
		{"We run 5 ferries on the lake.", "Moved 5 ferries to 7 pm.", Unrelated},
		{"The yard stores 30 lanterns.", "Packed 30 lanterns into 2 of the crates.", Unrelated},
		{"The yard stores 30 lanterns.", "Trimmed 30 lanterns to 12 lanterns.", Supersedes},
		{"The yard stores 30 lanterns.", "Packed 30 lanterns into 2, by colour.", Supersedes},
		{"The yard stores 30 lanterns.", "Brought 30 lanterns up to 45.", Supersedes},
		// A verb that cuts things into parts: the number after "into"
		// counts the parts.
		{"The kiln bench holds 90 tiles.", "Split the 90 tiles into 3, one per shelf.", Unrelated},
		{"The kiln bench holds 90 tiles.", "We divided 90 tiles into 5: one per glaze.", Unrelated},
	} {
		if rel, _, _, _ := Compare(Parse(tt.older), Parse(tt.newer)); rel != tt.want {
			t.Errorf("Compare(%q, %q) = %v, want %v", tt.older, tt.newer, rel, tt.want)
		}
	}
}

// TestAddressRejectedOfAnotherThing checks that an address rejected in a
// statement about one named thing does not replace the address another
// named thing was given, while a statement naming no thing, or the same
// one, still does.
func TestAddressRejectedOfAnotherThing(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		older, newer string
		want         Relation
	}{
		{"Redis answers on 10.7.3.2:6380.", "MongoDB is at 10.7.3.8, not 10.7.3.2.", Unrelated},
		{"Redis answers on 10.7.3.2:6380.", "Redis is at 10.7.3.8 on the west rack, not 10.7.3.2.", Supersedes},
		{"Redis answers on 10.7.3.2:6380.", "It is at 10.7.3.8 now, not 10.7.3.2.", Supersedes},
	} {
		if rel, _, _, _ := Compare(Parse(tt.older), Parse(tt.newer)); rel != tt.want {
			t.Errorf("Compare(%q, %q) = %v, want %v", tt.older, tt.newer, rel, tt.want)
		}
	}
}
