package extract

import (
	"slices"
	"strings"
	"testing"
)

// TestNoiseClasses checks that each kind of noise, in English and Korean,
// is recognised by its shape and yields no entry, while a real claim of
// the same form next to it still does.
func TestNoiseClasses(t *testing.T) {
	tests := []struct {
		name  string
		role  string
		text  string
		class noiseClass
	}{
		{"heading colon", "assistant", "What still needs doing:", heading},
		{"heading markdown", "assistant", "## Next Steps", heading},
		{"heading title case", "assistant", "🎯 Summary & Real Next Steps", heading},
		{"heading bold", "assistant", "**Root Cause**", heading},
		{"heading korean", "assistant", "## 남은 작업", heading},
		{"heading korean colon", "assistant", "다음 단계:", heading},
		{"ack follow", "assistant", "Got it, I will follow that from now on.", ack},
		{"ack apology", "assistant", "You're right, sorry about that — I should have fixed the runner instead.", ack},
		{"ack user", "user", "Thanks!", ack},
		{"ack korean", "assistant", "알겠습니다, 앞으로 그렇게 하겠습니다.", ack},
		{"status free", "assistant", "Port 3030 is free and the container is ready to start.", status},
		{"status now", "assistant", "The tests should now pass on CI.", status},
		{"status korean", "assistant", "마이그레이션을 성공적으로 적용했습니다.", status},
		{"status check mark", "assistant", "✅ Issue #364 closed", status},
		{"status checklist", "assistant", "`EXPORT_DIR` is configured", status},
		{"tool note", "assistant", "note: function defined here", toolLine},
		{"tool error pasted", "user", "error: could not compile `app` due to 3 previous errors", toolLine},
		{"tool gutter", "user", "12 | let x = y.clone();", toolLine},
		{"narration created", "assistant", "Created migration file `007_invoices_and_refunds.sql`", narration},
		{"narration created with", "assistant", "Created `billing.rs` module with the monthly invoicing logic", notNoise}, // says where that code lives
		{"narration label", "assistant", "`settings.py` — Added the mail constants", narration},
		{"narration korean", "assistant", "`api.go`에 핸들러를 추가했습니다.", notNoise}, // Korean past tense is judged by analyze
		{"plan step", "assistant", "Replace DiskCacheService with RedisCacheService", planStep},
		{"plan lets", "assistant", "Let's try linking again to see which symbol is missing.", planStep},
		{"plan you need", "assistant", "You'll need to add the DNS record manually.", planStep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp := sentences(tt.text)
			if len(sp) == 0 {
				t.Fatalf("no sentence in %q", tt.text)
			}
			s := newSent(0, sp[0].start, tt.text[sp[0].start:sp[0].end], tt.role == "user")
			s.shape = sp[0].shape
			if got := noise(s); got != tt.class {
				t.Errorf("noise(%q) = %d, want %d", tt.text, got, tt.class)
			}
			if tt.class == notNoise {
				return
			}
			msgs := []Message{{Index: 0, Role: tt.role, Text: tt.text}}
			if got := Offline(msgs); len(got) > 0 {
				t.Errorf("Offline(%q) = %s, want nothing", tt.text, dump(got))
			}
		})
	}
}

// TestKeptShapes checks the claims that sit in layouts the noise rules
// look at — a one-exchange convention, a bold label, a table row, a
// command in its own code block — are kept, with titles in their own words.
func TestKeptShapes(t *testing.T) {
	tests := []struct {
		name  string
		msgs  []Message
		typ   Type
		quote string // a quote of the entry contains this
		title string
	}{
		{"one exchange convention", []Message{
			{0, "user", "Our unit tests run with jest; use npx jest to run them."},
			{1, "assistant", "Got it, I will follow that from now on."},
		}, Fact, "Our unit tests run with jest", ""},
		{"korean team convention", []Message{
			{0, "user", "참, 우리 팀은 커밋 메시지를 한국어로 써요."},
			{1, "assistant", "알겠습니다."},
		}, Constraint, "커밋 메시지를 한국어로", ""},
		{"bold label", []Message{
			{0, "assistant", "Setup is done.\n\n- **Database:** Postgres 16 on port 6543\n- **Cache:** Redis 7"},
		}, Fact, "**Database:** Postgres 16 on port 6543", "Database: Postgres 16 on port 6543"},
		{"table row", []Message{
			{0, "assistant", "| Service | Where |\n|---|---|\n| API | `api.internal:8080` |"},
		}, Fact, "API | `api.internal:8080`", "API: api.internal:8080"},
		{"command block", []Message{
			{0, "assistant", "To run the integration tests:\n\n```\nmake itest DB=local\n```"},
		}, Fact, "make itest DB=local", "To run the integration tests: make itest DB=local"},
		{"table setting", []Message{
			{0, "assistant", "| Aspect | Implementation |\n|---|---|\n| **Sync frequency** | 8 hours |\n| **Token refresh** | 1 per sync only |"},
		}, Fact, "**Sync frequency** | 8 hours", "Sync frequency: 8 hours"},
		{"named repo", []Message{
			{0, "assistant", "**Linked repos (separate):**\n- `zeta/web` — the storefront\n- `zeta/ops` — the deploy scripts"},
		}, Fact, "`zeta/web` — the storefront", "zeta/web — the storefront"},
		{"accepted plan", []Message{
			{0, "assistant", "Workspaces are the simplest way.\n\nWant me to:\n1. Add `ui/` and `icons/` as npm workspaces\n2. Update `.gitignore` accordingly\n\nWant me to go ahead?"},
			{1, "user", "yes"},
		}, Decision, "Add `ui/` and `icons/` as npm workspaces", "Add ui/ and icons/ as npm workspaces"},
		{"accepted plan korean", []Message{
			{0, "assistant", "이렇게 제안합니다:\n- Use `pnpm` workspaces for the monorepo\n\n진행할까요?"},
			{1, "user", "네"},
		}, Decision, "Use `pnpm` workspaces", "Use pnpm workspaces for the monorepo"},
		{"commands in a block", []Message{
			{0, "assistant", "## Running\n\n```bash\n# Build and run\nmake build\nSTORE_PATH=./data.db LISTEN_ADDR=:9000 make run\n```"},
		}, Fact, "STORE_PATH=./data.db LISTEN_ADDR=:9000 make run", "Build and run: STORE_PATH=./data.db LISTEN_ADDR=:9000 make run"},
		{"path in the label", []Message{
			{0, "assistant", "1. **Invoice Parser** (`src/parser/`): Streaming PDF parsing with field extraction"},
		}, Fact, "**Invoice Parser** (`src/parser/`)", ""},
		{"change with value", []Message{
			{0, "assistant", "Pinned golangci-lint to v1.59.1 in `.github/workflows/ci.yml`."},
		}, Decision, "Pinned golangci-lint to v1.59.1", "Pinned golangci-lint to v1.59.1 in .github/workflows/ci.yml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Offline(tt.msgs)
			checkEntries(t, tt.name, tt.msgs, got)
			for _, e := range got {
				for _, ev := range e.Evidence {
					if e.Type == tt.typ && strings.Contains(ev.Quote, tt.quote) {
						if tt.title != "" && e.Title != tt.title {
							t.Errorf("title = %q, want %q", e.Title, tt.title)
						}
						return
					}
				}
			}
			t.Errorf("no %s quoting %q in %s", tt.typ, tt.quote, dump(got))
		})
	}
}

// TestLabelNoise checks label lines that are not facts: plan steps,
// progress reports, measurements and listings.
func TestLabelNoise(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"**Step 2: Export the database** (takes ~5 min)",
		"**Week 2**: Billing setup + Search migration",
		"✅ **Testing**: 412/430 tests passing",
		"Fuzzy match: Found 14 invoices",
		"| **Token refresh** | 1 per sync only |",
		"Pressure: 1013 hPa, Wind: 12.4 km/h",
		"Basic: $0.40/1K calls",
		"Initialize Drizzle: `npx drizzle-kit init`",
		"- File: `a/one.mp4`\n- File: `a/two.mp4`",
		"- `job-k2q` - Step 7: Sidekiq",
	} {
		msgs := []Message{{Index: 0, Role: "assistant", Text: text}}
		if got := Offline(msgs); len(got) > 0 {
			t.Errorf("Offline(%q) = %s, want nothing", text, dump(got))
		}
	}
}

// TestRejectedProposal checks that what the assistant proposed and the user
// turned down in the next message is not kept as a decision, in English and
// Korean, while an accepted one is.
func TestRejectedProposal(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		reply string
		kept  bool
	}{
		{"No, keep the in-memory queue for now.", false},
		{"아니요, 지금은 인메모리 큐를 유지해 주세요.", false},
		{"Sounds good.", true},
	} {
		msgs := []Message{
			{0, "user", "Which queue should the worker use?"},
			{1, "assistant", "We'll use Redis for the job queue."},
			{2, "user", tt.reply},
		}
		found := false
		for _, e := range Offline(msgs) {
			if e.Type == Decision && e.Evidence[0].MessageIndex == 1 {
				found = true
			}
		}
		if found != tt.kept {
			t.Errorf("reply %q: decision kept = %v, want %v", tt.reply, found, tt.kept)
		}
	}
}

// TestLessonNeedsFinding checks that a guess made mid-debugging is no
// lesson, a stated finding or a cause with its fix is, and that a failure
// line the lesson does not explain is not quoted as its evidence.
func TestLessonNeedsFinding(t *testing.T) {
	t.Parallel()
	guess := []Message{{0, "user", "the build fails"}, {1, "assistant", "The issue is that the crate name uses a hyphen."}}
	if got := Offline(guess); len(got) > 0 {
		t.Errorf("guess: got %s, want nothing", dump(got))
	}
	fixed := []Message{
		{0, "user", "CI is red again"},
		{1, "tool", "Bash: gh run view\nError: This job was cancelled because it runs on the retired runner image `macos-11`."},
		{2, "tool", "Bash: cargo build\nerror: could not compile `app` due to 3 previous errors"},
		{3, "assistant", "The issue is that the workflow runs on the retired macos-11 runner image. I moved it to macos-14 in `.github/workflows/ci.yml`."},
	}
	got := Offline(fixed)
	var lesson *Entry
	for i := range got {
		if got[i].Type == Lesson {
			lesson = &got[i]
		}
	}
	if lesson == nil {
		t.Fatalf("fixed: no lesson in %s", dump(got))
	}
	for _, ev := range lesson.Evidence {
		if strings.Contains(ev.Quote, "could not compile") {
			t.Errorf("lesson quotes an unrelated failure: %q", ev.Quote)
		}
	}
	if !strings.Contains(lesson.Evidence[0].Quote, "macos-11") {
		t.Errorf("lesson evidence %q, want the failure it explains first", lesson.Evidence[0].Quote)
	}
}

// TestTitlesUseSourceWords checks over every test session that each word of
// an entry's title occurs in its quotes: a title never invents words.
func TestTitlesUseSourceWords(t *testing.T) {
	t.Parallel()
	for name, s := range testSessions(t) {
		for _, e := range Offline(s.messages()) {
			if !titleFromQuotes(e) {
				t.Errorf("%s: title %q has a word not in its quotes %+v", name, e.Title, e.Evidence)
			}
		}
	}
}

// TestLessonResolvedLater checks that a cause stated mid-debugging is kept
// when the failure it explains is quoted and the same command passes later,
// and that a count of errors is never the quoted failure.
func TestLessonResolvedLater(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{0, "user", "the imaging build broke again"},
		{1, "tool", "Bash: cargo build --features vips (error)\nerror: failed to run custom build command for `libvips-sys v0.4.1`\nthread 'main' panicked: Unable to find pkg-config\nerror: could not compile `app` due to 1 previous error"},
		{2, "assistant", "The issue is that the vips build script has to locate pkg-config."},
		{3, "tool", "Bash: export PKG_CONFIG_PATH=/usr/lib/pkgconfig"},
		{4, "tool", "Bash: cargo build --features vips\n   Finished dev profile"},
	}
	var lessons []Entry
	for _, e := range Offline(msgs) {
		if e.Type == Lesson {
			lessons = append(lessons, e)
		}
	}
	if len(lessons) != 1 {
		t.Fatalf("got %s, want one lesson", dump(lessons))
	}
	if q := lessons[0].Evidence[0].Quote; !strings.Contains(q, "pkg-config") {
		t.Errorf("failure quote %q, want the line naming pkg-config", q)
	}
	// without the later pass it stays a guess
	if got := Offline(msgs[:4]); len(got) != 0 {
		t.Errorf("unresolved: got %s, want nothing", dump(got))
	}
}

// TestPlanItems checks that the items of a plan the user asked for that
// change what the project uses are kept, and the same bullets offered
// unasked are plan steps.
func TestPlanItems(t *testing.T) {
	t.Parallel()
	answer := Message{1, "assistant", "Here is the migration:\n- Replace Firebase Auth with Lucia Auth\n- Create `FirestoreSessionStore.ts`"}
	asked := Offline([]Message{{0, "user", "Think through a plan to drop Firebase and share it."}, answer})
	if len(asked) != 1 || asked[0].Type != Decision || asked[0].Title != "Replace Firebase Auth with Lucia Auth" {
		t.Errorf("asked for a plan: got %s, want the Replace item as a decision", dump(asked))
	}
	unasked := Offline([]Message{{0, "user", "Why is login slow?"}, answer})
	if len(unasked) != 0 {
		t.Errorf("not asked for a plan: got %s, want nothing", dump(unasked))
	}
}

// TestCommandFacts checks that a project command run more than once and
// seen to pass is kept, quoted from the tool call, and a one-off is not.
func TestCommandFacts(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{0, "user", "add the resample module"},
		{1, "tool", "Bash: uv run pytest -v 2>&1 (error)\nFAILED tests/test_resample.py"},
		{2, "tool", "Bash: uv run pytest -v 2>&1\n24 passed"},
		{3, "tool", "Bash: uv build 2>&1\nBuilt dist"},
	}
	got := Offline(msgs)
	if len(got) != 1 || got[0].Type != Fact || got[0].Title != "uv run pytest -v" || got[0].Evidence[0].MessageIndex != 2 {
		t.Errorf("got %s, want one fact quoting uv run pytest -v from message 2", dump(got))
	}
	checkEntries(t, "commands", msgs, got)
}

// TestLocatorReferences checks that "is at", "is in" make a reference only
// of the link they point at.
func TestLocatorReferences(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text string
		ref  bool
	}{
		{"Your fork is at https://github.com/acme/fw with all the changes.", true},
		{"The decision is in your hands now — open http://10.0.0.5 in a browser to configure it.", false},
		{"The runbook is in https://wiki.example.com/runbooks/db.", true},
		{"Your handbook is now live at: **https://acme.github.io/handbook/**", true},
		{"The shop is deployed to https://shop.acme.dev behind the CDN.", true},
		{"Your site is now live at: https://7be20c41.shop.pages.dev", false}, // one build's address
	} {
		got := Offline([]Message{{0, "assistant", tt.text}})
		ref := len(got) > 0 && got[0].Type == Reference
		if ref != tt.ref {
			t.Errorf("%q: reference %v, want %v (%s)", tt.text, ref, tt.ref, dump(got))
		}
	}
}

// TestLiveURLSaidTwice: the same address said live twice, once in bold, is
// one reference with both quotes; a label whose value is one build's
// address ("Production: https://a41f09bc.shop.pages.dev") is no fact.
func TestLiveURLSaidTwice(t *testing.T) {
	t.Parallel()
	msgs := []Message{
		{Index: 0, Role: "user", Text: "Deploy the handbook."},
		{Index: 1, Role: "assistant", Text: "Deployed.\n\nYour handbook is now live at: **https://acme.github.io/handbook/**\n\n- Production: https://a41f09bc.shop.pages.dev\n"},
		{Index: 2, Role: "user", Text: "Fix the search box."},
		{Index: 3, Role: "assistant", Text: "Your handbook is now live at https://acme.github.io/handbook/ with search working."},
	}
	got := Offline(msgs)
	checkEntries(t, "live twice", msgs, got)
	var refs []Entry
	for _, e := range got {
		if e.Type == Reference {
			refs = append(refs, e)
		}
		if strings.Contains(e.Body, "a41f09bc") {
			t.Errorf("got %q, want no memory of one build's address", e.Body)
		}
	}
	if len(refs) != 1 || len(refs[0].Evidence) != 2 {
		t.Errorf("references %s, want one with two quotes", dump(refs))
	}
}

// TestSwitchReported: the assistant reporting a switch it made, however
// pleased ("I've successfully replaced X with Y, making …"), records what
// the project uses now; a report of a step that names no replacement is
// still status.
func TestSwitchReported(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ text, want string }{
		{"Perfect! I've successfully replaced Memcached with **Valkey 8**, making the cache fully open source!", "Replaced Memcached with Valkey 8"},
		{"I've successfully migrated the app from Heroku to Fly.io, making deploys faster.", "Migrated the app from Heroku to Fly.io"},
		{"Done! I've successfully updated the README.", ""},
	} {
		msgs := []Message{{0, "user", "can we drop the old cache?"}, {1, "assistant", tt.text}}
		got := Offline(msgs)
		checkEntries(t, tt.text, msgs, got)
		var bodies []string
		for _, e := range got {
			if e.Type == Decision {
				bodies = append(bodies, e.Body)
				if tt.want != "" && e.Title != tt.want {
					t.Errorf("%q: title %q, want the switch as the body says it", tt.text, e.Title)
				}
			}
		}
		if tt.want != "" && !slices.Equal(bodies, []string{tt.want}) || tt.want == "" && len(bodies) > 0 {
			t.Errorf("%q: decisions %q, want %q", tt.text, bodies, tt.want)
		}
	}
}
