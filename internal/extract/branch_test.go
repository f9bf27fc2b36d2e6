package extract

import (
	"slices"
	"testing"
)

// TestBranches: the branch a session created, as git confirmed it, is a
// fact; one merged or deleted later, or one of several, is not.
func TestBranches(t *testing.T) {
	t.Parallel()
	create := Message{Role: "tool", Text: "Bash: git add . && git checkout -b feature/quiet-mode\nSwitched to a new branch 'feature/quiet-mode'"}
	other := Message{Role: "tool", Text: "Bash: git switch -c spike-cache\nSwitched to a new branch 'spike-cache'"}
	merge := Message{Role: "tool", Text: "Bash: git checkout main && git merge feature/quiet-mode\nFast-forward"}
	del := Message{Role: "tool", Text: "Bash: git checkout main && git branch -D feature/quiet-mode\nDeleted branch feature/quiet-mode"}
	said := Message{Role: "assistant", Text: "I'll create the branch feature/quiet-mode next."}
	loop := Message{Role: "tool", Text: "Bash: for a in ui api; do git checkout -b agent-$a main; done\nSwitched to a new branch 'agent-ui'\nSwitched to a new branch 'agent-api'"}
	searched := Message{Role: "tool", Text: "Bash: grep -c \"Switched to a new branch 'old-spike'\" build.log\n0"}
	mergeC := Message{Role: "tool", Text: "Bash: git -C ../main merge feature/quiet-mode\nMerge made by the 'ort' strategy."}
	pushDel := Message{Role: "tool", Text: "Bash: git push origin :feature/quiet-mode\nTo github.com:acme/app.git\n - [deleted]         feature/quiet-mode"}
	cases := []struct {
		name string
		runs []Message
		want []string
	}{
		{"created", []Message{said, create}, []string{"The work of this session is on the git branch `feature/quiet-mode`, which it created."}},
		{"merged later", []Message{create, merge}, nil},
		{"deleted later", []Message{create, del}, nil},
		{"several", []Message{create, other}, nil},
		{"several in one run", []Message{loop}, nil},
		{"only in the command", []Message{searched}, nil},
		{"merged from another directory", []Message{create, mergeC}, nil},
		{"remote deleted by push", []Message{create, pushDel}, nil},
		{"only said", []Message{said}, nil},
	}
	for _, c := range cases {
		msgs := []Message{{Role: "user", Text: "Start the quiet mode work on its own branch."}}
		msgs = append(msgs, c.runs...)
		for i := range msgs {
			msgs[i].Index = i
		}
		got := Offline(msgs)
		checkEntries(t, c.name, msgs, got)
		var facts []string
		for _, e := range got {
			if e.Subject == "git branch" {
				facts = append(facts, e.Body)
			}
		}
		if !slices.Equal(facts, c.want) {
			t.Errorf("%s: branch facts %q, want %q", c.name, facts, c.want)
		}
	}
}
