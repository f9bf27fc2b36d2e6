package extract

import (
	"strings"
	"testing"
)

// padded pads each line of s with spaces to a terminal's width, as a
// terminal's copy does.
func padded(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" && len(l) < 96 {
			lines[i] = l + strings.Repeat(" ", 96-len(l))
		}
	}
	return strings.Join(lines, "\n")
}

// pastedSessions are user messages that are a terminal session pasted
// whole: a command, then what it printed. Each has lines that read like a
// choice ("Use … to …", "Run with …", "We recommend …").
var pastedSessions = []struct{ name, text string }{
	{"build tool's sections", `brickle assemble --variant dev

Warming up the brickle worker pool
w: file:///home/dev/kiosk/app/src/main/Shell.kt:12:7 Symbol 'TrayGlyph' is not declared.

PROBLEM: the assemble step stopped.

* Cause:
Step ':kiosk:linkDevShell' did not finish.
> The link worker org.brickle.linker.internal.LinkRunner$LinkAction exited early
   > Link error. The link report has the details

* Next:
> Use the --legacy-link option to link with the previous linker.
> Pass --trace for the full trace.

ASSEMBLE STOPPED after 9s`},
	{"doctor's advice", "npx tamber-doctor\n\n" + padded(`tamber note: setting "registry-mirror" is not recognised and is skipped.
cfg: read .tamberrc
[12/14] checks ok, 2 need attention.
Pass --every-check to list every check.

✖ plugin versions differ from what the runtime expects
What to do:
Use 'npx tamber align --write' to pin the expected plugin versions.
To skip a plugin, list it under "tamber.align.skip" in tamber.json.
`) + "\n2 checks need attention, see what to do above."},
	{"prompt sign and status words", `$ zemble deploy --env staging
Packing release 4.2.0...
Uploading bundle...                     1.8s
WARN: The v1 runtime is retired at the end of the quarter.
Use zemble migrate --runtime v2 to move the project over.
To pin the runtime, set "runtime" to "v2" in zemble.toml.
-----------------------------------------
SHIPPED in 4.2s`},
	{"host prompt and test report", `dev@kestrel:~/shop$ quorn test ./basket/...
>>> BROKEN sums_test (0.01s)
    sums_test.qk:41:9: wanted 12, saw 14
BROKEN	shop/basket	0.41s
fine	shop/api	0.22s
Use -fresh to run the tests without the result cache.
Elapsed 0.63s
BROKEN (1 of 2 packages)`},
	{"path prompt and container build", `~/work/atrium ❯ vessel up --build
Assembling api
Layer 1/6 : FROM slimbase:3.4
Layer 2/6 : We keep the image small by using the slim base.
 ---> 9f1c2d3e4b5a
Layer 3/6 : RUN make deps
 ---> inside box 1a2b3c4d5e6f
Image 9f1c2d3e4b5a ready   12.4s
Use 'vessel scan' to find vulnerabilities in the image.
To reuse the cache, add --cache-from to the build command.`},
	{"stack frames", `./opsbook/start.sh --profile local
Loading the profile from opsbook/local.env
Unhandled in worker "main" org.example.billing.InvoiceStore$LoadError: no schema
    at org.example.billing.InvoiceStore.load(InvoiceStore.kt:88)
    at org.example.billing.Main.run(Main.kt:21)
Underlying: org.example.db.PoolError: pool closed
    at org.example.db.Pool.take(Pool.kt:40)
The invoice store could not be opened because its schema is missing.
Use the embedded store for local runs by setting STORE_MODE=embedded.
To create the schema, run the setup task once before the first start.
ABORTED: startup gave up after 2.4s`},
	{"compiler's help", `ferrum build --release
   Building tallyo v0.3.1 (/home/dev/tallyo)
error: unused borrow in tallyo::book::Entry
  --> src/book.fe:12:5
   |
12 |     let e = &entry;
   |         ^ drop the borrow
   = tip: use ferrum fix to apply the suggestion
Run ferrum explain for a longer description of this error.
To allow unused borrows, add them to "lints.allow" in ferrum.toml.
error: tallyo was not built (1 error)`},
	{"package manager's warnings", `yarnish add padkit@^2 --exact
info Fetching the package list...
warning padkit@2.0.1: Use the maintained fork padkit-next instead.
info Wiring up the modules...
ok Added 1 package to the manifest.
Finished after 3.04s.`},
	{"linter report", `snagcheck check src/ --strict
src/app/routes.tx:14:3   warning  Prefer named exports over default exports   named-only
src/app/db.tx:2:10       error    Always use the pooled client                pool-only
src/app/db.tx:9:1        error    Keep queries in the repository layer         repo-only

✖ 3 findings (2 errors, 1 warning)`},
	{"migration tool", `$ dbshift apply --target 0042
APPLYING 0041_receipts.sql ... ok (14ms)
APPLYING 0042_drop_legacy.sql ... ok (9ms)
=========================================
Note: we keep the history in the shift_history table.
Use dbshift status to list the applied migrations.
To roll back, add the version to "rollback" in dbshift.json.
APPLIED 2 migrations in 0.03s`},
	{"test runner", `spindle run --coverage
 ✓ basket adds items (4ms)
 ✗ sums apply tax (12ms)
     wanted 12.5, saw 13
Outcome: 1 broken, 41 fine, 42 in all
Wall clock: 2.31s
Use --update to rewrite the snapshots that changed.`},
	{"windows prompt", `PS C:\src\kiosk> kbuild publish -c Release
  Pulling packages for C:\src\kiosk\kiosk.kproj...
  Pulled C:\src\kiosk\kiosk.kproj (in 312ms).
  kiosk -> C:\src\kiosk\bin\Release\kiosk.dll
WARNING: Pass --bundled-runtime to ship the runtime with the app.
The trimmed build is recommended for kiosks with little disk space.
Published after 6.1s`},
	{"a user's line, then the session", `the preview build broke again:
$ zemble preview --port 4410
Packaging 31 modules...
ERROR at src/pages/home.tx:22:14
  Use the default export of the layout module instead.
To silence this check, add the page to "preview.skip" in zemble.json.
PREVIEW STOPPED after 3.3s`},
	{"prompt with a branch", `➜  kioskapp git:(main) ✗ tamber sync --all
tamber sync 2.3.0
Reading 14 plugin manifests...
✔ 12 plugins in step
✖ 2 plugins behind
To skip a plugin, list it under "tamber.sync.skip" in tamber.json.
Use tamber sync --write to bring them in step.
SYNC INCOMPLETE (12/14) after 0.9s`},
}

// TestPastedSessionYieldsNothing: a terminal session pasted whole, the
// command and what it printed, gives no memory, however much its lines
// read like choices; nor does a user's line that only introduces it.
func TestPastedSessionYieldsNothing(t *testing.T) {
	t.Parallel()
	for _, c := range pastedSessions {
		msgs := []Message{{Index: 0, Role: "user", Text: c.text}}
		got := Offline(msgs)
		checkEntries(t, c.name, msgs, got)
		if len(got) > 0 {
			t.Errorf("%s: %d entries from a pasted session, want none:%s", c.name, len(got), dump(got))
		}
	}
}

// TestUserLinesAroundSessionKept: what a user typed themselves still
// yields memories: a list under a command, a list of their own marked with
// "* " or "> ", prose after a short pasted session.
func TestUserLinesAroundSessionKept(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, text, quoted string }{
		{"a list with stars", "Decisions for the kiosk:\n* use pnpm from now on\n* we keep Postgres 16 for the receipts\n* deploy with the fly script\n* no Redis at all", "use pnpm from now on"},
		{"a list with quote marks", "Settled today:\n> we keep the monorepo layout\n> we deploy the api with the fly script\n> use port 4100 for the dev server", "use port 4100 for the dev server"},
		{"a list under a command", "pnpm install --frozen-lockfile\n* we always run it in CI before the tests\n* we use pnpm from now on, not npm\n* keep the lockfile in the repo", "we use pnpm from now on, not npm"},
		{"prose after a short session", "$ zemble lint --fix\nFIXED 3 files in 1.2s\nDONE in 1.4s\n\nFrom now on we run the linter before every commit.", "we run the linter before every commit"},
		{"prose after a longer session", "~/work/atrium ❯ vessel up --build\nStep 1/3 : FROM slimbase:3.4\nStep 2/3 : RUN make deps\nSuccessfully built 9f1c2d3e4b5a   12.4s\n\nWe decided to keep the slim base image for every service.", "keep the slim base image for every service"},
		{"paths and timings in a user's list", "Rules for the api:\n- keep the entry point in src/main_api.ts\n- the status probe must answer within 200ms\n- use port 4100 for the dev server", "use port 4100 for the dev server"},
		{"capitals for emphasis", "Team rules:\n* ALWAYS use the staging bucket for tests\n* NEVER commit the secrets file\n* we deploy with the fly script", "ALWAYS use the staging bucket for tests"},
		{"a command the user asks for", "run the migrations with --preview-only first from now on", "preview-only first from now on"},
		{"a command then the user's reasons", "git rebase -i main\nWe always rebase feature branches instead of merging them.\nWe write a scope prefix in every commit message.", "rebase feature branches instead of merging"},
		{"versions in a user's list", "Stack we settled on:\n- Node 20.11 for the api\n- we use Postgres 16.2 for the receipts\n- Redis 7 for the sessions", "Postgres 16.2"},
		{"numbered steps of the user", "Plan for the release:\n1. Use the blue-green script for the deploy\n2. Keep the old stack up for 30m\n3. Switch DNS with the cutover tool", "Keep the old stack up for 30m"},
		{"a labelled line with a path", "Decision: we keep the uploads in s3://kiosk-media/uploads from now on.", "keep the uploads"},
		{"a user's line between outputs", "$ zemble lint --fix\nFIXED 3 files in 1.2s\nERROR: 1 file could not be fixed\nWe run the linter before every commit, it fixes most files.\nDONE in 1.4s\nSKIPPED 2 files in 0.3s",
			"We run the linter before every commit"},
		{"an indented quote of the user's", "Notes from the call:\n  we use Stripe for payments\n  we keep the invoices in Postgres\n  deploy with the fly script", "Stripe for payments"},
	}
	for _, c := range cases {
		msgs := []Message{{Index: 0, Role: "user", Text: c.text}}
		got := Offline(msgs)
		checkEntries(t, c.name, msgs, got)
		found := false
		for _, e := range got {
			for _, ev := range e.Evidence {
				found = found || strings.Contains(ev.Quote, c.quoted)
			}
		}
		if !found {
			t.Errorf("%s: no entry quotes %q:%s", c.name, c.quoted, dump(got))
		}
	}
}

// userProseAfterCommand are user messages that open with a command and go
// on in the user's own prose, with the timings, shares, file positions and
// trailing ellipses such prose holds (softMarks).
var userProseAfterCommand = []struct{ name, text, quoted string }{
	{"timings, a share and a position",
		"npm run build --prod\nRun that before every deploy from now on, it takes 40s.\nWe deploy with the quarrow script, never by hand (100% of deploys).\nThe build output goes to dist/web, see vite.config.ts:14:3.",
		"Run that before every deploy from now on"},
	{"one line of output, then the user's rule",
		"$ go test ./...\nok  \tkestrel/store\t0.41s\nFrom now on we run go test with -race before each push, it costs 3s more.\nWe keep coverage above 80% for the store package.",
		"we run go test with -race before each push"},
	{"shares and a position",
		"git pull --rebase\nWe always rebase, never merge: 100% of branches.\nThe main branch is protected, pushes take 5s to verify.\nReviews cite lines like src/api/routes.ts:42:7.",
		"We always rebase, never merge"},
	{"an unmarked line among lines ending in an ellipsis",
		"quarrow deploy --prod\nok so that works...\nFrom now on we deploy with quarrow, not the old script.\nThe deploy takes 40s, then the cache warms for 20s...\nWe keep the cutover branch protected...",
		"we deploy with quarrow, not the old script"},
	{"timings in brackets and a position",
		"pnpm run check --all\nThat is the one gate. It takes about 90s here (120s on CI).\nFrom now on we always run it before pushing, and merges need 100% of checks green.\nWe cite places as src/app/main.ts:12 in reviews.",
		"we always run it before pushing"},
}

// TestUserProseAfterCommandKept: a command, then the user's own prose with
// only soft marks (softMarks) is no pasted session: the user's rule in it
// gives a decision, constraint or preference.
func TestUserProseAfterCommandKept(t *testing.T) {
	t.Parallel()
	for _, c := range userProseAfterCommand {
		t.Run(c.name, func(t *testing.T) {
			if from, to, ok := pastedSession(c.text); ok {
				t.Errorf("read as a pasted session: %q", c.text[from:to])
			}
			msgs := []Message{{Index: 0, Role: "user", Text: c.text}}
			got := Offline(msgs)
			checkEntries(t, c.name, msgs, got)
			for _, e := range got {
				if e.Type != Decision && e.Type != Constraint && e.Type != Preference {
					continue
				}
				for _, ev := range e.Evidence {
					if strings.Contains(ev.Quote, c.quoted) {
						return
					}
				}
			}
			t.Errorf("no decision, constraint or preference quotes %q:%s", c.quoted, dump(got))
		})
	}
}

// TestLogTag: a logger's level in lower case leads a line of output when a
// colon or a word that is not plain prose follows it.
func TestLogTag(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"info Fetching the package list...", true},
		{"warning padkit@2.0.1: Use the maintained fork", true},
		{"ok Added 1 package to the manifest.", true},
		{"debug: cache hit", true},
		{"ok so that works...", false},
		{"ok, that builds now", false},
		{"information is in the wiki", false},
		{"We log at info level", false},
	} {
		if got := logTag(tt.line); got != tt.want {
			t.Errorf("logTag(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// TestPastedSessionShape: the session's span is the command and its
// output, not the user's line before it or the prose after it.
func TestPastedSessionShape(t *testing.T) {
	t.Parallel()
	for _, c := range pastedSessions {
		if _, _, ok := pastedSession(c.text); !ok {
			t.Errorf("%s: not read as a pasted session", c.name)
		}
	}
	text := "it broke on the build box\n$ zemble lint --fix\nFIXED 3 files in 1.2s\nERROR: 1 file could not be fixed\nDONE in 1.4s\n\nWe run the linter before every commit."
	from, to, ok := pastedSession(text)
	if !ok {
		t.Fatalf("%q: not read as a pasted session", text)
	}
	if got, want := text[from:to], "$ zemble lint --fix\nFIXED 3 files in 1.2s\nERROR: 1 file could not be fixed\nDONE in 1.4s"; got != want {
		t.Errorf("session = %q, want %q", got, want)
	}
}

// TestUserWritesAgainAfterPastedError: after an error pasted into a prompt,
// the rest of the paste is skipped up to a line in which the user writes
// again; that line and what follows are the user's own.
func TestUserWritesAgainAfterPastedError(t *testing.T) {
	kept := []struct{ name, text, want string }{
		{"a rule after a compiler's error",
			"$ quillc build --target wasm ./cmd/atlasmap\nsrc/atlasmap/grid.ql:18:7 error: unknown symbol 'tileSpanQ'\nBUILD FAILED in 3.2s\nFrom now on we build atlasmap with quillc --strict before every release.",
			"quillc --strict"},
		{"a decision after a trace",
			"TypeError: cannot read properties of undefined (reading 'orbitz')\n    at Loom.spin (loom.js:88:13)\n    at main (index.js:4:1)\nWe decided to pin loomkit to 4.2 until the upstream fix lands.",
			"pin loomkit to 4.2"},
	}
	for _, c := range kept {
		t.Run(c.name, func(t *testing.T) {
			es := Offline([]Message{{Index: 0, Role: "user", Text: c.text}, {Index: 1, Role: "assistant", Text: "Understood."}})
			found := false
			for _, e := range es {
				if strings.Contains(e.Title+" "+e.Body, c.want) {
					found = true
				}
				if strings.Contains(e.Body, "error") || strings.Contains(e.Body, "loom.js") {
					t.Errorf("a memory of the paste: %s %q", e.Type, e.Body)
				}
			}
			if !found {
				t.Errorf("no memory says %q: %+v", c.want, es)
			}
		})
	}
	// The paste's own prose, not in the user's voice, stays the paste's.
	es := Offline([]Message{{Index: 0, Role: "user", Text: "TypeError: cannot read properties of undefined (reading 'orbitz')\n    at Loom.spin (loom.js:88:13)\nThe vexbuild sync step always rewrites the lockfile before it exits."},
		{Index: 1, Role: "assistant", Text: "Understood."}})
	for _, e := range es {
		t.Errorf("a memory of the paste's own lines: %s %q", e.Type, e.Body)
	}
}
