module github.com/claude-memory-layer/claude-memory-layer/scripts/gitleaksrules

go 1.24

require github.com/BurntSushi/toml v1.6.0
