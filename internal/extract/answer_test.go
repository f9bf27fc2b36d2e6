package extract

import (
	"slices"
	"strings"
	"testing"
)

// TestTurnAnswerKept: the sentence of a turn's final answer that states
// something about a named thing of the project is kept as a fact, with the
// user's question as what it answers; the same sentence in a message the
// assistant went on from, and the conversation around it, are not.
func TestTurnAnswerKept(t *testing.T) {
	msgs := []Message{
		{0, "user", "Before we deploy: which voice model does the transcriber load at start-up? Explain briefly."},
		{1, "assistant", "The transcriber loads `acme-voice-v1` from the cache."},
		{2, "tool", "Read: transcriber/config.py\nMODEL = \"acme-voice-v3\""},
		{3, "assistant", "Let me see the config.\n\n" +
			"The transcriber loads `acme-voice-v3` from /opt/voices at start-up. " +
			"I updated the notes in `README.md`. " +
			"You can switch it in transcriber/config.py!\n\n" +
			"- `transcriber/config.py` holds the model name\n\n" +
			"**Download size:** the `acme-voice-v3` weights are 212 MB."},
		{4, "user", "ok thanks"},
		{5, "assistant", "The queue worker restarts every night."},
	}
	entries := Offline(msgs)
	var answer *Entry
	for i, e := range entries {
		for _, ev := range e.Evidence {
			switch {
			case strings.Contains(ev.Quote, "acme-voice-v3 from") || strings.Contains(ev.Quote, "`acme-voice-v3` from"):
				answer = &entries[i]
			case ev.MessageIndex == 1, strings.Contains(ev.Quote, "README"), strings.Contains(ev.Quote, "switch it"),
				strings.Contains(ev.Quote, "holds the model"), strings.Contains(ev.Quote, "212 MB"), strings.Contains(ev.Quote, "restarts"):
				t.Errorf("kept %q, which no final answer states about a named thing:%s", ev.Quote, dump(entries))
			}
		}
	}
	if answer == nil {
		t.Fatalf("the final answer's finding was not kept:%s", dump(entries))
	}
	if answer.Type != Fact || len(answer.Evidence) != 1 || answer.Evidence[0].MessageIndex != 3 {
		t.Errorf("answer kept as %s quoting %v, want one fact quoting message 3", answer.Type, answer.Evidence)
	}
	if want := "Which voice model does the transcriber load at start-up?"; !slices.Contains(answer.Questions, want) {
		t.Errorf("answer's questions %q, want the user's %q", answer.Questions, want)
	}
}

// TestAnswerSentence: which sentences of a final answer state a finding, by
// their shape: third person, no hedge, naming an identifier.
func TestAnswerSentence(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"The worker reads its config from ../../config.toml (workspace root).", true},
		{"The old SQLite database (ledger.db) is no longer being used.", true},
		{"Sessions live in `MemorySessionCache`, not Redis.", true},
		{"The brand accent is #3a7bd5 on buttons.", true},
		{"The web app builds with Vite 7.1.5 today.", true},
		{"According to the docs, the worker reads `QUEUE_URL` once.", true},
		{"The database is the main store of the app.", false},          // names no thing
		{"I moved the handler into `routes.ts`.", false},               // the speaker's work
		{"You want the worker in `jobs/`.", false},                     // the listener's wish
		{"The worker probably reads `QUEUE_URL`.", false},              // a hedge
		{"The fix should now work with `QUEUE_URL`.", false},           // an expectation
		{"The command has been added to `cli.go`.", false},             // work done
		{"All changes are pushed to `main`!", false},                   // a report
		{"The worker reads these from `config.ts`:", false},            // what it opens is elsewhere
		{"**Problem:** the worker reads `QUEUE_URL` too late.", false}, // a label's line
		{"Does the worker read `QUEUE_URL`?", false},                   // a question
		{"Looking at your worker.go, the queue is read twice.", false}, // the speaker's reading
		{"Lines 34-37 read `QUEUE_URL` twice.", false},                 // the code as it was that day
		// "this" and a noun name what they point at (danglingOpener); "This
		// is …" is given the sentence before it (TestAnswerAntecedent)
		{"This setting is read by `worker.go` once.", true},
		{"Logging goes to `app.log`, not stdout.", true},                // a gerund subject, its verb before the comma
		{"The server will return 404 when `id` is missing.", false},     // a prediction's form: the rare fact lost to conversationWords
		{"Workers need `REDIS_URL` set.", true},                         // a requirement of the code
		{"Yes, I did read the `docs/commands.md` guide.", false},        // the speaker
		{"The fix in `oai.py` will allow the messages to play.", false}, // a prediction
		{"The worker reads QUEUE_URL once.", true},                      // an environment variable unticked
		{"The value /100 in settings.json is the scale.", true},         // a route-like word first
		{"The intro plays intro.mp4 on load.", true},                    // an extension with a digit
		{"The crash was reported in #482 upstream.", false},             // an issue, not a colour
		{"The export is 1.5 GB on the bucket.", false},                  // a size, not a version
		{"Let's keep `QUEUE_URL` in the worker.", false},                // a plan step
		{"I moved the handler into `routes.ts` yesterday.", false},      // the speaker's work
	}
	for _, tt := range tests {
		s := newSent(0, 0, tt.text, false)
		if got := answerSentence(s); got != tt.want {
			t.Errorf("answerSentence(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// entryQuoting returns the entry quoting message i with text holding part,
// or nil.
func entryQuoting(entries []Entry, i int, part string) *Entry {
	for k, e := range entries {
		for _, ev := range e.Evidence {
			if ev.MessageIndex == i && strings.Contains(ev.Quote, part) {
				return &entries[k]
			}
		}
	}
	return nil
}

// TestAnswerRejected: an answer the user says is wrong in the next message
// is not kept, as a proposal they turn down is not.
func TestAnswerRejected(t *testing.T) {
	msgs := []Message{
		{0, "user", "Where does the ledger service read its settings from?"},
		{1, "assistant", "The ledger service reads its settings from `config/ledger.yaml`."},
		{2, "user", "No, that's wrong, that file is stale."},
	}
	if e := entryQuoting(Offline(msgs), 1, "ledger.yaml"); e != nil {
		t.Errorf("kept the rejected answer %q", e.Body)
	}
	msgs[2].Text = "Thanks, that helps."
	if e := entryQuoting(Offline(msgs), 1, "ledger.yaml"); e == nil {
		t.Errorf("the accepted answer was not kept")
	}
}

// TestAnswerAfterNotice: a notice the client typed after the answer is not
// the user's next prompt, and the answer before it is the turn's final one,
// with the question; what the assistant says of the notice answers no
// prompt.
func TestAnswerAfterNotice(t *testing.T) {
	const q = "Where does the ledger service read its settings from?"
	msgs := []Message{
		{0, "user", q},
		{1, "assistant", "The ledger service reads its settings from `config/ledger.yaml`."},
		{2, "user", "<task-notification>\n<status>completed</status>\n</task-notification>"},
		{3, "assistant", "The background build of `ledger.go` finished cleanly."},
		{4, "user", "ok"},
	}
	entries := Offline(msgs)
	e := entryQuoting(entries, 1, "ledger.yaml")
	if e == nil {
		t.Fatalf("the answer before the notice was not kept:%s", dump(entries))
	}
	if !slices.Contains(e.Questions, q) {
		t.Errorf("answer's questions %q, want %q", e.Questions, q)
	}
	if e := entryQuoting(entries, 3, "ledger.go"); e != nil {
		t.Errorf("kept %q, said of the notice, as the answer to the prompt", e.Body)
	}
}

// TestAnswerCapAfterKeeps: the sentences of an answer that fail the checks
// of a fact do not use up its budget of facts.
func TestAnswerCapAfterKeeps(t *testing.T) {
	msgs := []Message{
		{0, "user", "Where does the ledger service read its settings from?"},
		{1, "assistant", "Today the `api.go` lint is clean. Today the `db.go` vet run is clean. " +
			"The ledger service reads its settings from `config/ledger.yaml`."},
		{2, "user", "ok"},
	}
	entries := Offline(msgs)
	if entryQuoting(entries, 1, "ledger.yaml") == nil {
		t.Errorf("the answer after two dropped sentences was not kept:%s", dump(entries))
	}
}

// TestAnswerAntecedent: an answer's sentence that opens with a pronoun is
// kept with the sentence before it, which names what it stands for.
func TestAnswerAntecedent(t *testing.T) {
	msgs := []Message{
		{0, "user", "Where does the worker get its queue settings?"},
		{1, "assistant", "Queue settings come from the environment of the worker. This is read by `worker.go` once at start-up."},
		{2, "user", "ok"},
	}
	entries := Offline(msgs)
	e := entryQuoting(entries, 1, "worker.go")
	if e == nil {
		t.Fatalf("the answer was not kept:%s", dump(entries))
	}
	if !strings.Contains(e.Body, "Queue settings come from the environment") {
		t.Errorf("body %q, want the sentence the pronoun stands for in front", e.Body)
	}
}

// TestUserQuestion: the question stored with an answer is the prompt's
// question as the LLM path would store it: whole up to MaxQuestion runes,
// none past it or with a control character; cut from a long prompt at a
// rune, and found at the prompt's end after a long paste.
func TestUserQuestion(t *testing.T) {
	long := "Which of the " + strings.Repeat("ledger ", 18) + "services reads config/ledger.yaml at start-up?" // 186 runes
	paste := strings.Repeat("é", maxScan)                                                                      // two bytes a rune: maxScan falls inside none
	for _, tt := range []struct {
		name, text, want string
	}{
		{"whole", long, long},
		{"too long", strings.Replace(long, "ledger ", "ledger ledger ", 18), ""},
		{"control", "Which file does the ledger \x1b[31mservice read?", ""},
		{"after a long paste", paste + "\n\nWhich file does the ledger service read?", "Which file does the ledger service read?"},
		{"before a long paste", "Which file does the ledger service read?\n\n" + paste, "Which file does the ledger service read?"},
	} {
		got, _ := userQuestion(Message{Role: "user", Text: tt.text})
		if got != tt.want {
			t.Errorf("%s: userQuestion = %q, want %q", tt.name, clip(got, 80), clip(tt.want, 80))
		}
	}
}

// TestHasVersion: a bare number with one dot is a version only where
// something says so; a "v" or a third part says so itself.
func TestHasVersion(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"The web app builds with Vite 7.1.5 today.", true},
		{"Pinned the parser at v0.9.0.", true},
		{"The workers run Python 3.12.", true},
		{"The schema is version 2.1 now.", true},
		{"The export is 1.5 GB on the bucket.", false},
		{"The limits are in section 3.2 of the spec.", false},
		{"The ratio is 0.75 here.", false},
		{"The plan costs $1.25 a month.", false},
	} {
		if got := hasVersion(tt.text); got != tt.want {
			t.Errorf("hasVersion(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestHexColour: six hex digits or three with a letter; "#482" is an issue.
func TestHexColour(t *testing.T) {
	for w, want := range map[string]bool{"#3a7bd5": true, "#C2410C": true, "#fa0": true, "#482": false, "#12g": false} {
		if got := hexColour(w); got != want {
			t.Errorf("hexColour(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestOnlyIfNeeded: "when needed" closing a step offered makes it one of
// the moment; closing how a thing behaves, it does not.
func TestOnlyIfNeeded(t *testing.T) {
	for _, tt := range []struct {
		body string
		want bool
	}{
		{"Restart the worker when needed.", true},
		{"The cache can be cleared with `make flush` when needed.", true},
		{"Run the migration if needed.", true},
		{"`cron/vacuum.sh` vacuums the `tokens` table when needed.", false},
		{"The pool grows to 20 connections when needed, then shrinks.", false},
	} {
		if got := onlyIfNeeded(tt.body); got != tt.want {
			t.Errorf("onlyIfNeeded(%q) = %v, want %v", tt.body, got, tt.want)
		}
	}
}

// TestAnswerStatedClause: a final answer's sentence that states a finding
// and then, after a dash or a semicolon, tells what the speaker did about
// it keeps its first clause as the fact; a sentence whose first clause is
// the speaker's own is still left out.
func TestAnswerStatedClause(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text, want string
	}{
		{"The printer queue drains again. The `spool_b` folder holds the second tray's jobs - I moved the stuck ones back.", "The spool_b folder holds the second tray's jobs"},
		{"The `ledger_sync` job reads from the replica; I pointed it at the primary for now.", "The ledger_sync job reads from the replica"},
		{"I moved the stuck ones back - the `spool_b` folder holds the second tray's jobs.", ""},
	}
	for _, c := range cases {
		msgs := []Message{
			{Index: 0, Role: "user", Text: "Half the print jobs never come out, have a look."},
			{Index: 1, Role: "assistant", Text: c.text},
		}
		got := Offline(msgs)
		checkEntries(t, c.text, msgs, got)
		var facts []string
		for _, e := range got {
			if e.Type == Fact {
				facts = append(facts, e.Body)
			}
		}
		switch {
		case c.want != "" && !slices.Contains(facts, c.want):
			t.Errorf("%q: facts %q, want %q", c.text, facts, c.want)
		case c.want == "" && len(facts) > 0:
			t.Errorf("%q: facts %q, want none", c.text, facts)
		}
	}
}

// TestStandalone: a user's question is kept as what an answer answers only
// when it reads on its own, as a developer would ask the project's memory.
func TestStandalone(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"which port does the ledger service listen on ?", "Which port does the ledger service listen on?"},
		{"Before the demo: where are the kiosk's sound files kept?", "Where are the kiosk's sound files kept?"},
		{"so which of them do i keep?", ""}, // of what was just said
		{"what's the ledger service's port?", "What's the ledger service's port?"},
		{"Where's the kiosk sound config kept?", "Where's the kiosk sound config kept?"},
		{"How do we print one receipt per order?", "How do we print one receipt per order?"},
		{"which port does the ledger service use？", "Which port does the ledger service use?"},
		// Another language is kept as asked.
		{"¿Dónde se guardan los recibos del quiosco?", "¿Dónde se guardan los recibos del quiosco?"},
		{"장부 서버는 어떤 포트를 쓰나요?", "장부 서버는 어떤 포트를 쓰나요?"},
		{"How do I start this?", ""},                      // the conversation's "I" and "this"
		{"can you check the kiosk logs.", ""},             // a request, no question mark
		{"ok now is the kiosk reading the new feed?", ""}, // opens with a filler
	} {
		got, ok := standalone(tt.in)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("standalone(%q) = %q, %v, want %q", tt.in, got, ok, tt.want)
		}
	}
}
