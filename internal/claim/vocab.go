package claim

import (
	"slices"
	"strings"
	"sync"
)

// roleTable names, per role, the tools and choices that fill it. Each line is
// "canonical,alias,alias"; items are separated by "|"; a leading "=" marks a canonical name that is too common a word to be recognised by itself; aliases are lower-case and may
// be several words. A tool in several roles ("redis", "biome") is told apart
// by the role's keywords in its statement (see roleHints). The table is
// general on purpose: the point is to recognise that two statements decide the
// same thing, so it lists many tools per role rather than any one project's.
var roleTable = []struct {
	role  string
	tools string
}{
	{"test runner", `jest|vitest|mocha|jasmine|ava|pytest|unittest|nose2|rspec|minitest|junit|testng|phpunit|xunit|nunit|mstest|karma|ginkgo|go test|cargo test|bun test|uvu|kotest|spock|exunit`},
	{"e2e framework", `cypress|playwright|selenium|puppeteer|webdriverio,wdio|testcafe|nightwatch|detox|appium|capybara|robot framework`},
	{"bundler", `webpack|esbuild|rollup|parcel|vite|turbopack|rspack|snowpack|browserify|react-scripts,create-react-app|tsup|rolldown|ncc|bun build|gulp|grunt`},
	{"static site generator", `hugo|jekyll|gatsby|eleventy,11ty|docusaurus|mkdocs|sphinx|hexo|vuepress|vitepress|astro|zola|nextra|pelican|mdbook|gitbook`},
	{"linter", `eslint|tslint|jshint|jslint|biome|oxlint|ruff|flake8|pylint|pyflakes|golangci-lint|staticcheck|go vet|revive|rubocop|clippy|stylelint|shellcheck|ktlint|detekt|swiftlint|hadolint|markdownlint|credo|phpstan|psalm|standardjs`},
	{"formatter", `prettier|dprint|black|gofmt|gofumpt|goimports|rustfmt|autopep8|yapf|clang-format|ruff format|ruff|ktfmt|swiftformat|biome|standardrb|mix format|isort`},
	{"type checker", `mypy|pyright|pytype|pyre|tsc`},
	{"http client", `axios|fetch|node-fetch|superagent|ofetch|httpx|aiohttp|urllib3|okhttp|retrofit|alamofire|resty|undici|ky-universal|restsharp|faraday|httparty|guzzle|reqwest`},
	// Before queue: a tool in both (redis) is a cache unless its statement
	// says job or queue (roleHints).
	{"cache", `memcached,memcache|redis|valkey|keydb|dragonfly|varnish|hazelcast|ehcache|caffeine|lru,lru cache,golang-lru,in-process lru,lru-cache|ristretto|bigcache|groupcache|freecache|node-cache`},
	{"queue", `rabbitmq|kafka|redis|sqs,amazon sqs,aws sqs|nats|pulsar|activemq|zeromq|kinesis|pub/sub,pubsub,google pub/sub|service bus,azure service bus|eventbridge|nsq|beanstalkd|bullmq|sidekiq|celery|resque|delayed_job|rq|dramatiq|oban|hangfire|redpanda`},
	{"web framework", `express|fastify|koa|hapi|nestjs|django|flask|fastapi|starlette|rails,ruby on rails|sinatra|spring,spring framework|gorilla/mux|actix,actix-web|axum|laravel|symfony|phoenix|asp.net core,asp.net|ktor|micronaut|quarkus|hono|elysia|tornado|sanic|net/http|litestar|adonisjs|feathers|loopback|restify`},
	{"frontend framework", `react|vue|angular|svelte|sveltekit|=solid,solidjs,solid.js|preact|ember|backbone|jquery|alpine.js,alpinejs|htmx|qwik|nuxt|next.js,nextjs|remix|gatsby|blazor|elm`},
	{"state management", `redux|redux toolkit|mobx|zustand|recoil|jotai|pinia|vuex|ngrx|xstate|valtio|tanstack query|react query|swr`},
	{"css framework", `tailwind,tailwindcss,tailwind css|bootstrap|bulma|styled-components|css modules|sass|material ui,mui|chakra,chakra ui,chakra|vanilla-extract|unocss|pandacss`},
	{"orm", `prisma|typeorm|sequelize|drizzle|knex|sqlalchemy|django orm|activerecord|active record|hibernate|gorm|sqlc|sqlx|diesel|entity framework|doctrine|eloquent|mongoose|peewee|sqlboiler|mikro-orm|objection|kysely|jooq|exposed|sea-orm|tortoise`},
	{"json library", `sonic|jsoniter,json-iterator|easyjson|go-json,goccy/go-json|simdjson|orjson|ujson|rapidjson|serde_json|jackson|gson|moshi|fast-json-stringify|json/v2|segmentio/encoding`},
	{"database", `postgres,postgresql|mysql|mariadb|sqlite,sqlite3|mongodb,mongo|dynamodb|cassandra|scylladb|cockroachdb|sql server,mssql|oracle|couchdb|firestore|supabase|planetscale|clickhouse|timescaledb|tidb|cosmos db,cosmosdb|faunadb|surrealdb|duckdb|bigquery|snowflake|redshift|spanner|couchbase|neo4j|arangodb|influxdb|h2|hsqldb|libsql|turso|yugabytedb`},
	{"connection pooler", `pgbouncer|pgpool|pgpool-ii|odyssey|rds proxy|supavisor|pgcat`},
	{"search engine", `elasticsearch|opensearch|solr|meilisearch|typesense|algolia|vespa|tantivy|bleve|zincsearch|quickwit|manticore`},
	{"object storage", `s3,amazon s3,aws s3|r2,cloudflare r2|gcs,google cloud storage|azure blob storage,azure blob,blob storage|minio|backblaze b2,backblaze|digitalocean spaces|wasabi|ceph|seaweedfs`},
	{"hosting", `heroku|fly.io|vercel|netlify|render.com|railway|github pages|gitlab pages|cloudflare pages|cloudflare workers|aws amplify|app engine,google app engine|elastic beanstalk|cloud run|azure app service|digitalocean app platform|firebase hosting|deno deploy|lambda,aws lambda|fargate|ec2|droplet|hetzner|linode|digitalocean`},
	{"container orchestration", `kubernetes,k8s|nomad|docker swarm|ecs,amazon ecs|docker compose|openshift|eks|gke|aks|k3s`},
	{"deployment tool", `argocd,argo cd|flux,fluxcd|spinnaker|octopus deploy|kustomize|capistrano|ansible|helm|skaffold|kamal|waypoint`},
	{"infrastructure as code", `terraform|opentofu|pulumi|cloudformation|aws cdk,cdk|crossplane|bicep|serverless framework`},
	{"ci", `github actions|gitlab ci|circleci|jenkins|travis ci,travis|buildkite|azure pipelines|teamcity|bitbucket pipelines|cloud build|codebuild|woodpecker|appveyor|tekton|concourse`},
	{"ci runner", `ubuntu-24.04|ubuntu-22.04|ubuntu-20.04|macos-latest|macos-14|macos-13|windows-latest|windows-2022|self-hosted`},
	{"error tracking", `sentry|rollbar|bugsnag|honeybadger|airbrake|raygun|crashlytics|trackjs|glitchtip|errbit`},
	{"monitoring", `datadog|grafana,grafana cloud|prometheus|new relic,newrelic|honeycomb|dynatrace|cloudwatch|signalfx|appdynamics|lightstep|elastic apm|victoriametrics|azure monitor|stackdriver|chronosphere|graphite|statsd|zabbix|nagios|uptime kuma|instana|netdata|mimir|thanos`},
	{"logging", `elk|logstash|loki|papertrail|loggly|splunk|sumo logic|fluentd|fluent bit|graylog|cloudwatch logs|logtail|better stack|logdna|mezmo|axiom`},
	{"identity provider", `auth0|keycloak|okta|cognito,aws cognito,amazon cognito|firebase auth|clerk|supertokens|ory|azure ad,entra id,entra|onelogin|fusionauth|authentik|zitadel|workos|stytch|supabase auth|nextauth,next-auth,auth.js|devise|authelia|casdoor|logto`},
	{"payments", `stripe|braintree|paypal|adyen|paddle|lemon squeezy|mollie|razorpay|checkout.com`},
	{"email service", `sendgrid|mailgun|postmark|ses,amazon ses,aws ses|mailchimp|mandrill|sparkpost|resend|mailjet|brevo|mailersend|smtp2go`},
	{"feature flags", `launchdarkly|unleash|flagsmith|growthbook|split.io|configcat|flipt|openfeature|statsig`},
	{"analytics", `google analytics|mixpanel|amplitude|posthog|plausible|matomo|fathom|umami|rudderstack`},
	{"secrets manager", `vault,hashicorp vault|aws secrets manager,secrets manager|parameter store|doppler|1password|infisical|sops|sealed secrets|azure key vault|key vault|secret manager|bitwarden secrets`},
	{"container registry", `docker hub,dockerhub|ghcr,ghcr.io,github container registry|ecr,amazon ecr|gcr|gcr.io|artifact registry|quay,quay.io|acr|harbor`},
	{"package manager", `npm|yarn|pnpm|pip|poetry|pipenv|uv|conda|pdm|hatch|rye|cargo|composer|maven|gradle|spm,swiftpm|cocoapods|carthage|go modules|nuget|conan|vcpkg|bundler|bun`},
	{"js runtime", `node,nodejs,node.js|deno|bun`},
	{"api style", `=rest,rest api,restful|graphql|grpc|trpc|json-rpc|soap|openapi`},
	{"merge strategy", `squash,squash-merge,squash merge,squash-merging,squash merging,squash-merged,squash and merge,squash-and-merge,squashing,squash|merge commit,merge-commit|=rebase,rebase-merge,rebase merge,rebase and merge,rebase-and-merge,rebase-merging|fast-forward,ff-only`},
	{"versioning scheme", `semver,semantic versioning|calver,calendar versioning`},
	{"branching model", `trunk-based,trunk based,trunk-based development|gitflow,git flow,git-flow|github flow`},
	{"commit convention", `conventional commits|gitmoji`},
	{"signing algorithm", `rs256|rs384|rs512|hs256|hs384|hs512|es256|es384|es512|ps256|eddsa|ed25519|rsa-sha256|ecdsa|hmac-sha256`},
	{"password hashing", `bcrypt|argon2,argon2id|scrypt|pbkdf2|sha-256 crypt`},
	{"compression", `gzip|brotli|zstd|lz4|snappy|deflate|xz`},
	{"serialization format", `protobuf,protocol buffers|msgpack,messagepack|avro|thrift|cbor|flatbuffers|capnproto|bson`},
	{"logging library", `zap|zerolog|logrus|slog,log/slog|winston|pino|bunyan|log4j|logback|loguru|structlog|serilog|nlog`},
	{"monorepo tool", `nx|turborepo|lerna|bazel|pants|buck2`},
	{"build system", `bazel|cmake|meson|gradle|maven|sbt|scons`},
	{"cdn", `cloudflare|fastly|cloudfront|akamai|bunny.net,bunnycdn|keycdn`},
	{"reverse proxy", `nginx|caddy|traefik|haproxy|envoy|apache httpd|httpd|kong|iis`},
	{"process manager", `pm2|systemd|supervisord|runit|s6|foreman`},
	{"workflow engine", `airflow|dagster|prefect|temporal|luigi|step functions|argo workflows|n8n|cadence`},
	{"mocking library", `msw|nock|wiremock|sinon|testdouble|gomock|mockery|mockito|vcr|pretender|mirage`},
	{"date library", `moment.js,momentjs|dayjs,day.js|date-fns|luxon|js-joda`},
	{"validation library", `zod|yup|joi|ajv|valibot|class-validator|pydantic|marshmallow|cerberus|superstruct|typebox|go-playground/validator`},
	{"vcs host", `github|gitlab|bitbucket|gitea|azure devops|codeberg|sourcehut`},
	{"container runtime", `docker|podman|containerd|cri-o|colima|orbstack|rancher desktop`},
	{"mobile framework", `react native|flutter|ionic|capacitor|cordova|xamarin|kotlin multiplatform|nativescript|expo`},
	{"task queue", `celery|sidekiq|bullmq|resque|rq|dramatiq|oban|hangfire|temporal`},
	{"ui component library", `shadcn/ui|radix|headless ui|ant design|antd|mantine|vuetify|primereact|daisyui`},
	{"i18n library", `i18next|react-intl|formatjs|vue-i18n|lingui|gettext`},
	{"graphql server", `apollo server|apollo|graphql-yoga|hasura|mercurius|gqlgen|strawberry|graphene|postgraphile`},
	{"mobile release", `fastlane|xcode cloud|bitrise|codemagic|app center,appcenter|eas build|testflight`},
	{"api docs", `swagger,swagger ui|redoc|stoplight|rapidoc`},
	{"code coverage", `codecov|coveralls|sonarqube|sonarcloud|codeclimate,code climate`},
	{"dependency updates", `dependabot|renovate,renovatebot`},
	{"artifact registry", `artifactory,jfrog artifactory|nexus|verdaccio|github packages|cloudsmith|gemfury`},
	{"load testing", `k6|locust|jmeter|gatling|artillery|vegeta`},
	{"issue tracker", `jira|linear.app|github issues|asana|trello|youtrack|clickup|redmine|bugzilla`},
	{"team chat", `slack|discord|microsoft teams|mattermost|zulip|rocket.chat`},
	{"wiki", `confluence|notion.so|github wiki|bookstack|dokuwiki`},
	{"mail testing", `mailhog|mailpit|mailtrap`},
	{"dev environment", `devcontainers,devcontainer,dev containers,dev container|nix,nix flakes|devbox|vagrant|gitpod|codespaces,github codespaces`},
	{"app server", `gunicorn|uvicorn|hypercorn|waitress|puma|unicorn|passenger|daphne|granian`},
	{"tracing", `jaeger|zipkin|tempo,grafana tempo|opentelemetry,otel|x-ray,aws x-ray`},
	{"push notifications", `firebase cloud messaging,fcm|apns|onesignal|pusher|ably`},
	{"cloud provider", `aws,amazon web services|gcp,google cloud,google cloud platform|azure,microsoft azure|oracle cloud|ovh,ovhcloud|scaleway|vultr`},
	{"scheduler", `cron,crontab|cronjob,kubernetes cronjob|cloud scheduler|eventbridge scheduler|sidekiq-cron|apscheduler`},
	{"auth method", `jwt,jwts,json web token,json web tokens|session cookie,session cookies|api key|oauth,oauth2|saml|oidc,openid connect|basic auth|mtls|paseto`},
	{"language", `python|typescript|javascript|rust|java|kotlin|ruby|php|elixir|scala|c#,csharp|swift|dart|golang|haskell|clojure|zig|lua|perl`},
	{"browser grid", `browserstack|sauce labs,saucelabs|lambdatest`},
	{"image processing", `imgproxy|thumbor|imagekit|cloudinary|imgix|sharp|imagemagick|libvips,vips|pillow|thumbhash`},
	{"release tool", `changesets|semantic-release|release-please|standard-version|goreleaser|release-it|lerna`},
	{"iac platform", `terraform cloud,hcp terraform|spacelift|env0|atlantis|scalr`},
	{"low-code tool", `retool|appsmith|budibase|tooljet|django admin|react-admin|forest admin`},
	{"migration tool", `flyway|liquibase|alembic|goose|golang-migrate|dbmate|sqitch|knex migrations|prisma migrate|django migrations`},
}

// roleHints are words that, in a statement, pick one role for a tool that
// fills several ("cached in redis" vs "jobs pushed to redis"). Built at
// first use, as lazywords.Set builds its sets.
var roleHints = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"cache":                 {"cache", "cached", "caching", "캐시", "lru", "evict", "evicted"},
		"queue":                 {"queue", "queues", "job", "jobs", "stream", "streams", "broker", "enqueue", "enqueued", "consume", "consumer", "publish", "published", "큐"},
		"database":              {"database", "db", "store", "stores", "data", "schema", "table", "tables", "데이터베이스", "디비"},
		"linter":                {"lint", "linter", "linting", "lints", "린트", "린터"},
		"formatter":             {"format", "formatter", "formatting", "formats", "포매터", "포매팅", "포맷"},
		"package manager":       {"package", "packages", "dependencies", "dependency", "install", "installs", "lockfile", "의존성", "패키지"},
		"build system":          {"build", "builds", "compile", "빌드"},
		"js runtime":            {"runtime", "runtimes", "server", "runs", "런타임"},
		"test runner":           {"test", "tests", "testing", "테스트"},
		"task queue":            {"task", "tasks", "worker", "workers"},
		"monorepo tool":         {"monorepo", "workspace", "workspaces"},
		"frontend framework":    {"frontend", "ui", "component", "components", "spa"},
		"static site generator": {"docs", "documentation", "site", "blog"},
		"release tool":          {"version", "versions", "versioning", "release", "releases", "publish", "publishing", "changelog"},
		"hosting":               {"host", "hosted", "hosting", "deploy", "deployed", "deploys", "배포"},
	}
})

// tool is what a phrase names: its canonical value and every role it can fill.
type tool struct {
	value string
	roles []string
}

// vocabulary maps each lower-case phrase (up to three tokens) to the tool it
// names. It is built once, on first use, from roleTable.
type vocabulary struct {
	phrases map[string]*tool
	byValue map[string][]string // canonical value -> its roles
	maxLen  int                 // most tokens in a phrase
}

var vocab = sync.OnceValue(buildVocab)

// buildVocab builds the vocabulary from roleTable. Every prompt pays for it
// (claim.Asks parses the prompt), so it allocates up front: maps sized for
// every name, one array of tools, and one role list per role shared by the
// tools that fill only it (a second role appends to a copy: cap is 1).
func buildVocab() *vocabulary {
	names := 0
	for _, r := range roleTable {
		names += strings.Count(r.tools, "|") + strings.Count(r.tools, ",") + 1
	}
	v := &vocabulary{phrases: make(map[string]*tool, names), byValue: make(map[string][]string, names)}
	tools := make([]tool, 0, names)
	for _, r := range roleTable {
		only := []string{r.role}[:1:1]
		for item := range strings.SplitSeq(r.tools, "|") {
			// "=canon,alias": the canonical name is too common a word to
			// be recognised on its own ("rest"), only its aliases are.
			item, hidden := strings.CutPrefix(item, "=")
			canon, _, _ := strings.Cut(item, ",")
			for n := range strings.SplitSeq(item, ",") {
				if hidden {
					hidden = false
					continue
				}
				n = strings.TrimSpace(n)
				if n == "" {
					continue
				}
				t := v.phrases[n]
				if t == nil {
					tools = append(tools, tool{value: canon})
					t = &tools[len(tools)-1]
					v.phrases[n] = t
				}
				if slices.Contains(t.roles, r.role) {
					continue
				}
				if t.roles == nil {
					t.roles = only
				} else {
					t.roles = append(t.roles, r.role)
				}
				if by := v.byValue[canon]; by == nil {
					v.byValue[canon] = only
				} else if !slices.Contains(by, r.role) {
					v.byValue[canon] = append(by, r.role)
				}
				if k := strings.Count(n, " ") + 1; k > v.maxLen {
					v.maxLen = k
				}
			}
		}
	}
	return v
}

// RolesOf returns every role a canonical value can fill ("redis": cache,
// queue), or nil for a value that is not a known tool. An entry is indexed
// under all of them, so a later "replace Lerna with Changesets" (release
// tool) finds "the monorepo uses Lerna" (monorepo tool).
func RolesOf(value string) []string { return vocab().byValue[value] }
