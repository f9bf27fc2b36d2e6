package extract

import "testing"

// TestScreen checks that entries from another backend pass the same noise
// rules as the offline extractor's, in English and Korean.
func TestScreen(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{0, "user", "Our unit tests run with jest; use npx jest to run them."},
		{1, "assistant", "Got it, I will follow that from now on."},
		{2, "assistant", "## Next Steps\nWe need to run the migrations.\nnote: function defined here"},
		{3, "assistant", "We'll use Redis for the job queue."},
		{4, "user", "No, keep the in-memory queue."},
		{5, "assistant", "알겠습니다, 앞으로 그렇게 하겠습니다."},
		{6, "user", "나중에 CI 캐시도 정리해야 해요."},
	}
	in := []Entry{
		{Type: Fact, Title: "Tests run with jest", Evidence: []Evidence{{0, "Our unit tests run with jest"}}},
		{Type: Constraint, Title: "Follow the jest rule", Evidence: []Evidence{{1, "Got it, I will follow that from now on."}}},
		{Type: Task, Title: "Next Steps", Evidence: []Evidence{{2, "Next Steps"}}},
		{Type: Task, Title: "Run the migrations", Evidence: []Evidence{{2, "We need to run the migrations."}}},
		{Type: Fact, Title: "Function defined here", Evidence: []Evidence{{2, "note: function defined here"}}},
		{Type: Decision, Title: "Use Redis for the job queue", Evidence: []Evidence{{3, "We'll use Redis for the job queue."}}},
		{Type: Constraint, Title: "앞으로 그렇게", Evidence: []Evidence{{5, "알겠습니다, 앞으로 그렇게 하겠습니다."}}},
		{Type: Task, Title: "Clean up the CI cache later", Evidence: []Evidence{{6, "나중에 CI 캐시도 정리해야 해요."}}},
	}
	got, dropped := Screen(msgs, in)
	if dropped != 6 || len(got) != 2 {
		t.Fatalf("kept %s, dropped %d; want the jest fact and the Korean task", dump(got), dropped)
	}
	if got[0].Title != "Tests run with jest" {
		t.Errorf("title %q changed, want it kept (its words are quoted)", got[0].Title)
	}
	if got[1].Title != "나중에 CI 캐시도 정리해야 해요." {
		t.Errorf("title %q: words the quote lacks, want the quote", got[1].Title)
	}
}
