package extract

import "testing"

func TestForm(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body   string
		quotes []string
		want   string
	}{
		{"We use Postgres 16 on port 6543.", []string{"We use **Postgres 16** on port `6543`."}, Stated},
		{"Database: Postgres 16 on port 6543", []string{"**Database:** Postgres 16 on port 6543"}, Stated},
		{"keys live in ./keys", []string{"The keys live in ./keys, as agreed"}, Stated},
		{"우리 팀은 커밋 메시지를 한국어로 써요.", []string{"참, 우리 팀은 커밋 메시지를 한국어로 써요."}, Stated},
		{"Cause: the index was unused. Fix: a range predicate.", []string{"The index was unused.", "I rewrote it as a range predicate."}, Distilled},
		{"Use Redis for the job queue", []string{"We'll use Redis."}, Distilled},
		{"", []string{"anything"}, Distilled},
	}
	for _, tt := range tests {
		if got := Form(tt.body, tt.quotes); got != tt.want {
			t.Errorf("Form(%q, %q) = %q, want %q", tt.body, tt.quotes, got, tt.want)
		}
	}
}

// TestOfflineForms checks that the offline extractor's single-sentence
// entries state their quote, so "stated" is the common case offline.
func TestOfflineForms(t *testing.T) {
	t.Parallel()
	msgs := []Message{{Index: 0, Role: "user", Text: "Never commit the .env file. We're on Node 20 in production."}}
	for _, e := range Offline(msgs) {
		var qs []string
		for _, ev := range e.Evidence {
			qs = append(qs, ev.Quote)
		}
		if got := Form(e.Body, qs); got != Stated {
			t.Errorf("%s %q: form %s, want stated", e.Type, e.Body, got)
		}
	}
}
