package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// checksumPlain and contentHashPlain are checksum and contentHash as they
// were before they stopped allocating per field and per word: kept to check
// that stored checksums and content hashes do not change.
func checksumPlain(e Event, payload string) string {
	h := sha256.New()
	for _, s := range []string{e.Type, e.SessionID, e.Project, e.SourceUUID, e.Text, payload} {
		fmt.Fprintf(h, "%d:%s;", len(s), s)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func contentHashPlain(text string) string {
	if text == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(strings.Join(strings.Fields(text), " ")))
	return hex.EncodeToString(sum[:16])
}

// TestHashesSame is an equivalence test: the two hashes against their
// plain forms, on empty, spaced, non-ASCII, invalid and long fields.
func TestHashesSame(t *testing.T) {
	texts := []string{"", " ", "a", "  two  words\n", "tab\there", "naïve café", "a\u00a0b", "\xff\xfe", "탭 없는 문장",
		strings.Repeat("long line of words ", 2000), "1:2;3", "%d:%s;"}
	for _, text := range texts {
		for _, other := range []string{"", "x", "sess-9", "🙂"} {
			e := Event{Type: TypeAgentResponse, SessionID: other, Project: text, SourceUUID: other + text, Text: text}
			for _, payload := range []string{"{}", `{"k":"` + other + `"}`, text} {
				if got, want := checksum(e, payload), checksumPlain(e, payload); got != want {
					t.Fatalf("checksum(%q, %q) = %s, want %s", text, payload, got, want)
				}
			}
		}
		if got, want := contentHash(text), contentHashPlain(text); got != want {
			t.Fatalf("contentHash(%q) = %s, want %s", text, got, want)
		}
	}
}
