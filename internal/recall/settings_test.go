package recall

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

func TestSettingLine(t *testing.T) {
	for _, c := range []struct {
		line, opener, name, value string
	}{
		{`publish = "dist"`, "#", "publish", "dist"},
		{`command = ""`, "#", "command", ""},
		{`port = 8080 # the dev port`, "#", "port", "8080"},
		{`  "main": "index.js",`, "", "main", "index.js"},
		{`site: 'https://kiln.example/blog' // the live site`, "//", "site", "https://kiln.example/blog"},
		{`NEXT_PUBLIC_APP_URL=https://kiln.example`, "#", "NEXT_PUBLIC_APP_URL", "https://kiln.example"},
		{`base: '/blog',`, "//", "base", "/blog"},
		// No one value: a table, a list, an object, a call, two strings,
		// a comment, a sentence.
		{`[build]`, "#", "", ""},
		{`plugins: [react()],`, "//", "", ""},
		{`server: {`, "//", "", ""},
		{`const x = load(path)`, "//", "", ""},
		{`title = "a" + "b"`, "#", "", ""},
		{`# publish = "old"`, "#", "", ""},
		{`Note: the build runs first`, "", "", ""},
	} {
		name, value, ok := settingLine(c.line, c.opener)
		if ok != (c.name != "") || name != c.name || value != c.value {
			t.Errorf("settingLine(%q) = %q, %q, %v; want %q, %q", c.line, name, value, ok, c.name, c.value)
		}
	}
}

func TestConfigFile(t *testing.T) {
	for path, want := range map[string]bool{
		"/kiln/netlify.toml": true, "/kiln/.env.local": true, "/kiln/astro.config.mjs": true, "/kiln/app/settings.py": true,
		"/kiln/config/db.yml": true, "/kiln/src/server.ts": false, "/kiln/README.md": false, "/kiln/reconfigure.sh": false,
	} {
		if got := configFile(path); got != want {
			t.Errorf("configFile(%q) = %v, want %v", path, got, want)
		}
	}
}

// TestShownSettings: a message sets a value in a code span on a line naming
// the config file; a line naming two files, or none, says where nothing is
// set. A tool run's settings are the lines of a config file its excerpt
// shows, each name once.
func TestShownSettings(t *testing.T) {
	msg := Item{Kind: store.TypeAgentResponse, Excerpt: "Done.\n- `deploy.toml` — `command = \"make site\"`, `publish = \"dist\"`\n" +
		"- `a.toml` and `b.yml` — `port = 1`\n- plain `mode = fast` with no file"}
	got := shownSettings(msg)
	if len(got) != 2 || got[0].name != "command" || got[0].value != "make site" || got[1].name != "publish" || got[1].file != "deploy.toml" {
		t.Errorf("message: got %+v", got)
	}
	text := "Write: /kiln/deploy.toml\n+ [build]\n+   publish = \"dist\"\n+ [preview]\n+   publish = \"tmp\"\n+   port = 8088\n+   mode = \"fast\""
	run := Item{Kind: store.TypeToolObservation, event: store.Event{Text: text}, Excerpt: "Write: /kiln/deploy.toml … port = 8088 …"}
	if got := shownSettings(run); len(got) != 1 || got[0].name != "port" || got[0].value != "8088" {
		t.Errorf("run: want the one shown line setting a name once, got %+v", got)
	}
	code := Item{Kind: store.TypeToolObservation, event: store.Event{Text: "Write: /kiln/src/server.ts\n+ port = 8088"}, Excerpt: "port = 8088"}
	if got := shownSettings(code); len(got) != 0 {
		t.Errorf("code is no config file: got %+v", got)
	}
}

// TestSettingWarnsWithTheValueItReplaced: a message states the config
// file's value; the file's runs before it set another, which the warning
// names as what the newer replaced (the write that set the message's value
// in between is passed over). An edit after the message that sets a third
// value makes the message's stale: no warning then. Asked about something
// else, or about a setting no run set before, nothing is warned. The texts
// are made up.
func TestSettingWarnsWithTheValueItReplaced(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	putRun(t, db, "s1", proj, day, "Write: /kiln/deploy.toml\n+ [build]\n+   publish = \".\"\n+   command = \"\"")
	putRun(t, db, "s2", proj, day.Add(time.Hour), "Write: /kiln/deploy.toml\n+ [build]\n+   publish = \"dist\"\n+   command = \"make site\"")
	evs := say(t, db, "m", day.Add(2*time.Hour), "use a real build", "Done.\n- `deploy.toml` — `publish = \"dist\"`, `command = \"make site\"`")
	n := messageItem(evs[1], evs[1].Text)
	warn := func(prompt string) []Warning {
		t.Helper()
		cs, _, err := newTermCounts(db, "").weigh(ctx, concepts(prompt, nil), false)
		if err != nil {
			t.Fatal(err)
		}
		it := n
		it.promptConcepts = cs
		ws, err := settingWarnings(ctx, db, []Item{it}, map[[2]int64]bool{})
		if err != nil {
			t.Fatal(err)
		}
		return ws
	}
	ws := warn("which folder does the kiln deploy publish now?")
	if len(ws) != 1 || ws[0].A.Title != `publish = "."` || ws[0].B.Title != `publish = "dist"` || !strings.Contains(ws[0].Note, `"dist" (2026-11-20) replaced "."`) {
		t.Fatalf("want the write's older value as the replaced side, got %+v", ws)
	}
	if ws := warn("which colour is the kiln's glaze?"); len(ws) != 0 {
		t.Errorf("a prompt about another thing warned: %+v", ws)
	}
	putRun(t, db, "s3", proj, day.AddDate(0, 0, 1), "Edit: /kiln/deploy.toml\n-   publish = \"dist\"\n+   publish = \"public\"")
	if ws := warn("which folder does the kiln deploy publish now?"); len(ws) != 0 {
		t.Errorf("a value changed again since was warned as current: %+v", ws)
	}
}

// TestLaterReadSetsAnew: a shown edit of a config file set a value; the
// file read later, in another session, holds another (changed where no
// edit was captured): the read comes along. A read that sets the same
// value, or changes only a line the prompt does not ask about, does not.
func TestLaterReadSetsAnew(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	edit := putRun(t, db, "e", proj, day, "Edit: /kiln/site.config.mjs\n-   site: 'https://example.test'\n+   site: 'https://example.test' // the kiln's domain, for now\n+   theme: 'dark'")
	putRun(t, db, "r0", proj, day.AddDate(0, 0, 1), "Read: /kiln/site.config.mjs\n1\texport default {\n2\t  site: 'https://example.test', // the kiln's domain, for now\n3\t  theme: 'light',\n4\t}")
	prompt := "which domain does the kiln site config point at?"
	cs, _, err := newTermCounts(db, "").weigh(ctx, concepts(prompt, nil), false)
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Project: proj, SessionID: "now"}
	if got := laterEdits(ctx, db, req, cs, nil, nil, []Item{edit}); len(got) != 0 {
		t.Errorf("a read that changed another line came along: %q", got[0].edit.Text)
	}
	putRun(t, db, "r1", proj, day.AddDate(0, 0, 2), "Read: /kiln/site.config.mjs\n1\texport default {\n2\t  site: 'https://kiln.example/blog', // the kiln's domain\n3\t  theme: 'light',\n4\t}")
	if got := laterEdits(ctx, db, req, cs, nil, nil, []Item{edit}); len(got) != 1 || !strings.Contains(got[0].edit.Text, "kiln.example/blog") {
		t.Fatalf("the later read setting the domain anew did not come along: %d", len(got))
	}
}

// TestQuestionNamingAFileOpensWithItsRuns: a question naming a file the
// project's tool runs read, by its name's words or whole, is about the
// project's own file: its runs open the gate. A how-to question naming it,
// or one word of a name, does not make them.
func TestQuestionNamingAFileOpensWithItsRuns(t *testing.T) {
	items := []Item{
		{Kind: store.TypeToolObservation, event: store.Event{Text: "Read: /kiln/site.config.mjs\n1\tsite: 'x'"}},
		{Kind: store.TypeToolObservation, event: store.Event{Text: "Edit: /kiln/netlify.toml (error)\n- a\n+ b"}},
		{Kind: store.TypeToolObservation, event: store.Event{Text: "Bash: cat /kiln/deploy.yml"}},
	}
	for prompt, want := range map[string]bool{
		"what domain does the site config point at?":     true,
		"which folder does netlify.toml publish?":        true,
		"what does the site use for its config?":         false,
		"which folder does netlify publish?":             false,
		"what does deploy.yml run?":                      false, // a command's argument is no file run
		"what does the config of the site point at?":     false,
		"what domain does the SITE-CONFIG point at now?": true,
	} {
		if got := namesRunFile(prompt, items); got != want {
			t.Errorf("namesRunFile(%q) = %v, want %v", prompt, got, want)
		}
	}
}

// FuzzSettings: reading a line, a stored run or a message for settings
// never panics; a setting read has a name settingName accepts and a value
// the line holds, and a run's shape is found in the text it came from.
func FuzzSettings(f *testing.F) {
	for _, s := range []string{
		"Write: /kiln/deploy.toml\n+ [build]\n+   publish = \"dist\"\n+   port = 8088 # dev",
		"Edit: /kiln/site.config.mjs\n- site: 'a'\n+ site: 'b' // c",
		"Read: /kiln/.env\n1\tAPI_URL=https://x.test\n2\t\"k\": \"v\",",
		"- `deploy.toml` — `publish = \"dist\"`, `command = \"make site\"`",
		"Bash: git config user.email \"a@kiln.test\" (error)\nThe user doesn't want to proceed",
		"Bash: echo \"unclosed",
		"x = \"\xff\" # \x00",
		"`",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for l := range strings.Lines(text) {
			if name, value, ok := settingLine(l, "#"); ok && (!settingName(name) || !strings.Contains(l, value)) {
				t.Errorf("settingLine(%q) = %q, %q", l, name, value)
			}
		}
		for _, kind := range []string{store.TypeToolObservation, store.TypeAgentResponse, KindEntry} {
			it := Item{Kind: kind, Text: text, Excerpt: text, event: store.Event{Text: text}}
			for _, s := range shownSettings(it) {
				if !settingName(s.name) || !strings.Contains(text, s.value) || s.file == "" {
					t.Errorf("shownSettings(%q) read %+v", text, s)
				}
			}
		}
		settingsOf(text, "deploy.toml")
		if shape := runShape(text); shape != "" && !strings.Contains(shape, ": ") {
			t.Errorf("runShape(%q) = %q", text, shape)
		}
	})
}
