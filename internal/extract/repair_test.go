package extract

import (
	"slices"
	"strings"
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
	buildFail := Message{Role: "tool", Text: "Bash: npm run build (error)\n> build\nError: Undefined mixin `focus-halo`\n    at lib.js:18"}
	edit := Message{Role: "tool", Text: "Edit: /w/app/styles/site.css\n- @include focus-halo;\n+ outline: 2px solid var(--halo);"}
	removal := Message{Role: "tool", Text: "Edit: /w/app/styles/site.css\n- @include focus-halo;\n+ "}
	commentOut := Message{Role: "tool", Text: "Edit: /w/app/src/main.ts\n- import './halo.scss';\n+ // import './halo.scss'; // no halo mixin in v2"}
	commented := Message{Role: "tool", Text: "Edit: /w/app/styles/site.css\n- @include focus-halo;\n+ /* the theme has no halo mixin */\n+ outline: 2px solid var(--halo);  // the halo colour"}
	write := Message{Role: "tool", Text: "Write: /w/app/styles/site.css\n+ :root { --halo: #3b82f6; }"}
	buildPass := Message{Role: "tool", Text: "Bash: npm run build\n✓ Compiled successfully"}
	commit := Message{Role: "tool", Text: "Bash: git commit -am 'wip'\n[main 1a2b3c4] wip\n 1 file changed"}
	cases := []struct {
		name string
		runs []Message
		want []string
	}{
		{"a command fixed it", []Message{fail, look, install, pass},
			[]string{"`yarnpkg install` failed: (eval):1: command not found: yarnpkg; fixed by `npm install -g yarnpkg`, after which it passed."}},
		{"an edit fixed it", []Message{buildFail, edit, buildPass},
			[]string{"`npm run build` failed: Error: Undefined mixin `focus-halo`; fixed by adding `outline: 2px solid var(--halo);` to site.css, after which it passed."}},
		// The lesson says what the edit changed, not only which file.
		{"an edit that only removed a line", []Message{buildFail, removal, buildPass},
			[]string{"`npm run build` failed: Error: Undefined mixin `focus-halo`; fixed by removing `@include focus-halo;` from site.css, after which it passed."}},
		{"an edit that commented a line out", []Message{buildFail, commentOut, buildPass},
			[]string{"`npm run build` failed: Error: Undefined mixin `focus-halo`; fixed by commenting out `// import './halo.scss'; // no halo mixin in v2` in main.ts, after which it passed."}},
		{"an edit whose first added line is a comment", []Message{buildFail, commented, buildPass},
			[]string{"`npm run build` failed: Error: Undefined mixin `focus-halo`; fixed by adding `outline: 2px solid var(--halo);` to site.css, after which it passed."}},
		{"a file written whole", []Message{buildFail, write, buildPass},
			[]string{"`npm run build` failed: Error: Undefined mixin `focus-halo`; fixed by editing /w/app/styles/site.css, after which it passed."}},
		{"two changes", []Message{buildFail, edit, install, buildPass}, nil},
		{"a commit is no fix", []Message{buildFail, commit, buildPass}, nil},
		{"fails again", []Message{buildFail, edit, buildFail}, nil},
		{"another command passed", []Message{fail, install, buildPass}, nil},
	}
	for _, c := range cases {
		msgs := []Message{{Role: "user", Text: "Get the app building."}}
		msgs = append(msgs, c.runs...)
		for i := range msgs {
			msgs[i].Index = i
		}
		lessons := lessonsOf(t, c.name, msgs)
		if !slices.Equal(lessons, c.want) {
			t.Errorf("%s: lessons %q, want %q", c.name, lessons, c.want)
		}
	}
}

// TestRepairsCompileErrors: a build that fails to compile and passes after
// edits of two files is a lesson quoting the compiler's error from the file
// name on; a rerun that fails on another error still shows the first one
// fixed; a startup script that prints compile errors on exit code 0 failed.
func TestRepairsCompileErrors(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 70)
	build := Message{Role: "tool", Text: "Bash: cd /w/shop && ./gradlew build (error)\n[INFO] compiling\n" +
		"[ERROR] /w/shop/src/main/java/shop/OrderMapper.java:[12,7] Conflicting converter methods for property total: " + long + "\n[ERROR] -> [Help 1]"}
	editA := Message{Role: "tool", Text: "Edit: /w/shop/src/main/java/shop/OrderMapper.java\n- a\n+ b"}
	editA2 := Message{Role: "tool", Text: "Edit: /w/shop/src/main/java/shop/OrderMapper.java\n- c\n+ d"}
	editB := Message{Role: "tool", Text: "Edit: /w/shop/src/main/java/shop/Order.java\n- e\n+ f"}
	buildPass := Message{Role: "tool", Text: "Bash: cd /w/shop && ./gradlew build\nBUILD SUCCESSFUL in 4s"}
	start := "Bash: cd /w/shop && ./gradlew bootRun &> run.log &\n"
	startFail1 := Message{Role: "tool", Text: start + "App failed to start\n[ERROR] /w/shop/src/test/java/shop/CartTest.java:[8,40] package org.example.tx does not exist\n[ERROR] -> [Help 1]"}
	editTest := Message{Role: "tool", Text: "Edit: /w/shop/src/test/java/shop/CartTest.java\n- g\n+ h"}
	startFail2 := Message{Role: "tool", Text: start + "App failed to start\n[ERROR] /w/shop/src/test/java/shop/CartTest.java:[51,22] cannot find symbol\n[ERROR]   symbol:   method withTotal()\n[ERROR] -> [Help 1]"}
	editDto := Message{Role: "tool", Text: "Edit: /w/shop/src/main/java/shop/CartView.java\n- i\n+ j"}
	startPass := Message{Role: "tool", Text: start + "App started on port 8080"}
	cases := []struct {
		name string
		runs []Message
		want []string
	}{
		{"two files edited", []Message{build, editA, editB, editA2, buildPass},
			[]string{"`./gradlew build` failed: OrderMapper.java:[12,7] Conflicting converter methods for property total: word word word word word word word word word word word word word word word word word…; fixed by editing OrderMapper.java and Order.java, after which it passed."}},
		{"errors printed on exit code 0, fixed one at a time", []Message{startFail1, editTest, startFail2, editDto, startPass},
			[]string{
				"`./gradlew bootRun` failed: CartTest.java:[8,40] package org.example.tx does not exist; fixed by editing /w/shop/src/test/java/shop/CartTest.java, after which that error was gone.",
				"`./gradlew bootRun` failed: CartTest.java:[51,22] cannot find symbol symbol: method withTotal(); fixed by editing /w/shop/src/main/java/shop/CartView.java, after which it passed.",
			}},
		{"three files edited", []Message{build, editA, editB, editTest, buildPass}, nil},
		{"the same error again", []Message{startFail1, editDto, startFail1}, nil},
	}
	for _, c := range cases {
		msgs := []Message{{Role: "user", Text: "Make the shop compile."}}
		msgs = append(msgs, c.runs...)
		for i := range msgs {
			msgs[i].Index = i
		}
		lessons := lessonsOf(t, c.name, msgs)
		if !slices.Equal(lessons, c.want) {
			t.Errorf("%s: lessons\n%q\nwant\n%q", c.name, lessons, c.want)
		}
	}
}

// TestStripANSI: a colour code is removed whole, and a malformed one never
// takes a byte of the character after it.
func TestStripANSI(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"\x1b[31merror\x1b[0m: x": "error: x",
		"\x1b[é":                  "\x1b[é",
	} {
		if got := stripANSI(in); got != want {
			t.Errorf("stripANSI(%q) = %q, want %q", in, got, want)
		}
	}
}

// lessonsOf extracts msgs, checks the entries' quotes, and returns the
// lessons' bodies.
func lessonsOf(t *testing.T, name string, msgs []Message) []string {
	t.Helper()
	got := Offline(msgs)
	checkEntries(t, name, msgs, got)
	var lessons []string
	for _, e := range got {
		if e.Type == Lesson {
			lessons = append(lessons, e.Body)
		}
	}
	return lessons
}
