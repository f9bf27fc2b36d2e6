package extract

import "testing"

func TestCommandKey(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ cmd, want string }{
		{"cargo build --features x", "cargo build"},
		{"cargo build", "cargo build"},
		{"npm test -- test/a.test.js", "npm test"},
		{"uv run pytest -q", "uv run pytest"},
		{"uv run ruff check .", "uv run ruff"},
		{"./scripts/check-all.sh", "./scripts/check-all.sh"},
		{"SKIP_SLOW=1 ./scripts/check-all.sh --verbose 2>&1 | tail -5", "./scripts/check-all.sh"},
		{"cd web && make lint", "make lint"},
		{"timeout 120 go test ./...", "go test"},
		{"pytest -k login tests/", "pytest"},
		{"python3 tools/gen.py", "python3 tools/gen.py"},
		{"cd web", "cd"},
		{"", ""},
	} {
		if got := CommandKey(tt.cmd); got != tt.want {
			t.Errorf("CommandKey(%q) = %q; want %q", tt.cmd, got, tt.want)
		}
	}
}
