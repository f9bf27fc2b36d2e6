package store

import "strings"

// A KeyKind is what made an event, as the first part of its dedupe key
// says: the events table's key_kind column (migration 0007) holds it, and
// the content check of Event.SameContentAs matches on it. Bookkeeping
// events use their type as the kind (session_started, entry_certified, ...).
type KeyKind string

// The kinds of key that capture and the pipeline build.
const (
	KeyPrompt     KeyKind = "prompt"      // a prompt by its prompt id, from the hook or the transcript
	KeyPromptHash KeyKind = "prompt_hash" // a prompt the hook had no id for, by its text's hash
	KeyRow        KeyKind = "row"         // a transcript row without the id its kind of message has
	KeyMessage    KeyKind = "msg"         // an answer by its API message id
	KeyStop       KeyKind = "stop"        // the Stop hook's copy of an answer
	KeyTool       KeyKind = "tool"        // a tool call by its tool_use id ("h" and a hash without one)
	KeyInject     KeyKind = "inject"      // memories injected into a prompt
	KeyCite       KeyKind = "cite"        // the citations of an answer
	KeyConflict   KeyKind = "conflict"    // a conflict between two entries, by their citation ids
	KeyEntry      KeyKind = "entry"       // an entry extracted in a session
	KeyAligned    KeyKind = "aligned"     // the alignment of an entry's quotes in a session
	KeyForgotten  KeyKind = "forgotten"   // a forget's tombstone
	KeyFolded     KeyKind = "folded"      // a spool fold file stored, by its name

	// KeyAny in SameContentAs matches every kind.
	KeyAny KeyKind = "*"
)

// Key is the dedupe key of an event of the given kind: the kind and parts
// joined by ":" (for a prompt by hash, "prompt:<session>:h<hash>"). A
// session's events put the session id first. Every key the store holds
// was built this way, so keys stay the same across releases: a transcript
// imported again finds its events stored.
func Key(kind KeyKind, parts ...string) string {
	if kind == KeyPromptHash && len(parts) == 2 {
		return "prompt:" + parts[0] + ":h" + parts[1]
	}
	return string(kind) + ":" + strings.Join(parts, ":")
}

// keyKind is the kind of a session's event's key, as Key built it; it must
// agree with the key_kind column's expression in migration 0007.
func keyKind(key, session string) KeyKind {
	if strings.HasPrefix(key, "prompt:"+session+":h") {
		return KeyPromptHash
	}
	kind, _, ok := strings.Cut(key, ":")
	if !ok {
		return ""
	}
	return KeyKind(kind)
}

// matchesKind reports whether kind is one of kinds (or kinds holds KeyAny).
func matchesKind(kinds []KeyKind, kind KeyKind) bool {
	for _, k := range kinds {
		if k == KeyAny || k == kind {
			return true
		}
	}
	return false
}
