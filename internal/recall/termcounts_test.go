package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// TestTermCountsOnce: a prompt's recall counts each word once; the
// feedback's line asks again for words the prompt's weighing counted, and
// gets the first count without a new one.
func TestTermCountsOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	say(t, db, "one", day.AddDate(0, 0, -3), "The quokka gateway drops the handshake.", "Raised the quokka timeout.")
	counts := newTermCounts(db, "")
	first, total, err := counts.count(ctx, []string{"quokka", "gateway"})
	if err != nil {
		t.Fatal(err)
	}
	if first[0] != 2 || first[1] != 1 || total == 0 {
		t.Fatalf("counts %v, total %d; want [2 1] and some events", first, total)
	}
	// Counted again, "quokka" would be 3 now.
	say(t, db, "two", day.AddDate(0, 0, -2), "Is the quokka gateway up?", "It is.")
	again, total2, err := counts.count(ctx, []string{"handshake", "quokka", "handshake"})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(again) != "[1 2 1]" || total2 != total {
		t.Errorf("counts %v, total %d; want [1 2 1] and %d: the first counts", again, total2, total)
	}
	if fresh, _, err := newTermCounts(db, "").count(ctx, []string{"quokka"}); err != nil || fresh[0] != 3 {
		t.Errorf("a new prompt's count: %v, %v; want [3]", fresh, err)
	}
}

// TestSessionWordsAreNotTheProjects: the words of the prompt being
// answered, and of its session's earlier prompts, are not counted as words
// the project wrote. Counted, a word only the session said weighed as the
// rarest the project knows, and the run that answers the question, which
// says it otherwise, matched too little of it (a real session's second
// prompt got nothing where the same prompt alone was answered).
func TestSessionWordsAreNotTheProjects(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	ran(t, db, "venv", "Bash: python3.13 -m venv .venv && .venv/bin/python -VV\nPython 3.13.1 (main, Dec  3 2024, 17:59:52) [Clang 16.0.0]")
	const ask = "Какой интерпретатор Python использовался для .venv?"
	// The session asked a how-to question first, then this one, which is
	// stored before it is answered.
	say(t, db, "now", day.AddDate(0, 1, 0), "Как создать .venv с другим интерпретатором Python?", "Use python3.12 -m venv .venv.", ask)
	if got := recallIn(t, db, defaults(), "now", ask); !strings.Contains(got, "Python 3.13.1") {
		t.Errorf("the session's own words hid the answer:\n%s", got)
	}
	// The same in English: "interpreter" and "picked" only the session said.
	const again = "Which interpreter got picked for the .venv with Python?"
	say(t, db, "now-en", day.AddDate(0, 1, 0), "How do I pick another interpreter for a .venv with Python?", "Pass it to -m venv.", again)
	if got := recallIn(t, db, defaults(), "now-en", again); !strings.Contains(got, "Python 3.13.1") {
		t.Errorf("the session's own words hid the answer:\n%s", got)
	}
}

// TestSessionWordsStillFindMemories: a word only the prompt's own session
// said is not the project's by count, but a memory that says it (a
// teammate's, whose words no message of this store holds) is still
// searched for and found.
func TestSessionWordsStillFindMemories(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	e := put(t, db, "fact", "carts", "The orders service stores carts in Valkey with a 90 minute expiry", "yes, go ahead", 0)
	say(t, db, "now", day.AddDate(0, 1, 0), "Why does the orders service test fail on CI?", "A flaky fixture.")
	if got := recallIn(t, db, defaults(), "now", "How long before the orders service carts stored in Valkey expire?"); !strings.Contains(got, e.CID) {
		t.Errorf("the memory saying the session's words was not found:\n%s", got)
	}
}

// TestCommonCodeWordsWeighLess: a word common in all writing about
// programming ("api", "model") is less specific than a word the project
// wrote as rarely that is not ("quokka"); a tool's name, an identifier and
// a word of the handler's commonness keep all of it.
func TestCommonCodeWordsWeighLess(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	say(t, db, "one", day.AddDate(0, 0, -3), "The quokka api serves the model.", "The quokka api now serves the model.")
	for i := range 20 {
		say(t, db, fmt.Sprintf("f%d", i), day.AddDate(0, 0, -2), fmt.Sprintf("Filler prompt %d about glazes.", i), "Noted.")
	}
	cs, _, err := newTermCounts(db, "").weigh(ctx, concepts("which quokka api model?", nil), false)
	if err != nil {
		t.Fatal(err)
	}
	spec := map[string]float64{}
	for _, c := range cs {
		spec[c.forms[0]] = c.specific
	}
	if !(spec["api"] < spec["quokka"] && spec["model"] < spec["api"] && spec["quokka"] > 0) {
		t.Errorf("specificity %v: want quokka > api > model", spec)
	}
	for _, c := range []concept{{forms: []string{"handler"}}, {forms: []string{"react"}}, {forms: []string{"maxRetries"}}, {forms: []string{"modelo"}, foreign: true}} {
		if got := codeShare(c); got != 1 {
			t.Errorf("codeShare(%q) = %v, want 1", c.forms[0], got)
		}
	}
}
