package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// The project every seeded session belongs to.
const seedProject = "/home/dev/shop-api"

// secretWords are in the seeded memory the forget tests remove: after the
// forget they must be in no page and in no byte of the store.
const secretWords = "zanzibar-7 rotates the vault key every Tuesday"

var seedStart = time.Date(2026, 9, 1, 9, 0, 0, 0, time.UTC)

// seeded is what seed stored, for the tests to look at.
type seeded struct {
	path       string
	secret     store.Entry // the memory quoting secretWords
	postgres   store.Entry // one side of the open contradiction
	mysql      store.Entry // the other side
	pinned     store.Entry
	session    string // the session holding secretWords
	quoted     int64  // the message secretWords is quoted from
	conflictID int64
}

var (
	seedFiles    = []string{"internal/cart/cart.go", "cmd/api/main.go", "internal/pay/stripe.go", "migrations/0007_orders.sql", "web/src/Checkout.tsx", "Makefile"}
	seedSentence = []string{"the checkout total rounds to cents before tax", "orders older than 90 days move to cold storage",
		"the cart service retries Stripe calls three times with backoff", "integration tests need the compose stack running",
		"the API listens on port 8080 behind nginx", "we log request ids on every handler", "feature flags live in LaunchDarkly",
		"the nightly job rebuilds the search index", "Redis holds sessions for 24 hours", "coverage must stay above 80 percent"}
)

// seed fills a store at dir with n conversation messages in sessions of 50,
// one memory per ten messages quoting its message, a contradiction, a pin,
// injections and uses, and the secret memory the forget tests remove.
func seed(tb testing.TB, dir string, n int) seeded {
	tb.Helper()
	ctx := context.Background()
	path := filepath.Join(dir, "memory.db")
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	db.Now = func() time.Time { return seedStart }
	r := rand.New(rand.NewPCG(16, uint64(n)))
	var out seeded
	out.path = path
	out.session = "sess-secret"

	type msg struct {
		ev    store.Event
		quote string
	}
	var batch []msg
	flush := func() {
		if len(batch) == 0 {
			return
		}
		evs := make([]store.Event, len(batch))
		for i, m := range batch {
			evs[i] = m.ev
		}
		res, err := appendEvents(ctx, db, evs...)
		if err != nil {
			tb.Fatal(err)
		}
		var ws []store.EntryWrite
		for i, m := range batch {
			if m.quote == "" {
				continue
			}
			start := strings.Index(m.ev.Text, m.quote)
			typ := []string{"decision", "fact", "constraint", "preference", "lesson", "task"}[len(ws)%6]
			ws = append(ws, store.EntryWrite{Entry: store.Entry{Project: seedProject, SessionID: m.ev.SessionID, Type: typ,
				Title: strings.ToUpper(m.quote[:1]) + m.quote[1:], ClaimKey: fmt.Sprintf("claim-%d", res.IDs[i]), Stage: store.StageVerified,
				Created: m.ev.Time,
				Evidence: []store.Evidence{{EventID: res.IDs[i], SessionID: m.ev.SessionID, Quote: m.quote, SpanStart: start,
					SpanEnd: start + len(m.quote), Method: "exact", Confidence: 1}}}})
		}
		if err := db.Update(ctx, func(tx *store.Tx) error { _, _, err := tx.PutEntries(ctx, ws); return err }); err != nil {
			tb.Fatal(err)
		}
		batch = batch[:0]
	}
	for i := range n {
		sess := fmt.Sprintf("sess-%04d", i/50)
		if i%50 == 0 {
			flush()
			if err := touch(ctx, db, store.Session{ID: sess, Project: seedProject, Cwd: seedProject, Source: "startup",
				StartedAt: seedStart.Add(time.Duration(i) * 3 * time.Minute)}); err != nil {
				tb.Fatal(err)
			}
		}
		s := seedSentence[r.IntN(len(seedSentence))]
		file := seedFiles[r.IntN(len(seedFiles))]
		ev := store.Event{Time: seedStart.Add(time.Duration(i) * 3 * time.Minute), SessionID: sess, Project: seedProject,
			DedupeKey: fmt.Sprintf("seed:%d", i)}
		var quote string
		switch i % 3 {
		case 0:
			ev.Type, ev.Text = store.TypeUserPrompt, "Please look at "+file+": is it true that "+s+"?"
		case 1:
			ev.Type, ev.Text = store.TypeAgentResponse, "I checked "+file+". Yes: "+s+". I left a comment there."
			if i%10 == 1 {
				quote = s + fmt.Sprintf(" (note %d)", i)
				ev.Text = "I checked " + file + ". Yes: " + quote + ". I left a comment there."
			}
		default:
			ev.Type, ev.Text = store.TypeToolObservation, "Bash: go test ./... -run "+strings.Fields(s)[1]+"\nok  \t"+file+"\t0.42s"
		}
		batch = append(batch, msg{ev, quote})
		if len(batch) >= 2000 && i%50 != 49 {
			flush()
		}
	}
	flush()

	// The session the forget tests remove a memory from.
	t0 := seedStart.Add(-48 * time.Hour)
	if err := touch(ctx, db, store.Session{ID: out.session, Project: seedProject, Cwd: seedProject, Source: "startup", StartedAt: t0}); err != nil {
		tb.Fatal(err)
	}
	conv := []store.Event{
		{Type: store.TypeUserPrompt, Text: "How is the vault key handled on staging?"},
		{Type: store.TypeToolObservation, Text: "Read: ops/vault.md\n# Vault\nKeys are rotated by a cron job."},
		{Type: store.TypeAgentResponse, Text: "From ops/vault.md: the cron job " + secretWords + ", and the old key stays valid for an hour."},
		{Type: store.TypeUserPrompt, Text: "Good. And which database do we use?"},
		{Type: store.TypeAgentResponse, Text: "We use Postgres 16 for orders."},
		{Type: store.TypeAgentResponse, Text: "Correction from the infra repo: we use MySQL 8 for orders."},
	}
	for i := range conv {
		conv[i].Time, conv[i].SessionID, conv[i].Project = t0.Add(time.Duration(i)*time.Minute), out.session, seedProject
		conv[i].DedupeKey = fmt.Sprintf("secret:%d", i)
	}
	res, err := appendEvents(ctx, db, conv...)
	if err != nil {
		tb.Fatal(err)
	}
	out.quoted = res.IDs[2]
	put := func(key, title string, ev int, quote string) store.Entry {
		text := conv[ev].Text
		start := strings.Index(text, quote)
		x, _, err := db.PutEntry(ctx, store.Entry{Project: seedProject, SessionID: out.session, Type: "fact", Title: title, ClaimKey: key,
			Stage: store.StageVerified, Created: conv[ev].Time,
			Evidence: []store.Evidence{{EventID: res.IDs[ev], SessionID: out.session, Quote: quote, SpanStart: start, SpanEnd: start + len(quote),
				Method: "exact", Confidence: 1}}})
		if err != nil {
			tb.Fatal(err)
		}
		return x
	}
	out.secret = put("vault-rotation", "The cron job "+secretWords, 2, secretWords)
	out.postgres = put("orders-db-pg", "Orders live in Postgres 16", 4, "we use Postgres 16 for orders")
	out.mysql = put("orders-db-my", "Orders live in MySQL 8", 5, "we use MySQL 8 for orders")
	if _, err := db.AddConflict(ctx, store.Conflict{Older: out.postgres.ID, Newer: out.mysql.ID, Kind: "contradicts", Reason: "database: postgres vs mysql", Detected: t0},
		store.Event{Time: t0, Type: store.TypeConflict, SessionID: out.session, Project: seedProject, DedupeKey: "conflict:seed",
			Payload: json.RawMessage(fmt.Sprintf(`{"older":%q,"newer":%q,"kind":"contradicts"}`, out.postgres.CID, out.mysql.CID))}); err != nil {
		tb.Fatal(err)
	}
	cs, err := db.OpenConflicts(ctx, seedProject, 1)
	if err != nil || len(cs) != 1 {
		tb.Fatalf("open conflicts %v %v", cs, err)
	}
	out.conflictID = cs[0].ID

	// Injections and uses over a few days, the secret memory among them, and a pin.
	es, err := db.Read().Entries(ctx, store.EntryFilter{Project: seedProject, Limit: 5})
	if err != nil {
		tb.Fatal(err)
	}
	out.pinned = es[len(es)-1]
	for d := range 6 {
		at := seedStart.Add(time.Duration(d) * 26 * time.Hour)
		ids := []int64{out.secret.ID, es[d%len(es)].ID}
		cids := fmt.Sprintf(`[%q,%q]`, out.secret.CID, es[d%len(es)].CID)
		if err := db.MarkInjected(ctx, store.Event{Time: at, Type: store.TypeMemoryInjected, SessionID: out.session, Project: seedProject,
			DedupeKey: fmt.Sprintf("inject:%d", d), Payload: json.RawMessage(`{"memories":` + cids + `,"chars":300}`)}); err != nil {
			tb.Fatal(err)
		}
		if d%2 == 0 {
			if err := db.MarkUsed(ctx, ids[:1], at, store.Event{Time: at.Add(time.Minute), Type: store.TypeMemoryCited, SessionID: out.session,
				Project: seedProject, DedupeKey: fmt.Sprintf("cite:%d", d),
				Payload: json.RawMessage(fmt.Sprintf(`{"cited":[%q],"used":[%q]}`, out.secret.CID, out.secret.CID))}); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if _, err := appendEvents(ctx, db, store.Event{Time: seedStart, Type: store.TypePinned, Project: seedProject, DedupeKey: "pin:seed",
		Payload: json.RawMessage(fmt.Sprintf(`{"cid":%q}`, out.pinned.CID))}); err != nil {
		tb.Fatal(err)
	}
	if out.secret, err = db.Read().EntryByID(ctx, out.secret.ID); err != nil {
		tb.Fatal(err)
	}
	return out
}

// appendEvents appends evs in a write transaction of their own, as a hook does.
func appendEvents(ctx context.Context, db *store.DB, evs ...store.Event) (res store.AppendResult, err error) {
	err = db.Update(ctx, func(tx *store.Tx) error {
		res, err = tx.Append(ctx, evs...)
		return err
	})
	return res, err
}

// touch registers a session in a write transaction of its own.
func touch(ctx context.Context, db *store.DB, s store.Session) error {
	return db.Update(ctx, func(tx *store.Tx) error { return tx.TouchSession(ctx, s) })
}
