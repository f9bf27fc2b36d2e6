package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestCoinedCompoundIsOneConcept: "a spool-facing knob" describes one
// thing by two words. The project wrote "facing" once, about another thing,
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
			fmt.Sprintf("Yes, upload %d left the spool on the first pass.", i))
	}
	say(t, db, "notes", day.AddDate(0, 0, -9),
		"Are both kiosk screens facing the lobby?",
		"Both point at the east doors.")
	say(t, db, "budget", day.AddDate(0, 0, -5),
		"The mailer drops the weekend batch.",
		"Fixed: the mailer now reads QUILL_SPOOL_CAP=9 as the cap of its spool, so the weekend batch is sent.")
	got := recallFor(t, db, defaults(), "Which spool-facing knob does the mailer read?")
	if !strings.Contains(got, "QUILL_SPOOL_CAP") {
		t.Errorf("the answer is missing:\n%s", got)
	}
	if strings.Contains(got, "kiosk screens") {
		t.Errorf("a message sharing only the compound's vaguest word is shown:\n%s", got)
	}
}

// TestWrittenCompoundStaysWords: a compound the project writes is a name
// ("bucket-level locking"): each of its words is still a concept of its own.
func TestWrittenCompoundStaysWords(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "locks", day.AddDate(0, 0, -5),
		"Enable bucket-level locking for the archive store.",
		"Bucket-level locking is enabled for the archive; each write takes the bucket's lease.")
	cs, _, err := newTermCounts(db, "").weigh(context.Background(), concepts("Does bucket-level locking cover the silo-adjacent stores too?", repoGlosses()), false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, strings.Join(c.forms, "|"))
	}
	// "silo-adjacent" the project never wrote: one concept of its two
	// words. "bucket-level" it wrote: two.
	want := "bucket level locking cover silo|adjacent stores"
	if strings.Join(got, " ") != want {
		t.Errorf("concepts %q, want %q", strings.Join(got, " "), want)
	}
}

// TestCompoundJoinsAMergedWord: a compound's word that is one concept with
// another word of the prompt (mergeAlike: "db" and "database"), whichever
// of them leads and whether it comes before the compound or after, is
// still joined into the compound.
func TestCompoundJoinsAMergedWord(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	for _, p := range []string{"make the database-facing loader skip when the db is down",
		"the db is slow; check the database-facing loader"} {
		cs, _, err := newTermCounts(db, "").weigh(context.Background(), concepts(p, repoGlosses()), false)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(cs, func(c concept) bool { return slices.Contains(c.forms, "facing") })
		if i < 0 || !slices.Contains(cs[i].forms, "database") || !slices.Contains(cs[i].forms, "db") {
			t.Errorf("%q: want facing, database and db one concept, got %+v", p, cs)
		}
	}
}

// TestCompoundLeadIsOrderFree: the word that leads a joined compound, which
// says how specific it is, does not depend on where the prompt says its
// words.
func TestCompoundLeadIsOrderFree(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	for _, p := range []string{"which side does the invoice-side check run on?", "the invoice-side check: which side does it run on?"} {
		cs, _, err := newTermCounts(db, "").weigh(context.Background(), concepts(p, repoGlosses()), false)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(cs, func(c concept) bool { return slices.Contains(c.forms, "side") })
		if i < 0 || cs[i].forms[0] != "invoice" {
			t.Errorf("%q: want the compound led by invoice, got %+v", p, cs)
		}
	}
}

// TestCasedPartsOfAWrittenIdentifier: the index holds "QuillDesk" whole, as
// one word, and never its parts: where the project writes it, its parts
// unseen are no words the project never discussed but pieces of one it did,
// and weighed as such they were a share of the prompt no text could cover
// (a lesson naming the product and the fix fell under the bar). Where the
// project never writes the whole, its parts carry it, seen or not.
func TestCasedPartsOfAWrittenIdentifier(t *testing.T) {
	t.Parallel()
	// forms are the concepts of prompt weighed in a store of texts, for the
	// asking session now, whose turn said said ("" for none).
	forms := func(t *testing.T, prompt, said string, texts ...string) []string {
		db := storetest.Open(t)
		filler(t, db)
		for i, text := range texts {
			say(t, db, fmt.Sprintf("s-%d", i), day.AddDate(0, 0, -5+i), "What's next?", text)
		}
		if said != "" {
			say(t, db, "now", day, said, "Noted.")
		}
		cs, _, err := newTermCounts(db, "now").weigh(context.Background(), concepts(prompt, repoGlosses()), false)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range cs {
			got = append(got, c.forms[0])
		}
		return got
	}
	const prompt = "How did we install pnpm for QuillDesk?"
	got := forms(t, prompt, "", "QuillDesk now builds with pnpm.", "Installed the QuillDesk server.")
	if !slices.Contains(got, "quilldesk") || slices.Contains(got, "quill") || slices.Contains(got, "desk") {
		t.Errorf("written whole: concepts %v, want quilldesk without its unseen parts", got)
	}
	got = forms(t, prompt, "", "The quill pen sits on the desk.", "Installed pnpm on the build host.")
	if slices.Contains(got, "quilldesk") || !slices.Contains(got, "quill") || !slices.Contains(got, "desk") {
		t.Errorf("never written whole: concepts %v, want its parts", got)
	}
	// A part the project writes apart stays beside the whole.
	got = forms(t, prompt, "", "QuillDesk now builds with pnpm.", "The help desk answers tickets.")
	if !slices.Contains(got, "quilldesk") || !slices.Contains(got, "desk") || slices.Contains(got, "quill") {
		t.Errorf("whole and one part written: concepts %v, want quilldesk and desk", got)
	}
	// So does one the asking session said.
	got = forms(t, prompt, "The desk build is slow today.", "QuillDesk now builds with pnpm.")
	if !slices.Contains(got, "desk") || slices.Contains(got, "quill") {
		t.Errorf("a part the session said: concepts %v, want desk kept", got)
	}
	// And one the prompt writes as a word of its own, wherever it stands.
	got = forms(t, "Why does QuillDesk fail on the desk route?", "", "QuillDesk now builds with pnpm.")
	if !slices.Contains(got, "desk") || slices.Contains(got, "quill") {
		t.Errorf("a part the prompt writes apart: concepts %v, want desk kept", got)
	}
	// A camelCase segment of a path is an identifier written whole.
	got = forms(t, "How did we install pnpm for src/QuillDesk/main.go?", "", "QuillDesk now builds with pnpm.")
	if !slices.Contains(got, "quilldesk") || slices.Contains(got, "quill") || slices.Contains(got, "desk") {
		t.Errorf("in a path: concepts %v, want quilldesk without its unseen parts", got)
	}
}

// TestCompoundWrittenMostlyApart: a compound the project writes as words
// far more often than glued ("light mode" in many messages, lightMode in
// one) is its words; the glued form, rare by its own count, would weigh as
// the prompt's rarest word, which nearly no message holds. Written glued
// as often as apart, it stays a concept of its own.
func TestCompoundWrittenMostlyApart(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		glued int
		want  string
	}{
		{1, "light mode restyle heading"},
		{7, "lightmode light mode restyle heading"}, // apart in six messages
		{6, "lightmode light mode restyle heading"},
	} {
		db := storetest.Open(t)
		filler(t, db)
		for i := range 3 {
			say(t, db, fmt.Sprintf("theme-%d", i), day.AddDate(0, 0, -9+i),
				"Check the light mode contrast.", "The light mode heading contrast passes now.")
		}
		for i := range tt.glued {
			say(t, db, fmt.Sprintf("code-%d", i), day.AddDate(0, 0, -5+i),
				"Where is the toggle?", "The toggle sets lightMode in the theme store.")
		}
		cs, _, err := newTermCounts(db, "").weigh(context.Background(), concepts("for the light-mode restyle, which heading?", repoGlosses()), false)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range cs {
			got = append(got, strings.Join(c.forms, "|"))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("lightMode in %d messages: concepts %q, want %q", tt.glued, strings.Join(got, " "), tt.want)
		}
	}
}
