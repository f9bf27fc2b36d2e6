//go:build unix

package store

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

func fileExists(path string) bool { _, err := os.Lstat(path); return err == nil }

func spoolSession(id string) Session {
	return Session{ID: id, Project: "/hook/project", Cwd: "/hook/project/sub", TranscriptPath: "/t/" + id + ".jsonl", StartedAt: time.Unix(1e9, 0).UTC()}
}

func toolEvent(session string, i int) Event {
	return Event{Time: time.Unix(1e9+int64(i), 0).UTC(), Type: TypeToolObservation, SessionID: session,
		Text: fmt.Sprintf("Bash: npm test %d", i), Payload: []byte(`{"tool":"Bash"}`), DedupeKey: Key(KeyTool, session, fmt.Sprint("tu", i))}
}

// countEvents counts the events of a type, in a write transaction so that
// the spool is folded first.
func countEvents(t *testing.T, db *DB, typ string) int {
	t.Helper()
	if err := db.Update(context.Background(), func(*Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	return len(mustEvents(t, db, typ))
}

// TestSpool checks the spool's round trip: a spooled event is stored by the
// next write transaction, with its session registered from the record (or
// the project the session was registered with), once; the spool is gone
// after, and a fold file left behind is not stored again.
func TestSpool(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	if err := db.Update(ctx, func(tx *Tx) error {
		return tx.TouchSession(ctx, Session{ID: "known", Project: "/registered", Cwd: "/registered", TranscriptPath: "/t/known.jsonl"})
	}); err != nil {
		t.Fatal(err)
	}
	for i, s := range []string{"new", "known", "new"} {
		if err := Spool(context.Background(), db.Path(), spoolSession(s), toolEvent(s, i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(mustEvents(t, db, TypeToolObservation)); n != 0 {
		t.Fatalf("%d tool events before a write, want 0: the spool is stored by writers", n)
	}
	if n := countEvents(t, db, TypeToolObservation); n != 3 {
		t.Fatalf("%d tool events after a write, want 3", n)
	}
	for id, want := range map[string]string{"new": "/hook/project", "known": "/registered"} {
		evs, err := db.Read().Events(ctx, EventFilter{SessionID: id, Types: []string{TypeToolObservation}})
		if err != nil || len(evs) == 0 || evs[0].Project != want {
			t.Errorf("session %s: events %+v, %v; want project %s", id, evs, err, want)
		}
	}
	if s, err := db.Read().Session(ctx, "new"); err != nil || s.Cwd != "/hook/project/sub" || s.TranscriptPath != "/t/new.jsonl" {
		t.Errorf("the spooled session was registered as %+v, %v", s, err)
	}
	if left := append(foldFiles(db.Path()+"-spool"), db.Path()+"-spool"); len(left) != 1 || fileExists(left[0]) {
		t.Errorf("spool files left after the commit: %v", left)
	}
	if n := len(mustEvents(t, db, TypeSpoolFolded)); n != 1 {
		t.Fatalf("%d spool_folded events, want 1", n)
	}

	// A crash between a fold's commit and its removal of the fold file
	// leaves the file: no later writer may store it again, even after a
	// forget deleted what it held.
	if err := Spool(context.Background(), db.Path(), spoolSession("new"), toolEvent("new", 7)); err != nil {
		t.Fatal(err)
	}
	held, err := os.ReadFile(db.Path() + "-spool")
	if err != nil {
		t.Fatal(err)
	}
	if n := countEvents(t, db, TypeToolObservation); n != 4 {
		t.Fatalf("%d tool events, want 4", n)
	}
	marks := mustEvents(t, db, TypeSpoolFolded)
	if _, err := db.Forget(ctx, ForgetSelector{SessionID: "new"}); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(filepath.Dir(db.Path()), marks[len(marks)-1].DedupeKey[len("folded:"):])
	if err := os.WriteFile(name, held, 0o600); err != nil {
		t.Fatal(err)
	}
	if n := countEvents(t, db, TypeToolObservation); n != 1 {
		t.Errorf("%d tool events after forgetting session new and a fold file left behind, want 1 (known's)", n)
	}
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Errorf("the stored fold file is still there: %v", err)
	}
}

// TestSpoolRollback checks that a transaction that rolls back leaves what it
// folded for the next one.
func TestSpoolRollback(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	if err := Spool(context.Background(), db.Path(), spoolSession("s"), toolEvent("s", 1)); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx.Rollback()
	if n := countEvents(t, db, TypeToolObservation); n != 1 {
		t.Errorf("%d tool events after a rollback and a commit, want 1", n)
	}
}

// TestSpoolTornRecord checks that a record torn by a writer killed mid-write
// costs that record only, and that bad input at the spool's path never
// fails a writer or blocks an appender.
func TestSpoolTornRecord(t *testing.T) {
	t.Parallel()
	db := MustOpen(t)
	path := db.Path() + "-spool"
	if err := os.WriteFile(path, []byte("\n{\"session\":{\"id\":\"s\"},\"event\":{\"type\":\"tool_obs"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Spool(context.Background(), db.Path(), spoolSession("s"), toolEvent("s", 2)); err != nil {
		t.Fatal(err)
	}
	if n := countEvents(t, db, TypeToolObservation); n != 1 {
		t.Errorf("%d tool events, want the one whole record", n)
	}

	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- Spool(context.Background(), db.Path(), spoolSession("s"), toolEvent("s", 3)) }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("spooling into a FIFO succeeded")
		}
	case <-time.After(time.Minute): // a hang guard: blocked on the FIFO, Spool never returns
		t.Fatal("spooling into a FIFO blocked")
	}
	if n := countEvents(t, db, TypeToolObservation); n != 1 {
		t.Errorf("a FIFO at the spool's path: %d tool events, want 1", n)
	}
}

// TestSpoolConcurrent spools from many writers while others fold: every
// event is stored once.
func TestSpoolConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	const writers, each = 8, 40
	var wg sync.WaitGroup
	errs := make(chan error, writers+2)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := fmt.Sprint("s", w)
			for i := range each {
				if err := Spool(context.Background(), db.Path(), spoolSession(s), toolEvent(s, i)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	stop := make(chan struct{})
	var folders sync.WaitGroup
	for range 2 {
		folders.Add(1)
		go func() {
			defer folders.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := db.Update(ctx, func(*Tx) error { return nil }); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	folders.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := countEvents(t, db, TypeToolObservation); n != writers*each {
		t.Errorf("%d tool events, want %d", n, writers*each)
	}
}

// TestSpoolOddDirectory checks a fold file left in a data directory whose
// name holds glob metacharacters is still found.
func TestSpoolOddDirectory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data [1]*?")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	db, err := Open(ctx, filepath.Join(dir, "memory.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := Spool(context.Background(), db.Path(), spoolSession("s"), toolEvent("s", 1)); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(db.Path()+"-spool", db.Path()+"-spool-fold-1-1"); err != nil {
		t.Fatal(err)
	}
	if n := countEvents(t, db, TypeToolObservation); n != 1 {
		t.Errorf("%d tool events from a fold file left behind, want 1", n)
	}
}

// TestSpoolFull checks that a spool past its bound refuses more, so that
// the hook stores the call directly (and logs why when it cannot).
func TestSpoolFull(t *testing.T) {
	t.Parallel()
	db := MustOpen(t)
	if err := os.WriteFile(db.Path()+"-spool", make([]byte, maxSpool), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Spool(context.Background(), db.Path(), spoolSession("s"), toolEvent("s", 1)); err == nil {
		t.Error("a full spool took another record")
	}
}

// FuzzSpoolFold folds whatever bytes a spool may hold (a crash, a full
// disk, a stray writer) ahead of a whole record: the write transaction
// commits, the record is stored, and nothing panics.
func FuzzSpoolFold(f *testing.F) {
	db := MustOpen(f) // one store for every input: opening one per input would leave the fuzzer a few a minute
	scratch := filepath.Join(f.TempDir(), "memory.db")
	n := 0
	record := func() (string, Event) {
		n++
		ev := toolEvent("s", n)
		os.Remove(scratch + "-spool")
		if err := Spool(context.Background(), scratch, spoolSession("s"), ev); err != nil {
			panic(err)
		}
		b, err := os.ReadFile(scratch + "-spool")
		if err != nil {
			panic(err)
		}
		return string(b), ev
	}
	whole, _ := record()
	f.Add([]byte(whole))
	f.Add([]byte(whole[:len(whole)/2]))
	f.Add([]byte("\n{\"session\":{\"id\":\"s\"},\"event\":{\"type\":\"x\",\"dedupe_key\":\"k\",\"payload\":[1,2]}}\n"))
	f.Add([]byte("\x00\xff{}\n\n[]\nnull\n"))
	f.Add([]byte("\n{\"session\":{\"id\":\"s\"},\"event\":{\"type\":\"memory_injected\",\"dedupe_key\":\"i1\",\"payload\":[1,2]}}\n"))
	f.Add([]byte("\n{\"session\":{\"id\":\"s\"},\"event\":{\"type\":\"memory_injected\",\"dedupe_key\":\"i2\",\"payload\":{\"memories\":[\"mem:t1\",\"mem:ab12cd\",\"\"]}}}\n"))
	f.Add([]byte("\n{\"session\":{\"id\":\"s\"},\"event\":{\"type\":\"user_prompt\",\"dedupe_key\":\"p1\",\"text\":\"x\",\"same_content_as\":[\"any\",\"\",\"bogus\"]}}\n"))
	f.Fuzz(func(t *testing.T, junk []byte) {
		line, ev := record()
		if err := os.WriteFile(db.Path()+"-spool", append(junk, line...), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := db.Update(context.Background(), func(*Tx) error { return nil }); err != nil {
			t.Fatalf("fold: %v", err)
		}
		var stored int
		if err := db.Read().queryRow(context.Background(), `SELECT count(*) FROM events WHERE dedupe_key = ?`, ev.DedupeKey).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored != 1 {
			t.Errorf("the whole record after %q was stored %d times, want once", junk, stored)
		}
	})
}

// spooledPhrase is a store whose spool holds one tool call saying phrase,
// said nowhere else.
func spooledPhrase(t *testing.T, phrase string) *DB {
	t.Helper()
	db := MustOpen(t)
	ev := toolEvent("s", 1)
	ev.Text = "Bash: export TOKEN=" + phrase
	if err := Spool(context.Background(), db.Path(), spoolSession("s"), ev); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestSpoolForget checks that a forget finds what it folds itself: a phrase
// said only in a spooled tool call is forgotten, and the marks of stored
// fold files survive a forget by date.
func TestSpoolForget(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := spooledPhrase(t, "zanzibarquokka")
	if _, err := db.Forget(ctx, ForgetSelector{Phrase: "zanzibarquokka"}); err != nil {
		t.Fatal(err)
	}
	if n := countEvents(t, db, TypeToolObservation); n != 0 {
		t.Errorf("%d tool events after forgetting the phrase only the spooled one said, want 0", n)
	}
	if _, err := db.Forget(ctx, ForgetSelector{Before: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if n := len(mustEvents(t, db, TypeSpoolFolded)); n != 1 {
		t.Errorf("%d spool_folded marks after a forget by date, want 1", n)
	}
}

// TestSpoolBacklog checks that one transaction folds about maxSpool bytes:
// a backlog of fold files is worked off over several, oldest first, the
// live spool after them.
func TestSpoolBacklog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	path := db.Path() + "-spool"
	if err := os.WriteFile(path+"-fold-1-1", append(make([]byte, maxSpool), '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Spool(context.Background(), db.Path(), spoolSession("s"), toolEvent("s", 1)); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path, path+"-fold-2-1"); err != nil {
		t.Fatal(err)
	}
	if err := Spool(context.Background(), db.Path(), spoolSession("s"), toolEvent("s", 2)); err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{0, 2, 2} {
		if err := db.Update(ctx, func(*Tx) error { return nil }); err != nil {
			t.Fatal(err)
		}
		if n := len(mustEvents(t, db, TypeToolObservation)); n != want {
			t.Errorf("after write %d: %d tool events, want %d", i+1, n, want)
		}
	}
	if left := foldFiles(path); len(left) != 0 || fileExists(path) {
		t.Errorf("left after the backlog: %v", left)
	}
}

// TestSpoolPreview checks that a forget's preview lists a phrase said only in
// a spooled tool call: the user confirms what Forget will delete.
func TestSpoolPreview(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := spooledPhrase(t, "zanzibarquokka")
	pv, err := db.PreviewForget(ctx, ForgetSelector{Phrase: "zanzibarquokka"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(pv.Plan.Delete)+len(pv.Plan.Redact) == 0 {
		t.Errorf("the preview lists nothing for a phrase only a spooled tool call said: %+v", pv.Plan)
	}
}

// TestSpoolInjection checks that a spooled injection record (the prompt
// hook's) counts the memories it names when it is folded in, once however
// often it was spooled, and that a record no hook writes is skipped rather
// than failing every writer after it.
func TestSpoolInjection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	got, _, err := putEntries(ctx, db, []EntryWrite{{Entry: entry("s0", "keys", "Keys live in ./keys", "keys live in ./keys", StageVerified)}})
	if err != nil {
		t.Fatal(err)
	}
	e := got[0]
	at := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	inj := Event{Time: at, Type: TypeMemoryInjected, SessionID: "s", DedupeKey: Key(KeyInject, "s", "p1"),
		Payload: []byte(fmt.Sprintf(`{"memories":[%q,"mem:t1"],"prompt_id":"p1"}`, e.CID))}
	prompt := Event{Time: at, Type: TypeUserPrompt, SessionID: "s", Text: "where do the keys live?", DedupeKey: Key(KeyPrompt, "s", "p1")}
	for range 2 { // a retried hook spools the same records again
		if err := Spool(context.Background(), db.Path(), spoolSession("s"), prompt, inj); err != nil {
			t.Fatal(err)
		}
	}
	bad := inj
	bad.DedupeKey, bad.Payload = "inject:s:bad", []byte(`[1,2]`)
	line, err := spoolLine(spoolSession("s"), bad)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(db.Path()+"-spool", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(append(append([]byte("\n"), line...), '\n'))
	f.Close()

	if n := countEvents(t, db, TypeMemoryInjected); n != 1 {
		t.Errorf("%d memory_injected events, want 1", n)
	}
	if n := len(mustEvents(t, db, TypeUserPrompt)); n != 1 {
		t.Errorf("%d prompts, want 1", n)
	}
	after, err := db.EntryByCID(ctx, e.CID)
	if err != nil {
		t.Fatal(err)
	}
	if after.InjectCount != 1 || !after.LastInjected.Equal(at) {
		t.Errorf("injected %d times, last at %v; want once, at %v", after.InjectCount, after.LastInjected, at)
	}

	// A record stored after a forget of what it names (the hook read the
	// memory before the forget, spooled after it) keeps no forgotten id,
	// and one naming more memories than SQLite binds in a statement is
	// stored, not a failure for every later writer.
	gone, _, err := putEntries(ctx, db, []EntryWrite{{Entry: entry("s0", "port", "The API listens on 8443", "the API listens on 8443", StageVerified)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Forget(ctx, ForgetSelector{CID: gone[0].CID}); err != nil {
		t.Fatal(err)
	}
	msg := mustEvents(t, db, TypeUserPrompt)[0]
	names := []string{e.CID, gone[0].CID, EventCID(msg.ID), EventCID(msg.ID + 1000)}
	for i := range 40000 {
		names = append(names, fmt.Sprintf("mem:%08x", i))
	}
	late := inj
	late.DedupeKey = Key(KeyInject, "s", "p2")
	late.Payload, _ = json.Marshal(map[string]any{"memories": names, "prompt_id": "p2"})
	if err := Spool(context.Background(), db.Path(), spoolSession("s"), late); err != nil {
		t.Fatal(err)
	}
	if n := countEvents(t, db, TypeMemoryInjected); n != 2 {
		t.Fatalf("%d memory_injected events, want 2", n)
	}
	var stored struct{ Memories []string }
	for _, ev := range mustEvents(t, db, TypeMemoryInjected) {
		if ev.DedupeKey == late.DedupeKey {
			json.Unmarshal(ev.Payload, &stored)
		}
	}
	if want := []string{e.CID, EventCID(msg.ID)}; fmt.Sprint(stored.Memories) != fmt.Sprint(want) {
		t.Errorf("the late injection names %.200v, want %v", stored.Memories, want)
	}
	if after, _ := db.EntryByCID(ctx, e.CID); after.InjectCount != 2 {
		t.Errorf("injected %d times, want 2", after.InjectCount)
	}
}

// TestSpooled checks that a reader finds a session's spooled events of one
// type, in order, in the spool and in a fold file left behind, and nothing
// of other sessions or types.
func TestSpooled(t *testing.T) {
	t.Parallel()
	db := MustOpen(t)
	prompt := func(session string, i int) Event {
		return Event{Time: time.Unix(1e9+int64(i), 0).UTC(), Type: TypeUserPrompt, SessionID: session, Text: fmt.Sprint("prompt ", i),
			DedupeKey: Key(KeyPrompt, session, fmt.Sprint("p", i))}
	}
	if err := Spool(context.Background(), db.Path(), spoolSession("a"), prompt("a", 1), toolEvent("a", 2)); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(db.Path()+"-spool", db.Path()+"-spool-fold-1-1"); err != nil { // as a crashed fold leaves it
		t.Fatal(err)
	}
	for i, s := range []string{"b", "a", `a"`} {
		if err := Spool(context.Background(), db.Path(), spoolSession(s), prompt(s, 3+i)); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, e := range db.Spooled("a", TypeUserPrompt) {
		got = append(got, e.Text)
	}
	if fmt.Sprint(got) != "[prompt 1 prompt 4]" {
		t.Errorf("session a's spooled prompts: %q", got)
	}
}

// TestSessionSpool checks that a SessionSpool reads the files once for all
// its readers, and that a reader it was not made for reads them itself.
func TestSessionSpool(t *testing.T) {
	t.Parallel()
	db := MustOpen(t)
	prompt := Event{Time: time.Unix(1e9, 0).UTC(), Type: TypeUserPrompt, SessionID: "a", Text: "the first prompt",
		DedupeKey: Key(KeyPrompt, "a", "p1")}
	if err := Spool(context.Background(), db.Path(), spoolSession("a"), prompt, toolEvent("a", 2)); err != nil {
		t.Fatal(err)
	}
	sp := db.SessionSpool("a", TypeUserPrompt, TypeToolObservation)
	if evs := sp.Spooled(db, "a", TypeToolObservation); len(evs) != 1 || evs[0].Type != TypeToolObservation {
		t.Fatalf("the tool call: %+v", evs)
	}
	// Read once: what the files hold later is not read again.
	if err := os.Remove(db.Path() + "-spool"); err != nil {
		t.Fatal(err)
	}
	if evs := sp.Spooled(db, "a", TypeUserPrompt); len(evs) != 1 || evs[0].Text != "the first prompt" {
		t.Errorf("the prompt, from the first read: %+v", evs)
	}
	if evs := db.Spooled("a", TypeUserPrompt); len(evs) != 0 {
		t.Errorf("the files read again: %+v", evs)
	}
	if err := Spool(context.Background(), db.Path(), spoolSession("b"), toolEvent("b", 3)); err != nil {
		t.Fatal(err)
	}
	for name, evs := range map[string][]Event{
		"another session": sp.Spooled(db, "b", TypeToolObservation),
		"a nil reader":    (*SessionSpool)(nil).Spooled(db, "b", TypeToolObservation),
	} {
		if len(evs) != 1 || evs[0].SessionID != "b" {
			t.Errorf("%s reads the files: %+v", name, evs)
		}
	}
	if err := Spool(context.Background(), db.Path(), spoolSession("a"), Event{Time: time.Unix(1e9+5, 0).UTC(),
		Type: TypeSessionStarted, SessionID: "a", DedupeKey: Key(KeyPrompt, "a", "start")}); err != nil {
		t.Fatal(err)
	}
	if evs := sp.Spooled(db, "a", TypeSessionStarted); len(evs) != 1 {
		t.Errorf("a type the reader was not made for reads the files: %+v", evs)
	}
}

// TestSpoolState: doctor's view of the spool follows what waits in it.
func TestSpoolState(t *testing.T) {
	t.Parallel()
	db := MustOpen(t)
	if st := db.SpoolState(); st.Bytes != 0 || st.FoldFiles != 0 || !st.Since.IsZero() {
		t.Fatalf("an empty spool: %+v", st)
	}
	if err := Spool(context.Background(), db.Path(), spoolSession("s"), toolEvent("s", 1)); err != nil {
		t.Fatal(err)
	}
	if st := db.SpoolState(); st.Bytes == 0 || st.FoldFiles != 0 || st.Since.IsZero() || st.Full {
		t.Fatalf("one spooled record: %+v", st)
	}
	if err := db.Fold(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := db.SpoolState(); st.Bytes != 0 || st.FoldFiles != 0 {
		t.Fatalf("after a fold: %+v", st)
	}
}

// TestSpoolRefusesSymlink: a spool file that is a symlink, dangling here, is
// not followed: the open used to create its target wherever it pointed. The
// record is stored instead the way a spool that cannot be written is: not
// at all by Spool, which says so.
func TestSpoolRefusesSymlink(t *testing.T) {
	t.Parallel()
	db := MustOpen(t)
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Symlink(target, spoolPath(db.Path())); err != nil {
		t.Fatal(err)
	}
	if err := Spool(context.Background(), db.Path(), spoolSession("s"), toolEvent("s", 1)); err == nil {
		t.Error("Spool through a symlink succeeded")
	}
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Errorf("the symlink's target was created: %v", err)
	}
}
