package recall

import (
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestSpanishPromptFindsEnglishAnswer: a question asked in Spanish about a
// session held in English shares its concepts, not its words: "rama" is
// "branch", "nube" is "cloud", and neither looks like its translation.
func TestSpanishPromptFindsEnglishAnswer(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "release", day.AddDate(0, 0, -4),
		"Where should the cloud build of the hotfix go?",
		"The cloud build now runs from the branch quasar-hotfix-7; merge it once it is green.")
	got := recallFor(t, db, defaults(), "¿En qué rama quedó la compilación de la nube?")
	if !strings.Contains(got, "quasar-hotfix-7") {
		t.Errorf("the answer is missing:\n%s", got)
	}
}

// TestGlossesOnlyForAnotherLanguage: an English prompt's words are never
// translated, even one that is also a Spanish word ("rama" the Hindu god).
func TestGlossesOnlyForAnotherLanguage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		prompt string
		want   bool
	}{
		{"¿En qué rama está el arreglo?", true},
		{"Is the rama statue in the gallery?", false},
	} {
		got := false
		for _, cn := range concepts(c.prompt) {
			if slices.Contains(cn.forms, "rama") && slices.Contains(cn.forms, "branch") {
				got = true
			}
		}
		if got != c.want {
			t.Errorf("%q: rama searched as branch %v, want %v", c.prompt, got, c.want)
		}
	}
}
