package extract

import (
	"math/bits"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/claude-memory-layer/claude-memory-layer/internal/korean"
)

// topic is a common subject of decisions and stack facts, with the values
// that settle it. The values are each ecosystem's well-known tools, many
// per subject, so that any project's choice is recognised; a tool an
// evaluation set happens to name is here because it is common, not
// because the set names it. Two entries naming values of the same topic are about the
// same thing, so a later "we moved to vitest" can be seen to replace an
// earlier "tests run with jest".
type topic struct {
	subject string   // the canonical key
	purpose string   // how a title names it: "Use vitest for tests"
	values  []string // lower case, as written in text
}

var topics = []topic{
	{"jwt signing algorithm", "JWT signing", []string{"rs256", "rs384", "rs512", "hs256", "hs384", "hs512", "es256", "es384", "es512", "ps256", "eddsa"}},
	{"test runner", "tests", []string{"jest", "vitest", "mocha", "jasmine", "ava", "pytest", "unittest", "rspec", "minitest", "phpunit", "junit", "testify", "ginkgo", "karma"}},
	{"e2e test framework", "end-to-end tests", []string{"playwright", "cypress", "puppeteer", "selenium", "webdriverio"}},
	{"package manager", "packages", []string{"npm", "yarn", "pnpm", "bun", "pip", "pipenv", "poetry", "uv", "conda", "composer"}},
	{"database", "the database", []string{"postgres", "postgresql", "mysql", "mariadb", "sqlite", "duckdb", "mongodb", "mongo", "dynamodb", "clickhouse", "cockroachdb", "cassandra", "mssql", "supabase", "planetscale", "bigquery", "snowflake"}},
	{"cache", "caching", []string{"redis", "memcached", "valkey"}},
	{"orm", "database access", []string{"prisma", "typeorm", "sequelize", "drizzle", "gorm", "sqlalchemy", "sqlc", "knex", "mikro-orm", "hibernate", "diesel", "sqlx"}},
	{"css framework", "styling", []string{"tailwind", "tailwindcss", "bootstrap", "css modules", "styled-components", "emotion", "sass", "scss", "chakra", "mui", "bulma", "vanilla-extract"}},
	{"bundler", "bundling", []string{"webpack", "vite", "rollup", "esbuild", "parcel", "turbopack", "rspack", "tsup"}},
	{"linter", "linting", []string{"eslint", "golangci-lint", "ruff", "flake8", "pylint", "rubocop", "clippy", "staticcheck", "biome", "stylelint"}},
	{"formatter", "formatting", []string{"prettier", "black", "gofmt", "gofumpt", "rustfmt", "isort", "dprint"}},
	{"deployment target", "deployment", []string{"kubernetes", "k8s", "ec2", "ecs", "fargate", "lambda", "vercel", "netlify", "heroku", "fly.io", "cloud run", "app engine", "railway", "docker-compose", "docker compose", "nomad", "eks", "gke", "aks"}},
	{"deployment tooling", "deployment manifests", []string{"helm", "kustomize", "argo cd", "argocd", "flux", "terraform", "pulumi", "ansible"}},
	{"ci system", "CI", []string{"github actions", "gitlab ci", "circleci", "jenkins", "travis", "buildkite"}},
	{"branch strategy", "branching", []string{"trunk-based", "gitflow", "git flow", "squash merge", "rebase merge", "merge commits"}},
	{"logging library", "logging", []string{"logrus", "zap", "slog", "log/slog", "zerolog", "winston", "pino", "bunyan", "log4j", "logback", "structlog", "loguru"}},
	{"auth method", "authentication", []string{"nextauth", "next-auth", "auth.js", "oauth", "oauth2", "oidc", "saml", "passport", "auth0", "clerk", "cognito", "keycloak", "session cookies", "lucia"}},
	{"http framework", "the HTTP server", []string{"express", "fastify", "koa", "hapi", "nestjs", "gin", "echo", "chi", "fiber", "flask", "django", "fastapi", "rails", "sinatra", "spring boot", "actix", "axum", "hono"}},
	{"frontend framework", "the frontend", []string{"react", "vue", "svelte", "sveltekit", "angular", "next.js", "nextjs", "nuxt", "remix", "solidjs", "astro", "htmx"}},
	{"state management", "state management", []string{"redux", "zustand", "mobx", "recoil", "jotai", "pinia", "vuex"}},
	{"api style", "the API", []string{"graphql", "grpc", "trpc"}},
	{"message queue", "messaging", []string{"kafka", "rabbitmq", "sqs", "nats", "sidekiq", "celery", "bullmq"}},
	{"observability", "observability", []string{"opentelemetry", "datadog", "sentry", "prometheus", "jaeger", "honeycomb"}},
	{"migration tool", "schema migrations", []string{"flyway", "liquibase", "alembic", "goose", "golang-migrate", "dbmate"}},
	{"http client", "HTTP requests", []string{"axios", "superagent", "httpx"}},
}

// versioned names, followed by a version, make a "<name> version" subject.
var versioned = []struct{ name, canon string }{
	{"node.js", "node"}, {"nodejs", "node"}, {"node", "node"}, {"golang", "go"}, {"go", "go"}, {"python", "python"},
	{"ruby", "ruby"}, {"java", "java"}, {"rust", "rust"}, {"php", "php"}, {"typescript", "typescript"},
	{"deno", "deno"}, {"dotnet", "dotnet"}, {".net", "dotnet"}, {"kotlin", "kotlin"}, {"swift", "swift"},
	{"elixir", "elixir"}, {"postgresql", "postgres"}, {"postgres", "postgres"}, {"pg", "postgres"},
	{"mysql", "mysql"}, {"next.js", "next.js"}, {"react", "react"}, {"django", "django"}, {"rails", "rails"},
	{"kubernetes", "kubernetes"}, {"java", "java"},
}

// valueHit is a topic value found in a sentence.
type valueHit struct {
	at, end int
	t       *topic
}

// topicHits returns the topic values in low, in text order, ignoring those
// inside parentheses (asides such as "(the NextAuth default)").
func topicHits(low string) []valueHit {
	starts, ascii := wordStarts(low)
	return topicHitsIn(low, &starts, ascii, nil)
}

// topicValues are the values of topics, in the order topicHits reads
// them, indexed as phrases, with the topic of each.
var topicValues = sync.OnceValue(func() valueIndex {
	var ps []phrase
	var of []*topic
	for ti := range topics {
		for _, v := range topics[ti].values {
			ps = append(ps, phrase{s: v})
			of = append(of, &topics[ti])
		}
	}
	return valueIndex{newPhraseIndex(ps), of}
})

type valueIndex struct {
	*phraseIndex
	of []*topic
}

// topicHitsIn is topicHits of a text with these word starts (wordStarts)
// and, when not nil, word prefixes (wordPrefixes): only the values they
// allow are looked for, in the same order.
func topicHitsIn(low string, starts *[4]uint64, ascii bool, prefixes *[2][8]uint64) []valueHit {
	var hits []valueHit
	var depth []uint8
	x := topicValues()
	var buf [8]uint64
	for w, b := range x.allowed(starts, ascii, buf[:0]) {
		for b != 0 {
			i := w*64 + bits.TrailingZeros64(b)
			b &= b - 1
			v := x.ps[i].s
			if prefixes != nil && !mayPrefixIn(prefixes, v) {
				continue
			}
			for from := 0; ; {
				k := strings.Index(low[from:], v)
				if k < 0 {
					break
				}
				k += from
				from = k + len(v)
				if depth == nil {
					depth = parenDepth(low)
				}
				if valueBounded(low, k, k+len(v)) && depth[k] == 0 {
					hits = append(hits, valueHit{k, k + len(v), x.of[i]})
				}
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].at != hits[j].at {
			return hits[i].at < hits[j].at
		}
		return hits[i].end > hits[j].end
	})
	return hits
}

// valueBounded reports whether low[at:end] is a whole word: letters, digits,
// '_' and '-' continue a word, so "ts-jest" does not name jest.
func valueBounded(low string, at, end int) bool {
	word := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
	}
	if at > 0 && word(low[at-1]) {
		return false
	}
	return end >= len(low) || !word(low[end])
}

// parenDepth returns, for each byte of low, whether it is inside an
// unclosed "(" before it (1) or not (0).
func parenDepth(low string) []uint8 {
	d := make([]uint8, len(low)+1)
	open := false
	for i := 0; i < len(low); i++ {
		switch low[i] {
		case '(':
			open = true
		case ')':
			open = false
		}
		if open {
			d[i] = 1
		}
	}
	return d
}

// versionAfter returns the version number that directly follows low[:end]
// ("postgres 16", "go 1.22", "golangci-lint to v1.59.1"), or "".
func versionAfter(low string, end int) string {
	rest := low[end:]
	rest = strings.TrimPrefix(rest, " to ")
	rest = strings.TrimPrefix(rest, " ")
	rest = strings.TrimPrefix(rest, "v")
	n := 0
	for n < len(rest) && (rest[n] >= '0' && rest[n] <= '9' || rest[n] == '.' && n > 0 && n+1 < len(rest) && rest[n+1] >= '0' && rest[n+1] <= '9') {
		n++
	}
	if n == 0 || n+1 < len(rest) && isASCIILetter(rest[n]) && rest[n] != 'x' {
		return ""
	}
	return rest[:n]
}

// versionSubject finds "<runtime> <version>" in low at or after from, or
// before it for Korean triggers, and returns "<name> version".
func versionSubject(low string, hits []valueHit) (subject, value string, at int) {
	for _, v := range versioned {
		for from := 0; ; {
			k := strings.Index(low[from:], v.name)
			if k < 0 {
				break
			}
			k += from
			from = k + len(v.name)
			if !valueBounded(low, k, k+len(v.name)) {
				continue
			}
			if ver := versionAfter(low, k+len(v.name)); ver != "" {
				return v.canon + " version", ver, k
			}
		}
	}
	for _, h := range hits {
		if ver := versionAfter(low, h.end); ver != "" {
			return strings.TrimSuffix(low[h.at:h.end], "/") + " version", ver, h.at
		}
	}
	return "", "", -1
}

// chosen picks the topic value a decision settles on: the first one after
// the trigger (before it, for a Korean trigger), skipping what is being
// replaced: "switch from X to Y", "replace X with Y", "Y instead of X".
func chosen(low string, hits []valueHit, trig int, korean bool) *valueHit {
	if len(hits) == 0 {
		return nil
	}
	// what is replaced: after "instead of"/"rather than", before "대신",
	// between "from" and "to", between "replace" and "with"
	type span struct{ a, b int }
	var out []span
	for _, m := range []string{"instead of", "rather than"} {
		if k := strings.Index(low, m); k >= 0 {
			out = append(out, span{k, len(low)})
		}
	}
	if k := strings.Index(low, "대신"); k >= 0 {
		out = append(out, span{0, k})
	}
	for _, p := range [][2]string{{"from ", " to "}, {"replace", " with "}} {
		if a := strings.Index(low, p[0]); a >= 0 {
			if b := strings.Index(low[a:], p[1]); b >= 0 {
				out = append(out, span{a, a + b})
			}
		}
	}
	rejected := func(h valueHit) bool {
		for _, o := range out {
			if h.at > o.a && h.at < o.b || o.a == 0 && h.at < o.b {
				return true
			}
		}
		return false
	}
	var before, after *valueHit
	for i := range hits {
		h := &hits[i]
		if rejected(*h) {
			continue
		}
		if h.at >= trig && after == nil {
			after = h
		}
		if h.at < trig {
			before = h
		}
	}
	if korean && before != nil {
		return before
	}
	if after != nil {
		return after
	}
	if before != nil {
		return before
	}
	return &hits[0]
}

// envVar returns the first environment-variable-like token of s
// (JWT_PUBLIC_KEY_PATH), or "".
func envVar(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 'A' || c > 'Z' || i > 0 && isIdentByte(s[i-1]) {
			continue
		}
		j := i
		under := false
		for j < len(s) && (s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9' || s[j] == '_') {
			under = under || s[j] == '_'
			j++
		}
		if under && j-i >= 4 && s[j-1] != '_' && (j == len(s) || !isIdentByte(s[j])) {
			return s[i:j]
		}
		i = j
	}
	return ""
}

func isIdentByte(c byte) bool {
	return isASCIILetter(c) || c >= '0' && c <= '9' || c == '_'
}

// paths returns the file paths and directories named in s: backticked
// tokens with a slash or an extension, and bare tokens like ./keys or
// src/app.js. Routes such as /api/orders are not paths.
func paths(s string) []string {
	var out []string
	for f := range strings.FieldsSeq(s) {
		tick := strings.HasPrefix(f, "`")
		if tick {
			// the code span's content: "`deploy/k8s/base`와" names deploy/k8s/base
			if e := strings.IndexByte(f[1:], '`'); e >= 0 {
				f = f[1 : 1+e]
			}
		}
		f = pathTrim.trim(f)
		f = strings.TrimRight(f, ".")
		if f == "" || strings.Contains(f, "://") {
			continue
		}
		if isPath(f, tick) {
			out = append(out, f)
		}
	}
	return out
}

// isLowerExt reports a file extension: lower-case letters and digits,
// starting with a letter ("ts", "md", "mp4"); "New" of logging.New is not one.
func isLowerExt(e string) bool {
	if e == "" || e[0] < 'a' || e[0] > 'z' {
		return false
	}
	for i := 0; i < len(e); i++ {
		if !(e[i] >= 'a' && e[i] <= 'z' || e[i] >= '0' && e[i] <= '9') {
			return false
		}
	}
	return true
}

func isPath(f string, tick bool) bool {
	for _, p := range []string{"./", "../", "~/", "/home/", "/etc/", "/usr/", "/var/", "/tmp/", "/opt/", "/srv/"} {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	if strings.HasPrefix(f, "/") || strings.ContainsAny(f, " =<>") {
		return false
	}
	slash := strings.Contains(f, "/")
	dot := strings.LastIndexByte(f, '.')
	ext := dot > 0 && dot < len(f)-1 && len(f)-dot-1 <= 6 && isLowerExt(f[dot+1:])
	if dot == 0 && len(f) > 1 && isASCIILetter(f[1]) { // .env, .gitignore
		return true
	}
	if slash && strings.Count(f, "/") >= 1 && !strings.Contains(f, "(") {
		return ext || tick || strings.HasSuffix(f, "/")
	}
	return tick && ext && !strings.Contains(f, "(")
}

// words splits s into lower-case word tokens: letters, digits and the
// characters of paths and identifiers.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '.' && r != '/' && r != '-' && r != '\''
	})
}

// headFields appends to dst the first fields of s, as strings.Fields splits
// it, until dst is full (cap(dst)). A rule that reads a text's first words,
// or asks whether it has more than a few, passes a small array: splitting
// every word of a long text into a slice of its own was a tenth of what a
// session's extraction allocated.
func headFields(dst []string, s string) []string {
	if len(dst) == cap(dst) {
		return dst
	}
	for f := range strings.FieldsSeq(s) {
		dst = append(dst, f)
		if len(dst) == cap(dst) {
			break
		}
	}
	return dst
}

func in(list []string, w string) bool {
	for _, x := range list {
		if x == w {
			return true
		}
	}
	return false
}

// phraseSubject is the normalized head-noun phrase of s: up to three
// content words, verbs of an imperative dropped, Korean particles stripped.
func phraseSubject(s string, dropVerb bool) string {
	var out []string
	first := true
	for _, w := range words(s) {
		w = strings.Trim(w, ".-/'")
		if w == "" {
			continue
		}
		if korean.Hangul(w) {
			if in(koreanStop, w) || isKoreanPredicate(w) {
				first = false
				continue
			}
			w = stripParticle(w)
			if w == "" || in(koreanStop, w) {
				first = false
				continue
			}
		} else {
			if first && dropVerb && in(subjectVerbs, w) {
				first = false
				continue
			}
			if isStopword(w) || in(subjectVerbs, w) && len(out) == 0 {
				first = false
				continue
			}
		}
		first = false
		out = append(out, w)
		if len(out) == 3 {
			break
		}
	}
	return strings.Join(out, " ")
}

// stripParticle removes up to two particles from the end of a Korean word
// ("Secret으로만" -> "Secret"); a word that is only a particle becomes "".
func stripParticle(w string) string {
	if in(koreanParticles, w) {
		return ""
	}
	for range 2 {
		for _, p := range koreanParticles {
			if strings.HasSuffix(w, p) && len(w) > len(p) {
				w = strings.TrimSuffix(w, p)
				break
			}
		}
	}
	return w
}

// isKoreanPredicate reports a verb or adjective form (…요, …다, …세요) that
// ends a Korean clause; it names no subject.
func isKoreanPredicate(w string) bool {
	for _, e := range []string{"요", "다", "죠", "줘", "세요", "시오", "도록", "는데", "니다", "해서", "하고", "하면"} {
		if strings.HasSuffix(w, e) {
			return true
		}
	}
	return false
}

// koreanTopic returns the phrase marked as topic (…은/는) or object (…을/를)
// before the trigger at trig, up to two words.
func koreanTopic(norm string, trig int) string {
	fields := strings.Fields(norm[:trig])
	// the topic (은/는) names the subject better than the object (을/를)
	for _, ps := range [][]string{{"은", "는"}, {"을", "를"}} {
		for i := len(fields) - 1; i >= 0; i-- {
			f := strings.Trim(fields[i], "`'\"()[],.:")
			if in(koreanStop, f) || utf8.RuneCountInString(f) < 2 || !(strings.HasSuffix(f, ps[0]) || strings.HasSuffix(f, ps[1])) {
				continue
			}
			start := i
			if prev := fields[max(i-1, 0)]; i > 0 && !in(koreanStop, prev) && !isKoreanPredicate(prev) &&
				!strings.HasSuffix(prev, ",") && !strings.HasSuffix(prev, ":") && stripParticle(prev) == prev {
				start = i - 1
			}
			if t := phraseSubject(strings.Join(fields[start:i+1], " "), false); t != "" {
				return t
			}
		}
	}
	return ""
}
