package align

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// textGen makes deterministic, realistic coding-session text: prompts and
// answers in English and Korean, Go code, tool output, emoji.
type textGen struct {
	r *rand.Rand
}

func newTextGen(seed uint64) *textGen {
	return &textGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

var (
	englishWords = strings.Fields(`the a we should use store hook session memory entry quote align message
		database file test run build before after because when never always with without into from this that it
		is are was will not and or but then if each every only new old first last fast slow small large error
		value index query search result token budget context prompt answer user model worker process lock write
		read update delete insert table column schema migration version release binary static plugin config
		setting path directory project repository branch commit change fix bug issue case default option flag
		command output input JSON line byte offset span text word list map slice string number count limit
		timeout deadline cache disk server client request response keep move add remove check parse return
		handle decide prefer instead also still already maybe probably later now here there`)
	identifiers = strings.Fields(`ctx err nil store.Open align.Quote hook.Run recall.Rank json.Unmarshal
		fmt.Errorf sql.DB ExecContext QueryContext t.Fatalf dedupe_key span_start span_end user_prompt
		agent_response tool_observation CLAUDE_MEMORY_DIR busy_timeout bm25() FTS5 SQLite WAL go.mod
		internal/store/store.go cmd/stop/main.go internal/recall/rank.go README.md Makefile hooks.json`)
	koreanWords = strings.Fields(`데이터베이스 세션 메모리 저장 검색 테스트 추가 변경 제거 확인 결정 파일 설정 훅
		실행 오류 수정 다음 단계 완료 배포 인덱스 쿼리 결과 사용자 프롬프트 응답 요약 캐시 성능 구조 기록`)
	koreanParticles = strings.Fields(`를 을 에서 으로 는 가 의 도 에 와`)
	emoji           = strings.Fields(`🚀 ✅ 👍 🎉 ⚠️ 🔥 👍🏽 🧪`)
	// otherWords are for invented quotes: plausible English that a model
	// might hallucinate, partly overlapping the session's vocabulary.
	otherWords = strings.Fields(`team agreed migrate PostgreSQL billing service customer invoice weekly
		report dashboard metrics latency production incident rollback deploy Kubernetes cluster region
		budget quarter roadmap feature flag experiment users onboarding email password reset mobile app
		we the will should must never always our their because after before data store memory search`)
)

func (g *textGen) pick(words []string) string { return words[g.r.IntN(len(words))] }

// sentence is an English sentence of n words, with some identifiers.
func (g *textGen) sentence(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		w := g.pick(englishWords)
		if g.r.IntN(6) == 0 {
			w = "`" + g.pick(identifiers) + "`"
		}
		if i == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	b.WriteString(g.pick([]string{".", ".", ".", "?", ":", "!"}))
	return b.String()
}

func (g *textGen) korean(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.pick(koreanWords))
		if g.r.IntN(2) == 0 {
			b.WriteString(g.pick(koreanParticles))
		}
		if g.r.IntN(5) == 0 {
			b.WriteString(" " + g.pick(identifiers))
		}
	}
	if g.r.IntN(3) == 0 {
		b.WriteString(" " + g.pick(emoji))
	}
	b.WriteString(".")
	return b.String()
}

func (g *textGen) code(lines int) string {
	var b strings.Builder
	b.WriteString("```go\n")
	fmt.Fprintf(&b, "func %s%d(ctx context.Context, db *sql.DB) error {\n", g.pick([]string{"load", "save", "scan", "align", "rank"}), g.r.IntN(100))
	for range lines {
		switch g.r.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "\tif err := %s(ctx); err != nil {\n\t\treturn fmt.Errorf(\"%s %%s: %%w\", name, err)\n\t}\n", g.pick(identifiers), g.pick(englishWords))
		case 1:
			fmt.Fprintf(&b, "\t%s := %d // %s\n", g.pick([]string{"n", "off", "limit", "count"}), g.r.IntN(5000), g.sentence(4+g.r.IntN(5)))
		case 2:
			fmt.Fprintf(&b, "\trows, err := db.QueryContext(ctx, `SELECT id, %s FROM events WHERE session_id = ?`, id)\n", g.pick([]string{"payload", "ts", "type", "dedupe_key"}))
		default:
			fmt.Fprintf(&b, "\tfor i := range %s {\n\t\tout = append(out, %s[i])\n\t}\n", g.pick([]string{"rows", "msgs", "entries"}), g.pick([]string{"rows", "msgs", "entries"}))
		}
	}
	b.WriteString("\treturn nil\n}\n```")
	return b.String()
}

func (g *textGen) toolOutput(lines int) string {
	var b strings.Builder
	for range lines {
		switch g.r.IntN(3) {
		case 0:
			fmt.Fprintf(&b, "--- PASS: Test%s%d (0.%02ds)\n", strings.ToUpper(g.pick(englishWords)[:1]), g.r.IntN(1000), g.r.IntN(100))
		case 1:
			fmt.Fprintf(&b, "-rw-r--r-- 1 dev dev %6d Jan %2d 12:%02d %s\n", g.r.IntN(100000), 1+g.r.IntN(28), g.r.IntN(60), g.pick(identifiers))
		default:
			fmt.Fprintf(&b, "%s:%d:%d: %s\n", g.pick(identifiers), 1+g.r.IntN(900), 1+g.r.IntN(80), g.sentence(5+g.r.IntN(8)))
		}
	}
	return b.String()
}

// message is one session message of a random kind.
func (g *textGen) message() string {
	var parts []string
	switch k := g.r.IntN(10); {
	case k < 3: // a prompt
		for range 1 + g.r.IntN(3) {
			if g.r.IntN(3) == 0 {
				parts = append(parts, g.korean(4+g.r.IntN(8)))
			} else {
				parts = append(parts, g.sentence(6+g.r.IntN(14)))
			}
		}
		return strings.Join(parts, " ")
	case k < 8: // an answer
		for range 2 + g.r.IntN(5) {
			switch g.r.IntN(6) {
			case 0:
				parts = append(parts, g.code(2+g.r.IntN(6)))
			case 1:
				parts = append(parts, "- "+g.sentence(5+g.r.IntN(8))+"\n- "+g.sentence(5+g.r.IntN(8)))
			case 2:
				parts = append(parts, g.korean(5+g.r.IntN(10)))
			default:
				parts = append(parts, g.sentence(8+g.r.IntN(16))+" "+g.sentence(6+g.r.IntN(12)))
			}
		}
		return strings.Join(parts, "\n\n")
	default: // tool output
		return g.toolOutput(3 + g.r.IntN(25))
	}
}

// session returns n messages.
func (g *textGen) session(n int) []string {
	msgs := make([]string, n)
	for i := range msgs {
		msgs[i] = g.message()
	}
	return msgs
}

// cut returns a random piece of s of about minRunes..maxRunes runes, cut on
// rune boundaries.
func (g *textGen) cut(s string, minRunes, maxRunes int) string {
	rs := []rune(s)
	if len(rs) <= minRunes {
		return s
	}
	n := min(len(rs), minRunes+g.r.IntN(maxRunes-minRunes+1))
	a := g.r.IntN(len(rs) - n + 1)
	return string(rs[a : a+n])
}

// perturbNormalized changes s in ways normalization undoes: case, white
// space, quotes, dashes, backticks.
func (g *textGen) perturbNormalized(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == ' ' && g.r.IntN(4) == 0:
			b.WriteString(g.pick([]string{"\n", "  ", "\t", " \n "}))
		case r == '"' && g.r.IntN(2) == 0:
			b.WriteString("“")
		case r == '\'' && g.r.IntN(2) == 0:
			b.WriteString("’")
		case r == '`':
			// dropped
		case r < utf8.RuneSelf && g.r.IntN(5) == 0:
			b.WriteString(strings.ToUpper(string(r)))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// perturbFuzzy makes about one edit per 30 runes, at least one.
func (g *textGen) perturbFuzzy(s string) string {
	rs := []rune(s)
	edits := max(1, len(rs)/30)
	for range edits {
		if len(rs) < 2 {
			break
		}
		p := g.r.IntN(len(rs))
		switch g.r.IntN(3) {
		case 0:
			rs = append(rs[:p], rs[p+1:]...)
		case 1:
			rs[p] = rune('a' + g.r.IntN(26))
		default:
			rs = append(rs[:p], append([]rune{rune('a' + g.r.IntN(26))}, rs[p:]...)...)
		}
	}
	return string(rs)
}

// invented is an English sentence of n words, a third of them from the
// session's own vocabulary, that no session contains.
func (g *textGen) invented(n int) string {
	w := make([]string, n)
	for i := range w {
		if g.r.IntN(3) == 0 {
			w[i] = g.pick(englishWords)
		} else {
			w[i] = g.pick(otherWords)
		}
	}
	return strings.Join(w, " ")
}
