package extract

import (
	"strings"
	"testing"
)

// TestNotWorthKeeping: lines a developer would not want handed back weeks
// later, each by the shape that gives it away rather than by its words.
func TestNotWorthKeeping(t *testing.T) {
	tests := []struct {
		name string
		msgs []Message
		not  string // no entry quotes this
		keep string // an entry quotes this ("" for none)
	}{
		{"a catalogue of the code", []Message{
			{0, "user", "what did you build?"},
			{1, "assistant", "Files:\n\n- `web/src/Orders.tsx` - Main component\n- `web/src/OrderRow.tsx` - One row\n- `GET /api/orders` - List orders\n- `GET /api/orders/:id` - Order details\n- `web/src/api.ts` - Calls http://localhost:7311/api\n"},
		}, "Main component", "localhost:7311"},
		{"a label naming the kind of value", []Message{
			{0, "user", "where is it?"},
			{1, "assistant", "- **URL:** http://localhost:4417\n- **Billing service:** http://localhost:4418"},
		}, "localhost:4417", "localhost:4418"},
		{"a command without what it is for", []Message{
			{0, "user", "add the billing worker"},
			{1, "assistant", "Done. Then:\n\n```bash\nnpm run build\nnpm test\n```\n\n```bash\n# Start the billing worker\nnpm run billing-worker\n```"},
		}, "npm test", "billing-worker"},
		{"the rest of an error pasted into a prompt", []Message{
			{0, "user", "The orders page is blank, we always use pnpm here.\n[plugin:vite:css] src/theme.css:12:5 error: unknown word\nCheck the selector near the brace on this line.\nYou can also disable this overlay by setting server.hmr.overlay to false in vite.config.ts."},
		}, "overlay", "always use pnpm"},
		{"a log pasted into a prompt", []Message{
			{0, "user", "deploy log:\n17:03:51.011 Build Completed in /vercel/output [29s]\n17:03:52.100 Deploying outputs\nWe decided to use Vercel for the frontend."},
		}, "Build Completed", "use Vercel"},
		{"a call with JSON arguments", []Message{
			{0, "user", "Plan the invoice work.\nJobCreate {\"subject\":\"Send the monthly invoices\",\"description\":\"billing run\"}\nWe always keep invoices for seven years."},
			{1, "assistant", "Queued."},
		}, "monthly invoices", "keep invoices"},
		{"lines of code", []Message{
			{0, "user", "here is the schema:\n  @@index([userId, createdAt]) must stay\n  @@unique([slug]) must stay\n\nWe always key orders by slug."},
		}, "@@", "always key orders"},
		{"dated by the moment", []Message{
			{0, "user", "status?"},
			{1, "assistant", "FIX-014: Already merged to main\n\nThe billing repo was only edited today and holds Docker configs."},
		}, "merged", ""},
		{"a request for the turn", []Message{
			{0, "user", "Do not set up row level policies yet, just create a plan. We never deploy on Fridays."},
		}, "policies", "never deploy"},
		{"a change dated from today holds on", []Message{
			{0, "user", "Moved the queue to Redis Streams; the workers read from it from today."},
		}, "\x00", "from today"},
		{"a progress report and a one-off command", []Message{
			{0, "user", "done?"},
			{1, "assistant", "✅ Successfully set up the billing API for refunds.\n\n- **Commit:** `git add src/lib/refund.ts && git commit -m \"refunds\"`\n- **Billing worker:** `npm run billing-worker`"},
		}, "git add", "billing-worker"},
		{"a progress report", []Message{
			{0, "user", "done?"},
			{1, "assistant", "✅ We decided to use Stripe webhooks for the billing API and configured them."},
		}, "Stripe", ""},
		{"running properly, at that moment", []Message{
			{0, "user", "is it up?"},
			{1, "assistant", "- **Port 4418**: the invoice worker (worker.go) is running properly\n- **Port 4419**: the invoice admin UI (admin.go)"},
		}, "running properly", "4419"},
		{"something not there yet", []Message{
			{0, "user", "why does the worker not start?"},
			{1, "assistant", "The ORDERS_QUEUE_TOKEN environment variable is not set.\n\nMissing hook files - pre.py, post.py don't exist."},
		}, "not set", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Offline(tt.msgs)
			checkEntries(t, tt.name, tt.msgs, got)
			kept := false
			for _, e := range got {
				for _, ev := range e.Evidence {
					if strings.Contains(ev.Quote, tt.not) {
						t.Errorf("kept %q in %s", tt.not, dump(got))
					}
					kept = kept || tt.keep != "" && strings.Contains(ev.Quote, tt.keep)
				}
			}
			if tt.keep != "" && !kept {
				t.Errorf("no entry quotes %q in %s", tt.keep, dump(got))
			}
		})
	}
}

// TestNotKeptAsWritten: candidates whose finished text is written for the
// moment or names nothing, judged by keeps whatever trigger found them; each
// comes with a neighbour of the same kind that stays.
func TestNotKeptAsWritten(t *testing.T) {
	msgs := []Message{{0, "user", "the billing worker keeps timing out"}, {1, "assistant", "looking"}}
	tests := []struct {
		name string
		typ  Type
		user bool
		body string
		keep bool
	}{
		{"the assistant's next move, as a lesson", Lesson, false, "Let me check the deploy history of the billing worker.", false},
		{"the assistant's next move, with a cause", Lesson, false, "I'll look at why the queue timeout is 30s in worker.go.", false},
		{"a lesson found", Lesson, false, "The cause was a 30s queue timeout in worker.go; raising it to 120s fixed the billing worker.", true},
		{"a step offered only if needed", Fact, false, "Stop the worker on localhost:4418 if it's not needed", false},
		{"a step for when it is needed", Fact, false, "The billing worker on localhost:4418 can be restarted when needed.", false},
		{"a part marked optional", Fact, false, "web/src/orders/ (optional) - Sub-views if needed", false},
		{"a port that holds", Fact, false, "Billing worker: http://localhost:4418", true},
		{"a choice of a thing not named", Decision, true, "Fine, we go with that one and rework the others", false},
		{"a choice that names it", Decision, true, "Fine, we go with Postgres and rework the others", true},
		{"a bare address", Fact, true, "10.0.0.7:4418", false},
		{"an address that says what it is", Fact, true, "the billing worker is on 10.0.0.7:4418", true},
		{"a gloss that repeats its name", Fact, false, "invoices - invoice records", false},
		{"a gloss that repeats its name, plural", Fact, false, "owner - account owner rights", false},
		{"a route's gloss that repeats it", Fact, false, "GET /api/invoices/{id} - Get one invoice with its lines and totals", false},
		{"a route's gloss that says when", Fact, false, "/docs: OpenAPI documentation (when LOG_LEVEL=DEBUG)", true},
		{"a gloss that says more", Fact, false, "invoices - rows are never deleted, only voided", true},
		{"the rest of a spoken sentence", Decision, true, "cause we keep the config in the repo root", false},
		{"a request to be told, for the turn", Constraint, true, "don't change any files, only tell me the command", false},
		{"a rule about being told", Constraint, true, "always tell me before you push to main", true},
		{"a commit quoted by its hash", Decision, false, "Summary: 4e1b9c2 refactor: split the invoice worker", false},
		{"a commit command with its message", Fact, false, "Save: after the check, git add worker.go && git commit -m \"split\"", false},
		{"a hash that names a pinned version", Decision, false, "We pin the invoice worker image to v1.4.2", true},
		{"a decision naming a commit", Decision, false, "Pin the vendored PDF parser to commit 4f2a9c1e until upstream fixes the leak", true},
		{"installing what the manifest lists", Fact, false, "Install deps: npm install (pulls React, Vite)", false},
		{"installing named packages", Fact, false, "Install the PDF renderer: npm install pdfkit", true},
		{"installing a dev dependency by flag", Fact, false, "Dev dependency: npm install -D vitest", true},
		{"installing a tool globally", Fact, false, "Global tool: npm i -g pnpm", true},
		{"installing what the manifest lists, then more", Fact, false, "Setup: npm install — then copy .env.example", false},
		{"a numbered part of the plan", Decision, false, "Phase 3: Invoice list + export modal", false},
		{"a part of the product", Decision, false, "Export modal: invoices export as CSV only", true},
		{"an alternative offered", Fact, false, "Alternative (no jq): nano .invoices/config.json (find \"hooks\", empty it, save with Ctrl+O)", false},
		{"a preference the assistant lists", Preference, false, "For example, a preferred topic, the project size and the schedule", false},
		{"a preference the user states", Preference, true, "I prefer short invoice numbers like INV-042", true},
		{"a guess where the trouble lies", Constraint, false, "The export issue must be on the invoice worker side.", false},
		{"a rule with must", Constraint, false, "Invoice numbers must be unique per customer.", true},
		{"a user's rule naming errors", Constraint, true, "Rule for the API: error responses must use the problem+json format.", true},
		{"the assistant's rule naming errors", Constraint, false, "Every error must carry the request id.", true},
		{"the next step of the turn", Fact, false, "Then test: cd worker && go run ./cmd/export --dry-run", false},
		{"the next step, now", Fact, false, "Now restart the invoice worker on port 4418: make worker", false},
		{"a check for when it is ready", Fact, false, "Test when ready: curl https://invoices.example.com/healthz", false},
		{"how the worker is run", Fact, false, "Run the worker: make worker (listens on port 4418)", true},
		{"a ticket's title", Fact, false, "INV-12: Develop the invoice export screen", false},
		{"a ticket's meaning", Fact, false, "INV-12: the export screen ticket, closed in v2", true},
		{"a short pointer back", Task, true, "With these TODO.", false},
		{"a short task", Task, true, "TODO: sign the invoices later", true},
		{"a lesson dated today", Lesson, false, "The invoices repo was only edited today and holds Docker configs.", false},
		{"a step pointing at the code after it", Decision, false, "With the new tokens, apply the list: Open web/invoices.tsx, replace **all content** with this (typed, paged):", false},
		{"a step naming what it sets", Decision, false, "Invoice page: the list is paged by 50 and we keep it this way.", true},
		{"the assistant's next move, now", Decision, false, "We'll patch it now by setting the invoice styles by hand (margins, spacing)", false},
		{"the assistant's proposal", Decision, false, "We'll use Postgres row locks for the invoice numbers", true},
		{"the cons of an option", Constraint, false, "Cons: More work for the invoice list; users must click to see all lines", false},
		{"the second half of a clause", Fact, true, "where all the invoices shown in the list come from.", false},
		{"a step of the work in hand", Decision, true, "Push the invoices app to GitHub", false},
		{"carrying on", Decision, true, "ok let's continue building the invoice list with the table agent", false},
		{"a lasting choice", Decision, true, "ok let's use the table agent for every invoice list", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := &extractor{msgs: msgs}
			from := 1
			if tt.user {
				from = 0
			}
			c := &cand{typ: tt.typ, from: from, user: tt.user, fixed: tt.typ == Lesson, body: tt.body,
				ev: []evi{{from, 0, tt.body}}}
			if got := x.keeps(c); got != tt.keep {
				t.Errorf("keeps(%s %q) = %v, want %v", tt.typ, tt.body, got, tt.keep)
			}
		})
	}
}

// TestLessonEndsOnAFinding: a lesson that is only the assistant's next
// move is dropped; with the failure or the fix quoted beside it, it stays.
func TestLessonEndsOnAFinding(t *testing.T) {
	msgs := []Message{{0, "user", "the chart labels overlap"}, {1, "assistant", "a"}, {2, "assistant", "b"}}
	look := "Let me open the chart config to check and repair it."
	fix := "The fix is to use `rotate: 45` for the axis labels so they no longer overlap."
	for _, tt := range []struct {
		ev   []evi
		keep bool
	}{
		{[]evi{{1, 0, look}}, false},
		{[]evi{{1, 0, fix}, {2, 0, look}}, true},
		{[]evi{{1, 0, look}, {2, 0, fix}}, true},
	} {
		x := &extractor{msgs: msgs}
		c := &cand{typ: Lesson, from: 1, fixed: true, ev: tt.ev}
		if got := x.keeps(c); got != tt.keep {
			t.Errorf("keeps(lesson %v) = %v, want %v", tt.ev, got, tt.keep)
		}
	}
}

// TestPastedCommand: the steps of a slash-command file pasted into a prompt
// are not the user's choices; what they wrote on the first line, or in a
// prompt without a command, is.
func TestPastedCommand(t *testing.T) {
	cmd := "can you improve my release command? here it is:\n# Release command\n\nTag the build and publish it.\n\nVERSION: $ARGUMENTS\n\n## Steps\n- RUN `make dist`\n- IF the tag exists, EXIT with error"
	msgs := []Message{{0, "user", cmd}, {1, "assistant", "Here are my thoughts."}, {2, "user", "# Notes\nWe always sign release tags with the team key."}}
	for _, tt := range []struct {
		from  int
		quote string
		keep  bool
	}{
		{0, "Tag the build and publish it.", false},
		{0, "IF the tag exists, EXIT with error", false},
		{0, "can you improve my release command?", true},
		{2, "We always sign release tags with the team key.", true},
	} {
		x := &extractor{msgs: msgs}
		c := &cand{typ: Decision, from: tt.from, user: true, body: tt.quote, ev: []evi{{tt.from, 0, tt.quote}}}
		if !tt.keep && x.keeps(c) {
			t.Errorf("kept %q from a pasted command", tt.quote)
		}
		if tt.keep && pastedCommand(msgs[tt.from].Text, tt.quote) {
			t.Errorf("%q read as pasted", tt.quote)
		}
	}
}
