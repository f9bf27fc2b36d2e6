package claim

import "testing"

// Statements whose words once became values that a warning set against
// another value (issue 26): plain words that do not stand for themselves, a
// word of the phrase after "replace", placeholders, a capitalised list
// item, and a change read the wrong way round. The names are made up.

func TestPlainWordsSetNothing(t *testing.T) {
	for _, tc := range []struct{ name, older, newer, word string }{
		{"state after now", "Let me work out what your Quorva.dev staging box needs to mirror production.",
			"The Pellam service is now ready for release to Quorva with:", "ready"},
		{"adjective before its noun", "The invoicing API is built on Trellis Core.", "InvoiceHandler: JSON responses with proper error envelopes", "proper"},
		{"adverb after now", "The archive list shows 12.", "The archive sweeper now actively frees disk space.", "actively"},
		{"list item opening with a verb", "Coupons live in the Pellam table.", "DELETE `/api/pellam/coupons/{coupon_id}` - Delete a coupon", "delete"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, n := Parse(tc.older), Parse(tc.newer)
			for _, c := range n {
				if c.Value == tc.word && !c.Weak {
					t.Errorf("Parse(%q) sets %q: %+v", tc.newer, tc.word, c)
				}
			}
			if rel, role, ov, nv := Compare(o, n); (rel == Supersedes || rel == Contradicts) && (nv == tc.word || ov == tc.word) {
				t.Errorf("Compare = %v %s: %q -> %q", rel, role, ov, nv)
			}
		})
	}
}

func TestReplacedPhraseWordIsNoValue(t *testing.T) {
	for _, c := range Parse("Open the 'Merge Rows' node and replace the entire script with this:") {
		if c.Replaces == "entire" || c.Value == "entire" {
			t.Errorf("claim %+v takes a word of the phrase replaced as a value", c)
		}
	}
}

func TestPlaceholderIsNoValue(t *testing.T) {
	for _, text := range []string{"Agent: ${agentRole}", "Token: `{{ $env.PELLAM_TOKEN }}`"} {
		for _, c := range Parse(text) {
			if c.Value == "agentrole" || c.Value == "{{ $env.pellam_token }}" {
				t.Errorf("Parse(%q) takes the placeholder as a value: %+v", text, c)
			}
		}
	}
}

// A change stated once ("from CouchDB to MySQL") is not turned back by a
// later statement that names CouchDB with change wording about a plan.
func TestChangeNotReadBackwards(t *testing.T) {
	older := Parse("I'll help you plan a move from CouchDB to MySQL + Sequelize.")
	newer := Parse("I've reviewed your current CouchDB setup and drafted a complete migration plan to Sequelize.")
	if rel, role, ov, nv := Compare(older, newer); rel == Supersedes && ov == "mysql" && nv == "couchdb" {
		t.Errorf("Compare = %v %s: %q -> %q, want no reversal", rel, role, ov, nv)
	}
}

// Words that are no values by their shape: a heading joined to a field by
// an excerpt's ellipsis, a quantifier before a plural noun, a verb form,
// attribute values of pasted markup. Made-up names.
func TestNoValueAcrossShapes(t *testing.T) {
	for _, tc := range []struct{ name, text, word string }{
		{"heading across an ellipsis", "## 🧮 Crate Ledger … - **Formatter:** Plenk 3.4", "ledger"},
		{"quantifier before a plural", "Sure, Kelvora keeps the archive with various buckets in one account.", "various"},
		{"quantifier before an -ies plural", "Sure, Kelvora sends the digest with several retries per batch.", "several"},
		{"verb form", "Once merged, the Kelvora keys are self-rotating.", "self-rotating"},
		{"verb form opening a cell", "| Shared host | 2 zones | Throttled uploads at peak |", "throttled"},
		{"markup attribute", "Banner … <span data-tone='muted md:px-3 gap-2'> … </span>", "md:px-3"},
		{"closing tag", "Banner … <span data-tone='muted md:px-3 gap-2'> … </span>", "/span"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range Parse(tc.text) {
				if c.Value == tc.word && !c.Weak {
					t.Errorf("Parse(%q) sets %q: %+v", tc.text, tc.word, c)
				}
			}
		})
	}
}

// A name and its site are one value.
func TestSiteAndItsNameAgree(t *testing.T) {
	older := Parse("The wiki deployment is on Zentrox.dev.")
	newer := Parse("The wiki deployment now goes to Zentrox.")
	if rel, role, ov, nv := Compare(older, newer); rel == Supersedes || rel == Contradicts {
		t.Errorf("Compare = %v %s: %q -> %q, want one site", rel, role, ov, nv)
	}
	if !sameName("zentrox.dev", "zentrox") || sameName("kelvo.py", "kelvo") || sameName("a.b.dev", "a.b") {
		t.Error("sameName")
	}
}

// A change that names its new value has no other successor: a capitalised
// word past an excerpt's ellipsis is none.
func TestNamedSuccessorOnly(t *testing.T) {
	text := "We moved the formatter from quillet to plenk … Orchard Minutes … the formatter stays plenk."
	for _, c := range Parse(text) {
		if c.Value == "orchard" || c.Value == "minutes" || c.Value == "orchard minutes" {
			t.Errorf("Parse(%q) sets %q: %+v", text, c.Value, c)
		}
	}
}

// A name that happens to end as a verb form ("Brassling", "Ovisted") is
// still a name where it is written as one: capitalised mid-sentence, in a
// code span, or set by a change. Only a verb form written as a word (or
// opening a cell or heading) states a condition. Made-up names.
func TestNamedVerbFormStillSupersedes(t *testing.T) {
	for _, tc := range []struct{ name, older, newer, ov, nv string }{
		{"-ing name in a change", "The desktop shell uses Brassling.", "We moved the desktop shell from Brassling to Quilvane.", "brassling", "quilvane"},
		{"-ing name as the old value", "Our CI runner is Kelvoring.", "We moved the CI runner from Kelvoring to Quorvel.", "kelvoring", "quorvel"},
		{"-ed name as the new value", "The queue broker is Tarnfield.", "We switched the queue broker from Tarnfield to Ovisted.", "tarnfield", "ovisted"},
		{"-ing name in a code span", "The font renderer is `glimmering`.", "We switched the font renderer from `glimmering` to `plimsel`.", "glimmering", "plimsel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rel, role, ov, nv := Compare(Parse(tc.older), Parse(tc.newer))
			if rel != Supersedes || ov != tc.ov || nv != tc.nv {
				t.Errorf("Compare = %v %s: %q -> %q, want supersedes %q -> %q\nolder %+v\nnewer %+v",
					rel, role, ov, nv, tc.ov, tc.nv, Parse(tc.older), Parse(tc.newer))
			}
		})
	}
}
