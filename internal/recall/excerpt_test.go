package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/claude-memory-layer/claude-memory-layer/internal/claim"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store"
	"github.com/claude-memory-layer/claude-memory-layer/internal/store/storetest"
)

// A long set of notes answers "how often …?" in a line that shares none
// of the prompt's other words: the excerpt shown is the line giving the
// interval, not only the lines that repeat the prompt's words.
func TestExcerptShowsTheValueAsked(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	notes := strings.Join([]string{
		"Notes on the Brindle mirror, for whoever picks it up next:",
		"1. The Brindle mirror copies the package cache from the upstream registry to the office NAS.",
		"2. The Brindle mirror keeps a manifest of every tarball it copied in mirror.db.",
		"3. The Brindle mirror checks each tarball's checksum against the upstream registry.",
		"4. The Brindle mirror refuses tarballs larger than two gigabytes.",
		"5. A systemd timer starts it every 45 minutes.",
		"6. The Brindle mirror posts to the ops channel when a copy from upstream fails.",
		"7. The Brindle mirror reads its settings from /etc/brindle/mirror.toml.",
		"8. The Brindle mirror prunes tarballs that no upstream manifest names any more.",
	}, "\n")
	say(t, db, "mirror", day, "Write down how the Brindle mirror works.", notes)
	got := recallFor(t, db, defaults(), "how often does the Brindle mirror refresh from upstream?")
	if !strings.Contains(got, "every 45 minutes") {
		t.Errorf("the line giving the interval is not shown:\n%s", got)
	}
}

// "Which zorblat version …?" is answered by the one message stating the
// version, not by the build logs that name zorblat more often: the message
// holding a value of the shape asked ranks above those that only mention
// the thing.
func TestValueAskedRanksAboveMentions(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	for i := range 12 {
		say(t, db, fmt.Sprintf("logs-%d", i), day.AddDate(0, 0, i),
			fmt.Sprintf("build the firmware again, attempt %d", i),
			fmt.Sprintf("The zorblat firmware build for the board finished; the zorblat linker wrote firmware image %d.", i))
	}
	evs := say(t, db, "pin", day.AddDate(0, 0, -3), "ok go ahead with the flash", "Compiling now with Zorblat 4.2.1, which the board support package needs.")
	items, err := Select(context.Background(), db, defaults(), Request{Project: proj, Prompt: "which zorblat version do I need to build the firmware with?", Now: day.AddDate(0, 1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	at := slices.IndexFunc(items, func(it Item) bool { return it.CID == store.EventCID(evs[1].ID) })
	if at != 0 {
		for _, it := range items {
			t.Logf("%s %.2f %q", it.CID, it.Score, it.Excerpt)
		}
		t.Fatalf("the statement of the version is item %d, want 0", at)
	}
}

// A long message that is the best match says what was decided a few lines
// past the one line sharing the prompt's words: with room left in the
// budget, more of it is shown, and the decision with it.
func TestLongMessageShowsMoreWhereTheBudgetHasRoom(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	lines := []string{"Summary of the quorn cache eviction review, as we went through it this morning."}
	for i := range 8 {
		lines = append(lines, fmt.Sprintf("Point %d went through the shard counts once more and found nothing new to add to the notes.", i+1))
	}
	lines = append(lines, "In the end we settled on Tollbridge ordering for every shard.")
	for i := range 6 {
		lines = append(lines, fmt.Sprintf("Follow-up %d is for the next meeting, whoever chairs it.", i+1))
	}
	say(t, db, "review", day, "Write up the review for me.", strings.Join(lines, "\n"))
	got := recallFor(t, db, defaults(), "what came out of the quorn cache eviction review?")
	if !strings.Contains(got, "Tollbridge") {
		t.Errorf("the decision past the line that matched is not shown:\n%s", got)
	}
}

// An entry distilled from a long message shows the message's words as its
// quote, cut short; with room left in the budget the quote shows as much of
// the message as the message itself would, and the decision with it.
func TestEntryQuoteShowsMoreWhereTheBudgetHasRoom(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	filler(t, db)
	first := "Summary of the quorn cache eviction review, as we went through it this morning."
	lines := []string{first}
	for i := range 8 {
		lines = append(lines, fmt.Sprintf("Point %d went through the shard counts once more and found nothing new to add to the notes.", i+1))
	}
	lines = append(lines, "In the end we settled on Tollbridge ordering for every shard.")
	for i := range 6 {
		lines = append(lines, fmt.Sprintf("Follow-up %d is for the next meeting, whoever chairs it.", i+1))
	}
	evs := say(t, db, "review", day, "Write up the review for me.", strings.Join(lines, "\n"))
	quote := lines[1]
	e, _, err := db.PutEntry(context.Background(), store.Entry{
		Project: proj, SessionID: "review", Type: "decision", Title: "Summary of the quorn cache", Subject: "quorn cache",
		ClaimKey: "quorn cache", Stage: store.StageVerified, Created: day,
		Evidence: []store.Evidence{{SessionID: "review", EventID: evs[1].ID, Quote: quote, Method: "exact", Confidence: 1, SpanStart: len(first) + 1, SpanEnd: len(first) + 1 + len(quote)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := recallFor(t, db, defaults(), "what came out of the quorn cache eviction review?")
	if !strings.Contains(got, e.CID) {
		t.Fatalf("the entry is not shown:\n%s", got)
	}
	if !strings.Contains(got, "Tollbridge") {
		t.Errorf("the decision past the entry's quote is not shown:\n%s", got)
	}
	if strings.Contains(got, store.EventCID(evs[1].ID)) {
		t.Errorf("the message is shown beside the entry quoting it:\n%s", got)
	}
}

// A tool observation's excerpt keeps its first line, which names what ran
// on what ("MultiEdit: hooks/notify.py"): "which file got the fix?" is
// answered there, though the lines that match are the code further down.
// A message's first line is no such header; nor is a subagent's task.
func TestToolExcerptKeepsItsHeader(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	out.WriteString("MultiEdit: /home/dev/quillnest/hooks/notify.py\n")
	for i := range 80 {
		fmt.Fprintf(&out, "-     pattern_%d = load_pattern(%d)\n", i, i)
	}
	out.WriteString("+     if phase == 5 and done: announce_completion()\n")
	for i := range 80 {
		fmt.Fprintf(&out, "+     pattern_%d = load_pattern(%d)\n", i, i)
	}
	cs := concepts("why did the completion announce fire early in phase 3?", repoGlosses())
	for i := range cs {
		cs[i].weight = 1
	}
	text := out.String()
	for _, tt := range []struct {
		e    store.Event
		head bool
	}{
		{store.Event{Type: store.TypeToolObservation, Text: text, Payload: []byte(`{"tool":"MultiEdit"}`)}, true},
		{store.Event{Type: store.TypeAgentResponse, Text: text}, false},
		{store.Event{Type: store.TypeToolObservation, Text: text, Payload: []byte(`{"tool":"Task"}`)}, false},
	} {
		got := readEvent(tt.e).excerpt(cs, itemChars)
		if !strings.Contains(got, "announce_completion") {
			t.Errorf("%s: the matching line is not shown: %q", tt.e.Type, got)
		}
		if head := strings.HasPrefix(got, "MultiEdit: /home/dev/quillnest/hooks/notify.py"); head != tt.head {
			t.Errorf("%s %s: header shown %v, want %v: %q", tt.e.Type, tt.e.Payload, head, tt.head, got)
		}
	}
}

// "What version of the framework did the dev server print?" names no
// product: the excerpt of a long start-up log shows the line giving a
// version (AnyVersion), though it shares no word with the prompt.
func TestExcerptShowsAVersionOfSomethingDescribed(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	out.WriteString("Bash: pnpm dev\n> dev server starting\n")
	for i := range 40 {
		fmt.Fprintf(&out, "dev server compiled route /page-%d for the framework\n", i)
	}
	out.WriteString("Welcome to Tarnwick v0.41.7\n")
	for i := range 40 {
		fmt.Fprintf(&out, "dev server compiled route /later-%d for the framework\n", i)
	}
	prompt := "What version of the framework did the dev server print when it started?"
	cs := concepts(prompt, repoGlosses())
	for i := range cs {
		cs[i].weight = 1
	}
	asked := asks(cs, prompt)
	m := readEvent(store.Event{Type: store.TypeToolObservation, Text: out.String(), Payload: []byte(`{"tool":"Bash"}`)})
	if got := valueExcerpt(m, cs, asked, &claim.Cache{}, itemChars); !strings.Contains(got, "v0.41.7") {
		t.Errorf("the version line is not shown: %q", got)
	}
}

// "How long is the handbook now?" asks an amount: a long summary shows the
// line giving the count of lines, though it shares no word with the prompt,
// and for "how big …?" the line giving the button's size in pixels, not
// the one saying "big". Without the question for an amount, the lines
// shown are the ones sharing the prompt's words.
func TestExcerptShowsTheAmountAsked(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("I reworked the kiln handbook as you asked:\n")
	for i := range 10 {
		fmt.Fprintf(&b, "%d. **Section %d** - rewrote the steps for glaze firing, one per paragraph\n", i+1, i+1)
	}
	b.WriteString("11. **Kept it short** - trimmed from 812 to 430 lines without losing a step\n")
	for i := range 10 {
		fmt.Fprintf(&b, "- the glaze notes for cone %d are now in one table\n", i+4)
	}
	summary := b.String()
	m := readText(summary)
	for _, tt := range []struct {
		prompt, want string
		shown        bool
	}{
		{"After the glaze firing rework, roughly how long is the kiln handbook?", "812 to 430 lines", true},
		{"What did the glaze firing rework change in the kiln handbook?", "812 to 430 lines", false},
	} {
		cs := weighed(concepts(tt.prompt, repoGlosses()))
		got := valueExcerpt(m, cs, asks(cs, tt.prompt), &claim.Cache{}, itemChars)
		if strings.Contains(got, tt.want) != tt.shown {
			t.Errorf("%q: %q shown %v, want %v:\n%s", tt.prompt, tt.want, !tt.shown, tt.shown, got)
		}
	}
	buttons := strings.Join([]string{
		"Redesigned the kiln dashboard's header.",
		"- Replaced the big 64px start and stop buttons with one toggle",
		"- The header's title moved left, beside the close button's old place",
		"- The close button is now a 24px circle (was 48px)",
		"- Animations in the header now take 200ms",
		"- " + strings.Repeat("The header keeps the firing schedule's name and the kiln's temperature. ", 8),
	}, "\n")
	prompt := "How big is the close button in the kiln dashboard's header now?"
	cs := weighed(concepts(prompt, repoGlosses()))
	got := valueExcerpt(readText(buttons), cs, asks(cs, prompt), &claim.Cache{}, 120)
	if !strings.Contains(got, "24px circle") {
		t.Errorf("the close button's size is not shown:\n%s", got)
	}
	// An amount of something the prompt does not name is no answer over a
	// line about what it names.
	upload := strings.Join([]string{
		"Reworked the kiln's upload page.",
		"- The progress bar fills to 100% when the upload ends",
		"- The header keeps the firing schedule's name on the left",
		"- " + strings.Repeat("The upload page keeps the kiln's temperature chart and its legend. ", 8),
	}, "\n")
	prompt = "How big is the avatar in the profile header?"
	cs = weighed(concepts(prompt, repoGlosses()))
	got = valueExcerpt(readText(upload), cs, asks(cs, prompt), &claim.Cache{}, 100)
	if !strings.Contains(got, "The header keeps") || strings.Contains(got, "100%") {
		t.Errorf("an amount of another thing took the place of the line about the profile header:\n%s", got)
	}
}

// "Which version of the Slack API client did we install?" names the
// product by what it does; the install log names it by its package
// ("@quillworks/hookline@7.3.1"). With
// no version of a product asked in the message, the line giving a
// version is shown: the scoped package's, not only the lines about
// fetching and linking.
func TestExcerptShowsTheVersionOfAPackageDescribed(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	out.WriteString("Bash: pnpm add @quillworks/hookline\n")
	for i := range 20 {
		fmt.Fprintf(&out, "Progress: resolved %d, reused %d, downloaded 0, added 0\n", 100+i, 90+i)
	}
	out.WriteString("info Direct dependencies\n└─ @quillworks/hookline@7.3.1\n")
	for i := range 20 {
		fmt.Fprintf(&out, "Progress: resolved %d, reused %d, downloaded 1, added 1, done\n", 200+i, 190+i)
	}
	prompt := "Which Slack API client package, and which version, did we install for the notifier?"
	cs := weighed(concepts(prompt, repoGlosses()))
	m := readEvent(store.Event{Type: store.TypeToolObservation, Text: out.String(), Payload: []byte(`{"tool":"Bash"}`)})
	got := valueExcerpt(m, cs, asks(cs, prompt), &claim.Cache{}, itemChars)
	if !strings.Contains(got, "@quillworks/hookline@7.3.1") {
		t.Errorf("the package's version is not shown: %q", got)
	}
	// So does the quote of an entry distilled from the install log.
	log := store.Event{ID: 1, Type: store.TypeToolObservation, Text: out.String(), Payload: []byte(`{"tool":"Bash"}`)}
	it := Item{Kind: KindEntry, Text: "Added the notifier's client package", Quote: "Added the Slack client to the notifier", source: log}
	versionOnly := "Which version of the Slack API client did we install for the notifier?"
	vcs := weighed(concepts(versionOnly, repoGlosses()))
	if it.quoteValue(vcs, asks(vcs, versionOnly), &claim.Cache{}); !strings.Contains(it.Quote, "@quillworks/hookline@7.3.1") {
		t.Errorf("the quote of an entry standing for the install log does not show the version: %q", it.Quote)
	}
	// In a message, another version is of what was done besides.
	var msg strings.Builder
	for i := range 20 {
		fmt.Fprintf(&msg, "Step %d of the notifier rework went through without surprises.\n", i)
	}
	msg.WriteString("Bumped typescript@5.4.5 while at it.\n")
	for i := range 20 {
		fmt.Fprintf(&msg, "Check %d of the notifier passed on the first run.\n", i)
	}
	m = readEvent(store.Event{Type: store.TypeAgentResponse, Text: msg.String()})
	if got := valueExcerpt(m, cs, asks(cs, prompt), &claim.Cache{}, 200); strings.Contains(got, "typescript") {
		t.Errorf("another package's version is shown as the one asked: %q", got)
	}
}

// A label is a short line all in bold; a sentence in bold says something
// of its own, and a line with bold inside is no label.
func TestIsLabel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"**`FiringChart.tsx`**", true},
		{"**Deployment:**", true},
		{"**Deployment**:", true},
		{"**Nothing below is deployed yet.**", false},
		{"**" + strings.Repeat("kiln ", 20) + "**", false},
		{"**Kiln** and **glaze**", false},
		{"Kiln **glaze**", false},
		{"****", false},
		// 32 characters of 74 bytes, 34 of 65: labels by their characters.
		{"**서버 배포 설정, 환경 변수, 포트 번호와 로그 파일 경로**", true},
		{"**Настройки развёртывания на сервере**", true},
		{"**Do not deploy yet!**", false},
		{"**Is this deployed?**", false},
		{"**배포됐나요？**", false},
		{"**まだデプロイしていない。**", false},
	} {
		if got := isLabel(tc.line); got != tc.want {
			t.Errorf("isLabel(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

// A line all in bold labels the lines under it ("**`FiringChart.tsx`**"
// above what changed in that component), and a prompt's words name the
// component its camelCase name is made of: the label and its list are
// shown, though the list shares no word with the prompt.
func TestExcerptShowsALabelsList(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("Here is what changed in the kiln app:\n")
	for i := range 8 {
		fmt.Fprintf(&b, "**`Panel%d.tsx`**\n- panel %d keeps the same layout as before\n", i, i)
	}
	b.WriteString("**`FiringChart.tsx`**\n- Stacked bars replaced by one line per cone, with a shaded band for the hold\n- Legend moved under the plot\n")
	for i := range 8 {
		fmt.Fprintf(&b, "**`Drawer%d.tsx`**\n- drawer %d keeps the same layout as before\n", i, i)
	}
	cs := weighed(concepts("What does the firing chart look like in the kiln app now?", repoGlosses()))
	got := excerpt(b.String(), cs, 300)
	if !strings.Contains(got, "one line per cone") {
		t.Errorf("the label's list is not shown: %q", got)
	}
	// Outside a label, a line's identifiers are code, not a title: a line
	// of call names is not shown for the words its names are made of.
	code := strings.Repeat("The kiln app keeps its panels as they were.\n", 10) +
		"`FiringLoop` → `ChartFeed` → `LookupTable` → `NowCursor`\n" + strings.Repeat("The kiln app keeps its drawers as they were.\n", 10)
	if got := excerpt(code, cs, 200); strings.Contains(got, "FiringLoop") {
		t.Errorf("a line of identifiers was shown for its parts: %q", got)
	}
}

// A line ending in a colon brings the short list it opens whole: "checks
// two conditions:" with its first item alone says the lock waits for one.
// A long list is a log, whose items are picked for what they match: the
// sentence after it that names the cause stays in.
func TestExcerptShowsAShortListWhole(t *testing.T) {
	t.Parallel()
	var filler strings.Builder
	for i := range 12 {
		fmt.Fprintf(&filler, "Chapter %d keeps its place between visits and syncs its page count nightly.\n", i)
	}
	short := filler.String() + "The gate now checks two conditions before the next chapter opens:\n" +
		"1. Every page before it was read\n2. The quiz before it was passed\n" + filler.String()
	cs := weighed(concepts("What has to hold before the next chapter opens?", repoGlosses()))
	if got := excerpt(short, cs, itemChars); !strings.Contains(got, "The quiz before it was passed") {
		t.Errorf("the short list's second item is not shown: %q", got)
	}
	long := "Looking at the requests over ten seconds, I see:\n" +
		"- 2x `session/refresh` calls at the start\n- Then `auth/me`\n- Then `profile`\n- Then `chapters`, `pages`\n" +
		"- Then 2 more `session/refresh` calls\n- Then `progress` and `quizzes`\n\n" +
		"The problem is **the session refresh running twice** because each client created triggers one. Let me check and optimize this, then measure again with the same ten second window so we can compare the numbers fairly."
	cs = weighed(concepts("Why did the chapters take ten seconds to show?", repoGlosses()))
	got := excerpt(long, cs, 400)
	if !strings.Contains(got, "the session refresh running twice") {
		t.Errorf("a long list pushed out the sentence after it: %q", got)
	}
	// An item longer than a line cut into sentences leaves the count
	// unsure: the list is not brought, only its first line.
	cs = weighed(concepts("What has to hold before the next chapter opens?", repoGlosses()))
	longItem := filler.String() + "The gate now checks two conditions before the next chapter opens:\n" +
		"1. Every page before it was read\n2. " + strings.Repeat("The reader keeps a tally of every page it showed. ", 6) + "\n3. Some trailing item\n" + filler.String()
	if got := excerpt(longItem, cs, itemChars); strings.Contains(got, "2. The reader keeps a tally") {
		t.Errorf("a list with an item longer than a line was brought in part: %q", got)
	}
}

// weighed gives every concept of cs the same weight and specificity, as a
// store that holds each word as often would.
func weighed(cs []concept) []concept {
	for i := range cs {
		cs[i].weight, cs[i].specific = 1, 1
	}
	return cs
}

// FuzzExcerpt: picking the lines of a message to show never panics nor
// loops, whatever the text (lists, colons, long lines, invalid UTF-8).
func FuzzExcerpt(f *testing.F) {
	for _, s := range []string{
		"The gate checks two conditions:\n1. read\n2. passed\nmore",
		"I see:\n- a\n- b\n- c\n- d\n- e\n- f\nThe problem is twice.",
		"x:\n1. " + strings.Repeat("long sentence here. ", 20) + "\n2. b",
		"\xff:\n- \x00\n",
		"**`KilnChart.tsx`**\n- 24px circle\n- 100%\n**Done.**\n└─ @kiln/chart@1.2.3",
	} {
		f.Add(s, "what are the conditions to pass?")
		f.Add(s, "how big is the kiln chart, and which version of the chart package?")
	}
	f.Fuzz(func(t *testing.T, text, prompt string) {
		cs := weighed(concepts(prompt, nil))
		asked := asks(cs, prompt)
		for _, n := range []int{40, itemChars} {
			excerpt(strings.Repeat(text+"\n", 3), cs, n)
			valueExcerpt(readText(strings.Repeat(text+"\n", 3)), cs, asked, &claim.Cache{}, n)
		}
	})
}

// An entry distilled from a long report shows, as its quote, the report's
// lines giving the amount asked, as the report itself would be shown
// (valueExcerpt): its first lines, which share the prompt's words, gave
// Claude everything but the count.
func TestEntryQuoteShowsTheAmountAsked(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("Here is the report of the kiln handbook rework:\n")
	for i := range 20 {
		fmt.Fprintf(&b, "%d. Glaze firing section %d of the kiln handbook rewritten, one step per paragraph\n", i+1, i+1)
	}
	b.WriteString("21. Kept it short: trimmed from 812 to 430 lines without losing a step\n")
	for i := range 20 {
		fmt.Fprintf(&b, "- the kiln handbook's glaze firing notes for cone %d now sit in one table\n", i+4)
	}
	b.WriteString("Long story short: the rework is done\n") // "long" asks; it is not what is asked of
	report := b.String()
	quote := "Here is the report of the kiln handbook rework:"
	prompt := "After the glaze firing rework, roughly how long is the kiln handbook now?"
	db := storetest.Open(t)
	filler(t, db)
	evs := say(t, db, "handbook", day, report, "Thanks, noted.")
	e, _, err := db.PutEntry(context.Background(), store.Entry{
		Project: proj, SessionID: "handbook", Type: "fact", Title: "Glaze firing section 1 of the kiln handbook rewritten", Subject: "kiln handbook",
		ClaimKey: "kiln handbook|section 1", Stage: store.StageVerified, Created: day,
		Evidence: []store.Evidence{{SessionID: "handbook", EventID: evs[0].ID, Quote: quote, Method: "exact", Confidence: 1, SpanEnd: len(quote)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := recallFor(t, db, defaults(), prompt)
	if !strings.Contains(got, e.CID) || strings.Contains(got, store.EventCID(evs[0].ID)) {
		t.Fatalf("the entry does not stand for the report:\n%s", got)
	}
	if !strings.Contains(got, "812 to 430 lines") {
		t.Errorf("the entry's quote does not show the amount asked:\n%s", got)
	}
	// With room to spare, the quote widens to more of the report's lines,
	// still picked for the amount asked.
	_, q, _ := strings.Cut(got, "quoted: “")
	if q, _, _ = strings.Cut(q, "”"); len(q) <= quoteChars+len("…") {
		t.Errorf("the entry's quote is not widened to more of the report where the budget has room:\n%s", got)
	}
	// An entry whose claim, or the part of its quote shown, gives the
	// amount keeps the quote it was distilled from: the report's line would
	// say it twice. An amount of something else answers nothing.
	cs := weighed(concepts(prompt, repoGlosses()))
	long := strings.Repeat("Every glaze firing step was checked against the kiln log. ", 6) + "The kiln handbook went from 812 to 430 lines."
	for _, c := range []struct {
		claim, quote string
		kept         bool
	}{
		{"Glaze firing section 1 of the kiln handbook rewritten", quote, false},
		{"The kiln handbook was trimmed from 812 to 430 lines", quote, true},
		{"Rewrote 20 sections in one pass", quote, false},
		{"Glaze firing section 1 of the kiln handbook rewritten", "The kiln handbook went from 812 to 430 lines.", true},
		{"Glaze firing section 1 of the kiln handbook rewritten", long, false},
	} {
		it := Item{Kind: KindEntry, Text: c.claim, Quote: c.quote, quoteMsg: readText(report)}
		it.quoteValue(cs, asks(cs, prompt), &claim.Cache{})
		if kept := it.Quote == c.quote; kept != c.kept {
			t.Errorf("%q: quote kept %v, want %v: %q", c.claim, kept, c.kept, it.Quote)
		} else if !kept && (!strings.Contains(it.Quote, "812 to 430 lines") || strings.Contains(it.Quote, "Long story") || len(it.Quote) > quoteChars) {
			t.Errorf("%q: the quote shown instead is not the line giving the amount within %d bytes: %q", c.claim, quoteChars, it.Quote)
		}
	}
}

// TestValueShownInAListIsShown: a value shown in the short list under the
// line picked answers the question as much as a line picked for it, so a
// second amount no longer comes before a line with a prompt word not yet
// shown.
func TestValueShownInAListIsShown(t *testing.T) {
	t.Parallel()
	cs := weighed(concepts("how long are the kiln handbook and its glaze part now?", repoGlosses()))
	filler := strings.Repeat("Unrelated remark about the studio's opening hours and parking spaces. ", 2)
	text := strings.Join([]string{
		"Kiln handbook, where it stands:",
		"- 430 lines",
		"- 12 tables",
		filler,
		"Before the rework it had 812 lines.",
		filler,
		"Glaze moved to the appendix.",
		filler,
	}, "\n")
	m := readText(text)
	segs, _ := m.split()
	valued := make([]float64, len(segs))
	for i, sg := range segs {
		if strings.Contains(sg, " lines") {
			valued[i] = heaviest(cs)
		}
	}
	got := m.pick(cs, valued, 110)
	if !strings.Contains(got, "430 lines") || !strings.Contains(got, "Glaze moved") || strings.Contains(got, "812") {
		t.Errorf("want the list's amount and the line naming the glaze, not a second amount:\n%s", got)
	}
}

// TestLineHoldsItsHeadingsWords: a line under a heading naming the
// prompt's word is about what the heading names, so it comes before a
// line of another section that shares as many of the prompt's other words.
func TestLineHoldsItsHeadingsWords(t *testing.T) {
	t.Parallel()
	cs := weighed(concepts("what background colour do the glaze chips use in the dark theme now?", repoGlosses()))
	filler := strings.Repeat("Unrelated remark about the studio's opening hours and parking spaces. ", 3)
	text := strings.Join([]string{
		"Done. Here is what changed:",
		"### Kiln toggle",
		"- The toggle's background in the dark theme is a softer grey",
		filler,
		"### Glaze chips:",
		filler,
		"- Now: slate background, `dark:bg-slate-700`, in the dark theme",
		filler,
	}, "\n")
	got := readText(text).pick(cs, nil, 160)
	if !strings.Contains(got, "dark:bg-slate-700") || !strings.Contains(got, "Glaze chips") {
		t.Errorf("want the line under the heading naming the chips, with its heading:\n%s", got)
	}
	// In a tool's output, "# …" is a script's comment: no title.
	script := strings.Join([]string{
		"Bash: cat theme.sh",
		"# Kiln toggle",
		"TOGGLE=grey # its background in the dark theme",
		filler,
		"# Glaze chips",
		filler,
		"PILLS=slate # their background in the dark theme",
		filler,
	}, "\n")
	m := readEvent(store.Event{Type: store.TypeToolObservation, Text: script, Payload: []byte(`{"tool":"Bash"}`)})
	if got := m.pick(cs, nil, 120); !strings.Contains(got, "TOGGLE=grey") || strings.Contains(got, "PILLS=slate") {
		t.Errorf("a script's comment titled the line under it:\n%s", got)
	}
	if got := sections([]string{"# A", "x", "```", "# not a heading", "```", "y", "## B", "z"}); !slices.Equal(got, []int{-1, 0, 0, 0, 0, 0, -1, 6}) {
		t.Errorf("sections = %v", got)
	}
}

// TestHeadingThatDoesNotFitLendsNoWords: a heading too long for what is
// left of the excerpt is not shown, so its words no longer make the lines
// under it weigh: a line naming nothing of the prompt itself is not shown
// for them.
func TestHeadingThatDoesNotFitLendsNoWords(t *testing.T) {
	t.Parallel()
	cs := weighed(concepts("what background do the glaze chips use in the dark theme now?", repoGlosses()))
	filler := strings.Repeat("Unrelated remark about the studio's opening hours and parking spaces. ", 3)
	text := strings.Join([]string{
		"Intro.",
		filler,
		"### Glaze chips, as the potters asked for them at the spring meeting after the long discussion about the kiln room signage",
		"- Background: slate, in the dark theme",
		filler,
		"- Checked on monitor 3",
		filler,
		"### Kiln room",
		"- The glaze shelf labels are bigger",
		filler,
	}, "\n")
	got := readText(text).pick(cs, nil, 110)
	if !strings.Contains(got, "slate") || strings.Contains(got, "monitor 3") {
		t.Errorf("want the line naming the background, not a line that only its unshown heading names:\n%s", got)
	}
}

// A crashed server's output names its error in one line and its stack in
// many, whose paths share more of the prompt's words ("gateway", "server",
// "start"): for a prompt naming a failure the line stating the error is
// shown; for another prompt the lines about what it asks.
func TestFailureExcerptShowsTheLineStatingTheError(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	out.WriteString("Bash: node gateway-server.js\n<stderr>\nnode:events:497\n      throw er; // Unhandled 'error' event\n      ^\n\n")
	out.WriteString("Error: connect ECONNREFUSED 127.0.0.1:6380\n")
	for i := range 14 {
		fmt.Fprintf(&out, "    at startGatewayServer%d (/home/dev/gateway/server/start-gateway-server.js:%d:%d)\n", i, 100+i, 7+i)
	}
	out.WriteString("  errno: -111,\n  code: 'ECONNREFUSED',\n  port: 6380\n}\n</stderr>")
	m := readEvent(store.Event{Type: store.TypeToolObservation, Text: out.String(), Payload: []byte(`{"tool":"Bash"}`)})
	if len(m.text) <= itemChars {
		t.Fatalf("the output (%d bytes) fits whole; the test needs one cut", len(m.text))
	}
	cs := weighed(concepts("the gateway server crashed when it tried to start. what was the actual node error", repoGlosses()))
	if got := m.excerpt(cs, itemChars); !strings.Contains(got, "Error: connect ECONNREFUSED") {
		t.Errorf("the line stating the error is not shown:\n%s", got)
	}
	// A prompt naming no failure gets no such weight: the lines are picked
	// by its words alone.
	cs = weighed(concepts("which file starts the gateway server?", repoGlosses()))
	if w := m.failureWeights(cs); w != nil {
		t.Errorf("failure weights for a prompt naming no failure: %v", w)
	}
}

// TestCodeComesWithItsIntroduction: a line of a code block picked for the
// prompt's words comes with the line that introduces the block, which says
// what the command is for, though it names nothing the prompt asks. The
// texts are made up.
func TestCodeComesWithItsIntroduction(t *testing.T) {
	t.Parallel()
	cs := weighed(concepts("why can't I just open the kiln gallery by double-clicking it?", repoGlosses()))
	filler := strings.Repeat("Unrelated remark about the studio's opening hours and parking spaces. ", 3)
	text := strings.Join([]string{
		"Studio notes.",
		filler,
		"Browsers block the modules from disk; they need a server. Start one:",
		"```bash",
		"cd kiln-gallery && npx serve --listen 8000 .",
		"```",
		filler,
	}, "\n")
	got := readText(text).pick(cs, nil, 125)
	if !strings.Contains(got, "they need a server") || !strings.Contains(got, "cd kiln-gallery") {
		t.Errorf("want the code's introduction beside the line picked:\n%s", got)
	}
	for _, c := range []struct {
		segs []string
		want []int
	}{
		{[]string{"Run this:", "```", "make kiln", "```", "Not code:", "x"}, []int{-1, -1, 0, -1, -1, -1}},
		{[]string{"```", "make kiln", "```"}, []int{-1, -1, -1}}, // a fence first: nothing above it
		{[]string{"Then:", "````md", "~~~", "```", "x", "````", "y"}, []int{-1, -1, 0, 0, 0, -1, -1}},
	} {
		if got := codeIntros(c.segs); !slices.Equal(got, c.want) {
			t.Errorf("codeIntros(%q) = %v, want %v", c.segs, got, c.want)
		}
	}
}
