package export

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestWriteRestore checks that an export restored into an empty store
// exports the same events, sessions and entries again.
func TestWriteRestore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := storetest.Open(t)
	at := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	err := src.Update(ctx, func(tx *store.Tx) error {
		if err := tx.TouchSession(ctx, store.Session{ID: "s1", Project: "/p", Cwd: "/p", StartedAt: at}); err != nil {
			return err
		}
		_, err := tx.Append(ctx, store.Event{Time: at, Type: store.TypeUserPrompt, SessionID: "s1", Project: "/p",
			Text: "We use pnpm, not npm.", DedupeKey: "prompt:s1:1"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := src.PutEntry(ctx, store.Entry{Project: "/p", SessionID: "s1", Type: "decision", Title: "Use pnpm",
		ClaimKey: "pnpm", Stage: store.StageCandidate, Created: at}); err != nil {
		t.Fatal(err)
	}
	var first bytes.Buffer
	if err := Write(ctx, src, "", at, &first); err != nil {
		t.Fatal(err)
	}
	dst := storetest.Open(t)
	var warn bytes.Buffer
	sum, err := Restore(ctx, dst, bytes.NewReader(first.Bytes()), &warn, Options{})
	if err != nil {
		t.Fatalf("Restore: %v (warnings: %s)", err, warn.String())
	}
	if sum.Events != 1 || sum.Added != 1 || sum.Sessions != 1 || sum.Entries != 1 || sum.FailedLines != 0 {
		t.Fatalf("Restore summary = %+v, want one event, session and entry", sum)
	}
	var second bytes.Buffer
	if err := Write(ctx, dst, "", at, &second); err != nil {
		t.Fatal(err)
	}
	if got, want := second.String(), first.String(); got != want {
		t.Errorf("export after restore:\n%s\nwant:\n%s", got, want)
	}
}

// FuzzRestore feeds a header and then arbitrary lines to Restore: it never
// panics, and a line it cannot read is counted, not an error.
func FuzzRestore(f *testing.F) {
	for _, s := range []string{
		`{"kind":"event","id":1,"ts":"2026-11-20T09:00:00.000Z","type":"user_prompt","session_id":"s","project":"/p","text":"hi","payload":{},"dedupe_key":"k"}`,
		`{"kind":"session","id":"s","project":"/p"}`,
		`{"kind":"entry","cid":"mem:abc","project":"/p","type":"decision","title":"t","claim_key":"k","evidence":[{"event_key":"k","quote":"hi"}]}`,
		`{"kind":"event","payload":"not an object"}`,
		`{"kind":"header","format":"claude-memory-layer-export","version":1}`,
		`{"kind":`, "\x00", strings.Repeat("[", 10000),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		db := storetest.Open(t)
		in := `{"kind":"header","format":"claude-memory-layer-export","version":1,"schema":1}` + "\n" + line + "\n"
		var warn bytes.Buffer
		if _, err := Restore(context.Background(), db, strings.NewReader(in), &warn, Options{}); err != nil {
			t.Fatalf("Restore(%q): %v", line, err)
		}
	})
}

// TestRestoreFiltersEveryText checks that a restore filters every text of
// an export it stores, not only titles, bodies and quotes: an export made
// before the filter knew a secret's shape holds it in the entry's claim
// key (the title's words), in the quotes a failed alignment names, in a
// conflict's reason and in a payload's keys too.
func TestRestoreFiltersEveryText(t *testing.T) {
	t.Parallel()
	const token = "ghp_1234567890abcdefghijABCDEFGHIJ123456"
	lower := strings.ToLower(token)
	lines := []string{
		`{"kind":"header","format":"claude-memory-layer-export","version":1,"schema":1}`,
		`{"kind":"event","id":1,"ts":"2026-11-20T09:00:00.000Z","type":"user_prompt","session_id":"s","project":"/p","text":"deploy with ` + token +
			`","payload":{"` + token + `":"x"},"dedupe_key":"k"}`,
		`{"kind":"entry","cid":"mem:abc","project":"/p","type":"decision","title":"Deploy with ` + token + `","claim_key":"deploy ` + lower +
			`","promotion_blocked":"1 of 1 quotes did not align: not_found: \"` + token + `\"","evidence":[{"event_key":"k","quote":"deploy with ` + token + `"}]}`,
		`{"kind":"entry","cid":"mem:abd","project":"/p","type":"decision","title":"Deploy by hand","claim_key":"deploy hand","evidence":[{"event_key":"k","quote":"deploy with"}],` +
			`"conflicts":[{"older":"mem:abc","newer":"mem:abd","kind":"contradicts","reason":"` + token + `","detected":"2026-11-20T09:00:00.000Z"}]}`,
	}
	db := storetest.Open(t)
	var warn bytes.Buffer
	if _, err := Restore(context.Background(), db, strings.NewReader(strings.Join(lines, "\n")+"\n"), &warn, Options{}); err != nil {
		t.Fatalf("Restore: %v (warnings: %s)", err, warn.String())
	}
	db.Close()
	storetest.NotOnDisk(t, db.Path(), lower[:20])
}

// TestRestoreRekeysWhatTheFilterChanged: two memories exported with a
// cookie the filter did not know then, alike but for it, come back as two,
// and the events that name each by its claim key name it by its key here,
// which holds no secret (review 162).
func TestRestoreRekeysWhatTheFilterChanged(t *testing.T) {
	t.Parallel()
	cookies, bodies := []string{"aaaa1111bbbb2222cccc", "dddd3333eeee4444ffff"}, []string{"staging body", "PROD body"}
	lines := []string{`{"kind":"header","format":"claude-memory-layer-export","version":1,"schema":1}`,
		`{"kind":"event","id":1,"ts":"2026-11-20T09:00:00.000Z","type":"user_prompt","session_id":"s","project":"/p","text":"log in to staging","dedupe_key":"k"}`}
	var entries []string
	for i, c := range cookies {
		title, key := "Staging login Cookie: sid="+c, c+" cookie login sid staging"
		lines = append(lines,
			fmt.Sprintf(`{"kind":"event","id":%d,"ts":"2026-11-20T09:01:00.000Z","type":"entry_extracted","session_id":"s","project":"/p","payload":{"title":%q,"subject":"login","claim_key":%q},"dedupe_key":"entry:s:%d"}`, 2*i+2, title, key, i),
			fmt.Sprintf(`{"kind":"event","id":%d,"ts":"2026-11-20T09:01:00.000Z","type":"evidence_aligned","session_id":"s","project":"/p","payload":{"claim_key":%q,"stage":"verified"},"dedupe_key":"aligned:s:%d"}`, 2*i+3, key, i))
		entries = append(entries, fmt.Sprintf(`{"kind":"entry","cid":"mem:ab%d","project":"/p","session_id":"s","type":"decision","title":%q,"body":%q,"subject":"login","claim_key":%q,"stage":"verified","status":"active","evidence":[{"event_key":"k","quote":"log in to staging","method":"exact","confidence":1}]}`, i, title, bodies[i], key))
	}
	db := storetest.Open(t)
	var warn bytes.Buffer
	if _, err := Restore(context.Background(), db, strings.NewReader(strings.Join(append(lines, entries...), "\n")+"\n"), &warn, Options{}); err != nil {
		t.Fatalf("Restore: %v (warnings: %s)", err, warn.String())
	}
	var got []store.Entry
	if err := db.Update(context.Background(), func(tx *store.Tx) error {
		var err error
		got, err = tx.Entries(context.Background(), store.EntryFilter{Project: "/p"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{}
	for _, e := range got {
		keys[e.ClaimKey] = e.Body
	}
	if len(got) != 2 || keys[got[0].ClaimKey] == keys[got[1].ClaimKey] {
		t.Fatalf("restored %d entries, want two apart: %+v (warnings: %s)", len(got), keys, warn.String())
	}
	evs, err := db.Read().Events(context.Background(), store.EventFilter{Types: []string{store.TypeEntryExtracted, store.TypeEvidenceAligned}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if k := gjson.GetBytes(ev.Payload, "claim_key").Str; keys[k] == "" {
			t.Errorf("%s names %q, the key of no entry here (%v)", ev.Type, k, keys)
		}
	}
	db.Close()
	storetest.NotOnDisk(t, db.Path(), cookies...)
}
