package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/filelock"
	"github.com/claude-memory-layer/claude-memory-layer/internal/regular"
)

// The spool is where a hook leaves its events without a write transaction:
// an append to a file next to the database, which costs a fraction of
// taking the write lock and committing, and never waits for another
// process's writer. PostToolUse spools its tool call without opening the
// database at all; SessionStart and UserPromptSubmit open it only to read,
// and spool the session's start mark, the prompt and the record of what was
// injected. The next write transaction folds the spool in (Begin), before
// anything else it writes, so every writer and every forget sees what was
// spooled first; the turn's Stop is the usual one.
//
// The file is memory.db-spool. An appender takes a shared lock on it and
// writes its records in one write; a folder, inside its write transaction,
// takes the exclusive lock, renames the file to memory.db-spool-fold-*, and
// lets go at once (later appends create a new spool). It stores the
// records through Append (MarkInjected for an injection, which also counts
// the memories it names) with a spool_folded event naming the file, and
// removes the file once its transaction committed: a rollback or a crash
// leaves it for the next writer, which stores it unless that event says it
// was (so a fold file left behind by a crash after the commit cannot write
// back what a forget deleted since). A record is a line of JSON; a writer
// killed mid-write leaves a torn line, which the next record's leading
// newline ends and the folder skips.
//
// A record thus moves from the spool to a fold file to the database. A
// reader that must see the latest of a session (Spooled) looks in that
// order, the database last, so that a fold under way cannot hide one.

// SpoolSupported reports whether this platform spools: Windows refuses to
// rename a file another process has open.
const SpoolSupported = runtime.GOOS != "windows"

// maxSpoolRecord bounds one record; a longer line is skipped.
const maxSpoolRecord = 8 << 20

// maxSpool bounds the spool: past it, a store nobody can write to (full,
// immutable, locked for days) sends the hooks back to it, which log why.
// 4 MB is some 4,500 tool calls, which one write transaction stores in a
// tenth of a second; it also bounds what one transaction folds.
const maxSpool = 4 << 20

// spoolRecord is one spooled event and the session it belongs to, as the
// hook saw it; the folder registers the session when it is new and gives
// the event the project the session was registered with.
type spoolRecord struct {
	Session struct {
		ID             string    `json:"id"`
		Project        string    `json:"project"`
		Cwd            string    `json:"cwd"`
		TranscriptPath string    `json:"transcript_path"`
		Source         string    `json:"source"`
		StartedAt      time.Time `json:"started_at"`
	} `json:"session"`
	Event struct {
		Time       time.Time       `json:"ts"`
		Type       string          `json:"type"`
		SourceUUID string          `json:"source_uuid,omitempty"`
		Text       string          `json:"text"`
		Payload    json.RawMessage `json:"payload,omitempty"`
		DedupeKey  string          `json:"dedupe_key"`
		SameAs     []KeyKind       `json:"same_content_as,omitempty"`
	} `json:"event"`
}

func spoolPath(dbPath string) string { return dbPath + "-spool" }

// Spool appends evs, events of session s, to the spool of the database at
// dbPath, for the next write transaction to store in their order; one write
// holds them all. The caller has filtered them for privacy already, as for
// Append. Each must carry a dedupe key. A folder holds the spool's lock for
// a rename; Spool waits for it until ctx's deadline at most.
func Spool(ctx context.Context, dbPath string, s Session, evs ...Event) error {
	if !SpoolSupported {
		return errors.New("spool: not supported on " + runtime.GOOS)
	}
	var rec []byte
	for _, ev := range evs {
		line, err := spoolLine(s, ev)
		if err != nil {
			return err
		}
		rec = append(append(append(rec, '\n'), line...), '\n')
	}
	if len(rec) == 0 {
		return nil
	}
	path := spoolPath(dbPath)
	// A folder renames the file between our open and our lock: then the
	// lock is on a file nobody will fold again, so open the new one.
	for range 100 {
		f, err := openRegular(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE)
		if err != nil {
			return fmt.Errorf("spool: %w", err)
		}
		if err := lockWait(ctx, f, false); err != nil {
			f.Close()
			return fmt.Errorf("spool: %w", err)
		}
		if !samePath(f, path) {
			f.Close()
			continue
		}
		if fi, err := f.Stat(); err != nil || fi.Size()+int64(len(rec)) > maxSpool {
			filelock.Unlock(f)
			f.Close()
			return errors.New("spool: full")
		}
		_, err = f.Write(rec)
		filelock.Unlock(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("spool: %w", err)
		}
		return nil
	}
	return errors.New("spool: the file kept moving")
}

// spoolLine is the record of ev, an event of session s.
func spoolLine(s Session, ev Event) ([]byte, error) {
	if ev.DedupeKey == "" || s.ID == "" || ev.SessionID != s.ID {
		return nil, errors.New("spool: an event needs a dedupe key and its session")
	}
	var r spoolRecord
	r.Session.ID, r.Session.Project, r.Session.Cwd = s.ID, s.Project, s.Cwd
	r.Session.TranscriptPath, r.Session.Source, r.Session.StartedAt = s.TranscriptPath, s.Source, s.StartedAt
	r.Event.Time, r.Event.Type, r.Event.SourceUUID, r.Event.Text = ev.Time, ev.Type, ev.SourceUUID, ev.Text
	r.Event.DedupeKey, r.Event.SameAs = ev.DedupeKey, ev.SameContentAs
	if len(ev.Payload) > 0 {
		if !json.Valid(ev.Payload) {
			return nil, errors.New("spool: the payload is not JSON")
		}
		r.Event.Payload = ev.Payload
	}
	line, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	if len(line) > maxSpoolRecord {
		return nil, errors.New("spool: the record is too large")
	}
	return line, nil
}

// openRegular opens path only if it is a regular file, never blocking on a
// FIFO.
func openRegular(path string, flag int) (*os.File, error) { return regular.OpenFile(path, flag, 0o600) }

// samePath reports whether f is still the file at path.
func samePath(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	return err == nil && os.SameFile(a, b)
}

// lockWait takes a lock on f, waiting for a holder of a conflicting one: an
// appender or a folder holds it for one write or one rename. It gives up
// after 2 s, or at ctx's deadline if that comes first.
func lockWait(ctx context.Context, f *os.File, exclusive bool) error {
	deadline := time.Now().Add(2 * time.Second)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	for {
		err := filelock.TryLock(f, exclusive)
		if !errors.Is(err, filelock.ErrLocked) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Microsecond)
	}
}

// SpoolState is what waits in the spool, for doctor.
type SpoolState struct {
	Bytes     int64     // the spool's and its fold files' sizes
	FoldFiles int       // files a fold moved aside and has not removed
	Since     time.Time // the oldest file's last write; zero when nothing waits
	Full      bool      // past half of what the spool takes before hooks write directly
}

// SpoolState reports what waits in the spool. A fold file that stays is one
// no writer could read; a spool that stays is one no writer has run since.
func (db *DB) SpoolState() SpoolState {
	var st SpoolState
	path := spoolPath(db.path)
	files := foldFiles(path)
	st.FoldFiles = len(files)
	for _, name := range append(files, path) {
		fi, err := os.Lstat(name)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
			continue
		}
		st.Bytes += fi.Size()
		if st.Since.IsZero() || fi.ModTime().Before(st.Since) {
			st.Since = fi.ModTime()
		}
	}
	st.Full = st.Bytes > maxSpool/2
	return st
}

// Fold stores what the spool holds, in a write transaction of its own, when
// it holds anything: for a reader that must see every event, such as a
// forget's preview, which a user confirms before Forget (which folds first
// anyway) deletes, or the memory tool that quotes the turn under way.
func (db *DB) Fold(ctx context.Context) error {
	if st := db.SpoolState(); st.Bytes == 0 && st.FoldFiles == 0 {
		return nil
	}
	return db.Update(ctx, func(*Tx) error { return nil }) // Begin folds
}

// fold moves the spool aside and stores its records, and those of fold files
// a crashed or rolled back transaction left; Commit removes the files. What
// it stores is indexed at once, so that the rest of the transaction (a
// forget's plan above all) finds it. A spool it cannot open, lock or move
// (not a regular file, a lock held past lockWait) is left for a later
// writer rather than failing this one, and so is a fold file it cannot read.
// One transaction stores about maxSpool bytes at most: a backlog left by
// writers that ran out of time is worked off a piece at a time, and the live
// spool waits until the files before it are stored.
func (t *Tx) fold(ctx context.Context) error { return t.foldUpTo(ctx, maxSpool) }

// foldAll is fold without the bound: a forget must plan with everything
// the spool holds, whatever it costs.
func (t *Tx) foldAll(ctx context.Context) error { return t.foldUpTo(ctx, math.MaxInt64) }

func (t *Tx) foldUpTo(ctx context.Context, budget int64) error {
	path := spoolPath(t.db.path)
	files := foldFiles(path)
	folded := false
	t.spoolLeft = 0
	for _, name := range files {
		if budget <= 0 {
			t.spoolLeft += fileSize(name)
			continue
		}
		stored, size, err := t.foldOne(ctx, name)
		if err != nil {
			return err
		}
		budget, folded = budget-size, folded || stored
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
		moved, err := "", error(nil)
		if budget > 0 {
			moved, err = moveSpool(ctx, path)
		}
		switch {
		case budget <= 0 || err != nil:
			t.spoolLeft += fi.Size()
		case moved != "":
			stored, _, err := t.foldOne(ctx, moved)
			if err != nil {
				return err
			}
			folded = folded || stored
		}
	}
	if !folded {
		return nil
	}
	return t.index(ctx)
}

// fileSize is the size of the regular file name, 0 for none.
func fileSize(name string) int64 {
	if fi, err := os.Lstat(name); err == nil && fi.Mode().IsRegular() {
		return fi.Size()
	}
	return 0
}

// foldOne stores the records of the fold file name with its spool_folded
// mark, and has Commit remove the file unless it is to be kept for a later
// writer; stored says whether it stored anything, size is the file's.
func (t *Tx) foldOne(ctx context.Context, name string) (stored bool, size int64, err error) {
	n, size, err := t.foldFile(ctx, name)
	if err != nil {
		return false, 0, fmt.Errorf("fold %s: %w", filepath.Base(name), err)
	}
	if n == skipFile {
		t.spoolLeft += fileSize(name)
		return false, size, nil
	}
	if n >= 0 {
		mark := Event{Time: t.db.Now(), Type: TypeSpoolFolded, DedupeKey: Key(KeyFolded, filepath.Base(name)),
			Payload: fmt.Appendf(nil, `{"file":%q,"records":%d}`, filepath.Base(name), n)}
		if _, err := t.append(ctx, mark.Time, []Event{mark}); err != nil {
			return false, 0, err
		}
	}
	t.folded = append(t.folded, name)
	return n >= 0, size, nil
}

// foldFiles are the fold files next to the spool at path, oldest first:
// os.ReadDir sorts them by name, which holds the time of the move. Not
// filepath.Glob: the data directory's name may hold a pattern's
// metacharacters.
func foldFiles(path string) []string {
	entries, _ := os.ReadDir(filepath.Dir(path))
	prefix := filepath.Base(path) + "-fold-"
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			out = append(out, filepath.Join(filepath.Dir(path), e.Name()))
		}
	}
	return out
}

// moveSpool renames the spool to a new fold file once no append is under
// way, and returns the fold file's name ("" when the spool went meanwhile).
func moveSpool(ctx context.Context, path string) (string, error) {
	f, err := openRegular(path, os.O_RDONLY)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("spool: %w", err)
	}
	defer f.Close()
	if err := lockWait(ctx, f, true); err != nil {
		return "", fmt.Errorf("spool: %w", err)
	}
	defer filelock.Unlock(f)
	if !samePath(f, path) {
		return "", nil // another folder moved it first
	}
	to := fmt.Sprintf("%s-fold-%d-%d", path, time.Now().UnixNano(), os.Getpid())
	if err := os.Rename(path, to); err != nil {
		return "", fmt.Errorf("spool: %w", err)
	}
	return to, nil
}

// Results of foldFile besides a count of records.
const (
	storedBefore = -1 // stored by an earlier transaction (its mark exists), or gone
	skipFile     = -2 // cannot be read now: left for a later writer
)

// foldFile appends the records of one fold file and returns how many it
// read and the file's size, or storedBefore or skipFile.
func (t *Tx) foldFile(ctx context.Context, name string) (n int, size int64, err error) {
	var done int
	if err := t.queryRow(ctx, `SELECT count(*) FROM events WHERE dedupe_key = ?`, Key(KeyFolded, filepath.Base(name))).Scan(&done); err != nil {
		return 0, 0, err
	}
	if done > 0 {
		return storedBefore, 0, nil
	}
	f, err := openRegular(name, os.O_RDONLY)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return storedBefore, 0, nil // folded and removed by another writer
	case errors.Is(err, regular.ErrNotRegular):
		return storedBefore, 0, nil // nothing a spool wrote: removed at commit
	case err != nil:
		return skipFile, 0, nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	projects := map[string]string{}
	err = eachRecord(f, nil, func(r spoolRecord) error {
		project, ok := projects[r.Session.ID]
		if !ok {
			var err error
			if project, err = t.spooledSession(ctx, r); err != nil {
				return err
			}
			projects[r.Session.ID] = project
		}
		ev := r.event()
		ev.Project = project
		// An injection is stored as the prompt hook would have stored it:
		// with the counts of the memories it names.
		var err error
		if ev.Type == TypeMemoryInjected {
			if err = t.MarkInjected(ctx, ev); errors.Is(err, errNoInjection) {
				return nil // no hook spools such a record: skipped, as a torn line
			}
		} else {
			_, err = t.Append(ctx, ev)
		}
		n++
		return err
	})
	var rerr readError
	if errors.As(err, &rerr) {
		return skipFile, 0, nil // a read error: leave the file for a later writer
	}
	if err != nil {
		return 0, 0, err
	}
	return n, size, nil
}

// event is the record's event as the hook built it; the folder gives it the
// project its session was registered with.
func (r spoolRecord) event() Event {
	return Event{Time: r.Event.Time, Type: r.Event.Type, SessionID: r.Session.ID, Project: r.Session.Project, SourceUUID: r.Event.SourceUUID,
		Text: r.Event.Text, Payload: r.Event.Payload, DedupeKey: r.Event.DedupeKey, SameContentAs: r.Event.SameAs}
}

// readError is a spool file that could not be read to its end.
type readError struct{ error }

// eachRecord calls fn with each record of a spool or fold file, in order,
// and returns the first error fn returns, or a readError. A line that is not
// a record (torn by a killed writer) is skipped, and so is one that does not
// contain every one of the byte strings in has (a cheap test before the
// JSON is decoded).
func eachRecord(f *os.File, has [][]byte, fn func(spoolRecord) error) error {
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), maxSpoolRecord+1)
	sc.Split(scanLinesLong)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || len(line) > maxSpoolRecord || !containsAll(line, has) {
			continue
		}
		var r spoolRecord
		if err := json.Unmarshal(line, &r); err != nil || r.Session.ID == "" || r.Event.DedupeKey == "" || r.Event.Type == "" {
			continue
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return readError{err}
	}
	return nil
}

func containsAll(b []byte, subs [][]byte) bool {
	for _, sub := range subs {
		if !bytes.Contains(b, sub) {
			return false
		}
	}
	return true
}

// Spooled returns the events of a session of one type that the spool and
// any fold files hold, in the order they were spooled: what a reader that
// must see a session's latest events reads besides the database. Some may
// have been stored already (a fold under way, a fold file a crash left).
//
// A record moves from the spool to a fold file to the database, so a reader
// looks in that order, the database last: a record that moves while it
// looks is found in the next place.
func (db *DB) Spooled(sessionID string, types ...string) []Event {
	return db.spooled(true, sessionID, types)
}

// SessionSpool is what the spool and its fold files held of one session's
// events of some types when first asked: a hook with several readers of
// the spool (recall's session so far, the recorder's last prompt) reads
// the files once. Read before the database, as Spooled is, it keeps
// Spooled's order for every reader: a record that moves to the database
// after the spool was read is found there.
type SessionSpool struct {
	db        *DB
	sessionID string
	types     []string
	read      bool
	evs       []Event
}

// SessionSpool returns a reader of session sessionID's spooled events of
// the given types; it reads nothing until asked.
func (db *DB) SessionSpool(sessionID string, types ...string) *SessionSpool {
	return &SessionSpool{db: db, sessionID: sessionID, types: types}
}

// Spooled is db.Spooled(sessionID, types...), from the spool as first read
// when sp holds those types of that session: a nil sp, another session or a
// type sp was not made for reads the files again.
func (sp *SessionSpool) Spooled(db *DB, sessionID string, types ...string) []Event {
	if sp == nil || sp.db != db || sp.sessionID != sessionID || !containsEvery(sp.types, types) {
		return db.Spooled(sessionID, types...)
	}
	if !sp.read {
		sp.evs, sp.read = db.Spooled(sessionID, sp.types...), true
	}
	var out []Event
	for _, ev := range sp.evs {
		if slices.Contains(types, ev.Type) {
			out = append(out, ev)
		}
	}
	return out
}

func containsEvery(set, of []string) bool {
	for _, s := range of {
		if !slices.Contains(set, s) {
			return false
		}
	}
	return true
}

// SpooledOfType is Spooled for the records of every session.
func (db *DB) SpooledOfType(types ...string) []Event {
	return db.spooled(false, "", types)
}

func (db *DB) spooled(bySession bool, sessionID string, types []string) []Event {
	// A spool left unfolded can hold megabytes of other sessions' records.
	has := make([][]byte, 0, 2)
	if bySession {
		id, _ := json.Marshal(sessionID)
		has = append(has, id)
	}
	if len(types) == 1 {
		t, _ := json.Marshal(types[0])
		has = append(has, t)
	}
	read := func(name string) []Event {
		f, err := openRegular(name, os.O_RDONLY)
		if err != nil {
			return nil // none, or gone meanwhile: stored
		}
		defer f.Close()
		var out []Event
		_ = eachRecord(f, has, func(r spoolRecord) error { // what it read before an error is all there is
			if (!bySession || r.Session.ID == sessionID) && slices.Contains(types, r.Event.Type) {
				out = append(out, r.event())
			}
			return nil
		})
		return out
	}
	path := spoolPath(db.path)
	live := read(path)
	files := foldFiles(path)
	var out []Event
	for _, name := range files {
		out = append(out, read(name)...)
	}
	return append(out, live...)
}

// spooledSession returns the project of a spooled record's session: the
// registered one's, or the hook's after registering the session, as a hook
// that opens the database does (handler.lookup).
func (t *Tx) spooledSession(ctx context.Context, r spoolRecord) (string, error) {
	s := Session{ID: r.Session.ID, Project: r.Session.Project, Cwd: r.Session.Cwd,
		TranscriptPath: r.Session.TranscriptPath, Source: r.Session.Source, StartedAt: r.Session.StartedAt}
	have, err := t.Session(ctx, s.ID)
	if err == nil && have.Project != "" && have.Cwd != "" && (s.TranscriptPath == "" || have.TranscriptPath == s.TranscriptPath) {
		return have.Project, nil
	}
	if err != nil && !errors.Is(err, ErrNotFound) {
		return "", err
	}
	if err := t.TouchSession(ctx, s); err != nil {
		return "", err
	}
	if have, err = t.Session(ctx, s.ID); err != nil {
		return "", err
	}
	return have.Project, nil
}

// scanLinesLong is bufio.ScanLines that drops a line too long for the buffer
// instead of failing the scan: one oversized or garbled record must not keep
// the others from being stored.
func scanLinesLong(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i], nil
	}
	if len(data) > maxSpoolRecord {
		return len(data), nil, nil // part of a line past the bound: skip it
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}
