package store

import (
	"context"
	"fmt"
)

// ForgetPreview is what a forget would remove, shown before it does: the
// plan, a few of its entries and messages, and the files it leaves or deletes.
type ForgetPreview struct {
	Plan     ForgetPlan
	Entries  []Entry // up to n of the entries deleted
	Deleted  []Event // up to n of the events deleted, prompts, answers and tool output first
	Redacted []Event // up to n of the messages redacted
	// Transcripts are Claude Code's own files for the sessions concerned:
	// they still hold everything, and forget does not touch them.
	Transcripts []string
	// Backups are the store's upgrade backups, which hold old content; a forget deletes them.
	Backups []string
}

// PreviewForget plans a forget and loads up to n samples of each kind of
// what it would remove, changing nothing. The CLI's forget preview and the
// dashboard's both show this. Errors are PlanForget's.
func (db *DB) PreviewForget(ctx context.Context, sel ForgetSelector, n int) (ForgetPreview, error) {
	var out ForgetPreview
	// What hooks spooled is stored first, so the preview lists what Forget
	// will delete. A store opened read-only cannot: its preview may list less.
	_ = db.Fold(ctx)
	p, err := db.PlanForget(ctx, sel)
	if err != nil {
		return out, err
	}
	out.Plan = p
	for _, id := range p.Entries[:min(len(p.Entries), n)] {
		x, err := db.Read().EntryByID(ctx, id)
		if err != nil {
			return out, fmt.Errorf("preview forget: %w", err)
		}
		out.Entries = append(out.Entries, x)
	}
	// Show what was said first: bookkeeping events are in the counts.
	var later []Event
	for i, id := range p.Delete {
		if len(out.Deleted) == n || i == 200 {
			break
		}
		ev, err := db.Event(ctx, id)
		if err != nil {
			return out, fmt.Errorf("preview forget: %w", err)
		}
		if ev.Conversation() {
			out.Deleted = append(out.Deleted, ev)
		} else if len(later) < n && ev.Text != "" {
			later = append(later, ev)
		}
	}
	for _, ev := range later {
		if len(out.Deleted) < n {
			out.Deleted = append(out.Deleted, ev)
		}
	}
	for _, id := range p.Redact[:min(len(p.Redact), n)] {
		ev, err := db.Event(ctx, id)
		if err != nil {
			return out, fmt.Errorf("preview forget: %w", err)
		}
		out.Redacted = append(out.Redacted, ev)
	}
	if p.Empty() {
		return out, nil
	}
	for _, s := range p.Sessions {
		if sess, err := db.Read().Session(ctx, s); err == nil && sess.TranscriptPath != "" {
			out.Transcripts = append(out.Transcripts, sess.TranscriptPath)
		}
	}
	if out.Backups, err = db.Backups(); err != nil {
		return out, fmt.Errorf("preview forget: %w", err)
	}
	return out, nil
}
