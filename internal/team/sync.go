package team

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/filelock"
	"github.com/claude-memory-layer/claude-memory-layer/internal/privacy"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// pushBatch is how many outbox changes one push transaction carries, and
// pullPage how many pulled changes one local transaction applies: large
// enough that a round trip or a commit is paid per thousands of memories,
// small enough that a sync cut off loses little work.
const (
	pushBatch = 2000
	pullPage  = 2000
)

// Sync state keys in the store (store.TeamState).
const (
	stateCursor   = "cursor"    // the last change sequence pulled
	stateScope    = "scope"     // the server, team and projects the cursor is of (cursorScope)
	stateLastSync = "last_sync" // when the last sync succeeded
	stateLastErr  = "last_error"
	stateFailures = "failures" // syncs failed in a row, for the backoff
	stateNextTry  = "next_try" // no background sync before this
)

// Result is what one Sync did.
type Result struct {
	Shared int `json:"shared"` // own memories newly queued
	Pushed int `json:"pushed"` // changes pushed
	Pulled int `json:"pulled"` // teammates' changes applied
}

// Status is the local side of team status.
type Status struct {
	Team     string            `json:"team"`
	URL      string            `json:"url"`
	Projects map[string]string `json:"projects"`
	Pending  int               `json:"pending"`
	Cursor   int64             `json:"cursor"`
	LastSync string            `json:"last_sync,omitempty"`
	LastErr  string            `json:"last_error,omitempty"`
	NextTry  string            `json:"next_try,omitempty"`
	Password Secret            `json:"password"` // where the URL's password is
}

// LocalStatus reads the sync state from the store.
func LocalStatus(ctx context.Context, db *store.DB, c Config) (Status, error) {
	st, err := db.TeamState(ctx)
	if err != nil {
		return Status{}, err
	}
	n, err := db.OutboxPending(ctx)
	if err != nil {
		return Status{}, err
	}
	cur, _ := strconv.ParseInt(st[stateCursor], 10, 64)
	return Status{Team: c.Team, URL: c.URL, Projects: c.Projects, Pending: n, Cursor: cur,
		LastSync: st[stateLastSync], LastErr: st[stateLastErr], NextTry: st[stateNextTry], Password: c.Secret}, nil
}

// Restart makes the next sync pull everything again and try at once: a
// join that adds a project (whose changes the cursor may be past) or
// changes the team or server. Pulling a change twice changes nothing.
func Restart(ctx context.Context, db *store.DB) error {
	return db.SetTeamState(ctx, map[string]string{stateCursor: "", stateScope: "", stateFailures: "", stateNextTry: "",
		stateLastErr: ""})
}

// cursorScope names what a pull's cursor is of: the server, the team and
// the projects pulled. A pull that started before a join changed them
// moves the cursor on after the join's Restart; the next sync, seeing
// another scope, pulls from the start all the same.
func cursorScope(c Config) string {
	idents := slices.Sorted(maps.Values(c.Projects))
	h := sha256.Sum256([]byte(strings.Join(append([]string{StripPassword(c.URL), c.Team}, idents...), "\n")))
	return hex.EncodeToString(h[:16])
}

// Due reports whether a background sync may run now: not before the backoff
// after failures has passed.
func Due(ctx context.Context, db *store.DB, now time.Time) bool {
	st, err := db.TeamState(ctx)
	if err != nil {
		return false
	}
	next := store.ParseTime(st[stateNextTry])
	return next.IsZero() || !now.Before(next)
}

// backoff is the wait after n failed syncs in a row: a minute, doubling, at
// most an hour.
func backoff(n int) time.Duration {
	d := time.Minute
	for i := 1; i < n && d < time.Hour; i++ {
		d *= 2
	}
	return min(d, time.Hour)
}

// Sync queues the joined projects' new verified memories, pushes the
// outbox and pulls teammates' changes. One sync runs at a time per data
// directory. It records its outcome in the store: the time of success, or
// the error and when the background worker may try again.
func Sync(ctx context.Context, db *store.DB, dataDir string, c Config, now time.Time) (Result, error) {
	unlock, err := filelock.Acquire(ctx, filepath.Join(dataDir, "team.lock"), 50*time.Millisecond)
	if err != nil {
		return Result{}, fmt.Errorf("wait for another sync: %w", err)
	}
	defer unlock()
	res, err := syncLocked(ctx, db, c)
	st := map[string]string{}
	if err != nil {
		// Read as it is written, past the sync's deadline: one that ran
		// out of time is a failure in a row too.
		old, _ := db.TeamState(context.WithoutCancel(ctx))
		n, _ := strconv.Atoi(old[stateFailures])
		n++
		st[stateFailures] = strconv.Itoa(n)
		st[stateLastErr] = err.Error()
		st[stateNextTry] = store.FormatTime(now.Add(backoff(n)))
	} else {
		st[stateFailures], st[stateLastErr], st[stateNextTry] = "", "", ""
		st[stateLastSync] = store.FormatTime(now)
	}
	if serr := db.SetTeamState(context.WithoutCancel(ctx), st); serr != nil && err == nil {
		err = serr
	}
	return res, err
}

func syncLocked(ctx context.Context, db *store.DB, c Config) (Result, error) {
	var res Result
	for local := range c.Projects {
		// A Windows project's memories may be filed under either case
		// of its drive letter (store.DriveSpellings): both are shared.
		for _, p := range store.DriveSpellings(local) {
			n, err := db.ShareVerified(ctx, p)
			if err != nil {
				return res, err
			}
			res.Shared += n
		}
	}
	conn, err := ConnectConfig(ctx, c)
	if err != nil {
		return res, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var v int
	if err := conn.QueryRow(ctx, `SELECT version FROM cml.schema_version`).Scan(&v); err != nil {
		// The schema is there, and this role may not read it: the team
		// was revoked from it (or never granted).
		if pe := (*pgconn.PgError)(nil); errors.As(err, &pe) && pe.Code == "42501" {
			return res, fmt.Errorf("the server says %s is not a member of team %s: an admin runs team add-member: %w", conn.Config().User, c.Team, err)
		}
		return res, fmt.Errorf("the server has no team schema (run team init): %w", err)
	}
	if v != SchemaVersion {
		return res, fmt.Errorf("the server's team schema is at version %d, this build's at %d: upgrade claude-memory-layer or run team init", v, SchemaVersion)
	}
	n, err := push(ctx, db, conn, c)
	res.Pushed = n
	if err != nil {
		return res, err
	}
	n, forgot, err := pull(ctx, db, conn, c)
	res.Pulled = n
	if err != nil {
		return res, err
	}
	if forgot {
		// A forget leaves the bytes in free pages and index segments until
		// compaction; one that cannot run now leaves its mark for the next
		// forget and doctor.
		if err := db.Compact(ctx); err != nil && !errors.Is(err, store.ErrCompactPending) {
			return res, err
		}
	}
	return res, nil
}

// The push of one batch, in one server transaction: the batch is copied
// into a temporary table, its changes whose idempotency keys the server
// already holds are dropped from it (a batch sent again after a commit
// whose answer was lost), then its puts and its forgets are applied by one
// statement each. The triggers set the author and log each change; the
// policies apply as to a row written alone. A put of a memory another role
// wrote (an id a hostile teammate took) updates nothing and the rest of the
// batch goes in: its key is spent, so it is not sent again.
//
// The team's change lock (the one the log trigger takes) is taken first,
// in a statement of its own, so that the team's last change sequence read
// by the next statement (whose snapshot is taken after the lock is held)
// is final; read again after the batch, the two bound the changes this
// batch logged, as no one else can log a change of the team until the
// commit. The temporary table is not analysed: its statistics cost the
// server as much as the idempotency keys, and without them the planner
// still probes memories by index for the forgets and hashes the keys.
const (
	pushLockSQL  = `SELECT pg_advisory_xact_lock(hashtext('cml.changes'), hashtext($1::text))`
	pushTableSQL = `CREATE TEMP TABLE cml_push (ord int, op text, key text, id text, project text, type text,
		title text, body text, subject text, stage text, status text, quotes text[], created_at timestamptz,
		pinned boolean) ON COMMIT DROP`
	pushLastSeqSQL = `SELECT coalesce(max(seq), 0) FROM cml.changes WHERE team = $1`
	pushFreshSQL   = `WITH k AS (
		INSERT INTO cml.applied (team, key) SELECT $1, key FROM cml_push ON CONFLICT DO NOTHING RETURNING key)
	DELETE FROM cml_push WHERE key NOT IN (SELECT key FROM k)`
	pushPutSQL = `INSERT INTO cml.memories (team, project, id, type, title, body, subject, stage, status, quotes, created_at, pinned)
	SELECT DISTINCT ON (id) $1, project, id, type, title, body, subject, stage, status, quotes, created_at, pinned
		FROM cml_push WHERE op = 'put' ORDER BY id, ord DESC
	ON CONFLICT (team, id) DO UPDATE SET project = excluded.project, type = excluded.type, title = excluded.title,
		body = excluded.body, subject = excluded.subject, stage = excluded.stage, status = excluded.status,
		quotes = excluded.quotes, pinned = excluded.pinned
		WHERE cml.memories.author = current_user`
	pushForgetSQL = `DELETE FROM cml.memories m USING cml_push p WHERE p.op = 'forget' AND m.team = $1 AND m.id = p.id`
)

var pushColumns = []string{"ord", "op", "key", "id", "project", "type", "title", "body", "subject", "stage", "status",
	"quotes", "created_at", "pinned"}

// outbound is text as it may leave: the privacy filter runs again on
// everything that leaves, and the NUL bytes PostgreSQL's text cannot hold
// are dropped (the filter already repaired invalid UTF-8), so that one
// memory cannot make its whole batch fail at every sync.
func outbound(s string) string {
	return strings.ReplaceAll(privacy.Filter(s), "\x00", "")
}

// batch is one push batch: its outbox changes, the rows they send to the
// server, the outbox row id the next batch starts after, and once the
// server committed them, the change sequence numbers they took: after
// those up to before (none when they are equal).
type batch struct {
	cs            []store.OutboxChange
	rows          [][]any
	last          int64
	before, after int64
}

// push sends the outbox to the server a batch at a time, each in one
// server transaction, and removes each batch from the outbox only once it
// committed. A push cut off before a commit applied nothing of its batch;
// one cut off after it sends the batch again, which applies nothing twice:
// each change's key is recorded in the same transaction.
//
// The client's work and the server's overlap: while the server applies a
// batch, the next one is read from the outbox and built, and the one
// before is removed from it. Each side has about as much to do, so on two
// processors a push takes about the longer of the two, not their sum. A
// batch built during the overlap may hold a memory forgotten or corrected
// meanwhile: just before it is sent, the changes replaced since are
// dropped from it (held), so a forgotten memory's text never leaves.
func push(ctx context.Context, db *store.DB, conn *pgx.Conn, c Config) (int, error) {
	next, err := readBatch(ctx, db, c, 0)
	if err != nil {
		return 0, err
	}
	n := 0
	var committed *batch // sent, not yet removed from the outbox
	for len(next.cs) > 0 {
		cur := next
		if err := held(ctx, db, cur); err != nil {
			return n, err
		}
		sent := make(chan error, 1)
		go func() { sent <- send(ctx, conn, c, cur) }()
		var err error
		if committed != nil {
			if err = done(ctx, db, committed); err == nil {
				n += len(committed.cs)
			}
			committed = nil
		}
		if err == nil {
			next, err = readBatch(ctx, db, c, cur.last)
			if err == nil && batchRead != nil {
				err = batchRead(db, next)
			}
		}
		// The send is waited for whatever happened here: the connection
		// is not used by two at once.
		if serr := <-sent; serr != nil {
			return n, fmt.Errorf("push: %w", serr)
		}
		if err != nil {
			// The batch committed: it leaves the outbox all the same.
			if derr := done(ctx, db, cur); derr == nil {
				n += len(cur.cs)
			}
			return n, err
		}
		committed = cur
	}
	if committed != nil {
		if err := done(ctx, db, committed); err != nil {
			return n, err
		}
		n += len(committed.cs)
	}
	return n, nil
}

// batchRead, when set (by tests), runs after push built the next batch
// while the one before is in flight; an error it returns fails the build.
var batchRead func(db *store.DB, next *batch) error

// held drops from b the changes no longer in the outbox: replaced, since b
// was read, by a correction or a forget that follows them.
func held(ctx context.Context, db *store.DB, b *batch) error {
	keep, err := db.OutboxHeld(ctx, b.cs)
	if err != nil {
		return err
	}
	if len(keep) == len(b.cs) {
		return nil
	}
	rows := b.rows[:0]
	for _, r := range b.rows {
		if keep[b.cs[r[0].(int)].Key] {
			rows = append(rows, r)
		}
	}
	b.rows = rows
	cs := b.cs[:0]
	for _, ch := range b.cs {
		if keep[ch.Key] {
			cs = append(cs, ch)
		}
	}
	b.cs = cs
	return nil
}

// readBatch reads the outbox's next batch, from the change after row id
// after on, and builds the rows it sends: the text as it may leave, the
// quotes aligned to the author's transcript, the author's pin.
func readBatch(ctx context.Context, db *store.DB, c Config, after int64) (*batch, error) {
	cs, err := db.OutboxAfter(ctx, after, pushBatch)
	if err != nil || len(cs) == 0 {
		return &batch{}, err
	}
	rows := make([][]any, 0, len(cs))
	pins := map[string]map[string]bool{} // project -> its pinned memories
	pinned := func(e store.Entry) (bool, error) {
		m, ok := pins[e.Project]
		if !ok {
			var err error
			if m, err = db.Pinned(ctx, e.Project); err != nil {
				return false, err
			}
			pins[e.Project] = m
		}
		return m[e.CID], nil
	}
	for i, ch := range cs {
		switch ch.Kind {
		case store.OutboxForget:
			rows = append(rows, []any{i, ch.Kind, ch.Key, ch.SharedID, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil})
		case store.OutboxPut:
			e := ch.Entry
			ident, ok := identityOf(c, e.Project)
			if e.ID == 0 || !ok {
				continue // forgotten since, or of a project no longer shared: nothing to send
			}
			quotes := []string{}
			for _, v := range e.Evidence {
				if q := outbound(v.Quote); v.Aligned() && q != "" {
					quotes = append(quotes, q)
				}
			}
			pin, err := pinned(e)
			if err != nil {
				return nil, err
			}
			rows = append(rows, []any{i, ch.Kind, ch.Key, ch.SharedID, ident, e.Type, outbound(e.Title),
				outbound(e.Body), outbound(e.Subject), e.Stage, e.Status, quotes, e.Created.UTC(), pin})
		}
	}
	return &batch{cs: cs, rows: rows, last: cs[len(cs)-1].ID}, nil
}

// send applies a batch on the server in one transaction and records in it
// the change sequence numbers its changes took.
func send(ctx context.Context, conn *pgx.Conn, c Config, b *batch) error {
	if len(b.rows) == 0 {
		return nil
	}
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, pushLockSQL, c.Team); err != nil {
			return err
		}
		var q pgx.Batch
		q.Queue(pushTableSQL)
		q.Queue(pushLastSeqSQL, c.Team).QueryRow(func(r pgx.Row) error { return r.Scan(&b.before) })
		if err := tx.SendBatch(ctx, &q).Close(); err != nil {
			return err
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"cml_push"}, pushColumns, pgx.CopyFromRows(b.rows)); err != nil {
			return err
		}
		q = pgx.Batch{}
		q.Queue(pushFreshSQL, c.Team)
		q.Queue(pushPutSQL, c.Team)
		q.Queue(pushForgetSQL, c.Team)
		q.Queue(pushLastSeqSQL, c.Team).QueryRow(func(r pgx.Row) error { return r.Scan(&b.after) })
		return tx.SendBatch(ctx, &q).Close()
	})
}

// done removes a committed batch from the outbox. When the pull cursor is
// where the team's changes stood before the batch, the changes after it up
// to the batch's last are the batch's own, already in this store: the
// cursor moves past them rather than pulling them back. It runs even when
// the sync is cancelled: the commit happened.
func done(ctx context.Context, db *store.DB, b *batch) error {
	ctx = context.WithoutCancel(ctx)
	return db.Update(ctx, func(t *store.Tx) error {
		if err := t.OutboxDone(ctx, b.cs); err != nil {
			return err
		}
		if b.after > b.before {
			_, err := t.SwapTeamState(ctx, stateCursor, formatSeq(b.before), formatSeq(b.after))
			return err
		}
		return nil
	})
}

// formatSeq is a change sequence number as the cursor holds it: "" for
// none pulled.
func formatSeq(seq int64) string {
	if seq == 0 {
		return ""
	}
	return strconv.FormatInt(seq, 10)
}

// Limits on what a pull reads of a row: a hostile or broken server cannot
// make a sync read more than this per memory (the store bounds it again),
// nor stop it with a NULL among a memory's quotes or a date Go's time
// cannot hold ('infinity').
// The query has no LIMIT: a page by LIMIT made the server scan and sort
// every change after the cursor for each page (with the statistics of a
// table just filled, it plans no better), which made a pull of n changes
// cost n²; one query streams them all in order, and the client applies
// them a page at a time as they arrive.
const pullSQL = `SELECT c.seq, c.op, c.memory_id, c.project,
		coalesce(m.author::text, ''), coalesce(left(m.type, 32), ''), coalesce(left(m.title, 1000), ''),
		coalesce(left(m.body, 8000), ''), coalesce(left(m.subject, 1000), ''), coalesce(m.stage, ''),
		coalesce(m.status, ''), ARRAY(SELECT left(q, 4000) FROM unnest(m.quotes[1:20]) q WHERE q IS NOT NULL),
		CASE WHEN isfinite(m.created_at) THEN m.created_at WHEN isfinite(c.at) THEN c.at ELSE now() END, m.id IS NOT NULL,
		coalesce(m.pinned, false)
	FROM cml.changes c LEFT JOIN cml.memories m ON m.team = c.team AND m.id = c.memory_id
	WHERE c.team = $1 AND c.seq > $2 AND c.project = ANY($3)
	ORDER BY c.seq`

type change struct {
	seq      int64
	op       string
	sharedID string
	project  string
	present  bool
	p        store.Pulled
	created  time.Time
}

// pull applies teammates' changes after the cursor, a page at a time as
// the server sends them, each page's puts in one local transaction that
// also moves the cursor past them.
func pull(ctx context.Context, db *store.DB, conn *pgx.Conn, c Config) (n int, forgot bool, err error) {
	st, err := db.TeamState(ctx)
	if err != nil {
		return 0, false, err
	}
	// A cursor of no scope is one written before scopes, or none.
	var cursor int64
	scope := cursorScope(c)
	if st[stateScope] == "" || st[stateScope] == scope {
		cursor, _ = strconv.ParseInt(st[stateCursor], 10, 64)
	}
	// A memory pulled is filed under the spelling of the project the store
	// files its sessions under (a Windows drive letter in the other case
	// than the config's), where the hooks recall it.
	local := map[string]string{}
	idents := []string{}
	for dir, ident := range c.Projects {
		if local[ident], err = db.Read().RecordedProject(ctx, dir); err != nil {
			return 0, false, err
		}
		idents = append(idents, ident)
	}
	rows, err := conn.Query(ctx, pullSQL, c.Team, cursor, idents)
	if err != nil {
		return 0, false, fmt.Errorf("pull: %w", err)
	}
	defer rows.Close()
	page := make([]change, 0, pullPage)
	for rows.Next() {
		var ch change
		var quotes []string
		if err := rows.Scan(&ch.seq, &ch.op, &ch.sharedID, &ch.project, &ch.p.Author, &ch.p.Type, &ch.p.Title,
			&ch.p.Body, &ch.p.Subject, &ch.p.Stage, &ch.p.Status, &quotes, &ch.created, &ch.present, &ch.p.Pinned); err != nil {
			return n, forgot, fmt.Errorf("pull: %w", err)
		}
		// What comes in is filtered as what leaves is: a teammate's
		// client may have filtered less, and the server is anyone's.
		ch.p.Title, ch.p.Body, ch.p.Subject = privacy.Filter(ch.p.Title), privacy.Filter(ch.p.Body), privacy.Filter(ch.p.Subject)
		for i, q := range quotes {
			quotes[i] = privacy.Filter(q)
		}
		ch.p.SharedID, ch.p.Project, ch.p.Quotes = ch.sharedID, local[ch.project], quotes
		ch.p.Created = store.FormatTime(ch.created)
		page = append(page, ch)
		if len(page) == pullPage {
			f, err := apply(ctx, db, page, scope)
			forgot = forgot || f
			if err != nil {
				return n, forgot, err
			}
			n += len(page)
			page = page[:0]
		}
	}
	if err := rows.Err(); err != nil {
		return n, forgot, fmt.Errorf("pull: %w", err)
	}
	f, err := apply(ctx, db, page, scope)
	if err == nil {
		n += len(page)
	}
	return n, forgot || f, err
}

// pagePulled, when set (by tests), runs when a pull read a page, before it
// applies it; an error it returns fails the pull.
var pagePulled func(db *store.DB) error

// apply applies one page of pulled changes. Puts go in local transactions
// with the cursor; a forget runs through the store's forget (its own
// transaction, no byte left), then the cursor moves past it. Applying a
// change twice changes nothing, so a sync killed between the two is safe.
// The cursor is recorded with its scope.
func apply(ctx context.Context, db *store.DB, page []change, scope string) (forgot bool, err error) {
	if pagePulled != nil {
		if err := pagePulled(db); err != nil {
			return false, err
		}
	}
	var puts []change
	flush := func() error {
		if len(puts) == 0 {
			return nil
		}
		ps := make([]store.Pulled, 0, len(puts))
		for _, ch := range puts {
			if ch.present && ch.p.Project != "" {
				ps = append(ps, ch.p)
			} // else forgotten since (its forget follows), or of no project shared here
		}
		err := db.Update(ctx, func(t *store.Tx) error {
			if err := t.PutPulled(ctx, ps...); err != nil {
				return err
			}
			return t.SetTeamState(ctx, map[string]string{stateCursor: strconv.FormatInt(puts[len(puts)-1].seq, 10), stateScope: scope})
		})
		puts = puts[:0]
		return err
	}
	for _, ch := range page {
		if ch.op != "forget" {
			puts = append(puts, ch)
			continue
		}
		if err := flush(); err != nil {
			return forgot, err
		}
		if err := forgetLocal(ctx, db, ch.sharedID); err != nil {
			return forgot, err
		}
		forgot = true
		if err := db.SetTeamState(ctx, map[string]string{stateCursor: strconv.FormatInt(ch.seq, 10), stateScope: scope}); err != nil {
			return forgot, err
		}
	}
	return forgot, flush()
}

// forgetLocal forgets the local copy of a shared memory a teammate forgot,
// through the store's forget: the memory, its evidence, and its id in the
// injection records.
func forgetLocal(ctx context.Context, db *store.DB, sharedID string) error {
	cid, err := db.SharedCID(ctx, sharedID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := db.Forget(ctx, store.ForgetSelector{CID: cid, Remote: true}); err != nil && !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("forget %s: %w", cid, err)
	}
	return nil
}

// identityOf is the team identity c shares project under: by its path, or
// by its path with the Windows drive letter in the other case
// (store.DriveSpellings), as "team join" may have named it from a terminal
// that spelled it so.
func identityOf(c Config, project string) (string, bool) {
	for _, p := range store.DriveSpellings(project) {
		if ident, ok := c.Projects[p]; ok {
			return ident, true
		}
	}
	return "", false
}
