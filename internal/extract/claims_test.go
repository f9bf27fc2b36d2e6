package extract

import (
	"strings"
	"testing"
)

// TestClaimedDecisions: a sentence that states what fills a role becomes a
// decision (or the fact another rule made of it); requests, questions, complaints and the
// assistant's narration do not.
func TestClaimedDecisions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		msgs  []Message
		quote string // a decision or fact quoting this, or "" for none
	}{
		{"user statement", []Message{{0, "user", "Our component tests are written in Jasmine with Karma as the runner."}}, "Jasmine"},
		{"user imperative", []Message{{0, "user", "Route outgoing mail through Postmark for the receipts."}}, "Postmark"},
		{"user path", []Message{{0, "user", "Database seeds live under db/seeds as plain SQL."}}, "db/seeds"},
		{"korean", []Message{{0, "user", "CI는 CircleCI에서 돌아가요."}}, "CircleCI"},
		{"korean change", []Message{{0, "user", "Nginx 대신 이제 Caddy로 프록시합니다."}}, "Caddy"},
		{"assistant change", []Message{{0, "user", "The build is slow."},
			{1, "assistant", "I replaced Babel with SWC in the build, and cold builds take 9 seconds now."}}, "SWC"},
		{"neighbour change", []Message{{0, "user", "We stopped using Travis. The builds run on Buildkite now."}}, "Buildkite"},
		{"request", []Message{{0, "user", "Run pytest on the parser package."}}, ""},
		{"config line", []Message{{0, "user", "here is my env:\nSEARCH_BACKEND=meilisearch\nEMBED_MODEL=text-embed-small"}}, ""},
		{"colour alone", []Message{{0, "user", "#3a7bd5"}}, ""},
		{"log line", []Message{{0, "user", "[GET]200 billing.onrender.com/readyz clientIP=\"10.1.2.3\" responseTimeMS=2"}}, ""},
		{"korean request", []Message{{0, "user", "주문 API에 OAuth 인증을 추가해 주세요."}}, ""},
		{"korean setting", []Message{{0, "user", "세션 만료는 30분으로 설정해 주세요."}}, "30분"},
		{"question", []Message{{0, "user", "Is Postgres 16 supported by our driver?"}}, ""},
		{"complaint", []Message{{0, "user", "The React app crashes on Safari 17 when uploading."}}, ""},
		{"complaint about a tool", []Message{{0, "user", "The Parcel build broke our worker imports again."}}, ""},
		{"path named", []Message{{0, "user", "The scripts/ folder is a mess."}}, ""},
		{"assistant narration", []Message{{0, "user", "Check the tests."},
			{1, "assistant", "The suite uses pytest with the xdist plugin."}}, ""},
		{"assistant intent", []Message{{0, "user", "Speed up the build."},
			{1, "assistant", "I'll replace Babel with SWC in the build."}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			es := Offline(tt.msgs)
			checkEntries(t, tt.name, tt.msgs, es)
			var got []string
			found := false
			for _, e := range es {
				got = append(got, string(e.Type)+": "+e.Title)
				for _, v := range e.Evidence {
					if tt.quote != "" && (e.Type == Decision || e.Type == Fact) && strings.Contains(v.Quote, tt.quote) {
						found = true
					}
				}
			}
			if tt.quote == "" && len(es) != 0 {
				t.Fatalf("entries %q, want none", got)
			}
			if tt.quote != "" && !found {
				t.Fatalf("entries %q, want a decision quoting %q", got, tt.quote)
			}
		})
	}
}

// TestClaimedQuotesTheNeighbour: a change said across two sentences keeps
// both in the entry (the earlier one in the body, a later one quoted), so
// the entry says what it replaces while its first quote is the decision.
func TestClaimedQuotesTheNeighbour(t *testing.T) {
	msgs := []Message{{0, "user", "The 20s retry delay was too short for the bank API. Make the bank API retry delay 90s from now on."}}
	next := []Message{{0, "user", "The image is renamed to acme/billing-api. Stop pushing acme/billing."}}
	es := Offline(next)
	checkEntries(t, "next", next, es)
	if len(es) != 1 || len(es[0].Evidence) != 2 || !strings.Contains(es[0].Evidence[1].Quote, "Stop pushing") {
		t.Fatalf("Offline(%q) = %+v, want one entry quoting both sentences", next[0].Text, es)
	}
	es = Offline(msgs)
	checkEntries(t, "neighbour", msgs, es)
	for _, e := range es {
		if strings.Contains(e.Title, "90s") {
			if !strings.Contains(e.Evidence[0].Quote, "90s") || !strings.Contains(e.Body, "20s") {
				t.Fatalf("the 90s decision: body %q, quotes %+v; want its own sentence quoted first and the 20s one in the body", e.Body, e.Evidence)
			}
			return
		}
	}
	t.Fatalf("no entry for the 90s decision: %+v", es)
}

// TestChangeIsNotTitledByWhatItReplaces: a decision to replace X is not
// titled "Use X"; such a title would also merge it into X's entry.
func TestChangeIsNotTitledByWhatItReplaces(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"Heroku 대신 이제 Render.com으로 배포합니다.", "RabbitMQ는 더 이상 안 쓰고 NATS로 보냅니다."} {
		msgs := []Message{{0, "user", text}}
		es := Offline(msgs)
		checkEntries(t, text, msgs, es)
		if len(es) != 1 || strings.HasPrefix(es[0].Title, "Use Heroku") || strings.HasPrefix(es[0].Title, "Use RabbitMQ") {
			t.Errorf("Offline(%q) = %+v, want one decision not titled by the old value", text, es)
		}
	}
}

// TestDecisionsAboutOneLanguageStayApart: "format the Python code with
// black" decides the formatter and "manage the Python dependencies with
// poetry" the package manager; the language they share is no key, so they
// are two decisions, not one entry with two quotes.
func TestDecisionsAboutOneLanguageStayApart(t *testing.T) {
	t.Parallel()
	msgs := []Message{{0, "user", "Format the Python code with black."}, {1, "assistant", "ok"},
		{2, "user", "Manage the Python dependencies with poetry."}}
	es := Offline(msgs)
	checkEntries(t, "two decisions", msgs, es)
	black, poetry := false, false
	for _, e := range es {
		for _, q := range e.Evidence {
			black = black || strings.Contains(q.Quote, "black") && !strings.Contains(q.Quote, "poetry")
			poetry = poetry || strings.Contains(q.Quote, "poetry") && !strings.Contains(q.Quote, "black")
		}
		if len(e.Evidence) > 1 {
			t.Errorf("one entry quotes both decisions: %+v", e)
		}
	}
	if !black || !poetry {
		t.Errorf("Offline = %+v, want one decision each for black and poetry", es)
	}
}
