package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestCoinedCompoundIsOneConcept: "a retry-related variable" describes one
// thing by two words. The project wrote "related" once, about another thing,
// so as a word of its own it weighed more than any other word of the prompt:
// that message, sharing nothing else with the prompt, was shown beside the
// answer.
func TestCoinedCompoundIsOneConcept(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	for i := range 24 {
		say(t, db, fmt.Sprintf("mail-%d", i), day.AddDate(0, 0, -30+i),
			fmt.Sprintf("Did the mailer send digest %d?", i),
			fmt.Sprintf("Yes, upload %d went through after one retry.", i))
	}
	say(t, db, "notes", day.AddDate(0, 0, -9),
		"Are the two lint warnings related?",
		"Both come from the generated stubs.")
	say(t, db, "budget", day.AddDate(0, 0, -5),
		"The mailer drops the weekend batch.",
		"Fixed: the mailer now reads QUILL_RETRY_LIMIT=9 for its retry budget, so the weekend batch is sent.")
	got := recallFor(t, db, defaults(), "Which retry-related variable does the mailer read?")
	if !strings.Contains(got, "QUILL_RETRY_LIMIT") {
		t.Errorf("the answer is missing:\n%s", got)
	}
	if strings.Contains(got, "lint warnings") {
		t.Errorf("a message sharing only the compound's vaguest word is shown:\n%s", got)
	}
}

// TestWrittenCompoundStaysWords: a compound the project writes is a name
// ("row-level security"): each of its words is still a concept of its own.
func TestWrittenCompoundStaysWords(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "rls", day.AddDate(0, 0, -5),
		"Turn on row-level security for the invoices table.",
		"Row-level security is on for invoices; each row checks the tenant.")
	cs, _, err := weigh(context.Background(), db, concepts("Is row-level security on for the ledger-adjacent tables?"), false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, strings.Join(c.forms, "|"))
	}
	// "ledger-adjacent" the project never wrote: one concept of its two
	// words. "row-level" it wrote: two.
	want := "row level security ledger|adjacent tables"
	if strings.Join(got, " ") != want {
		t.Errorf("concepts %q, want %q", strings.Join(got, " "), want)
	}
}
