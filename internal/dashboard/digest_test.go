package dashboard

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// TestDigestPages: a session's digest is listed under its type, shown like
// any memory, and an edit of its title keeps it a digest.
func TestDigestPages(t *testing.T) {
	f := newFixture(t)
	d, _, err := f.db.PutEntry(context.Background(), store.Entry{Project: seedProject, SessionID: f.session, Type: store.DigestType,
		Title: "Digest of the session of 2026-10-01", Body: "Asked: How is the vault key handled?\nDecided: Keep the vault key in ops",
		ClaimKey: "session " + f.session + "|digest", Stage: store.StageVerified})
	if err != nil {
		t.Fatal(err)
	}
	if code, body := f.get("/memories?type=digest"); code != http.StatusOK || !strings.Contains(body, d.CID) {
		t.Fatalf("/memories?type=digest = %d, holds the digest: %v", code, strings.Contains(body, d.CID))
	}
	m := "/memory/" + d.CID
	if code, body := f.get(m); code != http.StatusOK || !strings.Contains(body, "Decided: Keep the vault key in ops") || !strings.Contains(body, "<option selected>digest</option>") {
		t.Fatalf("%s = %d:\n%.3000s", m, code, body)
	}
	res := f.post(m+"/edit", url.Values{"title": {"Digest of the vault session"}, "type": {"digest"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("edit = %d, want 303", res.StatusCode)
	}
	if x := f.entry(d.ID); x.Title != "Digest of the vault session" || x.Type != store.DigestType {
		t.Errorf("after edit: %q, type %s", x.Title, x.Type)
	}
}
