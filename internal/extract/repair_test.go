package extract

import (
	"slices"
	"testing"
)

// TestRepairs: a failing run that passes on its next run, with one change
// made in between, is a lesson quoting the failure and the change; two
// changes, a rerun that fails again or another command passing are not.
func TestRepairs(t *testing.T) {
	t.Parallel()
	fail := Message{Role: "tool", Text: "Bash: cd /w/app && yarnpkg install 2>&1 (error)\nExit code 127\n(eval):1: command not found: yarnpkg"}
	look := Message{Role: "tool", Text: "Bash: ls ~/.local/bin\nnode\nnpm"}
	install := Message{Role: "tool", Text: "Bash: npm install -g yarnpkg 2>&1\nadded 1 package in 2s"}
	pass := Message{Role: "tool", Text: "Bash: cd /w/app && yarnpkg install 2>&1\nDone in 3.1s"}
	buildFail := Message{Role: "tool", Text: "Bash: npm run build (error)\n> build\nError: Cannot apply unknown utility class `ring-ring`\n    at lib.js:18"}
	edit := Message{Role: "tool", Text: "Edit: /w/app/styles/site.css\n- @apply ring-ring;\n+ outline-color: hsl(var(--ring));"}
	buildPass := Message{Role: "tool", Text: "Bash: npm run build\n✓ Compiled successfully"}
	cases := []struct {
		name string
		runs []Message
		want []string
	}{
		{"a command fixed it", []Message{fail, look, install, pass},
			[]string{"`yarnpkg install` failed: (eval):1: command not found: yarnpkg; fixed by `npm install -g yarnpkg`, after which it passed."}},
		{"an edit fixed it", []Message{buildFail, edit, buildPass},
			[]string{"`npm run build` failed: Error: Cannot apply unknown utility class `ring-ring`; fixed by editing /w/app/styles/site.css, after which it passed."}},
		{"two changes", []Message{buildFail, edit, install, buildPass}, nil},
		{"fails again", []Message{buildFail, edit, buildFail}, nil},
		{"another command passed", []Message{fail, install, buildPass}, nil},
	}
	for _, c := range cases {
		msgs := []Message{{Role: "user", Text: "Get the app building."}}
		msgs = append(msgs, c.runs...)
		for i := range msgs {
			msgs[i].Index = i
		}
		got := Offline(msgs)
		checkEntries(t, c.name, msgs, got)
		var lessons []string
		for _, e := range got {
			if e.Type == Lesson {
				lessons = append(lessons, e.Body)
			}
		}
		if !slices.Equal(lessons, c.want) {
			t.Errorf("%s: lessons %q, want %q", c.name, lessons, c.want)
		}
	}
}
