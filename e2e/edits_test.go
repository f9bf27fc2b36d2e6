package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestRealClientEditWarning: a session reads a stylesheet and edits its
// palette whole, the accent's line among the others. In the next session a
// question about the accent now gets the edit's change of that line as a
// warning: the line that names what the prompt asks about, not the first
// changed. The colours are values, not comments.
func TestRealClientEditWarning(t *testing.T) {
	w := newWorld(t)
	before := "  --kiln-ember-500: #e76d44;\n  --kiln-ember-600: #0284c7; /* kiln door accent */\n  --kiln-ember-700: #0369a1;\n"
	after := "  --kiln-ember-500: #f18d68;\n  --kiln-ember-600: #b85a3a; /* kiln door accent */\n  --kiln-ember-700: #9a4a31;\n"
	css := w.projectFile("kiln.css", ":root {\n"+before+"}\n")
	edit := toolInput(t, map[string]string{"file_path": css, "old_string": before, "new_string": after})
	s1 := w.session("s1", nil, "Warm up the kiln palette.\nREADFILE "+css+"\nCALLTOOL Edit "+edit)
	toolChanged(t, s1, css, "#b85a3a", true)
	block := warningBlock(t, w.session("s2", nil, "which colour is the kiln door accent in kiln.css now?"))
	warningHolds(t, block, "#0284c7; /* kiln door accent */", "became", "#b85a3a; /* kiln door accent */", "an edit of kiln.css")
	if strings.Contains(block, "#e76d44") || strings.Contains(block, "#0369a1") {
		t.Errorf("the warning quotes a line the prompt did not ask about:\n%s", block)
	}
}

// TestRealClientHunkWarning: a session edits a kiln spec, replacing the
// line that names its glaze checker with one naming another tool, unlike
// it, and a firing line besides. In the next session a question about the
// glaze tooling now gets that line's change as a warning (the hunk the
// prompt asks about), not the firing line's.
func TestRealClientHunkWarning(t *testing.T) {
	w := newWorld(t)
	before := "## Firing\ncone 6 everywhere\n\n## Glaze evaluation\nUsing the Orton glaze checker:\n- photos of every test tile\n"
	after := "## Firing\ncone 8 in the gas kiln\n\n## Glaze evaluation\nUsing Seger evaluation tooling:\n- photos of every test tile\n"
	spec := w.projectFile("kiln-spec.md", "# Kiln spec\n\n"+before)
	edit := toolInput(t, map[string]string{"file_path": spec, "old_string": before, "new_string": after})
	s1 := w.session("s1", nil, "Update the kiln spec.\nREADFILE "+spec+"\nCALLTOOL Edit "+edit)
	toolChanged(t, s1, spec, "Seger", true)
	block := warningBlock(t, w.session("s2", nil, "which glaze evaluation tooling does the kiln spec use now?"))
	warningHolds(t, block, "Using the Orton glaze checker:", "became", "Using Seger evaluation tooling:", "an edit of kiln-spec.md")
	if strings.Contains(block, "cone 6") {
		t.Errorf("the warning quotes the firing line the prompt did not ask about:\n%s", block)
	}
}

// TestRealClientValueRewrittenWhole: a session edits a stylesheet, setting
// a button's colour and its hover colour anew, each from a variable to a
// literal. In the next session a question about the button's colour, in
// the present with no "now", gets the colour's line as the edit changed
// it in a warning: the property names what is set, however much of its
// value changed. A question in the present about the kiln spec's tooling
// gets the hunk's change the same way.
func TestRealClientValueRewrittenWhole(t *testing.T) {
	w := newWorld(t)
	before := ".btn-kiln {\n  color: var(--glaze-600);\n}\n.btn-kiln:hover {\n  color: var(--glaze-700);\n}\n"
	after := ".btn-kiln {\n  color: #0066cc;\n}\n.btn-kiln:hover {\n  color: #004499;\n}\n"
	css := w.projectFile("showcase.css", before)
	edit := toolInput(t, map[string]string{"file_path": css, "old_string": before, "new_string": after})
	s1 := w.session("s1", nil, "Make the kiln button a classic link blue.\nREADFILE "+css+"\nCALLTOOL Edit "+edit)
	toolChanged(t, s1, css, "#0066cc", true)
	block := warningBlock(t, w.session("s2", nil, "what color does the kiln button in showcase.css use?"))
	warningHolds(t, block, "color: var(--glaze-600);", "became", "color: #0066cc;", "an edit of showcase.css")
	spec := w.projectFile("kiln-spec.md", "# Kiln spec\n\n## Glaze evaluation\nUsing the Orton glaze checker:\n- photos of every test tile\n")
	edit = toolInput(t, map[string]string{"file_path": spec, "old_string": "Using the Orton glaze checker:", "new_string": "Using Seger evaluation tooling:"})
	s3 := w.session("s3", nil, "Update the kiln spec.\nREADFILE "+spec+"\nCALLTOOL Edit "+edit)
	toolChanged(t, s3, spec, "Seger", true)
	block = warningBlock(t, w.session("s4", nil, "does the kiln spec evaluate glazes with Seger evaluation tooling?"))
	warningHolds(t, block, "Using the Orton glaze checker:", "became", "Using Seger evaluation tooling:")
}

// TestRealClientWriteWarning: a session reads a Kotlin file, then writes it
// whole with its base class changed. In the next session a question about
// what the class extends now gets the write's change of that line as a
// warning, the read's line quoted as the older.
func TestRealClientWriteWarning(t *testing.T) {
	w := newWorld(t)
	kt := w.projectFile("KilnActivity.kt", "package kiln\n\nimport glaze.GlazeActivity\n\nclass KilnActivity : GlazeActivity()\n")
	write := toolInput(t, map[string]string{"file_path": kt, "content": "package kiln\n\nimport oven.OvenActivity\n\nclass KilnActivity : OvenActivity()\n"})
	s1 := w.session("s1", nil, "Move the kiln activity off the glaze base.\nREADFILE "+kt+"\nCALLTOOL Write "+write)
	toolChanged(t, s1, kt, "OvenActivity()", true)
	block := warningBlock(t, w.session("s2", nil, "which class does KilnActivity extend now?"))
	warningHolds(t, block, "class KilnActivity : GlazeActivity()", "class KilnActivity : OvenActivity()", "a write of KilnActivity.kt")
}

// TestRealClientLabelledChange: an answer states a change as a line
// labelled before and the next labelled after. In the next session a
// question about the current state gets that change as a warning, both
// lines quoted, the newer last.
func TestRealClientLabelledChange(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "Fix the kiln badge contrast in dark mode.\n"+
		"SAY Fixed the kiln badge contrast. Kiln badge colours in dark mode:\n"+
		"SAY - **Before**: ember badges with `dark:bg-ember-900` (hard to read)\n"+
		"SAY - **After**: slate badges with `dark:bg-slate-700` (readable)")
	block := warningBlock(t, w.session("s2", nil, "which classes do the kiln badges use in dark mode now?"))
	old, now := strings.Index(block, "dark:bg-ember-900"), strings.Index(block, "dark:bg-slate-700")
	if old < 0 || now < 0 || now < old || !strings.Contains(block, "became") {
		t.Errorf("the warning does not say the ember class became the slate one:\n%s", block)
	}
}

// TestRealClientRemovalWarning: a session reads code calling a stub; a
// later answer says the stub was removed. Asked whether the stub is still
// there, the next session gets the read as the older side of a warning
// that names the stub as the answer wrote it.
func TestRealClientRemovalWarning(t *testing.T) {
	w := newWorld(t)
	src := w.projectFile("kiln-search.js", "export function findGlazes(query) {\n  return fetchKilnStub(query) // canned glazes until the index is up\n}\n")
	w.session("s1", nil, "Where do kiln glaze searches come from? READFILE "+src)
	w.session("s2", nil, "Make glaze search use the live index.\n"+
		"SAY Done. Completely removed `fetchKilnStub()` from `kiln-search.js`; glaze searches go to the live index.")
	block := warningBlock(t, w.session("s3", nil, "do glaze searches still fall back to the canned kiln stub?"))
	warningHolds(t, block, "fetchKilnStub(query)", "fetchKilnStub() was removed")
}

// TestRealClientRemovalOfAddedPackage: one session's answer adds a
// package, a later session's answer removes it. Asked whether the package
// is still used, the next session gets the removal with, as its older
// side, the sentence that added it. Here the first answer is among the
// memories offered, so the warning pairs it as shown; the store's lookup
// when none is offered is recall's TestRemovedCodeLooksUpWhereItStood.
func TestRealClientRemovalOfAddedPackage(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil, "The kiln player needs glaze tags.\n"+
		"SAY Added `kelbo_tags` as a direct dependency for the glaze tag import.")
	w.session("s2", nil, "Two kiln players crash the app.\n"+
		"SAY Fixed: removed `kelbo_tags` from `pubspec.yaml`; the narration and ambience players run on their own.")
	block := warningBlock(t, w.session("s3", nil, "do the narration and ambience players still depend on kelbo_tags?"))
	warningHolds(t, block, "Added `kelbo_tags` as a direct dependency", "kelbo_tags was removed")
}

// warningBlock is the [CONFLICT WARNINGS] block of the first request the
// session in dir sent the model; the test fails without one.
func warningBlock(t *testing.T, dir string) string {
	t.Helper()
	reqs := requests(t, dir)
	if len(reqs) == 0 {
		t.Fatal("no request reached the model")
	}
	_, block, ok := strings.Cut(reqs[0], "[CONFLICT WARNINGS]")
	if !ok {
		t.Fatalf("no conflict warning:\n%s", reqs[0])
	}
	block, _, _ = strings.Cut(block, "[/CONFLICT WARNINGS]")
	return block
}

// warningHolds checks that the conflict warnings block holds each of
// wants.
func warningHolds(t *testing.T, block string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(block, want) {
			t.Errorf("the warning lacks %q:\n%s", want, block)
		}
	}
}

// TestRealClientStaleReport: a session reads the reader's dependency list,
// which names its audio package; a later answer lists that package's
// replacement under "Key changes". A question about the package now gets
// the read as the stale side of a warning and the change as the current one.
func TestRealClientStaleReport(t *testing.T) {
	w := newWorld(t)
	deps := w.projectFile("reader-deps.txt", "Reader dependencies:\n- kelbo-av@~1.2.0 - primary audio playback library\n- quillet-ui@3.1.0 - page layout\n")
	w.session("s1", nil, "Which audio package does the reader depend on? READFILE "+deps)
	w.session("s2", nil, "Move the reader's audio playback to kelbo-audio.\n"+
		"SAY Audio refactor done. Key changes in `player.ts`:\n"+
		"SAY - `kelbo-av` → `kelbo-audio` (createPlayer, setAudioMode)")
	block := warningBlock(t, w.session("s3", nil, "which audio package does the reader use for playback now?"))
	old, now := strings.Index(block, "kelbo-av@~1.2.0"), strings.LastIndex(block, "kelbo-audio")
	if old < 0 || now < 0 || now < old || !strings.Contains(block, "replaced") {
		t.Errorf("the warning does not set the read's kelbo-av against the change to kelbo-audio:\n%s", block)
	}
}

// TestRealClientLaterRun: a session runs the kiln check and it fails on
// one test; after the fix a later session runs the same command and it
// passes. Asked whether the test still fails, the next session gets the
// failing run, which names the test, and with it the passing run, which
// does not: that is how things stand.
func TestRealClientLaterRun(t *testing.T) {
	w := newWorld(t)
	state := w.projectFile("kiln-state", "fail\n")
	check := w.projectFile("kiln-check.sh", "if grep -q fail "+state+"; then\n"+
		"  echo 'ok   kilnfx/ramp 0.21s'; echo '--- FAIL: TestConeSixHold (0.00s)'; echo 'FAIL kilnfx/hold 0.12s'; exit 1\n"+
		"fi\necho 'ok   kilnfx/ramp 0.21s'; echo 'ok   kilnfx/hold 0.12s'\n")
	w.session("s1", nil, "Run the kiln check RUNBASH sh "+check)
	w.projectFile("kiln-state", "pass\n")
	w.session("s2", nil, "Run the kiln check again RUNBASH sh "+check)
	// The prompt names the test alone: the passing run shares no word with
	// it and comes only with the failing one.
	reqs := requests(t, w.session("s3", nil, "does TestConeSixHold still fail?"))
	if len(reqs) == 0 {
		t.Fatal("no request reached the model")
	}
	if !strings.Contains(reqs[0], "--- FAIL: TestConeSixHold") || !strings.Contains(reqs[0], "ok kilnfx/hold 0.12s") {
		t.Errorf("the failing run came without the run after it:\n%s", reqs[0])
	}
}

// TestRealClientRevertedChange: a session links the kiln page's order
// buttons to checkout; in the next turn the user asks to keep them
// scrolling, and Claude reports it reverted them but the price table's.
// Asked later which buttons
// go to checkout, the next session's first request carries the warning that
// the change was undone, both statements quoted.
func TestRealClientRevertedChange(t *testing.T) {
	w := newWorld(t)
	w.session("s1", nil,
		"Link the kiln page's order buttons to the checkout page.\n"+
			"SAY Done. Pointed the kiln order buttons at the checkout page.",
		"No, keep the kiln order buttons scrolling to the price table.\n"+
			"SAY I've reverted the kiln order buttons back to scrolling. Now only the price table's button goes to the checkout page.")
	block := warningBlock(t, w.session("s2", nil, "which kiln order buttons send people to the checkout page?"))
	warningHolds(t, block, "Pointed the kiln order buttons at the checkout page", "I've reverted the kiln order buttons back to scrolling", "undid a change")
}

// TestRealClientWhichRepository: a session names the repository the docs
// sync from amid talk of the sync that shares more of the later question's
// words; in the next session the real client sends the "which repository"
// question with that statement, and a general question for a repository
// with nothing. In a store this small the words alone find the statement
// too: recall's TestWhichRepositoryShowsTheOneNamed is where the question's
// reading is what finds it.
func TestRealClientWhichRepository(t *testing.T) {
	w := newWorld(t)
	talk := []string{
		"The docs site now syncs its pages from GitHub at build time through the sync step.",
		"The GitHub sync step of the docs site fetches pages at build time; the build log shows it.",
		"Rebuilt the docs site: the GitHub sync found no new pages at build time.",
		"The docs site's build time grew by a second since the GitHub page sync was added.",
		"The docs site falls back to local pages when the GitHub sync fails at build time.",
		"Added a cache for the GitHub page sync so the docs site build time stays low.",
	}
	prompts := []string{"Is the GitHub sync connected?\nSAY Connected: the token is valid and the sync reads your `acme/docs-content` repository; it is empty for now."}
	for i, said := range talk {
		prompts = append(prompts, fmt.Sprintf("Next step %d for the docs site's GitHub sync, please.\nSAY %s", i, said))
	}
	w.session("s1", nil, prompts...)
	const (
		asked   = "Which GitHub repository does the docs site sync its pages from at build time?"
		general = "Which repository hosting service is best for open-source Haskell libraries?"
	)
	reqs := requests(t, w.session("s2", nil, general, asked))
	if r := requestWith(t, reqs, asked); injections(r) != 1 || !strings.Contains(r, "acme/docs-content") {
		t.Errorf("the statement naming the repository was not sent:\n%.3000s", r)
	}
	if r := requestWith(t, reqs, general); injections(r) != 0 {
		t.Errorf("a general question for a repository got an injection:\n%.2000s", r)
	}
}

// TestRealClientDoneRequestBringsItsEdit: a request answered only "Done."
// was done by the session's edit. In the next session a question about what
// was taken out gets the request with that edit as its answer, not the
// bare acknowledgement: the edit's removed lines name what went.
func TestRealClientDoneRequestBringsItsEdit(t *testing.T) {
	w := newWorld(t)
	before := "{\n  \"plugins\": {\n    \"glaze-sync\": {\"command\": \"node\"},\n    \"kiln-monitor\": {\"url\": \"http://localhost:3000/mcp\"}\n  }\n}\n"
	cfg := w.projectFile("kiln-desktop.json", before)
	edit := toolInput(t, map[string]string{"file_path": cfg,
		"old_string": "    \"glaze-sync\": {\"command\": \"node\"},\n", "new_string": ""})
	s1 := w.session("s1", nil, "the kiln desktop app fails to launch since I added plugins, take the glaze one out of its config\nREADFILE "+cfg+"\nCALLTOOL Edit "+edit+"\nREPLY Done. Restart the kiln desktop app.")
	toolChanged(t, s1, cfg, "glaze-sync", false)
	const asked = "The kiln desktop app would not launch after we added plugins. Which plugin did we take out of its config?"
	r := requestWith(t, requests(t, w.session("s2", nil, asked)), asked)
	if injections(r) != 1 || !strings.Contains(r, "take the glaze one out") {
		t.Fatalf("the request was not recalled:\n%.3000s", r)
	}
	// The edit's own quote names what went, not another line of the context.
	_, quote, ok := strings.Cut(r, "then: \u201cEdit: ")
	quote, _, closed := strings.Cut(quote, "\u201d")
	if !ok || !closed || !strings.Contains(quote, "glaze-sync") {
		t.Errorf("the request came without the edit that did it (edit quote %q):\n%.3000s", quote, r)
	}
}

// TestRealClientSettingHistory: a session reads a deploy config that
// publishes the project root; a later session writes it anew, publishing
// dist, and says so in a line naming the file. In a third session, shown
// one memory (recall.k 1: the read is not among them), a question about
// what the site publishes now gets the older value as a warning: the
// setting's value before, from the read, which no memory shown states.
// (The request is JSON: its quotes are escaped.)
func TestRealClientSettingHistory(t *testing.T) {
	w := newWorld(t)
	toml := w.projectFile("kiln-deploy.toml", "[build]\n  publish = \".\"\n  command = \"\"\n")
	write := toolInput(t, map[string]string{"file_path": toml, "content": "[build]\n  publish = \"dist\"\n  command = \"make site\"\n"})
	w.session("s1", nil, "READFILE "+toml+"\nREPLY Read it.")
	s2 := w.session("s2", nil, "Add a real build to the kiln site.\nREADFILE "+toml+"\nCALLTOOL Write "+write+
		"\nSAY Done: the kiln site now publishes its bundle.\nSAY - `kiln-deploy.toml` — `publish = \"dist\"`, `command = \"make site\"`")
	toolChanged(t, s2, toml, `publish = "dist"`, true)
	block := warningBlock(t, w.session("s3", []string{"CLAUDE_MEMORY_RECALL_K=1"}, "which folder does the kiln site publish these days?"))
	for _, want := range []string{`publish = \".\"`, `publish = \"dist\"`, `publish in kiln-deploy.toml: \"dist\"`, `replaced \".\"`} {
		if !strings.Contains(block, want) {
			t.Errorf("the warning lacks %s:\n%s", want, block)
		}
	}
}

// TestRealClientWriteDropsEntry: one session reads an MCP-style config
// with a server's entry, the next writes the file whole without it. Asked
// whether that server is still wired in, the third session gets the write
// beside the read, and a warning that the write left the entry's line out.
func TestRealClientWriteDropsEntry(t *testing.T) {
	w := newWorld(t)
	cfg := w.projectFile("kiln-servers.json", "{\n  \"servers\": {\n    \"glazebot\": {\n      \"url\": \"http://localhost:4100/mcp\"\n    }\n  },\n  \"theme\": \"dark\"\n}\n")
	write := toolInput(t, map[string]string{"file_path": cfg, "content": "{\n  \"servers\": {},\n  \"theme\": \"dark\"\n}\n"})
	w.session("s1", nil, "READFILE "+cfg+"\nREPLY Read it.")
	s2 := w.session("s2", nil, "Pull the bot out of the config.\nCALLTOOL Write "+write+"\nSAY Done.")
	toolChanged(t, s2, cfg, "glazebot", false)
	block := warningBlock(t, w.session("s3", nil, "is glazebot still wired in?"))
	for _, want := range []string{`\"glazebot\": {`, `\"servers\": {},`, "left the first line out"} {
		if !strings.Contains(block, want) {
			t.Errorf("the warning lacks %s:\n%s", want, block)
		}
	}
}

// TestRealClientNamedConfigAsItStands: a session takes a plugin out of a
// config file with an edit; a later one writes the file whole, emptied. A
// third session asking what is left in the file, by its name, gets the
// write: the file as it stands.
func TestRealClientNamedConfigAsItStands(t *testing.T) {
	w := newWorld(t)
	cfg := w.projectFile("kiln_desktop.json", "{\n  \"plugins\": {\n    \"glaze-sync\": {\"command\": \"node\"},\n    \"kiln-monitor\": {\"url\": \"http://localhost:3000/mcp\"}\n  }\n}\n")
	edit := toolInput(t, map[string]string{"file_path": cfg, "old_string": "    \"glaze-sync\": {\"command\": \"node\"},\n", "new_string": ""})
	write := toolInput(t, map[string]string{"file_path": cfg, "content": "{\n  \"plugins\": {},\n  \"theme\": \"dark\"\n}\n"})
	w.session("s1", nil, "the kiln desktop app fails to launch since I added plugins to kiln_desktop.json, take the glaze one out\nCALLTOOL Edit "+edit+"\nREPLY Done. Restart the kiln desktop app.")
	s2 := w.session("s2", nil, "Still no launch. Empty it.\nCALLTOOL Write "+write+"\nSAY Done.")
	toolChanged(t, s2, cfg, "kiln-monitor", false)
	got := lastInjection(t, w.session("s3", nil, "What's left in my kiln_desktop.json after all the launch failures?"))
	if !strings.Contains(got, `\"plugins\": {},`) {
		t.Errorf("the file's newest write was not recalled:\n%s", got)
	}
}

// TestRealClientEditOfOneSubstitution: a session arms the kiln's three
// alarms with one edit that flips the same flag on each line. In the next
// session a question about whether they start armed gets that change as a
// warning, though no line of it names more of the question than another.
func TestRealClientEditOfOneSubstitution(t *testing.T) {
	w := newWorld(t)
	old := "  door: { armed: false, level: 1 }, // the loudest\n  vent: { armed: false, level: 2 },\n  fan: { armed: false, level: 3 }\n"
	js := w.projectFile("alarms.js", "const alarms = {\n"+old+"};\nmodule.exports = alarms;\n")
	edit := toolInput(t, map[string]string{"file_path": js, "old_string": old, "new_string": strings.ReplaceAll(old, "armed: false", "armed: true")})
	s1 := w.session("s1", nil, "Arm the kiln alarms by default.\nREADFILE "+js+"\nCALLTOOL Edit "+edit+"\nREPLY Done.")
	toolChanged(t, s1, js, "armed: true", true)
	block := warningBlock(t, w.session("s2", nil, "Are the three kiln alarms armed out of the box in alarms.js, or do they start off?"))
	old1, now := strings.Index(block, "armed: false"), strings.LastIndex(block, "armed: true")
	if old1 < 0 || now < 0 || now < old1 {
		t.Errorf("the warning does not set the flag before against the flag after:\n%s", block)
	}
}

// TestRealClientWriteReplacesARun: a session reads the kiln's env schema,
// then writes it whole with its four variables replaced by one. In the
// next session a question about which variables it checks now gets a
// warning setting the four against the one.
func TestRealClientWriteReplacesARun(t *testing.T) {
	w := newWorld(t)
	ts := w.projectFile("env.ts", "export const env = schema({\n  KILN_URL: z.string().min(1),\n  KILN_TOKEN: z.string().min(1),\n"+
		"  GLAZE_SECRET: z.string().min(1),\n  GLAZE_ID: z.string().min(1),\n});\n")
	write := toolInput(t, map[string]string{"file_path": ts, "content": "export const env = schema({\n  OVEN_KEY: z.string().min(1),\n});\n"})
	s1 := w.session("s1", nil, "Move the kiln env schema to the oven key.\nREADFILE "+ts+"\nCALLTOOL Write "+write+"\nREPLY Done.")
	toolChanged(t, s1, ts, "OVEN_KEY", true)
	block := warningBlock(t, w.session("s2", nil, "Which variables does the kiln env.ts schema check for now?"))
	old, now := strings.Index(block, "KILN_TOKEN"), strings.LastIndex(block, "OVEN_KEY")
	if old < 0 || now < 0 || now < old || !strings.Contains(block, "a write of env.ts") {
		t.Errorf("the warning does not set the four variables against the one:\n%s", block)
	}
}

// TestRealClientLongEditKeepsItsChange: a session edits a long block of a
// stylesheet in which one line deep inside changes: the capture keeps that
// line and its neighbours (the edit's diff), where the edit's first 700 and
// last 300 bytes would have left it out. In the next session a question
// about that setting gets the edit's change as a warning.
func TestRealClientLongEditKeepsItsChange(t *testing.T) {
	w := newWorld(t)
	var before, after strings.Builder
	for i := range 60 {
		line := fmt.Sprintf("  --kiln-step-%02d: %dpx;\n", i, 4*i)
		if i == 40 {
			before.WriteString("  --kiln-shelf-border: 1px solid #d4d4d4;\n")
			after.WriteString("  --kiln-shelf-border: 1px solid #000000;\n")
			continue
		}
		before.WriteString(line)
		after.WriteString(line)
	}
	css := w.projectFile("shelves.css", ":root {\n"+before.String()+"}\n")
	edit := toolInput(t, map[string]string{"file_path": css, "old_string": before.String(), "new_string": after.String()})
	s1 := w.session("s1", nil, "Darken the shelf border.\nREADFILE "+css+"\nCALLTOOL Edit "+edit+"\nREPLY Done.")
	toolChanged(t, s1, css, "#000000", true)
	block := warningBlock(t, w.session("s2", nil, "which shelf border does shelves.css set now?"))
	old, now := strings.Index(block, "1px solid #d4d4d4"), strings.LastIndex(block, "1px solid #000000")
	if old < 0 || now < old {
		t.Errorf("the warning does not set the border before against the border after:\n%s", block)
	}
}
