package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// An entry and the message it quotes say one thing once: the change the
// message reports is set against the older message that stated the replaced
// value, never against the message's own excerpt, which may show the
// replaced value alone. The texts are made up.
func TestChangeNotWarnedAgainstItsOwnMessage(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	old := say(t, db, "keep", day.AddDate(0, 0, -3), "Which image does the CI job build on?",
		"The CI image is `ci-base:3`.")
	text := "The CI job ran out of disk, so we moved the CI image from `ci-base:3` to `ci-slim:5`."
	nw := say(t, db, "fix", day, "Why does the CI job run out of disk?", text)
	e, _, err := db.PutEntry(ctx, store.Entry{
		Project: proj, SessionID: "fix", Type: "decision", Title: "CI image: ci-slim:5", Subject: "ci image",
		ClaimKey: "ci image|ci-slim:5", Stage: store.StageVerified, Created: nw[1].Time,
		Evidence: []store.Evidence{{SessionID: "fix", EventID: nw[1].ID, Quote: text, Method: "exact", Confidence: 1, SpanEnd: len(text)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	msg := messageItem(nw[1], "The CI job ran out of disk, so we moved the CI image from `ci-base:3` …")
	ent := Item{CID: e.CID, Kind: KindEntry, Type: e.Type, Stage: e.Stage, SessionID: e.SessionID, Time: e.Created,
		Text: e.Title, Quote: text, entry: e, events: []int64{nw[1].ID}}
	wantReplaced(t, db, []Item{msg, ent}, store.EventCID(old[1].ID), e.CID)
}

// A tool run naming the replaced value decides nothing: the older side of a
// change is the last message that stated it. The texts are made up.
func TestChangeOlderSideIsNoToolRun(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	old := say(t, db, "queue", day.AddDate(0, 0, -5), "What runs the job queue?", "The job queue runs on Kelbo.")
	run := store.Event{Time: day.AddDate(0, 0, -2), Type: store.TypeToolObservation, SessionID: "look", Project: proj,
		Text: "Bash: cat worker.toml\nbroker: Kelbo\nretries = 3", DedupeKey: "look:0"}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, run); return err }); err != nil {
		t.Fatal(err)
	}
	nw := say(t, db, "move", day, "Did the queue move?", "We moved the job queue from Kelbo to Quillet.")
	wantReplaced(t, db, []Item{messageItem(nw[1], nw[1].Text)}, store.EventCID(old[1].ID), store.EventCID(nw[1].ID))
}

// The older side of a change is the last statement before it, however
// often the old value is named after it: a migration's later talk of the
// tool it left (twenty-five messages here) filled the page the lookup
// read, newest first, and the warning was lost. The texts are made up.
func TestChangeOlderSideBeforeLaterTalk(t *testing.T) {
	db := storetest.Open(t)
	old, nw := movedThenTalked(t, db)
	wantReplaced(t, db, []Item{messageItem(nw[1], nw[1].Text)}, store.EventCID(old[1].ID), store.EventCID(nw[1].ID))
}

// A change said twice finds its older side whichever saying is looked up
// first: the later one's page, bounded by its own time, holds the talk
// between the two, and the earlier one must not reuse it. The texts are
// made up.
func TestChangeSaidTwiceFindsItsOlderSide(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	old, nw := movedThenTalked(t, db)
	again := say(t, db, "again", day.AddDate(0, 0, -1), "Remind me about the queue?", "We moved the job queue from Kelbo to Quillet.")
	ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(again[1], again[1].Text), messageItem(nw[1], nw[1].Text)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(ws, func(w Warning) bool {
		return w.A.CID == store.EventCID(old[1].ID) && w.B.CID == store.EventCID(nw[1].ID)
	}) {
		t.Errorf("want %s replaced by %s; got %+v", store.EventCID(old[1].ID), store.EventCID(nw[1].ID), ws)
	}
}

// wantReplaced checks that sel's warnings are one: older replaced by newer.
func wantReplaced(t *testing.T, db *store.DB, sel []Item, older, newer string) {
	t.Helper()
	ws, err := Warnings(context.Background(), db, defaults(), sel)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].A.CID != older || ws[0].B.CID != newer {
		t.Errorf("want one warning: %s replaced by %s; got %+v", older, newer, ws)
	}
}

// movedThenTalked stores the job queue's broker, its change three days
// before day and twenty-five messages after that name the old one; it
// returns the statement's turn and the change's.
func movedThenTalked(t *testing.T, db *store.DB) (old, moved []store.Event) {
	t.Helper()
	filler(t, db)
	old = say(t, db, "queue", day.AddDate(0, 0, -5), "What runs the job queue?", "The job queue runs on Kelbo.")
	moved = say(t, db, "move", day.AddDate(0, 0, -3), "Did the queue move?", "We moved the job queue from Kelbo to Quillet.")
	for i := range 25 {
		say(t, db, fmt.Sprintf("after%d", i), day.AddDate(0, 0, -2).Add(time.Duration(i)*time.Hour),
			"Are the Kelbo dashboards gone yet?", fmt.Sprintf("Kelbo dashboard %d of the old cluster is archived.", i))
	}
	return old, moved
}

// Two items reporting the same change look its older side up once: the
// second finds what the first searched and parsed, in the messages kept by
// project and value. The texts are made up.
func TestReplacedLooksUpOnce(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	old := say(t, db, "queue", day.AddDate(0, 0, -5), "What runs the job queue?", "The job queue runs on Kelbo.")
	nw := say(t, db, "move", day, "Did the queue move?", "We moved the job queue from Kelbo to Quillet.")
	n := said{Item: messageItem(nw[1], nw[1].Text), claims: claim.Parse(nw[1].Text)}
	i := slices.IndexFunc(n.claims, func(c claim.Claim) bool { return c.Replaces != "" })
	if i < 0 {
		t.Fatalf("no change in %+v", n.claims)
	}
	looked := map[string][]stated{}
	if o, ok, err := replaced(ctx, db, looked, n, n.claims[i]); err != nil || !ok || o.CID != store.EventCID(old[1].ID) {
		t.Fatalf("older side %+v, %v, %v; want %s", o.Item, ok, err, store.EventCID(old[1].ID))
	}
	// Found by a new search, this statement would be the older side now.
	later := say(t, db, "again", day.AddDate(0, 0, -1), "Is the job queue still on Kelbo?", "The job queue runs on Kelbo still.")
	if o, ok, err := replaced(ctx, db, looked, n, n.claims[i]); err != nil || !ok || o.CID != store.EventCID(old[1].ID) {
		t.Errorf("looked up again: %+v, %v, %v; want %s, as first found", o.Item, ok, err, store.EventCID(old[1].ID))
	}
	if o, ok, err := replaced(ctx, db, map[string][]stated{}, n, n.claims[i]); err != nil || !ok || o.CID != store.EventCID(later[1].ID) {
		t.Errorf("a new prompt's lookup: %+v, %v, %v; want %s", o.Item, ok, err, store.EventCID(later[1].ID))
	}
}

// The ledger's warnings are its first perKind pairs whose sides load, a pair
// recorded both ways round warned about once, however many rows the
// selected entry has: an equivalence test for reading the sides of only the
// rows that can still make a warning (sidesFor). The texts are made up.
func TestLedgerWarningsFirstPairs(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	var es []store.Entry
	for i := range 9 {
		e, _, err := db.PutEntry(ctx, store.Entry{Project: proj, SessionID: "s", Type: "decision",
			Title: fmt.Sprintf("The zorbel relay listens on gate %d.", i), Subject: "zorbel relay gate",
			ClaimKey: fmt.Sprintf("zorbel relay gate|%d", i), Stage: store.StageVerified, Created: day.AddDate(0, 0, i)})
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	add := func(older, newer int) {
		t.Helper()
		c := store.Conflict{Older: es[older].ID, Newer: es[newer].ID, Kind: "contradicts", Reason: "gate"}
		if _, err := db.AddConflict(ctx, c, store.Event{Type: store.TypeConflict, DedupeKey: fmt.Sprintf("c%d-%d", older, newer)}); err != nil {
			t.Fatal(err)
		}
	}
	add(0, 1)
	add(1, 0) // the same pair the other way round
	for i := 2; i < 9; i++ {
		add(0, i)
	}
	sel := []Item{{CID: es[0].CID, Kind: KindEntry, Type: es[0].Type, Text: es[0].Title, entry: es[0]}}
	ws, err := Warnings(ctx, db, defaults(), sel)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		got = append(got, w.A.CID+" "+w.B.CID)
	}
	var want []string
	for _, i := range []int{1, 2, 3, 4, 5} {
		want = append(want, es[0].CID+" "+es[i].CID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
}

// TestClaimWarningNamesListedRoles: the note names a table's role only
// where the table lists one of the values; a role given to two names it
// does not list, for a word beside them, would say something untrue.
func TestClaimWarningNamesListedRoles(t *testing.T) {
	t.Parallel()
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	older := said{Item: Item{CID: "mem:a", Kind: store.TypeAgentResponse, Time: day, Excerpt: "Searches go through WebSearch."}}
	newer := said{Item: Item{CID: "mem:b", Kind: store.TypeAgentResponse, Time: day.Add(time.Hour), Excerpt: "Remove WebSearch dependencies and use MCP instead."}}
	for _, tt := range []struct {
		role, ov, nv, want string
	}{
		{"package manager", "websearch", "mcp", "mcp (2026-03-02) replaced websearch"},
		{"package manager", "npm", "pnpm", "package manager: pnpm (2026-03-02) replaced npm"},
		{"package manager", "npm", "kelbo", "package manager: kelbo (2026-03-02) replaced npm"},
		{"version:node", "18", "20", "version:node: 20 (2026-03-02) replaced 18"},
	} {
		w := claimWarning(claim.Supersedes, tt.role, tt.ov, tt.nv, older, newer)
		if !strings.HasPrefix(w.Note, tt.want) {
			t.Errorf("%s %s -> %s: note %q, want it to start %q", tt.role, tt.ov, tt.nv, w.Note, tt.want)
		}
	}
}

// TestUnlikeValues: values of different kinds are no alternatives for one
// thing, however the claim parser paired them; an explicit change of a role
// the claim tables know is taken at its word.
func TestUnlikeValues(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		rel  claim.Relation
		role string
		a, b string
		want bool
	}{
		{claim.Supersedes, "database", "supabase", "testing", true}, // an -ing form names no tool
		{claim.Supersedes, "block", "shiki", "properly", true},      // a role no table knows
		{claim.Supersedes, "frontend framework", "gameplanpro", "3001", true},
		{claim.Contradicts, "hosting", "push", "github pages", true}, // no change said
		{claim.Supersedes, "hosting", "fly", "render", false},        // a known role's change, in its words
		{claim.Supersedes, "ci", "jenkins", "drone", false},
		{claim.Supersedes, "auth method", "cookies", "jwt", false},
		{claim.Supersedes, "database", "postgres", "string", false}, // no -ing form of a word
		{claim.Supersedes, "database", "supabase", "postgres", false},
		{claim.Supersedes, "timeout", "30s", "45", false}, // two quantities
		{claim.Supersedes, "memory limit", "512m", "1024", false},
		{claim.Supersedes, "version:node", "latest", "20.11", false},
		{claim.Contradicts, "port", "8080", "3000", false},
		{claim.Contradicts, "queue", "kelbo", "quillet", false}, // two made-up names
		// A noun made of a verb is never a thing chosen, but in a role of
		// identifiers it is a name.
		{claim.Supersedes, "hosting", "deployment", "render", true},
		{claim.Supersedes, "orm", "prisma", "management", true},
		{claim.Supersedes, "auth method", "jwt", "sessions", false},
		{claim.Supersedes, "hosting", "heroku", "functions", false},
		{claim.Supersedes, "hosting", "deployments", "kelbo", true},
		{claim.Supersedes, "queue name", "deployments", "kelbo", false},
		// A phrase of common words fills no table's role the table does
		// not list; a tool listed by several words does.
		{claim.Supersedes, "frontend framework", "backend url", "react", true},
		{claim.Supersedes, "hosting", "cloud run", "fly.io", false},
		{claim.Supersedes, "test runner", "go test", "ginkgo", false},
		{claim.Supersedes, "database", "postgres", "cloud sql", false},
		{claim.Supersedes, "hosting", "heroku", "app runner", false},
		{claim.Supersedes, "http client", "axios", "form-data", false},
		// A file is no alternative to a folder or a command; a file to a
		// file, or to itself moved into a folder, is.
		{claim.Supersedes, "path", "package.json", "x-demo/frontend", true},
		{claim.Supersedes, "path", "prp.md", "/start-development", true},
		{claim.Supersedes, "path", "src/app.js", "src/main.ts", false},
		{claim.Supersedes, "path", ".eslintrc", "eslint.config.js", false},
		{claim.Supersedes, "path", "build.gradle", "build.gradle.kts", false},
		{claim.Supersedes, "path", "src/app.svelte", "src/app.vue", false},
		{claim.Supersedes, "path", "src/utils.ts", "src/utils/", false},
		{claim.Supersedes, "path", "dockerfile", "docker-compose.yml", false},
		{claim.Supersedes, "path", "/v1/mixed_people/search", "/api/v1/mixed_people/api_search", false},
		{claim.Supersedes, "path", "docs/v1.2", "docs/v1.3", false},
		// A package named by English words is a package.
		{claim.Supersedes, "http client", "axios", "form-data", false},
	} {
		if got := unlike(tt.rel, tt.role, tt.a, tt.b); got != tt.want {
			t.Errorf("unlike(%v, %q, %q, %q) = %v, want %v", tt.rel, tt.role, tt.a, tt.b, got, tt.want)
		}
	}
	// Nouns in -tion, -sion and -ity name things chosen too; a word with
	// no English base is a name.
	for v, want := range map[string]bool{"deployment": true, "deployments": true, "readiness": true, "management": true,
		"integration": false, "sessions": false, "element": false, "fragment": false, "kelbment": false} {
		if got := actionNoun(v); got != want {
			t.Errorf("actionNoun(%q) = %v, want %v", v, got, want)
		}
	}
}

// A message that states a change as a line labelled before and the next
// labelled after warns with both lines, listed with it; the memory stays
// listed as it is. A change the excerpt leaves out, or lines in the wrong
// order, warn of nothing. The texts are made up.
func TestLabelledChangeWarns(t *testing.T) {
	t.Parallel()
	text := "Update the worker's start command in the dashboard:\n- Current: `python worker.py`\n- To: `./run-worker.sh`\n\nThe script downloads the model first."
	ev := store.Event{ID: 41, Time: day, Type: store.TypeAgentResponse, Project: proj, Text: text}
	it := messageItem(ev, "Update the worker's start command in the dashboard: - Current: `python worker.py` …")
	ws := labelledWarnings([]Item{it}, nil, map[[2]int64]bool{})
	if len(ws) != 1 || ws[0].A.Title != "`python worker.py`" || ws[0].B.Title != "`./run-worker.sh`" || !ws[0].inItem {
		t.Fatalf("warnings %+v, want python worker.py became ./run-worker.sh", ws)
	}
	r := Render(current([]Item{it}, ws), ws, Blocks{}, 1500*charsPerToken)
	if r.Warnings != 1 || !slices.Equal(r.Shown, []string{it.CID}) {
		t.Errorf("shown %v with %d warnings, want the message and its warning:\n%s", r.Shown, r.Warnings, r.Text)
	}

	other := messageItem(ev, "The script downloads the model first.")
	if ws := labelledWarnings([]Item{other}, nil, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("a change the excerpt leaves out warned: %+v", ws)
	}
	ev.Text = "- To: `./run-worker.sh`\n- Current: `python worker.py`"
	if ws := labelledWarnings([]Item{messageItem(ev, ev.Text)}, nil, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("lines in the wrong order warned: %+v", ws)
	}
	// A value of a few letters is inside any excerpt's words ("2030"), so
	// it shows nothing; a user's lines ask for a change (review 207).
	ev.Text = "Было: 30\nСтало: 45"
	if ws := labelledWarnings([]Item{messageItem(ev, "Планы на 2030 и 2045 годы")}, nil, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("a short value matched inside a word: %+v", ws)
	}
	ev.Text, ev.Type = text, store.TypeUserPrompt
	if ws := labelledWarnings([]Item{messageItem(ev, it.Excerpt)}, nil, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("a user's lines warned: %+v", ws)
	}
}

// TestInlineChangeOfManyTheAskedOne: a summary stating several changes
// inside its lines warns of the one whose line names what the prompt asks, wherever it stands in the list, a value shown
// before a mark ("56px)") as shown; of none when the prompt names something
// specific no change's line names; of the first when it names nothing
// specific. The texts are made up.
func TestInlineChangeOfManyTheAskedOne(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	flat := "Kiln dashboard redone:\n- Compact 28px round door button (was oversized 56px)\n- Glaze queue client changed from `kelbo-mq` to `plenk-mq`\n- Refresh bumped 250ms → 300ms"
	for _, c := range []struct{ text, prompt, want string }{
		{flat, "how big is the kiln door button now?", "oversized 56px"},
		{flat, "which glaze queue client does it use?", "`kelbo-mq`"},
		{flat, "what colour is the kiln dashboard logo?", ""},
		{flat, "what did we change?", "oversized 56px"},
		// A value of three characters ("3px") is shown as one of more is.
		{"Kiln header redone:\n- Glaze gauge: reduced from 12px thick to a thin 3px track", "how thick is the glaze gauge now?", "12px"},
		// One change whose line names nothing specific the prompt asks
		// is not what it asks either.
		{"Kiln header redone:\n- Glaze gauge: reduced from 12px thick to a thin 3px track", "which kiln firmware version is flashed?", ""},
	} {
		ev := store.Event{ID: 42, Time: day, Type: store.TypeAgentResponse, Project: proj, Text: c.text}
		it := messageItem(ev, c.text)
		cs, _, err := newTermCounts(db, "").weigh(context.Background(), concepts(c.prompt, nil), false)
		if err != nil {
			t.Fatal(err)
		}
		it.promptConcepts = cs
		ws := labelledWarnings([]Item{it}, nil, map[[2]int64]bool{})
		if c.want == "" && len(ws) != 0 || c.want != "" && (len(ws) != 1 || ws[0].A.Title != c.want) {
			t.Errorf("%q: warnings %+v, want the change from %q", c.prompt, ws, c.want)
		}
	}
}

// A memory of Claude's that states a change inside a line ("from A to B",
// "A → B") warns with both values, listed with it, as a labelled change
// does: its excerpt may show the older value beside the newer. A user's
// line asks for the change, and a tool's output decides nothing. The texts
// are made up.
func TestInlineChangeWarns(t *testing.T) {
	t.Parallel()
	text := "Fixed the kiln chart contrast:\n- Changed the label text from `#94a3b8` to `#1e293b` (much darker)\n- Grid lines are thicker."
	ev := store.Event{ID: 42, Time: day, Type: store.TypeAgentResponse, Project: proj, Text: text}
	it := messageItem(ev, text)
	ws := labelledWarnings([]Item{it}, nil, map[[2]int64]bool{})
	if len(ws) != 1 || ws[0].A.Title != "`#94a3b8`" || ws[0].B.Title != "`#1e293b`" || !ws[0].inItem {
		t.Fatalf("warnings %+v, want #94a3b8 became #1e293b", ws)
	}
	for _, kind := range []string{store.TypeUserPrompt, store.TypeToolObservation} {
		ev.Type = kind
		if ws := labelledWarnings([]Item{messageItem(ev, text)}, nil, map[[2]int64]bool{}); len(ws) != 0 {
			t.Errorf("a %s warned: %+v", kind, ws)
		}
	}
	// A background agent's report, which Claude Code delivers as a user
	// message, is a subagent's.
	note := store.Event{ID: 44, Time: day, Type: store.TypeUserPrompt, Project: proj,
		Text: "<task-notification>\n<status>completed</status>\n<result>" + text + "</result>\n</task-notification>"}
	if ws := labelledWarnings([]Item{messageItem(note, text)}, nil, map[[2]int64]bool{}); len(ws) != 1 {
		t.Errorf("a background agent's report: %+v, want one warning", ws)
	}
	// A subagent's report and a plan Claude presented are Claude's words;
	// so is an entry distilled from them.
	for _, tool := range []string{"Task", "ExitPlanMode"} {
		run := store.Event{ID: 43, Time: day, Type: store.TypeToolObservation, Project: proj, Text: text,
			Payload: []byte(`{"tool":"` + tool + `"}`)}
		if ws := labelledWarnings([]Item{messageItem(run, text)}, nil, map[[2]int64]bool{}); len(ws) != 1 {
			t.Errorf("a %s run's change: %+v, want one warning", tool, ws)
		}
	}
	ent := Item{CID: "mem:e1", Kind: KindEntry, Time: day, Text: "Label text darkened", Quote: "Changed the label text from `#94a3b8` to `#1e293b`",
		Excerpt: "Changed the label text from `#94a3b8` to `#1e293b`", events: []int64{42}, entry: store.Entry{ID: 7}}
	if ws := labelledWarnings([]Item{ent}, nil, map[[2]int64]bool{}); len(ws) != 1 || ws[0].A.CID != ent.CID {
		t.Errorf("an entry's change: %+v, want one warning", ws)
	}
	// The change an earlier warning already holds to an older memory is
	// told once: named by the memory itself, or by an entry quoting it.
	ev.Type = store.TypeAgentResponse
	it = messageItem(ev, text)
	for _, b := range []Item{it, ent} {
		earlier := []Warning{{Kind: "superseded", B: Memory{CID: b.CID}}}
		if ws := labelledWarnings([]Item{it, ent}, earlier, map[[2]int64]bool{}); len(ws) != 0 {
			t.Errorf("a change already warned of (by %s) warned again: %+v", b.CID, ws)
		}
	}
}

func TestSameValue(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{`model="gpt-4o-mini"`, "gpt-4o-mini", true},
		{"`kiln-v2`", "kiln-v2", true},
		{"localhost:5173", "5173", true},
		{"gpt-4o-mini", "gpt-4.1-nano", false},
		{"10.0.0.5:5432", "5432", false}, // an address is no name it is set to
		{"https://a.example", "https://b.example", false},
		{"db:5432", "cache:5432", false}, // two names, two things (review 207)
		{"ci-base:3", "ci-slim:3", false},
		{"timeout=30", "retries=30", false},
		{"timeout=30", "TIMEOUT=30", true},
	} {
		if got := sameValue(tt.a, tt.b); got != tt.want {
			t.Errorf("sameValue(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// Two tellings of one change replace nothing: the plan to move from one
// database to another and the report that it moved do not warn against each
// other, while a statement of the old database alone does. The texts are
// made up.
func TestChangeToldTwiceIsNoConflict(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	plan := say(t, db, "plan", day.AddDate(0, 0, -4), "What is the plan for the orders data?",
		"Based on my analysis of the current MongoDB implementation, here's a comprehensive plan to migrate to Railway Postgres + Prisma:")
	done := say(t, db, "done", day.AddDate(0, 0, -1), "Why the move?", "**Strengths:**\n- Remove MongoDB vendor lock-in\n- Direct Postgres control via Prisma")
	ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(plan[1], plan[1].Text), messageItem(done[1], done[1].Text)})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if w.A.CID == store.EventCID(plan[1].ID) {
			t.Errorf("the plan is warned of as replaced by its own report: %+v", w)
		}
	}

	// The old value stated alone, or beside the new one named as an
	// option or for another thing, is the stale side (review 207).
	for _, older := range []string{
		"The orders data lives in MongoDB.",
		"We use MongoDB for the orders data; we could consider Postgres later.",
		"The orders data lives in MongoDB. Analytics runs on Postgres.",
	} {
		db := storetest.Open(t)
		filler(t, db)
		old := say(t, db, "old", day.AddDate(0, 0, -4), "Where do orders live?", older)
		done := say(t, db, "done", day.AddDate(0, 0, -1), "Is the orders move done?", "Done: we moved the orders data from MongoDB to Postgres.")
		wantReplaced(t, db, []Item{messageItem(old[1], old[1].Text), messageItem(done[1], done[1].Text)}, store.EventCID(old[1].ID), store.EventCID(done[1].ID))
	}
}

// A side of a warning shows the sentence that gives the value for the
// warning's role, not the first that names it for something else.
func TestStatementShowsTheRolesSentence(t *testing.T) {
	text := "- **Speech priority:** Kelbo > Quillet > espeak\n- Both systems will use **Kelbo only**"
	s := said{Item: Item{Kind: store.TypeAgentResponse, Excerpt: text}, claims: claim.Parse(text)}
	roles := map[string]bool{}
	for _, c := range s.claims {
		if c.Value == "kelbo" {
			roles[c.Role] = true
		}
	}
	if !roles["system"] || len(roles) < 2 {
		t.Fatalf("claims %+v: want kelbo in two roles, one of them system", s.claims)
	}
	if got := statement(s, "system", "kelbo").Title; got != "Both systems will use **Kelbo only**" {
		t.Errorf("statement = %q", got)
	}
}

// What a program printed into a prompt decides nothing: a claim is read
// from the user's own line above the paste only.
func TestPastedOutputIsNoClaim(t *testing.T) {
	text := "the deploy of the ledger fails again:\n" +
		"21:07:51.289 Running build in iad1\n" +
		"21:07:54.642 Running \"kelbo build\"\n" +
		"21:08:21.372 ./src/api/users/route.ts:373:7\n" +
		"21:08:21.373 Type error: Type 'Reply' is not assignable to type 'Quillet | Kelbo'.\n" +
		"21:08:21.451 Error: Command \"npm run build\" exited with 1\n"
	ev := store.Event{ID: 1, Type: store.TypeUserPrompt, Text: text}
	it := messageItem(ev, text)
	if got := claimSource(it); got != "the deploy of the ledger fails again:\n" {
		t.Errorf("claimSource = %q, want the user's own line", got)
	}
	plain := messageItem(store.Event{ID: 2, Type: store.TypeUserPrompt, Text: "We moved the ledger to Kelbo."}, "We moved the ledger to Kelbo.")
	if got := claimSource(plain); got != "We moved the ledger to Kelbo." {
		t.Errorf("claimSource of a prompt without a paste = %q", got)
	}
}

// A shown tool report naming the value a later change replaced is what the
// change made stale: it is the older side, though it decided nothing. A
// report naming the new value too, and a path, are not. The texts are
// made up.
func TestShownReportOfReplacedValueWarns(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	appendRun := func(session string, at time.Time, text string) store.Event { return toolRun(t, db, session, at, text) }
	stale := appendRun("look", day.AddDate(0, 0, -2), "Read: package.json\nDependencies:\n- kelbo-av@~1.2.0 - primary audio playback library")
	both := appendRun("both", day.AddDate(0, 0, -1), "Read: MIGRATION.md\nkelbo-av and kelbo-audio compared side by side")
	moved := say(t, db, "move", day, "Move the player?", "Key changes in `player.ts`:\n\n- `kelbo-av` → `kelbo-audio`")
	sel := []Item{messageItem(moved[1], moved[1].Text), messageItem(both, both.Text), messageItem(stale, stale.Text)}
	ws, err := Warnings(ctx, db, defaults(), sel)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].Kind != "superseded" || ws[0].A.CID != store.EventCID(stale.ID) || ws[0].B.CID != store.EventCID(moved[1].ID) {
		t.Fatalf("want the report superseded by the change; got %+v", ws)
	}
	if !strings.Contains(ws[0].A.Title, "kelbo-av@~1.2.0") || strings.Contains(ws[0].A.Title, "package.json") {
		t.Errorf("the older side shows %q, want the report's line naming the old value", ws[0].A.Title)
	}

	// A path moved is no replacement of a file a tool run touched.
	run := appendRun("edit", day.AddDate(0, 0, 1), "Edit: src/kelbo/player.ts")
	mv := say(t, db, "mv", day.AddDate(0, 0, 2), "Move it?", "We moved the player from src/kelbo/player.ts to src/audio/player.ts.")
	if ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(mv[1], mv[1].Text), messageItem(run, run.Text)}); err != nil || slices.ContainsFunc(ws, func(w Warning) bool { return w.A.CID == store.EventCID(run.ID) }) {
		t.Errorf("a path's tool run warned: %+v %v", ws, err)
	}
}

// A host a later message says it replaced ("instead of localhost:3000")
// is a name: a shown item pointing at it is what the change made stale,
// though the host was read from a host and port and has no mark of a
// name. The texts are made up.
func TestShownItemOfReplacedHostWarns(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	stale := say(t, db, "why", day.AddDate(0, 0, -1), "Why do reset mails link to my laptop?", "The reset link falls back to `http://localhost:3000` because `KELBO_APP_URL` is unset.")
	fixed := say(t, db, "fix", day, "Set it to quorvex.io", "Done: reset links now point to `https://app.quorvex.io/reset` instead of `localhost:3000`.")
	sel := []Item{messageItem(fixed[1], fixed[1].Text), messageItem(stale[1], stale[1].Text)}
	ws, err := Warnings(ctx, db, defaults(), sel)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].Kind != "superseded" || ws[0].A.CID != store.EventCID(stale[1].ID) || ws[0].B.CID != store.EventCID(fixed[1].ID) {
		t.Fatalf("want the fallback superseded by the new host; got %+v", ws)
	}
	// A word a phrase makes the value of a role no table knows is no name.
	plain := say(t, db, "plain", day.AddDate(0, 0, 1), "And the menu?", "Navigation now uses zarkel instead of quillet.")
	older := say(t, db, "side", day.AddDate(0, 0, -3), "Menu?", "The menu shows quillet: on the left, for now.")
	if ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(plain[1], plain[1].Text), messageItem(older[1], older[1].Text)}); err != nil || len(ws) != 0 {
		t.Errorf("a plain word replaced warned: %+v %v", ws, err)
	}
	// A host of a plain word warns only an item naming it as a host.
	moved := say(t, db, "api", day.AddDate(0, 0, 2), "Where does the frontend call?", "The frontend now calls `https://api.quorvex.io` instead of `backend:8080`.")
	prose := say(t, db, "tokens", day.AddDate(0, 0, -4), "Who checks tokens?", "The backend validates session tokens on every request.")
	url := say(t, db, "url", day.AddDate(0, 0, -5), "Where is it?", "The frontend posts to `http://backend:8080/api` in compose.")
	ws, err = Warnings(ctx, db, defaults(), []Item{messageItem(moved[1], moved[1].Text), messageItem(prose[1], prose[1].Text), messageItem(url[1], url[1].Text)})
	if err != nil || len(ws) != 1 || ws[0].A.CID != store.EventCID(url[1].ID) {
		t.Errorf("want the URL naming the host backend warned, not the prose saying backend: %+v %v", ws, err)
	}
}

// TestAnswerShownWithAPromptReplacesAnEndpoint: Claude's answer shown under
// the user's report of a failure says the endpoint is another (not the
// one an older item names): the answer is the newer side, cited by the
// prompt it is shown with. A tool run that touched a file is still no
// statement of it. The texts are made up.
func TestAnswerShownWithAPromptReplacesAnEndpoint(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	older := say(t, db, "api", day.AddDate(0, 0, -1), "Which kelbo API do we call?", "Our `find_glaze` tool calls the search API (`/v2/glaze_people/search`).")
	report := say(t, db, "fail", day, "Error looking up glaze: kelbo API error: 403 Forbidden",
		"Two issues found: 1. The endpoint URL should be `/api/v2/glaze_people/api_search` (not `/v2/glaze_people/search`) 2. It needs a master key.")
	prompt := messageItem(report[0], report[0].Text)
	prompt.Context, prompt.ContextExcerpt = &report[1], report[1].Text
	ws, err := Warnings(ctx, db, defaults(), []Item{prompt, messageItem(older[1], older[1].Text)})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].Kind != "superseded" || ws[0].A.CID != store.EventCID(older[1].ID) || ws[0].B.CID != prompt.CID ||
		!strings.Contains(ws[0].B.Title, "api_search") {
		t.Fatalf("want the older endpoint superseded by the answer shown with the report; got %+v", ws)
	}
	// What the answer changed is not looked up in the store: it is an
	// aside to what matched.
	say(t, db, "added", day.AddDate(0, 0, -3), "Add the service?", "Added `kelbo_service` as a direct dependency for the player.")
	crash := say(t, db, "crash", day.AddDate(0, 0, 1), "Execution failed for task ':app:compileDebugKotlin'.",
		"The `MainActivity` was extending `KelboServiceActivity` from the removed `kelbo_service` package. Switched it back.")
	p2 := messageItem(crash[0], crash[0].Text)
	p2.Context, p2.ContextExcerpt = &crash[1], crash[1].Text
	if ws, err := Warnings(ctx, db, defaults(), []Item{p2}); err != nil || len(ws) != 0 {
		t.Errorf("a shown answer's removal was looked up in the store: %+v %v", ws, err)
	}
	// A tool run touching a file is no statement of it.
	files := say(t, db, "files", day.AddDate(0, 0, 1), "Which page?", "The page is `src/glaze/list.tsx` (not `src/glaze/grid.tsx`).")
	grid := toolRun(t, db, "grid", day.AddDate(0, 0, -2), "Read: src/glaze/grid.tsx\n1\texport function Grid() {}")
	if ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(files[1], files[1].Text), messageItem(grid, grid.Text)}); err != nil || len(ws) != 0 {
		t.Errorf("a run of a file named instead of another warned: %+v %v", ws, err)
	}
}

// A host is named as one after a scheme or "@", or before a port; a
// word that only shares its letters, or ends a label, is not.
func TestNamesHost(t *testing.T) {
	for _, tc := range []struct {
		text, host string
		want       bool
	}{
		{"falls back to `http://localhost:3000` now", "localhost", true},
		{"the frontend posts to `http://backend:8080/api`", "backend", true},
		{"curl http://backend/api", "backend", true},
		{"curl http://backend.", "backend", true},
		{"ssh deploy@backend and restart it", "backend", true},
		{"backend:8080 is down", "backend", true},
		{"backend: validates session tokens", "backend", false},
		{"deployed the backend: all checks green", "backend", false},
		{"posts to `http://backend-v2.internal/api` now", "backend", false},
		{"posts to `http://backend.internal/api` now", "backend", false},
		{"the backend validates tokens", "backend", false},
		{"http://mybackend:80", "backend", false},
		{"http://backend", "", false},
	} {
		if got := namesHost(tc.text, tc.host); got != tc.want {
			t.Errorf("namesHost(%q, %q) = %v, want %v", tc.text, tc.host, got, tc.want)
		}
	}
}

// The older side looked up in the store is read from what its author
// wrote: a prompt's pasted log names values no one chose. The texts are
// made up.
func TestReplacedSkipsPastedOutput(t *testing.T) {
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "paste", day.AddDate(0, 0, -2), "the nightly import died again:\n"+
		"21:07:51.289 INFO starting import\n"+
		"21:07:52.120 INFO the job queue runs on Kelbo\n"+
		"21:07:54.642 WARN retrying batch 3\n"+
		"21:08:21.451 ERROR import exited with 1\n", "Looking at it.")
	nw := say(t, db, "move", day, "Did the queue move?", "We moved the job queue from Kelbo to Quillet.")
	ws, err := Warnings(context.Background(), db, defaults(), []Item{messageItem(nw[1], nw[1].Text)})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 0 {
		t.Errorf("a pasted log line was taken for a statement: %+v", ws)
	}
}

// toolRun stores a tool run of session at time at and returns it as stored.
func toolRun(t *testing.T, db *store.DB, session string, at time.Time, text string) store.Event {
	t.Helper()
	ctx := context.Background()
	ev := store.Event{Time: at, Type: store.TypeToolObservation, SessionID: session, Project: proj, Text: text, DedupeKey: session + ":0"}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, ev); return err }); err != nil {
		t.Fatal(err)
	}
	got, err := db.Read().Events(ctx, store.EventFilter{SessionID: session})
	if err != nil || len(got) != 1 {
		t.Fatal(got, err)
	}
	return got[0]
}

// A shown item naming a piece of code a later message says was removed
// shows it as it was: the removal supersedes it. Not when the older item
// removes it itself, nor for a removal of no one name ("the cache"), nor
// for a name only not to be used. The texts are made up.
func TestShownCodeOfRemovedNameWarns(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	run := func(session string, at time.Time, text string) store.Event { return toolRun(t, db, session, at, text) }
	code := run("read", day.AddDate(0, 0, -2), "Read: src/quorvex/search.js\n  const hits = fetchQuorvexStub(query) // canned results until the index is up, as in v2.1")
	warns := func(newer string) []Warning {
		t.Helper()
		nw := say(t, db, "s"+fmt.Sprint(len(newer)), day, "Is the stub still there?", newer)
		ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(nw[1], nw[1].Text), messageItem(code, code.Text)})
		if err != nil {
			t.Fatal(err)
		}
		return ws
	}
	first := say(t, db, "first", day, "Drop the stub?", "Completely removed `fetchQuorvexStub()` from `search.js`; searches go to the live index.")
	second := say(t, db, "second", day, "Drop the stub?", "Removed `fetchQuorvexStub()` for good.")
	ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(first[1], first[1].Text), messageItem(second[1], second[1].Text), messageItem(code, code.Text)})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].Kind != "superseded" || ws[0].A.CID != store.EventCID(code.ID) || !strings.Contains(ws[0].Note, "fetchQuorvexStub() was removed") {
		t.Fatalf("want the read superseded by the removal, the name as written; got %+v", ws)
	}
	// A setting written with its value is no mark of code: "enabled:
	// true" is said of many things.
	said := say(t, db, "said", day.AddDate(0, 0, -2), "Cache?", "The glaze cache in `cache.yml` has `enabled: true`.")
	fix := say(t, db, "fix", day, "Scheduler?", "Removed `enabled: true` from the oven block in `scheduler.yml`.")
	if ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(fix[1], fix[1].Text), messageItem(said[1], said[1].Text)}); err != nil || len(ws) != 0 {
		t.Errorf("a removed setting warned a message about another file: %+v %v", ws, err)
	}
	plain := run("plain", day.AddDate(0, 0, -2), "Read: src/quorvex/upload.js\n  // quorvex uploads: backoff, then retry twice")
	nw := say(t, db, "plainword", day, "Retries?", "Removed `backoff` from the upload path.")
	if ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(nw[1], nw[1].Text), messageItem(plain, plain.Text)}); err != nil || len(ws) != 0 {
		t.Errorf("a removal named by a plain word warned: %+v %v", ws, err)
	}
	for _, newer := range []string{
		"I haven't removed `fetchQuorvexStub()` yet.",
		"Should we remove `fetchQuorvexStub()`?",
		"Removed `fetchQuorvexStub()` and regenerated it from the schema.",
		"Removed `fetchquorvexstub` from the docs only.",
		"Removed the cache from the search path.",
		"Removed `v2.1` from the test matrix.",
		"Don't call `fetchQuorvexStub()` from the handlers.",
	} {
		if ws := warns(newer); len(ws) != 0 {
			t.Errorf("%q warned: %+v", newer, ws)
		}
	}
	gone := say(t, db, "gone", day.AddDate(0, 0, -1), "Drop the stub?", "Removed `fetchQuorvexStub` from the search path.")
	edit := run("edit", day.AddDate(0, 0, -1), "Edit: src/quorvex/search.js\n- const hits = fetchQuorvexStub(query)\n+ const hits = index.search(query)")
	nw = say(t, db, "again", day, "Gone?", "Removed `fetchQuorvexStub()` everywhere now.")
	for _, older := range []Item{messageItem(gone[1], gone[1].Text), messageItem(edit, edit.Text)} {
		ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(nw[1], nw[1].Text), older})
		if err != nil || slices.ContainsFunc(ws, func(w Warning) bool { return w.B.CID == store.EventCID(nw[1].ID) }) {
			t.Errorf("an older removal of the same name warned: %q: %+v %v", older.Excerpt, ws, err)
		}
	}
}

// A statement removing two names warns each older item naming one, as a
// warning of its own: the second item shown is as stale as the first. The
// texts are made up.
func TestEachRemovedNameWarnsItsItem(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	read := toolRun(t, db, "read", day.AddDate(0, 0, -2), "Read: lib/main.dart\n  await KelboBackground.init(); // before runApp")
	plan := say(t, db, "plan", day.AddDate(0, 0, -1), "Why no sound?", "The player needs `kelbo_background` tags on every source; we need to set them with each `setSource()`.")
	gone := say(t, db, "gone", day, "Fixed?", "Fixed:\n- Removed `KelboBackground.init()` from `main.dart`\n- Removed `kelbo_background` from `pubspec.yaml`")
	ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(gone[1], gone[1].Text), messageItem(plan[1], plan[1].Text), messageItem(read, read.Text)})
	if err != nil {
		t.Fatal(err)
	}
	older := map[string]bool{}
	for _, w := range ws {
		if w.Kind == "superseded" && w.B.CID == store.EventCID(gone[1].ID) {
			older[w.A.CID] = true
		}
	}
	if !older[store.EventCID(read.ID)] || !older[store.EventCID(plan[1].ID)] || len(ws) != 2 {
		t.Errorf("want the read and the plan each superseded by the removal; got %+v", ws)
	}
}

// Two newer items telling one change of one older item (a heading and a
// sentence) warn once: the second warning would say the same again at the
// cost of a memory's room; whether the older names the value as written or
// pinned to a version. The texts are made up.
func TestOneChangeToldOnce(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	for _, older := range []string{
		"The reader's playback hook is built on `kelbo-av@~16.0.8`, the primary audio library.",
		"The reader's playback hook is built on kelbo-av.",
	} {
		old := say(t, db, "old"+fmt.Sprint(len(older)), day.AddDate(0, 0, -2), "What plays the audio?", older)
		moved := say(t, db, "moved"+fmt.Sprint(len(older)), day.AddDate(0, 0, -1), "Audio?", "Moved the hook from kelbo-av to kelbo-audio, and the tests pass.")
		head := say(t, db, "head"+fmt.Sprint(len(older)), day, "Audio?", "## What was done\n\n### Audio refactor (kelbo-av → kelbo-audio)\n- the hook was rewritten")
		ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(head[1], head[1].Text), messageItem(moved[1], moved[1].Text), messageItem(old[1], old[1].Text)})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, w := range ws {
			if w.Kind == "superseded" && w.A.CID == store.EventCID(old[1].ID) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%q: want the change told once of the older item; got %d: %+v", older, n, ws)
		}
	}
}

// One statement replacing a name and removing another warns the older item
// naming each, whichever the parser lists first, and a statement removing
// many warns at most perNewer items: one list of changes does not take every
// warning's place. The texts are made up.
func TestOneStatementWarnsEachNameItChanged(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	cid := func(ev store.Event) string { return store.EventCID(ev.ID) }
	older := func(session, text string) Item {
		ev := toolRun(t, db, session, day.AddDate(0, 0, -2), text)
		return messageItem(ev, ev.Text)
	}
	// warnings shows the newer message of a say() first, then the older items.
	warnings := func(newer []store.Event, shown ...Item) []Warning {
		t.Helper()
		ws, err := Warnings(ctx, db, defaults(), append([]Item{messageItem(newer[1], newer[1].Text)}, shown...))
		if err != nil {
			t.Fatal(err)
		}
		return ws
	}
	av := older("av", "Read: package.json\n  \"kelbo-av\": \"~1.2.0\" // the player")
	init := older("init", "Read: lib/main.dart\n  await kelbo.init(); // before runApp")
	both := say(t, db, "both", day, "Audio?", "Switched from kelbo-av to kelbo-audio. Removed `kelbo.init()` from `main.dart`.")
	ws := warnings(both, av, init)
	warned := map[string]bool{}
	for _, w := range ws {
		warned[w.A.CID] = true
	}
	if !warned[av.CID] || !warned[init.CID] {
		t.Errorf("want the package and the call each warned; got %+v", ws)
	}

	// Once a name shown was warned, the store is not searched for the
	// statements the other changes replaced: what is shown comes first.
	say(t, db, "queue", day.AddDate(0, 0, -3), "Queue?", "The job queue runs on zorvix-mq.")
	two := say(t, db, "two", day, "Audio?", "Switched from kelbo-av to kelbo-audio. Moved the job queue from zorvix-mq to plenk-mq.")
	ws = warnings(two, av)
	if len(ws) != 1 || ws[0].A.CID != av.CID {
		t.Errorf("want the shown package warned alone; got %+v", ws)
	}
	owt := say(t, db, "owt", day, "Audio?", "Moved the job queue from zorvix-mq to plenk-mq. Switched from kelbo-av to kelbo-audio.")
	ws = warnings(owt, av)
	if len(ws) != 1 || ws[0].A.CID != av.CID {
		t.Errorf("the change told first decided: want the shown package warned alone; got %+v", ws)
	}
	// Three replacements of names shown warn perNewer of them.
	shownNames := []Item{av, older("mq", "Read: queue.yaml\n  broker: zorvix-mq"), older("db", "Read: db.yaml\n  engine: quillet-db")}
	three := say(t, db, "three", day, "Stack?", "Switched from kelbo-av to kelbo-audio.\nMoved the job queue from zorvix-mq to plenk-mq.\nMigrated the ledger from quillet-db to tarn-db.")
	ws = warnings(three, shownNames...)
	if len(ws) != perNewer {
		t.Errorf("want %d warnings of one statement's replacements; got %+v", perNewer, ws)
	}

	var sel []Item
	var names []string
	for k := range 4 {
		name := fmt.Sprintf("kelbo_step%d()", k)
		names = append(names, "- Removed `"+name+"` from `steps.dart`")
		sel = append(sel, older(fmt.Sprint("step", k), fmt.Sprintf("Read: lib/steps.dart line %d\n  %s; // step %d", k, name, k)))
	}
	many := say(t, db, "many", day, "Steps?", "Done:\n"+strings.Join(names, "\n"))
	ws = warnings(many, sel...)
	n := 0
	for _, w := range ws {
		if w.B.CID == cid(many[1]) {
			n++
		}
	}
	if n != perNewer {
		t.Errorf("want %d warnings of one statement's removals; got %d: %+v", perNewer, n, ws)
	}
}

// Code a shown message removed that no shown item names is looked up in
// the store: the sentence of Claude's latest message of an earlier turn
// that names it as it stood (claim.Settled) is the warning's older side,
// and the newer memory's line keeps room for the warning (kept). The turn
// of the removal tells its own change ("only plays one source"), a user's
// lines ask about it or for a change, and a plan to remove it tells the
// change, not the state before it. The texts are made up.
func TestRemovedCodeLooksUpWhereItStood(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	added := say(t, db, "added", day.AddDate(0, 0, -3), "The narration has no tags",
		"Later we may drop kelbo_service. Added `kelbo_service` as a direct dependency for the tag import.")
	say(t, db, "asked", day.AddDate(0, 0, -2), "Is `kelbo_service` what breaks the player", "I'll remove `kelbo_service` once the player works.")
	plan := say(t, db, "gone", day, "Two players crash the app", "`kelbo_service` only plays one source at a time.")
	gone := appendSaid(t, db, plan[1], "Removed `kelbo_service` from `pubspec.yaml`; the two players run on their own.")
	ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(gone, gone.Text)})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].A.CID != store.EventCID(added[1].ID) || ws[0].B.CID != store.EventCID(gone.ID) || !ws[0].kept ||
		ws[0].A.Title != "Added `kelbo_service` as a direct dependency for the tag import." {
		t.Fatalf("want the removal to supersede the sentence where the code was added, with room kept; got %+v", ws)
	}
	// A session with no prompt before the removal: its own plan is no
	// statement of how the code stood.
	player := say(t, db, "player", day.AddDate(0, 0, -3), "Which player?", "Added `kelbo_player` as the audio player.")
	solo := appendSaid(t, db, store.Event{Time: day.AddDate(0, 0, 1), SessionID: "solo", Project: proj}, "`kelbo_player` only plays one source at a time.")
	gone = appendSaid(t, db, solo, "Removed `kelbo_player` from `pubspec.yaml`.")
	if ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(gone, gone.Text)}); err != nil || len(ws) != 1 || ws[0].A.CID != store.EventCID(player[1].ID) {
		t.Errorf("a prompt-less session's own plan taken for how the code stood: %+v %v", ws, err)
	}
	// A session imported after the removal was stored, older than it.
	gone = say(t, db, "gone-late", day.AddDate(0, 0, -1), "Crash?", "Removed `kelbo_late` from `pubspec.yaml`.")[1]
	late := appendSaid(t, db, store.Event{Time: day.AddDate(0, 0, -4), SessionID: "imported", Project: proj}, "Added `kelbo_late` for the tag import.")
	if late.ID < gone.ID {
		t.Fatalf("the imported session was stored first (%d < %d): the test proves nothing", late.ID, gone.ID)
	}
	if ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(gone, gone.Text)}); err != nil || len(ws) != 1 || ws[0].A.CID != store.EventCID(late.ID) {
		t.Errorf("a session stored after the removal, said before it, not read: %+v %v", ws, err)
	}
	// Nothing settled names it before the removal's turn: no warning.
	lone := say(t, db, "lone", day.AddDate(0, 0, 2), "Tidy up", "Removed `quillet_cache.warm()` from `boot.go`.")
	if ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(lone[1], lone[1].Text)}); err != nil || len(ws) != 0 {
		t.Errorf("a removal with no earlier statement warned: %+v %v", ws, err)
	}
}

// The store is asked where removed code stood perNewer times a prompt at
// most, however many shown messages remove code: each ask is a search.
func TestRemovedCodeLookupsCapped(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	var sel []Item
	for i, name := range []string{"kelbo_a", "kelbo_b", "kelbo_c", "kelbo_d"} {
		say(t, db, "added-"+name, day.AddDate(0, 0, -5+i), "Tags?", "Added `"+name+"` for the tag import.")
		gone := say(t, db, "gone-"+name, day.Add(time.Duration(i)*time.Hour), "Crash?", "Removed `"+name+"` from `pubspec.yaml`.")
		sel = append(sel, messageItem(gone[1], gone[1].Text))
	}
	ws, err := Warnings(ctx, db, defaults(), sel)
	if err != nil || len(ws) != perNewer {
		t.Errorf("want %d warnings read from the store, got %d: %+v %v", perNewer, len(ws), ws, err)
	}
	// An entry's removal asks nothing of the store (its message is an item
	// of its own): entries ranked first leave the asks to the message.
	var ents []Item
	for _, name := range []string{"kelbo_x", "kelbo_y"} {
		text := "Removed `" + name + "` from `pubspec.yaml`."
		ev := say(t, db, "ent-"+name, day.Add(-time.Hour), "Crash?", text)[1]
		e, _, err := db.PutEntry(ctx, store.Entry{
			Project: proj, SessionID: ev.SessionID, Type: "decision", Title: text, Subject: name, ClaimKey: name + "|removed",
			Stage: store.StageVerified, Created: ev.Time,
			Evidence: []store.Evidence{{SessionID: ev.SessionID, EventID: ev.ID, Quote: text, Method: "exact", Confidence: 1, SpanEnd: len(text)}},
		})
		if err != nil {
			t.Fatal(err)
		}
		ents = append(ents, Item{CID: e.CID, Kind: KindEntry, Type: e.Type, Stage: e.Stage, SessionID: e.SessionID, Time: e.Created,
			Text: e.Title, Quote: text, entry: e, events: []int64{ev.ID}})
	}
	ws, err = Warnings(ctx, db, defaults(), append(ents, sel[0]))
	if err != nil || len(ws) != 1 || ws[0].B.CID != sel[0].CID {
		t.Errorf("entries ranked first kept the message from the store: %+v %v", ws, err)
	}
}

// appendSaid stores Claude's text as the message after ev in ev's session
// (a turn of several messages) and returns it.
func appendSaid(t *testing.T, db *store.DB, ev store.Event, text string) store.Event {
	t.Helper()
	ctx := context.Background()
	next := store.Event{Time: ev.Time.Add(time.Minute), Type: store.TypeAgentResponse, SessionID: ev.SessionID, Project: proj,
		Text: text, DedupeKey: fmt.Sprintf("%s:after:%d:%s", ev.SessionID, ev.ID, ev.Time.Format(time.RFC3339Nano))}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, next); return err }); err != nil {
		t.Fatal(err)
	}
	evs, err := db.Read().Events(ctx, store.EventFilter{SessionID: ev.SessionID})
	if err != nil || len(evs) == 0 {
		t.Fatalf("%v", err)
	}
	return evs[len(evs)-1]
}

// Claude's report that it undid a change warns against the statement, shown
// from an earlier turn of its session, that made the change. Not against
// its own turn's plan, nor a user's request, nor another session's
// statement, nor in a session with no prompt to bound the turn. A user's
// own report of an undoing warns as Claude's does.
func TestRevertWarnsAgainstTheChangeUndone(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	// Stored first, so that only its session tells it from the change.
	other := say(t, db, "btn-other", day.AddDate(0, 0, -1), "Buttons?", "Pointed the signup buttons at the pricing page.")
	evs := say(t, db, "btn", day,
		"Link the signup buttons to checkout", "Done. Pointed the signup buttons at the checkout page.",
		"Keep scrolling for the signup buttons", "You want the signup buttons scrolling again. Let me fix that.")
	undo := appendSaid(t, db, evs[3], "I've reverted the signup buttons back to scrolling.")
	changed, plan, asked := messageItem(evs[1], evs[1].Text), messageItem(evs[3], evs[3].Text), messageItem(evs[0], evs[0].Text)
	reverted := messageItem(undo, undo.Text)

	ws, err := Warnings(ctx, db, defaults(), []Item{reverted, plan, changed})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].Kind != "superseded" || ws[0].A.CID != changed.CID || ws[0].B.CID != reverted.CID ||
		ws[0].A.Title != "Pointed the signup buttons at the checkout page." || ws[0].B.Title != undo.Text {
		t.Fatalf("want the undoing to supersede the statement of the change; got %+v", ws)
	}
	if ws[0].Severity != "HIGH" || !strings.Contains(ws[0].Note, "undid a change") {
		t.Errorf("warning %+v: want HIGH, its note saying a change was undone", ws[0])
	}
	// The user's report and Claude's of one undoing warn once.
	both := say(t, db, "both", day.AddDate(0, 0, 4),
		"Point the banner links at the docs", "Pointed the banner links at the docs index.",
		"I reverted the banner links myself", "Right: you've reverted the banner links, so they point at the blog again.")
	ws, err = Warnings(ctx, db, defaults(), []Item{messageItem(both[2], both[2].Text), messageItem(both[3], both[3].Text), messageItem(both[1], both[1].Text)})
	if err != nil || len(ws) != 1 {
		t.Errorf("want one warning for two reports of one undoing; got %+v %v", ws, err)
	}
	// A later statement sharing fewer of the undone words is not it.
	typo := say(t, db, "typo", day.AddDate(0, 0, 3),
		"Link the signup buttons to checkout", "**Pointed the signup buttons at the checkout page**:",
		"Fix the header typo", "Fixed the typo in the signup form header.",
		"Keep scrolling", "I've reverted the signup buttons back to scrolling.")
	ws, err = Warnings(ctx, db, defaults(), []Item{messageItem(typo[5], typo[5].Text), messageItem(typo[3], typo[3].Text), messageItem(typo[1], typo[1].Text)})
	if err != nil || len(ws) != 1 || ws[0].A.CID != store.EventCID(typo[1].ID) || ws[0].A.Title != "Pointed the signup buttons at the checkout page" {
		t.Errorf("want the statement sharing most of the undone words, its heading's emphasis and colon trimmed; got %+v %v", ws, err)
	}
	for _, tt := range []struct {
		name string
		sel  []Item
	}{
		{"own turn's plan only", []Item{reverted, plan}},
		{"a user's request", []Item{reverted, asked}},
	} {
		if ws, err := Warnings(ctx, db, defaults(), tt.sel); err != nil || len(ws) != 0 {
			t.Errorf("%s: warned %+v %v", tt.name, ws, err)
		}
	}
	mine := say(t, db, "mine", day.AddDate(0, 0, 2), "Point the footer links at the blog", "Pointed the footer links at the blog index.",
		"I reverted the footer links myself, the blog moves next week.")
	if ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(mine[2], mine[2].Text), messageItem(mine[1], mine[1].Text)}); err != nil ||
		len(ws) != 1 || ws[0].A.CID != store.EventCID(mine[1].ID) {
		t.Errorf("a user's report of an undoing: %+v %v", ws, err)
	}
	// Another session's statement of a like change: another discussion.
	if ws, err := Warnings(ctx, db, defaults(), []Item{reverted, messageItem(other[1], other[1].Text)}); err != nil || len(ws) != 0 {
		t.Errorf("another session's statement warned against: %+v %v", ws, err)
	}
	// No prompt before the report: no turn to tell the change's from.
	solo := appendSaid(t, db, store.Event{Time: day.AddDate(0, 0, 1), SessionID: "solo", Project: proj}, "Pointed the banner links at the docs.")
	back := appendSaid(t, db, solo, "I've reverted the banner links.")
	if ws, err := Warnings(ctx, db, defaults(), []Item{messageItem(back, back.Text), messageItem(solo, solo.Text)}); err != nil || len(ws) != 0 {
		t.Errorf("a prompt-less session warned: %+v %v", ws, err)
	}
}

// TestDocumentsStateAFieldOtherwise: a document read states a field the
// prompt names with one value, one written later, or a spec in the user's
// message, with another: both are
// before Claude, and the warning says which is newer. A field a document
// states twice is a template's; an edit shows a part of a file; a field
// the prompt does not name, or stated again with more detail, is no
// conflict. The texts are made up.
func TestDocumentsStateAFieldOtherwise(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	// asked is ev's item as recalled for prompt.
	asked := func(ev store.Event, prompt string) Item {
		t.Helper()
		it := messageItem(ev, ev.Text)
		cs, _, err := newTermCounts(db, "").weigh(ctx, concepts(prompt, nil), false)
		if err != nil {
			t.Fatal(err)
		}
		it.promptConcepts = cs
		return it
	}
	item := func(session string, at time.Time, text, prompt string) Item {
		t.Helper()
		return asked(toolRun(t, db, session, at, text), prompt)
	}
	const prompt = "which queue broker do the kelbo jobs run on now?"
	claudeMD := item("read", day, "Read: /home/dev/kelbo/CLAUDE.md\n1\t# Kelbo\n2\t- **Queue Broker**: Quillet with three workers\n3\t- **Backend**: FastAPI", prompt)
	readme := item("write", day.Add(time.Hour), "Write: /home/dev/kelbo/README.md\n+ # Kelbo\n+ - **Queue Broker**: Zarkel streams\n+ - **Backend**: FastAPI with async SQLAlchemy", prompt)
	ws := fieldWarnings([]Item{readme, claudeMD}, map[[2]int64]bool{})
	if len(ws) != 1 || ws[0].Kind != "superseded" || ws[0].A.CID != claudeMD.CID || ws[0].B.CID != readme.CID ||
		!strings.Contains(ws[0].A.Title, "Quillet") || !strings.Contains(ws[0].B.Title, "Zarkel") {
		t.Fatalf("want the README's broker set against the CLAUDE.md's, once; got %+v", ws)
	}
	if ws := fieldWarnings([]Item{readme, claudeMD}, map[[2]int64]bool{pair(itemKey(claudeMD), itemKey(readme)): true}); len(ws) != 0 {
		t.Errorf("a pair already told was told again: %+v", ws)
	}
	other := item("other", day.Add(2*time.Hour), "Write: /home/dev/kelbo/README.md\n+ - **Queue Broker**: Zarkel streams", "which colour is the kelbo logo?")
	old := item("old", day, "Read: /home/dev/kelbo/CLAUDE.md\n1\t- **Queue Broker**: Quillet", "which colour is the kelbo logo?")
	if ws := fieldWarnings([]Item{other, old}, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("a field the prompt does not name warned: %+v", ws)
	}
	report := item("report", day.Add(3*time.Hour), "Write: /tmp/kelbo-bugs.md\n+ ## Bug 1\n+ - **Queue Broker**: Zarkel\n+ ## Bug 2\n+ - **Queue Broker**: Quillet", prompt)
	if ws := fieldWarnings([]Item{report, claudeMD}, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("a template's field stated twice warned: %+v", ws)
	}
	edit := item("edit", day.Add(4*time.Hour), "Edit: /home/dev/kelbo/README.md\n- old\n+ - **Queue Broker**: Zarkel streams", prompt)
	if ws := fieldWarnings([]Item{edit, claudeMD}, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("an edit's part of a file warned: %+v", ws)
	}
	backend := item("backend", day.Add(5*time.Hour), "Write: /home/dev/kelbo/README.md\n+ - **Backend**: FastAPI with async SQLAlchemy", "which backend do the kelbo jobs use?")
	oldBackend := item("oldbackend", day, "Read: /home/dev/kelbo/CLAUDE.md\n1\t- **Backend**: FastAPI", "which backend do the kelbo jobs use?")
	if ws := fieldWarnings([]Item{backend, oldBackend}, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("a field stated again with more detail warned: %+v", ws)
	}
	// A read cut when stored still states the field its cut line opens.
	cut := item("cut", day, "Read: /home/dev/kelbo/CLAUDE.md\n1\t# Kelbo\n2\t- **Queue Broker**: Quillet with thr\n[… 900 bytes cut …]\nee workers\n40\t## End", prompt)
	if ws := fieldWarnings([]Item{readme, cut}, map[[2]int64]bool{}); len(ws) != 1 || ws[0].A.CID != cut.CID {
		t.Errorf("want the field of a read cut when stored set against the README's; got %+v", ws)
	}
	code := item("code", day.Add(6*time.Hour), "Write: /home/dev/kelbo/broker.py\n+ - **Queue Broker**: Zarkel", prompt)
	if ws := fieldWarnings([]Item{code, claudeMD}, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("a file of code warned as a document: %+v", ws)
	}
	// The user's own message states a field as a document does: a spec
	// pasted after the CLAUDE.md was read sets the broker anew. A message
	// quoting a field among its own words states none, nor does an answer.
	said := func(typ, text, prompt string) Item {
		t.Helper()
		turns := []string{text} // the user's prompt
		if typ == "answer" {
			turns = []string{"Here is the plan.", text}
		}
		evs := say(t, db, "spec-"+typ+text[:8], day.Add(7*time.Hour), turns...)
		return asked(evs[len(evs)-1], prompt)
	}
	spec := "### Stack\n- **Queue Broker**: Zarkel streams\n- **Backend**: FastAPI"
	if ws := fieldWarnings([]Item{said("user", spec, prompt), claudeMD}, map[[2]int64]bool{}); len(ws) != 1 ||
		ws[0].A.CID != claudeMD.CID || !strings.Contains(ws[0].B.Title, "Zarkel") || !strings.Contains(ws[0].Note, "your message") {
		t.Errorf("want the user's spec set against the CLAUDE.md's; got %+v", ws)
	}
	quoted := "The old wiki page said this, before we moved:\n- **Queue Broker**: Zarkel streams\nShould I delete that page?"
	if ws := fieldWarnings([]Item{said("user", quoted, prompt), claudeMD}, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("a field the user quoted warned: %+v", ws)
	}
	if ws := fieldWarnings([]Item{said("answer", spec, prompt), claudeMD}, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("an answer's field warned: %+v", ws)
	}
	// Asked by a word of its value only ("Quillet"), not its label: one
	// document stating the field otherwise over time warns; two documents
	// sharing the label, each of its own service, do not.
	const byValue = "are the kelbo jobs still on Quillet?"
	oldRead := item("oldread", day, "Read: /home/dev/kelbo/CLAUDE.md\n1\t# Kelbo\n2\t- **Queue Broker**: Quillet with three workers", byValue)
	newRead := item("newread", day.Add(8*time.Hour), "Read: /home/dev/kelbo/CLAUDE.md\n1\t# Kelbo\n2\t- **Queue Broker**: Zarkel streams", byValue)
	if ws := fieldWarnings([]Item{newRead, oldRead}, map[[2]int64]bool{}); len(ws) != 1 || ws[0].A.CID != oldRead.CID {
		t.Errorf("want one document's field asked by its older value warned; got %+v", ws)
	}
	search := item("search", day.Add(9*time.Hour), "Read: /home/dev/kelbo/docs/search.md\n1\t# Search\n2\t- **Queue Broker**: Zarkel streams", byValue)
	if ws := fieldWarnings([]Item{search, oldRead}, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("two documents sharing a label warned, asked by a value only: %+v", ws)
	}
}

// TestSaidGoneAfterShownThere: an answer says a thing the prompt names is
// gone ("no CDN") after a shown memory that had it ("from CDN"): the older
// is stale. Not for "no CDN caching" (about caching), a user's request, or
// a thing the prompt does not name. The texts are made up.
func TestSaidGoneAfterShownThere(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	warn := func(prompt string, olderText, newerText string, newerKind string) []Warning {
		t.Helper()
		older := say(t, db, "o-"+olderText, day, "How is it served?", olderText)
		turns := []string{"Build it.", newerText}
		if newerKind == store.TypeUserPrompt {
			turns = []string{newerText, "OK."}
		}
		newer := say(t, db, "n-"+newerText, day.Add(time.Hour), turns...)
		cs, _, err := newTermCounts(db, "").weigh(ctx, concepts(prompt, nil), false)
		if err != nil {
			t.Fatal(err)
		}
		n := messageItem(newer[1], newer[1].Text)
		if newerKind == store.TypeUserPrompt {
			n = messageItem(newer[0], newer[0].Text)
		}
		o := messageItem(older[1], older[1].Text)
		n.promptConcepts, o.promptConcepts = cs, cs
		return negationWarnings([]Item{n, o}, map[[2]int64]bool{})
	}
	const prompt = "do we still load kelbo from a CDN?"
	ws := warn(prompt, "Static site: React and Kelbo from the CDN, pages built in the browser.", "Done. Quillet full bundle, Kelbo bundled, no CDN.", store.TypeAgentResponse)
	if len(ws) != 1 || ws[0].Kind != "superseded" || !strings.Contains(ws[0].A.Title, "from the CDN") || ws[0].B.Title != "Quillet full bundle, Kelbo bundled, no CDN." {
		t.Fatalf("want the CDN said gone after the older had it; got %+v", ws)
	}
	if ws := warn(prompt, "Kelbo loads from the CDN today.", "Kelbo bundled now, no CDN caching needed.", store.TypeAgentResponse); len(ws) != 0 {
		t.Errorf("\"no CDN caching\" read as no CDN: %+v", ws)
	}
	if ws := warn(prompt, "Kelbo loads from a CDN here.", "Bundle kelbo, no CDN.", store.TypeUserPrompt); len(ws) != 0 {
		t.Errorf("a user's request read as a statement: %+v", ws)
	}
	if ws := warn("which colour is the kelbo logo?", "Kelbo comes from a CDN link.", "Bundled kelbo at last, no CDN.", store.TypeAgentResponse); len(ws) != 0 {
		t.Errorf("a thing the prompt does not name warned: %+v", ws)
	}
}

func TestNegatedAt(t *testing.T) {
	for _, c := range []struct {
		text     string
		negated  bool
		affirmed bool
	}{
		{"React bundled, no CDN.", true, false},
		{"React bundled (no CDN) now", true, false},
		{"built without CDN and without Babel", true, false},
		{"no CDN caching here", false, false},
		{"no CDNs", false, false},
		{"React + Babel from CDN", false, true},
		{"not CDN-hosted", false, false},
		{"İİİ no CDN", false, false}, // a lower case of another length: no offsets read
	} {
		if got := negatedAt(c.text, "cdn") >= 0; got != c.negated {
			t.Errorf("negatedAt(%q) = %v, want %v", c.text, got, c.negated)
		}
		if got := affirmedAt(c.text, "cdn") >= 0; got != c.affirmed {
			t.Errorf("affirmedAt(%q) = %v, want %v", c.text, got, c.affirmed)
		}
	}
}

// TestShowsLine: a short line is shown whole, between spaces, brackets,
// quotes or a sentence's end, never as part of a longer token.
func TestShowsLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		excerpt, line string
		want          bool
	}{
		{"Compact 28px button (was oversized 56px)", "oversized 56px", true},
		{"Swapped (kelbo-mq → plenk-mq) today", "kelbo-mq", true},
		{"The kiln runs 1.2.3 now.", "1.2.3", true},
		{"The kiln runs v1.2.3", "v1.2", false},
		{"see src/config.ts first", "config.ts", false},
		{"hosted at api.example.com", "example.com", false},
		{"the plenk-mq queue", "plenk", false},
		{"took 1.10ms", "10ms", false},
		{"`ports: 8080`, then", "ports: 8080", true},
		// Three characters with a digit among others are one value; a
		// short word or number is in any excerpt.
		{"Progress bar: reduced from 12px thick to a thin 3px track", "3px", true},
		{"bumped actions/checkout @v3 → @v4", "@v4", true},
		{"a 13px gap", "3px", false},
		{"the api is up", "api", false},
		{"about 100 rows", "100", false},
	} {
		if got := showsLine(" "+foldWords(c.excerpt)+" ", c.line); got != c.want {
			t.Errorf("showsLine(%q, %q) = %v, want %v", c.excerpt, c.line, got, c.want)
		}
	}
}

// TestStatedChangeOfTheAskedRole: a memory shown that itself states a
// change of the role the prompt asks ("which database …?") warns with
// both values, listed with it; a change of a role the prompt does not ask,
// a prompt asking none, a proposal, a user's request and a role found by
// its values' shape (a path) do not. The texts are made up.
func TestStatedChangeOfTheAskedRole(t *testing.T) {
	t.Parallel()
	ent := Item{CID: "mem:e2", Kind: KindEntry, Time: day, Text: "Replaced: MySQL with Vitess → CockroachDB for the kiln ledger",
		Excerpt: "Replaced: MySQL with Vitess → CockroachDB for the kiln ledger", events: []int64{51}, entry: store.Entry{ID: 9},
		promptRoles: []string{"database"}}
	ws := statedChangeWarnings(nil, []Item{ent}, nil, map[[2]int64]bool{})
	if len(ws) != 1 || ws[0].A.Title != "mysql" || ws[0].B.Title != "cockroachdb" || !ws[0].inItem || ws[0].A.CID != ent.CID {
		t.Fatalf("warnings %+v, want mysql became cockroachdb in %s", ws, ent.CID)
	}
	if r := Render(current([]Item{ent}, ws), ws, Blocks{}, 1500*charsPerToken); r.Warnings != 1 || !strings.Contains(r.Text, "states this change of the database") {
		t.Errorf("rendered with %d warnings:\n%s", r.Warnings, r.Text)
	}

	text := "Moved the glaze jobs from RabbitMQ to NATS last night."
	ev := store.Event{ID: 52, Time: day, Type: store.TypeAgentResponse, Project: proj, Text: text}
	msg := messageItem(ev, text)
	for _, c := range []struct {
		name  string
		roles []string
		kind  string
		text  string
		want  int
	}{
		{"the role asked", []string{"queue"}, store.TypeAgentResponse, text, 1},
		{"another role asked", []string{"database"}, store.TypeAgentResponse, text, 0},
		{"no role asked", nil, store.TypeAgentResponse, text, 0},
		{"a user's request", []string{"queue"}, store.TypeUserPrompt, "Move the glaze jobs from RabbitMQ to NATS, please.", 0},
		{"a proposal", []string{"queue"}, store.TypeAgentResponse, "We could move the glaze jobs from RabbitMQ to NATS if you like.", 0},
		// Two paths of a sentence are as often two things kept.
		{"a path asked", []string{"path"}, store.TypeAgentResponse, "Moved the kiln signing from keys/kiln.key to keys/kiln.pub.", 0},
		// A choice with the alternative it turned down is no change made.
		{"a choice", []string{"queue"}, store.TypeAgentResponse, "We decided to use NATS for the glaze jobs, never RabbitMQ.", 0},
		// Products the tables do not list change too; a range read is no
		// change.
		{"unlisted products", []string{"database"}, store.TypeAgentResponse, "Moved the kiln ledger database from Kelvodb to Plenkbase.", 1},
		{"a range read", []string{"logging"}, store.TypeAgentResponse, "Looking at the kiln logs from `1700000012345` to `1700000098765` (about 86 seconds), I see:", 0},
	} {
		ev.Type, ev.Text = c.kind, c.text
		it := messageItem(ev, c.text)
		it.promptRoles = c.roles
		if ws := statedChangeWarnings(nil, []Item{it}, nil, map[[2]int64]bool{}); len(ws) != c.want {
			t.Errorf("%s: warnings %+v, want %d", c.name, ws, c.want)
		}
	}
	// A change an earlier warning holds is told once.
	msg.promptRoles = []string{"queue"}
	if ws := statedChangeWarnings(nil, []Item{msg}, []Warning{{Kind: "superseded", B: Memory{CID: msg.CID}}}, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("a change already warned of warned again: %+v", ws)
	}
}

// TestValueReadApartNeedsAStatedChange: an everyday word, or a name the
// role's table does not list set against one it lists, read from two
// statements apart, is as often a word of the sentence as a choice
// (a layout "consistent with the other pages" is no frontend framework,
// a device "now posting data" no database): no warning, unless the newer
// statement names the change itself. The texts are made up.
func TestValueReadApartNeedsAStatedChange(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	for _, c := range []struct{ older, newer, want string }{
		{"Kiln API: POST /api/firings - record a firing\n- PostgreSQL storage", "The Kelvobox is now posting data to the kiln API every minute.", ""},
		{"The kiln theme uses white as the main color.", "Main color changed: applied to buttons and accent elements.", ""},
		// The cost: a change to a name no table lists, said without the
		// value it replaced, is not warned of from two statements apart.
		{"Kiln readings are stored in PostgreSQL.", "Kiln readings are now stored in Kelvobase.", ""},
		{"Kiln readings are stored in PostgreSQL.", "We switched the kiln readings database from PostgreSQL to Kelvobase.", "kelvobase"},
		{"Kiln readings are stored in PostgreSQL.", "Kiln readings are now stored in MongoDB.", "mongodb"},
	} {
		older, newer := answersApart(c.older, c.newer)
		ws, err := claimWarnings(context.Background(), db, nil, []Item{older, newer}, nil, map[[2]int64]bool{})
		if err != nil {
			t.Fatal(err)
		}
		if c.want == "" && len(ws) != 0 || c.want != "" && (len(ws) != 1 || !strings.Contains(ws[0].Note, c.want)) {
			t.Errorf("%q then %q: warnings %+v, want one naming %q", c.older, c.newer, ws, c.want)
		}
	}
}

// TestOneChangeReportedTwiceReplacesNothing: a statement of change that
// names both values tells the change a later summary tells again, whatever
// roles the parser read its code spans as; the summary replaces nothing.
// The texts are made up.
func TestOneChangeReportedTwiceReplacesNothing(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	older := "Replaced `import { Kiln, type KilnStatus } from 'kelbo-audio'` with `import { createPlayer, type Player } from 'quillet-audio'`"
	newer := "Kiln audio refactor (kelbo-audio → quillet-audio)"
	o, n := answersApart(older, newer)
	ws, err := claimWarnings(context.Background(), db, nil, []Item{o, n}, nil, map[[2]int64]bool{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 0 {
		t.Errorf("one change told twice warned: %+v", ws)
	}
	// The old value stated alone is replaced.
	o.Excerpt = "The kiln player imports from `kelbo-audio`."
	if ws, err = claimWarnings(context.Background(), db, nil, []Item{o, n}, nil, map[[2]int64]bool{}); err != nil || len(ws) != 1 {
		t.Errorf("%q then the summary: warnings %+v (%v), want one", o.Excerpt, ws, err)
	}
}

// TestStatedChangeEndToEnd: recalled for a prompt asking the role, an
// answer stating the change it made warns with both values; asked
// another thing, it does not. The texts are made up.
func TestStatedChangeEndToEnd(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "a", day, "Where does the kiln ledger live?", "Kiln ledger migrated. Replaced: MySQL → CockroachDB for the kiln ledger tables.")
	got := recallFor(t, db, defaults(), "which database holds our kiln ledger now?")
	if _, block, ok := strings.Cut(got, ConflictOpen); !ok || !strings.Contains(block, "“mysql” became “cockroachdb”: the memory") {
		t.Errorf("want the stated change in a warning:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "which port does our kiln ledger listen on?"); strings.Contains(got, ConflictOpen) {
		t.Errorf("a prompt asking no database got the change warned:\n%s", got)
	}
}

// TestStatedChangeOnceAndCurrent: a memory stating a change another shown
// memory later changed again, or one an earlier warning already holds (by
// its message or an entry quoting it), warns of nothing more. The texts
// are made up.
func TestStatedChangeOnceAndCurrent(t *testing.T) {
	t.Parallel()
	first := store.Event{ID: 61, Time: day, Type: store.TypeAgentResponse, SessionID: "a", Project: proj, Text: "Moved the kiln ledger from MySQL to CockroachDB."}
	second := store.Event{ID: 62, Time: day.Add(time.Hour), Type: store.TypeAgentResponse, SessionID: "b", Project: proj, Text: "The kiln ledger now runs on PostgreSQL."}
	a, b := messageItem(first, first.Text), messageItem(second, second.Text)
	a.promptRoles, b.promptRoles = []string{"database"}, []string{"database"}
	if ws := statedChangeWarnings(nil, []Item{a}, nil, map[[2]int64]bool{}); len(ws) != 1 {
		t.Fatalf("alone: warnings %+v, want one", ws)
	}
	if ws := statedChangeWarnings(nil, []Item{a, b}, nil, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("a change changed again later warned as current: %+v", ws)
	}
	ent := Item{CID: "mem:e3", Kind: KindEntry, Time: day, Text: first.Text, Excerpt: first.Text, events: []int64{first.ID},
		entry: store.Entry{ID: 11}, promptRoles: []string{"database"}}
	// A message and the entry quoting it tell one change: it is warned
	// of once.
	if ws := statedChangeWarnings(nil, []Item{a, ent}, nil, map[[2]int64]bool{}); len(ws) != 1 {
		t.Errorf("a message and its entry: warnings %+v, want one", ws)
	}
	for _, w := range []Warning{
		{Kind: "superseded", B: Memory{CID: a.CID}},
		{Kind: "superseded", A: Memory{CID: ent.CID}, Old: "cockroachdb"},
	} {
		if ws := statedChangeWarnings(nil, []Item{a, ent}, []Warning{w}, map[[2]int64]bool{}); len(ws) != 0 {
			t.Errorf("a change an earlier warning holds (%+v) warned again: %+v", w, ws)
		}
	}
	// An entry with no message of its own, held by its citation id; a
	// warning about another thing of the memory leaves its change.
	bare := ent
	bare.events = nil
	if ws := statedChangeWarnings(nil, []Item{bare}, []Warning{{Kind: "superseded", B: Memory{CID: bare.CID}}}, map[[2]int64]bool{}); len(ws) != 0 {
		t.Errorf("an entry an earlier warning holds warned again: %+v", ws)
	}
	if ws := statedChangeWarnings(nil, []Item{a}, []Warning{{Kind: "superseded", A: Memory{CID: a.CID}, Old: "8443"}}, map[[2]int64]bool{}); len(ws) != 1 {
		t.Errorf("a warning about another thing hid the change: %+v", ws)
	}
	// A later mention of a value is no change of it.
	mention := store.Event{ID: 63, Time: day.Add(2 * time.Hour), Type: store.TypeUserPrompt, SessionID: "c", Project: proj, Text: "Can you check the MySQL connection string?"}
	if ws := statedChangeWarnings(nil, []Item{a, messageItem(mention, mention.Text)}, nil, map[[2]int64]bool{}); len(ws) != 1 {
		t.Errorf("a later mention hid the change: %+v", ws)
	}
}

// TestClaimWarningAboutWhatIsAsked: a change of a role the prompt does not
// ask, whose two statements name nothing the prompt asks, is not warned of;
// asked, it is. The texts are made up.
func TestClaimWarningAboutWhatIsAsked(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	older, newer := "Kiln uploads are stored in MongoDB.", "Kiln uploads are now stored in PostgreSQL."
	for _, c := range []struct {
		prompt string
		roles  []string
		want   int
	}{
		{"what colour is the glaze logo?", nil, 0},
		{"where are the kiln uploads stored now?", nil, 1},
		{"what colour is the glaze logo?", []string{"database"}, 1},
	} {
		cs, _, err := newTermCounts(db, "").weigh(context.Background(), concepts(c.prompt, nil), false)
		if err != nil {
			t.Fatal(err)
		}
		o, n := answersApart(older, newer)
		o.promptConcepts, o.promptRoles = cs, c.roles
		n.promptConcepts, n.promptRoles = cs, c.roles
		ws, err := claimWarnings(context.Background(), db, nil, []Item{o, n}, nil, map[[2]int64]bool{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ws) != c.want {
			t.Errorf("%q (roles %v): warnings %+v, want %d", c.prompt, c.roles, ws, c.want)
		}
	}
}

// TestLabelledChangeUnderItsHeading: a Before/After pair warns when the
// line it stands under names what the prompt asks, though its values do
// not; a prompt about another thing gets no warning. The texts are made
// up.
func TestLabelledChangeUnderItsHeading(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	text := "Kiln status badge colour:\nBefore: `bg-red-900`\nAfter: `bg-slate-700`"
	ev := store.Event{ID: 71, Time: day, Type: store.TypeAgentResponse, Project: proj, Text: text}
	for prompt, want := range map[string]int{"what colour are the kiln status badges now?": 1, "which glaze firmware version is flashed?": 0} {
		it := messageItem(ev, text)
		cs, _, err := newTermCounts(db, "").weigh(context.Background(), concepts(prompt, nil), false)
		if err != nil {
			t.Fatal(err)
		}
		it.promptConcepts = cs
		if ws := labelledWarnings([]Item{it}, nil, map[[2]int64]bool{}); len(ws) != want {
			t.Errorf("%q: warnings %+v, want %d", prompt, ws, want)
		}
	}
}

// answersApart is two answers of Claude's, in two sessions an hour apart,
// as items shown for one prompt: the older, then the newer.
func answersApart(older, newer string) (o, n Item) {
	o = Item{CID: "mem:a", Kind: store.TypeAgentResponse, SessionID: "a", Time: day, Excerpt: older, events: []int64{1}}
	n = Item{CID: "mem:b", Kind: store.TypeAgentResponse, SessionID: "b", Time: day.Add(time.Hour), Excerpt: newer, events: []int64{2}}
	return o, n
}
