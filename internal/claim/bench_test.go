package claim

import "testing"

// BenchmarkParse is the recall hook's load: about ten short recalled texts
// per prompt.
func BenchmarkParse(b *testing.B) {
	texts := []string{
		"Decision: integration tests use Postgres 16 in a testcontainer.",
		"We switched the public API from Express to Fastify; old routes get ported as we touch them.",
		"The worker listens on port 9090 and retries failed jobs 5 times with a 30s timeout.",
		"Heroku 대신 이제 Fly.io로 배포합니다. 기존 앱은 다음 주에 내릴 거예요.",
		"Please add a CONTRIBUTING.md that explains how to run the linters locally.",
		"Config lives in config/app.yaml; secrets come from Vault.",
		"Lint the TypeScript sources with eslint and the airbnb config.",
		"Upgraded the runtime to Node 20 since Node 18 goes end-of-life.",
		"The nightly backup runs at 02:00 UTC in us-east-1.",
		"Cart keys in Redis are prefixed with cart: and expire after 3 days.",
	}
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			Parse(t)
		}
	}
}
