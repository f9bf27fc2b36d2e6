package extract

import (
	"strings"
	"testing"
)

// TestStandsAlone checks each way an entry's text can fail to be read on
// its own, and statements that must pass.
func TestStandsAlone(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		typ  Type
		body string
		want bool
	}{
		{Fact, "Here is how the importer should be started:", false},
		{Fact, "It's in the scheduler module.", false},
		{Fact, "They live under ops/alerts.", false},
		{Fact, "That is why the cache misses.", false},
		{Fact, "This needs a restart of the broker.", false},
		{Fact, "and POST /v2/orders returned 502", false},
		{Fact, `"build_id": "a81f3",`, false},
		{Fact, "2024-03-09 14:22:10 [info] worker started", false},
		{Decision, "How do I point the mailer at the sandbox", false},
		{Lesson, "The import stalls because the CSV parser is caused by:", false},
		{Lesson, "Cause: the first fetch of the tile cache takes minutes:", true},
		{Lesson, "It failed because the broker certificate had expired.", true},
		{Fact, "This repo pins Node 22 in .nvmrc.", true},
		{Fact, "The sensor box runs a small web server on port 8081 with a JSON API and a websocket feed:", true},
		{Fact, "Based on the review of the queue code, here's a plan to move the retries into the worker:", false},
		{Fact, "The mailer uses the sandbox SMTP host in staging.", true},
		{Decision, "When a job fails twice, page the on-call.", true},
		{Constraint, "Never push straight to the release branch.", true},
	} {
		if got := standsAlone(tt.typ, tt.body); got != tt.want {
			t.Errorf("standsAlone(%s, %q) = %v; want %v", tt.typ, tt.body, got, tt.want)
		}
	}
}

// TestReportsTrouble checks that a user's report of something broken is
// told from a choice that talks about errors.
func TestReportsTrouble(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		body string
		want bool
	}{
		{"Checkout.vue:88 Uncaught TypeError: cannot read properties of undefined", true},
		{"the invoices page still does not load after the deploy", true},
		{"i cannot see anything on the preview link", true},
		{"make lint fails now: the parser tests get 500.", true},
		{"Errors from the scheduler are reported to Honeybadger.", false},
		{"All errors must be logged as JSON lines.", false},
		{"The old poller doesn't work across regions, so it has to move to the queue.", false},
		{"We deploy the worker on Fridays.", false},
		// A verb of change opening the line does not direct here: a program's
		// advice, or the errand of the moment, over what failed.
		{"Keep the daemon running: the watcher crashed and will restart in 5s", true},
		{"Drop the cache and redeploy, the bundler crashed on the last run", true},
	} {
		if got := reportsTrouble(tt.body); got != tt.want {
			t.Errorf("reportsTrouble(%q) = %v; want %v", tt.body, got, tt.want)
		}
	}
}

// TestNotKeptFromSession checks, end to end, that a user's bug report, a
// question without its mark and an assistant's narration of its next step
// yield no entry, while the user's rule in the same session does.
func TestNotKeptFromSession(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{0, "user", "Reports.tsx:40 Uncaught ReferenceError: chartData is not defined, and the page still does not render"},
		{1, "assistant", "I'll check the reports page first."},
		{2, "user", "How do I rename the staging database"},
		{3, "assistant", "Use the rename command of the database CLI."},
		{4, "user", "We always use the Postgres 15 image for local development."},
	}
	got := Offline(msgs)
	checkEntries(t, "session", msgs, got)
	var kept bool
	for _, e := range got {
		switch {
		case strings.Contains(e.Body, "Postgres 15"):
			kept = true
		case strings.Contains(e.Body, "ReferenceError"), strings.Contains(e.Body, "rename the staging"), strings.Contains(e.Body, "I'll check"):
			t.Errorf("kept %s %q", e.Type, e.Body)
		}
	}
	if !kept {
		t.Errorf("the user's rule was not kept: %s", dump(got))
	}
}

// TestReferent checks that an entry opening with a pronoun carries the
// sentence that names what the pronoun stands for.
func TestReferent(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{0, "assistant", "I left `deploy/secrets.env` out of the commit. Secrets should not be in git."},
		{1, "user", "they should always be encrypted with sops before anything else."},
	}
	got := Offline(msgs)
	checkEntries(t, "referent", msgs, got)
	for _, e := range got {
		if strings.Contains(e.Body, "encrypted with sops") {
			if !strings.Contains(e.Body, "deploy/secrets.env") || len(e.Evidence) < 2 {
				t.Errorf("entry %q names no referent (quotes %d)", e.Body, len(e.Evidence))
			}
			return
		}
	}
	t.Errorf("no entry for the user's rule: %s", dump(got))
}

// TestSurvivesSession checks that a value a later message of the session
// says it updates is not kept beside the new one.
func TestSurvivesSession(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{0, "user", "The metrics gateway listens on port 7040."},
		{1, "assistant", "Noted."},
		{2, "user", "Update: the metrics gateway now listens on port 7311."},
		{3, "assistant", "Noted."},
	}
	got := Offline(msgs)
	checkEntries(t, "update", msgs, got)
	var old, cur bool
	for _, e := range got {
		old = old || strings.Contains(e.Body, "7040")
		cur = cur || strings.Contains(e.Body, "7311")
	}
	if old || !cur {
		t.Errorf("old value kept %v, new value kept %v; want only the new: %s", old, cur, dump(got))
	}
}

// TestMomentFact checks that a listed status, change or work estimate is
// told from a listed setting.
func TestMomentFact(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		body string
		want bool
	}{
		{"Worker: ✅ running on 4 cores", true},
		{"src/router.ts - Added the billing routes", true},
		{"src/nav/Menu.tsx - Add a link to the billing page", true},
		{"Migration phase: ~40 minutes", true},
		{"Session timeout: 30 minutes", false},
		{"Worker: http://localhost:7311", false},
		{"To seed the database: make seed ENV=dev", false},
		{"src/router.ts - the HTTP routes of the API", false},
		{"GET /v1/jobs - Start a job run", false},
		{"Bulk export: Added /api/export/bulk for many files", false},
		{"Polling delays: 2 seconds between pages", false},
	} {
		if got := momentFact(tt.body); got != tt.want {
			t.Errorf("momentFact(%q) = %v; want %v", tt.body, got, tt.want)
		}
	}
}

// TestForTheMoment checks that a request to look or report is told from a
// lasting choice the user states the same way.
func TestForTheMoment(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		body string
		want bool
	}{
		{"have a look at the settings modal and keep it consistent with the rest", true},
		{"ok, check which of the two servers answers on the health route", true},
		{"Keep the settings modal consistent with the other dialogs.", false},
		{"do not set up the replicas, we do not need them yet", false},
	} {
		if got := forTheMoment(tt.body); got != tt.want {
			t.Errorf("forTheMoment(%q) = %v; want %v", tt.body, got, tt.want)
		}
	}
}

// TestSameFindingMerged checks that one cause stated three times in a
// session makes one entry carrying the quotes.
func TestSameFindingMerged(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{0, "user", "the nightly export job fails"},
		{1, "tool", "Bash: ./export.sh (error)\nError: unknown codec zstd-9 in export.yaml"},
		{2, "assistant", "Root cause: export.yaml asks for the unknown codec zstd-9."},
		{3, "assistant", "The export failure is caused by the unknown codec zstd-9 in export.yaml."},
	}
	got := Offline(msgs)
	checkEntries(t, "merged", msgs, got)
	n := 0
	for _, e := range got {
		if strings.Contains(e.Body, "zstd-9") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d entries name the codec, want 1: %s", n, dump(got))
	}
}

// TestPastedErrorLesson checks that an error the user pasted is not their
// decision but the failure of the lesson the assistant then found.
func TestPastedErrorLesson(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{0, "user", "Chart.vue:31 Uncaught TypeError: formatAxis is not a function\nthe dashboard stays empty"},
		{1, "assistant", "Looking into the chart helpers."},
		{2, "tool", "Read: /web/src/helpers/axis.ts\nexport const formatTick = () => {}"},
		{3, "assistant", "I found the cause. The `axis.ts` helper exports formatTick, while `Chart.vue` imports formatAxis."},
		{4, "tool", "Edit: /web/src/components/Chart.vue"},
	}
	got := Offline(msgs)
	checkEntries(t, "pasted", msgs, got)
	for _, e := range got {
		if e.Type != Lesson && strings.Contains(e.Body, "TypeError") {
			t.Errorf("the pasted error is a %s", e.Type)
		}
		if e.Type == Lesson && e.Evidence[0].MessageIndex == 0 && strings.Contains(e.Evidence[0].Quote, "TypeError") {
			return
		}
	}
	t.Errorf("no lesson quoting the pasted error: %s", dump(got))
}

// TestAssistantAsides checks that an assistant's offer, condition or
// alternative, its report of a change that names no value, its "Todo
// updated" and a colon line announcing what follows yield no entry, while
// its statement of a setting does.
func TestAssistantAsides(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{0, "user", "set up the preview deploys"},
		{1, "assistant", "You can also turn off the comment bot by setting bot.enabled to false in preview.yaml.\n\n" +
			"If the deploy fails, run the cleanup script first.\n\n" +
			"Or, to skip the bot entirely, remove the webhook in preview.yaml.\n\n" +
			"Replaced the placeholder banner with the real status list.\n\n" +
			"Created banner_status.rs module with the status polling logic.\n\n" +
			"Todo updated for the preview work.\n\n" +
			"Here's what was set up and how it works:\n\n" +
			"We use Postgres 16 for the preview database."},
	}
	got := Offline(msgs)
	checkEntries(t, "asides", msgs, got)
	kept := false
	for _, e := range got {
		switch b := e.Body; {
		case strings.Contains(b, "Postgres 16"):
			kept = true
		case strings.Contains(b, "bot.enabled"), strings.Contains(b, "cleanup script"), strings.Contains(b, "webhook"),
			strings.Contains(b, "placeholder banner"), strings.Contains(b, "Todo updated"), strings.Contains(b, "how it works"):
			t.Errorf("kept %s %q", e.Type, b)
		}
	}
	if !kept {
		t.Errorf("the setting was not kept: %s", dump(got))
	}
	if !madeChange("Replaced the placeholder banner with the real status list.") || madeChange("Created banner_status.rs module with the status polling logic.") ||
		madeChange("Created an InvoiceMatcher that pairs payments with invoices") {
		t.Errorf("madeChange: want an unvalued change report only")
	}
}

// TestCodeNameLabel checks that a list item labelled by an identifier as
// code spells it is kept as a fact about that code thing, and that a plain
// word label with a prose value is not.
func TestCodeNameLabel(t *testing.T) {
	t.Parallel()
	msgs := []Message{{0, "user", "summarise the service layer"}, {1, "assistant",
		"The service layer:\n\n- **LedgerReconciler**: Nightly matching of bank lines against open invoices\n- **Overview**: Nicely structured and easy to follow"}}
	got := Offline(msgs)
	checkEntries(t, "code name", msgs, got)
	var rec bool
	for _, e := range got {
		rec = rec || strings.Contains(e.Body, "LedgerReconciler")
		if strings.Contains(e.Body, "Nicely structured") {
			t.Errorf("kept %q", e.Body)
		}
	}
	if !rec {
		t.Errorf("no fact about LedgerReconciler: %s", dump(got))
	}
	for _, tt := range []struct {
		label string
		want  bool
	}{{"LedgerReconciler", true}, {"retry_budget", true}, {"Overview", false}, {"API", false}, {"Next steps", false}, {"HTTP_PORT", false}} {
		if got := codeName(tt.label); got != tt.want {
			t.Errorf("codeName(%q) = %v; want %v", tt.label, got, tt.want)
		}
	}
}

// TestAddressFactsMerged checks that facts about one address merge, their
// quotes accumulated.
func TestAddressFactsMerged(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{0, "user", "where do things run?"},
		{1, "assistant", "Services:\n\n- Metrics gateway: http://localhost:7311/ (Go server)"},
		{2, "user", "and the gateway?"},
		{3, "assistant", "Setup:\n\n- Gateway: http://localhost:7311 (started by make gateway)"},
	}
	got := Offline(msgs)
	checkEntries(t, "address", msgs, got)
	gw := 0
	for _, e := range got {
		if strings.Contains(e.Body, "7311") {
			gw++
			if len(e.Evidence) != 2 {
				t.Errorf("the merged entry has %d quotes, want both", len(e.Evidence))
			}
		}
	}
	if gw != 1 {
		t.Errorf("%d entries name the gateway's address, want 1: %s", gw, dump(got))
	}
	if a := addresses("see http://10.0.0.5:8080/api and (db.internal:5432), not Note: or 12:30"); len(a) != 2 {
		t.Errorf("addresses = %q, want the two host:port", a)
	}
}
