package pipeline

import (
	"context"
	"encoding/json"
	"strings"
	"unicode"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/extract"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// When a session states a fact the project holds, its quote joins the
// memory (PutEntries); the memory keeps its id, so every citation of it
// still resolves. Its words are those of whichever statement reads better
// on its own weeks later: "The server is running on localhost:4310" said
// first and "The SDK server runs on localhost:4310" said next leave the
// second, which names what runs there.

// wording is how well a memory's title and body say their fact alone,
// compared in the order of its fields.
type wording struct {
	alone bool // no dangling "It"/"This is", no trailing colon, no bare value, not cut short
	named int  // words of the memory's subject the text names
	words int  // content words of the title, up to wordingWords
}

// wordingWords caps the content words that count: past it, a longer
// statement is not a better one. A statement says more than another only
// with wordingMore content words more: one says "for large payloads", the
// other "when the token expires", and neither is the better wording.
const (
	wordingWords = 16
	wordingMore  = 3
)

func wordingOf(typ, subject, title, body string) wording {
	alone := true
	for _, t := range []string{title, body} {
		// A title cut short ("… because of…") says part of its fact.
		if t = strings.TrimSpace(t); t != "" && (!extract.StandsAlone(typ, t) || strings.HasSuffix(t, ":") || strings.HasSuffix(t, "…")) {
			alone = false
		}
	}
	text := title + " " + body
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		words[w] = true
	}
	named := 0
	for _, w := range strings.FieldsFunc(strings.ToLower(subject), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if words[w] {
			named++
		}
	}
	// The title's words: a body may carry what was said around the fact
	// ("Please look at package.json: …").
	_, content, _ := strings.Cut(claim.Key("", title), "|")
	return wording{alone: alone, named: named, words: min(len(strings.Fields(content)), wordingWords)}
}

// beats reports whether a reads better on its own than b; equal wordings
// keep the memory's.
func (a wording) beats(b wording) bool {
	switch {
	case a.alone != b.alone:
		return a.alone
	case a.named != b.named:
		return a.named > b.named
	}
	return a.words >= b.words+wordingMore
}

// reword gives each memory that a verified write of the same type merged
// into the write's title and body when they read better on their own,
// unless its words are the user's (userWorded) or a teammate's. stored is
// what PutEntries returned for writes; it is updated to match.
func reword(ctx context.Context, st *store.Tx, writes []store.EntryWrite, stored []store.Entry) error {
	at := make(map[string]int, len(stored))
	for i, e := range stored {
		if e.ID != 0 {
			at[e.ClaimKey] = i
		}
	}
	for _, w := range writes {
		i, ok := at[w.Entry.ClaimKey]
		if !ok {
			continue // left out: a forget's rule covers it
		}
		e := stored[i]
		if w.Entry.Stage != store.StageVerified || w.Entry.Type != e.Type || e.Author != "" || e.Stage == store.StageCertified ||
			w.Entry.Title == e.Title && w.Entry.Body == e.Body ||
			!wordingOf(e.Type, e.Subject, w.Entry.Title, w.Entry.Body).beats(wordingOf(e.Type, e.Subject, e.Title, e.Body)) {
			continue
		}
		user, err := userWorded(ctx, st, e)
		if err != nil {
			return err
		}
		if user {
			continue
		}
		if err := st.Reword(ctx, e.ID, w.Entry.Title, w.Entry.Body); err != nil {
			return err
		}
		for j := range stored {
			if stored[j].ID == e.ID {
				stored[j].Title, stored[j].Body = w.Entry.Title, w.Entry.Body
			}
		}
	}
	return nil
}

// userWorded reports a memory whose words the user chose: edited, pinned
// or certified as worded, or saved through the remember tool.
func userWorded(ctx context.Context, st *store.Tx, e store.Entry) (bool, error) {
	evs, err := st.Events(ctx, store.EventFilter{Project: e.Project, Types: []string{store.TypeEdited, store.TypePinned, store.TypeCertified}})
	if err != nil {
		return false, err
	}
	for _, ev := range evs {
		var p struct{ CID string }
		if json.Unmarshal(ev.Payload, &p) == nil && p.CID == e.CID {
			return true, nil
		}
	}
	// The memory's first statement, in the session it was first said in.
	evs, err = st.Events(ctx, store.EventFilter{SessionID: e.SessionID, Types: []string{store.TypeEntryExtracted}})
	if err != nil {
		return false, err
	}
	for _, ev := range evs {
		var p struct {
			ClaimKey  string `json:"claim_key"`
			Extractor string `json:"extractor"`
		}
		if json.Unmarshal(ev.Payload, &p) == nil && p.ClaimKey == e.ClaimKey && p.Extractor == rememberExtractor {
			return true, nil
		}
	}
	return false, nil
}
