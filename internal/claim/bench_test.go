package claim

import "testing"

// BenchmarkParse is the recall hook's load: about ten short recalled texts
// per prompt.
func BenchmarkParse(b *testing.B) {
	texts := []string{
		"Decision: integration tests use Postgres 16 in a testcontainer.",
		"We switched the billing service from Flask to FastAPI; old views move over as we edit them.",
		"The worker listens on port 9090 and retries failed jobs 5 times with a 30s timeout.",
		"Netlify 대신 이제 Render로 배포합니다. 기존 사이트는 다음 달에 닫을 거예요.",
		"Please add a RELEASING.md that lists the steps to cut a release.",
		"Config lives in config/app.yaml; secrets come from Vault.",
		"Format the Kotlin sources with ktlint and the android style.",
		"Upgraded the image to Python 3.12 since 3.8 is out of support.",
		"The weekly report job runs at 06:15 UTC in ap-south-1.",
		"Session keys in Memcached are prefixed with sess: and expire after 12 hours.",
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

// BenchmarkAsks is the prompt hook's reading of a prompt for the role it
// asks, over prompts most of which ask none.
func BenchmarkAsks(b *testing.B) {
	prompts := []string{
		"run the tests again and fix the failing build",
		"Add a CSV export to the reports page.",
		"Why did the nightly import stop last week?",
		"which package manager do we use in the monorepo?",
		"¿Qué versión de Node usamos en el backend?",
		"please refactor the auth middleware so it reads the token once",
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range prompts {
			Asks(p)
		}
	}
}
