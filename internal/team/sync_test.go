package team

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/team/pgtest"
)

// world is a real server with team devs (alice, bob) and a store for each,
// both sharing one project from checkouts at different paths.
type world struct {
	srv          *pgtest.Server
	alice, bob   *store.DB
	aDir, bDir   string
	aConf, bConf Config
}

func newWorld(t testing.TB) *world {
	t.Helper()
	ctx := context.Background()
	srv := pgtest.Start(t)
	t.Setenv("PGPASSFILE", srv.PassFile)
	srv.AddRole(t, "alice")
	srv.AddRole(t, "bob")
	admin, err := Connect(ctx, srv.URL(srv.Superuser))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if err := Init(ctx, admin, "devs"); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"alice", "bob"} {
		if err := AddMember(ctx, admin, "devs", m); err != nil {
			t.Fatal(err)
		}
	}
	open := func(dir string) *store.DB {
		db, err := store.Open(ctx, filepath.Join(dir, "memory.db"), store.Options{Bulk: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	w := &world{srv: srv, aDir: t.TempDir(), bDir: t.TempDir(),
		aConf: Config{URL: srv.URL("alice"), Team: "devs", Projects: map[string]string{"/a/shop": "github.com/acme/shop"}},
		bConf: Config{URL: srv.URL("bob"), Team: "devs", Projects: map[string]string{"/b/shop": "github.com/acme/shop"}}}
	w.alice, w.bob = open(w.aDir), open(w.bDir)
	return w
}

// remember stores n verified memories of alice's, titled by title(i).
func (w *world) remember(t testing.TB, n int, title func(i int) string) {
	t.Helper()
	ctx := context.Background()
	for start := 0; start < n; start += 5000 {
		err := w.alice.Update(ctx, func(tx *store.Tx) error {
			var ws []store.EntryWrite
			for i := start; i < min(start+5000, n); i++ {
				tl := title(i)
				ws = append(ws, store.EntryWrite{Entry: store.Entry{Project: "/a/shop", SessionID: "s", Type: "fact", Title: tl,
					ClaimKey: tl, Stage: store.StageVerified, Evidence: []store.Evidence{{SessionID: "s", Quote: tl, Method: "exact", Confidence: 1}}}})
			}
			_, _, err := tx.PutEntries(ctx, ws)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func (w *world) sync(t testing.TB, db *store.DB, dir string, c Config) Result {
	t.Helper()
	res, err := Sync(context.Background(), db, dir, c, time.Now())
	if err != nil {
		t.Fatalf("sync: %+v, %v", res, err)
	}
	return res
}

// count runs a query of one number as the superuser.
func (w *world) count(t testing.TB, query string) int {
	t.Helper()
	var n int
	fmt.Sscan(w.srv.SQL(t, w.srv.Superuser, query), &n)
	return n
}

func localCount(t testing.TB, db *store.DB, query string) int {
	t.Helper()
	var n int
	if err := db.SQL().QueryRow(query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSyncPageBoundaries: one change past a whole push batch and a whole
// pull page arrives once, as do the others, and a second sync moves
// nothing.
func TestSyncPageBoundaries(t *testing.T) {
	w := newWorld(t)
	n := max(pushBatch, pullPage) + 1
	w.remember(t, n, func(i int) string { return fmt.Sprintf("Service %d listens on port %d", i, 10000+i) })
	if res := w.sync(t, w.alice, w.aDir, w.aConf); res.Pushed != n {
		t.Fatalf("pushed %d, want %d", res.Pushed, n)
	}
	if res := w.sync(t, w.bob, w.bDir, w.bConf); res.Pulled != n {
		t.Fatalf("pulled %d, want %d", res.Pulled, n)
	}
	if got := localCount(t, w.bob, `SELECT count(DISTINCT shared_id) FROM entries WHERE author = 'alice'`); got != n {
		t.Errorf("bob holds %d of alice's memories, want %d", got, n)
	}
	if res := w.sync(t, w.bob, w.bDir, w.bConf); res.Pulled != 0 || res.Pushed != 0 {
		t.Errorf("a second sync moved %+v, want nothing", res)
	}
	if got := w.count(t, `SELECT count(*) FROM cml.changes`); got != n {
		t.Errorf("%d changes logged, want %d", got, n)
	}
}

// TestPushBatchConflicts: one push batch that holds a new memory, a
// correction of one the server has, a change the server already applied
// (its answer lost), a put and a forget of one memory, a memory whose text
// PostgreSQL cannot hold, and a put of an id another member's memory has:
// the foreign put changes nothing, and every other change is applied once.
func TestPushBatchConflicts(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := w.alice.SQL().Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	shared := func(title string) (id int64, sharedID string) {
		t.Helper()
		if err := w.alice.SQL().QueryRow(`SELECT id, shared_id FROM entries WHERE title = ?`, title).Scan(&id, &sharedID); err != nil {
			t.Fatalf("%s: %v", title, err)
		}
		return id, sharedID
	}
	w.remember(t, 3, func(i int) string { return fmt.Sprintf("Queue %d is drained nightly", i) })
	if _, err := w.alice.ShareVerified(ctx, "/a/shop"); err != nil {
		t.Fatal(err)
	}
	id0, shared0 := shared("Queue 0 is drained nightly")
	_, shared1 := shared("Queue 1 is drained nightly")
	_, shared2 := shared("Queue 2 is drained nightly")
	var key1 string
	if err := w.alice.SQL().QueryRow(`SELECT key FROM team_outbox WHERE shared_id = ?`, shared1).Scan(&key1); err != nil {
		t.Fatal(err)
	}
	w.sync(t, w.alice, w.aDir, w.aConf)

	// A correction of the first: its put goes out again.
	exec(`UPDATE entries SET title = 'Queue 0 is drained hourly' WHERE id = ?`, id0)
	if err := w.alice.Update(ctx, func(tx *store.Tx) error { return tx.ShareCorrection(ctx, id0) }); err != nil {
		t.Fatal(err)
	}
	// The second's push again, as a sync killed after the commit sends
	// it; then a put and a forget of the third in one batch.
	exec(`INSERT INTO team_outbox (kind, shared_id, key, created_at) VALUES ('put', ?, ?, ''), ('put', ?, 'k-put', ''),
		('forget', ?, 'k-forget', '')`, shared1, key1, shared2, shared2)
	// New memories: one whose text PostgreSQL's text cannot hold, one
	// whose id bob's memory on the server has.
	w.srv.SQL(t, "bob", `INSERT INTO cml.memories (team, project, id, type, title, stage, status, created_at)
		VALUES ('devs', 'github.com/acme/shop', 'taken', 'fact', 'Bob''s own', 'verified', 'active', now())`)
	w.remember(t, 3, func(i int) string {
		return []string{"Topics are kept a week", "Cache keys carry bytes", "This id is taken"}[i]
	})
	exec(`UPDATE entries SET title = 'Cache keys carry a NUL '||char(0)||' byte' WHERE title = 'Cache keys carry bytes'`)
	if _, err := w.alice.ShareVerified(ctx, "/a/shop"); err != nil {
		t.Fatal(err)
	}
	_, taken := shared("This id is taken")
	exec(`UPDATE entries SET shared_id = 'taken' WHERE shared_id = ?`, taken)
	exec(`UPDATE team_outbox SET shared_id = 'taken' WHERE shared_id = ?`, taken)
	if n, _ := w.alice.OutboxPending(ctx); n != 7 {
		t.Fatalf("%d changes pending, want 7 (of one batch)", n)
	}

	w.sync(t, w.alice, w.aDir, w.aConf)
	if n, _ := w.alice.OutboxPending(ctx); n != 0 {
		t.Errorf("%d changes still pending", n)
	}
	if got := w.srv.SQL(t, w.srv.Superuser, `SELECT author || ': ' || title FROM cml.memories WHERE id = 'taken'`); got != "bob: Bob's own" {
		t.Errorf("bob's memory became %q", got)
	}
	if got := w.srv.SQL(t, w.srv.Superuser, fmt.Sprintf(`SELECT title FROM cml.memories WHERE id = '%s'`, shared0)); got != "Queue 0 is drained hourly" {
		t.Errorf("the correction reached the server as %q", got)
	}
	if got := w.count(t, fmt.Sprintf(`SELECT count(*) FROM cml.memories WHERE id = '%s'`, shared2)); got != 0 {
		t.Error("the memory put and forgotten in one batch is still on the server")
	}
	if got := w.srv.SQL(t, w.srv.Superuser, `SELECT title FROM cml.memories WHERE title LIKE 'Cache keys%'`); got != "Cache keys carry a NUL  byte" {
		t.Errorf("the memory with a NUL byte reached the server as %q", got)
	}
	// 3 of alice's, bob's, one forgotten, 2 new.
	if got := w.count(t, `SELECT count(*) FROM cml.memories`); got != 5 {
		t.Errorf("%d memories on the server, want 5", got)
	}
	if got := w.count(t, fmt.Sprintf(`SELECT count(*) FROM cml.changes WHERE memory_id = '%s'`, shared1)); got != 1 {
		t.Errorf("the change sent again was logged %d times, want once", got)
	}
}

// TestPullPageHostileRow: a row a hostile server writes among good ones
// (NULL and oversized quotes) is pulled bounded, and its neighbours with it.
func TestPullPageHostileRow(t *testing.T) {
	w := newWorld(t)
	w.remember(t, 2, func(i int) string { return fmt.Sprintf("Region %d fails over to its pair", i) })
	w.sync(t, w.alice, w.aDir, w.aConf)
	w.srv.SQL(t, w.srv.Superuser, `INSERT INTO cml.memories (team, project, id, type, title, stage, status, quotes, created_at)
		VALUES ('devs', 'github.com/acme/shop', 'hostile', 'fact', 'Quotes with holes', 'verified', 'active',
			ARRAY['fine', NULL, repeat('x', 3000000)], now())`)
	w.remember(t, 4, func(i int) string { return fmt.Sprintf("Region %d fails over to its pair", i) })
	w.sync(t, w.alice, w.aDir, w.aConf)
	if res := w.sync(t, w.bob, w.bDir, w.bConf); res.Pulled != 5 {
		t.Errorf("pulled %d, want 5", res.Pulled)
	}
	if got := localCount(t, w.bob, `SELECT count(*) FROM entries WHERE author <> ''`); got != 5 {
		t.Errorf("bob holds %d teammates' memories, want 5", got)
	}
	if got := localCount(t, w.bob, `SELECT max(length(quote)) FROM evidence`); got > 4000 {
		t.Errorf("a pulled quote is %d characters long", got)
	}
}

// TestPullMemoryChangedTwice: a memory its author shared and then corrected
// before a teammate's sync comes to the teammate twice in one page; the
// second change updates the copy the first inserted, in the same local
// transaction, and the copy is found by its new words.
func TestPullMemoryChangedTwice(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.remember(t, 2, func(i int) string { return fmt.Sprintf("Backups run at %d am", i+1) })
	w.sync(t, w.alice, w.aDir, w.aConf)
	if _, err := w.alice.SQL().Exec(`UPDATE entries SET title = 'Backups run at noon' WHERE title = 'Backups run at 1 am'`); err != nil {
		t.Fatal(err)
	}
	var id int64
	if err := w.alice.SQL().QueryRow(`SELECT id FROM entries WHERE title = 'Backups run at noon'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if err := w.alice.Update(ctx, func(tx *store.Tx) error { return tx.ShareCorrection(ctx, id) }); err != nil {
		t.Fatal(err)
	}
	w.sync(t, w.alice, w.aDir, w.aConf)
	if res := w.sync(t, w.bob, w.bDir, w.bConf); res.Pulled != 3 {
		t.Errorf("pulled %d changes, want 3", res.Pulled)
	}
	if got := localCount(t, w.bob, `SELECT count(*) FROM entries_fts WHERE entries_fts MATCH 'noon'`); got != 1 {
		t.Errorf("the corrected memory is found %d times by its new words, want once", got)
	}
	if got := localCount(t, w.bob, `SELECT count(*) FROM entries WHERE author = 'alice'`); got != 2 {
		t.Errorf("bob holds %d of alice's memories, want 2", got)
	}
	if _, err := w.bob.SQL().Exec(`INSERT INTO entries_fts(entries_fts) VALUES ('integrity-check')`); err != nil {
		t.Errorf("bob's full-text index: %v", err)
	}
}

// TestPushSkipsOnlyItsOwnChanges: a sync does not pull back the changes its
// own push just logged, but a teammate's change logged before the push is
// pulled, and the cursor ends past both.
func TestPushSkipsOnlyItsOwnChanges(t *testing.T) {
	w := newWorld(t)
	w.remember(t, 3, func(i int) string { return fmt.Sprintf("Worker %d restarts on failure", i) })
	if res := w.sync(t, w.alice, w.aDir, w.aConf); res.Pushed != 3 || res.Pulled != 0 {
		t.Errorf("first sync %+v, want 3 pushed and none of them pulled back", res)
	}
	w.srv.SQL(t, "bob", `INSERT INTO cml.memories (team, project, id, type, title, stage, status, created_at)
		VALUES ('devs', 'github.com/acme/shop', 'bobs', 'fact', 'Bob''s worker logs to syslog', 'verified', 'active', now())`)
	w.remember(t, 2, func(i int) string { return fmt.Sprintf("Cron job %d runs hourly", i) })
	if res := w.sync(t, w.alice, w.aDir, w.aConf); res.Pushed != 2 || res.Pulled != 3 {
		// bob's change comes before alice's push: the push's own
		// changes follow it, so they are pulled with it this time.
		t.Errorf("second sync %+v, want 2 pushed, bob's and those 2 pulled", res)
	}
	if got := localCount(t, w.alice, `SELECT count(*) FROM entries WHERE author = 'bob'`); got != 1 {
		t.Errorf("alice holds %d of bob's memories, want 1", got)
	}
	w.remember(t, 1, func(i int) string { return "Logs are kept a month" })
	if res := w.sync(t, w.alice, w.aDir, w.aConf); res.Pushed != 1 || res.Pulled != 0 {
		t.Errorf("third sync %+v, want 1 pushed and not pulled back", res)
	}
	st, err := w.alice.TeamState(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if last := w.srv.SQL(t, w.srv.Superuser, `SELECT max(seq) FROM cml.changes`); st[stateCursor] != last {
		t.Errorf("cursor %q, want the last change %s", st[stateCursor], last)
	}
}

// TestForgetDuringPushNotSent: a memory forgotten while the batch before
// its own is in flight (after push built its batch from the memory's text)
// never reaches the server: no put of it is logged, only its forget.
func TestForgetDuringPushNotSent(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.remember(t, pushBatch+10, func(i int) string { return fmt.Sprintf("Queue %d drains into topic t%d", i, i) })
	var forgot store.OutboxChange
	batchRead = func(db *store.DB, next *batch) error {
		if forgot.SharedID != "" || len(next.cs) == 0 {
			return nil
		}
		forgot = next.cs[len(next.cs)/2]
		_, err := db.Forget(ctx, store.ForgetSelector{CID: forgot.Entry.CID})
		return err
	}
	t.Cleanup(func() { batchRead = nil })
	w.sync(t, w.alice, w.aDir, w.aConf)
	if forgot.SharedID == "" {
		t.Fatal("the push built no second batch")
	}
	if n := w.count(t, fmt.Sprintf(`SELECT count(*) FROM cml.changes WHERE memory_id = '%s' AND op <> 'forget'`, forgot.SharedID)); n != 0 {
		t.Errorf("%q was forgotten during the push and still sent (%d changes)", forgot.Entry.Title, n)
	}
	if n := w.count(t, `SELECT count(*) FROM cml.memories`); n != pushBatch+9 {
		t.Errorf("%d memories on the server, want %d", n, pushBatch+9)
	}
	if n := localCount(t, w.alice, `SELECT count(*) FROM team_outbox`); n != 0 {
		t.Errorf("%d changes left in the outbox", n)
	}
}

// TestPushReadFailsAfterSend: when reading the next batch fails while the
// one before was committed by the server, that one still leaves the
// outbox: the next sync sends only what the server does not have.
func TestPushReadFailsAfterSend(t *testing.T) {
	w := newWorld(t)
	w.remember(t, pushBatch+10, func(i int) string { return fmt.Sprintf("Job %d runs on worker w%d", i, i) })
	batchRead = func(*store.DB, *batch) error { return errors.New("the disk is gone") }
	t.Cleanup(func() { batchRead = nil })
	if _, err := Sync(context.Background(), w.alice, w.aDir, w.aConf, time.Now()); err == nil {
		t.Fatal("the sync succeeded with a failed read")
	}
	if n := w.count(t, `SELECT count(*) FROM cml.memories`); n != pushBatch {
		t.Fatalf("%d memories on the server, want the first batch's %d", n, pushBatch)
	}
	if n := localCount(t, w.alice, `SELECT count(*) FROM team_outbox`); n != 10 {
		t.Errorf("%d changes left in the outbox, want the 10 not sent", n)
	}
}

// TestPullFiltersText: a teammate's memory as the server holds it, written
// by a client that filtered less (or by hand), is filtered as it comes in:
// a secret or a private section in its title, body or quotes is not stored.
func TestPullFiltersText(t *testing.T) {
	w := newWorld(t)
	const token, private = "ghp_1234567890abcdefghijABCDEFGHIJ123456", "my home is 12 Elm Street"
	w.srv.SQL(t, w.srv.Superuser, `INSERT INTO cml.memories (team, project, id, type, title, body, stage, status, quotes, created_at)
		VALUES ('devs', 'github.com/acme/shop', 'raw', 'fact', 'Deploys push with `+token+`', 'The pager kit is kept <private>`+private+`</private>.',
			'verified', 'active', ARRAY['deploy with `+token+`'], now())`)
	if res := w.sync(t, w.bob, w.bDir, w.bConf); res.Pulled != 1 {
		t.Fatalf("pulled %d, want 1", res.Pulled)
	}
	for _, q := range []string{`SELECT count(*) FROM entries WHERE title || body LIKE '%ghp_%' OR body LIKE '%Elm Street%'`,
		`SELECT count(*) FROM evidence WHERE quote LIKE '%ghp_%'`} {
		if got := localCount(t, w.bob, q); got != 0 {
			t.Errorf("%s: %d", q, got)
		}
	}
}

// TestMemberCannotLogChanges: a member cannot write the change log by
// hand: a forget logged for another member's memory made every teammate,
// its author too, forget it locally while the server kept it, and a change
// given a sequence number far ahead moved every teammate's cursor past all
// the changes to come. The changes the triggers log keep the memory's
// author.
func TestMemberCannotLogChanges(t *testing.T) {
	w := newWorld(t)
	w.remember(t, 2, func(i int) string { return fmt.Sprintf("Region %d fails over to its pair", i) })
	w.sync(t, w.alice, w.aDir, w.aConf)
	w.sync(t, w.bob, w.bDir, w.bConf)
	id := w.srv.SQL(t, w.srv.Superuser, `SELECT id FROM cml.memories ORDER BY id LIMIT 1`)
	for _, q := range []string{
		`INSERT INTO cml.changes (team, project, memory_id, op) VALUES ('devs', 'github.com/acme/shop', '` + id + `', 'forget')`,
		`INSERT INTO cml.changes (seq, team, project, memory_id, op) OVERRIDING SYSTEM VALUE
			VALUES (1000000, 'devs', 'github.com/acme/shop', 'ahead', 'put')`,
		// The log function fired by a trigger of one's own, on rows that
		// say any team and author (review 165).
		`CREATE TEMP TABLE x (team text, project text, id text, author name);
		CREATE TRIGGER t AFTER DELETE ON pg_temp.x REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION cml.log_changes();
		INSERT INTO x VALUES ('devs', 'github.com/acme/shop', '` + id + `', 'alice');
		DELETE FROM x;`,
	} {
		if _, err := w.srv.TrySQL("bob", q); err == nil {
			t.Errorf("bob logged a change by hand: %s", q)
		}
	}
	w.sync(t, w.bob, w.bDir, w.bConf)
	w.sync(t, w.alice, w.aDir, w.aConf)
	if got := localCount(t, w.alice, `SELECT count(*) FROM entries WHERE author = ''`); got != 2 {
		t.Errorf("alice holds %d of her 2 memories", got)
	}
	if got := localCount(t, w.bob, `SELECT count(*) FROM entries WHERE author = 'alice'`); got != 2 {
		t.Errorf("bob holds %d of alice's 2 memories", got)
	}
	if got := w.srv.SQL(t, w.srv.Superuser, `SELECT string_agg(DISTINCT author, ',') FROM cml.changes`); got != "alice" {
		t.Errorf("the changes are logged as %q, want alice's", got)
	}
}

// TestPullInfiniteDate: a memory dated 'infinity' on the server (a broken
// client, or by hand) is pulled with its change's date: it stopped every
// teammate's pull at it, sync after sync.
func TestPullInfiniteDate(t *testing.T) {
	w := newWorld(t)
	w.srv.SQL(t, "bob", `INSERT INTO cml.memories (team, project, id, type, title, stage, status, created_at)
		VALUES ('devs', 'github.com/acme/shop', 'forever', 'fact', 'Tokens never expire', 'verified', 'active', 'infinity')`)
	w.remember(t, 1, func(i int) string { return "Sessions expire after an hour" })
	w.sync(t, w.alice, w.aDir, w.aConf)
	if res := w.sync(t, w.bob, w.bDir, w.bConf); res.Pulled != 2 {
		t.Errorf("pulled %d, want 2", res.Pulled)
	}
	if got := localCount(t, w.bob, `SELECT count(*) FROM entries WHERE author <> ''`); got != 2 {
		t.Errorf("bob holds %d teammates' memories, want 2", got)
	}
}

// TestJoinDuringPull: a join that adds a project while a sync pulls sets
// the cursor back, and the pull under way does not move it on again: the
// next sync pulls the new project's changes from the start, those logged
// before the cursor the pull had reached too.
func TestJoinDuringPull(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.srv.SQL(t, "alice", `INSERT INTO cml.memories (team, project, id, type, title, stage, status, created_at)
		VALUES ('devs', 'github.com/acme/web', 'web', 'fact', 'The web app is served by nginx', 'verified', 'active', now())`)
	w.remember(t, 1, func(i int) string { return "Orders are archived yearly" })
	w.sync(t, w.alice, w.aDir, w.aConf)
	pagePulled = func(db *store.DB) error {
		pagePulled = nil
		return Restart(ctx, db) // team join --project web, meanwhile
	}
	t.Cleanup(func() { pagePulled = nil })
	w.sync(t, w.bob, w.bDir, w.bConf)
	w.bConf.Projects["/b/web"] = "github.com/acme/web"
	w.sync(t, w.bob, w.bDir, w.bConf)
	if got := localCount(t, w.bob, `SELECT count(*) FROM entries WHERE project = '/b/web'`); got != 1 {
		t.Errorf("bob holds %d memories of the project he joined during a pull, want 1", got)
	}
}

// TestTimedOutSyncBacksOff: syncs that fail by running out of time (a
// server too slow for the worker's deadline) count as failures in a row,
// as others do: each started the backoff again at a minute.
func TestTimedOutSyncBacksOff(t *testing.T) {
	w := newWorld(t)
	w.remember(t, 1, func(i int) string { return "Orders are archived yearly" })
	w.sync(t, w.alice, w.aDir, w.aConf)
	now := time.Now()
	for i := range 2 {
		ctx, cancel := context.WithCancel(context.Background())
		pagePulled = func(*store.DB) error { cancel(); return nil }
		if _, err := Sync(ctx, w.bob, w.bDir, w.bConf, now); err == nil {
			t.Fatal("a sync out of time succeeded")
		}
		pagePulled = nil
		st, err := w.bob.TeamState(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if st[stateFailures] != strconv.Itoa(i+1) {
			t.Errorf("after %d syncs out of time, %q failures in a row", i+1, st[stateFailures])
		}
	}
	if Due(context.Background(), w.bob, now.Add(90*time.Second)) {
		t.Error("a background sync is due a minute and a half after the second failure, before its backoff of two")
	}
}

// TestRemovedMemberSync: a member the server no longer counts in the team is
// told so by sync, not to run team init, and keeps the changes waiting.
func TestRemovedMemberSync(t *testing.T) {
	w := newWorld(t)
	w.remember(t, 1, func(i int) string { return "Orders are archived yearly" })
	w.srv.SQL(t, w.srv.Superuser, `REVOKE devs FROM alice`)
	_, err := Sync(context.Background(), w.alice, w.aDir, w.aConf, time.Now())
	if err == nil || !strings.Contains(err.Error(), "not a member of team devs") {
		t.Errorf("sync of a removed member: %v, want that alice is not a member of team devs", err)
	}
	if n, _ := w.alice.OutboxPending(context.Background()); n != 1 {
		t.Errorf("%d changes pending, want 1", n)
	}
}

// TestSyncAcrossDriveLetterSpellings: alice joined from a terminal that
// spelled her checkout "C:\shop", and her hooks filed its memories under
// "c:\shop" (VS Code writes the drive letter small); bob's config names
// "D:\shop" and his sessions are filed under "d:\shop". Alice's memories
// reach the server, and bob's store files them under "d:\shop", where his
// hooks recall them.
func TestSyncAcrossDriveLetterSpellings(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	w.aConf.Projects = map[string]string{`C:\shop`: "github.com/acme/shop"}
	w.bConf.Projects = map[string]string{`D:\shop`: "github.com/acme/shop"}
	for db, p := range map[*store.DB]string{w.alice: `c:\shop`, w.bob: `d:\shop`} {
		if err := db.Update(ctx, func(tx *store.Tx) error {
			return tx.TouchSession(ctx, store.Session{ID: "s", Project: p, Cwd: p})
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.alice.Update(ctx, func(tx *store.Tx) error {
		var ws []store.EntryWrite
		for i := range 3 {
			tl := fmt.Sprintf("the shop's kiln runs at cone %d", i+4)
			ws = append(ws, store.EntryWrite{Entry: store.Entry{Project: `c:\shop`, SessionID: "s", Type: "fact", Title: tl,
				ClaimKey: tl, Stage: store.StageVerified, Evidence: []store.Evidence{{SessionID: "s", Quote: tl, Method: "exact", Confidence: 1}}}})
		}
		_, _, err := tx.PutEntries(ctx, ws)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	w.sync(t, w.alice, w.aDir, w.aConf)
	if n := w.count(t, `SELECT count(*) FROM cml.memories`); n != 3 {
		t.Errorf("the server holds %d memories, want alice's 3", n)
	}
	w.sync(t, w.bob, w.bDir, w.bConf)
	if n := localCount(t, w.bob, `SELECT count(*) FROM entries WHERE project = 'd:\shop'`); n != 3 {
		t.Errorf("bob's store files %d memories under d:\\shop, want 3 (under D:\\shop: %d)", n,
			localCount(t, w.bob, `SELECT count(*) FROM entries WHERE project = 'D:\shop'`))
	}
}
