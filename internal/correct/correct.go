// Package correct applies a user's corrections to memories, each recorded as one event.
//
// The CLI (verify, reject, edit, supersede, pin, unpin) and the dashboard
// both come through here, so a correction means the same whichever way it
// was made.
package correct

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/privacy"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// ErrInvalid is returned for a correction that cannot be made as asked: a
// bad title or type, a memory superseding itself, or two projects.
var ErrInvalid = errors.New("invalid correction")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// event is the event recording one correction of memory x.
func event(typ string, x store.Entry, now time.Time, fields map[string]any) store.Event {
	fields["cid"] = x.CID
	payload, _ := json.Marshal(fields)
	return store.Event{Time: now, Type: typ, Project: x.Project, Payload: payload,
		DedupeKey: store.Key(store.KeyKind(typ), x.CID, store.FormatTime(now))}
}

// Stage certifies (store.StageCertified) or rejects (store.StageRejected)
// x. It reports false, changing nothing, when x is at that stage already.
func Stage(ctx context.Context, db *store.DB, x store.Entry, stage string, now time.Time) (bool, error) {
	var typ string
	switch stage {
	case store.StageCertified:
		typ = store.TypeCertified
	case store.StageRejected:
		typ = store.TypeRejected
	default:
		return false, invalid("stage %q: want %s or %s", stage, store.StageCertified, store.StageRejected)
	}
	if x.Stage == stage {
		return false, nil
	}
	ev := event(typ, x, now, map[string]any{"from": x.Stage, "to": stage})
	if err := db.SetStage(ctx, x.ID, stage, ev); err != nil {
		return false, err
	}
	return true, nil
}

// Pin pins x (the session brief always shows it) or unpins it. It reports
// false when x already was so.
func Pin(ctx context.Context, db *store.DB, x store.Entry, pin bool, now time.Time) (bool, error) {
	pinned, err := db.Pinned(ctx, x.Project)
	if err != nil {
		return false, err
	}
	if pinned[x.CID] == pin {
		return false, nil
	}
	typ := store.TypeUnpinned
	if pin {
		typ = store.TypePinned
	}
	if err := db.Update(ctx, func(tx *store.Tx) error {
		if _, err := tx.Append(ctx, event(typ, x, now, map[string]any{})); err != nil {
			return err
		}
		return tx.ShareCorrection(ctx, x.ID) // one's own shared memory: the team sees the pin
	}); err != nil {
		return false, err
	}
	return true, nil
}

// Text is an edit: each non-nil field replaces the memory's.
type Text struct {
	Type, Title, Body *string
}

// Clean checks and normalises an edit: a title and a body are
// privacy-filtered as captured text is, a title is 1 to 200 characters on
// one line, a type one of the extractor's. Returns an error wrapping
// ErrInvalid otherwise.
func (t Text) Clean() (Text, error) {
	if t.Type == nil && t.Title == nil && t.Body == nil {
		return t, invalid("nothing to change: give a title, a body or a type")
	}
	if t.Title != nil {
		s := strings.Join(strings.Fields(privacy.Filter(*t.Title)), " ")
		if s == "" || len([]rune(s)) > 200 {
			return t, invalid("a title is 1 to 200 characters")
		}
		t.Title = &s
	}
	if t.Body != nil {
		s := strings.TrimSpace(privacy.Filter(*t.Body))
		t.Body = &s
	}
	if t.Type != nil {
		s := strings.ToLower(strings.TrimSpace(*t.Type))
		if !ValidType(s) {
			return t, invalid("unknown type %q", *t.Type)
		}
		t.Type = &s
	}
	return t, nil
}

// Edit changes x's title, body or type; the old and new text go in the
// event, so show can say what was changed. The quotes are untouched. It
// reports false when nothing differs, and an error wrapping ErrInvalid for
// an edit Clean refuses.
func Edit(ctx context.Context, db *store.DB, x store.Entry, to Text, now time.Time) (store.Entry, bool, error) {
	to, err := to.Clean()
	if err != nil {
		return x, false, err
	}
	from, changed := map[string]string{}, map[string]string{}
	y := x
	if to.Type != nil && *to.Type != x.Type {
		from["type"], changed["type"], y.Type = x.Type, *to.Type, *to.Type
	}
	// The old text is filtered too: stored before the filter knew a secret
	// in it, it is often what the edit takes out (review 162).
	if to.Title != nil && *to.Title != x.Title {
		from["title"], changed["title"], y.Title = privacy.Filter(x.Title), *to.Title, *to.Title
	}
	if to.Body != nil && *to.Body != x.Body {
		from["body"], changed["body"], y.Body = privacy.Filter(x.Body), *to.Body, *to.Body
	}
	if len(from) == 0 {
		return x, false, nil
	}
	ev := event(store.TypeEdited, x, now, map[string]any{"from": from, "to": changed})
	if err := db.SetText(ctx, x.ID, y.Type, y.Title, y.Body, ev); err != nil {
		return x, false, err
	}
	return y, true, nil
}

// ValidType reports whether t is one of the extractor's memory types.
func ValidType(t string) bool {
	switch extract.Type(t) {
	case extract.Decision, extract.Fact, extract.Preference, extract.Constraint, extract.Lesson, extract.Task, extract.Reference:
		return true
	}
	return false
}

// Types are the memory types, in the order a form offers them.
var Types = []string{string(extract.Decision), string(extract.Fact), string(extract.Preference), string(extract.Constraint),
	string(extract.Lesson), string(extract.Task), string(extract.Reference)}

// ListedTypes are the types a listing filters memories by: Types, and the
// digests of old sessions, which the worker writes and no edit makes.
var ListedTypes = append(slices.Clone(Types), store.DigestType)

// Supersede records that newer replaces old, as the conflict ledger does
// for an explicit change: old is kept, shown only with a conflict warning,
// and never in the brief; an open contradiction between them is resolved
// so. It reports false when that was recorded already, and an error wrapping ErrInvalid for a memory superseding itself or one
// of another project.
func Supersede(ctx context.Context, db *store.DB, old, newer store.Entry, now time.Time) (bool, error) {
	if old.ID == newer.ID {
		return false, invalid("a memory cannot supersede itself")
	}
	if old.Project != newer.Project {
		return false, invalid("%s and %s belong to different projects", old.CID, newer.CID)
	}
	// A pair the ledger found contradictory holds its one conflicts row
	// (one per pair), which the insert below would leave alone: settle that
	// contradiction as the dashboard's resolve does.
	cs, err := db.Conflicts(ctx, []int64{old.ID}, 0)
	if err != nil {
		return false, err
	}
	for _, c := range cs {
		if c.Kind != "contradicts" || c.Resolution != "" || !(c.Older == old.ID && c.Newer == newer.ID || c.Older == newer.ID && c.Newer == old.ID) {
			continue
		}
		a, b, choice := old, newer, "supersede-older"
		if c.Older == newer.ID {
			a, b, choice = newer, old, "supersede-newer"
		}
		if err := Resolve(ctx, db, c, a, b, choice, now); err != nil {
			return false, err
		}
		return true, nil
	}
	reason := "superseded by hand"
	payload, _ := json.Marshal(map[string]any{"older": old.CID, "newer": newer.CID, "kind": "supersedes", "reason": reason, "by": "user"})
	return db.AddConflict(ctx, store.Conflict{Older: old.ID, Newer: newer.ID, Kind: "supersedes", Reason: reason, Detected: now},
		store.Event{Time: now, Type: store.TypeConflict, SessionID: newer.SessionID, Project: newer.Project,
			DedupeKey: store.Key(store.KeyConflict, old.CID, newer.CID), Payload: payload})
}

// Resolve settles an open contradiction c between a and b (c's older and
// newer entries) as the user chose: "supersede-older" (b replaces a),
// "supersede-newer" (a replaces b), "keep-both", "reject-older" or
// "reject-newer". Returns an error wrapping ErrInvalid for another choice,
// and one wrapping store.ErrNotFound when c is no longer open.
func Resolve(ctx context.Context, db *store.DB, c store.Conflict, older, newer store.Entry, choice string, now time.Time) error {
	var r store.ConflictResolution
	switch choice {
	case "supersede-older":
		r = store.ConflictResolution{Note: newer.CID + " supersedes " + older.CID, Superseded: older.ID, By: newer.ID}
	case "supersede-newer":
		r = store.ConflictResolution{Note: older.CID + " supersedes " + newer.CID, Superseded: newer.ID, By: older.ID}
	case "keep-both":
		r = store.ConflictResolution{Note: "both kept"}
	case "reject-older":
		r = store.ConflictResolution{Note: older.CID + " rejected", Rejected: older.ID}
	case "reject-newer":
		r = store.ConflictResolution{Note: newer.CID + " rejected", Rejected: newer.ID}
	default:
		return invalid("resolution %q: want supersede-older, supersede-newer, keep-both, reject-older or reject-newer", choice)
	}
	payload, _ := json.Marshal(map[string]any{"conflict": c.ID, "older": older.CID, "newer": newer.CID, "resolution": r.Note, "by": "user"})
	ev := store.Event{Time: now, Type: store.TypeConflictResolved, Project: older.Project, Payload: payload,
		DedupeKey: store.Key(store.KeyKind(store.TypeConflictResolved), strconv.FormatInt(c.ID, 10), store.FormatTime(now))}
	return db.ResolveConflict(ctx, c.ID, r, ev)
}
