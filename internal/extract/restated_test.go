package extract

import (
	"strings"
	"testing"
)

// TestOfflineMergesRestatement: a session that states one finding twice in
// other words, with no identifier in common, keeps one memory holding both
// quotes; two list items whose labels name two columns stay two.
func TestOfflineMergesRestatement(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "The nightly invoice export keeps failing, can you look?"},
		{Index: 1, Role: "tool", Text: "Bash: ./export.sh\nError: signing certificate expired"},
		{Index: 2, Role: "assistant", Text: "Root cause: the invoice exporter loads an expired signing certificate from the vault mount."},
		{Index: 3, Role: "user", Text: "why did it break only tonight?"},
		{Index: 4, Role: "assistant", Text: "The export failure is caused by an expired signing certificate that the invoice exporter loads from the vault mount. It expired yesterday."},
	}
	got := Offline(msgs)
	checkEntries(t, "restated", msgs, got)
	var cert []Entry
	for _, e := range got {
		if strings.Contains(strings.ToLower(e.Body), "certificate") {
			cert = append(cert, e)
		}
	}
	if len(cert) != 1 {
		t.Fatalf("%d entries about the certificate, want 1: %s", len(cert), dump(got))
	}
	cited := map[int]bool{}
	for _, ev := range cert[0].Evidence {
		cited[ev.MessageIndex] = true
	}
	if !cited[2] || !cited[4] {
		t.Errorf("the memory does not quote both statements (messages 2 and 4): %s", dump(got))
	}
}

// TestRestatedKeepsListItems: two labelled items of the code that share
// their gloss are two facts, not one said twice; two statements with
// different numbers are a change, left to survivors.
func TestRestatedKeepsListItems(t *testing.T) {
	t.Parallel()
	item := func(label, val string) *cand {
		body := label + ": " + val
		return fact(&cand{labelled: true, label: label, body: body})
	}
	a, b := item("owner_id", "integer foreign key into ledger accounts"), item("payer_id", "integer foreign key into ledger accounts")
	if isRestated(a, b) {
		t.Errorf("restated(%q, %q) = true, want false", a.body, b.body)
	}
	c := fact(&cand{body: "The ledger accounts table keys payers by an integer foreign key"})
	if !isRestated(a, c) {
		t.Errorf("restated(%q, %q) = false, want true", a.body, c.body)
	}
	old := fact(&cand{body: "The billing queue worker keeps 40 jobs in flight"})
	now := fact(&cand{body: "The billing queue worker now keeps 65 jobs in flight"})
	if isRestated(old, now) {
		t.Errorf("restated(%q, %q) = true, want false", old.body, now.body)
	}
	// A change of a value with no digit in it: the later replaces the
	// earlier, which survivors decides, so the two are not merged.
	was := fact(&cand{body: "The billing worker consumes invoice events from RabbitMQ with a durable queue."})
	is := fact(&cand{body: "The billing worker now consumes invoice events from Kafka with a durable queue instead of RabbitMQ."})
	if isRestated(was, is) {
		t.Errorf("restated(%q, %q) = true, want false", was.body, is.body)
	}
}

// fact makes c a fact candidate with its words set, as entries does.
func fact(c *cand) *cand {
	c.typ = Fact
	c.setWords(contentWords(c.body))
	return c
}

func isRestated(k, c *cand) bool {
	n, _ := sharedWords(k, c)
	return restated(k, c, n, nil)
}

// TestOfflineKeepsAChangeApart: a value replaced later in the session,
// with no digit to tell the two apart, is not merged into one memory
// citing both: its evidence would verify the replaced value.
func TestOfflineKeepsAChangeApart(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "which queue does the billing worker read?"},
		{Index: 1, Role: "assistant", Text: "The billing worker consumes invoice events from RabbitMQ with a durable queue."},
		{Index: 2, Role: "user", Text: "we moved that last week"},
		{Index: 3, Role: "assistant", Text: "Right: the billing worker now consumes invoice events from Kafka with a durable queue instead of RabbitMQ."},
		{Index: 4, Role: "user", Text: "thanks"},
	}
	got := Offline(msgs)
	checkEntries(t, "change", msgs, got)
	for _, e := range got {
		cited := map[int]bool{}
		for _, ev := range e.Evidence {
			cited[ev.MessageIndex] = true
		}
		if cited[1] && cited[3] {
			t.Errorf("one memory cites both the replaced and the new value: %s", dump(got))
		}
	}
}

// sharedWords counts the words of c that k holds, and whether one of them
// is an identifier; as keptSet counts them through its
// index: the plain count the tests check it against.
func sharedWords(k, c *cand) (int, bool) {
	n, ident := 0, false
	for _, w := range c.words {
		if k.wordSet[w] {
			n++
			ident = ident || identWord(w)
		}
	}
	return n, ident
}
