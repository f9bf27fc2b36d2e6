package claim

import (
	"slices"
	"strings"
	"testing"
)

// denied reports whether newer denies a fault that older names as found.
func denied(older, newer string) bool {
	for _, d := range Denials(newer) {
		if _, _, ok := Denies(older, d); ok {
			return true
		}
	}
	return false
}

// A later statement that a fault does not hold corrects the earlier one
// that named it as found; looking for a fault, hedging it, a fault fixed
// since, another fault, or a denial inside a clause of purpose are no such
// correction. The texts are made up.
func TestDenies(t *testing.T) {
	for _, tt := range []struct {
		name, older, newer string
		want               bool
	}{
		// A finding, then its denial.
		{"there is no", "Blocker: a schema version mismatch between the app and the sync service.",
			"There is no schema version mismatch: both read schema 7.", true},
		{"there's no", "Locale conflict: the SDK pins an older date library.",
			"There's no locale conflict; the SDK accepts both date libraries.", true},
		{"capitalised no", "**2. Socket conflict on the storybook host — high.**",
			"**There is NO socket conflict.** The storybook host binds its port alone.", true},
		{"found a leak", "Found a heap leak in the image resizer worker.",
			"There was no heap leak; the resizer's heap is flat over an hour.", true},
		{"subject is not the problem", "The problem is the thumbnail cache evicting entries too early.",
			"The thumbnail cache is not the problem; eviction works as configured.", true},
		{"isn't the culprit", "The culprit is the retry loop in the mailer.",
			"The retry loop isn't the culprit, the relay drops the mail.", true},
		{"was not the bottleneck", "Bottleneck: the ledger rollup query scans the whole rollup table.",
			"The ledger rollup query was not the bottleneck: it returns in a few milliseconds.", true},
		{"not the issue here", "The real issue is the stale lockfile in the worker image.",
			"The stale lockfile is not the issue here.", true},
		{"plural found", "Two blockers: config mismatches between the web and mobile builds.",
			"There is no config mismatch between the web and mobile builds.", true},
		{"complement names it", "Socket conflict on the handbook server, which also wants 5173.",
			"There is no conflict between the handbook server and the app.", true},
		{"joined words", "**Auth/session mismatch** in the billing client.",
			"There is no session mismatch in the billing client.", true},
		{"regression in", "Regression: the signup wizard ignores the Tab key.",
			"There was no regression in the signup wizard; the old build behaves the same.", true},

		// A fault looked for, asked, hedged or believed before: no finding.
		{"looked for", "Let me check for a version mismatch between the client and server.",
			"There is no version mismatch between the client and server.", false},
		{"asked", "Is there a heap leak in the resizer?",
			"There's no heap leak in the resizer.", false},
		{"hedged", "Maybe the problem is the DNS cache.",
			"The DNS cache is not the problem.", false},
		{"believed", "I thought there might be a deadlock in the job runner.",
			"There is no deadlock in the job runner.", false},
		{"older denies too", "No deadlock in the job runner so far.",
			"There is no deadlock in the job runner.", false},

		// A fault that went away: fixed, not denied.
		{"any more", "There was a race in the uploader, so I added a lock.",
			"There is no race in the uploader any more.", false},
		{"no longer", "Schema mismatch between staging and production.",
			"There is no longer a schema mismatch between staging and production.", false},
		{"now", "Socket conflict on 5173 with the handbook server.",
			"There is now no socket conflict on 5173.", false},
		{"fixed", "Found a heap leak in the image resizer.",
			"There is no heap leak in the image resizer since the fix.", false},

		// The denial is no statement of its own.
		{"purpose", "Socket conflict on 5173 with the handbook server.",
			"I moved the handbook server to 5174 so there is no socket conflict.", false},
		{"instruction", "Socket conflict on 5173 with the handbook server.",
			"Make sure there is no socket conflict before starting.", false},
		{"condition", "Schema mismatch between staging and production.",
			"If there is no schema mismatch between staging and production, the sync passes.", false},
		{"question", "Locale conflict: the SDK pins an older date library.",
			"There is no locale conflict, right?", false},
		{"opinion", "Locale conflict: the SDK pins an older date library.",
			"I think there is no locale conflict.", false},

		// Another fault, or none named.
		{"another fault", "There's a heap leak in the resizer.",
			"There's no heap leak in the thumbnailer.", false},
		{"another conflict", "The lockfile conflict blocks the install.",
			"There is no conflict between the two rollout toggles.", false},
		{"no fault named", "The problem is the proxy timeout.",
			"There is no problem.", false},
		{"another problem", "The problem is the proxy timeout.",
			"There is no problem with the build.", false},
		{"a word in common", "The issue is that the token expires before the upload ends.",
			"There is no issue with the token refresh endpoint.", false},
		{"a noun qualified", "A vulnerability in the image parser lets a crafted file crash it.",
			"There is no vulnerability scanner in the image pipeline yet.", false},
		{"another problem named", "The issue is the stale lockfile.",
			"The stale lockfile is not the issue we saw yesterday.", false},
		{"not a problem for", "The problem is the purge task.",
			"The purge task is not a problem for the weekly archive window.", false},

		// The same fault in another place: the places' words must be one
		// within the other, and a denial's place must stand by a fault
		// whose statement names none after it.
		{"subject first, same place", "Profiled it: the parser has a memory leak.",
			"There is no memory leak in the parser.", true},
		{"subject first, another place", "Profiled it: the renderer has a memory leak.",
			"Checked the other module too. There is no memory leak in the parser.", false},
		{"subject first, a longer place", "The mobile app has a version mismatch.",
			"There is no version mismatch in the mobile app.", true},
		{"a place within the other", "Found a version mismatch in the app.",
			"There is no version mismatch in the mobile app.", true},
		{"two apps", "Found a version mismatch in the web app.",
			"There is no version mismatch in the mobile app.", false},
		{"two servers", "Found a version mismatch on the staging server.",
			"There is no version mismatch on the release server.", false},
		{"two hosts by a common word", "Blocker: a port conflict on the preview host.",
			"There's no port conflict on the build host.", false},

		// The change that removed the fault, said before the denial.
		{"fix in the sentence before", "Found a race in the upload queue: two workers take the same job.",
			"I put a mutex around the job pick. There is no race in the upload queue.", false},
		{"fix in the clause before", "Found a race in the upload queue: two workers take the same job.",
			"With the mutex in place, there is no race in the upload queue.", false},
		{"a word of time before is no fix", "Now the report: a race in the cache warmer.",
			"Now let me look closer. There is no race in the cache warmer.", true},
		{"the patch holds", "Found a race in the upload queue: two workers take the same job.",
			"The patch holds: there is no race in the upload queue.", false},

		// Corrections that reverse nothing.
		{"also", "We deploy the API with Kelbo.",
			"Actually, we also deploy the worker with Kelbo.", false},
		{"not only", "The exporter writes CSV.",
			"The exporter writes not only CSV but also Parquet.", false},
		{"wrong about the time", "The token lifetime is 900 seconds, set yesterday.",
			"I was wrong about when it was set: it was last week, and the token lifetime is still 900 seconds.", false},
		{"wrong about the count", "Found three blockers in the release checklist.",
			"Correction: there were four blockers, not three; the release checklist still holds them.", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := denied(tt.older, tt.newer); got != tt.want {
				t.Errorf("denied(%q, %q) = %v, want %v (denials %+v)", tt.older, tt.newer, got, tt.want, Denials(tt.newer))
			}
		})
	}
}

// A denial names the fault by its words, which link it to the statement
// it corrects, and spans its own statement.
func TestDenialWords(t *testing.T) {
	text := "Checked the routes. There is no header mismatch between the gateway and billing."
	ds := Denials(text)
	if len(ds) != 1 {
		t.Fatalf("Denials(%q) = %+v; want one", text, ds)
	}
	d := ds[0]
	if got, want := d.What, "header mismatch between the gateway and billing"; got != want {
		t.Errorf("What = %q, want %q", got, want)
	}
	if got, want := d.Words, []string{"billing", "gateway", "header"}; !slices.Equal(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
	if got, want := text[d.Start:d.End], "There is no header mismatch between the gateway and billing."; got != want {
		t.Errorf("statement %q, want %q", got, want)
	}
}

// A denial's words end where its phrase does: before another preposition,
// or marked as cut when the place runs on.
func TestDenialWhat(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"There is no deadlock in the sync worker under load.", "deadlock in the sync worker"},
		{"There is no version mismatch between the web and mobile builds.", "version mismatch between the web and mobile builds"},
		{"There is no leak in the very long winded image resizer worker pool thread code.",
			"leak in the very long winded image resizer worker …"},
	} {
		ds := Denials(tt.text)
		if len(ds) != 1 {
			t.Errorf("Denials(%q) = %+v; want one", tt.text, ds)
			continue
		}
		if ds[0].What != tt.want {
			t.Errorf("Denials(%q).What = %q, want %q", tt.text, ds[0].What, tt.want)
		}
	}
}

// Denies reads a statement up to maxStatementWords words: a fault named
// further into a run-on statement is not compared, which bounds the work a
// pasted log with no sentence break costs.
func TestDeniesReadsBoundedStatement(t *testing.T) {
	const newer = "There is no heap leak in the image resizer."
	for _, tt := range []struct {
		filler int // words before the finding, in the same statement
		want   bool
	}{
		{maxStatementWords / 2, true},
		{maxStatementWords + 10, false},
	} {
		older := strings.Repeat("row ", tt.filler) + "and we found a heap leak in the image resizer."
		if got := denied(older, newer); got != tt.want {
			t.Errorf("with %d words before the finding: denied = %v, want %v", tt.filler, got, tt.want)
		}
	}
}

// The corrections that reverse nothing are no change in Compare either: an
// addition, a value kept, a detail corrected beside it.
func TestCorrectionsThatKeepTheValue(t *testing.T) {
	for _, tt := range [][2]string{
		{"We deploy the API with Kelbo.", "Actually, we also deploy the worker with Kelbo."},
		{"The exporter writes CSV files.", "The exporter writes not only CSV files but also Parquet."},
		{"The token lifetime is 900 seconds.", "I was wrong about when it was set: the token lifetime is still 900 seconds."},
		{"The API runs on Postgres 15.", "Actually it is still Postgres 15; I misread the dashboard's date."},
		{"We use pnpm for the monorepo.", "Correction: the handbook site too uses pnpm, not only the monorepo."},
	} {
		if rel, role, ov, nv := Compare(Parse(tt[0]), Parse(tt[1])); rel == Supersedes || rel == Contradicts {
			t.Errorf("Compare(%q, %q) = %v %s: %s -> %s; want no conflict", tt[0], tt[1], rel, role, ov, nv)
		}
	}
}
