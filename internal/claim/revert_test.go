package claim

import "testing"

// A report that a change was undone finds the statement that made the
// change by their shared words; an undoing planned, offered, asked, denied,
// conditional, a third party's, a log's, or with nothing named finds none,
// and neither does a statement sharing too few of its words. The texts are
// made up.
func TestReverts(t *testing.T) {
	const older = "Done. Pointed the signup buttons at the checkout page. Also fixed a typo."
	const found = "Pointed the signup buttons at the checkout page."
	for _, tt := range []struct {
		name, older, newer string
		want               string // the older statement found, or "" for none
	}{
		{"reverted", older, "I've reverted the signup buttons back to scrolling.", found},
		{"passive", older, "The signup buttons were reverted.", found},
		{"adverb first", older, "Also reverted the signup buttons.", found},
		{"bare list line",
			"Moved thumbnail rendering into the worker pool.",
			"**Fix**:\n- Reverted thumbnail rendering to the request thread", "Moved thumbnail rendering into the worker pool."},
		{"rolled back",
			"Added the `tenant_id` column to the invoices table.",
			"I rolled the invoices migration back.", "Added the `tenant_id` column to the invoices table."},
		{"rolled back first",
			"Added the `tenant_id` column to the invoices table.",
			"Rolled back the invoices migration.", "Added the `tenant_id` column to the invoices table."},
		{"changed back",
			"Set the poll interval to 5 seconds.",
			"Changed the poll interval back to 30 seconds, as before.", "Set the poll interval to 5 seconds."},
		{"most words win",
			"Renamed the export menu. Switched the export format to CSV for the ledger.",
			"The ledger export format change was reverted.", "Switched the export format to CSV for the ledger."},
		{"first on a tie",
			"**Linked the plan cards to checkout**:\n- Updated the hero cards\n- Updated the pricing cards",
			"I've reverted the cards.", "Linked the plan cards to checkout**:"},
		{"elided text cuts a statement",
			"Fixed the signup typo … Pointed the buttons at the checkout page.",
			"I reverted the signup checkout buttons.", "Pointed the buttons at the checkout page."},
		{"plan passed over",
			"Let me update the signup buttons. Pointed the signup buttons at checkout.",
			"Reverted the signup buttons.", "Pointed the signup buttons at checkout."},
		{"korean",
			"결제 버튼을 checkout 페이지로 연결했습니다.",
			"결제 버튼을 되돌렸습니다.", "결제 버튼을 checkout 페이지로 연결했습니다."},

		// Nothing was undone, or not by the session.
		{"let me", older, "Let me revert the signup buttons.", ""},
		{"to revert", older, "Run git checkout main to revert the signup buttons.", ""},
		{"cannot be undone", older, "Deleting the signup buttons cannot be reverted.", ""},
		{"asked", older, "Should the signup buttons be reverted?", ""},
		{"hedged", older, "If the signup buttons were reverted, the test passes.", ""},
		{"condition", older, "Once reverted, the signup buttons scroll.", ""},
		{"not reverted", older, "I haven't reverted the signup buttons.", ""},
		{"curly not", older, "No, I haven’t reverted the signup buttons.", ""},
		{"nothing", older, "None of the signup buttons were reverted.", ""},
		{"must", older, "The signup buttons must be reverted before release.", ""},
		{"check", older, "Make sure the signup buttons were reverted.", ""},
		{"verify", older, "Verify that the signup buttons were rolled back.", ""},
		{"base form", older, "Revert the signup buttons.", ""},
		{"undone adjective", older, "The signup buttons task is still undone.", ""},
		{"back alone", older, "The signup buttons are back on the page.", ""},
		{"went back", older, "I went back to the signup buttons and found the bug.", ""},
		{"switched back to a branch", older, "Switched back to main and checked the signup buttons.", ""},
		{"changed back in", older, "The signup buttons changed back in version 2.", ""},
		{"wanted", older, "You want buttons reverted.", ""},
		{"back and on", older, "I switched back and checked the signup buttons.", ""},
		{"third party", "Started the signup transaction in the worker.", "The insert failed, so Postgres rolled the signup transaction back.", ""},
		{"in a log", older, "The git log:\n```\nReverted the signup buttons\n```", ""},
		{"korean asked", "결제 버튼을 연결했습니다.", "결제 버튼을 되돌렸는지 확인해 주세요.", ""},
		{"nothing named", older, "Reverted.", ""},
		{"only the state gone back to", older, "I reverted the menu back to the checkout page.", ""},
		{"only the version rolled back to", older, "Rolled back to the checkout page version.", ""},
		{"too few shared", older, "I reverted the signup form validation rules.", ""},
		{"older asks", "Should the signup buttons point at checkout?", "I reverted the signup buttons.", ""},
		{"older undoes too", "I reverted the signup buttons once already.", "I reverted the signup buttons.", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			for _, r := range Reversions(tt.newer) {
				if s, e, _, ok := Reverts(tt.older, r); ok {
					got = tt.older[s:e]
					break
				}
			}
			if got != tt.want {
				t.Errorf("older statement = %q, want %q (reversions %+v)", got, tt.want, Reversions(tt.newer))
			}
		})
	}
}

// Each undoing in a text is read alone, its words its own clause's.
func TestReversionsWords(t *testing.T) {
	rs := Reversions("I reverted the header logo but not the footer. Later I rolled back the cache warmup.")
	if len(rs) != 2 {
		t.Fatalf("want two reversions, got %+v", rs)
	}
	if got := rs[0].Words; len(got) != 2 || got[0] != "header" || got[1] != "logo" {
		t.Errorf("first reversion's words = %v, want header and logo only", got)
	}
	if got := rs[1].Words; len(got) != 2 || got[0] != "cache" || got[1] != "warmup" {
		t.Errorf("second reversion's words = %v, want cache and warmup only (not the common \"later\")", got)
	}
	text := "I reverted the header logo but not the footer. Later I rolled back the cache warmup."
	if got := text[rs[1].Start:rs[1].End]; got != "Later I rolled back the cache warmup." {
		t.Errorf("second reversion's span = %q", got)
	}
}
