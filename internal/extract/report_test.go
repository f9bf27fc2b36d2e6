package extract

import (
	"strings"
	"testing"
)

// A made-up build log with an error in it, and one without.
const (
	failedLog = "09:14:02.101 Cloning the repository (branch: mainline)\n09:14:03.220 Fetching modules...\n" +
		"09:14:09.870 Error: Command \"make site\" exited with 1\n09:14:09.990 Build exited with status 1\n"
	quietLog = "09:14:02.101 Cloning the repository (branch: mainline)\n09:14:03.220 Fetching modules...\n" +
		"09:14:09.870 Compiled in 4.2s\n09:14:09.990 Published the site\n"
)

// TestReportOverAPaste: a user's line over pasted output that shows a
// failure says what went wrong and where, and gives no decision,
// constraint or preference, whatever tool or host it names; a line that
// directs, or sets a rule that holds on, still does, and so does a line over
// output that shows no failure.
func TestReportOverAPaste(t *testing.T) {
	t.Parallel()
	report := []struct{ name, text string }{
		{"deploy broke", "the release to Hetzner broke, here is the log:\n" + failedLog},
		{"no colon", "Sadly no luck shipping on Linode with Bazel\n" + failedLog},
		{"continued lines", "Its error, can't ship on Linode:\\\n" + failedLog},
		{"stack trace", "the cart page on SvelteKit 2 after the upgrade\nTypeError: item.sku is undefined\n    at Cart (src/cart.ts:14:9)\n    at render (node_modules/svelte/x.js:1:1)\n    at mount (node_modules/svelte/x.js:2:2)\n"},
		{"registry output", "composer install on the build box with Laravel 11 gives\nnpm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.example.test/left-pad\nnpm ERR! 404 the package is not in this registry\nnpm ERR! A complete log of this run can be found in /tmp/x.log\n"},
		{"compiler", "the Bazel build of the release target on the build box:\nerror[E0599]: no method named `frob` found\n --> src/main.rs:4:5\n  |\n4 |     x.frob();\n  |       ^^^^ method not found\n"},
		{"failed tests", "phpunit on the Laravel 11 branch this morning\nFAILED tests/ApiTest.php::testLogin - AssertionError: 401 != 200\nFAILED tests/ApiTest.php::testLogout - AssertionError\n2 failed, 40 passed in 3.1s\nexit status 1\n"},
		{"server refused", "the importer against MariaDB on Upstash, output:\n[importer] starting\n[importer] connecting to 10.0.0.9:3316\nError: connect ETIMEDOUT 10.0.0.9:3316\n    at TCPConnectWrap.afterConnect (node:net:1:1)\n"},
		{"forbidden", "kubectl apply to the prod namespace with Helm 3:\n10:01:02 applying chart\n10:01:03 Error from server (Forbidden): deployments.apps is forbidden\n10:01:03 user cannot patch resource\n10:01:04 exit code 1\n"},
		{"go test", "go test with the race detector on Go 1.23\n--- FAIL: TestMerge (0.01s)\n    merge_test.go:12: got 2, want 3\nFAIL\nexit status 1\nFAIL\tpkg/merge\t0.02s\nok  \tpkg/index\t0.01s\n"},
		{"sql", "the schema change on MariaDB 11 again:\nBEGIN\nmigrate: 001_tables.sql:4: ERROR:  table \"members\" does not exist\nROLLBACK\n  line 4 of 001_tables.sql\n"},
		{"the last sentence", "Tried it twice this morning. The release to Hetzner with Bazel, here is the log:\n" + failedLog},
		{"a gerund after the verb", "Keep getting this on the Linode box with Bazel 7:\n" + failedLog},
		{"a tool named like a verb", "make fails on the Linode box with Bazel 7:\n" + failedLog},
		// A program's advice opens with a verb of change and goes on to report
		// its failure; it sits above the log's error lines, read as the user's.
		{"a tool's advice over its error", "Keep the daemon running: the watcher crashed and will restart in 5s\n" +
			"Set WATCH_POLL=1 to poll instead, the inotify limit was exceeded and the watcher failed\n[watch] restarting\n[watch] error: ENOSPC\n"},
		{"overlay", "switching the bundler to SvelteKit 2 shows\n[dev] Internal server error: Failed to resolve import\n  Plugin: import-analysis\n  File: src/main.ts:3:19\n  1  |  import x from './x'\n"},
	}
	keep := []struct{ name, text string }{
		{"a rule from now on", "we use Bazel for builds from now on:\n- no make in scripts\n- the lock file is committed\n- Bazel 7 on the build box\n- no shell wrappers anywhere\n"},
		{"from now on over a failure", "We use Linode for the preview deploys from now on, Hetzner keeps timing out\n" + failedLog},
		{"always over a failure", "Always run the schema step with `make schema` before a release\n" + failedLog},
		{"never over a failure", "Never push straight to mainline, the build box gives this on a direct push\n" + failedLog},
		{"must over a failure", "The build box must run on Go 1.23, not 1.21\n" + failedLog},
		{"use over a failure", "Use Bazel instead of make for the scripts\n" + failedLog},
		{"should over a failure", "Errors should go to Bugsnag from now on, not to the console\n" + failedLog},
		{"a quiet log", "Deploy target is Firebase Hosting from now on\n" + quietLog},
		{"a log of how it runs", "We deploy the handbook with Cloud Run and Bazel\n" + quietLog},
		{"values pasted", "I prefer the violet theme with #7a3cf0 as the main colour\n#7a3cf0\nrgba(122,60,240,1)\n#f0a03c\n#1c1c1c\n"},
		// The sentences before the last one on the line over a paste are the user's own.
		{"a decision before the report", "We decided to move the API to Linode. This is what Hetzner printed on the last deploy:\n" + failedLog},
		{"going with before the report", "Going with Karma instead of Jasmine for the web package. Jasmine output for reference:\n" +
			"    FAIL src/cart.test.ts\n      cart adds item\n        TypeError: cannot read sku\n          at add (src/cart.ts:3:3)\n"},
		{"go with before the report", "Go with the managed MariaDB on the preview box. The self-hosted one:\n" + failedLog},
		// A line of prose naming an error class is the user's, not the paste's start.
		{"two prose lines", "The preview database is the shared Upstash instance, not a local container.\nLocal containers kept hitting the PortInUseError."},
		{"prose line over a trace", "We're keeping the importer on Node 20 for now, not Bun.\nBun gives a ModuleResolutionError on the native addon:\n" +
			"ModuleResolutionError: cannot load addon.node\n    at load (loader.js:1:1)\n"},
		{"prose line over an error", "We decided to keep the retry budget at three attempts per job.\nThe queue client throws a LeaseTimeoutError on slow nights:\n" +
			"LeaseTimeoutError: lease 41 expired after 30s\n    at Lease.renew (lease.js:88:11)\n"},
		// A command that changes how the project works directs, like "use" or "must".
		{"a command over a failure", "Switch the job queue to Redis, the in-memory one keeps losing work:\n" + failedLog},
		{"a plan over a list", "Plan for the kiosk from now on, we use MariaDB\n- Use MariaDB\n- Port 3316\n- Deploy to Linode\n- No cache at all\n"},
	}
	chooses := func(es []Entry) bool {
		for _, e := range es {
			if e.Type == Decision || e.Type == Constraint || e.Type == Preference {
				return true
			}
		}
		return false
	}
	for _, c := range report {
		t.Run("report/"+c.name, func(t *testing.T) {
			msgs := []Message{{Index: 0, Role: "user", Text: c.text}}
			got := Offline(msgs)
			checkEntries(t, c.name, msgs, got)
			if chooses(got) {
				t.Errorf("a report gave a choice:%s", dump(got))
			}
		})
	}
	for _, c := range keep {
		t.Run("keep/"+c.name, func(t *testing.T) {
			msgs := []Message{{Index: 0, Role: "user", Text: c.text}}
			got := Offline(msgs)
			checkEntries(t, c.name, msgs, got)
			if !chooses(got) {
				t.Errorf("no choice from %q:%s", strings.SplitN(c.text, "\n", 2)[0], dump(got))
			}
		})
	}
}

// TestOwnSentence: a line of the user's own prose at the top of a paste,
// even one naming an error class, is theirs; a line a program printed
// opens with an error, a failure's lead, a tag or a list marker.
func TestOwnSentence(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"Local containers kept hitting the PortInUseError.", true},
		{"Bun throws a ModuleNotFoundException on start:", true},
		{"We're keeping the importer on Node 20 for now", true},
		{"ModuleResolutionError: cannot load addon.node", false},
		{"TypeError: item.sku is undefined", false},
		{"Error: Command \"make site\" exited with 1", false},
		{"fatal: not a git repository (or any parent)", false},
		{"[dev] Internal server error: Failed to resolve import", false},
		{"E/app (4012): #0      _FrameRunner.runScheduledTask (package:app/runner.dart:3:4)", false},
		{"   - \"Cart.tsx:14 Uncaught SyntaxError: no export named Select\"", false},
		{"09:14:03.220 Fetching modules...", false},
		{"    at Lease.renew (lease.js:88:11)", false},
		{"The queue client says: Error: lease expired after thirty seconds", false},
	} {
		if got := ownSentence(tt.line); got != tt.want {
			t.Errorf("ownSentence(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}
