package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

func TestSettingLine(t *testing.T) {
	for _, c := range []struct {
		line, opener string
		literal      bool
		name, value  string
	}{
		{`publish = "dist"`, "#", false, "publish", "dist"},
		{`command = ""`, "#", false, "command", ""},
		{`port = 8080 # the dev port`, "#", false, "port", "8080"},
		{`  "main": "index.js",`, "", false, "main", "index.js"},
		{`"main":"index.js"`, "", false, "main", "index.js"},
		{`site: 'https://kiln.example/blog' // the live site`, "//", true, "site", "https://kiln.example/blog"},
		{`NEXT_PUBLIC_APP_URL=https://kiln.example`, "#", false, "NEXT_PUBLIC_APP_URL", "https://kiln.example"},
		{`base: '/blog',`, "//", true, "base", "/blog"},
		{`port: 4321,`, "//", true, "port", "4321"},
		{`debug: true`, "#", false, "debug", "true"},
		// No one value: a table, a list, an object, a call, two strings,
		// a comment, a sentence, a host and port, a URL, a drive, a
		// comparison, and in code a name for what sets it elsewhere.
		{`[build]`, "#", false, "", ""},
		{`plugins: [react()],`, "//", true, "", ""},
		{`server: {`, "//", true, "", ""},
		{`const x = load(path)`, "//", true, "", ""},
		{`title = "a" + "b"`, "#", false, "", ""},
		{`# publish = "old"`, "#", false, "", ""},
		{`Note: the build runs first`, "", false, "", ""},
		{`localhost:3000`, "", false, "", ""},
		{`http://localhost:3000`, "", false, "", ""},
		{`C:\kiln`, "", false, "", ""},
		{`a==b`, "", false, "", ""},
		{`base: BASE`, "//", true, "", ""},
		{`site: process.env.SITE_URL`, "//", true, "", ""},
	} {
		name, value, ok := settingLine(c.line, c.opener, c.literal)
		if ok != (c.name != "") || name != c.name || value != c.value {
			t.Errorf("settingLine(%q) = %q, %q, %v; want %q, %q", c.line, name, value, ok, c.name, c.value)
		}
	}
}

func TestConfigFile(t *testing.T) {
	for path, want := range map[string]bool{
		"/kiln/netlify.toml": true, "/kiln/.env.local": true, "/kiln/.env": true, "/kiln/astro.config.mjs": true,
		"/kiln/app/settings.py": true, "/kiln/config/db.yml": true, "/kiln/config.ts": true,
		"/kiln/src/server.ts": false, "/kiln/README.md": false, "/kiln/reconfigure.sh": false, "/kiln/config.go": false,
		"/kiln/config_test.go": false, "/kiln/settings_view.tsx": false, "/kiln/config-loader.ts": false, "/kiln/.environment.sh": false,
	} {
		if got := configFile(path); got != want {
			t.Errorf("configFile(%q) = %v, want %v", path, got, want)
		}
	}
}

// TestShownSettings: a message sets a value in a code span on a line naming
// the config file; a line naming two files, or none, says where nothing is
// set, and one telling a change, a removal or a question sets nothing. A
// tool run's settings are the lines of a config file its excerpt shows
// whole, each name set once in all the run holds.
func TestShownSettings(t *testing.T) {
	msg := Item{Kind: store.TypeAgentResponse, Excerpt: "Done.\n- `deploy.toml` — `command = \"make site\"`, `publish = \"dist\"`\n" +
		"- `a.toml` and `b.yml` — `port = 1`\n- plain `mode = fast` with no file\n" +
		"Should `deploy.toml` set `port = 9000`?\n" +
		"reads `process.env.PORT` as `port = 3`"}
	got := shownSettings(msg)
	if len(got) != 2 || got[0].name != "command" || got[0].value != "make site" || got[1].name != "publish" || got[1].value != "dist" || got[1].file != "deploy.toml" {
		t.Errorf("message: got %+v", got)
	}
	for _, text := range []string{
		"In `deploy.toml` I changed `publish = \".\"` to `publish = \"dist\"`",
		"Don't use `publish = \"build\"` in `deploy.toml`",
		"Before: `deploy.toml` — `publish = \".\"`\nAfter: `deploy.toml` — `publish = \"dist\"`",
		"- `astro.config.mjs` — `base: BASE`",
	} {
		if got := shownSettings(Item{Kind: store.TypeAgentResponse, Excerpt: text}); len(got) != 0 {
			t.Errorf("%q states no setting: got %+v", text, got)
		}
	}
	answered := Item{Kind: store.TypeAgentResponse, Excerpt: "Done.", Context: &store.Event{Type: store.TypeUserPrompt},
		ContextExcerpt: "set `publish = \"build\"` in `deploy.toml`"}
	if got := shownSettings(answered); len(got) != 0 {
		t.Errorf("the prompt shown with an answer states no setting: got %+v", got)
	}
	if got := shownSettings(Item{Kind: store.TypeUserPrompt, Excerpt: "- `deploy.toml` — `publish = \"dist\"`"}); len(got) != 0 {
		t.Errorf("a prompt states no setting: got %+v", got)
	}
	text := "Write: /kiln/deploy.toml\n+ [build]\n+   publish = \"dist\"\n+ [preview]\n+   publish = \"tmp\"\n+   port = 8088\n+   mode = \"fast\"\n+   DATA=10"
	run := Item{Kind: store.TypeToolObservation, event: store.Event{Text: text}, Excerpt: "Write: /kiln/deploy.toml … publish = \"tmp\" … port = 8088 … DATA=10"}
	if got := shownSettings(run); len(got) != 2 || got[0].name != "DATA" || got[1].name != "port" || got[1].value != "8088" || got[1].path != "/kiln/deploy.toml" {
		t.Errorf("run: want the shown lines setting a name once in the file, got %+v", got)
	}
	code := Item{Kind: store.TypeToolObservation, event: store.Event{Text: "Write: /kiln/src/server.ts\n+ port = 8088"}, Excerpt: "port = 8088"}
	if got := shownSettings(code); len(got) != 0 {
		t.Errorf("code is no config file: got %+v", got)
	}
	cut := Item{Kind: store.TypeToolObservation, event: store.Event{Text: "Write: /kiln/deploy.toml\n+ port = 80\n[… 900 bytes cut …]\n+ 80\"\n+ mode = \"fast\""}, Excerpt: "port = 80 … mode = \"fast\""}
	if got := shownSettings(cut); len(got) != 1 || got[0].name != "mode" {
		t.Errorf("a line cut when stored was read: got %+v", got)
	}
	// Past the part recall scans, a name set again on another line is set
	// twice; the same line again is no second setting, nor a line cut when
	// stored.
	filler := strings.Repeat("+ # a comment line of the long config file\n", maxScan/40)
	for _, c := range []struct {
		tail string
		want int
	}{{"+ port = 9090\n", 0}, {"+ port = 8088\n", 1}, {"+ sport = 3\n", 1}, {"+ port = 80\n[… 900 bytes cut …]\n+ 88\n", 1}} {
		long := Item{Kind: store.TypeToolObservation, event: store.Event{Text: "Write: /kiln/deploy.toml\n+ port = 8088\n" + filler + c.tail}, Excerpt: "port = 8088"}
		if got := shownSettings(long); len(got) != c.want {
			t.Errorf("%q after the scanned part: got %+v, want %d settings", c.tail, got, c.want)
		}
	}
}

// TestSettingWarnsWithTheValueItReplaced: a message states the config
// file's value; the file's runs before it set another, which the warning
// names as what the newer replaced (the write that set the message's value
// in between is passed over). A change already told of the older run is
// not told again. Asked about something else, or about a setting no run
// set before, nothing is warned; nor once an edit after the message sets
// a third value (the message is stale), nor when a run sets the name in
// two sections. The texts are made up.
func TestSettingWarnsWithTheValueItReplaced(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	first := putRun(t, db, "s1", proj, day, "Write: /kiln/deploy.toml\n+ [build]\n+   publish = \".\"\n+   command = \"\"")
	putRun(t, db, "s2", proj, day.Add(time.Hour), "Write: /kiln/deploy.toml\n+ [build]\n+   publish = \"dist\"\n+   command = \"make site\"\n+   cone = \"6\"")
	evs := say(t, db, "m", day.Add(2*time.Hour), "use a real build", "Done.\n- `deploy.toml` — `publish = \"dist\"`, `command = \"make site\"`, `cone = \"6\"`")
	n := messageItem(evs[1], evs[1].Text)
	warn := func(prompt string, earlier ...Warning) []Warning {
		t.Helper()
		cs, _, err := newTermCounts(db, "").weigh(ctx, concepts(prompt, nil), false)
		if err != nil {
			t.Fatal(err)
		}
		it := n
		it.promptConcepts = cs
		ws, err := settingWarnings(ctx, db, []Item{it, it}, earlier, map[[2]int64]bool{})
		if err != nil {
			t.Fatal(err)
		}
		return ws
	}
	ws := warn("which folder does the kiln deploy publish now?")
	if len(ws) != 1 || ws[0].A.CID != first.CID || ws[0].A.Title != `publish = "."` || ws[0].B.Title != `publish = "dist"` ||
		!strings.Contains(ws[0].Note, `publish in deploy.toml: "dist" (2026-11-20) replaced "."`) {
		t.Fatalf("want the first write's value as the replaced side, once, got %+v", ws)
	}
	if ws := warn("which folder does the kiln deploy publish now?", Warning{A: Memory{CID: first.CID, Title: `publish = "."`}}); len(ws) != 0 {
		t.Errorf("a change already told was told again: %+v", ws)
	}
	if ws := warn("which folder does the kiln deploy publish now?", Warning{A: Memory{CID: first.CID, Title: `command = ""`}}); len(ws) != 1 {
		t.Errorf("a change of another line of the run kept this one from being told: %+v", ws)
	}
	if ws := warn("which colour is the kiln's glaze?"); len(ws) != 0 {
		t.Errorf("a prompt about another thing warned: %+v", ws)
	}
	if ws := warn("which cone does the kiln deploy fire at now?"); len(ws) != 0 {
		t.Errorf("a setting no run set before warned: %+v", ws)
	}
	// A message telling a past value the file no longer held when said.
	evs = say(t, db, "m2", day.Add(3*time.Hour), "what was it?", "- `deploy.toml` used to set `publish = \".\"`")
	past := messageItem(evs[1], evs[1].Text)
	past.promptConcepts, _, _ = newTermCounts(db, "").weigh(ctx, concepts("which folder does the kiln deploy publish now?", nil), false)
	if ws, err := settingWarnings(ctx, db, []Item{past}, nil, map[[2]int64]bool{}); err != nil || len(ws) != 0 {
		t.Errorf("a value the file no longer held was told as current: %+v %v", ws, err)
	}
	putRun(t, db, "s3", proj, day.AddDate(0, 0, 1), "Edit: /kiln/deploy.toml\n-   publish = \"dist\"\n+   publish = \"public\"")
	if ws := warn("which folder does the kiln deploy publish now?"); len(ws) != 0 {
		t.Errorf("a value edited since was warned as current: %+v", ws)
	}
	db2 := storetest.Open(t)
	filler(t, db2)
	putRun(t, db2, "s0", proj, day.Add(-time.Hour), "Write: /kiln/deploy.toml\n+ [build]\n+   publish = \".\"")
	putRun(t, db2, "s1", proj, day, "Read: /kiln/deploy.toml\n1\t[build]\n2\t  publish = \".\"\n3\t[preview]\n4\t  publish = \"tmp\"")
	evs = say(t, db2, "m", day.Add(2*time.Hour), "use a real build", "Done.\n- `deploy.toml` — `publish = \"dist\"`")
	it := messageItem(evs[1], evs[1].Text)
	it.promptConcepts, _, _ = newTermCounts(db2, "").weigh(ctx, concepts("which folder does the kiln deploy publish now?", nil), false)
	if ws, err := settingWarnings(ctx, db2, []Item{it}, nil, map[[2]int64]bool{}); err != nil || len(ws) != 0 {
		t.Errorf("a name set in two sections warned: %+v %v", ws, err)
	}
	// Two files of one name: a message naming it names either.
	db3 := storetest.Open(t)
	filler(t, db3)
	putRun(t, db3, "s0", proj, day, "Write: /kiln/api/deploy.toml\n+ publish = \".\"")
	putRun(t, db3, "s1", proj, day.Add(time.Hour), "Write: /kiln/web/deploy.toml\n+ publish = \"dist\"")
	evs = say(t, db3, "m", day.Add(2*time.Hour), "use a real build", "Done.\n- `deploy.toml` — `publish = \"dist\"`")
	it = messageItem(evs[1], evs[1].Text)
	it.promptConcepts, _, _ = newTermCounts(db3, "").weigh(ctx, concepts("which folder does the kiln deploy publish now?", nil), false)
	if ws, err := settingWarnings(ctx, db3, []Item{it}, nil, map[[2]int64]bool{}); err != nil || len(ws) != 0 {
		t.Errorf("another directory's file of the name was the older side: %+v %v", ws, err)
	}
}

// TestSettingWarnsForTheLaterOfTwoReads: two reads of a config file shown,
// the later setting the value anew: the later's history is told (the older
// read is the older side), whichever ranks first; of two settings set
// anew, the one asked. A read of a part of the file tells nothing.
func TestSettingWarnsForTheLaterOfTwoReads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	older := putRun(t, db, "r0", proj, day, "Read: /kiln/deploy.toml\n1\t[build]\n2\t  publish = \".\"")
	newer := putRun(t, db, "r1", proj, day.AddDate(0, 0, 1), "Read: /kiln/deploy.toml\n1\t[build]\n2\t  publish = \"dist\"")
	cs, _, err := newTermCounts(db, "").weigh(ctx, concepts("which folder does the kiln deploy publish now?", nil), false)
	if err != nil {
		t.Fatal(err)
	}
	older.promptConcepts, newer.promptConcepts = cs, cs
	for _, sel := range [][]Item{{older, newer}, {newer, older}} {
		ws, err := settingWarnings(ctx, db, sel, nil, map[[2]int64]bool{})
		if err != nil || len(ws) != 1 || ws[0].A.CID != older.CID || ws[0].B.CID != newer.CID {
			t.Errorf("%s first: want the later read's value replacing the older's, got %+v %v", sel[0].CID, ws, err)
		}
	}

	// Of two settings set anew, the one the prompt asks about is told,
	// though another comes first by name.
	both := func(s string, d int, command, publish string) Item {
		it := putRun(t, db, s, proj, day.AddDate(0, 0, d), "Read: /kiln/site.toml\n1\t[build]\n2\t  command = \""+command+"\"\n3\t  publish = \""+publish+"\"")
		it.promptConcepts = cs
		return it
	}
	o2, n2 := both("b0", 0, "make", "."), both("b1", 1, "make all", "dist")
	if ws, err := settingWarnings(ctx, db, []Item{n2, o2}, nil, map[[2]int64]bool{}); err != nil || len(ws) != 1 || ws[0].B.Title != `publish = "dist"` {
		t.Errorf("want the asked setting told, got %+v %v", ws, err)
	}

	// A read of a part further on may show another section's name.
	part := putRun(t, db, "p1", proj, day.AddDate(0, 0, 2), "Read: /kiln/deploy.toml\n40\t[preview]\n41\t  publish = \"tmp\"")
	part.promptConcepts = cs
	if ws, err := settingWarnings(ctx, db, []Item{part, older}, nil, map[[2]int64]bool{}); err != nil || len(ws) != 0 {
		t.Errorf("a read from line 40 set the name anew: %+v %v", ws, err)
	}
	putRun(t, db, "q0", proj, day.AddDate(0, 0, 3), "Read: /kiln/pages.toml\n40\t[preview]\n41\t  publish = \"tmp\"")
	whole := putRun(t, db, "q1", proj, day.AddDate(0, 0, 4), "Read: /kiln/pages.toml\n1\t[build]\n2\t  publish = \"dist\"")
	whole.promptConcepts = cs
	if ws, err := settingWarnings(ctx, db, []Item{whole}, nil, map[[2]int64]bool{}); err != nil || len(ws) != 0 {
		t.Errorf("an older read from line 40 was the older side: %+v %v", ws, err)
	}
}

// TestEditKeptLinesStateTheFile: an applied edit's lines kept around its
// change are what the file held (the edit matched them), so a kept line
// setting a name an older write set otherwise is the newer side of a
// warning, where the edit starts with the file's first line (its kept
// lines before any header are the top level's). Not: the edit's own change
// (editWarnings'); a failed edit, one cut when stored; a kept line after a
// section header or a "…", or indented; an edit starting elsewhere in the
// file (within a section, or within a line: "timeout = 60" of
// "staging_timeout = 60"); nor a MultiEdit. A later edit setting the name
// anew, on a line it added or kept, makes an older statement stale. The
// texts are made up.
func TestEditKeptLinesStateTheFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	write := putRun(t, db, "w0", proj, day, "Write: /kiln/glaze.toml\n+ name = \"kiln\"\n+ cone = \"6\"\n+ staging_cone = \"10\"\n+ publish = \".\"\n+ [env.staging]\n+ route = \"a.example\"")
	cs, _, err := newTermCounts(db, "").weigh(ctx, concepts("which firing cone does the kiln glaze config set now?", nil), false)
	if err != nil {
		t.Fatal(err)
	}
	write.promptConcepts = cs
	run := func(s string, d int, text string) Item {
		it := putRun(t, db, s, proj, day.AddDate(0, 0, d), text)
		it.promptConcepts = cs
		return it
	}
	edit := run("e1", 1, "Edit: /kiln/glaze.toml\n  name = \"kiln\"\n  cone = \"10\"\n- publish = \".\"\n+ publish = \"out\"\n  [env.staging]")
	ws, err := settingWarnings(ctx, db, []Item{edit, write}, nil, map[[2]int64]bool{})
	if err != nil || len(ws) != 1 || ws[0].A.CID != write.CID || ws[0].B.CID != edit.CID || ws[0].Old != `cone = "6"` || ws[0].B.Title != `cone = "10"` {
		t.Errorf("want the edit's kept cone replacing the write's, got %+v %v", ws, err)
	}
	for i, text := range []string{
		"Edit: /kiln/glaze.toml (error)\n  name = \"kiln\"\n  cone = \"8\"\n- publish = \".\"\n+ publish = \"dist\"",
		"Edit: /kiln/glaze.toml\n  name = \"kiln\"\n  cone = \"8\"\n  mode = \"fast\"\n[… 900 bytes cut …]\n- publish = \".\"\n+ publish = \"dist\"",
		"Edit: /kiln/glaze.toml\n  name = \"kiln\"\n- cone = \"6\"\n+ cone = \"8\"\n  publish = \".\"",
		"Edit: /kiln/glaze.toml\n  name = \"kiln\"\n  [env.staging]\n  cone = \"8\"\n- publish = \".\"\n+ publish = \"dist\"",
		"Edit: /kiln/glaze.toml\n  name = \"kiln\"\n  …\n  cone = \"8\"\n- publish = \".\"\n+ publish = \"dist\"",
		"Edit: /kiln/glaze.toml\n  name = \"kiln\"\n    cone = \"8\"\n- publish = \".\"\n+ publish = \"dist\"",
		"Edit: /kiln/glaze.toml\n  cone = \"8\"\n- publish = \".\"\n+ publish = \"dist\"",
		"Edit: /kiln/glaze.toml\n  name = \"kiln\"\n- publish = \".\"\n+ publish = \"dist\"\n  cone = \"8\"",
		"MultiEdit: /kiln/glaze.toml\n  name = \"kiln\"\n  cone = \"8\"\n- publish = \".\"\n+ publish = \"dist\"",
		"Edit: /kiln/glaze.toml\n  name = \"kiln\"\n  cone = \"8\"\n+ cone = \"9\"\n  publish = \".\"",
	} {
		n := run(fmt.Sprintf("x%d", i), 1, text)
		if ws, err := settingWarnings(ctx, db, []Item{n, write}, nil, map[[2]int64]bool{}); err != nil || slices.ContainsFunc(ws, func(w Warning) bool { return w.B.CID == n.CID }) {
			t.Errorf("%q states no cone: got %+v %v", text, ws, err)
		}
	}
	// A read after the write sets the cone anew; a later edit, which adds
	// another cone or keeps one, makes the read's stale, and no warning
	// calls it current.
	read := run("r1", 2, "Read: /kiln/glaze.toml\n1\tname = \"kiln\"\n2\tcone = \"10\"")
	for _, text := range []string{
		"Edit: /kiln/glaze.toml\n  name = \"kiln\"\n- cone = \"10\"\n+ cone = \"04\"",
		"Edit: /kiln/glaze.toml\n  cone = \"04\"\n- publish = \".\"\n+ publish = \"out\"",
	} {
		later := run("e4", 3, text)
		if ws, err := settingWarnings(ctx, db, []Item{read, write, later}, nil, map[[2]int64]bool{}); err != nil || slices.ContainsFunc(ws, func(w Warning) bool { return w.B.CID == read.CID }) {
			t.Errorf("after %q the read was told current: %+v %v", text, ws, err)
		}
	}
}

// TestLaterReadSetsAnew: a shown edit of a config file set a value; the
// file read later, in another session, holds another (changed where no
// edit was captured): the read comes along. A read that changes only a
// line the prompt does not ask about does not, nor one older than a newer
// read that holds the shown value again.
func TestLaterReadSetsAnew(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	read := func(s string, d int, site string) {
		putRun(t, db, s, proj, day.AddDate(0, 0, d), "Read: /kiln/site.config.mjs\n1\texport default {\n2\t  site: '"+site+"', // the kiln's domain\n3\t  theme: 'light',\n4\t}")
	}
	edit := putRun(t, db, "e", proj, day, "Edit: /kiln/site.config.mjs\n-   site: 'https://example.test'\n+   site: 'https://example.test', // the kiln's domain\n+   theme: 'dark'")
	read("r0", 1, "https://example.test")
	prompt := "which domain does the kiln site config point at?"
	cs, _, err := newTermCounts(db, "").weigh(ctx, concepts(prompt, nil), false)
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Project: proj, SessionID: "now"}
	if got := laterEdits(ctx, db, req, cs, nil, nil, []Item{edit}); len(got) != 0 {
		t.Errorf("a read that changed another line came along: %q", got[0].edit.Text)
	}
	read("r1", 2, "https://kiln.example/blog")
	if got := laterEdits(ctx, db, req, cs, nil, nil, []Item{edit}); len(got) != 1 || !strings.Contains(got[0].edit.Text, "kiln.example/blog") {
		t.Fatalf("the later read setting the domain anew did not come along: %d", len(got))
	}
	read("r2", 3, "https://example.test")
	if got := laterEdits(ctx, db, req, cs, nil, nil, []Item{edit}); len(got) != 0 {
		t.Errorf("a read older than the newest, which holds the shown value, came along: %q", got[0].edit.Text)
	}
}

// TestQuestionNamingAFileOpensWithItsRuns: a question naming a file the
// project's tool runs read, by its name's words or whole, is about the
// project's own file. One word of a name, or two words apart, name none;
// three or more name it in any order; a dotfile's name is all its words
// (".env.sample").
func TestQuestionNamingAFileOpensWithItsRuns(t *testing.T) {
	items := []Item{
		{Kind: store.TypeToolObservation, event: store.Event{Text: "Read: /kiln/site.config.mjs\n1\tsite: 'x'"}},
		{Kind: store.TypeToolObservation, event: store.Event{Text: "Edit: /kiln/netlify.toml (error)\n- a\n+ b"}},
		{Kind: store.TypeToolObservation, event: store.Event{Text: "Bash: cat /kiln/deploy.yml"}},
		{Kind: store.TypeToolObservation, event: store.Event{Text: "Write: /kiln/.env.sample\n+ KILN_HOST=kiln"}},
		{Kind: store.TypeToolObservation, event: store.Event{Text: "Write: /kiln/scripts/setup-glaze-env.sh\n+ #!/bin/bash"}},
	}
	for prompt, want := range map[string]bool{
		"what domain does the site config point at?":     true,
		"which folder does netlify.toml publish?":        true,
		"what does the site use for its config?":         false,
		"which folder does netlify publish?":             false,
		"what does deploy.yml run?":                      false, // a command's argument is no file run
		"what does the config of the site point at?":     false,
		"what domain does the SITE-CONFIG point at now?": true,
		"which host does the env sample set?":            true, // a dotfile's name, its extension too
		"which host does the env set?":                   false,
		"does the glaze env setup skip the hooks?":       true, // three words, in another order
		"does the env setup skip the hooks?":             false,
	} {
		if got := namesRunFile(prompt, items); got != want {
			t.Errorf("namesRunFile(%q) = %v, want %v", prompt, got, want)
		}
	}
}

// TestRunOfANamedFileOpens: asked what a config file it read sets, with
// nothing but the read to answer, the question gets the read; asked the
// same as a how-to, it gets nothing. The texts are made up.
func TestRunOfANamedFileOpens(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	putRun(t, db, "r", proj, day, "Read: /kiln/kiln.config.mjs\n1\texport default {\n2\t  site: 'https://kiln.example/shop',\n3\t  base: '/shop',\n4\t}")
	if got := recallFor(t, db, defaults(), "What base path does the kiln config point at?"); !strings.Contains(got, "base: '/shop'") {
		t.Errorf("the read of the file the question names was not recalled:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "How do I set a base path in a kiln config?"); got != "" {
		t.Errorf("a how-to question got the read:\n%s", got)
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
		"Edit: /kiln/kiln.toml\n- site_output_dir = \"build\"\n+ site_output_dir = \"public\"",
		"Read: /kiln/README.md\n1\t- **Site Output**: public\n[… 9 bytes cut …]\nx",
		"React bundled. No CDN; (no cdn) without CDN and from CDN.\nno cdn",
		"Edit: /kelbo/reader.dart\n-   child: `PagerView` uses `reverse: true`,\n-   reverse: true,\n+   axis: vertical,",
		"Edit: /kiln/wrangler.toml\n  name = \"kiln\"\n  compatibility_date = \"2024-09-23\"\n  …\n  [env]\n- out = \"a\"\n+ out = \"b\"\n  x = 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for l := range strings.Lines(text) {
			if name, value, ok := settingLine(l, "#", false); ok && (!settingName(name) || !strings.Contains(l, value) || !strings.Contains(l, name)) {
				t.Errorf("settingLine(%q) = %q, %q", l, name, value)
			}
		}
		for _, kind := range []string{store.TypeToolObservation, store.TypeAgentResponse, KindEntry} {
			it := Item{Kind: kind, Text: text, Excerpt: text, event: store.Event{Text: text}}
			for _, s := range shownSettings(it) {
				if !settingName(s.name) || !strings.Contains(text, s.line) || s.file == "" {
					t.Errorf("shownSettings(%q) read %+v", text, s)
				}
			}
		}
		settingsOf(text, setting{file: "deploy.toml", name: "publish"})
		run := Item{Kind: store.TypeToolObservation, Excerpt: text, event: store.Event{Text: text}}
		if file, _, kept, ok := keptSettings(run); ok {
			for _, s := range kept {
				if !settingName(s.name) || !strings.Contains(text, s.line) || file == "" {
					t.Errorf("keptSettings(%q) read %+v", text, s)
				}
			}
		}
		if _, name, line := namedSetting(text, concepts("which site output folder does kiln publish?", nil)); name != "" && (!strings.Contains(text, name) || !strings.Contains(text, line)) {
			t.Errorf("namedSetting(%q) = %q", text, name)
		}
		for _, at := range []int{negatedAt(text, "cdn"), affirmedAt(text, "cdn")} {
			if at >= 0 && !strings.Contains(text, sentenceAt(text, at)) {
				t.Errorf("sentenceAt(%q, %d) is no part of it", text, at)
			}
		}
		if file, lines := docLines(text); file == "" && lines != nil {
			t.Errorf("docLines(%q) read lines of no file", text)
		}
		if shape := runShape(text); shape != "" && !strings.Contains(shape, ": ") {
			t.Errorf("runShape(%q) = %q", text, shape)
		}
		// An edit of the text's code and a message of it: the warning
		// quotes the message and the edit's line.
		said := messageItem(store.Event{ID: 1, Time: day, Type: store.TypeAgentResponse, Text: text}, text)
		said.CID = "m"
		edit := messageItem(store.Event{ID: 2, Time: day.Add(time.Hour), Type: store.TypeToolObservation, Text: text}, text)
		edit.CID = "e"
		for _, w := range removedSettingWarnings([]Item{said, edit}, map[[2]int64]bool{}) {
			if !strings.Contains(text, w.A.Title) || !strings.Contains(text, strings.TrimPrefix(w.B.Title, "- ")) {
				t.Errorf("removedSettingWarnings(%q) quoted what the text does not hold: %+v", text, w)
			}
		}
	})
}

// TestNewerReadShowsTheSettingTheOlderShows: an older, short read of a
// config file is shown whole, with the address it set then; the newer read
// is long, and its excerpt picks the lines the prompt names (the glazes),
// not the address line, which it sets anew. That line is shown too,
// and the warning tells the newer value, though the prompt names neither
// the setting nor its value. A newer read holding the older's value is
// shown as the prompt picks it. The texts are made up.
func TestNewerReadShowsTheSettingTheOlderShows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	newerRead := func(site string) string {
		var b strings.Builder
		b.WriteString("Read: /kiln/site.config.mjs\n1\texport default {\n")
		for i := 2; i < 60; i++ {
			if i == 30 {
				b.WriteString("30\t  origin: '" + site + "', // the public address\n")
				continue
			}
			fmt.Fprintf(&b, "%d\t  glaze%d: { cone: %d, hold: %d, vent: 'open' },\n", i, i, i%12, i*3)
		}
		b.WriteString("60\t  base: '/blog', // the kiln blog's base path\n61\t}")
		return b.String()
	}
	for _, c := range []struct {
		site string
		warn bool
	}{{"https://pots.example/shop", true}, {"https://example.test", false}} {
		db := storetest.Open(t)
		filler(t, db)
		older := putRun(t, db, "r0", proj, day, "Read: /kiln/site.config.mjs\n1\texport default {\n2\t  origin: 'https://example.test', // the public address\n3\t}")
		newer := putRun(t, db, "r1", proj, day.AddDate(0, 0, 1), newerRead(c.site))
		sel := selectRuns(t, db, "does the kiln site config still vent the glazes open?")
		var got *Item
		for i := range sel {
			if sel[i].CID == newer.CID {
				got = &sel[i]
			}
		}
		if got == nil || !slices.ContainsFunc(sel, func(it Item) bool { return it.CID == older.CID }) {
			t.Fatalf("%s: want both reads shown, got %d items", c.site, len(sel))
		}
		line := "origin: '" + c.site + "', // the public address"
		if shows := showsWholeLine(got.Excerpt, line); shows != c.warn || !strings.Contains(got.Excerpt, "vent: 'open'") {
			t.Errorf("%s: the newer read's excerpt shows the address line: %v, want %v; and a glaze's line:\n%s", c.site, shows, c.warn, got.Excerpt)
		}
		ws, err := Warnings(ctx, db, defaults(), sel)
		if err != nil {
			t.Fatal(err)
		}
		warned := slices.ContainsFunc(ws, func(w Warning) bool {
			return w.A.CID == older.CID && w.B.CID == newer.CID && w.B.Title == line && strings.Contains(w.Note, `replaced "https://example.test"`)
		})
		if warned != c.warn {
			t.Errorf("%s: warned that the newer read set the address anew: %v, want %v: %+v", c.site, warned, c.warn, ws)
		}
	}
}

// TestWriteThatDropsTheAskedEntry: a config file read with a server's
// entry, then written whole without it (the entry pulled): asked about
// that server, the write comes along with the read, though it does not
// name the server, and the warning says the write left the entry's line
// out. An edit that added the entry, or kept it beside what it changed,
// with no read since, shows it too: the edit's added and kept lines are
// that part of the file. A write cut when
// stored (its cut part may hold the entry) does not come along; one that
// keeps the entry, as it was or reformatted, is no removal. The texts are
// made up.
func TestWriteThatDropsTheAskedEntry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	read := "Read: /home/dev/.config/kiln/servers.json\n1\t{\n2\t  \"servers\": {\n3\t    \"glazebot\": {\n4\t      \"url\": \"http://localhost:4100/mcp\"\n5\t    }\n6\t  },\n7\t  \"theme\": \"dark\"\n8\t}"
	edit := "Edit: /home/dev/.config/kiln/servers.json\n-   \"servers\": {},\n+   \"servers\": {\n+     \"glazebot\": {\n+       \"url\": \"http://localhost:4100/mcp\"\n+     }\n+   },"
	// An edit that removed another entry shows the lines it kept around
	// the change, marked "  ": the file held them after it as well.
	keptByEdit := "Edit: /home/dev/.config/kiln/servers.json\n      \"servers\": {\n-     \"ovenlog\": {\n-       \"command\": \"node\"\n-     },\n      \"glazebot\": {\n        \"url\": \"http://localhost:4100/mcp\"\n      }"
	dropped := "Write: /home/dev/.config/kiln/servers.json\n+ {\n+   \"servers\": {},\n+   \"theme\": \"dark\"\n+ }"
	for _, c := range []struct {
		name, older, write string
		brought, warns     bool
	}{
		{"dropped", read, dropped, true, true},
		{"added by an edit, dropped", edit, dropped, true, true},
		{"kept by an edit, dropped", keptByEdit, dropped, true, true},
		{"cut", read, "Write: /home/dev/.config/kiln/servers.json\n+ {\n+   \"servers\": {},\n[… 300 bytes cut …]\n+ }", false, false},
		// The entry written on one line is still there: no removal.
		{"reformatted", read, "Write: /home/dev/.config/kiln/servers.json\n+ {\n+   \"servers\": {\"glazebot\": {\"url\": \"http://localhost:4100/mcp\"}},\n+   \"theme\": \"dark\"\n+ }", true, false},
		{"kept", read, "Write: /home/dev/.config/kiln/servers.json\n+ {\n+   \"servers\": {\n+     \"glazebot\": {\n+       \"url\": \"http://localhost:4100/mcp\"\n+     }\n+   },\n+   \"theme\": \"light\"\n+ }", true, false},
		{"added by an edit, kept", edit, "Write: /home/dev/.config/kiln/servers.json\n+ {\n+   \"servers\": {\"glazebot\": {\"url\": \"http://localhost:4100/mcp\"}},\n+   \"theme\": \"dark\"\n+ }", true, false},
	} {
		db := storetest.Open(t)
		filler(t, db)
		putRun(t, db, "r0", proj, day, c.older)
		write := putRun(t, db, "w0", proj, day.Add(time.Hour), c.write)
		sel := selectRuns(t, db, "is glazebot still wired in?")
		brought := slices.ContainsFunc(sel, func(it Item) bool { return it.CID == write.CID })
		ws, err := Warnings(ctx, db, defaults(), sel)
		if err != nil {
			t.Fatal(err)
		}
		warned := slices.ContainsFunc(ws, func(w Warning) bool {
			return w.B.CID == write.CID && w.A.Title == `"glazebot": {` && strings.Contains(w.Note, "left the first line out") && w.kept && w.standsFor
		})
		// Its newer side is what the write holds in the entry's place (of
		// a whole file read: an edit shows no line the write kept around
		// the entry).
		if warned && c.older == read && !slices.ContainsFunc(ws, func(w Warning) bool { return w.B.Title == `"servers": {},` }) {
			t.Errorf("%s: the warning does not show what stands in the entry's place: %+v", c.name, ws)
		}
		if brought != c.brought || warned != c.warns {
			t.Errorf("%s: the write came along: %v, want %v; warned it left the entry out: %v, want %v: %+v", c.name, brought, c.brought, warned, c.warns, ws)
		}
	}
}

// TestWriteOfTheAskedFileDropsAnEntry: a config file the prompt names by
// the words of its name ("kiln servers" of kiln_servers.json), asked what
// it holds, not which entry: an edit added a server's entry, a later write
// left it out. The warning names the entry the write dropped, as the prompt
// asks of the whole file. Named by one word of it ("servers"), the file is
// not what the prompt asks of, and the write changed no asked entry. The
// texts are made up.
func TestWriteOfTheAskedFileDropsAnEntry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		file  string
		warns bool
	}{
		{"kiln_servers.json", true},
		{"servers.json", false},
	} {
		prompt := "the kiln app won't start. what is actually in " + c.file + " at this point?"
		db := storetest.Open(t)
		filler(t, db)
		putRun(t, db, "e0", proj, day, "Edit: /home/dev/.config/kiln/"+c.file+"\n-   \"servers\": {},\n+   \"servers\": {\n+     \"glazebot\": {\n+       \"url\": \"http://localhost:4100/mcp\"\n+     }\n+   },")
		write := putRun(t, db, "w0", proj, day.Add(time.Hour), "Write: /home/dev/.config/kiln/"+c.file+"\n+ {\n+   \"servers\": {},\n+   \"theme\": \"dark\"\n+ }")
		sel := selectRuns(t, db, prompt)
		if !slices.ContainsFunc(sel, func(it Item) bool { return it.CID == write.CID }) {
			t.Fatalf("%q: the write is not shown", prompt)
		}
		ws, err := Warnings(ctx, db, defaults(), sel)
		if err != nil {
			t.Fatal(err)
		}
		warned := slices.ContainsFunc(ws, func(w Warning) bool {
			return w.B.CID == write.CID && w.A.Title == `"glazebot": {` && strings.Contains(w.Note, "left the first line out")
		})
		if warned != c.warns {
			t.Errorf("%q: warned the write left the entry out: %v, want %v: %+v", prompt, warned, c.warns, ws)
		}
	}
}

// TestWriteDropsWhatAnEditAdded: a config file read, an edit adding a
// server's entry, then a write leaving it out and changing another line
// (the theme): asked about the server, the warning is the entry the
// write dropped, not the theme line it changed. The texts are made up.
func TestWriteDropsWhatAnEditAdded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	putRun(t, db, "r0", proj, day, "Read: /home/dev/.config/kiln/servers.json\n1\t{\n2\t  \"servers\": {},\n3\t  \"theme\": \"dark\"\n4\t}")
	putRun(t, db, "e0", proj, day.Add(time.Minute), "Edit: /home/dev/.config/kiln/servers.json\n-   \"servers\": {},\n+   \"servers\": {\n+     \"glazebot\": {\n+       \"url\": \"http://localhost:4100/mcp\"\n+     }\n+   },")
	write := putRun(t, db, "w0", proj, day.Add(time.Hour), "Write: /home/dev/.config/kiln/servers.json\n+ {\n+   \"servers\": {},\n+   \"theme\": \"light\"\n+ }")
	sel := selectRuns(t, db, "is glazebot still wired in?")
	ws, err := Warnings(ctx, db, defaults(), sel)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(ws, func(w Warning) bool {
		// The edit shows no neighbours of the entry: the newer side is
		// the write, not a line of it that may have stood there before.
		return w.B.CID == write.CID && w.A.Title == `"glazebot": {` && strings.HasPrefix(w.B.Title, "(Write: ")
	}) {
		t.Errorf("want the entry the edit added and the write dropped warned: %+v", ws)
	}
	// An edit adding it back since: the write is no longer how the file
	// stands. (Selection brings the newest run of the file alone here, so
	// the items are given.)
	item := func(cid string, at time.Time, text string) Item {
		it := messageItem(store.Event{ID: at.Unix(), Time: at, Type: store.TypeToolObservation, Text: text}, text)
		it.CID = cid
		it.promptConcepts = weighed(concepts("is glazebot still wired in?", nil))
		return it
	}
	added := "Edit: /home/dev/.config/kiln/servers.json\n-   \"servers\": {},\n+   \"servers\": {\n+     \"glazebot\": {\n+       \"url\": \"http://localhost:4100/mcp\"\n+     }\n+   },"
	// The write holds another entry where the edit put glazebot's, one
	// the edit did not show: not glazebot's replacement.
	emptied := "Write: /home/dev/.config/kiln/servers.json\n+ {\n+   \"servers\": {\n+     \"archive\": {\"url\": \"http://localhost:6000/mcp\"}\n+   }\n+ }"
	items := []Item{item("e", day, added), item("w", day.Add(time.Hour), emptied)}
	if ws := warnEdits(writeWarnings, items); len(ws) != 1 || ws[0].A.CID != "e" || !strings.HasPrefix(ws[0].B.Title, "(Write: ") {
		t.Fatalf("want the edit's entry warned as dropped by the write, the write as the newer side: %+v", ws)
	}
	// A request answered "Done." shows the edit as its turn: the edit,
	// cited by its own id, is the older side, which Render lists as the
	// request's "then:" line.
	request := func(at time.Time, edit Item) Item {
		req := messageItem(store.Event{ID: 1, Time: at.Add(-time.Minute), Type: store.TypeUserPrompt, Text: "wire glazebot in"}, "wire glazebot in")
		req.CID, req.promptConcepts = "q", edit.promptConcepts
		req.Context, req.ContextExcerpt = &edit.event, edit.Excerpt
		return req
	}
	if ws := warnEdits(writeWarnings, []Item{request(day, items[0]), items[1]}); len(ws) != 1 ||
		ws[0].A.CID != store.EventCID(items[0].event.ID) || ws[0].A.Type != "tool ran" || ws[0].A.Title != `"glazebot": {` {
		t.Errorf("want the request's edit warned as dropped by the write: %+v", ws)
	}
	again := item("e2", day.Add(2*time.Hour), strings.Replace(added, "4100", "4200", 1))
	if ws := warnEdits(writeWarnings, append(items, again)); len(ws) != 0 {
		t.Errorf("the entry was added back by an edit since, yet the write's drop is warned: %+v", ws)
	}
	if ws := warnEdits(writeWarnings, append(items, request(again.Time, again))); len(ws) != 0 {
		t.Errorf("the entry was added back by a request's edit since, yet the write's drop is warned: %+v", ws)
	}
	// A read before the edit, and a write that also changed the theme:
	// the entry asked of is warned, not the theme line.
	read := item("r", day.Add(-time.Hour), "Read: /home/dev/.config/kiln/servers.json\n1\t{\n2\t  \"servers\": {},\n3\t  \"theme\": \"dark\"\n4\t}")
	themed := item("w", day.Add(time.Hour), "Write: /home/dev/.config/kiln/servers.json\n+ {\n+   \"servers\": {},\n+   \"theme\": \"light\"\n+ }")
	if ws := warnEdits(writeWarnings, []Item{read, items[0], themed}); len(ws) != 1 || ws[0].A.CID != "e" {
		t.Errorf("want the entry the edit added warned before the theme line: %+v", ws)
	}
	// One Windows file, its path spelt two ways.
	win := item("we", day, strings.Replace(added, "/home/dev/.config/kiln/servers.json", `C:\Users\dev\kiln\servers.json`, 1))
	winWrite := item("ww", day.Add(time.Hour), strings.Replace(emptied, "/home/dev/.config/kiln/servers.json", "c:/users/dev/kiln/servers.json", 1))
	if ws := warnEdits(writeWarnings, []Item{win, winWrite}); len(ws) != 1 {
		t.Errorf("an edit and a write of one Windows file spelt two ways: %+v", ws)
	}
	// An edit that only removed lines since the one that added the
	// entry: the write did not drop it.
	removedOnly := item("e3", day.Add(30*time.Minute), "Edit: /home/dev/.config/kiln/servers.json\n-     \"glazebot\": {\n-       \"url\": \"http://localhost:4100/mcp\"\n-     }")
	if ws := warnEdits(writeWarnings, []Item{items[0], removedOnly, items[1]}); len(ws) != 0 {
		t.Errorf("an edit removed the entry before the write, yet the write's drop is warned: %+v", ws)
	}
}

// TestNamedConfigFileAsItStands: asked what a config file the question
// names whole holds, with the user's request to change it recalled, the
// newest write of the file comes along: what it holds now, though a part
// of it was read since. A newer edit of it after that write, another
// file of that name read, or a question naming the file only in words,
// brings nothing. The texts are made up.
func TestNamedConfigFileAsItStands(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, prompt string
		edit, want   bool
	}{
		{"named", "What's left in my kiln_servers.json after all the crashes?", false, true},
		{"edited since", "What's left in my kiln_servers.json after all the crashes?", true, false},
		{"another's file of the name", "What's left in my kiln_servers.json after all the crashes?", false, false},
		{"read in part since", "What's left in my kiln_servers.json after all the crashes?", false, true},
	} {
		db := storetest.Open(t)
		filler(t, db)
		say(t, db, "u", day, "the kiln desktop app crashes since I added the glazebot server to kiln_servers.json, take it out",
			"Done: glazebot is out of kiln_servers.json. Restart the kiln desktop app.")
		write := putRun(t, db, "w", proj, day.Add(time.Hour), "Write: /home/dev/.config/kiln/kiln_servers.json\n+ {\n+   \"servers\": {},\n+   \"theme\": \"dark\"\n+ }")
		switch {
		case c.edit:
			putRun(t, db, "e", proj, day.Add(2*time.Hour), "Edit: /home/dev/.config/kiln/kiln_servers.json\n-   \"theme\": \"dark\"\n+   \"theme\": \"light\"")
		case c.name == "another's file of the name":
			putRun(t, db, "o", proj, day.Add(2*time.Hour), "Read: /home/dev/kiln/vendor/kiln_servers.json\n1\t{\"servers\": {\"demo\": {}}}")
		case c.name == "read in part since":
			putRun(t, db, "p", proj, day.Add(2*time.Hour), "Read: /home/dev/.config/kiln/kiln_servers.json\n3\t  \"theme\": \"dark\"")
		}
		sel := selectRuns(t, db, c.prompt)
		if len(sel) == 0 {
			t.Fatalf("%s: nothing recalled", c.name)
		}
		if got := slices.ContainsFunc(sel, func(it Item) bool { return it.CID == write.CID }); got != c.want {
			t.Errorf("%s: the newest write came along: %v, want %v", c.name, got, c.want)
		}
		if slices.ContainsFunc(sel, func(it Item) bool { return strings.HasPrefix(it.Text, "Read: /home/dev/kiln/vendor/") }) {
			t.Errorf("%s: another file of the name came along as the file", c.name)
		}
		if c.name == "named" {
			// Named in words, the file is not named whole: the newest
			// write is not brought for it (whether the search finds it
			// on its words is the ranking's matter).
			req := Request{Prompt: "What's left in my kiln servers config after all the crashes?", Project: proj}
			if more := namedFileNow(context.Background(), db, req, nil, nil, nil); len(more) != 0 {
				t.Errorf("in words: namedFileNow brought %q", more[0].Text)
			}
		}
	}
}

// TestSamePath: Windows writes one file's path with either slash and any
// case; elsewhere case tells two files apart.
func TestSamePath(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{`C:\Users\dev\kiln.json`, `c:/users/dev/kiln.json`, true},
		{"/home/dev/kiln.json", "/home/dev/kiln.json", true},
		{"/home/dev/kiln.json", "/home/Dev/kiln.json", false},
		{"", "", false},
	} {
		if got := samePath(c.a, c.b); got != c.want {
			t.Errorf("samePath(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestNamedSetting: a config file's line answers a prompt that names most
// of its setting's words, two at least; the file's structure, not talk,
// so a generic coding word ("output") counts.
func TestNamedSetting(t *testing.T) {
	t.Parallel()
	const prompt = "which output folder does kiln ship the site from?"
	for _, c := range []struct {
		name, prompt, text, want string
	}{
		{"edit", prompt, "Edit: /kiln/kiln.toml\n- site_output_dir = \"build\"\n+ site_output_dir = \"public\"", "site_output_dir"},
		{"read", prompt, "Read: /kiln/kiln.toml\n1\tname = \"kiln\"\n2\tsite_output_dir = \"public\"", "site_output_dir"},
		{"write, camel case", prompt, "Write: /kiln/kiln.json\n+ {\n+   \"siteOutputDir\": \"public\"\n+ }", "siteOutputDir"},
		{"one word named", "what does the kiln output look like?", "Read: /kiln/kiln.toml\n1\tsite_output_dir = \"public\"", ""},
		{"half the words", "what does the next app look like?", "Read: /kiln/.env\n1\tNEXT_PUBLIC_APP_URL=http://localhost:3000", ""},
		{"half, in a file the prompt names", "which folder does kiln upload when we ship the pages?", "Read: /srv/kiln.toml\n1\tpages_build_output_dir = \"out\"", "pages_build_output_dir"},
		{"half, in another file", "which folder does kiln upload when we ship the pages?", "Read: /srv/deploy.toml\n1\tpages_build_output_dir = \"out\"", ""},
		{"code, not config", prompt, "Read: /kiln/site.go\n1\tsite_output_dir = \"public\"", ""},
		{"a dependency", "what did the next config get renamed to?", "Read: /kiln/package.json\n1\t{\n2\t  \"eslint-config-next\": \"16.2.9\"\n3\t}", ""},
		{"the project's own words", "what tracks work in kiln_glaze?", "Read: /home/dev/kiln_glaze/pyproject.toml\n1\tkiln-glaze = \"kiln_glaze.main:main\"", ""},
		{"failed edit", prompt, "Edit: /kiln/kiln.toml (error)\n- site_output_dir = \"build\"\n+ site_output_dir = \"public\"", ""},
		{"a number", "what are the max retries of the kiln jobs?", "Read: /kiln/kiln.toml\n1\tmax_retries = 3", "max_retries"},
		{"a port", "which port does the db listen on?", "Read: /kiln/.env\n1\tDB_PORT=5432", "DB_PORT"},
		{"a word not named", "why is the openai api key rejected?", "Read: /kiln/.env\n1\tSTRIPE_API_KEY=sk_test_kelbo", ""},
		{"one word, in a file the prompt names", "what does kiln output?", "Read: /srv/kiln.toml\n1\toutput_dir = \"out\"", ""},
		// A name of one word the prompt names, in the file it names: the
		// file's word and the prompt's. In another file it is any file's.
		{"a one-word name, in a file the prompt names", "what folder does kiln publish these days?", "Edit: /srv/kiln.toml\n  [build]\n-   publish = \".\"\n+   publish = \"dist\"", "publish"},
		{"a one-word name, in another file", "what folder does kiln publish these days?", "Edit: /srv/site.toml\n  [build]\n-   publish = \".\"\n+   publish = \"dist\"", ""},
		{"a pinned dependency", "what does the next config do?", "Read: /kiln/package.json\n1\t\"eslint-config-next\": \"15.0.0-canary.1\"", ""},
	} {
		db := storetest.Open(t)
		filler(t, db)
		cs, _, err := newTermCounts(db, "").weigh(context.Background(), concepts(c.prompt, nil), false)
		if err != nil {
			t.Fatal(err)
		}
		if _, got, _ := namedSetting(c.text, cs); got != c.want {
			t.Errorf("%s: namedSetting = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestNewestRunOfANamedSetting: of the runs of a config file setting what
// the prompt names, the newest leads, above the runs naming the tool more
// often; it opens no gate alone.
func TestNewestRunOfANamedSetting(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	for i := range 4 {
		say(t, db, fmt.Sprintf("u%d", i), day.Add(time.Duration(i)*time.Minute), fmt.Sprintf("ship the site to kiln edge %d with the kiln cli", i),
			fmt.Sprintf("Shipped: the kiln cli uploaded %d files of the site to the kiln edge.", 30+i))
	}
	for i := range 12 {
		putRun(t, db, "u", proj, day.Add(time.Duration(i+10)*time.Minute),
			fmt.Sprintf("Bash: kiln ship --site snacks-%d\nkiln 4.2 uploading site... (%d/36)\nkiln: site %d shipped to the edge", i, 3*i, i))
	}
	// The file's name and lines share only generic words with the prompt.
	older := putRun(t, db, "w", proj, day.Add(time.Hour), "Write: /srv/snacks/deploy.toml\n+ name = \"snacks\"\n+ site_output_dir = \"build\"")
	newest := putRun(t, db, "w", proj, day.Add(2*time.Hour), "Edit: /srv/snacks/deploy.toml\n- site_output_dir = \"build\"\n+ site_output_dir = \"public\"")
	sel := selectRuns(t, db, "which output folder does kiln ship the site from?")
	if len(sel) == 0 || sel[0].CID != newest.CID {
		t.Fatalf("the newest run setting the folder did not lead")
	}
	if slices.IndexFunc(sel, func(it Item) bool { return it.CID == older.CID }) < slices.IndexFunc(sel, func(it Item) bool { return it.CID == newest.CID }) {
		t.Errorf("the older run ranked above the newest")
	}
	if slices.ContainsFunc(sel, func(it Item) bool { return it.CID == older.CID && it.raised }) {
		t.Errorf("the older run was raised as the answer too")
	}
	// A long read shows the line its setting is named by.
	var long strings.Builder
	long.WriteString("Read: /srv/snacks/edge.toml\n")
	for i := range 120 {
		fmt.Fprintf(&long, "%d\tkiln_ship_zone_%d = \"eu-%d\"\n", i+1, i, i)
	}
	long.WriteString("121\tsite_output_dir = \"dist\"\n")
	dbLong := storetest.Open(t)
	filler(t, dbLong)
	say(t, dbLong, "u", day, "ship the site to the kiln edge", "Shipped the site to the kiln edge.")
	read := putRun(t, dbLong, "r", proj, day.Add(3*time.Hour), long.String())
	sel = selectRuns(t, dbLong, "which output folder does kiln ship the site from?")
	if i := slices.IndexFunc(sel, func(it Item) bool { return it.CID == read.CID }); i < 0 || !strings.Contains(sel[i].Excerpt, `site_output_dir = "dist"`) {
		t.Errorf("the long read was not shown with its line setting the folder")
	}

	// In a store whose talk holds the setting's words everywhere, the run
	// is what matches: tool output opens no gate for it.
	db2 := storetest.Open(t)
	filler(t, db2)
	for i := range 20 {
		say(t, db2, fmt.Sprintf("talk-%d", i), day.AddDate(0, 0, -20+i), fmt.Sprintf("the site build %d left its output in the wrong folder", i),
			"The output folder of the site build is fixed.")
	}
	putRun(t, db2, "w", proj, day, "Write: /kiln/kiln.toml\n+ name = \"snacks\"\n+ site_output_dir = \"build\"")
	if sel := selectRuns(t, db2, "which output folder does the site build to now?"); len(sel) != 0 {
		t.Errorf("a run setting what the prompt names opened the gate alone")
	}
}
