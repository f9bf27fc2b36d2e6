package recall

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/observation"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
	"github.com/tidwall/gjson"
)

// warnEdits runs one of the warnings that compare edits and writes with
// the files' snapshots sel shows, as Warnings does, nothing paired yet.
func warnEdits(warn func([]Item, []shown, map[[2]int64]bool) []Warning, sel []Item) []Warning {
	return warn(sel, snapshots(sel), map[[2]int64]bool{})
}

func TestChangedLine(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, removed, added, opener string
		want                         bool
	}{
		{"a bound", "assert 0.3 < drift < 0.9", "assert 0.15 < drift < 0.9", "#", true},
		{"a version", `quill = { version = "1.4", features = ["wide"] }`, `quill = { version = "2.0.0-rc.3", features = ["wide"] }`, "#", true},
		{"a string", `glaze = 'matte-blue'`, `glaze = 'satin-green'`, "#", true},
		{"a base class dropped", "class Glaze(str, Enum):", "class Glaze(Enum):", "#", true},
		{"an owner in a URL", "git remote add upstream https://example.test/kiln/glaze.git", "git remote add upstream https://example.test/oven/glaze.git", "#", true},
		{"a rename", "return kilnTemp(x)", "return ovenTemp(x)", "//", true},
		{"rewritten", "return kilnTemp(x) + 1", "log.Println(ovenTemp)", "//", false},
		{"data, no name", "1, 2, 3", "1, 2, 4", "", false},
		{"the same line", "limit = 4", "limit = 4", "#", false},
		{"most of it new", "limit = 4", "limit = 4 days per kiln run", "#", false},
		{"spacing only", "x=fire(a,b)", "x = fire(a, b)", "#", false},
		{"a tab only", "timeout\t= 30", "timeout = 30", "#", false},
		{"case only", "use Kiln here", "use kiln here", "#", false},
		{"a comment", "# TODO fix the kiln", "# TODO fix the oven", "#", false},
		{"a trailing comment", "timeout = 30 # slow kiln", "timeout = 30 # fast kiln", "#", false},
		{"a value before a comment", "timeout = 30 # kiln", "timeout = 45 # kiln", "#", true},
		{"a value set with its reason", "timeout: ${TIMEOUT:30}", "timeout: ${TIMEOUT:120} # for model loading", "#", true},
		{"a hash word in a comment", "retries = 3 #bad", "retries = 3 #add", "#", false},
		{"a hash in a string", `title: "Build #12 green"`, `title: "Build #19 green"`, "#", true},
		{"floor division, no comment", "chunk = size // 2", "chunk = size // 4", "#", true},
		{"a slash comment", "const cone = 6 // kiln", "const cone = 6 // oven", "//", false},
		{"SQL commented out", "--SET statement_timeout = '30s';", "--SET statement_timeout = '60s';", "--", false},
		{"a CSS custom property", "--brand: #0284c7;", "--brand: #D96E4B;", "", true},
		{"a CSS id", "#main { color: #0284c7; }", "#main { color: #D96E4B; }", "", true},
		{"a trailing comma", `"kiln": "V2"`, `"kiln": "V2",`, "//", false},
		{"imports sorted", "from kiln.io import read_glaze, glaze_to_image", "from kiln.io import glaze_to_image, read_glaze", "#", false},
		{"values swapped", "margin: 0 8px;", "margin: 8px 0;", "", true}, // review 207
		{"a list put out of order", "plugins = [glaze, kiln]", "plugins = [kiln, glaze]", "#", true},
		{"a value with its comma", `"kiln": "V2",`, `"kiln": "V3",`, "//", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := changedLine(tt.removed, tt.added, tt.opener, false); got != tt.want {
				t.Errorf("changedLine(%q, %q, %q) = %v, want %v", tt.removed, tt.added, tt.opener, got, tt.want)
			}
		})
	}
	// The sole line an edit changed is changed in more places than one;
	// rewritten, it is still no change.
	for _, tt := range []struct {
		removed, added string
		sole, want     bool
	}{
		{`"https://api.kiln.test/v1/glazes/search",`, `"https://api.kiln.test/api/v1/glazes/api_search",`, true, true},
		{`"https://api.kiln.test/v1/glazes/search",`, `"https://api.kiln.test/api/v1/glazes/api_search",`, false, false},
		{"return kilnTemp(x) + 1", "log.Println(ovenTemp)", true, false},
	} {
		if got := changedLine(tt.removed, tt.added, "//", tt.sole); got != tt.want {
			t.Errorf("changedLine(%q, %q, sole %v) = %v, want %v", tt.removed, tt.added, tt.sole, got, tt.want)
		}
	}
}

// TestValueSetAnew: a setting's value rewritten whole is one change of
// that setting, the name saying what is set; a URL, a selector, Go's ":=",
// a comparison or a label with prose after it is no setting.
func TestValueSetAnew(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, removed, added, opener string
		want                         bool
	}{
		{"a CSS value rewritten whole", "color: var(--kiln-600);", "color: #0066cc;", "", true},
		{"a colour of a function's arguments", "color: red;", "color: rgba(0, 0, 0, 0.5);", "", true},
		{"an image rewritten whole", "image: kiln:1.4", "image: ghcr.io/oven/glaze:2.0", "#", true},
		{"a quoted key's value rewritten", `"engine": "kelbo-v1",`, `"engine": "quillet/next@2",`, "//", true},
		{"a listed key's value rewritten", "- glaze: matte", "- glaze: ${GLAZE:-satin/green}", "#", true},
		{"two words of a value", "margin: 0 8px;", "margin: var(--kiln-gap) auto;", "", true},
		{"another name", "color: var(--kiln-600);", "background: #0066cc;", "", false},
		{"the same value", "color: #0066cc;", "color:  #0066cc;", "", false},
		{"a label with prose after it", "TODO: fix the kiln", "TODO: remove the glaze hack (#12)", "", false},
		{"an answer", "A: Yes.", "A: No, not yet.", "", false},
		{"a URL", "https://kiln.test/glaze/guide", "https://glaze.test/tools/index.html", "", false},
		{"Go's :=", "err := db.Open(glazePath)", "err := json.Unmarshal(glazeBytes, &kilnCfg)", "//", false},
		{"a comparison", "x == 1", "x == fire(a, b)", "#", false},
		{"a selector", "li:first-child {", "li:nth-child(2n+1) {", "", false},
		{"a key of two words", "if kiln = fire(a)", "if kiln = glaze(b, c, d, e)", "#", false},
		{"commented out", "# color: var(--kiln-600)", "# color: #0066cc", "#", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := valueSetAnew(tt.removed, tt.added, tt.opener); got != tt.want {
				t.Errorf("valueSetAnew(%q, %q, %q) = %v, want %v", tt.removed, tt.added, tt.opener, got, tt.want)
			}
		})
	}
}

// TestLineComment: what opens a comment to a line's end, by the file's
// kind.
func TestLineComment(t *testing.T) {
	t.Parallel()
	for file, want := range map[string]string{
		"/kiln/app.py": "#", "/kiln/values.YAML": "#", "/kiln/.env": "#", "/kiln/Dockerfile": "#",
		`C:\kiln\main.go`: "//", "/kiln/app.tsx": "//", "/kiln/q.sql": "--",
		"/kiln/theme.css": "", "/kiln/README.md": "", "/kiln/data.json": "", "/kiln/NOTES": "",
	} {
		if got := lineComment(file); got != want {
			t.Errorf("lineComment(%q) = %q, want %q", file, got, want)
		}
	}
}

func TestEditChanges(t *testing.T) {
	t.Parallel()
	edit := "Edit: /src/kiln/config.toml\n- # kiln\n- cone = 6\n- name = \"west\"\n+ # kiln\n+ cone = 8\n+ name = \"west\""
	got, _ := editChanges(edit)
	if len(got) != 1 || got[0].file != "config.toml" || got[0].removed != "cone = 6" || got[0].added != "cone = 8" {
		t.Errorf("editChanges = %+v, want config.toml's cone 6 made 8", got)
	}
	if got, _ := editChanges(`Edit: C:\kiln\config.toml` + "\n- cone = 6\n+ cone = 8"); len(got) != 1 || got[0].file != "config.toml" {
		t.Errorf("a Windows path: %+v", got)
	}
	// A value set with its reason beside it is a change; a colour is a
	// value, not a comment.
	for text, want := range map[string][2]string{
		"Edit: /api/config/scanners.yml\n- timeout: ${TIMEOUT:30}\n- lazy: true\n+ timeout: ${TIMEOUT:120} # for model loading\n+ lazy: true # load on first request": {"timeout: ${TIMEOUT:30}", "timeout: ${TIMEOUT:120} # for model loading"},
		"Edit: /web/theme.css\n- --brand: #0284c7; /* main */\n+ --brand: #D96E4B; /* main */":                                                                        {"--brand: #0284c7; /* main */", "--brand: #D96E4B; /* main */"},
	} {
		if got, _ := editChanges(text); len(got) != 1 || got[0].removed != want[0] || got[0].added != want[1] {
			t.Errorf("editChanges(%q) = %+v, want %q made %q", text, got, want[0], want[1])
		}
	}
	// A comment changed alone sets nothing.
	if got, _ := editChanges("Edit: /a/app.yml\n- retries: 3 # was 2\n+ retries: 3 # keep low"); got != nil {
		t.Errorf("a comment read as a change: %+v", got)
	}
	// One line changed among lines the edit kept is its sole change, which
	// may differ in more than one place (a URL's host and path).
	if got, other := editChanges("Edit: /deploy/kiln.yml\n  name: kiln\n- url: https://old.kiln.test/api/v1/glaze\n+ url: https://new.kiln.test/api/v2/glaze\n  port: 80"); len(got) != 1 || other != 0 {
		t.Errorf("one line changed among kept ones: %+v, %d other", got, other)
	}
	// A comment rewritten beside a value is no line added or dropped.
	if got, other := editChanges("Edit: /web/theme.css\n- /* kiln palette */\n+ /* ember palette */\n  body {\n-   background: #f5f5f5;\n+   background: #ffffff;\n  }"); len(got) != 1 || other != 0 {
		t.Errorf("a comment rewritten beside a value: %+v, %d other", got, other)
	}
	// A line inserted beside a like one replaces nothing.
	if got, _ := editChanges("Edit: /a/main.py\n- import os\n+ import json\n+ import os"); got != nil {
		t.Errorf("an inserted line read as a change: %+v", got)
	}
	for name, text := range map[string]string{
		"cut when stored": "Edit: /src/kiln/owners.yml\n- owner: kiln\n[… 1105 bytes cut …]\n+ owner: oven",
		"a command run":   "Bash: sed -i s/6/8/ config.toml\n- cone = 6\n+ cone = 8",
		"a failed edit":   "Edit: /src/kiln/config.toml (error)\n- cone = 6\n+ cone = 8\n<tool_use_error>File has not been read yet.</tool_use_error>",
		"a rewrite":       "Edit: /src/kiln/fire.go\n- cone = 6\n+ cone = 8\n+ heat()\n+ cool()\n+ log()",
	} {
		if got, _ := editChanges(text); got != nil {
			t.Errorf("%s read as a change in place: %+v", name, got)
		}
	}
}

// TestEditWarnsWithTheLineItReplaced: an earlier answer states a setting,
// a later edit of the file changes it; a question about it now gets both,
// and the warning saying the edit replaced the line. The texts are made up.
func TestEditWarnsWithTheLineItReplaced(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "a", day, "Which glaze does the kiln layout use?", `The kiln layout sets glaze = "matte-blue" for every tile.`)
	for i, text := range []string{
		"Edit: /kiln/src/layout.tsx\n- glaze = \"matte-blue\"\n+ glaze = \"satin-green\"",
		"Edit: /kiln/src/tiles.tsx (error)\n- glaze = \"matte-blue\"\n+ glaze = \"ash-grey\"\n<tool_use_error>File has not been read yet.</tool_use_error>",
	} {
		ev := store.Event{Time: day.Add(time.Duration(i+1) * time.Hour), Type: store.TypeToolObservation, SessionID: "b", Project: proj,
			DedupeKey: "edit:" + string(rune('a'+i)), Text: text}
		if err := db.Update(context.Background(), func(tx *store.Tx) error { _, err := tx.Append(context.Background(), ev); return err }); err != nil {
			t.Fatal(err)
		}
	}
	got := recallFor(t, db, defaults(), "which glaze does our kiln layout use now?")
	_, block, ok := strings.Cut(got, ConflictOpen)
	if !ok || !strings.Contains(block, `“glaze = "matte-blue"” became “glaze = "satin-green"”: an edit of layout.tsx`) {
		t.Errorf("want the edit's change in a warning:\n%s", got)
	}
	if strings.Contains(block, "ash-grey") || strings.Contains(got, "in part replaced") {
		t.Errorf("a failed edit warned, or the edit marked replaced by itself:\n%s", got)
	}
}

// TestEditWarnsOfAValueRewrittenWhole: an edit that set a stylesheet
// rule's colour anew, from a variable to a literal, warns with the line it
// replaced when the prompt asks the colour: the key names what is set,
// however many of the value's tokens changed. The texts are made up.
func TestEditWarnsOfAValueRewrittenWhole(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	storeRuns(t, db, "b", day, "Edit: /kiln/docs/showcase.html\n  .btn-kiln {\n-   color: var(--glaze-600);\n+   color: #0066cc;\n  }\n  .btn-kiln:hover {\n-   color: var(--glaze-700);\n+   color: #004499;\n  }")
	got := recallFor(t, db, defaults(), "what color does the kiln button in our showcase use?")
	if _, block, ok := strings.Cut(got, ConflictOpen); !ok || !strings.Contains(block, "“color: var(--glaze-600);” became “color: #0066cc;”: an edit of showcase.html") {
		t.Errorf("want the edit's change in a warning:\n%s", got)
	}
}

// TestEditWarnsOfWhatIsAsked: an edit recalled for a prompt its changed
// line does not answer (the kiln config's output folder, asked its firing
// schedule) is shown without a warning; asked about the folder, it warns.
// The texts are made up.
func TestEditWarnsOfWhatIsAsked(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	storeRuns(t, db, "b", day, "Edit: /kiln/kilnctl.toml\n- output_dir = \".kiln-cache\"\n+ output_dir = \"out\"")
	got := recallFor(t, db, defaults(), "what firing schedule does our kilnctl.toml set?")
	if !strings.Contains(got, "output_dir") || strings.Contains(got, ConflictOpen) {
		t.Errorf("want the edit shown without a warning:\n%s", got)
	}
	got = recallFor(t, db, defaults(), "which output folder does our kilnctl.toml set now?")
	if _, block, ok := strings.Cut(got, ConflictOpen); !ok || !strings.Contains(block, `“output_dir = ".kiln-cache"” became “output_dir = "out"”`) {
		t.Errorf("want the edit's change in a warning:\n%s", got)
	}
}

// TestEditChangedAgain: of two edits shown that changed one line and then
// changed it back, only the newer warns: the older's line is not current.
func TestEditChangedAgain(t *testing.T) {
	t.Parallel()
	edit := func(id int64, at time.Time, text string) Item {
		ev := store.Event{ID: id, Time: at, Type: store.TypeToolObservation, Text: text}
		it := messageItem(ev, strings.SplitN(text, "\n", 2)[1])
		return it
	}
	sel := []Item{
		edit(1, day, "Edit: /kiln/x.toml\n- cone = 6\n+ cone = 8"),
		edit(2, day.Add(time.Hour), "Edit: /kiln/x.toml\n- cone = 8\n+ cone = 6"),
	}
	ws := warnEdits(editWarnings, sel)
	if len(ws) != 1 || ws[0].A.Title != "cone = 8" || ws[0].B.Title != "cone = 6" {
		t.Errorf("editWarnings = %+v, want only the newer edit's 8 made 6", ws)
	}
	// A newer read or write shown that lacks the line an edit added says
	// it changed again too.
	for _, newer := range []string{"Read: /kiln/x.toml\n     1→cone = 9\n", "Write: /kiln/x.toml\n+ cone = 9"} {
		sel := []Item{edit(1, day, "Edit: /kiln/x.toml\n- cone = 6\n+ cone = 8"), edit(2, day.Add(time.Hour), newer)}
		if ws := warnEdits(editWarnings, sel); len(ws) != 0 {
			t.Errorf("%q shows the line changed again, yet the edit warned: %+v", newer, ws)
		}
	}
}

// TestEditWarningLongLine: a change past a long line's first 160 bytes is
// quoted from a little before it, not clipped away from both sides.
func TestEditWarningLongLine(t *testing.T) {
	t.Parallel()
	head := strings.Repeat("kiln_setting_", 15)
	a, b := diffWindow(head+"cone = 6", head+"cone = 8", editQuote)
	if a == b || !strings.HasSuffix(a, "cone = 6") || !strings.HasSuffix(b, "cone = 8") || !strings.HasPrefix(a, "…") {
		t.Errorf("diffWindow = %q, %q", a, b)
	}
}

// TestEditWarningLeftOutWhenNoRoom: an edit whose warning does not fit is
// listed without it, not left out.
func TestEditWarningLeftOutWhenNoRoom(t *testing.T) {
	t.Parallel()
	first := messageItem(store.Event{ID: 6, Time: day, Type: store.TypeAgentResponse, Text: "The kiln fires at cone 6 on weekdays."},
		"The kiln fires at cone 6 on weekdays.")
	text := "Edit: /kiln/x.toml\n- cone = 6\n+ cone = 8"
	it := messageItem(store.Event{ID: 7, Time: day, Type: store.TypeToolObservation, Text: text}, text)
	ws := warnEdits(editWarnings, []Item{first, it})
	if len(ws) != 1 {
		t.Fatalf("editWarnings = %+v", ws)
	}
	wide := Render([]Item{first, it}, ws, Blocks{}, 4000)
	if len(wide.Shown) != 2 || !strings.Contains(wide.Text, "became") {
		t.Fatalf("with room both and the warning are listed:\n%s", wide.Text)
	}
	tight := Render([]Item{first, it}, ws, Blocks{}, len(wide.Text)-40)
	if len(tight.Shown) != 2 || strings.Contains(tight.Text, "became") {
		t.Errorf("without room: want the edit listed without its warning, got %v:\n%s", tight.Shown, tight.Text)
	}
}

// FuzzSnapshot: reading a stored read or write as a file's snapshot never
// panics; its lines are lines of the text, and a diff of two snapshots
// holds only lines of either.
func FuzzSnapshot(f *testing.F) {
	for _, s := range []string{
		"Read: /kiln/A.kt\n     1→package kiln\n     2→\n     3→class A : B()\n",
		"Write: /kiln/A.kt\n+ package kiln\n+ \n+ class A : C()\n+",
		"Read: /kiln/t.tsv\n1\tlow\t10\n2\thigh\n",
		"Read: /a\n     7→x\n",
		"Write: /a (error)\n+ x",
		"Read: \xff\n\x001\t\xfe\n",
	} {
		f.Add(s, "Write: /kiln/A.kt\n+ package kiln\n+ class A : B()")
	}
	f.Fuzz(func(t *testing.T, older, newer string) {
		fa, la, _ := snapshot(older)
		fb, lb, _ := snapshot(newer)
		for _, l := range la {
			if !strings.Contains(older, l) {
				t.Errorf("snapshot(%q) made up the line %q", older, l)
			}
		}
		if fa == "" || fb == "" {
			return
		}
		diff, ok := snapshotDiff(fb, la, lb)
		if !ok {
			return
		}
		for _, c := range func() []editChange { cs, _ := editChanges(diff); return cs }() {
			if !slices.Contains(la, c.removed) || !slices.Contains(lb, c.added) {
				t.Errorf("a change %+v of lines neither snapshot holds", c)
			}
		}
	})
}

// FuzzEditChanges: reading a stored edit for its changes never panics,
// and every change pairs a line the edit removed with one it added, the
// two different.
func FuzzEditChanges(f *testing.F) {
	for _, s := range []string{
		"Edit: /src/kiln/config.toml\n- # kiln\n- cone = 6\n+ # kiln\n+ cone = 8",
		"MultiEdit: C:\\kiln\\x.py\n- class Glaze(str, Enum):\n+ class Glaze(Enum):\n- a = 1\n+ a = 2",
		"Edit: /a (error)\n- x\n+ y",
		"Edit: /a\n- \xff\xfe = 1\n+ \xff\xfe = 2 # \x00",
		"Edit: \n- \n+ ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		_, body, _ := strings.Cut(text, "\n")
		lines := "\n" + body + "\n"
		changes, other := editChanges(text)
		if other < 0 || other > maxEditOther && changes != nil {
			t.Errorf("editChanges(%q): %d other lines, and changes %+v", text, other, changes)
		}
		for _, c := range changes {
			if c.removed == c.added || !strings.Contains(lines, c.removed) || !strings.Contains(lines, c.added) {
				t.Errorf("editChanges(%q): change %+v is no pair of its lines", text, c)
			}
			old, new := diffWindow(c.removed, c.added, editQuote)
			if len(old) > 4*editQuote+8 || len(new) > 4*editQuote+8 {
				t.Errorf("diffWindow quotes %d and %d bytes", len(old), len(new))
			}
		}
	})
}

// saidAt is an answer of the assistant with event id id, said id minutes
// into the day, shown whole.
func saidAt(id int64, text string) Item {
	return messageItem(store.Event{ID: id, Time: day.Add(time.Duration(id) * time.Minute), Type: store.TypeAgentResponse, Text: text}, text)
}

// TestWarningWithTheContextItReplaces: a warning that replaces what a
// listed memory's "then:" line says comes with that memory, as a warning
// about the memory itself does: it is not left out because later memories
// filled the room.
func TestWarningWithTheContextItReplaces(t *testing.T) {
	t.Parallel()
	first := saidAt(1, "All done: the kiln reader is rewritten.")
	then := store.Event{ID: 2, Time: day.Add(2 * time.Minute), Type: store.TypeAgentResponse, Text: "The reader calls `/v1/kilns`."}
	first.Context, first.ContextExcerpt = &then, then.Text
	newer := saidAt(3, "The endpoint should be `/api/v2/kilns` (not `/v1/kilns`).")
	filler := saidAt(4, strings.Repeat("The glaze notes go on about the kiln's tiles. ", 8))
	w := Warning{Severity: "HIGH", Kind: "superseded", A: Memory{CID: store.EventCID(2), Date: then.Time, Title: then.Text},
		B: Memory{CID: newer.CID, Date: newer.Time, Title: newer.Excerpt}, Note: "path: /api/v2/kilns replaced /v1/kilns."}
	items := []Item{first, newer, filler}
	plain := Render(items, nil, Blocks{}, 4000)
	got := Render(items, []Warning{w}, Blocks{}, len(plain.Text)+40)
	if !strings.Contains(got.Text, ConflictOpen) || !strings.Contains(got.Text, "was replaced by") {
		t.Fatalf("the warning was left out for a later memory:\n%s", got.Text)
	}
	if slices.Contains(got.Shown, filler.CID) {
		t.Errorf("want the last memory to give way to the warning, shown %v", got.Shown)
	}
}

// TestContextWarningNeverShortens: a warning about what a memory's "then:"
// line said does not cut the memory to its short form, nor push it out,
// when the two do not fit: the memory is listed in full without it, and
// without the line it said was replaced.
func TestContextWarningNeverShortens(t *testing.T) {
	t.Parallel()
	then := store.Event{ID: 9, Time: day, Type: store.TypeUserPrompt, Text: "Which endpoint does the kiln reader call?"}
	first, second := saidAt(1, "The kiln reader calls `/v1/kilns` for each tile."), saidAt(2, "The glaze reader calls `/v1/glazes` once.")
	for _, it := range []*Item{&first, &second} {
		it.Context, it.ContextExcerpt = &then, then.Text
	}
	w := Warning{Severity: "HIGH", Kind: "superseded", A: Memory{CID: store.EventCID(9), Date: then.Time, Title: then.Text},
		B: Memory{CID: second.CID, Date: second.Time, Title: second.Excerpt}, Note: "the kiln reader moved."}
	items := []Item{first, second}
	plain := Render(items, nil, Blocks{}, 4000)
	got := Render(items, []Warning{w}, Blocks{}, len(plain.Text)+25)
	if len(got.Shown) != 2 || !strings.Contains(got.Text, first.Excerpt) || !strings.Contains(got.Text, second.Excerpt) ||
		strings.Contains(got.Text, then.Text) || strings.Contains(got.Text, ConflictOpen) {
		t.Errorf("want both memories in full, without the line the warning replaced, and no warning; got %v:\n%s", got.Shown, got.Text)
	}
}

// withKilnThen is an answer listed with a long "then:" line, the message of
// event 9, that states /v1/kilns.
func withKilnThen(text string) (Item, store.Event) {
	then := store.Event{ID: 9, Time: day, Type: store.TypeAgentResponse,
		Text: "The kiln reader calls /v1/kilns for every tile it draws, " + strings.Repeat("one request per glaze layer, ", 5)}
	it := saidAt(1, text)
	it.Context, it.ContextExcerpt = &then, then.Text
	return it, then
}

// TestDroppedThenLineDropsItsWarning: at any budget, a warning about what a
// memory's "then:" line said is not printed once that line is left out
// for room, unless another memory listed states the replaced value.
func TestDroppedThenLineDropsItsWarning(t *testing.T) {
	t.Parallel()
	first, then := withKilnThen("The kiln reader is rewritten.")
	w := Warning{Severity: "HIGH", Kind: "superseded", A: Memory{CID: store.EventCID(9), Date: then.Time, Title: "calls /v1/kilns"},
		B: Memory{CID: "mem:t5", Date: day.Add(time.Hour), Title: "The reader calls /api/v2/kilns now."}, Old: "/v1/kilns",
		Note: "path: /api/v2/kilns replaced /v1/kilns."}
	plain := Render([]Item{first}, nil, Blocks{}, 4000)
	for budget := len(plain.Text) - 200; budget < len(plain.Text)+800; budget += 10 {
		got := Render([]Item{first}, []Warning{w}, Blocks{}, budget)
		if strings.Contains(got.Text, ConflictOpen) && !strings.Contains(got.Text, "for every tile") {
			t.Fatalf("budget %d: the warning explains a then-line not shown:\n%s", budget, got.Text)
		}
	}
	// Another memory states the old value: the warning explains that one.
	other := saidAt(2, "The tile cache still reads /v1/kilns.")
	seen := false
	for budget := len(plain.Text) - 200; budget < len(plain.Text)+800; budget += 10 {
		got := Render([]Item{first, other}, []Warning{w}, Blocks{}, budget)
		seen = seen || strings.Contains(got.Text, ConflictOpen) && !strings.Contains(got.Text, "for every tile")
	}
	if !seen {
		t.Errorf("the warning was never printed for the other memory's old value")
	}
}

// TestShortFormHidesItsThenLine: the best memory shown in short form shows
// no "then:" line, so a value only that line states is not shown, and a
// warning about it is not printed.
func TestShortFormHidesItsThenLine(t *testing.T) {
	t.Parallel()
	first, _ := withKilnThen("The kiln reader is rewritten lazily.")
	gone := saidAt(2, strings.Repeat("The glaze notes go on about the kiln's tiles. ", 12))
	own := Warning{Severity: "HIGH", Kind: "superseded", A: Memory{CID: first.CID, Date: first.Time, Title: "rewritten lazily"},
		B: Memory{CID: "mem:t7", Date: day.Add(time.Hour), Title: "The reader is rewritten eagerly now."}, Note: "eagerly now."}
	other := Warning{Severity: "HIGH", Kind: "superseded", A: Memory{CID: gone.CID, Date: gone.Time, Title: "glaze notes"},
		B: Memory{CID: "mem:t8", Date: day.Add(time.Hour), Title: "Tiles read /api/v2/kilns."}, Old: "/v1/kilns", Note: "path changed."}
	for budget := 200; budget < 2000; budget += 5 {
		got := Render([]Item{first, gone}, []Warning{own, other}, Blocks{}, budget)
		if strings.Contains(got.Text, "Tiles read") && !strings.Contains(got.Text, "for every tile") && !slices.Contains(got.Shown, gone.CID) {
			t.Fatalf("budget %d: a warning rests on a then-line the short form hides:\n%s", budget, got.Text)
		}
	}
}

// TestEditOfManyLinesWarnsOfTheOneAsked: an edit that sets many things at
// once (a whole palette) warns of the changed line naming what the prompt
// asks about, and of none when no line names more of it than the others.
// The texts are made up.
func TestEditOfManyLinesWarnsOfTheOneAsked(t *testing.T) {
	t.Parallel()
	var edit strings.Builder
	edit.WriteString("Edit: /kiln/docs/glazes.css\n")
	for _, tone := range []string{"50", "100", "200", "300", "400", "500"} {
		fmt.Fprintf(&edit, "- --glaze-ember-%s: #1e293b;\n", tone)
	}
	edit.WriteString("- --glaze-ember-600: #0284c7; /* kiln door accent */\n")
	for _, tone := range []string{"50", "100", "200", "300", "400", "500"} {
		fmt.Fprintf(&edit, "+ --glaze-ember-%s: #d96e4b;\n", tone)
	}
	edit.WriteString("+ --glaze-ember-600: #b85a3a; /* kiln door accent */")
	if got, other := editChanges(edit.String()); len(got) != 7 || other != 0 {
		t.Fatalf("editChanges = %d changes, want every line changed in place", len(got))
	}
	db := storetest.Open(t)
	filler(t, db)
	storeRuns(t, db, "b", day, edit.String())
	got := recallFor(t, db, defaults(), "which colour is our kiln door accent in glazes.css now?")
	_, block, ok := strings.Cut(got, ConflictOpen)
	if !ok || !strings.Contains(block, "“--glaze-ember-600: #0284c7; /* kiln door accent */” became “--glaze-ember-600: #b85a3a; /* kiln door accent */”") {
		t.Errorf("want the accent's line in a warning:\n%s", got)
	}
	if got := recallFor(t, db, defaults(), "which ember glaze tones are in our glazes.css now?"); !strings.Contains(got, "glaze-ember-600") || strings.Contains(got, ConflictOpen) {
		t.Errorf("want the edit shown and no warning, for no line names more of the prompt than another:\n%s", got)
	}
}

// TestEditOfManyLinesWarnsOfTheLineShownBefore: an edit that changed many
// lines of a stylesheet, two of them naming the border the prompt asks
// about in two ways, warns of the one an earlier read shown still states:
// there the older line would be taken for current. The same substitution
// made on two lines is one change. Without the read, no line stands out
// and nothing warns. The texts are made up.
func TestEditOfManyLinesWarnsOfTheLineShownBefore(t *testing.T) {
	t.Parallel()
	edit := "Edit: /kiln/web/src/kiln.css\n  .kiln-card {\n-   border: 1px solid #d4d4d4;\n+   border: 1px solid #000000;\n    border-radius: 12px;\n  …\n  .kiln-input {\n-   border: 1px solid #d4d4d4;\n+   border: 1px solid #000000;\n-   color: #171717;\n+   color: #000000;\n  }\n  .kiln-input:focus {\n-   border-color: #171717;\n+   border-color: #f16826;\n  }"
	read := "Read: /kiln/web/src/kiln.css\n1\t.kiln-card {\n2\t  border: 1px solid #d4d4d4;\n3\t  border-radius: 12px;\n4\t}"
	prompt := "which border do the kiln cards and inputs use now?"
	for _, withRead := range []bool{true, false} {
		db := storetest.Open(t)
		filler(t, db)
		if withRead {
			storeRuns(t, db, "a", day, read)
		}
		storeRuns(t, db, "b", day.Add(time.Hour), edit)
		got := recallFor(t, db, defaults(), prompt)
		_, block, warned := strings.Cut(got, ConflictOpen)
		if withRead && (!warned || !strings.Contains(block, "“border: 1px solid #d4d4d4;” became “border: 1px solid #000000;”")) {
			t.Errorf("want the border's change in a warning, the read shown:\n%s", got)
		}
		if !withRead && warned {
			t.Errorf("want no warning without the read:\n%s", got)
		}
	}
}

// TestEditChangesPairsLikeLines: an added line is the removed line it
// shares most with, comments included; a removed line left unpaired is
// dropped, not the old side of another line's change.
func TestEditChangesPairsLikeLines(t *testing.T) {
	t.Parallel()
	got, other := editChanges("Edit: /deploy/kiln.yml\n- memory: 512Mi # spooler\n- memory: 1Gi # glazer\n+ memory: 2Gi # glazer")
	if len(got) != 1 || got[0].removed != "memory: 1Gi # glazer" || other != 1 {
		t.Errorf("editChanges = %+v, %d other; want the glazer's 1Gi made 2Gi and the spooler's line dropped", got, other)
	}
	var b strings.Builder
	b.WriteString("Edit: /deploy/kiln.yml\n")
	for _, job := range []string{"api", "cron", "worker", "web"} {
		fmt.Fprintf(&b, "- image: reg.example.test/kiln/%s:1.4.2\n", job)
	}
	for _, job := range []string{"api", "worker", "web"} {
		fmt.Fprintf(&b, "+ image: reg.example.test/kiln/%s:1.5.0\n", job)
	}
	got, other = editChanges(b.String())
	if len(got) != 3 || other != 1 {
		t.Fatalf("editChanges = %+v, %d other; want three images bumped and cron's dropped", got, other)
	}
	for _, c := range got {
		if strings.Contains(c.removed, "cron") || strings.TrimSuffix(c.removed, "1.4.2") != strings.TrimSuffix(c.added, "1.5.0") {
			t.Errorf("%q paired with %q", c.removed, c.added)
		}
	}
	// An edit that dropped a line besides is no set of changes in place to
	// read the asked one from.
	if c := askedChange(got, other, concepts("which image tag does the kiln cron job run now?", nil)); c != nil {
		t.Errorf("askedChange = %+v of an edit that dropped a line", c)
	}
}

// TestEditOfManyLinesNeedsASpecificMargin: of an edit that changes many
// settings, a line that stands out from the others by a generic word only
// is no answer to the prompt. The texts are made up.
func TestEditOfManyLinesNeedsASpecificMargin(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	edit := "Edit: /kiln/.env\n- KILN_DB_HOST=db1\n- KILN_CACHE_TTL=60\n- KILN_LOG_LEVEL=info\n+ KILN_DB_HOST=db2\n+ KILN_CACHE_TTL=90\n+ KILN_LOG_LEVEL=debug"
	storeRuns(t, db, "b", day, edit)
	got := recallFor(t, db, defaults(), "what log format does the kiln .env set now?")
	if !strings.Contains(got, "KILN_LOG_LEVEL") || strings.Contains(got, ConflictOpen) {
		t.Errorf("want the edit shown and no warning: only a generic word sets its line apart:\n%s", got)
	}
}

// TestEditOfOneSubstitution: an edit that flipped the same flag on three
// lines made one change, though no line names more of the prompt than
// another: the warning sets the line before against the line after. Three
// lines changed three ways stay no answer to a prompt naming none apart.
func TestEditOfOneSubstitution(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	storeRuns(t, db, "b", day, "Edit: /kiln/alarms.js\n"+
		"-   door: { armed: false, level: 1 }, // the loudest\n-   vent: { armed: false, level: 2 },\n-   fan: { armed: false, level: 3 }\n"+
		"+   door: { armed: true, level: 1 }, // the loudest\n+   vent: { armed: true, level: 2 },\n+   fan: { armed: true, level: 3 }")
	got := recallFor(t, db, defaults(), "Are the three kiln alarms armed out of the box in alarms.js, or do they start off?")
	_, block, ok := strings.Cut(got, ConflictOpen)
	if !ok || !strings.Contains(block, "armed: false") || !strings.Contains(block, "armed: true") {
		t.Errorf("want a warning setting the flag before against the flag after:\n%s", got)
	}
	var b strings.Builder
	b.WriteString("Edit: /kiln/alarms.js\n")
	for _, l := range []string{"door: { armed: false, level: 1 },", "vent: { armed: false, level: 2 },", "fan: { armed: false, level: 3 }"} {
		fmt.Fprintf(&b, "- %s\n", l)
	}
	for _, l := range []string{"door: { armed: true, level: 1 },", "vent: { armed: false, level: 5 },", "fan: { armed: false, level: 4 }"} {
		fmt.Fprintf(&b, "+ %s\n", l)
	}
	changes, other := editChanges(b.String())
	if len(changes) != 3 || oneSubstitution(changes) {
		t.Errorf("editChanges = %+v, %d other: want three changes made three ways", changes, other)
	}
}

// TestLaterEditOfAShownFile: a shown write of a file comes with the later
// edit that changed a line it shows, one naming the prompt's most specific
// word the write's lines name (laterEdits). An edit made before it, in the
// asking session, of a line the write does not show, or of a line naming
// nothing the prompt asks (a port) does not come.
func TestLaterEditOfAShownFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	write := putRun(t, db, "w", proj, day, "Write: /kiln/deploy.toml\n+ [build]\n+   publish = \"public\"\n+   command = \"\"\n+ [dev]\n+   port = 8088")
	putRun(t, db, "e0", proj, day.Add(-time.Hour), "Edit: /kiln/deploy.toml\n-   publish = \"old\"\n+   publish = \"public\"")
	putRun(t, db, "e1", proj, day.AddDate(0, 0, 1), "Edit: /kiln/deploy.toml\n-   port = 8088\n+   port = 8090")
	putRun(t, db, "e3", proj, day.AddDate(0, 0, 1), "Edit: /kiln/deploy.toml\n-   preview_publish = \"tmp\"\n+   preview_publish = \"stage\"")
	putRun(t, db, "now", proj, day.AddDate(0, 0, 2), "Edit: /kiln/deploy.toml\n-   publish = \"public\"\n+   publish = \"www\"")
	prompt := "which folder does the kiln deploy config publish?"
	cs, _, err := newTermCounts(db, "").weigh(ctx, concepts(prompt, nil), false)
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Project: proj, SessionID: "now"}
	if got := laterEdits(ctx, db, req, cs, nil, &claim.Cache{}, []Item{write}); len(got) != 0 {
		t.Errorf("an edit made before, in the asking session or of another line came along: %q", got[0].edit.Text)
	}
	putRun(t, db, "e2", proj, day.AddDate(0, 0, 3), "Edit: /kiln/deploy.toml\n-   publish = \"public\"\n+   publish = \"dist\"")
	if got := laterEdits(ctx, db, req, cs, nil, &claim.Cache{}, []Item{write}); len(got) != 1 || !strings.Contains(got[0].edit.Text, `publish = "dist"`) || got[0].of != write.CID {
		t.Fatalf("the later edit of the line the write shows did not come along: %d items", len(got))
	}
	// A read of the file shown beside the write brings the same edit once;
	// a read's lines are read past their numbers, either form.
	for _, text := range []string{
		"Read: /kiln/deploy.toml\n1\t[build]\n2\t  publish = \"public\"",
		"Read: /kiln/deploy.toml\n     1→[build]\n     2→  publish = \"public\"",
	} {
		read := putRun(t, db, "r", proj, day.Add(time.Duration(len(text))*time.Second), text)
		if got := laterEdits(ctx, db, req, cs, nil, &claim.Cache{}, []Item{read}); len(got) != 1 {
			t.Errorf("%q: the later edit did not come along", text)
		}
		if got := laterEdits(ctx, db, req, cs, nil, &claim.Cache{}, []Item{write, read}); len(got) != 1 {
			t.Errorf("the edit came %d times for a write and a read of its file", len(got))
		}
	}
}

// TestRoomForALaterEdit: with no place left, a later edit of a shown file
// takes that of the lowest-ranked tool run, but not the run showing that
// file nor one an earlier edit came for, and never a statement's; an
// older copy of that file's lines is such a run.
func TestRoomForALaterEdit(t *testing.T) {
	item := func(cid, kind, text string) Item { return Item{CID: cid, Kind: kind, Text: text} }
	edit := laterEdit{edit: item("e", store.TypeToolObservation, "Edit: /kiln/deploy.toml\n- publish = \"public\"\n+ publish = \"dist\""), of: "w"}
	said := item("s", store.TypeAgentResponse, "The kiln deploy publishes the public folder.")
	write := item("w", store.TypeToolObservation, "Write: /kiln/deploy.toml\n+ publish = \"public\"")
	read := item("r", store.TypeToolObservation, "Read: /kiln/site.toml\n1\ttitle = \"kiln\"")
	run := item("b", store.TypeToolObservation, "Bash: kiln deploy --dry-run\nwould publish 12 files")
	if j := roomFor([]Item{said, run, write}, edit, nil); j != 1 {
		t.Errorf("want the dry run's place (1), got %d", j)
	}
	if j := roomFor([]Item{said, run, read, write}, edit, map[string]bool{"r": true}); j != 1 {
		t.Errorf("want the dry run's place (1), not the read an edit came for: got %d", j)
	}
	if j := roomFor([]Item{said, write}, edit, nil); j >= 0 {
		t.Errorf("only a statement and the write the edit changed: place %d given", j)
	}
	// An older copy of the file the edit came for gives its place; a newer
	// one shows the file as it stands after other changes, and stays.
	older := Item{CID: "o", Kind: store.TypeToolObservation, Text: "Read: /kiln/deploy.toml\n1\tpublish = \"public\"", Time: day}
	write.Time = day.Add(time.Hour)
	if j := roomFor([]Item{said, write, older}, edit, nil); j != 2 {
		t.Errorf("want the older read of the file's place (2), got %d", j)
	}
	newer := older
	newer.Time = day.Add(2 * time.Hour)
	if j := roomFor([]Item{said, write, newer}, edit, nil); j >= 0 {
		t.Errorf("a newer read of the file gave its place %d", j)
	}
}

// TestLaterEditTakesAToolRunsPlace: with every place taken, a later edit
// of the shown write's file takes that of the lowest-ranked tool run, and
// its warning says what the write's line became.
func TestLaterEditTakesAToolRunsPlace(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	say(t, db, "s", day, "set up the kiln site", "The kiln site deploy is set up.")
	putRun(t, db, "w", proj, day.Add(time.Minute), "Write: /kiln/deploy.toml\n+ [build]\n+   publish = \"public\"\n+   command = \"\"")
	putRun(t, db, "b", proj, day.Add(2*time.Minute), "Bash: kiln deploy --status\nkiln deploy folder ready")
	putRun(t, db, "e", proj, day.AddDate(0, 0, 2), "Edit: /kiln/deploy.toml\n-   publish = \"public\"\n+   publish = \"dist\"")
	cfg := defaults()
	cfg.K = 3
	got := recallFor(t, db, cfg, "which folder does the kiln deploy config publish, with which build command?")
	_, block, _ := strings.Cut(got, ConflictOpen)
	if !strings.Contains(got, "The kiln site deploy is set up.") || strings.Contains(got, "kiln deploy folder ready") ||
		!strings.Contains(block, `“publish = "public"” became “publish = "dist"”`) {
		t.Errorf("want the statement, the write and the edit in the status run's place, with its warning:\n%s", got)
	}
}

// TestLaterEditChangingTheValueAsked: asked which URL a client calls, the
// shown write's URL line holds no word of the prompt but the host; a later
// edit rewriting that line in two places (its sole line) comes along, as
// the value the prompt asks changed. The texts are made up.
func TestLaterEditChangingTheValueAsked(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	write := putRun(t, db, "w", proj, day, "Write: /kiln/src/glazes.ts\n+ export async function findGlaze(name: string) {\n+   const res = await fetch(\n+     \"https://api.kilnworks.test/v1/glazes/search\",\n+     { method: \"POST\" },\n+   );\n+ }")
	putRun(t, db, "e", proj, day.Add(time.Hour), "Edit: /kiln/src/glazes.ts\n-     \"https://api.kilnworks.test/v1/glazes/search\",\n+     \"https://api.kilnworks.test/api/v1/glazes/api_search\",")
	prompt := "Which kilnworks URL does find_glaze call at the moment?"
	cs, _, err := newTermCounts(db, "").weigh(ctx, concepts(prompt, nil), false)
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Project: proj, SessionID: "now"}
	if got := laterEdits(ctx, db, req, cs, nil, &claim.Cache{}, []Item{write}); len(got) != 0 {
		t.Errorf("with no role asked, an edit of a line naming no word of the prompt came along: %q", got[0].edit.Text)
	}
	asked := asks(cs, prompt)
	if got := laterEdits(ctx, db, req, cs, asked, &claim.Cache{}, []Item{write}); len(got) != 1 || !strings.Contains(got[0].edit.Text, "api_search") {
		t.Errorf("the edit of the URL asked did not come along: %d items", len(got))
	}
	// A file calling two URLs: an edit of one of them is no answer the
	// prompt's words pick, whichever is newer.
	two := putRun(t, db, "w2", proj, day.Add(2*time.Hour), "Write: /kiln/src/both.ts\n+ // the kilnworks clients\n+ export const glazes = \"https://api.glazeco.test/v1/glazes/search\";\n+ export const kilns = \"https://api.ovenco.test/v1/kilns/list\";")
	putRun(t, db, "e2", proj, day.Add(3*time.Hour), "Edit: /kiln/src/both.ts\n- export const kilns = \"https://api.ovenco.test/v1/kilns/list\";\n+ export const kilns = \"https://api.ovenco.test/api/v2/kilns/all\";")
	if got := laterEdits(ctx, db, req, cs, asked, &claim.Cache{}, []Item{two}); len(got) != 0 {
		t.Errorf("an edit of one of two URLs the file holds came along: %q", got[0].edit.Text)
	}
}

// TestLaterEditListedAfterItsRun: memories are rendered in order until the
// budget is spent, so a later edit is listed right after the run it came
// for, not after every other memory: the stale line does not go out
// without the edit that changed it.
func TestLaterEditListedAfterItsRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	putRun(t, db, "w", proj, day.Add(time.Minute), "Write: /kiln/deploy.toml\n+ # the glaze site's build\n+ [build]\n+   publish = \"public\"\n+   command = \"\"")
	say(t, db, "t", day.Add(2*time.Minute), "does the glaze site need a build step?", "The glaze site needs no build step yet.")
	putRun(t, db, "e", proj, day.AddDate(0, 0, 2), "Edit: /kiln/deploy.toml\n-   publish = \"public\"\n+   publish = \"dist\"")
	out, err := Select(ctx, db, defaults(), Request{Project: proj, SessionID: "now", Prompt: "which folder does the glaze site build publish?", Now: day.AddDate(0, 1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	w := slices.IndexFunc(out, func(it Item) bool { return strings.HasPrefix(it.Text, "Write: /kiln/deploy.toml") })
	e := slices.IndexFunc(out, func(it Item) bool { return strings.HasPrefix(it.Text, "Edit: /kiln/deploy.toml") })
	if w < 0 || e != w+1 || e == len(out)-1 {
		var got []string
		for _, it := range out {
			got = append(got, firstLine(it.Text))
		}
		t.Errorf("want the edit right after the write, before the other memories: %q", got)
	}
}

// runFor makes a tool run shown for prompt, with the citation id cid.
func runFor(prompt string) func(cid string, at time.Time, text string) Item {
	cs := weighed(concepts(prompt, nil))
	return func(cid string, at time.Time, text string) Item {
		it := messageItem(store.Event{ID: int64(at.Unix()), Time: at, Type: store.TypeToolObservation, Text: text}, text)
		it.CID = cid
		it.promptConcepts, it.promptNow = cs, asksNow(prompt)
		return it
	}
}

// TestHunks: an edit's changes are read place by place, each with the
// kept lines around it; the place a cut runs through is left out.
func TestHunks(t *testing.T) {
	t.Parallel()
	text := "MultiEdit: /kiln/spec.md\n  …\n  ## Glazes\n- Celadon only\n+ Celadon and tenmoku\n  ## Firing\n  …\n- - cone 6\n  …\n" +
		"- - cone 8\n[… 2048 bytes cut …]\n+ - bisque first\n  ## Kilns\n- gas\n+ electric"
	file, hs, ok := hunks(text)
	want := []hunk{
		{removed: []string{"Celadon only"}, added: []string{"Celadon and tenmoku"}, above: "## Glazes", below: "## Firing"},
		{removed: []string{"- cone 6"}},
		{removed: []string{"gas"}, added: []string{"electric"}, above: "## Kilns"},
	}
	if !ok || file != "/kiln/spec.md" || !reflect.DeepEqual(hs, want) {
		t.Errorf("hunks = %q %+v %v, want %+v", file, hs, ok, want)
	}
	if _, _, ok := hunks("Edit: /kiln/spec.md (error)\n- gas\n+ electric"); ok {
		t.Error("a failed edit read as changes")
	}
	for _, tc := range []struct {
		name, text string
		want       []hunk
	}{
		// The cut falls inside a line: the piece after its mark is no
		// kept line, and the rest of the hunk it ran through is lost.
		{"cut in a line", "Edit: /k.md\n- Using the Orton checker in the gas ki\n[… 4096 bytes cut …]\nln and the electric one:\n- Using the Orton glaze checker:\n+ Using Seger tooling:\n  ## Firing\n- gas\n+ electric",
			[]hunk{{removed: []string{"gas"}, added: []string{"electric"}, above: "## Firing"}}},
		// A heading stands a blank line above its text; past a blank line
		// below, the next section opens.
		{"blank lines", "Edit: /k.md\n  ## Glaze evaluation\n  \n- Orton\n+ Seger\n  \n  ## Firing",
			[]hunk{{removed: []string{"Orton"}, added: []string{"Seger"}, above: "## Glaze evaluation"}}},
		// A MultiEdit's diffs joined with no kept line between them.
		{"multiedit", "MultiEdit: /k.yml\n- a: 1\n+ b: 2\n- c: 3\n+ d: 4",
			[]hunk{{removed: []string{"a: 1"}, added: []string{"b: 2"}}, {removed: []string{"c: 3"}, added: []string{"d: 4"}}}},
	} {
		if _, hs, _ := hunks(tc.text); !reflect.DeepEqual(hs, tc.want) {
			t.Errorf("%s: hunks = %+v, want %+v", tc.name, hs, tc.want)
		}
	}
}

// TestHunkWarnsOfTheLineReplacedThere: asked how things stand now, an edit
// that replaced one line with one unlike it at the place the prompt names
// warns with both lines, and one that removed a line with nothing in its
// place warns of the removal. The other hunks, a line moved, one a newer
// read shows again and a prompt not asking about now warn of nothing.
func TestHunkWarnsOfTheLineReplacedThere(t *testing.T) {
	t.Parallel()
	item := runFor("which glaze evaluation tooling does the kiln spec use now?")
	edit := "MultiEdit: /kiln/spec.md\n  ## Firing\n- cone 6 everywhere\n+ cone 8 in the gas kiln\n  …\n  ## Glaze evaluation\n" +
		"- Using the Orton glaze checker:\n+ Using Seger evaluation tooling:\n  - photos of every test tile"
	ws := warnEdits(hunkWarnings, []Item{item("e", day, edit)})
	if len(ws) != 1 || ws[0].A.Title != "Using the Orton glaze checker:" || ws[0].B.Title != "Using Seger evaluation tooling:" || !ws[0].inItem {
		t.Fatalf("want the checker's line set against the tooling's: %+v", ws)
	}
	removal := runFor("is the glaze evaluation still in the kiln spec?")
	gone := "Edit: /kiln/spec.md\n  ## Testing\n- glaze evaluation by the Orton checker\n  ## Firing"
	ws = warnEdits(hunkWarnings, []Item{removal("e", day, gone)})
	if len(ws) != 1 || ws[0].A.Title != "glaze evaluation by the Orton checker" || ws[0].B.Title != "" ||
		!strings.Contains(warningLine(ws[0]), "was removed") {
		t.Fatalf("want the removal: %+v", ws)
	}
	moved := "Edit: /kiln/spec.md\n  ## Testing\n- glaze evaluation by the Orton checker\n  ## Firing\n  …\n  ## Glazes\n+ glaze evaluation by the Orton checker"
	readAgain := "Read: /kiln/spec.md\n     1→## Testing\n     2→glaze evaluation by the Orton checker\n     3→## Firing\n"
	addedBack := "Edit: /kiln/spec.md\n  ## Testing\n+ glaze evaluation by the Orton checker\n  ## Firing"
	changedAgain := "Edit: /kiln/spec.md\n  ## Glaze evaluation\n- Using Seger evaluation tooling:\n+ Using our own kiln camera:\n  - photos of every test tile"
	// A newer edit changed the line again: it warns of its own change,
	// and the older edit of none.
	ws = warnEdits(hunkWarnings, []Item{item("e", day, edit), item("c", day.Add(time.Hour), changedAgain)})
	if len(ws) != 1 || ws[0].A.CID != "c" || ws[0].B.Title != "Using our own kiln camera:" {
		t.Errorf("want only the newer edit's change: %+v", ws)
	}
	// A question in the present asks how things stand, "now" or not.
	present := runFor("does the kiln spec evaluate glazes with Seger tooling?")
	if ws := warnEdits(hunkWarnings, []Item{present("e", day, edit)}); len(ws) != 1 || ws[0].B.Title != "Using Seger evaluation tooling:" {
		t.Errorf("want the checker's line set against the tooling's for a question in the present: %+v", ws)
	}
	past := runFor("which glaze evaluation tooling did the kiln spec use?")
	for name, items := range map[string][]Item{
		"moved":       {removal("e", day, moved)},
		"read again":  {removal("e", day, gone), removal("r", day.Add(time.Hour), readAgain)},
		"added back":  {removal("e", day, gone), removal("b", day.Add(time.Hour), addedBack)},
		"cut removal": {removal("e", day, gone+"\n[… 4096 bytes cut …]\nof the kiln")},
		"paragraph":   {removal("e", day, "Edit: /kiln/spec.md\n  ## Testing\n- glaze evaluation by the Orton checker\n+ "+strings.Repeat("every test tile is photographed and filed ", 6)+"\n  ## Firing")},
		"not now":     {past("e", day, edit)},
		"other hunk":  {item("e", day, "Edit: /kiln/spec.md\n  ## Firing\n- cone 6 everywhere\n+ cone 8 in the gas kiln\n  ## Glazes")},
	} {
		if ws := warnEdits(hunkWarnings, items); len(ws) != 0 {
			t.Errorf("%s: want no warning, got %+v", name, ws)
		}
	}
}

// TestAsksNow: a prompt asks how things stand now when it says so, or as a
// yes-or-no question in the present; a question about what was, or what a
// document says, does not (review 343).
func TestAsksNow(t *testing.T) {
	t.Parallel()
	for prompt, want := range map[string]bool{
		"which glaze tooling does the kiln spec use now?":                   true,
		"does the kiln spec evaluate glazes with Seger tooling?":            true,
		"is the kiln spec on Seger tooling?":                                true,
		"did the kiln spec use Seger tooling?":                              false,
		"which glaze tooling has the kiln spec used before the switch?":     false,
		"what glaze tooling does the old kiln spec in the v1 PDF describe?": false,
		"what happened to the Orton checker in the kiln spec?":              false,
	} {
		if got := asksNow(prompt); got != want {
			t.Errorf("asksNow(%q) = %v, want %v", prompt, got, want)
		}
	}
}

// TestHunkWarnsOfASettingInAnEditOfMore: an edit adding lines besides
// the setting it changed is no edit of changes in place (editChanges reads
// none), so the hunk that set the value anew warns (review 343).
func TestHunkWarnsOfASettingInAnEditOfMore(t *testing.T) {
	t.Parallel()
	item := runFor("which image does the kiln glaze service use now?")
	edit := "MultiEdit: /kiln/compose.yml\n  glaze:\n-   image: kiln:1.4\n+   image: ghcr.io/oven/glaze:2.0\n  …\n+ kiln-db:\n+   image: postgres:16\n+   restart: always"
	if all, _ := editChanges(edit); len(all) != 0 {
		t.Fatalf("editChanges = %+v, want no change in place of an edit adding lines besides", all)
	}
	ws := warnEdits(hunkWarnings, []Item{item("e", day, edit)})
	if len(ws) != 1 || ws[0].A.Title != "image: kiln:1.4" || ws[0].B.Title != "image: ghcr.io/oven/glaze:2.0" {
		t.Errorf("want the image's line set against the one before it: %+v", ws)
	}
}

// TestWriteWarnsWithTheRunItReplaced: a write that replaced four alike
// lines of a schema with one of their shape, too many to read as changes
// in place, warns with both runs; one that put lines of another shape in
// their place is a rewrite, and warns of nothing.
func TestWriteWarnsWithTheRunItReplaced(t *testing.T) {
	t.Parallel()
	item := runFor("which variables does the kiln env schema check for now?")
	read := "Read: /kiln/env.ts\n     1→export const env = schema({\n     2→  KILN_URL: z.string().min(1),\n     3→  KILN_TOKEN: z.string().min(1),\n" +
		"     4→  GLAZE_SECRET: z.string().min(1),\n     5→  GLAZE_ID: z.string().min(1),\n     6→});\n"
	write := "Write: /kiln/env.ts\n+ export const env = schema({\n+   OVEN_KEY: z.string().min(1),\n+ });"
	ws := warnEdits(writeWarnings, []Item{item("r", day, read), item("w", day.Add(time.Minute), write)})
	if len(ws) != 1 || !strings.Contains(ws[0].A.Title, "KILN_TOKEN") || ws[0].B.Title != "OVEN_KEY: z.string().min(1)," || ws[0].A.CID != "r" || ws[0].B.CID != "w" {
		t.Fatalf("want the four variables set against the one written: %+v", ws)
	}
	// A line of another shape put in, or taken out, makes it a rewrite.
	// Each line changed in place is many things set at once.
	putIn := "Write: /kiln/env.ts\n+ export const env = schema({\n+   OVEN_KEY: z.string().min(1),\n+   oven: loadOven(process.env),\n+ });"
	takenOut := strings.Replace(read, "     6→});", "     6→  cache: makeCache(),\n     7→});", 1)
	inPlace := "Write: /kiln/env.ts\n+ export const env = schema({\n+   KILN_URL: z.string().min(2),\n+   KILN_TOKEN: z.string().min(3),\n" +
		"+   GLAZE_SECRET: z.string().min(4),\n+   GLAZE_ID: z.string().min(1),\n+ });"
	for _, tc := range []struct{ read, write string }{{read, putIn}, {takenOut, write}, {read, inPlace}} {
		if ws := warnEdits(writeWarnings, []Item{item("r", day, tc.read), item("w", day.Add(time.Minute), tc.write)}); len(ws) != 0 {
			t.Errorf("a rewrite or changes in place warned: %+v\n%s", ws, tc.write)
		}
	}
}

// TestWriteWarnsWithTheLineItReplaced: a write of a file shown after a
// read of it shown too, both whole, warns with the line it changed in
// place, the one naming the prompt's words first; a read cut when stored,
// or from a later line, shows no whole file to compare.
func TestWriteWarnsWithTheLineItReplaced(t *testing.T) {
	t.Parallel()
	item := runFor("which class does the kiln activity extend now?")
	read := "Read: /kiln/KilnActivity.kt\n     1→package kiln\n     2→\n     3→import glaze.GlazeActivity\n     4→\n     5→class KilnActivity : GlazeActivity()\n"
	write := "Write: /kiln/KilnActivity.kt\n+ package kiln\n+ \n+ import oven.OvenActivity\n+ \n+ class KilnActivity : OvenActivity()\n+ "
	ws := warnEdits(writeWarnings, []Item{item("r", day, read), item("w", day.Add(time.Minute), write)})
	if len(ws) != 1 || ws[0].A.Title != "class KilnActivity : GlazeActivity()" || ws[0].B.Title != "class KilnActivity : OvenActivity()" || ws[0].A.CID != "r" || ws[0].B.CID != "w" {
		t.Fatalf("want the class line's change, read then written: %+v", ws)
	}
	// The changed line may be any of the file's, asked of or not: its
	// warning fills the room left, as a claim of an unknown role does.
	if ws[0].kept || ws[0].standsFor {
		t.Errorf("a changed line's warning is kept room for: %+v", ws[0])
	}
	// A read as the hook receives it, without line numbers, is the file.
	bare := "Read: /kiln/KilnActivity.kt\npackage kiln\n\nimport glaze.GlazeActivity\n\nclass KilnActivity : GlazeActivity()\n"
	if ws := warnEdits(writeWarnings, []Item{item("r", day, bare), item("w", day.Add(time.Minute), write)}); len(ws) != 1 {
		t.Errorf("a bare read and the write after it: %d warnings, want 1", len(ws))
	}
	// As the capture stores a write (its content's blank lines, its last
	// newline): one line changed and two added still warn.
	stored := observation.Build("Write", gjson.Parse(`{"file_path":"/kiln/KilnActivity.kt","content":"package kiln\n\nimport oven.OvenActivity\n\nclass KilnActivity : OvenActivity()\n\nval kilns = 2\nval ovens = 3\n"}`), "", false).Text()
	if ws := warnEdits(writeWarnings, []Item{item("r", day, read), item("w", day.Add(time.Minute), stored)}); len(ws) != 1 {
		t.Errorf("a stored write changing a line and adding two: %d warnings, want 1\n%s", len(ws), stored)
	}
	// Written again, or read again otherwise, the first write's line is
	// no longer current: only the newest change warns.
	again := "Write: /kiln/KilnActivity.kt\n+ package kiln\n+ \n+ import kiln.KilnBase\n+ \n+ class KilnActivity : KilnBase()"
	ws = warnEdits(writeWarnings, []Item{item("r", day, read), item("w", day.Add(time.Minute), write), item("w2", day.Add(2*time.Minute), again)})
	if len(ws) != 1 || ws[0].A.CID != "w" || ws[0].B.CID != "w2" {
		t.Errorf("want only the second write's change: %+v", ws)
	}
	readAgain := "Read: /kiln/KilnActivity.kt\n     1→package kiln\n     2→\n     3→import kiln.KilnBase\n     4→\n     5→class KilnActivity : KilnBase()\n"
	if ws := warnEdits(writeWarnings, []Item{item("r", day, read), item("w", day.Add(time.Minute), write), item("r2", day.Add(2*time.Minute), readAgain)}); len(ws) != 0 {
		t.Errorf("a newer read shows the write's line changed again, yet: %+v", ws)
	}
	// A bare read of a table whose lines open with a number and a tab,
	// not 1, 2, 3 …, written unchanged: nothing changed.
	tsv := "Read: /kiln/cones.tsv\n1\tlow\t10\n4\thigh\t12\n"
	same := "Write: /kiln/cones.tsv\n+ 1\tlow\t10\n+ 4\thigh\t12"
	if ws := warnEdits(writeWarnings, []Item{item("r", day, tsv), item("w", day.Add(time.Minute), same)}); len(ws) != 0 {
		t.Errorf("a table read bare and written unchanged warned: %+v", ws)
	}
	// A rewrite of more lines than maxSnapshotDiff has no change in place
	// to name, however like two of its lines are.
	var many strings.Builder
	many.WriteString("Write: /kiln/KilnActivity.kt\n+ package kiln\n+ class KilnActivity : OvenActivity()")
	for i := range maxSnapshotDiff + 1 {
		fmt.Fprintf(&many, "\n+ val glaze%d = %d", i, i)
	}
	if ws := warnEdits(writeWarnings, []Item{item("r", day, read), item("w", day.Add(time.Minute), many.String())}); len(ws) != 0 {
		t.Errorf("a rewrite adding %d lines warned: %+v", maxSnapshotDiff+1, ws)
	}
	// The write before the read changed nothing the read shows.
	if ws := warnEdits(writeWarnings, []Item{item("r", day.Add(time.Minute), read), item("w", day, write)}); len(ws) != 0 {
		t.Errorf("a write older than the read warned: %+v", ws)
	}
	for _, older := range []string{
		"Read: /kiln/KilnActivity.kt\n     1→package kiln\n[… 400 bytes cut …]\n     5→class KilnActivity : GlazeActivity()\n",
		"Read: /kiln/KilnActivity.kt\n     5→class KilnActivity : GlazeActivity()\n",
	} {
		if ws := warnEdits(writeWarnings, []Item{item("r", day, older), item("w", day.Add(time.Minute), write)}); len(ws) != 0 {
			t.Errorf("%q: no whole file to compare, yet a warning: %+v", older, ws)
		}
	}
}

// cids is items' citation ids, in order, one space apart.
func cids(items []Item) string {
	var s []string
	for _, it := range items {
		s = append(s, it.CID)
	}
	return strings.Join(s, " ")
}

// TestPlaceEdits: each edit is listed right after the run it came for; with
// every place taken it takes that of the lowest-ranked tool run it may,
// never an edit placed before it, and an edit whose run another edit's
// place took is left out rather than listed beside nothing.
func TestPlaceEdits(t *testing.T) {
	t.Parallel()
	item := func(cid, text string) Item { return Item{CID: cid, Kind: store.TypeToolObservation, Text: text} }
	wA, wC := item("wA", "Write: /kiln/a.toml\n+ cone = 6"), item("wC", "Write: /kiln/c.toml\n+ glaze = matte")
	run := item("b", "Bash: kiln check\nok")
	eA := laterEdit{edit: item("eA", "Edit: /kiln/a.toml\n- cone = 6\n+ cone = 8"), of: "wA"}
	eC := laterEdit{edit: item("eC", "Edit: /kiln/c.toml\n- glaze = matte\n+ glaze = satin"), of: "wC"}
	all := func(Item) bool { return true }
	for _, tt := range []struct {
		out  []Item
		k    int
		want string
	}{
		{[]Item{wA, run, wC}, 5, "wA eA b wC eC"},
		{[]Item{wA, run, wC}, 3, "wA eA b"},  // eA took wC's place: eC has no run
		{[]Item{wA, wC, run}, 3, "wA eA wC"}, // eC may take no place: not eA's
	} {
		got, ranked := placeEdits(slices.Clone(tt.out), len(tt.out), tt.k, []laterEdit{eA, eC}, all)
		if cids(got) != tt.want || ranked != len(got) {
			t.Errorf("placeEdits(%s, k=%d) = %s (%d ranked), want %s", cids(tt.out), tt.k, cids(got), ranked, tt.want)
		}
	}
}

// TestRemovedSettingWarnsTheMessageNamingIt: an edit removing a setting
// line ("reverse: true,") supersedes an older message naming the setting
// in a code span beside a piece of the edit's code (`PagerView`). Not a
// message naming it of other code, one said after the edit, an edit that
// sets the name again (its change is editWarnings'), nor a setting whose
// value names code rather than a literal. The texts are made up.
func TestRemovedSettingWarnsTheMessageNamingIt(t *testing.T) {
	t.Parallel()
	msg := func(cid string, at time.Time, text string) Item {
		it := messageItem(store.Event{ID: at.Unix(), Time: at, Type: store.TypeAgentResponse, Text: text}, text)
		it.CID = cid
		return it
	}
	run := func(cid string, at time.Time, text string) Item {
		it := messageItem(store.Event{ID: at.Unix() + 1, Time: at, Type: store.TypeToolObservation, Text: text}, text)
		it.CID = cid
		return it
	}
	said := "Two fixes needed. The kelbo `PagerView` uses `reverse: true` with horizontal paging."
	edit := "Edit: /kelbo/lib/reader.dart\n-       child: PagerView.builder(\n-         reverse: true,\n+       child: PagerView.builder(\n+         axis: Axis.vertical,"
	for _, c := range []struct {
		name       string
		said, edit string
		after      bool
		want       bool
	}{
		{"named beside the edit's code", said, edit, false, true},
		{"named beside the file", "In `reader.dart` the pager has `reverse: true` set.", edit, false, true},
		{"named of other code", "The glaze cache in `cache.yml` has `reverse: true`.", edit, false, false},
		{"said after the edit", said, edit, true, false},
		{"the name set again", said, "Edit: /kelbo/lib/reader.dart\n-       child: PagerView.builder(\n-         reverse: true,\n+       child: PagerView.builder(\n+         reverse: false,", false, false},
		{"a value naming code", "The `PagerView` takes `reverse: flip` from the theme.", "Edit: /kelbo/lib/reader.dart\n-       child: PagerView.builder(\n-         reverse: flip,\n+       child: PagerView.builder(", false, false},
	} {
		at := day.Add(time.Hour)
		if c.after {
			at = day.Add(-time.Hour)
		}
		sel := []Item{msg("m", day, c.said), run("e", at, c.edit)}
		ws := removedSettingWarnings(sel, map[[2]int64]bool{})
		got := len(ws) == 1 && ws[0].A.CID == "m" && ws[0].B.CID == "e" && strings.Contains(ws[0].A.Title, "`reverse: true`") && strings.Contains(ws[0].Note, "removed reverse")
		if got != c.want || !c.want && len(ws) != 0 {
			t.Errorf("%s: warned %v, want %v: %+v", c.name, got, c.want, ws)
		}
	}
	// An entry is read by its verbatim quote, whose spans its title lost.
	ent := Item{CID: "n", Kind: KindEntry, Time: day, Text: "The kelbo PagerView uses reverse: true", Quote: said, entry: store.Entry{ID: 7}}
	if ws := removedSettingWarnings([]Item{ent, run("e", day.Add(time.Hour), edit)}, map[[2]int64]bool{}); len(ws) != 1 || ws[0].A.CID != "n" {
		t.Errorf("an entry quoting the message: want it warned: %+v", ws)
	}
}

// TestLaterWriteUnsettingAShownSetting: a later write of a whole config
// file that leaves out a setting the shown read sets (the glaze server's
// "url", the servers object written empty) unset it and comes along, though
// it still names the prompt's word (a theme); a later write that still sets
// it as shown does not.
func TestLaterWriteUnsettingAShownSetting(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Open(t)
	filler(t, db)
	read := putRun(t, db, "r", proj, day, "Read: /kiln/desktop_config.json\n     1→{\n     2→  \"kilnServers\": {\n     3→    \"glazer\": {\n     4→      \"url\": \"http://localhost:3000/glaze\"\n     5→    }\n     6→  }\n     7→}")
	prompt := "is the glaze server still listed in the desktop config?"
	cs, _, err := newTermCounts(db, "").weigh(ctx, concepts(prompt, nil), false)
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Project: proj, SessionID: "now"}
	putRun(t, db, "same", proj, day.Add(time.Hour), "Write: /kiln/desktop_config.json\n+ {\n+   \"kilnServers\": {\n+     \"glazer\": {\n+       \"url\": \"http://localhost:3000/glaze\"\n+     }\n+   },\n+   \"theme\": \"glaze dark\"\n+ }")
	if got := laterEdits(ctx, db, req, cs, nil, &claim.Cache{}, []Item{read}); len(got) != 0 {
		t.Errorf("a write still setting the url as shown came along: %q", got[0].edit.Text)
	}
	// A second server's "url" makes the name set twice; compact JSON is
	// read as no setting: the url shown is still there.
	putRun(t, db, "two", proj, day.Add(90*time.Minute), "Write: /kiln/desktop_config.json\n+ {\n+   \"kilnServers\": {\n+     \"glazer\": {\n+       \"url\": \"http://localhost:3000/glaze\"\n+     },\n+     \"firing\": {\n+       \"url\": \"http://localhost:4000/fire\"\n+     }\n+   }\n+ }")
	if got := laterEdits(ctx, db, req, cs, nil, &claim.Cache{}, []Item{read}); len(got) != 0 {
		t.Errorf("a write adding a second server beside the one shown came along: %q", got[0].edit.Text)
	}
	putRun(t, db, "compact", proj, day.Add(100*time.Minute), `Write: /kiln/desktop_config.json`+"\n"+`+ {"kilnServers": {"glazer": {"url": "http://localhost:3000/glaze"}}, "theme": "glaze dark"}`)
	if got := laterEdits(ctx, db, req, cs, nil, &claim.Cache{}, []Item{read}); len(got) != 0 {
		t.Errorf("a compact write still holding the url came along: %q", got[0].edit.Text)
	}
	putRun(t, db, "empty", proj, day.Add(2*time.Hour), "Write: /kiln/desktop_config.json\n+ {\n+   \"kilnServers\": {},\n+   \"theme\": \"glaze dark\"\n+ }")
	if got := laterEdits(ctx, db, req, cs, nil, &claim.Cache{}, []Item{read}); len(got) != 1 || !strings.Contains(got[0].edit.Text, `"kilnServers": {}`) {
		t.Errorf("the write leaving the server out did not come along: %d items", len(got))
	}
}

// FuzzHunks: reading an edit's hunks never panics, whatever the stored
// text (cuts anywhere, lines of a mark alone, invalid UTF-8), and every
// line it reads is one of the text's.
func FuzzHunks(f *testing.F) {
	for _, s := range []string{
		"Edit: /k.md\n  ## Glazes\n- a\n+ b\n  ## Firing",
		"MultiEdit: /k.yml\n- a: 1\n+ b: 2\n- c: 3\n+ d: 4",
		"Edit: /k.md\n- x\n[… 4096 bytes cut …]\nly\n+ y\n  …\n- \n+ ",
		"Edit: /k.md\n- \xff\xfe\n+ \x00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		_, hs, _ := hunks(text)
		for _, h := range hs {
			for _, l := range slices.Concat(h.removed, h.added, []string{h.above, h.below}) {
				if !strings.Contains(text, l) {
					t.Fatalf("line %q is not the text's", l)
				}
			}
		}
	})
}
