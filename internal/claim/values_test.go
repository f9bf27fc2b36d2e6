package claim

import (
	"slices"
	"strings"
	"testing"
)

// TestValueShapes checks that a value no table lists is read by its shape,
// with the role of the phrase it attaches to.
func TestValueShapes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, text, role, value string
	}{
		{"size spaced", "The upload limit is 10 MB.", "limit", "10mb"},
		{"size joined", "Raise the upload limit to 25MB.", "limit", "25mb"},
		{"kubernetes quantity", "Set the worker memory limit to 512Mi.", "limit", "512mi"},
		{"binary gigabytes", "The cache volume is 2Gi.", "volum", "2gi"},
		{"duration without a known word", "The grooming window is 45 minutes.", "window", "2700s"},
		{"version of an unknown product", "We are on Zentrox 3.1 now.", "version:zentrox", "3.1"},
		{"version after the word version", "Bump the zentrox version to 7.", "version:zentrox", "7"},
		{"host", "The API is served from api.zentro.dev.", "api", "api.zentro.dev"},
		{"host with a role", "The metrics endpoint is metrics.zentro.dev.", "endpoint", "metrics.zentro.dev"},
		{"ip", "The DB host is 10.0.0.5.", "host", "10.0.0.5"},
		{"ip without a role", "Point it at 192.168.4.20 please.", "address", "192.168.4.20"},
		{"port", "Changed the port from 8080 to 3000.", "port", "3000"},
		{"path", "Fixtures live in testdata/golden.", "path", "testdata/golden"},
		{"url", "Docs are published at https://docs.zentro.dev/guide.", "host", "docs.zentro.dev"},
		{"code span", "The feature flag is `enable_fast_sync`.", "flag", "enable_fast_sync"},
		{"channel", "Alerts go to #ops-alerts.", "alert", "#ops-alerts"},
		{"channel without a role", "Ping #ops-alerts when it is done.", "channel", "#ops-alerts"},
		{"number where it is set", "The batch size is now 500.", "siz", "500"},
		{"handle", "The on-call owner is @dana.", "own", "@dana"},
		{"capitalised name for a role", "We use Quorvel for linting.", "linter", "quorvel"},
		{"name after a verb", "We lint with Bazomex now.", "linter", "bazomex"},
		{"name after a colon", "Linter: quorvel", "linter", "quorvel"},
		{"name after a participle", "Sessions are cached in Kelbo.", "cache", "kelbo"},
		{"name for an unknown role", "We use Plimbo for the gnarfing.", "gnarf", "plimbo"},
		{"is our", "Zorvix is our tracker.", "track", "zorvix"},
		{"name of two capitalised words", "Jobs are queued in Kelbo Streams.", "queue", "kelbo streams"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs := Parse(tt.text)
			c, ok := find(cs, tt.role)
			if !ok || c.Value != tt.value {
				t.Fatalf("Parse(%q) = %+v, want %s = %q", tt.text, cs, tt.role, tt.value)
			}
		})
	}
}

// TestValueShapesNotValues checks that words described, not set, are no
// values.
func TestValueShapesNotValues(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"Thanks for the help!",
		"Add tests to the parser.",
		"The build is broken on main.",
		"Yesterday Dana fixed it.",
		"We need to refactor the handler.",
	} {
		if cs := Parse(text); len(cs) != 0 {
			t.Errorf("Parse(%q) = %+v, want none", text, cs)
		}
	}
}

// TestChangeWordings checks that each way of saying a change makes the newer
// statement replace the older one, for values no table lists.
func TestChangeWordings(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, older, newer string
		oldValue, newValue string
	}{
		{"changed from to", "The ingest port is 7070.", "The ingest port changed from 7070 to 7171.", "7070", "7171"},
		{"now", "The upload limit is 10 MB.", "The upload limit is now 20 MB.", "10mb", "20mb"},
		{"update", "The upload limit is 10 MB.", "Update: the upload limit is 20 MB.", "10mb", "20mb"},
		{"moved to", "We use Quorvel for linting.", "Linting moved to Bazomex.", "quorvel", "bazomex"},
		{"switched to", "We use Quorvel for linting.", "We switched to Bazomex for linting.", "quorvel", "bazomex"},
		{"switched from to", "We use quorvel for linting.", "We switched from quorvel to bazomex.", "quorvel", "bazomex"},
		{"instead of", "We use quorvel for linting.", "Use bazomex instead of quorvel for linting.", "quorvel", "bazomex"},
		{"stop using", "We use quorvel for linting.", "Stop using quorvel, use bazomex in new code.", "quorvel", "bazomex"},
		{"dropped", "Background jobs go to Kelbo.", "We dropped Kelbo. Background jobs go to Zorvix now.", "kelbo", "zorvix"},
		{"kubernetes quantity", "Set the worker memory limit to 512Mi.", "Raise the worker memory limit from 512Mi to 1Gi.", "512mi", "1gi"},
		{"channel", "Deploy notices go to #ops-deploys.", "Deploy notices moved to #release-train.", "#ops-deploys", "#release-train"},
		{"version", "We are on Zentrox 3.1.", "We upgraded Zentrox to 3.4.", "3.1", "3.4"},
		{"kept failing", "Sessions are cached in Plimbo.", "Plimbo kept losing sessions on restart, so sessions go to Trevvix now.", "plimbo", "trevvix"},
		{"verb before the phrase", "We lint the TypeScript code with quorvel.", "We dropped quorvel. Linting runs on bazomex now.", "quorvel", "bazomex"},
		{"korean instead", "캐시는 Plimbo를 씁니다.", "Plimbo 대신 Trevvix로 캐시합니다.", "plimbo", "trevvix"},
		{"korean topic", "ORM은 plimbo를 씁니다.", "plimbo 대신 trevvix로 바꿨어요.", "plimbo", "trevvix"},
		{"korean no longer", "메시지 큐는 Plimbo를 사용합니다.", "Plimbo는 더 이상 사용하지 않고 Trevvix로 보냅니다.", "plimbo", "trevvix"},
		{"no purpose named", "Use Kelbo.", "Actually, go with Zorvix instead of Kelbo.", "kelbo", "zorvix"},
		{"two-word name", "We use Bazu Kimot for CI.", "CI moved from Bazu Kimot to Velmo.", "bazu kimot", "velmo"},
		{"old value after a determiner", "Exceptions in the web app are sent to Vantrel.", "We dropped the Vantrel plan, so crash reporting goes to Oskarit now.", "vantrel", "oskarit"},
		{"named as replaced, phrase role like a shape's", "We publish the handbook on Tarvo Sites.", "Handbook hosting moved from Tarvo Sites to Quellin.", "tarvo sites", "quellin"},
		{"deprecated, Y replaces it", "Sessions are kept in Plimbo.", "Plimbo is deprecated; Trevvix replaces it for new services.", "plimbo", "trevvix"},
		{"Y replaces X", "Sessions are kept in Plimbo.", "Trevvix replaces Plimbo for sessions.", "plimbo", "trevvix"},
		{"lower-case name after through", "Backend HTTP calls go through quorvex.", "Backend HTTP calls use trevvix instead of quorvex.", "quorvex", "trevvix"},
		{"subject before a verb", "The admin console now reads from Plimbo.", "Revert to trevvix for the admin console.", "plimbo", "trevvix"},
		{"name modifying a noun", "We settled on the local Quillex feature toggle.", "With three regions now, the feature toggle has to move to the hosted Brantor instance.", "quillex", "brantor"},
		{"one subject named by two words", "We picked Glimmo for the invoice printing.", "Actually, print the invoices with Brovik; Glimmo drops the margins.", "glimmo", "brovik"},
		{"new value in the statement before", "We run the smoke checks with Dapple.", "Smoke checks are written for Kremlo now; Dapple is deprecated.", "dapple", "kremlo"},
		{"korean object head, vendor's product code", "첨부 파일은 S3 버킷 kelbo-files에 저장합니다.", "파일 저장소를 Zentra Q7로 옮겼어요.", "s3", "zentra q7"},
		{"off X to the Y", "Staff sign in with Kestrix.", "Staff sign-in moved off Kestrix to the Pomvale server in our VPC.", "kestrix", "pomvale"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rel, role, ov, nv := Compare(Parse(tt.older), Parse(tt.newer))
			if rel != Supersedes || ov != tt.oldValue || nv != tt.newValue {
				t.Fatalf("Compare = %v %s %q->%q, want supersedes %q->%q\nolder %+v\nnewer %+v", rel, role, ov, nv,
					tt.oldValue, tt.newValue, Parse(tt.older), Parse(tt.newer))
			}
		})
	}
}

// TestMadeUpReversal checks that two statements about a role no table
// lists, with values no table lists, are found as a reversal.
func TestMadeUpReversal(t *testing.T) {
	t.Parallel()
	older := Parse("We use Plimbo for the gnarfing of the zoot files.")
	newer := Parse("Gnarfing moved to Trevvix, Plimbo kept timing out.")
	rel, role, ov, nv := Compare(older, newer)
	if rel != Supersedes || ov != "plimbo" || nv != "trevvix" {
		t.Fatalf("Compare = %v %s %q->%q, want supersedes plimbo->trevvix\nolder %+v\nnewer %+v", rel, role, ov, nv, older, newer)
	}
}

// TestRoleAcrossUseAndThrough checks that "the X uses/should use V" and "X
// go through V" give V the role X names.
func TestRoleAcrossUseAndThrough(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ text, role, value string }{
		{"Payments go through Paysly.", "payments", "paysly"},
		{"Actually, state management should use velmora instead.", "state management", "velmora"},
		{"The gnarfing uses Plimbo.", "gnarf", "plimbo"},
	} {
		if c, ok := find(Parse(tt.text), tt.role); !ok || c.Value != tt.value {
			t.Errorf("Parse(%q) = %+v, want %s = %q", tt.text, Parse(tt.text), tt.role, tt.value)
		}
	}
}

// TestSuccessorAndFrontedPurpose checks that a name after a replaced value
// with a role of its own takes that role, and that "For X, we use V" gives V
// the role X names.
func TestSuccessorAndFrontedPurpose(t *testing.T) {
	t.Parallel()
	rel, role, ov, nv := Compare(Parse("For API docs we use Swaggo."), Parse("We no longer use Swaggo for API docs, Redocly generates them."))
	if rel != Supersedes || ov != "swaggo" {
		t.Fatalf("Compare = %v %s %q->%q, want supersedes of swaggo", rel, role, ov, nv)
	}
	if c, ok := find(Parse("We no longer use Swaggo for API docs, Redocly generates them."), role); !ok || c.Value != "redocly" {
		t.Fatalf("Redocly does not take the role %q of the value it replaces: %+v", role, Parse("We no longer use Swaggo for API docs, Redocly generates them."))
	}
}

// TestChoiceNeedsChangeWording checks that two statements choosing names for
// no purpose they name do not contradict each other.
func TestChoiceNeedsChangeWording(t *testing.T) {
	t.Parallel()
	if rel, role, ov, nv := Compare(Parse("Use Kelbo."), Parse("Use Zorvix.")); rel != Unrelated {
		t.Fatalf("Compare = %v %s %q->%q, want unrelated", rel, role, ov, nv)
	}
}

// TestClauseOpeningCapitalIsNoName checks that a capitalised word opening a
// clause after a dash (an entry's title and its quote) is not read as a name
// modifying the noun after it, and that "go to the X stream" without change
// wording does not make X the value of its subject.
func TestClauseOpeningCapitalIsNoName(t *testing.T) {
	t.Parallel()
	older := Parse("Audit records are shipped to Venlox.")
	newer := Parse("Audit records go to the audit.v2 stream on Venlox — Audit records go to the audit.v2 stream on Venlox, keyed by tenant.")
	if rel, role, ov, nv := Compare(older, newer); rel >= Contradicts {
		t.Fatalf("Compare = %v %s %q->%q, want no conflict\nolder %+v\nnewer %+v", rel, role, ov, nv, older, newer)
	}
}

// TestPackagePathForPurpose checks that a package path chosen "for" a
// purpose fills that purpose's role, while a file or rooted path stays a
// path.
func TestPackagePathForPurpose(t *testing.T) {
	t.Parallel()
	if c, ok := find(Parse("Stick with net/smtp for outgoing mail."), "mail"); !ok || c.Value != "net/smtp" {
		t.Errorf("Parse = %+v, want mail = net/smtp", Parse("Stick with net/smtp for outgoing mail."))
	}
	for _, text := range []string{"Use src/api/client.ts for HTTP requests.", "Keep ./scripts/ for helpers."} {
		if _, ok := find(Parse(text), "path"); !ok {
			t.Errorf("Parse(%q) = %+v, want a path", text, Parse(text))
		}
	}
}

// TestNameTakesAskedRole checks that a name whose phrase is named the way a
// question names a tool's role ("login", "endpoint") takes that role, so a
// question for the role finds it.
func TestNameTakesAskedRole(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ text, role, value, replaces string }{
		{"Partner login moved off Kestrix to the Pomvale service.", "identity provider", "pomvale", "kestrix"},
		{"Zorvix is deprecated; Bramble replaces it for each new endpoint.", "web framework", "bramble", "zorvix"},
	} {
		c, ok := find(Parse(tt.text), tt.role)
		if !ok || c.Value != tt.value || c.Replaces != tt.replaces {
			t.Errorf("Parse(%q) = %+v, want %s = %q replacing %q", tt.text, Parse(tt.text), tt.role, tt.value, tt.replaces)
		}
	}
}

// A URL's query belongs to its token ("?code=abc&next=%2F"), read as part of
// the address; the same runes join nothing outside a URL ("a=b&c=d").
func TestURLQueryOneToken(t *testing.T) {
	toks, _ := tokenize("see https://kelbo.io/reset?code=abc&next=%2Fhome now, and a=b&c=d, x=%41, y.%20z")
	var got []string
	for _, tk := range toks {
		got = append(got, tk.s)
	}
	if !slices.Contains(got, "https://kelbo.io/reset?code=abc&next=%2fhome") || slices.ContainsFunc(got, func(s string) bool { return strings.ContainsAny(s, "&%") && !strings.Contains(s, "://") }) || slices.Contains(got, "y.") {
		t.Errorf("tokens %q", got)
	}
	for _, text := range []string{"Use https://kelbo.io&timeout=60 for the hooks.", "Use https://hook:pw@kelbo.io/x for the hooks."} {
		if cs := Parse(text); !slices.ContainsFunc(cs, func(c Claim) bool { return c.Role == "host" && c.Value == "kelbo.io" }) {
			t.Errorf("Parse(%q) = %+v, want host kelbo.io", text, cs)
		}
	}
}
