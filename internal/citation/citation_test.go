package citation

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		answer         string
		listed, marked []string
		line           bool
	}{
		{"none", "Done.", nil, nil, false},
		{"trace line", "Done.\nMemories used: [mem:ab12cd], [mem:00ff11aa]", []string{"mem:ab12cd", "mem:00ff11aa"}, nil, true},
		{"trace none", "Done.\nMemories used: none", nil, nil, true},
		{"bare ids", "Done.\n**Memories used:** mem:ab12cd mem:ab12cd", []string{"mem:ab12cd"}, nil, true},
		{"marks in text", "RS256 [mem:ab12cd] and keys [mem:cdcdcd].\nMemories used: [mem:ab12cd]", []string{"mem:ab12cd"}, []string{"mem:ab12cd", "mem:cdcdcd"}, true},
		{"recalled messages", "Port 6543 [mem:t2bx].\nMemories used: [mem:t2bx], [mem:ab12cd]", []string{"mem:t2bx", "mem:ab12cd"}, []string{"mem:t2bx"}, true},
		{"last line wins", "Memories used: [mem:111111]\nlater\nmemories used: [mem:222222]", []string{"mem:222222"}, []string{"mem:111111"}, true},
		{"not ids", "see mem:xyz and mem:ab and xmem:abcdef, [mem:ABCDEF]", nil, nil, false},
		{"event ids are not memory ids", "Memories used: #12", nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Parse(tt.answer)
			if !reflect.DeepEqual(c.Listed, tt.listed) || !reflect.DeepEqual(c.Marked, tt.marked) || c.Line != tt.line {
				t.Errorf("Parse(%q) = %+v, want listed %v marked %v line %v", tt.answer, c, tt.listed, tt.marked, tt.line)
			}
		})
	}
}

func TestIDsAdjacent(t *testing.T) {
	t.Parallel()
	got := IDs("[mem:aaaa][mem:bbbb] mem:cccc,mem:aaaa")
	if want := []string{"mem:aaaa", "mem:bbbb", "mem:cccc"}; !reflect.DeepEqual(got, want) {
		t.Errorf("IDs = %v, want %v", got, want)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"Memories used: [mem:ab12cd]", "[mem:abcd][mem:ef01]", "memories used:\n", "mem:", "\x00mem:aaaa\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := Parse(s)
		for _, id := range c.All() {
			if !strings.HasPrefix(id, "mem:") || !strings.Contains(s, id) {
				t.Fatalf("Parse(%q) cites %q, which is not in the answer", s, id)
			}
		}
	})
}

func TestRecord(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	put := func(title string) store.Entry {
		e, _, err := db.PutEntry(ctx, store.Entry{Project: "/p", SessionID: "old", Type: "decision", Title: title,
			ClaimKey: title, Stage: store.StageVerified, Created: now.Add(-time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	injected, fetched, other := put("injected one"), put("fetched by a tool"), put("never shown")
	ev := func(typ, key string, payload any) store.Event {
		b, _ := json.Marshal(payload)
		return store.Event{Time: now, Type: typ, SessionID: "s", Project: "/p", DedupeKey: key, Payload: b}
	}
	if err := db.MarkInjected(ctx, ev(store.TypeMemoryInjected, "inject:s:p1",
		map[string]any{"memories": []string{injected.CID}, "prompt_id": "p1"})); err != nil {
		t.Fatal(err)
	}
	tool := ev(store.TypeToolObservation, "tool:s:t1", map[string]any{"prompt_id": "p1", "memories": []string{fetched.CID}})
	tool.Text = "mcp__plugin_memory-layer_memory__get"
	// The same tool output in another turn shows nothing to this one.
	stale := ev(store.TypeToolObservation, "tool:s:t0", map[string]any{"prompt_id": "p0", "memories": []string{other.CID}})
	stale.Text = "mcp__plugin_memory-layer_memory__get"
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, tool, stale); return err }); err != nil {
		t.Fatal(err)
	}
	answer := "Using RS256 [" + fetched.CID + "].\nMemories used: [" + injected.CID + "] [" + other.CID + "] [mem:dead0000]"
	turn := Turn{SessionID: "s", Project: "/p", PromptID: "p1", Answer: answer, Now: now}
	c, err := Record(ctx, db, turn)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{injected.CID, fetched.CID}; !reflect.DeepEqual(c.Used, want) {
		t.Errorf("Used = %v, want %v", c.Used, want)
	}
	if !reflect.DeepEqual(c.Unshown, []string{other.CID}) || !reflect.DeepEqual(c.Unknown, []string{"mem:dead0000"}) || !c.Flagged() {
		t.Errorf("Unshown = %v, Unknown = %v, want [%s] [mem:dead0000]", c.Unshown, c.Unknown, other.CID)
	}
	// An earlier turn's tool result showed it: still flagged, and said so.
	if !reflect.DeepEqual(c.Earlier, []string{other.CID}) {
		t.Errorf("Earlier = %v, want [%s]", c.Earlier, other.CID)
	}
	// The same Stop again (a retried hook) counts nothing twice.
	if _, err := Record(ctx, db, turn); err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		e           store.Entry
		use, inject int
	}{{injected, 1, 1}, {fetched, 1, 0}, {other, 0, 0}} {
		got, err := db.EntryByCID(ctx, want.e.CID)
		if err != nil {
			t.Fatal(err)
		}
		if got.UseCount != want.use || got.InjectCount != want.inject {
			t.Errorf("%s %q: used %d, injected %d; want %d, %d", got.CID, got.Title, got.UseCount, got.InjectCount, want.use, want.inject)
		}
	}
	evs, err := db.Read().Events(ctx, store.EventFilter{Types: []string{store.TypeMemoryCited}})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 {
		t.Fatalf("%d memory_cited events, want 1", len(evs))
	}
	var p struct{ Cited, Used, Unshown, Unknown []string }
	if err := json.Unmarshal(evs[0].Payload, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Cited) != 4 || len(p.Used) != 2 || len(p.Unshown) != 1 || len(p.Unknown) != 1 {
		t.Errorf("memory_cited payload = %s", evs[0].Payload)
	}
	// show's history of the memory lists the answer that used it.
	life, err := db.EntryEvents(ctx, fetched)
	if err != nil {
		t.Fatal(err)
	}
	if len(life) == 0 || life[len(life)-1].Type != store.TypeMemoryCited {
		t.Errorf("EntryEvents of a cited memory = %v, want the memory_cited event last", life)
	}
}

func TestRecordNothingCited(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	c, err := Record(context.Background(), db, Turn{SessionID: "s", PromptID: "p", Answer: "Memories used: none", Now: time.Now()})
	if err != nil || len(c.Cited) != 0 || c.Flagged() {
		t.Fatalf("Record(none) = %+v, %v", c, err)
	}
	evs, _ := db.Read().Events(context.Background(), store.EventFilter{Types: []string{store.TypeMemoryCited}})
	if len(evs) != 0 {
		t.Errorf("%d memory_cited events for an answer citing nothing", len(evs))
	}
}

// TestRecordBriefCountsAsShown: a memory the SessionStart brief showed, or
// an earlier prompt's injection (which recall then withholds from later
// prompts), is in the model's context for the whole session: citing it is
// a use, not a citation of something never shown, as stats, the dashboard
// and the log used to count it.
func TestRecordBriefCountsAsShown(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	put := func(title string) store.Entry {
		e, _, err := db.PutEntry(ctx, store.Entry{Project: "/p", SessionID: "old", Type: "decision", Title: title,
			ClaimKey: title, Stage: store.StageVerified, Created: now.Add(-time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	brief, earlier := put("in the start brief"), put("injected for the first prompt")
	start, _ := json.Marshal(map[string]any{"source": "startup", "memories": []string{brief.CID}})
	inj, _ := json.Marshal(map[string]any{"memories": []string{earlier.CID}, "prompt_id": "p1"})
	if err := db.Update(ctx, func(tx *store.Tx) error {
		_, err := tx.Append(ctx, store.Event{Time: now, Type: store.TypeSessionStarted, SessionID: "s", Project: "/p", DedupeKey: "start:s", Payload: start},
			store.Event{Time: now, Type: store.TypeMemoryInjected, SessionID: "s", Project: "/p", DedupeKey: "inject:s:p1", Payload: inj})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	c, err := Record(ctx, db, Turn{SessionID: "s", Project: "/p", PromptID: "p2", Now: now,
		Answer: "Per the brief.\nMemories used: [" + brief.CID + "] [" + earlier.CID + "]"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{brief.CID, earlier.CID}; !reflect.DeepEqual(c.Used, want) || len(c.Unshown) != 0 || c.Flagged() {
		t.Errorf("Used = %v, Unshown = %v; want %v used, nothing unshown", c.Used, c.Unshown, want)
	}
	if got, _ := db.EntryByCID(ctx, brief.CID); got.UseCount != 1 {
		t.Errorf("the brief's memory has %d uses after its citation, want 1", got.UseCount)
	}
}
