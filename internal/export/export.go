// Package export is the store's JSONL export format: a store written as
// one, and one restored into a store.
package export

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/align"
	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/plural"
	"github.com/claude-memory-layer/claude-memory-layer/internal/privacy"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/tidwall/gjson"
)

// Format names the export format in its header line: a header line, then
// one JSON object per line.
const Format = "claude-memory-layer-export"

// version is the format's version in the header line.
const version = 1

// The lines of an export. Times are in the store's fixed-width UTC format.
type (
	exportHeader struct {
		Kind       string `json:"kind"`
		Format     string `json:"format"`
		Version    int    `json:"version"`
		Schema     int    `json:"schema"`
		ExportedAt string `json:"exported_at"`
		Project    string `json:"project"` // "" for all projects
		// ForgetKeyID names the key of the store's forget rules
		// (store.ForgetKeyID), "" when it has none.
		ForgetKeyID string `json:"forget_key_id,omitempty"`
	}
	// exportForgetKey is the store's key for the hashes of its forget
	// rules, in an export written with WriteWithForgetKey only: without
	// it a restored store cannot match the keyed rules of the tombstones
	// it restores, and with it anyone holding the file can test guesses
	// against those hashes.
	exportForgetKey struct {
		Kind string `json:"kind"`
		Key  string `json:"key"` // hex
	}
	exportEvent struct {
		Kind        string          `json:"kind"`
		ID          int64           `json:"id"`
		TS          string          `json:"ts"`
		Type        string          `json:"type"`
		SessionID   string          `json:"session_id"`
		Project     string          `json:"project"`
		SourceUUID  string          `json:"source_uuid"`
		Text        string          `json:"text"`
		Payload     json.RawMessage `json:"payload"`
		DedupeKey   string          `json:"dedupe_key"`
		ContentHash string          `json:"content_hash"`
		Checksum    string          `json:"checksum"`
	}
	exportSession struct {
		Kind           string `json:"kind"`
		ID             string `json:"id"`
		Project        string `json:"project"`
		Cwd            string `json:"cwd"`
		TranscriptPath string `json:"transcript_path"`
		Source         string `json:"source"`
		StartedAt      string `json:"started_at"`
		EndedAt        string `json:"ended_at"`
		EndReason      string `json:"end_reason"`
		IngestOffset   int64  `json:"ingest_offset"`
		Summary        string `json:"summary"`
	}
	exportEntry struct {
		Kind             string           `json:"kind"`
		ID               int64            `json:"id"`
		CID              string           `json:"cid"`
		Project          string           `json:"project"`
		SessionID        string           `json:"session_id"`
		Type             string           `json:"type"`
		Title            string           `json:"title"`
		Body             string           `json:"body"`
		Subject          string           `json:"subject"`
		Questions        []string         `json:"questions,omitempty"` // what it answers
		ClaimKey         string           `json:"claim_key"`
		Stage            string           `json:"stage"`
		Status           string           `json:"status"`
		SupersededBy     string           `json:"superseded_by"` // a citation id
		PromotionBlocked string           `json:"promotion_blocked"`
		Created          string           `json:"created_at"`
		LastUsed         string           `json:"last_used_at"`
		UseCount         int              `json:"use_count"`
		LastInjected     string           `json:"last_injected_at"`
		InjectCount      int              `json:"inject_count"`
		Evidence         []exportEvidence `json:"evidence"`
		Conflicts        []exportConflict `json:"conflicts"`
	}
	exportEvidence struct {
		EventID      int64   `json:"event_id"`
		EventKey     string  `json:"event_key"` // the event's dedupe key: ids differ between stores
		SessionID    string  `json:"session_id"`
		SourceUUID   string  `json:"source_uuid"`
		MessageIndex int     `json:"message_index"`
		Quote        string  `json:"quote"`
		SpanStart    int     `json:"span_start"`
		SpanEnd      int     `json:"span_end"`
		Method       string  `json:"method"`
		Confidence   float64 `json:"confidence"`
		Failure      string  `json:"failure"`
		Ambiguous    bool    `json:"ambiguous"`
	}
	exportConflict struct {
		Older      string `json:"older"` // citation ids
		Newer      string `json:"newer"`
		Kind       string `json:"kind"`
		Reason     string `json:"reason"`
		Detected   string `json:"detected_at"`
		Resolution string `json:"resolution"`
	}
)

// Write writes the export of one project ("" for all) to w, dated now.
// It leaves out the key of the store's forget rules (WriteWithForgetKey).
func Write(ctx context.Context, db *store.DB, proj string, now time.Time, w io.Writer) error {
	return write(ctx, db, proj, now, w, false)
}

// WriteWithForgetKey is Write with the key of the store's forget rules
// after the header, so that a store restored from it honours every forget
// of this one; the file then lets anyone who holds it test guesses of
// forgotten words and ids against its tombstones' hashes.
func WriteWithForgetKey(ctx context.Context, db *store.DB, proj string, now time.Time, w io.Writer) error {
	return write(ctx, db, proj, now, w, true)
}

func write(ctx context.Context, db *store.DB, proj string, now time.Time, w io.Writer, withKey bool) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	schema, err := db.Version(ctx)
	if err != nil {
		return err
	}
	key, err := db.ForgetKey(ctx)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := enc.Encode(exportHeader{Kind: "header", Format: Format, Version: version, Schema: schema,
		ExportedAt: store.FormatTime(now), Project: proj, ForgetKeyID: store.ForgetKeyID(key)}); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if withKey && key != nil {
		if err := enc.Encode(exportForgetKey{Kind: "forget_key", Key: hex.EncodeToString(key)}); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	keys := map[int64]string{} // event id -> dedupe key, for evidence
	err = db.ScanEvents(ctx, proj, func(ev store.Event, hash string) error {
		keys[ev.ID] = ev.DedupeKey
		if proj != "" && ev.Type == store.TypeForgotten && ev.Project != proj && ev.Project != "" {
			// Another project's forget comes along (its rule may cover
			// this project's words), but not that project's path.
			ev.Project = ""
			sum, err := store.EventChecksum(ev)
			if err != nil {
				return err
			}
			ev.Checksum = sum
		}
		payload := ev.Payload
		if !json.Valid(payload) {
			payload = json.RawMessage("{}")
		}
		return enc.Encode(exportEvent{Kind: "event", ID: ev.ID, TS: store.FormatTime(ev.Time), Type: ev.Type, SessionID: ev.SessionID,
			Project: ev.Project, SourceUUID: ev.SourceUUID, Text: ev.Text, Payload: payload, DedupeKey: ev.DedupeKey,
			ContentHash: hash, Checksum: ev.Checksum})
	})
	if err != nil {
		return fmt.Errorf("export events: %w", err)
	}
	sessions, err := db.Sessions(ctx, proj, 0)
	if err != nil {
		return err
	}
	sort.Slice(sessions, func(i, j int) bool { return sessions[i].ID < sessions[j].ID })
	for _, s := range sessions {
		if err := enc.Encode(exportSession{Kind: "session", ID: s.ID, Project: s.Project, Cwd: s.Cwd, TranscriptPath: s.TranscriptPath,
			Source: s.Source, StartedAt: store.FormatTime(s.StartedAt), EndedAt: store.FormatTime(s.EndedAt), EndReason: s.EndReason,
			IngestOffset: s.Offset, Summary: s.Summary}); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	entries, err := db.Read().Entries(ctx, store.EntryFilter{Project: proj, Evidence: true})
	if err != nil {
		return err
	}
	// Oldest first, so that a restore creates them in their original order.
	sort.Slice(entries, func(i, j int) bool { return entries[i].ID < entries[j].ID })
	cids := make(map[int64]string, len(entries))
	for _, en := range entries {
		cids[en.ID] = en.CID
	}
	conflicts, err := db.Conflicts(ctx, nil, 0)
	if err != nil {
		return err
	}
	byEntry := map[int64][]exportConflict{}
	for _, c := range conflicts {
		older, ok1 := cids[c.Older]
		newer, ok2 := cids[c.Newer]
		if !ok1 || !ok2 {
			continue
		}
		x := exportConflict{Older: older, Newer: newer, Kind: c.Kind, Reason: c.Reason, Detected: store.FormatTime(c.Detected), Resolution: c.Resolution}
		byEntry[c.Older] = append(byEntry[c.Older], x)
		byEntry[c.Newer] = append(byEntry[c.Newer], x)
	}
	for _, en := range entries {
		x := exportEntry{Kind: "entry", ID: en.ID, CID: en.CID, Project: en.Project, SessionID: en.SessionID, Type: en.Type,
			Title: en.Title, Body: en.Body, Subject: en.Subject, Questions: en.Questions, ClaimKey: en.ClaimKey, Stage: en.Stage, Status: en.Status,
			SupersededBy: cids[en.SupersededBy], PromotionBlocked: en.PromotionBlocked, Created: store.FormatTime(en.Created),
			LastUsed: store.FormatTime(en.LastUsed), UseCount: en.UseCount,
			LastInjected: store.FormatTime(en.LastInjected), InjectCount: en.InjectCount, Evidence: []exportEvidence{}, Conflicts: byEntry[en.ID]}
		if x.Conflicts == nil {
			x.Conflicts = []exportConflict{}
		}
		for _, v := range en.Evidence {
			key := keys[v.EventID]
			if key == "" && v.EventID != 0 {
				// Evidence in another project's event (not exported with
				// --project): name it anyway so a full restore can link it.
				if ev, err := db.Event(ctx, v.EventID); err == nil {
					key = ev.DedupeKey
				}
			}
			x.Evidence = append(x.Evidence, exportEvidence{EventID: v.EventID, EventKey: key, SessionID: v.SessionID,
				SourceUUID: v.SourceUUID, MessageIndex: v.MessageIndex, Quote: v.Quote, SpanStart: v.SpanStart, SpanEnd: v.SpanEnd,
				Method: v.Method, Confidence: v.Confidence, Failure: v.Failure, Ambiguous: v.Ambiguous})
		}
		if err := enc.Encode(x); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	return nil
}

// Summary counts what a restore did; it is also import --from-export's --json output.
type Summary struct {
	Events      int `json:"events"`
	Added       int `json:"events_added"`
	Duplicates  int `json:"duplicates_skipped"`
	Refused     int `json:"events_forgotten"` // left out: a forget's rule covers them
	Mismatches  int `json:"checksum_mismatches"`
	Sessions    int `json:"sessions"`
	Entries     int `json:"entries"`
	NewEntries  int `json:"entries_new"`
	Conflicts   int `json:"conflicts"` // newly recorded
	FailedLines int `json:"failed_lines"`
	Unverified  int `json:"entries_unverified"` // claimed verified, restored as candidates
	// RulesNotCarried counts the forget rules restored that this store
	// cannot match: keyed with the key of the store they came from, which
	// the export does not hold, or holds and the restore was not told to
	// adopt (Options.AdoptForgetKey), or this store has another. What they
	// forgot is written back if it comes again (a transcript imported).
	RulesNotCarried int `json:"forget_rules_not_carried"`
}

// Options are a restore's choices.
type Options struct {
	// AdoptForgetKey makes the export's forget key this store's when the
	// store has none, so that the export's keyed forget rules hold here.
	// Only for a file one wrote oneself: a key planted in a file would
	// otherwise key every later forget's tombstone with a secret its
	// author knows.
	AdoptForgetKey bool
}

// Restore stores the events, sessions, entries and conflicts of the export
// read from f, each keyed as in the store it came from, so restoring twice
// (or into a store that holds some of it) adds nothing twice. What it cannot
// restore as it was, it says on warn, a line each; a line it cannot restore
// at all is counted in Summary.FailedLines.
//
// Nothing a forget removed comes back, wherever its tombstone stands in the
// file: f is read twice, or three times when the store has forgets. First the forgets (their tombstones and the
// key of their rules), then everything but the records of memories, which
// the store holds to every forget's rule as it writes it, then those
// records (an extraction, an edit, a verdict), but not those of a memory
// the restore kept out: a record holds the memory's words, dated when it
// was recorded, not when they were said. (With no forget in the store, the
// records are read with the rest, in their place.) A memory is kept out
// when a rule covers its words or one of its quotes, when a quote's
// message was kept out, or when its id was forgotten.
//
// A restore deletes nothing: what this store held before it stays, even
// what an export's forget covers (an older backup restored before a newer
// one); it says so on warn. Carrying out another store's rules on this
// store's rows would let one crafted line delete them.
func Restore(ctx context.Context, db *store.DB, f io.ReadSeeker, warn io.Writer, opt Options) (Summary, error) {
	r := &restorer{db: db, warn: warn, opt: opt, ids: map[string]int64{}, owners: map[string]store.Entry{}, conflicts: map[[2]string]exportConflict{},
		keys: map[string]string{}, taken: map[string]string{}, refused: map[string]bool{}, forgottenIn: map[string]bool{},
		refusedEvents: map[string]bool{}}
	held, err := db.HoldsType(ctx, store.TypeUserPrompt, store.TypeAgentResponse, store.TypeToolObservation)
	if err != nil {
		return r.sum, err
	}
	if err := r.read(ctx, f, passForgets); err != nil {
		return r.sum, err
	}
	if err := r.forgets(ctx, held); err != nil {
		return r.sum, err
	}
	// Without a forget no memory is kept out, and the records stay in
	// their place: a store restored into an empty one keeps its events'
	// ids, and so their citation ids.
	if r.deferRecords, err = db.HoldsType(ctx, store.TypeForgotten); err != nil {
		return r.sum, err
	}
	passes := []pass{passData}
	if r.deferRecords {
		passes = append(passes, passRecords)
	}
	for _, p := range passes {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return r.sum, fmt.Errorf("read export again: %w", err)
		}
		if err := r.read(ctx, f, p); err != nil {
			return r.sum, err
		}
	}
	if err := r.summarize(ctx); err != nil {
		return r.sum, err
	}
	return r.sum, r.applyConflicts(ctx)
}

// pass is one reading of an export; each line belongs to one (passOf).
type pass int

const (
	passForgets pass = iota // tombstones and the forget key
	passData                // events, sessions, entries
	passRecords             // the records of memories (recordTypes)
)

// passOf is the pass an export line is read in.
func (r *restorer) passOf(line []byte) pass {
	kind := gjson.GetBytes(line, "kind").Str
	switch {
	case kind == "forget_key":
		return passForgets
	case kind != "event":
		return passData
	}
	switch typ := gjson.GetBytes(line, "type").Str; {
	case typ == store.TypeForgotten:
		return passForgets
	case r.deferRecords && recordTypes[typ]:
		return passRecords
	}
	return passData
}

// recordTypes are store.RecordTypes, as a set.
var recordTypes = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range store.RecordTypes {
		m[t] = true
	}
	return m
}()

// forgets follows the first pass: it says which of the export's rules this
// store cannot match, and that what it held before may hold what the
// export's forgets removed.
func (r *restorer) forgets(ctx context.Context, held bool) error {
	key, err := r.db.ForgetKey(ctx)
	if err != nil {
		return err
	}
	if held && r.tombstones > 0 {
		fmt.Fprintf(r.warn, "claude-memory-layer import: this store held messages before the restore, and the export brings %s it did not have:\n"+
			"  what they removed (those whose rules this store can match) is left out of what the restore writes,\n"+
			"  but not deleted from what the store held (a backup restored before, say).\n"+
			"  To be sure it is gone, restore into an empty store, or run those forgets again here.\n", plural.Of(r.tombstones, "forget"))
	}
	if r.keyed == 0 || key != nil && store.ForgetKeyID(key) == r.keyID {
		return nil
	}
	r.sum.RulesNotCarried += r.keyed
	var why string
	switch {
	case key != nil:
		why = "this store has a forget key of its own, and a rule is matched with the store's key only"
	case r.keyOffered:
		why = "the export holds the key of the store it came from, and the restore was not told to adopt it (--adopt-forget-key)"
	default:
		why = "the export does not hold the key of the store it came from (export --with-forget-key)"
	}
	fmt.Fprintf(r.warn, "claude-memory-layer import: WARNING: %s of the export could not be carried over: %s.\n"+
		"  This store will not refuse what they forgot if it comes back (a transcript imported again, the spool).\n"+
		"  Run those forgets again here (forget --match, --session, ...) to keep it forgotten.\n",
		plural.Of(r.keyed, "forget rule"), why)
	return nil
}

// restorer applies an export's lines to a store.
type restorer struct {
	db      *store.DB
	warn    io.Writer
	opt     Options
	sum     Summary
	pending []store.Event
	// ids maps the citation ids of the export to entry ids in this store.
	ids       map[string]int64
	conflicts map[[2]string]exportConflict
	owners    map[string]store.Entry // citation id -> session and project of the entry, for conflict events
	// keys maps a claim key exported with what the filter now masks to the
	// key made again from the filtered title (claimKey), taken the other
	// way round.
	keys, taken map[string]string
	// refused holds the citation ids, and the projects' claim keys
	// (refusedKey), of the entries a forget's rule kept out: their records
	// are kept out too. forgottenIn holds the sessions of which a rule
	// kept an event or an entry out, and summaries the summaries held back
	// (summarize).
	refused       map[string]bool
	forgottenIn   map[string]bool
	refusedEvents map[string]bool // dedupe keys of the events a rule kept out
	summaries     []summary
	// The header's forget key id and time; how many of the export's
	// tombstones hold keyed hashes, and how many the restore stored;
	// whether the export held its store's key.
	keyID      string
	exportedAt time.Time
	keyed      int
	tombstones int
	keyOffered bool
	pass       pass // the one being read
	// deferRecords holds the records of memories back to a pass of their
	// own, after the memories: a forget may keep a memory out.
	deferRecords bool
}

func refusedKey(project, claimKey string) string { return project + "\x00" + claimKey }

// record reports whether ev records a memory the restore kept out.
func (r *restorer) record(ev store.Event) bool {
	if len(r.refused) == 0 || !recordTypes[ev.Type] {
		return false
	}
	v, ok := store.ParseRecord(ev.Payload)
	if !ok {
		return false
	}
	if v.ClaimKey != "" && r.refused[refusedKey(ev.Project, v.ClaimKey)] {
		return true
	}
	for _, cid := range append(append([]string{v.CID, v.Older, v.Newer}, v.Cited...), append(v.Shown, v.Against...)...) {
		if cid != "" && r.refused[cid] {
			return true
		}
	}
	return false
}

// claimKey is the claim key, in this store, of a memory exported under old
// whose subject or title the filter changed: made again from what the
// filter left, as the pipeline makes it, for a key holds the title's words
// and so what was masked in it. The memory's entry and the events that name
// it by its key (entry_extracted, evidence_aligned) get the same one, so
// forget still finds them all; two memories the filter made alike keep two
// keys, so that neither is merged into the other.
func (r *restorer) claimKey(old, subject, title string) string {
	if k, ok := r.keys[old]; ok {
		return k
	}
	base := claim.Key(subject, title)
	k := base
	for n := 2; r.taken[k] != "" && r.taken[k] != old; n++ {
		k = fmt.Sprintf("%s #%d", base, n)
	}
	r.keys[old], r.taken[k] = k, old
	return k
}

// restoreBatch is how many events go into one transaction.
const restoreBatch = 2000

// maxExportLine caps one line of an export (an event's text is capped well below).
const maxExportLine = 64 << 20

// read reads the lines of one pass.
func (r *restorer) read(ctx context.Context, f io.Reader, p pass) error {
	r.pass = p
	br := bufio.NewReaderSize(f, 256<<10)
	n := 0 // lines read, for messages
	header := false
	for {
		line, err := readExportLine(br)
		n++
		switch {
		case len(line) == 0:
		case !header:
			h, err := checkExportHeader(line)
			if err != nil {
				return err
			}
			header, r.keyID, r.exportedAt = true, h.ForgetKeyID, store.ParseTime(h.ExportedAt)
		case r.passOf(line) == p:
			if err := r.line(ctx, n, line); err != nil {
				return err
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read export: %w", err)
		}
	}
	if !header {
		return errors.New("not a claude-memory-layer export: the file is empty")
	}
	return r.flush(ctx)
}

func readExportLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxExportLine {
			return nil, fmt.Errorf("line longer than %d bytes", maxExportLine)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
				line = line[:len(line)-1]
			}
			return line, err
		}
	}
}

// CheckHeader returns the error of a first line that is no export header
// of a version this build reads, nil for one that is.
func CheckHeader(line []byte) error {
	_, err := checkExportHeader(line)
	return err
}

func checkExportHeader(line []byte) (exportHeader, error) {
	var h exportHeader
	if err := json.Unmarshal(line, &h); err != nil || h.Kind != "header" || h.Format != Format {
		return h, errors.New("not a claude-memory-layer export: the first line is no export header")
	}
	if h.Version != version {
		return h, fmt.Errorf("export format version %d: this build reads version %d", h.Version, version)
	}
	return h, nil
}

// line applies one line; a malformed line is reported and counted, and only a
// store error stops the restore.
func (r *restorer) line(ctx context.Context, n int, line []byte) error {
	bad := func(err error) error {
		r.sum.FailedLines++
		fmt.Fprintf(r.warn, "claude-memory-layer import: line %d: %v\n", n, err)
		return nil
	}
	switch kind := gjson.GetBytes(line, "kind").Str; kind {
	case "event":
		var x exportEvent
		if err := json.Unmarshal(line, &x); err != nil {
			return bad(err)
		}
		ev := store.Event{Time: store.ParseTime(x.TS), Type: x.Type, SessionID: x.SessionID, Project: x.Project,
			SourceUUID: x.SourceUUID, Text: x.Text, Payload: x.Payload, DedupeKey: x.DedupeKey}
		filtered, err := r.filterEvent(ev)
		if err != nil {
			return bad(err)
		}
		if ev.Type == "" || ev.DedupeKey == "" {
			return bad(errors.New("event without a type or dedupe key"))
		}
		sum, err := store.EventChecksum(ev)
		if err != nil {
			return bad(err)
		}
		if sum != x.Checksum {
			// Kept: losing data in a restore is worse than a changed event,
			// which forget's redaction can also cause.
			r.sum.Mismatches++
			fmt.Fprintf(r.warn, "claude-memory-layer import: line %d: event %s does not match its checksum; restored as it is\n", n, x.DedupeKey)
		}
		if ev.Type == store.TypeForgotten {
			if why := store.ForeignRuleProblem(ev.Payload, r.db.Now()); why != "" {
				// A stored rule is enforced on every later write, for good.
				r.sum.RulesNotCarried++
				fmt.Fprintf(r.warn, "claude-memory-layer import: line %d: forget %s not restored: %s\n", n, ev.DedupeKey, why)
				return nil
			}
			if store.KeyedForgetRule(ev.Payload) {
				r.keyed++
			}
		}
		r.sum.Events++
		if r.record(filtered) {
			r.sum.Refused++
			return nil
		}
		r.pending = append(r.pending, filtered)
		if len(r.pending) >= restoreBatch {
			return r.flush(ctx)
		}
		return nil
	case "session":
		var x exportSession
		if err := json.Unmarshal(line, &x); err != nil {
			return bad(err)
		}
		if x.ID == "" {
			return bad(errors.New("session without an id"))
		}
		return r.session(ctx, x)
	case "entry":
		var x exportEntry
		if err := json.Unmarshal(line, &x); err != nil {
			return bad(err)
		}
		if x.CID == "" || x.ClaimKey == "" || x.Title == "" {
			return bad(errors.New("entry without a citation id, claim key or title"))
		}
		if x.Project == "" && x.SessionID == "" {
			// The store refuses it, and a store error ends the restore.
			return bad(fmt.Errorf("entry %s without a project or session", x.CID))
		}
		if !entryTypes[x.Type] {
			// The type is shown as it is in the injected context.
			return bad(fmt.Errorf("entry %s: unknown entry type %q", x.CID, x.Type))
		}
		return r.entry(ctx, x)
	case "forget_key":
		var x exportForgetKey
		if err := json.Unmarshal(line, &x); err != nil {
			return bad(err)
		}
		key, err := hex.DecodeString(x.Key)
		if err != nil || len(key) != 32 {
			return bad(errors.New("a forget key that is not 32 bytes of hex"))
		}
		if store.ForgetKeyID(key) != r.keyID {
			// The header names the key its store's rules were keyed with:
			// another key matches none of them.
			return bad(errors.New("the forget key is not the one the header names (forget_key_id)"))
		}
		r.keyOffered = true
		if r.opt.AdoptForgetKey {
			_, err := r.db.AdoptForgetKey(ctx, key)
			return err
		}
		return nil
	case "header":
		return bad(errors.New("a second header"))
	default:
		return bad(fmt.Errorf("unknown kind %q", kind))
	}
}

func (r *restorer) flush(ctx context.Context) error {
	if len(r.pending) == 0 {
		return nil
	}
	var res store.AppendResult
	err := r.db.Update(ctx, func(tx *store.Tx) error {
		var err error
		res, err = tx.Append(ctx, r.pending...)
		return err
	})
	if err != nil {
		return fmt.Errorf("append: %w", err)
	}
	r.sum.Added += res.Added
	r.sum.Duplicates += res.Duplicates
	r.sum.Refused += res.Forgotten
	for _, id := range res.ForgottenIn {
		r.forgottenIn[id] = true
	}
	for _, k := range res.ForgottenKeys {
		r.refusedEvents[k] = true
	}
	if r.pass == passForgets {
		r.tombstones += res.Added
	}
	r.pending = r.pending[:0]
	return nil
}

func (r *restorer) session(ctx context.Context, x exportSession) error {
	// The session's events first, as the export has them.
	if err := r.flush(ctx); err != nil {
		return err
	}
	err := r.db.Update(ctx, func(tx *store.Tx) error {
		// The row is kept, as forget keeps it.
		if err := tx.TouchSession(ctx, store.Session{ID: x.ID, Project: x.Project, Cwd: x.Cwd, TranscriptPath: x.TranscriptPath,
			Source: x.Source, StartedAt: store.ParseTime(x.StartedAt)}); err != nil {
			return err
		}
		if err := tx.AdvanceOffset(ctx, x.ID, 0, x.IngestOffset); err != nil {
			return err
		}
		cur, err := tx.Session(ctx, x.ID)
		if err != nil {
			return err
		}
		if ended := store.ParseTime(x.EndedAt); !ended.IsZero() && cur.EndedAt.IsZero() {
			if err := tx.EndSession(ctx, x.ID, x.EndReason, ended); err != nil {
				return err
			}
		}
		if x.Summary != "" && cur.Summary == "" {
			r.summaries = append(r.summaries, summary{session: cur, text: privacy.Filter(x.Summary)})
		}
		return nil
	})
	if err != nil {
		return err
	}
	r.sum.Sessions++
	return nil
}

// summary is a session's summary the restore holds back until it has read
// the session's events and memories.
type summary struct {
	session store.Session
	text    string
}

// summarize restores the summaries held back. A summary says what its
// session said and the titles of the memories it made: a session of which
// the restore left an event or a memory out (a forget's rule covered it)
// gets none, for the summary may say it in other words. Otherwise it was
// written in the store the export came from, of what the session had said
// by then: it is dated when the export was written, so that a forget that
// ran after it covers it and one that ran before (the summary written
// again without what it forgot) does not. A file that names no time, or
// one to come, dates it at the session's start.
func (r *restorer) summarize(ctx context.Context) error {
	for _, sm := range r.summaries {
		id := sm.session.ID
		forgotten := r.forgottenIn[id]
		err := r.db.Update(ctx, func(tx *store.Tx) error {
			written := r.exportedAt
			if written.IsZero() || written.After(r.db.Now()) {
				written = sm.session.StartedAt
			}
			if !forgotten {
				var err error
				if forgotten, err = tx.ForgetsSummary(ctx, sm.session.StartedAt, written, id, sm.session.Project, sm.text); err != nil {
					return err
				}
			}
			if forgotten {
				return nil
			}
			return tx.SetSummary(ctx, id, sm.text)
		})
		if err != nil {
			return err
		}
		if forgotten {
			fmt.Fprintf(r.warn, "claude-memory-layer import: session %s: summary not restored, it holds what a forget removed\n", id)
		}
	}
	return nil
}

func (r *restorer) entry(ctx context.Context, x exportEntry) error {
	// Evidence points at events by id, and ids are this store's: find them by
	// dedupe key. Events come before entries in an export.
	if err := r.flush(ctx); err != nil {
		return err
	}
	var keys []string
	for _, v := range x.Evidence {
		if v.EventKey != "" {
			keys = append(keys, v.EventKey)
		}
	}
	ids, err := r.db.EventIDs(ctx, keys)
	if err != nil {
		return err
	}
	en := store.Entry{Project: x.Project, SessionID: x.SessionID, Type: x.Type, Title: privacy.Filter(x.Title), Body: privacy.Filter(x.Body),
		Subject: privacy.Filter(x.Subject), ClaimKey: x.ClaimKey, Stage: x.Stage, Status: x.Status, PromotionBlocked: privacy.Filter(x.PromotionBlocked),
		Created: store.ParseTime(x.Created)}
	if _, ok := r.keys[x.ClaimKey]; ok || en.Title != x.Title || en.Subject != x.Subject {
		en.ClaimKey = r.claimKey(x.ClaimKey, en.Subject, en.Title)
	}
	for _, q := range x.Questions {
		en.Questions = append(en.Questions, privacy.Filter(q))
	}
	aligned := 0
	for _, v := range x.Evidence {
		ev := store.Evidence{EventID: ids[v.EventKey], SessionID: v.SessionID, SourceUUID: v.SourceUUID,
			MessageIndex: v.MessageIndex, Quote: privacy.Filter(v.Quote), SpanStart: v.SpanStart, SpanEnd: v.SpanEnd, Method: v.Method,
			Confidence: v.Confidence, Failure: v.Failure, Ambiguous: v.Ambiguous}
		ok, err := r.verify(ctx, ev)
		if err != nil {
			return err
		}
		if ok {
			aligned++
		} else if ev.Failure == "" {
			ev.Failure, ev.Confidence = "not found on restore", 0
		}
		en.Evidence = append(en.Evidence, ev)
	}
	if (en.Stage == store.StageVerified || en.Stage == store.StageCertified) && aligned == 0 {
		// The file says verified; the restored events do not bear it out.
		fmt.Fprintf(r.warn, "claude-memory-layer import: entry %s: no evidence quote is in its event; restored as a candidate\n", x.CID)
		en.Stage = store.StageCandidate
		r.sum.Unverified++
	}
	got, created, err := store.Entry{}, false, error(nil)
	if gone, ferr := r.forgottenHere(ctx, x, en.ClaimKey); ferr != nil {
		return ferr
	} else if gone {
		err = store.ErrForgotten
	} else {
		got, created, err = r.db.RestoreEntry(ctx, en)
	}
	if err != nil && store.IsConstraint(err) {
		// A value the store does not take (a stage, a method it does not
		// know): this line, not the restore.
		r.sum.FailedLines++
		fmt.Fprintf(r.warn, "claude-memory-layer import: entry %s: %v\n", x.CID, err)
		return nil
	}
	if errors.Is(err, store.ErrForgotten) {
		fmt.Fprintf(r.warn, "claude-memory-layer import: entry %s: not restored, it holds what a forget removed\n", x.CID)
		r.refused[x.CID] = true
		r.refused[refusedKey(x.Project, x.ClaimKey)] = true
		r.refused[refusedKey(x.Project, en.ClaimKey)] = true
		r.forgottenIn[x.SessionID] = true
		return nil
	}
	if err != nil {
		return err
	}
	if got.CID != x.CID {
		fmt.Fprintf(r.warn, "claude-memory-layer import: entry %s is %s in this store\n", x.CID, got.CID)
	}
	if x.UseCount > 0 || x.LastUsed != "" || x.InjectCount > 0 || x.LastInjected != "" {
		u := store.Usage{UseCount: x.UseCount, LastUsed: store.ParseTime(x.LastUsed), InjectCount: x.InjectCount, LastInjected: store.ParseTime(x.LastInjected)}
		if err := r.db.RestoreUsage(ctx, got.ID, u); err != nil {
			return err
		}
	}
	r.ids[x.CID] = got.ID
	r.owners[x.CID] = store.Entry{SessionID: x.SessionID, Project: x.Project}
	r.sum.Entries++
	if created {
		r.sum.NewEntries++
	}
	for _, c := range x.Conflicts {
		r.conflicts[[2]string{c.Older, c.Newer}] = c
	}
	return nil
}

// forgottenHere reports whether a forget in this store covers the exported
// memory x beyond what its words show the rules: a quote of a message the
// restore kept out (a forget deleted it: the memory was drawn from it,
// whatever words of it the quote holds), or its id forgotten by a forget
// whose rule holds nothing (all its quotes too short to search for), or by
// a memory forget (whose words no longer hold a restored entry: the
// memories quoting them were kept).
func (r *restorer) forgottenHere(ctx context.Context, x exportEntry, claimKey string) (bool, error) {
	for _, v := range x.Evidence {
		if v.EventKey != "" && r.refusedEvents[v.EventKey] {
			return true, nil
		}
	}
	// By the file's id, and by the one it has here when the filter made
	// its claim key again (a restore before may have forgotten it so).
	return r.db.Read().ForgottenMemory(ctx, store.ParseTime(x.Created), x.CID, store.MemoryID(x.Project, claimKey))
}

// entryTypes are the entry types the extractors write; a restored entry
// must have one of them.
var entryTypes = map[string]bool{
	string(extract.Decision): true, string(extract.Fact): true, string(extract.Preference): true, string(extract.Constraint): true,
	string(extract.Lesson): true, string(extract.Task): true, string(extract.Reference): true,
	store.DigestType: true,
}

// verify reports whether an evidence quote of a restored entry is found in
// the restored event it cites, as the pipeline found it when it verified
// the entry: an export is a file anyone can edit.
func (r *restorer) verify(ctx context.Context, v store.Evidence) (bool, error) {
	if v.EventID == 0 || v.Quote == "" || v.Failure != "" {
		return false, nil
	}
	ev, err := r.db.Event(ctx, v.EventID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return align.Quote(v.Quote, 0, []string{ev.Text}).OK(), nil
}

// filterEvent runs an exported event's text and the strings of its
// payload through the privacy filter, as capture does for what it stores.
// A payload naming a memory by a claim key the filter changed the title of
// names it by its key in this store (claimKey).
func (r *restorer) filterEvent(ev store.Event) (store.Event, error) {
	ev.Text = privacy.Filter(ev.Text)
	if len(ev.Payload) == 0 {
		return ev, nil
	}
	var v any
	if err := json.Unmarshal(ev.Payload, &v); err != nil {
		return ev, fmt.Errorf("event %s: payload: %w", ev.DedupeKey, err)
	}
	rekeyed := false
	if m, ok := v.(map[string]any); ok {
		if old, ok := m["claim_key"].(string); ok {
			title, _ := m["title"].(string)
			subject, _ := m["subject"].(string)
			ft, fs := privacy.Filter(title), privacy.Filter(subject)
			if _, known := r.keys[old]; known || ft != title || fs != subject {
				if k := r.claimKey(old, fs, ft); k != old {
					m["claim_key"], rekeyed = k, true
				}
			}
		}
	}
	// A payload with nothing to filter is kept byte for byte, and so is
	// its checksum.
	if v, changed := filterJSON(v); changed || rekeyed {
		b, err := json.Marshal(v)
		if err != nil {
			return ev, err
		}
		ev.Payload = b
	}
	return ev, nil
}

// filterJSON filters the strings of a decoded JSON value and reports
// whether any changed.
func filterJSON(v any) (any, bool) {
	changed := false
	switch x := v.(type) {
	case string:
		f := privacy.Filter(x)
		return f, f != x
	case []any:
		for i := range x {
			var c bool
			x[i], c = filterJSON(x[i])
			changed = changed || c
		}
	case map[string]any:
		for k, v := range x {
			var c bool
			v, c = filterJSON(v)
			if f := privacy.Filter(k); f != k {
				// A key can be said text too (a tool input's field name).
				delete(x, k)
				k, c = f, true
			}
			x[k] = v
			changed = changed || c
		}
	}
	return v, changed
}

// applyConflicts records the conflicts once every entry is known, since a
// conflict names entries that come later in the export.
func (r *restorer) applyConflicts(ctx context.Context) error {
	pairs := make([][2]string, 0, len(r.conflicts))
	for k := range r.conflicts {
		pairs = append(pairs, k)
	}
	sort.Slice(pairs, func(i, j int) bool {
		a, b := r.conflicts[pairs[i]], r.conflicts[pairs[j]]
		if a.Detected != b.Detected {
			return a.Detected < b.Detected
		}
		return pairs[i][0]+pairs[i][1] < pairs[j][0]+pairs[j][1]
	})
	for _, k := range pairs {
		c := r.conflicts[k]
		c.Reason = privacy.Filter(c.Reason)
		older, ok1 := r.ids[c.Older]
		newer, ok2 := r.ids[c.Newer]
		if !ok1 || !ok2 {
			continue
		}
		payload, _ := json.Marshal(map[string]any{"older": c.Older, "newer": c.Newer, "kind": c.Kind, "reason": c.Reason, "restored": true})
		added, err := r.db.AddConflict(ctx, store.Conflict{Older: older, Newer: newer, Kind: c.Kind, Reason: c.Reason, Detected: store.ParseTime(c.Detected)},
			store.Event{Time: store.ParseTime(c.Detected), Type: store.TypeConflict, SessionID: r.owners[c.Newer].SessionID, Project: r.owners[c.Newer].Project,
				DedupeKey: store.Key(store.KeyConflict, c.Older, c.Newer), Payload: payload})
		if err != nil {
			return err
		}
		if added {
			r.sum.Conflicts++
		}
	}
	return nil
}
