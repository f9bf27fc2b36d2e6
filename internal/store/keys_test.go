package store

import (
	"context"
	"testing"
)

// TestKeyKindColumn checks that the key_kind column (migration 0007) gives
// every key the kind keyKind gives it, for keys built by Key and for keys
// Key never builds.
func TestKeyKindColumn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := MustOpen(t)
	for i, tt := range []struct {
		session, key string
		want         KeyKind
	}{
		{"s1", Key(KeyPrompt, "s1", "4f1c"), KeyPrompt},
		{"s1", Key(KeyPromptHash, "s1", "ab12"), KeyPromptHash},
		{"s1", Key(KeyPrompt, "s1", "h-not-a-hash-but-the-same-shape"), KeyPromptHash},
		{"s1", Key(KeyRow, "s1", "uuid-1"), KeyRow},
		{"s1", Key(KeyMessage, "s1", "msg_01"), KeyMessage},
		{"s1", Key(KeyStop, "s1", "p1", "ab"), KeyStop},
		{"s1", Key(KeyTool, "s1", "h99"), KeyTool},
		{"s1", Key(TypeSessionStarted, "s1", "ab"), TypeSessionStarted},
		{"s2", Key(KeyPromptHash, "s1", "cd34"), KeyPrompt}, // another session's key
		{"", Key(KeyConflict, "mem:a", "mem:b"), KeyConflict},
		{"s1", "no-colon", ""},
		{"s:1", Key(KeyPromptHash, "s:1", "ab"), KeyPromptHash},
		{"세션", Key(KeyPromptHash, "세션", "ab"), KeyPromptHash},
	} {
		if got := keyKind(tt.key, tt.session); got != tt.want {
			t.Errorf("keyKind(%q, %q) = %q, want %q", tt.key, tt.session, got, tt.want)
		}
		err := db.Update(ctx, func(tx *Tx) error {
			_, err := tx.Append(ctx, Event{Type: TypeUserPrompt, SessionID: tt.session, Project: "/p", DedupeKey: tt.key, Text: "t"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if err := db.SQL().QueryRow(`SELECT key_kind FROM events WHERE dedupe_key = ?`, tt.key).Scan(&got); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if KeyKind(got) != tt.want {
			t.Errorf("key_kind of %q in session %q = %q, want %q", tt.key, tt.session, got, tt.want)
		}
	}
}

// TestKeyKeepsItsForm checks that Key builds the keys earlier releases
// stored, so that a transcript imported again is recognised.
func TestKeyKeepsItsForm(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ got, want string }{
		{Key(KeyPrompt, "s", "p1"), "prompt:s:p1"},
		{Key(KeyPromptHash, "s", "ab"), "prompt:s:hab"},
		{Key(KeyStop, "s", "p1", "ab"), "stop:s:p1:ab"},
		{Key(TypeSessionProcessed, "s", "1234"), "session_processed:s:1234"},
		{Key(KeyConflict, "mem:a", "mem:b"), "conflict:mem:a:mem:b"},
	} {
		if tt.got != tt.want {
			t.Errorf("Key = %q, want %q", tt.got, tt.want)
		}
	}
}
