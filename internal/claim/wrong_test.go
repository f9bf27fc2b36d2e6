package claim

import (
	"strings"
	"testing"
)

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
		{"a quantifier names no role", "The ledger runs on Kelbo.", "The project has too many Kelbo compile-time checks.", "compile-time"},
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

// An integration is with a service of any kind: a product added as one is
// no database, and a later database choice does not replace it.
func TestIntegrationIsNoDatabase(t *testing.T) {
	o, n := Parse("Add Kelbo integration"), Parse("The ledger now runs on Postgres.")
	if c, ok := find(o, "database"); ok {
		t.Errorf("Parse reads %q as a database", c.Value)
	}
	if rel, role, ov, nv := Compare(o, n); rel == Supersedes || rel == Contradicts {
		t.Errorf("Compare = %v %s: %q -> %q", rel, role, ov, nv)
	}
}

// From X "to" a name no rule reads, the successor is that name or none: a
// capitalised name further on is something else.
func TestNoSuccessorPastTo(t *testing.T) {
	o := Parse("The ledger is stored in Postgres.")
	n := Parse("Why we migrated from Postgres to D1 ✅ **Database Schema** - Complete schema with triggers")
	if _, _, _, nv := Compare(o, n); strings.Contains(nv, "schema") {
		t.Errorf("Compare's new value = %q", nv)
	}
}

// A plan that is a thing made proposes nothing: a commit adding one still
// says the change it made.
func TestPlanMadeIsNoProposal(t *testing.T) {
	// In a plan, a change it reports made is made.
	plan := Parse("\n# Ledger Migration Plan\n\nWe already moved the ledger from Kelbo to Quillet.\n- Switch the reports from Plenk to Zorvix")
	for _, c := range plan {
		if c.Value == "quillet" && (c.Weak || c.Replaces != "kelbo") {
			t.Errorf("a change made, read as planned: %+v", c)
		}
		if c.Value == "zorvix" && !c.Weak {
			t.Errorf("a planned change read as made: %+v", c)
		}
	}

	o := Parse("It created a plan with 12 agents.")
	n := Parse("feat: add the deployment plan for the ledger - Consolidated 12 agents into 5 focused agents")
	if rel, _, ov, nv := Compare(o, n); rel != Supersedes || ov != "12" || nv != "5" {
		t.Errorf("Compare = %v %q -> %q, want 12 superseded by 5", rel, ov, nv)
	}
}

// "as a NP" names a role, except where NP is a part a project has: a
// library added as a dependency is no package manager.
func TestDependencyIsNoPackageManager(t *testing.T) {
	n := Parse("Added Kelbo as an optional dependency in `Cargo.toml` with a feature flag.")
	if c, ok := find(n, "package manager"); ok {
		t.Errorf("Parse reads %q as a package manager", c.Value)
	}
	for text, role := range map[string]string{"We run Kelbo as our reverse proxy.": "reverse proxy", "We use Kelbo as our db.": "database"} {
		if c, ok := find(Parse(text), role); !ok || c.Value != "kelbo" {
			t.Errorf("Parse(%q): a role named as such is lost: %+v", text, c)
		}
	}
}

// A capitalised word after a name goes on with the name ("KELV Runtime"):
// it names no role of it.
func TestCapitalisedWordAfterANameIsNoRole(t *testing.T) {
	for _, c := range Parse("Added face detection using KELV Runtime with pre-trained models.") {
		if c.Role == "js runtime" {
			t.Errorf("claim %+v reads the name's word as its role", c)
		}
	}
}

// Arrows are read as changes only in a list that a line above, ending with
// a colon, calls changes, between two code spans or two names; each pairs
// its own values. Elsewhere they are a flow or a path of steps.
func TestArrowListPairs(t *testing.T) {
	for _, text := range []string{
		"Request flow:\n- `kelbo-client` → `kelbo-gateway`\n- `kelbo-gateway` → `quillet-ledger`",
		"Migrated the ledger\n- `kelbo-av` → `kelbo-audio`", // no colon: no list of changes
		"Request flow:\n- Kelbo → Quillet",
		"Data path (kelbo-client → kelbo-gateway)",                                                           // no change word
		"Key changes in the request flow:\n- kelbo-client → kelbo-gateway\n- kelbo-gateway → quillet-ledger", // words, not names
	} {
		for _, c := range Parse(text) {
			if c.Replaces != "" {
				t.Errorf("Parse(%q): %+v", text, c)
			}
		}
	}
	for _, c := range Parse("**What we're using now** (simpler for development):\n- `kel_...` key from your profile → Basic auth") {
		if c.Replaces == "profile" {
			t.Errorf("a list of what is now read as a change: %+v", c)
		}
	}
	for _, c := range Parse("To get a token:\n1. Go to **Kelbo** → **Profile** → **Edit my details** → **Keys**") {
		if c.Value == "profile" || c.Replaces != "" || c.Changed {
			t.Errorf("a step of a path read as a choice or a change: %+v", c)
		}
	}
	if c, ok := find(Parse("Migrated the ledger:\n- reports: Kelbo → Quillet"), "report"); !ok || c.Value != "quillet" || c.Replaces != "kelbo" {
		t.Errorf("capitalised names across an arrow: %+v", c)
	}
	want := map[string]string{"kelbo-audio": "kelbo-av", "open(s)": "load(ms)", "quillet": "kelbo", "plenk": "zorvix"}
	for _, c := range Parse("Migrated the player:\n- `kelbo-av` → `kelbo-audio`\n- `load(ms)` → `open(s)`\n- `kelbo` → `quillet` and `zorvix` → `plenk`") {
		if r, ok := want[c.Value]; ok && c.Replaces != r {
			t.Errorf("%s replaces %q, want %q", c.Value, c.Replaces, r)
		}
		delete(want, c.Value)
	}
	if len(want) > 0 {
		t.Errorf("changes not read: %v", want)
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
		{"scoped package", "The build failed because we were trying to use `@zentrox/pages-adapter` for Kelvora.", "zentrox/pages-adapter"},
		{"scoped package in prose", "Kelvora now ships @zentrox/pages-adapter.", "zentrox/pages-adapter"},
		{"scoped package with a version", "Pin @zentrox/pages-adapter@1.2.3 for Kelvora.", "zentrox/pages-adapter@1.2.3"},
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
