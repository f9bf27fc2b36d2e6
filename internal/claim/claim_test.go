package claim

import (
	"slices"
	"strings"
	"testing"
)

// find returns the first claim of role in cs.
func find(cs []Claim, role string) (Claim, bool) {
	for _, c := range cs {
		if c.Role == role && !c.Negated {
			return c, true
		}
	}
	return Claim{}, false
}

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text, role, value, replaces string
	}{
		{"choice", "We run the unit tests with vitest.", "test runner", "vitest", ""},
		{"switch from to", "We switched from jest to vitest last week.", "test runner", "vitest", "jest"},
		{"a change become possible", "We could finally switch the unit tests from jest to vitest last week.", "test runner", "vitest", "jest"},
		{"a use become possible", "Since the upgrade we can now run the unit tests with vitest.", "test runner", "vitest", ""},
		{"instead of", "Use pnpm instead of yarn for the monorepo.", "package manager", "pnpm", "yarn"},
		{"replaced with", "I replaced MongoDB with Postgres for the billing data.", "database", "postgres", "mongodb"},
		{"is replaced by", "Mocha is replaced by Jest in the API package.", "test runner", "jest", "mocha"},
		{"no longer", "We no longer use Travis; CircleCI runs every build.", "ci", "circleci", "travis ci"},
		{"deprecated", "Flask is deprecated here; new services use FastAPI.", "web framework", "fastapi", "flask"},
		{"stop using", "Stop using moment.js, use date-fns in new code.", "date library", "date-fns", "moment.js"},
		{"revert", "Revert to npm, the yarn lockfile keeps breaking.", "package manager", "npm", "yarn"},
		{"two sentences", "Builds with Podman were too slow. From now on build images with Docker.", "container runtime", "docker", "podman"},
		{"version bump", "Upgraded Python 3.10 to Python 3.12 in the base image.", "version:python", "3.12", "3.10"},
		{"version gap", "Bump the java toolchain to 21.", "version:java", "21", ""},
		// "from" between a product and its version: the verb before the
		// product takes the product; the "to" and the second version say
		// the change, whoever the subject.
		{"version from to after a subject", "I've updated **Next.js from 16.0.3 to 16.0.7** for the CVE.", "version:next.js", "16.0.7", "16.0.3"},
		{"version from to after a verb marking new", "We switched Next.js from 15.5.4 to 15.5.2 in CI.", "version:next.js", "15.5.2", "15.5.4"},
		{"version from with no to", "Node from 18 on is required.", "version:node", "18", ""},
		{"joined version", "The functions run on python3.11.", "version:python", "3.11", ""},
		// A package pinned as npm writes it; an X.js product is the package x.
		{"package pin", "Run npm install svelte@4.2.19 before the build.", "version:svelte", "4.2.19", ""},
		{"package pin of X.js", "The admin pins vue@3.4.21 for now.", "version:vue", "3.4.21", ""},
		{"X.js version", "Upgraded Vue.js to 3.5.1 on the admin panel.", "version:vue", "3.5.1", ""},
		{"port", "The API now listens on port 8081 instead of 8080.", "port", "8081", "8080"},
		{"host port", "Redis is reachable at localhost:6380 from now on.", "port", "6380", ""},
		// "A instead of B" fills one slot: A takes the role B's table gives,
		// not the phrase's ("for the invoice queue"); a URL instead of a
		// host:port changes the host.
		{"instead of, the replaced one's role", "We will use kelbodb for the invoice queue instead of sqlite.", "database", "kelbodb", "sqlite"},
		{"a URL instead of a host and port", "Reset links now point to https://app.quorvex.io/reset instead of localhost:3000.", "host", "app.quorvex.io", "localhost"},
		// A URL's query is part of the address, not a setting ("code=abc").
		{"a URL with a query instead of a host and port", "Reset links now point to https://app.quorvex.io/reset?code=abc&next=%2F instead of localhost:3000.", "host", "app.quorvex.io", "localhost"},
		{"instead of, a count keeps its role", "Use 3 workers instead of postgres.", "workers", "3", ""},
		{"instead of, a path keeps its role", "Write logs to /var/log/app instead of sentry.", "path", "/var/log/app", ""},
		{"instead of, a version keeps its role", "Upgrade to react 19 instead of vue.", "version:react", "19", ""},
		{"region", "Move the buckets to ap-southeast-2, nothing new in eu-west-1 anymore.", "region", "ap-southeast-2", "eu-west-1"},
		{"gcp region", "The cluster lives in europe-west4.", "region", "europe-west4", ""},
		{"path", "Fixtures moved from test/data to testdata/fixtures.", "path", "testdata/fixtures", "test/data"},
		{"timeout", "Lower the request timeout from 60 seconds to 15s.", "timeout", "15s", "60s"},
		{"ttl", "Session tokens expire after 2 hours.", "ttl", "7200s", ""},
		{"clock", "Run the report at 06:15 UTC, 05:00 is too early for the exports.", "time", "06:15", "05:00"},
		{"count", "Reduce the worker pool to 4 workers; 8 workers was starving the database.", "workers", "4", "8"},
		{"rate", "Anonymous clients get 60 requests per minute.", "request rate", "60/minute", ""},
		{"named runner", "Jobs run on the arm64-large runners.", "ci runner", "arm64-large", ""},
		{"signing", "Tokens are now signed with ES256 instead of HS256.", "signing algorithm", "es256", "hs256"},
		{"merge policy", "Rebase and merge only, no more merge commits.", "merge strategy", "rebase", "merge commit"},
		{"korean instead", "Jenkins 대신 GitHub Actions로 빌드합니다.", "ci", "github actions", "jenkins"},
		{"korean no longer", "yarn은 더 이상 안 쓰고 pnpm으로 설치해요.", "package manager", "pnpm", "yarn"},
		{"korean change", "로그 보관 기간은 30일이었는데 90일로 바꿨어요.", "retention", "7776000s", "2592000s"},
		{"korean replace", "MySQL을 PostgreSQL로 교체했습니다.", "database", "postgres", "mysql"},
		{"korean particle", "캐시는 Memcached를 씁니다.", "cache", "memcached", ""},
		{"korean timeout", "요청 타임아웃을 5초에서 20초로 전환합니다.", "timeout", "20s", "5s"},
		{"multi role hint", "Background jobs are queued in Redis streams.", "queue", "redis", ""},
		{"redis as a queue", "We use Redis for the background job queue.", "queue", "redis", ""},
		{"redis as a cache", "Sessions are cached in Redis.", "cache", "redis", ""},
		{"ruff formats", "We moved from black to ruff for formatting the Django services.", "formatter", "ruff", "black"},
		{"version named earlier", "All Ruby services must target 3.3 now that 3.1 is out of support.", "version:ruby", "3.3", "3.1"},
		{"comma bounds a marker", "Poetry got dropped, uv manages the dependencies now.", "package manager", "uv", "poetry"},
		{"branch from to", "Hotfixes moved from master to main branch.", "branch", "main", "master"},
		{"delay", "Raise the retry delay from 2s to 10s.", "delay", "10s", "2s"},
		{"role from the next sentence", "Make it 45s from now on.\nThe 10s timeout was too short.", "timeout", "45s", "10s"},
		{"image renamed", "Note: the image was renamed to zeta/billing-worker. Stop pushing zeta/invoices-job, it will be removed.", "image", "zeta/billing-worker", "zeta/invoices-job"},
		{"image pushed as", "The release job pushes the worker image to the registry as zeta/invoices-job.", "image", "zeta/invoices-job", ""},
		// An owner/name beside the noun names a repository, not a file.
		{"repository named", "The sync reads your `acme/docs-content` repository; it is empty for now.", "repository", "acme/docs-content", ""},
		{"repository holding", "The acme/docs-content repository holds the posts.", "repository", "acme/docs-content", ""},
		{"repository is", "The `acme/docs-content` repository is archived now.", "repository", "acme/docs-content", ""},
		{"hyphenated unit", "The current setup uses an 8-hour sync interval.", "interval", "28800s", ""},
		{"hyphenated delay", "Add a 3-second delay between label print jobs.", "delay", "3s", ""},
		// An arrow in a statement of change says where it goes, as "to" does;
		// emphasis on the name after it keeps it a name.
		{"arrow", "Replaced: Postgres → MySQL for the ledger.", "database", "mysql", "postgres"},
		{"ascii arrow", "Switched the formatter: black -> ruff.", "formatter", "ruff", "black"},
		{"arrow between names of code after a change word", "### Audio refactor (kelbo-av → kelbo-audio)\n- hooks rewritten", "choice", "kelbo-audio", "kelbo-av"},
		{"arrow in a list of changes", "Key changes in `player.ts`:\n\n- `kelbo-av` → `kelbo-audio` (new player)\n- `load(ms)` → `open(s)`", "choice", "kelbo-audio", "kelbo-av"},
		{"emphasised successor", "- **Replaced**: PostgreSQL with pgvector → **Quillet vector database**", "database", "quillet", "postgres"},
		// A published archive's file name holds its package's name and
		// version, as the packaging formats write them.
		{"wheel", "Uploading zorblat-0.4.2-py3-none-any.whl (6.0KiB)", "version:zorblat", "0.4.2", ""},
		{"source archive", "Uploading zorblat-0.4.2.tar.gz (4.2KiB)", "version:zorblat", "0.4.2", ""},
		{"wheel of a normalized name", "Downloading quill_guard-0.3.16-py3-none-any.whl (139 kB)", "version:quill-guard", "0.3.16", ""},
		{"source archive of a normalized name", "Built quill__guard-0.3.16.tar.gz", "version:quill-guard", "0.3.16", ""},
		{"java archive", "Copied guava-32.1.2-jre.jar into libs/.", "version:guava", "32.1.2", ""},
		{"version by the date", "Uploaded certifi-2024.2.2-py3-none-any.whl", "version:certifi", "2024.2.2", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := Parse(tt.text)
			c, ok := find(cs, tt.role)
			if !ok {
				t.Fatalf("Parse(%q) has no %q claim: %+v", tt.text, tt.role, cs)
			}
			if c.Value != tt.value || c.Replaces != tt.replaces || c.Weak {
				t.Fatalf("Parse(%q) %s = %q replaces %q (weak %v), want %q replaces %q", tt.text, tt.role, c.Value, c.Replaces, c.Weak, tt.value, tt.replaces)
			}
			if got := tt.text[c.Start:c.End]; len(got) == 0 {
				t.Fatalf("empty span %d:%d", c.Start, c.End)
			}
		})
	}
}

// TestVersionRangeIsNoChange: "from X to Y" between versions of a product
// is a change only where the statement says one ("updated", "switched");
// otherwise it is a range, both versions held.
func TestVersionRangeIsNoChange(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"We support Python from 3.9 to 3.12 on every push.",
		"The matrix runs Node.js from 18.0 to 22.0.",
		"I've updated the README to say we support Python from 3.9 to 3.12.",
	} {
		for _, c := range Parse(text) {
			if strings.HasPrefix(c.Role, "version:") && (c.Replaces != "" || c.Negated || c.Changed) {
				t.Errorf("Parse(%q): %+v, want both versions held", text, c)
			}
		}
	}
}

// TestChangeStaysInItsStatement: a change named in one statement ("use
// `a` instead of `b`") replaces its old value with the new value named
// there; a value the next statement uses is another thing, which replaces
// nothing. With no new value beside it, the next statement's is the new
// one ("Builds with Podman were too slow. From now on … Docker.", in
// TestParse). Punctuation in a code span ends no statement: "…" in a
// call's arguments left "instead of `b`" a statement of its own, whose
// old value went to the next statement's tool.
func TestChangeStaysInItsStatement(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text string
		want map[string]string // value: what it replaces
	}{
		{"We need to use `setSource` instead of `setUrl`. Flutter uses `scenes`.",
			map[string]string{"setsource": "seturl", "scenes": "", "flutter": ""}},
		{"We need to use `setSource(uri(x, tag: m(...)))` instead of `setUrl()`.\n\nThe RN uses `assignments` while Flutter uses `scenes`.",
			map[string]string{"setsource(uri(x, tag: m(...)))": "seturl()", "assignments": "", "scenes": "", "flutter": ""}},
		// A stray backtick opens no span: the statement still ends at ".".
		{"The ` key is unbound. We need to use `setSource` instead of `setUrl`. Flutter uses `scenes`.",
			map[string]string{"setsource": "seturl", "scenes": "", "flutter": ""}},
		{"We need to use `setSource` instead of `setUrl`. Flutter uses `scenes`. Press the ` key.",
			map[string]string{"setsource": "seturl", "scenes": "", "flutter": ""}},
		// A statement that says a change anew takes the old value on.
		{"Replace `jest` with `vitest`. Actually, use `bun test` instead.",
			map[string]string{"vitest": "jest", "bun test": "jest"}},
	} {
		got := map[string]string{}
		for _, c := range Parse(tt.text) {
			if !c.Negated {
				got[c.Value] = c.Replaces
			}
		}
		for v, r := range tt.want {
			if g, ok := got[v]; !ok || g != r {
				t.Errorf("Parse(%q): %q replaces %q (read: %v), want %q; all: %+v", tt.text, v, g, ok, r, Parse(tt.text))
			}
		}
	}
}

// TestEnglishCompoundIsNoName: common English words joined by hyphens
// ("theme-aware", "client-side") are an adjective of prose, not a tool
// named: "hardcoded colors instead of theme-aware variables" replaces no
// tool. A name joining a word that is none, or a word the table counts as
// rare enough ("react-dom", "date-fns"), is still a value.
func TestEnglishCompoundIsNoName(t *testing.T) {
	t.Parallel()
	for _, c := range Parse("Some components use hardcoded Tailwind colors instead of theme-aware CSS variables.") {
		if c.Replaces == "theme-aware" || c.Value == "theme-aware" {
			t.Errorf("an English compound read as a value: %+v", c)
		}
	}
	// Everyday words name a package where no noun follows them.
	for _, text := range []string{"Sessions are now handled by express-session, not cookie-session.", "Use form-data instead of axios for uploads."} {
		named := false
		for _, c := range Parse(text) {
			named = named || c.Value == "express-session" || c.Value == "form-data"
		}
		if !named {
			t.Errorf("Parse(%q) reads no package: %+v", text, Parse(text))
		}
	}
	for _, name := range []string{"react-dom", "date-fns", "next-auth", "kelvo-sync"} {
		if englishCompound(name) {
			t.Errorf("%q read as an English compound", name)
		}
	}
	for _, w := range []string{"theme-aware", "client-side", "read-only", "well-known"} {
		if !englishCompound(w) {
			t.Errorf("%q not read as an English compound", w)
		}
	}
}

// TestPathBesideRepositoryStaysPath: a file or folder path stays a path
// beside "repository": one with a file extension, a root or a trailing
// slash, more than owner and name, or the noun before it, mostly the
// project's ("in this repo internal/recall …").
func TestPathBesideRepositoryStaysPath(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"Read the docs/index.md repository notes first.",
		"The /docs-content repository is mirrored nightly.",
		"Vendored ./vendor/docs-content repository code for the build.",
		"Moved the src/vendor/docs-content repository out of the tree.",
		"The docs/ repository holds the guides.",
		"Inside this repo internal/recall decides what is shown.",
		"The templates/email: repository files are generated.",
		"The src/components repository code is generated.",
		"Keep the docs/guides repo folder tidy.",
		"The .github/workflows repository is empty.",
	} {
		if c, ok := find(Parse(text), "repository"); ok {
			t.Errorf("Parse(%q) reads repository %q", text, c.Value)
		}
	}
}

// TestDotFolderIsNoImage: a folder whose name starts with a dot is no
// image of a registry namespace.
func TestDotFolderIsNoImage(t *testing.T) {
	t.Parallel()
	text := "The release job pushes the worker image to the registry as .cache/worker."
	if c, ok := find(Parse(text), "image"); ok {
		t.Errorf("Parse(%q) reads image %q", text, c.Value)
	}
}

func TestParseNegated(t *testing.T) {
	for _, text := range []string{
		"We dropped Webpack.",
		"Don't use axios in new code.",
		"Heroku is deprecated for our services.",
		"Sentry is not used anymore.",
		"Selenium은 더 이상 쓰지 않아요.",
		"Replace the Supabase client with the Prisma client.",
	} {
		cs := Parse(text)
		if !slices.ContainsFunc(cs, func(c Claim) bool { return c.Negated }) {
			t.Errorf("Parse(%q) = %+v, want a negated claim", text, cs)
		}
	}
}

func TestDashBoundsMarker(t *testing.T) {
	// An entry's claim and quote are joined by a dash: "old" in the claim
	// is about the modules, not the linter the quote names.
	for _, c := range Parse("Ruff output is noisy on the old modules — ruff output is noisy on the old modules") {
		if c.Role == "linter" && (c.Negated || c.Changed) {
			t.Fatalf("ruff read as replaced across a dash: %+v", c)
		}
	}
}

// A removal that takes a value after it does not reach back to the one
// before it: "updated X - removed Y" removes Y, not X. Without an object of
// its own it still does ("`kelbo` - removed").
func TestRemovalTakesItsObject(t *testing.T) {
	for _, text := range []string{
		"Updated dependencies in `pyproject.toml` - removed incorrect `kelbo>=0.1.0`",
		"Updated dependencies in `pyproject.toml` — removed incorrect `kelbo>=0.1.0`",
		"Updated `pyproject.toml` and removed `kelbo>=0.1.0`",
	} {
		cs := Parse(text)
		for _, c := range cs {
			if c.Value == "pyproject.toml" && c.Negated {
				t.Errorf("%q: pyproject.toml read as removed across the dash: %+v", text, c)
			}
		}
		if !slices.ContainsFunc(cs, func(c Claim) bool { return c.Value == "kelbo>=0.1.0" && c.Removed }) {
			t.Errorf("%q: no removal of kelbo>=0.1.0: %+v", text, cs)
		}
	}
	// A terse list of changes says what befell each value after it.
	for _, text := range []string{"Test runner: `kelbo` - removed", "Test runner: `kelbo` - no longer used", "Test runner: `kelbo` removed from `ci.yml`",
		"Test runner: `kelbo` removed `quill` added"} {
		if !slices.ContainsFunc(Parse(text), func(c Claim) bool { return c.Value == "kelbo" && c.Negated }) {
			t.Errorf("%q: kelbo not rejected: %+v", text, Parse(text))
		}
	}
}

// TestVersionRolesApart: Alpine.js and Alpine Linux are two products;
// a package of no table's is pinned only with a version of three parts.
func TestVersionRolesApart(t *testing.T) {
	t.Parallel()
	roles := func(text string) []string {
		var out []string
		for _, c := range Parse(text) {
			if strings.HasPrefix(c.Role, "version:") {
				out = append(out, c.Role+"="+c.Value)
			}
		}
		return out
	}
	a, b := roles("The dashboard loads Alpine.js 3.13.5."), roles("The base image is Alpine 3.19.")
	if !slices.Equal(a, []string{"version:alpine.js=3.13.5"}) || !slices.Equal(b, []string{"version:alpine=3.19"}) {
		t.Errorf("Alpine.js %v and Alpine Linux %v, want two roles", a, b)
	}
	// CPython is Python, as uv and pyenv name the interpreter they pick.
	if got := roles("Using CPython 3.14.0\nCreating virtual environment at: .venv"); !slices.Equal(got, []string{"version:python=3.14"}) {
		t.Errorf("CPython 3.14.0: %v, want version:python", got)
	}
	if got := roles("Ask jane@1.2 about it."); len(got) != 0 {
		t.Errorf("jane@1.2 read as a pin: %v", got)
	}
	if got := roles("Pinned quillpress@2.1.4 in the lockfile."); !slices.Contains(got, "version:quillpress=2.1.4") {
		t.Errorf("quillpress@2.1.4: %v", got)
	}
	// A scoped package, as an install log lists it: the tokens leave out
	// its "@", which names the scope.
	if got := roles("info Direct dependencies\n└─ @zentrox/pages-adapter@1.2.3"); !slices.Equal(got, []string{"version:@zentrox/pages-adapter=1.2.3"}) {
		t.Errorf("@zentrox/pages-adapter@1.2.3: %v", got)
	}
}

// TestPackageSpecNoVersion: an address after "@" is no pinned version.
func TestPackageSpecNoVersion(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"Clone it over ssh as git@github.com first.", "The relay logs in as deploy@10.0.4.12 nightly."} {
		for _, c := range Parse(text) {
			if strings.HasPrefix(c.Role, "version:") {
				t.Errorf("Parse(%q) gives %s = %q", text, c.Role, c.Value)
			}
		}
	}
}

// A file name ending as an archive does, with no version after a hyphen or
// with a date there, states no version, and is no host either.
func TestArchiveOfNoVersion(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"Uploading chromedriver-linux64.tar.gz now.", "Built zorblat-2-py3-none-any.whl.", "Copied app.tar.gz over.",
		"Deleted backup-2024.01.15.tar.gz from the server.", "Restored db-dump-2024.01.15.tgz."} {
		for _, c := range Parse(text) {
			if strings.HasPrefix(c.Role, "version:") {
				t.Errorf("Parse(%q) gives %s = %q", text, c.Role, c.Value)
			}
		}
	}
	for _, text := range []string{"Uploading zorblat-0.4.2-py3-none-any.whl (6.0KiB)", "Uploading zorblat-0.4.2.tar.gz (4.2KiB)",
		"Deleted backup-2024.01.15.tar.gz from the server.", "Uploaded certifi-2024.2.2-py3-none-any.whl"} {
		for _, c := range Parse(text) {
			if c.Role == "host" {
				t.Errorf("Parse(%q) reads %q as a host", text, c.Value)
			}
		}
	}
}

// A tool named as a role is the role after a determiner ("the default
// bundler" is whatever bundles, not Ruby's Bundler); alone it is the tool.
func TestRoleNoun(t *testing.T) {
	t.Parallel()
	cs := Parse("Rolldown is now the default bundler, no flag needed.")
	if c, ok := find(cs, "package manager"); ok {
		t.Errorf("the default bundler read as the package manager %q: %+v", c.Value, cs)
	}
	if c, ok := find(cs, "bundler"); !ok || c.Value != "rolldown" {
		t.Errorf("the bundler is not rolldown: %+v", cs)
	}
	for _, text := range []string{"We install the gems with bundler.", "Run bundle install with the bundler gem."} {
		if c, ok := find(Parse(text), "package manager"); !ok || c.Value != "bundler" {
			t.Errorf("Parse(%q): bundler is not the package manager: %+v", text, c)
		}
	}
}

func TestParseNothing(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"", "Thanks, looks good!", "Please rename the helper and run the tests.", "왜 안 되는지 알려주세요.",
		"Here are the use cases for storing processed content:"} { // "the use" is a noun
		if cs := Parse(text); len(cs) != 0 {
			t.Errorf("Parse(%q) = %+v, want none", text, cs)
		}
	}
}

func TestChangeCue(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"Scratch that, go with Caddy.", true},
		{"Going forward the docs live in docs/.", true},
		{"We moved billing off Stripe to Paddle.", true},
		{"Bumped the API version to 3.", true},
		// "update" changes a version, not a statement: no cue verb.
		{"I've updated the docs to say we deploy on Fridays.", false},
		{"Deploy this updated `.env.local` to your production environment.", false},
		{"이제부터 배포는 금요일에 하지 않아요.", true},
		{"Nginx 대신 Caddy를 씁니다.", true},
		{"The worker reads jobs from the default queue.", false},
		{"Use Caddy as the reverse proxy.", false},
		{"배포는 Spinnaker로 합니다.", false},
		// A word that only opens with a cue verb's stem is no form of it.
		{"The changelog goes to docs/ from the release job.", false},
		{"Keys are lowercase to match the API.", false},
		{"The cutoff for retries is set to five.", false},
		{"We changed the queue from Redis to NATS.", true},
		{"The migration to Postgres is done.", true},
		{"Cutting the timeout to 30s over the default.", true},
		{"We did the cutover to the new cluster.", true},
	} {
		if got := ChangeCue(tt.text); got != tt.want {
			t.Errorf("ChangeCue(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, older, newer string
		want               Relation
		oldValue, newValue string
	}{
		// Reversals.
		{"switch", "Unit tests run on jest.", "We switched from jest to vitest.", Supersedes, "jest", "vitest"},
		{"scratch that", "Format the Go code with gofumpt.", "Scratch that, plain gofmt is enough for formatting.", Supersedes, "gofumpt", "gofmt"},
		{"reasoned", "Sessions are stored in Memcached.", "Memcached kept losing sessions on restart, so sessions go to Redis now.", Supersedes, "memcached", "redis"},
		{"queue switch", "We use Redis for the background job queue.", "We switched the background job queue from Redis to RabbitMQ.", Supersedes, "redis", "rabbitmq"},
		{"too slow", "The docs are built with Sphinx.", "Sphinx turned out too slow, use MkDocs for the docs.", Supersedes, "sphinx", "mkdocs"},
		{"version", "The services run on Java 17.", "We moved the services to Java 21 after the LTS release.", Supersedes, "17", "21"},
		{"port", "The admin UI listens on port 9000.", "Stop using 9000 for the admin UI; it listens on port 9443 from now on.", Supersedes, "9000", "9443"},
		{"region", "The CDN origin is in us-west-1.", "The CDN origin is moving to us-east-2, nothing stays in us-west-1.", Supersedes, "us-west-1", "us-east-2"},
		{"path", "Runbooks are kept in ops/runbooks.", "Runbooks moved to docs/runbooks; ops/runbooks was removed.", Supersedes, "ops/runbooks", "docs/runbooks"},
		// A name rejected in one statement is replaced only by one named in
		// it: another path a line above is another thing.
		{"tool replaced across statements", "The ledger is stored in Postgres.", "1. **Ledger** - Stop using Postgres for the ledger, see the wiki\n2. **Orders** - Orders are stored in MySQL", Supersedes, "postgres", "mysql"},
		{"path replaced by none named", "Runbooks are kept in ops/runbooks.", "1. **Docs** - Add docs/guides, expose the wiki\n2. **Ops** - Replace the single ops/runbooks with separate wiki & chat pages", Supersedes, "ops/runbooks", ""},
		{"retries", "The importer makes 10 attempts per file.", "Cut the importer to 3 attempts per file, 10 attempts hid real failures.", Supersedes, "10", "3"},
		{"policy", "We follow git flow with a develop branch.", "New policy: trunk-based development, no more git flow.", Supersedes, "gitflow", "trunk-based"},
		{"korean instead", "인증은 Okta로 처리합니다.", "Okta 대신 Keycloak으로 인증합니다.", Supersedes, "okta", "keycloak"},
		{"korean no longer", "메시지 큐는 RabbitMQ를 사용합니다.", "RabbitMQ는 더 이상 사용하지 않고 NATS로 보냅니다.", Supersedes, "rabbitmq", "nats"},
		{"korean value", "배치 작업 타임아웃은 5분입니다.", "배치 작업 타임아웃을 15분으로 바꿨어요.", Supersedes, "300s", "900s"},
		{"no cue", "Use yarn for installs.", "Use pnpm for installs.", Contradicts, "yarn", "pnpm"},
		{"redeployed", "The shop is live at https://13656410.shop-front.pages.dev for testing.", "Redeployed: the shop is now live at https://3fe25c72.shop-front.pages.dev.", Supersedes, "13656410.shop-front.pages.dev", "3fe25c72.shop-front.pages.dev"},
		{"two generated addresses", "Images are served from https://13656410.shop-front.pages.dev.", "Admin assets are served from https://3fe25c72.shop-front.pages.dev.", Unrelated, "", ""},
		// Compatible.
		{"same value", "The API uses Postgres 15.", "Postgres 15 for the API runs with pgbouncer in front.", Refines, "", ""},
		{"addition", "Emails are sent with Postmark.", "Postmark templates live in emails/templates.", Refines, "", ""},
		{"two components", "The web app is deployed to Vercel.", "The mobile backend is deployed to Railway.", Unrelated, "", ""},
		{"two environments' deploys", "Staging is at https://13656410.shop-front.pages.dev.", "Production is at https://3fe25c72.shop-front.pages.dev.", Unrelated, "", ""},
		{"two envs", "Staging uses port 8080.", "Production uses port 443.", Unrelated, "", ""},
		{"exception", "Uploads are limited to 10 requests per minute.", "Admins get 100 requests per minute, overriding the limit.", Refines, "", ""},
		{"different things", "Orders are stored in Postgres.", "Analytics events are stored in ClickHouse.", Unrelated, "", ""},
		{"two components one env", "The frontend dev server uses port 5173 in development.", "The admin service uses port 4100 in development.", Unrelated, "", ""},
		{"branch source", "Release branches are cut from develop.", "Hotfix branches are cut from main.", Unrelated, "", ""},
		{"replaces a third value", "The admin UI is written in JavaScript.", "The report renderer calls the C library directly (no Java required).", Unrelated, "", ""},
		{"across roles", "The monorepo uses Lerna for the packages.", "Lerna got dropped, Changesets handles package versioning now.", Supersedes, "lerna", "changesets"},
		{"restated", "Our runners use Ubuntu 24.04.", "Since we are on Ubuntu 24.04, use the new apt sources format.", Agrees, "", ""},
		{"korean addition", "배포는 Vercel로 합니다.", "Vercel 프로젝트 설정은 vercel.json에 있어요.", Refines, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rel, role, ov, nv := Compare(Parse(tt.older), Parse(tt.newer))
			if rel != tt.want {
				t.Fatalf("Compare = %v (%s %q->%q), want %v\nolder %+v\nnewer %+v", rel, role, ov, nv, tt.want, Parse(tt.older), Parse(tt.newer))
			}
			if tt.oldValue != "" && (ov != tt.oldValue || nv != tt.newValue) {
				t.Fatalf("Compare values %q->%q, want %q->%q", ov, nv, tt.oldValue, tt.newValue)
			}
		})
	}
}

// A text that reports its own change is the current state, not a conflict.
func TestSelfReportedChange(t *testing.T) {
	t.Parallel()
	cs := Parse("we switched from jest to vitest")
	if len(cs) != 1 || cs[0].Value != "vitest" || cs[0].Replaces != "jest" {
		t.Fatalf("Parse = %+v, want one claim vitest replacing jest", cs)
	}
	if rel, _, _, _ := Compare(cs, cs); rel != Agrees {
		t.Fatalf("Compare(self, self) = %v, want agrees", rel)
	}
}

func TestCues(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"We no longer use Sphinx; MkDocs builds the docs instead of it.", []string{"no longer", "instead"}},
		{"Nginx 대신 Caddy로 바꿨어요.", []string{"대신", "바꿨"}},
		{"Enterprise keys get 500 instead of the default.", nil},
		{"Use Caddy as the reverse proxy.", nil},
		// An arrow is "to" where a change goes, not a step after a noun.
		{"Switched the formatter: black -> ruff.", []string{"switched to"}},
		{"Hot reload: saves files → the page shows changes (e.g., add a button → see it).", nil},
		{"The page shows changes → see it live.", nil},
		// Past a parenthesis an arrow between two names is still where the
		// change went; between words it is a step.
		{"Audio refactor (kelbo-av → kelbo-audio)", []string{"refactor to"}},
		{"Client migrated (`kelbo` → `quillet`)", []string{"migrated to"}},
		{"Refactored the flow (request → response).", nil},
		{"Refactor (request → response)", nil},
		{"Refactored the request path (client-api → gateway-svc).", nil},
		{"Changed the onboarding docs (step-1 → step-2).", nil},
		{"Moved the retry logic, (client-api → gateway-svc).", nil},
		{"Audio refactor (kelbo-av → kelbo-audio → kelbo-x)", nil},
		{"Audio refactor (kelbo-av →", nil},
		{"Audio refactor (kelbo-av → kelbo-audio and more)", nil},
		{"Audio refactor (kelbo-av and kelbo-audio)", nil},
		{"Migrated (Postgres → MySQL).", []string{"migrated to"}},
		{"Audio Refactor: (kelbo-av → kelbo-audio)\n- the hook rewritten", []string{"refactor to"}},
		{"Migrated (kelbo-av → done)", nil},
		// A sentence going on past the parenthesis tells of a step in it.
		{"Changes (x-axis → y-axis) are plotted as arrows in the diff view.", nil},
		{"Moved (step-1 → step-2) when the email is prefilled.", nil},
		{"Refactored (sign-in → two-factor) flow diagrams in the docs.", nil},
		{"Cut (release-1.2 → release-1.3) diff attached for review.", nil},
		{"Refactored kelbo-av → kelbo-audio)", nil},
		// "refactor" alone says a change only with the arrow: "to" after
		// it is a purpose.
		{"Refactored the session store to use Redis.", nil},
		{"Refactored it from the ground up.", nil},
	} {
		if got := Cues(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Cues(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestRolesOf(t *testing.T) {
	t.Parallel()
	if got := RolesOf("redis"); !slices.Contains(got, "cache") {
		t.Errorf("RolesOf(redis) = %q, want cache among them", got)
	}
	if got := RolesOf("no-such-tool"); got != nil {
		t.Errorf("RolesOf(no-such-tool) = %q, want nil", got)
	}
}

// TestCompareUpdate checks that a statement saying it updates the value
// ("Update: …", "… now …") replaces the older one instead of contradicting it,
// and that "right now" tells the time of a state, not a change.
func TestCompareUpdate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		older, newer string
		want         Relation
	}{
		{"The billing service listens on port 7040.", "Update: the billing service listens on port 7311.", Supersedes},
		{"The billing service listens on port 7040.", "The billing service now listens on port 7311.", Supersedes},
		{"The billing service listens on port 7040.", "Right now the billing service listens on port 7311.", Contradicts},
		{"The billing service listens on port 7040.", "Update: the billing service now listens on 7311.", Supersedes},
		{"The API listens on port 7040.", "Update: the API now listens on 7311.", Supersedes},
		{"The billing service is bound to 7040.", "The billing service is now bound to 7311.", Supersedes},
	} {
		rel, _, _, _ := Compare(Parse(tt.older), Parse(tt.newer))
		if rel != tt.want {
			t.Errorf("Compare(%q, %q) = %v; want %v", tt.older, tt.newer, rel, tt.want)
		}
	}
}

// A removal ("removed X", "dropped X") says the thing is gone; a plain
// rejection ("don't use X") says it is not chosen. A piece of code removed
// is a claim of its own. The names are made up.
func TestRemoved(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text, value string
		removed     bool
	}{
		{"Completely removed `fetchQuorvexStub()` from `search.js`.", "fetchquorvexstub()", true},
		{"We dropped `kelbo.Open` from the login flow.", "kelbo.open", true},
		{"We no longer use yarn; pnpm installs everything.", "yarn", false},
		{"Don't call `fetchQuorvexStub()` from the handlers.", "fetchquorvexstub()", false},
		{"I haven't removed `fetchQuorvexStub()` yet.", "fetchquorvexstub()", false},
		{"Should we have removed `kelbo.Open`?", "kelbo.open", false},
		{"We would have dropped `kelbo.Open`, but the tests need it.", "kelbo.open", false},
		{"Drop `users_tmp` after the migration.", "users_tmp", false},
		{"We should have removed `kelbo.Open` long ago.", "kelbo.open", false},
		{"Nobody removed `kelbo.Open`.", "kelbo.open", false},
		{"If we removed `kelbo.Open`, the login flow would break.", "kelbo.open", false},
		{"Tests pass, so I removed `kelbo.Open` from the login flow.", "kelbo.open", true},
		{"Removed `kelbo.Open` and regenerated it from the schema.", "kelbo.open", false},
		// A list the removal names: each of it is removed.
		{"Removed `kelbo_streams` and `quill_tags` from `pubspec.yaml`.", "quill_tags", true},
		{"Removed `kelbo.Open`, `kelbo.Close` and `zeph_sync()`.", "kelbo.close", true},
		{"Removed `kelbo.Open`, `kelbo.Close` and `zeph_sync()`.", "zeph_sync()", true},
		{"Removed `kelbo.Open`, `kelbo.Close`, and `zeph_sync()` in the handlers.", "kelbo.close", true},
		{"Removed `kelbo.Open` or `kelbo.Close`, whichever was older.", "kelbo.close", false},
		{"Removed `kelbo.Open`, `kelbo.Close` stays.", "kelbo.close", false},
		{"Removed `kelbo.Open`, `kelbo.Close` still works.", "kelbo.close", false},
		{"Removed `kelbo.Open` and `kelbo.Close` still works.", "kelbo.close", false},
		{"We removed `kelbo.Open` and `kelbo.Close` is what remains.", "kelbo.close", false},
		{"Should we have removed `kelbo.Open` and `kelbo.Close`?", "kelbo.close", false},
		{"Removed `kelbo.Open`, then `kelbo.Close` took its place.", "kelbo.close", false},
		{"Removed `kelbo.Open`. `kelbo.Close` stays.", "kelbo.close", false},
		{"We kept `kelbo.Open` and `kelbo.Close`.", "kelbo.close", false},
		{"Removed `kelbo.Open` → `kelbo.Close` in the handlers.", "kelbo.close", false},
		{"Removed `kelbo.Open` (`kelbo.Close` calls it).", "kelbo.close", false},
		{"Removed `kelbo.Open` (`kelbo.Close`) from the handlers.", "kelbo.close", false},
		{"Removed `kelbo.Open` — and `kelbo.Close` from the handlers.", "kelbo.close", false},
		{"Removed `kelbo.Open`, then `kelbo.Close` from the handlers.", "kelbo.close", false},
		{"Removed `kelbo.Open` and kelbo_close from the handlers.", "kelbo_close", false},
		{"Removed `kelbo.Open` and `kelbo.Close`, since nothing calls them.", "kelbo.close", true},
		{"Removed `kelbo.Open` and `kelbo.Close`\n\nThe handlers call nothing now.", "kelbo.close", true},
		{"Nothing was removed. `kelbo.Open` stays.", "kelbo.open", false},
		{"`kelbo.Open`.", "kelbo.open", false},
		// Words describing what went, between the removal and its span.
		{"Removed incorrect `kelbo>=0.1.0` and `quill>=1.15.0`, added `zeph>=0.4.0`.", "kelbo>=0.1.0", true},
		{"Removed incorrect `kelbo>=0.1.0` and `quill>=1.15.0`, added `zeph>=0.4.0`.", "quill>=1.15.0", true},
		{"We removed the unused `kelbo_streams` dependency.", "kelbo_streams", true},
	} {
		var got *Claim
		for _, c := range Parse(tc.text) {
			if c.Value == tc.value {
				got = &c
			}
		}
		switch {
		case got == nil && tc.removed:
			t.Errorf("%q: no claim of %q: %+v", tc.text, tc.value, Parse(tc.text))
		case got != nil && got.Removed != tc.removed:
			t.Errorf("%q: %q Removed = %v, want %v", tc.text, tc.value, got.Removed, tc.removed)
		}
	}
}

// A code span beside another is no value of its own unless a removal
// names the list they make: not after "use", nor after a value of
// another role, nor after a removal that ends its statement. The names
// are made up.
func TestRemovalListNeedsARemoval(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"Use `kelbo.Open` and `kelbo.Close`.",
		"Go with `kelbo.Open` or `kelbo.Close`.",
		"Removed `localhost:3000` and `kelbo.Close`.",
		"Nothing was removed. `kelbo.Close` stays.",
		// Past the words describing what went, the span is what they did
		// or where it stood, or a phrase of its own.
		"Removed tests for `kelbo.Close`.",
		"Removed everything except `kelbo.Close`.",
		"Removed tests covering `kelbo.Close`.",
		"Removed tests around `kelbo.Close`.",
		"Mocks removed, kept `kelbo.Close`.",
		"If removed, breaks `kelbo.Close`.",
		"Nothing else was removed, obsolete `kelbo.Close` stays.",
	} {
		for _, c := range Parse(text) {
			if c.Value == "kelbo.close" {
				t.Errorf("%q: a claim of kelbo.close: %+v", text, c)
			}
		}
	}
}

func TestSettled(t *testing.T) {
	for text, want := range map[string]bool{
		"Added `kelbo_service` as a direct dependency for the tag import.": true,
		"The player requires `kelbo_service` tags on every source.":        true,
		"Now remove `kelbo_service` from the dependencies.":                false,
		"We don't need `kelbo_service` any more.":                          false,
		"`kelbo_service` is deprecated upstream.":                          false,
		"Use `kelbo_audio` instead of `kelbo_service`.":                    false,
		"We switched the player to `kelbo_audio`.":                         false,
		"`kelbo_service` is gone from the lock file.":                      false,
		"The former `kelbo_service` player kept one source.":               false,
	} {
		if got := Settled(text); got != want {
			t.Errorf("Settled(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestRedeployed(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"13656410.shop.pages.dev", "3fe25c72.shop.pages.dev", true},
		{"shop-4xk2j9abc-team.vercel.app", "shop-7hd8s2kfa-team.vercel.app", true},
		{"shop-4xk2j9abc-team.vercel.app", "blog-7hd8s2kfa-team.vercel.app", false},
		{"api-v2.shop.example.com", "api-v3.shop.example.com", false},
		{"staging.shop.example.com", "preview.shop.example.com", false},
		{"13656410.shop.pages.dev", "13656410.blog.pages.dev", false},
		{"13656410.shop.pages.dev", "3fe25c72.blog.pages.dev", false},
		{"13656410.shop.pages.dev", "13656410.shop.pages.dev", false},
		{"d111111abcdef8.cloudfront.net", "d2222222abcde9.cloudfront.net", false},
		{"a1b2c3d4.shop.pages.dev", "shop.pages.dev", false},
		{"a1b2c3d4.shop.pages.dev", "e5f6a7b8.a1b2c3d4.shop.pages.dev", false},
		{"a1b2c3d4.shop.pages.dev", "e5f6a7b8.shop.pages.dev.internal", false},
		{"a1b2c3d4.e5f6a7b8.shop.pages.dev", "c9d0e1f2.a3b4c5d6.shop.pages.dev", false},
		{"abc123def.com", "xyz789abc.com", false},
		{"abcdefgh.shop.pages.dev", "ijklmnop.shop.pages.dev", false},
		{"shop.pages.dev", "blog.pages.dev", false},
	} {
		if got := redeployed(tt.a, tt.b); got != tt.want {
			t.Errorf("redeployed(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestRateIsNoPath: an amount per unit of time ("$20-40/month", "5/min")
// has a slash and letters, and is no path; "10/src" is one.
func TestRateIsNoPath(t *testing.T) {
	for _, s := range []string{"Reduced AI costs to $20-40/month", "- **AI Costs**: ~$50-100/month for API calls", "Retries back off to 1.5k/day."} {
		for _, c := range Parse(s) {
			if c.Role == "path" {
				t.Errorf("Parse(%q) read %q as a path", s, c.Value)
			}
		}
	}
	if cs := Parse("Moved the config to src/config/app.ts"); len(cs) != 1 || cs[0].Role != "path" {
		t.Errorf("a path is no longer read: %+v", cs)
	}
	for s, want := range map[string]bool{"20-40/month": true, "20–40/month": true, "5/min": true, "~$50-100/month": true, "1.5k/day": true, "100/year": true,
		"v2/api": false, "2024/01": false, "src/app": false, "10/20/30": false, "10/src": false, "2/api": false, "01/intro": false, "3/docs": false} {
		if got := rate(s); got != want {
			t.Errorf("rate(%q) = %v, want %v", s, got, want)
		}
	}
}
