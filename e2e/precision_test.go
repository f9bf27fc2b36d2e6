package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// injections is how many prompt-hook injections a request's conversation
// holds: each request carries the whole conversation so far.
func injections(req string) int {
	return strings.Count(req, "UserPromptSubmit hook additional context")
}

// requestWith is the first request whose conversation holds text.
func requestWith(t *testing.T, reqs []string, text string) string {
	t.Helper()
	for _, r := range reqs {
		if strings.Contains(r, text) {
			return r
		}
	}
	t.Fatalf("no request holds %q", text)
	return ""
}

// wantNoInjection fails t for each of prompts whose request carries an
// injection.
func wantNoInjection(t *testing.T, reqs []string, prompts ...string) {
	t.Helper()
	for _, q := range prompts {
		if r := requestWith(t, reqs, q); injections(r) != 0 {
			t.Errorf("%q got an injection:\n%.2000s", q, r)
		}
	}
}

// TestRealClientPrecision: in a real Claude Code session, a general how-to
// question gets nothing from the project's memory, a follow-up asked in other
// words is answered, the next prompt on the same topic is not given the
// same memory again, and /memory-layer:memory-off stops injection for the
// session.
func TestRealClientPrecision(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil,
		"The payments worker retries failed webhook deliveries with exponential backoff, capped at 90 seconds between attempts; the cap lives in config/retry.toml.",
		"The admin dashboard is served by nginx on port 8088 behind the VPN.")
	const (
		howTo    = "How do I reverse a linked list in Python?"
		followUp = "What's the longest the payments worker waits between two webhook delivery attempts?"
		again    = "Is that payments worker webhook backoff cap something we can tune?"
	)
	s2 := w.session("s2", nil, howTo, followUp, again)
	reqs := requests(t, s2)
	first, second, third := requestWith(t, reqs, howTo), requestWith(t, reqs, followUp), requestWith(t, reqs, again)
	if n := injections(first); n != 0 {
		t.Errorf("the how-to question got %d injections:\n%.2000s", n, first)
	}
	if injections(second) != 1 || !strings.Contains(second, "90 seconds") {
		t.Errorf("the paraphrased follow-up was not answered from memory:\n%.3000s", second)
	}
	if n := injections(third); n != injections(second) {
		t.Errorf("the same topic's next prompt was injected again (%d injections, %d before)", n, injections(second))
	}

	s3 := w.session("s3", nil, "/memory-layer:memory-off", followUp)
	if r := requestWith(t, requests(t, s3), followUp); injections(r) != 0 {
		t.Errorf("injected after /memory-layer:memory-off:\n%.2000s", r)
	}
}

// TestRealClientForeignPrompt: a question asked in Spanish or in Russian
// about a session held in English is answered from memory, through the
// dictionaries the installed plugin keeps beside its binaries
// (bin/glosses); the Russian one's words ("храним", "ключ", "облачного")
// are read in any case and tense. The third question's word for the
// deployment ("despliegue") is Apertium's, not FreeDict's.
func TestRealClientForeignPrompt(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil,
		"The deploy key of the cloud account is kept in the vault under ops/quasar-7; rotate it every month.",
		"The admin dashboard is served by nginx on port 8088 behind the VPN.",
		"Every deployment of the kiln website goes through the zarkel-9 pipeline, never by hand.")
	for i, c := range []struct{ ask, want string }{
		{"¿Dónde guardamos la llave de la nube?", "ops/quasar-7"},
		{"Где мы храним ключ от облачного аккаунта?", "ops/quasar-7"},
		{"¿Por dónde pasa cada despliegue del sitio web?", "zarkel-9"},
	} {
		r := requestWith(t, requests(t, w.session(fmt.Sprintf("s%d", i+2), nil, c.ask)), c.ask)
		if injections(r) != 1 || !strings.Contains(r, c.want) {
			t.Errorf("%q was not answered from memory:\n%.3000s", c.ask, r)
		}
	}
}

// TestRealClientForeignSenseOfAnotherThing: a cooking question asked in
// Japanese names "揚げる" (to deep-fry), which the dictionary translates by
// "raise", "elevate", "fly" and "launch"; a project deployed on Fly whose
// machines launch on demand holds two of those senses, and the question
// gets nothing in a real session. A question naming Fly by its own word is
// still answered.
func TestRealClientForeignSenseOfAnotherThing(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil,
		"Deploy the API to Fly from the api folder.",
		"Done: fly deploy shipped it, and fly.toml sets the primary region to ams. Machines launch on demand and stop when idle.")
	const cooking, fly = "天ぷらを揚げるなら油は何度がいい？", "Fly のプライマリリージョンはどこにした？"
	reqs := requests(t, w.session("s2", nil, cooking, fly))
	if got := requestWith(t, reqs, cooking); injections(got) != 0 {
		t.Errorf("the cooking question got the Fly deployment:\n%.2000s", got)
	}
	if got := requestWith(t, reqs, fly); injections(got) != 1 || !strings.Contains(got, "ams") {
		t.Errorf("the question naming Fly was not answered from memory:\n%.3000s", got)
	}
}

// TestRealClientRomanceRequestForNewWork: a request for new work put in
// Spanish or French, on the subject of an earlier session held in English,
// gets nothing in a real session, as the same request in English does: it
// shares the session's words, not its question. The question about what
// the session settled is still answered.
func TestRealClientRomanceRequestForNewWork(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil,
		"The kiln firing log keeps each firing's peak temperature and duration in firings.csv.",
		"The admin dashboard is served by nginx on port 8088 behind the VPN.")
	const ask = "¿Dónde guardamos la temperatura de cada cocción del horno?"
	work := []string{
		"Añade una gráfica de la temperatura de cada cocción del horno",
		"Ajoute un graphique de la température de chaque cuisson du four",
	}
	reqs := requests(t, w.session("s2", nil, append(work, ask)...))
	for _, r := range work {
		if got := requestWith(t, reqs, r); injections(got) != 0 {
			t.Errorf("the request %q got an injection:\n%.2000s", r, got)
		}
	}
	if got := requestWith(t, reqs, ask); injections(got) != 1 || !strings.Contains(got, "firings.csv") {
		t.Errorf("the question was not answered from memory:\n%.3000s", got)
	}
}

// TestRealClientForeignPastQuestion: a question asked in Russian, German or
// Japanese about what the project's run did ("which interpreter did uv pick up?", in
// Russian's past tense; in German with "wir" and the past of "haben") is
// answered from the command's output in a real session; the same words
// asked as a how-to question get nothing.
func TestRealClientForeignPastQuestion(t *testing.T) {
	// Each language in a world of its own: one's questions, stored, would
	// be matched by the other's.
	for _, q := range []struct{ past, howTo string }{
		{"Какой интерпретатор Python использовался для .venv?", "Как создать .venv с другим интерпретатором Python?"},
		{"Welchen Python-Interpreter hatten wir für die .venv?", "Wie erstelle ich eine .venv mit einem anderen Python-Interpreter?"},
		// Japanese: "っけ" asks to be reminded; "どう…ばいい" how to.
		{".venv の Python インタプリタはどれだったっけ？", "別の Python インタプリタで .venv を作るにはどう書けばいい？"},
	} {
		w := newWorld(t)
		// The words are the run's, not the prompt's: the script prints them.
		script := filepath.Join(w.work, "setup-env.sh")
		if err := os.WriteFile(script, []byte("#!/bin/sh\necho 'python3.13 -m venv .venv: Python 3.13.4 (main, Jun  4 2025) [Clang 17.0.0]'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		w.session("s1", nil,
			"Set up the environment for the gateway RUNBASH sh "+script,
			"The admin dashboard is served by nginx on port 8088 behind the VPN.")
		reqs := requests(t, w.session("s2", nil, q.howTo, q.past))
		if r := requestWith(t, reqs, q.howTo); injections(r) != 0 {
			t.Errorf("the how-to question %q got an injection:\n%.2000s", q.howTo, r)
		}
		if r := requestWith(t, reqs, q.past); injections(r) != 1 || !strings.Contains(r, "Python 3.13.4") {
			t.Errorf("the question in the past %q was not answered from the run's output:\n%.3000s", q.past, r)
		}
	}
}

// quorvexWorld is a world whose sessions did other work, so that the
// stack's name is rare in the store, then served the plant list from a
// Quorvex handler with its results cached.
func quorvexWorld(t *testing.T) *world {
	w := newWorld(t)
	w.session("s0", nil,
		"Rename the sprinkler zone 1 labels in the settings screen.",
		"Rename the sprinkler zone 2 labels in the settings screen.",
		"Rename the sprinkler zone 3 labels in the settings screen.",
		"The settings screen reads the zone labels from zones.json now.")
	w.session("s1", nil,
		"Serve the plant list from a Quorvex handler, and cache its results.",
		"The Quorvex handler now serves the plant list; its results are cached in the handler for a minute.")
	return w
}

// TestRealClientHowToNamingAnUnseenTerm: a how-to question about the
// project's own stack, naming a term the project never wrote, gets nothing
// in a real session, though the stack's name is the store's rarest word,
// in English and in Korean ("how do I memoize …": 어떻게 … 해, with a word
// in Latin letters no dictionary of Korean needs to read), and asked as
// advice ("when should I debounce …"); the same question about what the
// project did is answered.
func TestRealClientHowToNamingAnUnseenTerm(t *testing.T) {
	w := quorvexWorld(t)
	const (
		unseen   = "How do I memoize a Quorvex handler?"
		unseenKo = "그 Quorvex 핸들러는 이 코드에서 어떻게 virtualize 해?"
		advice   = "When should I debounce a Quorvex handler?"
		own      = "How do I cache a Quorvex handler?"
	)
	// The advice question and the Korean one each in a session of its
	// own, each about another unseen term: a term a turn of the asking
	// session, or an earlier session, wrote is no longer unseen, and a
	// question asked before is a memory of its own.
	reqs := requests(t, w.session("s2", nil, advice))
	reqs = append(reqs, requests(t, w.session("s3", nil, unseenKo))...)
	reqs = append(reqs, requests(t, w.session("s4", nil, unseen, own))...)
	wantNoInjection(t, reqs, unseen, unseenKo, advice)
	if r := requestWith(t, reqs, own); injections(r) != 1 || !strings.Contains(r, "cached in the handler for a minute") {
		t.Errorf("the how-to question about what the project did was not answered:\n%.3000s", r)
	}
}

// TestRealClientHowWeNamingSomethingNew: "how do we …" asked of a term the
// project never wrote asks how to do new work, in English and in Russian
// ("как нам …", a name in Latin letters), and gets nothing in a real
// session; asked in the project's own words, "we" asks its own way, and
// is answered.
func TestRealClientHowWeNamingSomethingNew(t *testing.T) {
	w := quorvexWorld(t)
	const (
		unseen   = "How do we memoize our Quorvex handler?"
		unseenRu = "Как нам подключить Zodwarden к нашему Quorvex handler?"
		own      = "How do we cache our Quorvex handler?"
	)
	// Each unseen term in a session of its own: a term a turn of the
	// asking session wrote is no longer unseen.
	reqs := requests(t, w.session("s2", nil, unseenRu))
	reqs = append(reqs, requests(t, w.session("s3", nil, unseen, own))...)
	wantNoInjection(t, reqs, unseen, unseenRu)
	if r := requestWith(t, reqs, own); injections(r) != 1 || !strings.Contains(r, "cached in the handler for a minute") {
		t.Errorf("the question about the project's own way was not answered:\n%.3000s", r)
	}
}

// TestRealClientRequestNamingAnUnseenTool: a request for new work that
// brings a tool the project never used ("add Zodwarden validation to the
// Quorvex handler") is new work, though on the project's handler, and gets
// nothing in a real session; a request for work on the handler in the
// project's own words is answered.
func TestRealClientRequestNamingAnUnseenTool(t *testing.T) {
	w := quorvexWorld(t)
	const (
		tool = "Add Zodwarden validation to the Quorvex handler."
		own  = "Add a second cache to the Quorvex handler's results."
	)
	reqs := requests(t, w.session("s2", nil, tool, own))
	if r := requestWith(t, reqs, tool); injections(r) != 0 {
		t.Errorf("the request bringing an unseen tool got an injection:\n%.2000s", r)
	}
	if r := requestWith(t, reqs, own); injections(r) != 1 || !strings.Contains(r, "cached in the handler for a minute") {
		t.Errorf("the request for work on the project's handler was not answered:\n%.3000s", r)
	}
}

// TestRealClientJapaneseQuestionOnAnEnglishProject: the sessions were held
// in English; a later question in Japanese shares only the product's name
// and a path with them, and is answered with the English session.
func TestRealClientJapaneseQuestionOnAnEnglishProject(t *testing.T) {
	w := newWorld(t)
	w.session("s0", nil,
		"Rename the sprinkler zone 1 labels in the settings screen.",
		"Rename the sprinkler zone 2 labels in the settings screen.",
		"The settings screen reads the zone labels from zones.json now.")
	w.session("s1", nil,
		"The /glaze page takes three seconds after login, why?\nREPLY The cause was the Kilnhost functions region: they ran in iad1 while the database is in Singapore. Pinned the functions to sin1.")
	r := requestWith(t, requests(t, w.session("s2", nil, "ログイン後に /glaze の表示が遅かった件、結局の原因は何だった？Kilnhost の関数リージョンはどこに固定したっけ？")), "Kilnhost")
	if injections(r) != 1 || !strings.Contains(r, "sin1") {
		t.Errorf("the Japanese question was not answered with the English session:\n%.3000s", r)
	}
}

// TestRealClientProductTheProjectNeverNamed: in a real Claude Code
// session, a proposal to bring in a product the project never wrote gets
// nothing from memory, its "we" and the project's own words in it
// notwithstanding; a question about what the project decided before is
// answered, though it shares fewer of the memory's words.
func TestRealClientProductTheProjectNeverNamed(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil,
		"The MQTT gateway serves its REST API with uvicorn on port 8000, started by the systemd unit gateway.service.",
		"The admin dashboard is served by nginx on port 8088 behind the VPN.")
	w.session("s2", nil,
		"For TLS on the gateway we had two options: terminate at the load balancer, or give uvicorn the certificate itself. Go with the load balancer; uvicorn stays plain HTTP inside the VPC.")
	const (
		proposal = "Should we put our gateway behind Traefik instead of exposing uvicorn directly?"
		decided  = "Which of the two did I pick in the end for the gateway's certificates?"
	)
	reqs := requests(t, w.session("s3", nil, proposal, decided))
	if r := requestWith(t, reqs, proposal); injections(r) != 0 {
		t.Errorf("the proposal of a product the project never named got memory:\n%.3000s", r)
	}
	if r := requestWith(t, reqs, decided); injections(r) != 1 || !strings.Contains(r, "load balancer") {
		t.Errorf("the question about what was decided was not answered:\n%.3000s", r)
	}
}
