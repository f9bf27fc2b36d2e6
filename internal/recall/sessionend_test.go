package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// sessionLog builds one session's events, each a minute after the last
// unless at is moved, for save to store.
type sessionLog struct {
	session string
	at      time.Time
	evs     []store.Event
}

func (l *sessionLog) add(typ, text string) {
	l.evs = append(l.evs, store.Event{Time: l.at, Type: typ, SessionID: l.session, Project: proj,
		DedupeKey: fmt.Sprint(l.session, ":", len(l.evs)), Text: text})
	l.at = l.at.Add(time.Minute)
}

func (l *sessionLog) save(t *testing.T, db *store.DB) {
	t.Helper()
	if err := db.Update(context.Background(), func(tx *store.Tx) error { _, err := tx.Append(context.Background(), l.evs...); return err }); err != nil {
		t.Fatal(err)
	}
}

// TestSessionEndComesWithItsStart: a session's first report on a deployment
// names every word of the prompt, and its plan, its runs and the user's
// complaint repeat them; the answer that ended the session ("the kiosk is
// working again at …") names fewer, and was ranked out. It is how the work
// came out, and comes with the report. The same session's answers on other
// work, right after (sharing a word of the prompt) or the next day (sharing
// as much as the fix), do not.
func TestSessionEndComesWithItsStart(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	// Other sessions spoke of preview URLs: the kiosk is what this prompt
	// names most specifically.
	for i := range 6 {
		say(t, db, fmt.Sprintf("docs-%d", i), day.AddDate(0, 0, -20+i), "Build the docs and give me the preview URL.", "The docs preview URL is up.")
	}
	l := &sessionLog{session: "kiosk", at: day}
	add := l.add
	add(store.TypeUserPrompt, "Deploy the kiosk app to Fly and give me the preview URL of the kiosk deployment.")
	add(store.TypeAgentResponse, "I'll deploy the kiosk app to Fly and report the preview URL of the kiosk deployment.")
	for i, cmd := range []string{"fly deploy", "fly status", "fly logs", "fly releases", "fly scale show", "fly secrets list", "fly ips list", "fly certs list"} {
		add(store.TypeToolObservation, fmt.Sprintf("Bash: %s --app kiosk-preview\nkiosk deployment on Fly (step %d): preview URL https://kiosk-a1b2c3.fly.dev serves the kiosk", cmd, i))
	}
	add(store.TypeAgentResponse, "The kiosk deployment on Fly is done. Kiosk preview URL: https://kiosk-a1b2c3.fly.dev (Fly app kiosk-preview).")
	add(store.TypeUserPrompt, "That kiosk preview URL on Fly shows a blank page for the kiosk deployment.")
	add(store.TypeAgentResponse, "Looking into the blank kiosk preview on Fly: the kiosk deployment's static assets are missing.")
	add(store.TypeToolObservation, "Bash: fly deploy --app kiosk-live\nrelease v9 created")
	add(store.TypeAgentResponse, "Fixed: the kiosk deployment on Fly works again, at https://kiosk-live.fly.dev, after a fresh deploy with the assets built.")
	// Other work right after, sharing a word of the prompt, then the next
	// day, sharing as much of it as the fix.
	l.at = l.at.Add(30 * time.Minute)
	add(store.TypeUserPrompt, "Now add a dark theme to the admin page.")
	add(store.TypeAgentResponse, "The admin page has a dark theme now, on Fly.")
	l.at = day.Add(24 * time.Hour)
	add(store.TypeUserPrompt, "Now add a search box to the admin page.")
	add(store.TypeAgentResponse, "The admin page has a search box now; see the kiosk deployment's preview URL on Fly.")
	l.save(t, db)
	sel, err := Select(context.Background(), db, defaults(), Request{Project: proj, SessionID: "now",
		Prompt: "Which preview URL does the kiosk deployment on Fly serve?", Now: day.AddDate(0, 1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, it := range sel {
		texts = append(texts, it.Text)
	}
	all := strings.Join(texts, "\n---\n")
	if !strings.Contains(all, "kiosk-live.fly.dev") {
		t.Errorf("the session's last answer on the deployment is not shown:\n%s", all)
	}
	for _, other := range []string{"dark theme", "search box"} {
		if strings.Contains(all, other) {
			t.Errorf("the session's answer on other work (%s) is shown:\n%s", other, all)
		}
	}
}

// TestSessionEnd: the session's last answer after the best item, in the
// same sitting, covering at least half as much of the prompt, is its end;
// not a prompt, not an answer covering less, not one after a pause.
func TestSessionEnd(t *testing.T) {
	t.Parallel()
	best := Item{Kind: store.TypeAgentResponse, SessionID: "s", Time: day, Coverage: 0.8}
	item := func(kind, session string, after time.Duration, coverage float64) Item {
		return Item{Kind: kind, SessionID: session, Time: day.Add(after), Coverage: coverage, CID: fmt.Sprint(kind, session, after, coverage)}
	}
	onSubject := item(store.TypeAgentResponse, "s", time.Hour, 0.5)
	for _, tt := range []struct {
		name  string
		items []Item
		want  string // the end's CID, "" for none
	}{
		{"later answer", []Item{best, onSubject}, onSubject.CID},
		{"the last of two", []Item{best, item(store.TypeAgentResponse, "s", 2*time.Hour, 0.6), onSubject}, item(store.TypeAgentResponse, "s", 2*time.Hour, 0.6).CID},
		{"off the subject", []Item{best, item(store.TypeAgentResponse, "s", time.Hour, 0.3)}, ""},
		{"a prompt", []Item{best, item(store.TypeUserPrompt, "s", time.Hour, 0.8)}, ""},
		{"before best", []Item{best, item(store.TypeAgentResponse, "s", -time.Hour, 0.8)}, ""},
		{"another session", []Item{best, item(store.TypeAgentResponse, "t", time.Hour, 0.8)}, ""},
		{"after a pause", []Item{best, onSubject, item(store.TypeAgentResponse, "s", time.Hour+sittingGap, 0.8)}, onSubject.CID},
		{"a pause bridged by an item", []Item{best, item(store.TypeToolObservation, "s", 2*time.Hour, 0.1), item(store.TypeAgentResponse, "s", 4*time.Hour, 0.6)}, item(store.TypeAgentResponse, "s", 4*time.Hour, 0.6).CID},
	} {
		end, ok := sessionEnd(tt.items, best)
		if got := map[bool]string{true: end.CID}[ok]; got != tt.want {
			t.Errorf("%s: end %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestPlaceEnd: a session's end comes right after the first item of its
// session; with every place taken, in the place of that session's
// lowest-ranked tool run, never one raised as the answer, another
// session's, the best item or one ranked above the item it follows.
func TestPlaceEnd(t *testing.T) {
	t.Parallel()
	it := func(cid, session, kind string) Item { return Item{CID: cid, SessionID: session, Kind: kind} }
	run, msg := store.TypeToolObservation, store.TypeAgentResponse
	end := it("end", "s", msg)
	raised := it("raised", "s", run)
	raised.raised = true
	for _, tt := range []struct {
		name string
		out  []Item
		k    int
		best Item
		want string
	}{
		{"a free place", []Item{it("a", "t", msg), it("b", "s", msg)}, 3, it("b", "s", msg), "a b end"},
		{"the session's lowest run", []Item{it("b", "s", msg), it("r1", "s", run), it("r2", "s", run)}, 3, it("b", "s", msg), "b end r1"},
		{"not another session's run", []Item{it("b", "s", msg), it("r1", "s", run), it("r2", "t", run)}, 3, it("b", "s", msg), "b end r2"},
		{"not a raised run", []Item{it("b", "s", msg), raised}, 2, it("b", "s", msg), "b raised"},
		{"not best", []Item{it("m", "s", msg), it("b", "s", run)}, 2, it("b", "s", run), "m b"},
		{"not before the item it follows", []Item{it("r1", "s", run), it("m", "s", msg)}, 2, it("m", "s", msg), "r1 m"},
		{"no item of its session", []Item{it("a", "t", msg)}, 3, it("a", "t", msg), "a"},
	} {
		got, placed := placeEnd(slices.Clone(tt.out), len(tt.out), tt.k, end, tt.best)
		if cids(got) != tt.want || placed != strings.Contains(tt.want, "end") {
			t.Errorf("%s: %q (placed %v), want %q", tt.name, cids(got), placed, tt.want)
		}
	}
}

// TestFailedRunAnswersWhatFailed: asked what error a type check gave, the
// failed run is the answer, though it names the check in its own words
// ("npx tsc --noEmit") and the plan's messages share more of the prompt's.
// A prompt asking no failure does not get it, nor one asking another.
func TestFailedRunAnswersWhatFailed(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	l := &sessionLog{session: "rewrite", at: day}
	add := l.add
	add(store.TypeUserPrompt, "Rewrite the ledger server: a new ledger client file, a new server file, type-checked before we ship.")
	for _, step := range []string{"the ledger client file", "the server file", "the server routes", "the ledger client types", "the server config", "the ledger client tests"} {
		add(store.TypeAgentResponse, "Rewritten "+step+" for the ledger server; it will be type-checked with the rest of the server.")
	}
	add(store.TypeToolObservation, "Bash: npx tsc --noEmit (error)\nExit code 2\nsrc/lib/ledger.ts(41,18): error TS18046: 'data' is of type 'unknown'.")
	add(store.TypeToolObservation, "Bash: npx eslint src/lib/ledger.ts\nNo problems found.")
	add(store.TypeUserPrompt, "Publish the billing site docs to the docs host.")
	add(store.TypeAgentResponse, "The billing site docs are published to the docs host; the docs deploy took two minutes.")
	l.save(t, db)
	shows := func(prompt, text string) bool {
		t.Helper()
		sel, err := Select(context.Background(), db, defaults(), Request{Project: proj, SessionID: "now", Prompt: prompt, Now: day.AddDate(0, 1, 0)})
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(sel, func(it Item) bool { return strings.Contains(it.Text, text) })
	}
	if !shows("When we first type-checked the rewritten ledger server, what error came out of the ledger client file?", "TS18046") {
		t.Error("the failed type check is not shown for the error it gave")
	}
	if shows("When we rewrote the ledger server, which ledger client file did we write first?", "TS18046") {
		t.Error("the failed type check is shown for a prompt asking no failure")
	}
	if shows("What error did the docs deploy of the billing site give?", "TS18046") {
		t.Error("the failed type check is shown for another failure")
	}
}

// TestFailedRunComesWithWhatClaudeSaidNext: a background command that
// failed (its status, no capture mark) and Claude's answer right after,
// which changed no file: the answer says what the failure meant and what
// was done of it, and comes with the run.
func TestFailedRunComesWithWhatClaudeSaidNext(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	l := &sessionLog{session: "boot", at: day}
	l.add(store.TypeUserPrompt, "Start the quorvex gateway locally and check its health endpoint.")
	l.add(store.TypeToolObservation, "Bash: uvicorn quorvex.main:app --port 8000 &\nstarted")
	l.add(store.TypeToolObservation, "BashOutput\n<status>failed</status>\n\n<exit_code>2</exit_code>\n\n<stderr>\nUserWarning: A Zelkova version >=1.21 and <1.28 is required (detected 2.3.2)\nImportError: module compiled against ABI version 1 of zelkova")
	l.add(store.TypeAgentResponse, "There's a Zelkova incompatibility: we need to pin zelkova<2 to fix this.")
	l.add(store.TypeToolObservation, "Bash: pip install \"zelkova<2\"\nSuccessfully installed zelkova-1.26.4")
	l.save(t, db)
	c := failedRunContext(t, db, "The quorvex gateway crashed at startup with an ImportError about a module compiled against the old zelkova ABI. What did we do about it?")
	if c == nil || c.Type != store.TypeAgentResponse || !strings.Contains(c.Text, "zelkova<2") {
		t.Errorf("the failed run comes without the answer after it: %+v", c)
	}
}

// failedRunContext is what the failed background run (BashOutput) recalled
// for prompt shows after it.
func failedRunContext(t *testing.T, db *store.DB, prompt string) *store.Event {
	t.Helper()
	sel, err := Select(context.Background(), db, defaults(), Request{Project: proj, SessionID: "now", Prompt: prompt, Now: day.AddDate(0, 1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(sel, func(it Item) bool { return strings.HasPrefix(it.Text, "BashOutput") })
	if i < 0 {
		t.Fatalf("the failed run is not shown among %d items", len(sel))
	}
	return sel[i].Context
}

// TestFailedBackgroundRunComesWithTheEditAfter: a command run in the
// background failed as its output's status says, Claude said it would fix
// the config ("Let me fix that:") and edited it: the edit is the fix the
// failure led to, as after a failed command run in the foreground, and the
// failed run comes with it.
func TestFailedBackgroundRunComesWithTheEditAfter(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	l := &sessionLog{session: "boot", at: day}
	l.add(store.TypeUserPrompt, "Start the quorvex guard and check it answers.")
	l.add(store.TypeToolObservation, "Bash: uvicorn quorvex.app:create_app --port 8000\nCommand running in background with ID: bash_3")
	l.add(store.TypeToolObservation, "BashOutput\n<status>failed</status>\n\n<exit_code>1</exit_code>\n\n<stderr>\npydantic_core.ValidationError: 1 validation error for Config\nkiln_hooks\n  Input should be a valid list [type=list_type, input_value=None]")
	l.add(store.TypeAgentResponse, "The config needs at least an empty list there. Let me fix that:")
	l.add(store.TypeToolObservation, "Edit: /srv/quorvex/config/app.yml\n- kiln_hooks:\n-   # none for now\n+ kiln_hooks: []  # none for now")
	l.save(t, db)
	c := failedRunContext(t, db, "the quorvex guard wouldn't start after I commented things out: a pydantic ValidationError at boot. what fixed it?")
	if c == nil || !strings.Contains(c.Text, "kiln_hooks: []") {
		t.Errorf("the failed background run comes without the edit after it: %+v", c)
	}
}
