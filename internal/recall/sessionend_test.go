package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestSessionEndComesWithItsStart: a session's first report on a deployment
// names every word of the prompt, and its plan, its runs and the user's
// complaint repeat them; the answer that ended the session ("the kiosk is
// working again at …") names fewer, and was ranked out. It is how the work
// came out, and comes with the report. The same session's answer on other
// work the next day, which shares words with the prompt, does not.
func TestSessionEndComesWithItsStart(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	var evs []store.Event
	at := day
	add := func(typ, text string) {
		evs = append(evs, store.Event{Time: at, Type: typ, SessionID: "kiosk", Project: proj, DedupeKey: fmt.Sprint("kiosk:", len(evs)), Text: text})
		at = at.Add(time.Minute)
	}
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
	at = day.Add(24 * time.Hour)
	add(store.TypeUserPrompt, "Now add a dark theme to the admin page.")
	add(store.TypeAgentResponse, "The admin page has a dark theme now; check it at its preview URL on Fly.")
	if err := db.Update(context.Background(), func(tx *store.Tx) error { _, err := tx.Append(context.Background(), evs...); return err }); err != nil {
		t.Fatal(err)
	}
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
	if strings.Contains(all, "dark theme") {
		t.Errorf("the session's answer on other work the next day is shown:\n%s", all)
	}
}

// TestSessionEnd: the session's last answer after the best item, in the
// same sitting and on its subject, is its end; not a prompt, not an answer
// covering less than half as much of the prompt, not one after a pause.
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
