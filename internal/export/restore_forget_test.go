package export_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/export"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

var forgetDay = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// said stores one session of turns in project, a minute apart from start.
func said(t *testing.T, db *store.DB, project, session string, start time.Time, turns ...string) {
	t.Helper()
	ctx := context.Background()
	var evs []store.Event
	for i, text := range turns {
		typ := store.TypeUserPrompt
		if i%2 == 1 {
			typ = store.TypeAgentResponse
		}
		evs = append(evs, store.Event{Time: start.Add(time.Duration(i) * time.Minute), Type: typ, SessionID: session,
			Project: project, Text: text, DedupeKey: fmt.Sprintf("%s:%d", session, i)})
	}
	if err := db.Update(ctx, func(tx *store.Tx) error {
		if err := tx.TouchSession(ctx, store.Session{ID: session, Project: project, Cwd: project, StartedAt: start}); err != nil {
			return err
		}
		_, err := tx.Append(ctx, evs...)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// takesBack reports whether db stores again the answer a forget of
// "zanzibar" removed, as a transcript imported again would bring it.
func takesBack(t *testing.T, db *store.DB) bool {
	t.Helper()
	ctx := context.Background()
	var added int
	if err := db.Update(ctx, func(tx *store.Tx) error {
		r, err := tx.Append(ctx, store.Event{Time: forgetDay, Type: store.TypeAgentResponse, SessionID: "s", Project: "/home/jo/dev/kiln",
			Text: "In vault at secret/zanzibar.", DedupeKey: "s:1"})
		added = r.Added
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return added != 0
}

// zanzibarForgotten is a store that said where the zanzibar token is, then
// forgot "zanzibar".
func zanzibarForgotten(t *testing.T) *store.DB {
	t.Helper()
	db := storetest.Open(t)
	said(t, db, "/home/jo/dev/kiln", "s", forgetDay, "Where is the zanzibar staging token?", "In vault at secret/zanzibar.")
	if _, err := db.Forget(context.Background(), store.ForgetSelector{Phrase: "zanzibar"}); err != nil {
		t.Fatal(err)
	}
	return db
}

// A backup taken before a forget, restored after it, does not bring the
// forgotten session's summary back (review 176).
func TestRestoreKeepsForgottenSummaryOut(t *testing.T) {
	ctx := context.Background()
	for _, sel := range []store.ForgetSelector{{SessionID: "s"}, {Phrase: "zanzibar"}} {
		db := storetest.Open(t)
		said(t, db, "/home/jo/dev/kiln", "s", forgetDay, "Where is the zanzibar staging token?", "In vault at secret/zanzibar.")
		if err := db.Update(ctx, func(tx *store.Tx) error {
			return tx.SetSummary(ctx, "s", "Where is the zanzibar staging token?")
		}); err != nil {
			t.Fatal(err)
		}
		var backup bytes.Buffer
		if err := export.Write(ctx, db, "", forgetDay.AddDate(0, 0, 1), &backup); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Forget(ctx, sel); err != nil {
			t.Fatal(err)
		}
		var warn bytes.Buffer
		if _, err := export.Restore(ctx, db, bytes.NewReader(backup.Bytes()), &warn, export.Options{}); err != nil {
			t.Fatal(err)
		}
		s, err := db.Read().Session(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(s.Summary, "zanzibar") {
			t.Errorf("forget %+v: the forgotten session's summary is back: %q", sel, s.Summary)
		}
		if !strings.Contains(warn.String(), "session s: summary not restored") {
			t.Errorf("forget %+v: the restore does not say it left the summary out:\n%s", sel, warn.String())
		}
	}
}

// An export written with the forget key, restored into a new store, keeps
// every forget there (review 176).
func TestRestoreWithForgetKeyHonoursRules(t *testing.T) {
	db := zanzibarForgotten(t)
	file := write(t, db, forgetDay.AddDate(0, 0, 1), true)
	db2 := storetest.Open(t)
	sum, warn := restore(t, db2, file, export.Options{AdoptForgetKey: true})
	if sum.RulesNotCarried != 0 || strings.Contains(warn, "WARNING") {
		t.Errorf("rules not carried %d, warnings:\n%s", sum.RulesNotCarried, warn)
	}
	if takesBack(t, db2) {
		t.Errorf("a store restored with the forget key took back a message a forget's rule refuses")
	}
}

// Without the key the export holds nothing to test guesses against, and
// the restore says, on warn and in its summary, that the rules do not hold.
func TestRestoreWithoutForgetKeySaysSo(t *testing.T) {
	ctx := context.Background()
	db := zanzibarForgotten(t)
	key, err := db.ForgetKey(ctx)
	if err != nil || key == nil {
		t.Fatalf("forget key %x, %v", key, err)
	}
	file := write(t, db, forgetDay.AddDate(0, 0, 1), false)
	if strings.Contains(string(file), hex.EncodeToString(key)) || strings.Contains(string(file), `"forget_key"`) {
		t.Fatalf("an export written without the key holds it:\n%s", file)
	}
	db2 := storetest.Open(t)
	sum, warn := restore(t, db2, file, export.Options{})
	if sum.RulesNotCarried != 1 {
		t.Errorf("rules not carried: %d, want 1", sum.RulesNotCarried)
	}
	if w := warn; !strings.Contains(w, "WARNING: 1 forget rule of the export could not be carried over") || !strings.Contains(w, "--with-forget-key") {
		t.Errorf("the restore does not warn of the rules it cannot carry:\n%s", w)
	}
}

// Restored into the store that wrote it, an export without the key keeps
// its rules: that store has the key, and the restore says nothing.
func TestRestoreIntoItsOwnStoreCarriesRules(t *testing.T) {
	db := zanzibarForgotten(t)
	file := write(t, db, forgetDay.AddDate(0, 0, 1), false)
	sum, warn := restore(t, db, file, export.Options{})
	if sum.RulesNotCarried != 0 || strings.Contains(warn, "WARNING") {
		t.Errorf("rules not carried %d, warnings:\n%s", sum.RulesNotCarried, warn)
	}
	if takesBack(t, db) {
		t.Errorf("the store took back a message its own forget refuses")
	}
}

// A store with a key of its own keeps it: the export's key is not taken,
// and the restore says that the export's rules do not hold there.
func TestRestoreKeyIntoStoreWithItsOwn(t *testing.T) {
	ctx := context.Background()
	db := zanzibarForgotten(t)
	file := write(t, db, forgetDay.AddDate(0, 0, 1), true)
	db2 := storetest.Open(t)
	said(t, db2, "/home/jo/dev/other", "o", forgetDay, "Where is the quokka build cache?", "Under /var/cache/quokka.")
	if _, err := db2.Forget(ctx, store.ForgetSelector{Phrase: "quokka"}); err != nil {
		t.Fatal(err)
	}
	own, _ := db2.ForgetKey(ctx)
	sum, warn := restore(t, db2, file, export.Options{AdoptForgetKey: true})
	if after, _ := db2.ForgetKey(ctx); !bytes.Equal(after, own) {
		t.Errorf("the restore replaced the store's own forget key")
	}
	if sum.RulesNotCarried != 1 || !strings.Contains(warn, "has a forget key of its own") {
		t.Errorf("rules not carried %d, warnings:\n%s", sum.RulesNotCarried, warn)
	}
}

// A forget key line that is not a key is a failed line, not a key.
func TestRestoreRefusesABadForgetKey(t *testing.T) {
	ctx := context.Background()
	var buf bytes.Buffer
	if err := export.Write(ctx, zanzibarForgotten(t), "", forgetDay, &buf); err != nil {
		t.Fatal(err)
	}
	header, rest, _ := strings.Cut(buf.String(), "\n")
	in := header + "\n" + `{"kind":"forget_key","key":"abcd"}` + "\n" + rest
	db2 := storetest.Open(t)
	sum, err := export.Restore(ctx, db2, strings.NewReader(in), io.Discard, export.Options{AdoptForgetKey: true})
	if err != nil {
		t.Fatal(err)
	}
	if key, _ := db2.ForgetKey(ctx); sum.FailedLines != 1 || key != nil {
		t.Errorf("failed lines %d, key %x", sum.FailedLines, key)
	}
}
