package recall

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/claude-memory-layer/claude-memory-layer/internal/latin"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
)

// porterWords exercise every step of the algorithm, plus words common in
// coding sessions.
const porterWords = `caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled
sized hopping tanned falling hissing fizzed failing filing happy sky relational conditional rational
valenci hesitanci digitizer conformabli radicalli differentli vileli analogousli vietnamization
predication operator feudalism decisiveness hopefulness callousness formaliti sensitiviti sensibiliti
triplicate formative formalize electriciti electrical hopeful goodness revival allowance inference
airliner gyroscopic adjustable defensible irritant replacement adjustment dependent adoption homologou
communism activate angulariti homologous effective bowdlerize probate rate cease controll roll
generalization oscillators jobs job queued queue queues detection detected detector detectors running
runs migrations migrated migrating databases database configured configuration configuring tests
testing tested deployment deployed deploys containers container reached reaching address addresses
installed installation formatting formatter formatted switched switching sessions session agreement
generously eagerly quickly studies studying argued argument arguments utilities utility availability
possibly possible universal university conditionally relatively decisions decided k8s v2s abc123ing
x86 ipv6s utf8 café naïve`

// TestStemMatchesSQLite checks stem against what SQLite's own porter tokenizer
// stores for the same words: recall relies on the two agreeing.
func TestStemMatchesSQLite(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "memory.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	words := strings.Fields(porterWords)
	var evs []store.Event
	for i, w := range words {
		evs = append(evs, store.Event{Type: store.TypeUserPrompt, SessionID: "s", Project: "p", Text: w, DedupeKey: "w" + w + string(rune('a'+i%26))})
	}
	if err := db.Update(ctx, func(tx *store.Tx) error { _, err := tx.Append(ctx, evs...); return err }); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, `CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, events_fts, 'row')`); err != nil {
		t.Fatal(err)
	}
	stored := map[string]bool{}
	rows, err := db.SQL().QueryContext(ctx, `SELECT term FROM temp.v`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var term string
		if err := rows.Scan(&term); err != nil {
			t.Fatal(err)
		}
		stored[term] = true
	}
	rows.Close()
	for _, w := range words {
		if s := indexKey(w); !stored[s] {
			t.Errorf("indexKey(%q) = %q, which SQLite's porter tokenizer did not produce", w, s)
		}
	}
}

func TestStem(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"jobs": "job", "detection": "detect", "detected": "detect", "running": "run", "ponies": "poni",
		"generalization": "gener", "관리자": "관리자", "x86": "x86", "go": "go",
	} {
		if got := stem(in); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
	// A word with capitals, lower-cased in place, twice: stemmed, then
	// from the cache.
	for _, in := range []string{"Jobs", "DETECTION", "Go", "X86", "PonieS"} {
		for range 2 {
			if got, want := stemLower([]byte(in)), stem(strings.ToLower(in)); got != want {
				t.Errorf("stemLower(%q) = %q, want %q", in, got, want)
			}
		}
	}
}

// A word stemLower has seen costs no allocation, a short one included.
// Not parallel: AllocsPerRun counts the whole process's allocations.
func TestStemLowerAllocs(t *testing.T) {
	stemMu.Lock()
	full := len(stems) >= maxStems
	stemMu.Unlock()
	if full {
		t.Skip("the stem cache is full: it keeps no more words")
	}
	for _, in := range []string{"Go", "DB", "Detection", "JWT"} {
		b := make([]byte, len(in))
		if n := testing.AllocsPerRun(10, func() { stemLower(append(b[:0], in...)) }); n != 0 {
			t.Errorf("stemLower(%q) allocates %v times a call", in, n)
		}
	}
}

// A Russian word is searched by its stem's prefix, so any case of it
// matches; Russian function words are no terms.
func TestRussianWords(t *testing.T) {
	for w, want := range map[string]string{"склада": "склад", "отдельно": "отдельн", "сессия": "сесси", "мост": "мост", "토큰": "토큰"} {
		if got := cyrillicStem(w); got != want {
			t.Errorf("cyrillicStem(%q) = %q, want %q", w, got, want)
		}
	}
	tk := keysOf("Склад хранит конфиги отдельным файлом")
	for _, c := range concepts("Где хранится конфиг склада: в репозитории или отдельно?", repoGlosses()) {
		if slices.Contains([]string{"где", "или"}, c.forms[0]) {
			t.Errorf("function word %q is a term", c.forms[0])
		}
		if slices.Contains([]string{"склада", "конфиг", "отдельно"}, c.forms[0]) && !tk.has(c.keys[0]) {
			t.Errorf("%q (key %q) does not match its other case", c.forms[0], c.keys[0])
		}
	}
}

// keysOf holds the stems of the words FieldsFunc finds with
// unicode.IsLetter and IsDigit, each once, on any input, valid UTF-8 or not.
func FuzzKeysOf(f *testing.F) {
	for _, s := range []string{"", "Fix the JWT-middleware: it fails on RS256 keys.", "Склад хранит конфиги отдельным файлом",
		"토큰을 갱신해요 k8s v1.29", "Crème brûlée ÉCOLE", "a\xffb\xc3", "ǅemal ﬁle Ⅻ ²³ ٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var exact, words []string
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		}) {
			if w = latin.Fold(w); isASCII(w) {
				exact = append(exact, stem(w))
			} else {
				words = append(words, w)
			}
		}
		tk := keysOf(text)
		slices.Sort(exact)
		if exact = slices.Compact(exact); !slices.Equal(tk.exact, exact) || !slices.Equal(tk.words, words) {
			t.Fatalf("keysOf(%q) = %q %q, want %q %q", text, tk.exact, tk.words, exact, words)
		}
		for _, k := range exact {
			if !tk.has(k) {
				t.Fatalf("keysOf(%q) lacks %q", text, k)
			}
		}
	})
}
